"""How large a battle a file may ask for: agents, rounds, game time, work, file size.

Every field of a stat block has its own bound; these limits bound the whole: a file that
validates is played in bounded time and memory. They are the runner's, not the file's:
``fadad validate|run|sweep --limit agents=50000`` or ``load_scenario(..., limits=
Limits(agents=50_000))`` raise them knowingly, and a file cannot raise them itself.

Work is counted in fighter-rounds: a round of one character is 1, and each other kind of
force counts what a round of it costs the engine next to a character's (:data:`WORK`,
measured in play where nobody can hurt anybody: a Fae Domains turn costs about 25
character rounds, a ship's round with her deck about 200). The default limit, two million,
is about a minute of play on a laptop core even where every blow misses (about 30 us a
fighter-round); a battle that ends sooner costs what it plays.

A battle whose scenario sets no ``stop.max_rounds`` still stops: at :meth:`Limits.round_cap`
rounds (fewer for a battle of much work a round), and its result says so.

>>> Limits().round_cap(2), Limits().round_cap(5_000)
(10000, 400)
>>> Limits.parse(["agents=50000", "rounds=20000"]).agents
50000
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, fields, replace

__all__ = ["DEFAULT_LIMITS", "WORK", "Limits", "LimitsError"]

WORK: dict[str, int] = {
    "character": 1,
    "fae": 25,
    "crew": 10,
    "unit": 10,
    "ship": 200,
    "weapon_mount": 20,
}
"""Fighter-rounds a round of each kind of force costs (a Fae mount counts as a Fae
combatant, a ship's big weapon as a mount per ``count``)."""


class LimitsError(ValueError):
    """A ``--limit`` setting that is not ``NAME=N`` with a known name and N >= 1."""


@dataclass(frozen=True, slots=True)
class Limits:
    """The largest battle a scenario file may describe.

    Attributes:
        agents: agents a battle holds, all sides together: each member of a ``count`` of
            characters or Fae combatants (and each mount), each crew, unit and ship and
            each of her big weapons. A crew or unit of any head count is one agent
            (resolved in bulk).
        rounds: the most rounds ``stop.max_rounds`` may ask for, and the cap of a battle
            that sets none.
        seconds: the most game seconds ``stop.max_seconds`` may ask for (a week).
        work: the most fighter-rounds (:data:`WORK` a round, times the rounds) a battle
            may take; a battle of much work a round gets fewer rounds.
        file_bytes: the largest file read (scenario and catalogue files are kilobytes).
    """

    agents: int = 20_000
    rounds: int = 10_000
    seconds: int = 604_800
    work: int = 2_000_000
    file_bytes: int = 2 * 2**20

    def round_cap(self, work: int) -> int:
        """Rounds a battle of ``work`` fighter-rounds a round plays at most when its
        scenario sets no ``stop.max_rounds``: :attr:`rounds`, or fewer so that its work
        stays within :attr:`work`."""
        return max(1, min(self.rounds, self.work // max(1, work)))

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
