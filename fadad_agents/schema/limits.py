"""How large a battle a file may ask for: agents, rounds, game time, file size.

Every field of a stat block has its own bound; these limits bound the whole: a file that
validates is played in bounded time and memory. They are the runner's, not the file's:
``fadad validate|run|sweep --limit agents=50000`` or ``load_scenario(..., limits=
Limits(agents=50_000))`` raise them knowingly, and a file cannot raise them itself.

A battle whose scenario sets no ``stop.max_rounds`` still stops: at :meth:`Limits.round_cap`
rounds (fewer for a very large battle), and its result says so.

>>> Limits().round_cap(10), Limits().round_cap(5_000)
(10000, 2000)
>>> Limits.parse(["agents=50000", "rounds=20000"]).agents
50000
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, fields, replace

__all__ = ["DEFAULT_LIMITS", "Limits", "LimitsError"]


class LimitsError(ValueError):
    """A ``--limit`` setting that is not ``NAME=N`` with a known name and N >= 1."""


@dataclass(frozen=True, slots=True)
class Limits:
    """The largest battle a scenario file may describe.

    Attributes:
        agents: fighters played as agents, all sides together: each member of a
            ``count`` of characters or Fae combatants (and each mount), each crew, unit
            and ship. A crew or unit of any head count is one agent (resolved in bulk).
        rounds: the most rounds ``stop.max_rounds`` may ask for, and the cap of a battle
            that sets none.
        seconds: the most game seconds ``stop.max_seconds`` may ask for (a week).
        agent_rounds: agents times rounds, the work a battle may take (about 2 us each
            when nobody can reach a foe, more in melee): a large battle gets fewer rounds.
        file_bytes: the largest file read (scenario and catalogue files are kilobytes).
    """

    agents: int = 10_000
    rounds: int = 10_000
    seconds: int = 604_800
    agent_rounds: int = 10_000_000
    file_bytes: int = 2 * 2**20

    def round_cap(self, agents: int) -> int:
        """Rounds a battle of ``agents`` plays at most when its scenario sets no
        ``stop.max_rounds``: :attr:`rounds`, or fewer so that agents x rounds stays within
        :attr:`agent_rounds`."""
        return max(1, min(self.rounds, self.agent_rounds // max(1, agents)))

    @classmethod
    def parse(cls, settings: Iterable[str], base: Limits | None = None) -> Limits:
        """Limits from ``NAME=N`` settings (the ``--limit`` option) over ``base``."""
        names = [f.name for f in fields(cls)]
        changes: dict[str, int] = {}
        for setting in settings:
            name, _, value = setting.partition("=")
            name = name.strip()
            if name not in names or not value.strip().isdigit() or int(value) < 1:
                raise LimitsError(
                    f"--limit {setting!r}: write NAME=N with N >= 1 (names: {', '.join(names)})"
                )
            changes[name] = int(value)
        return replace(base or DEFAULT_LIMITS, **changes)

    def hint(self, name: str) -> str:
        """How to raise limit ``name`` knowingly, for messages."""
        return f"raise it knowingly with --limit {name}=N or Limits({name}=N)"


DEFAULT_LIMITS = Limits()
"""The limits a scenario is validated against unless the runner gives others."""
