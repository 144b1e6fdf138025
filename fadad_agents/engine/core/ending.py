"""How a battle ends: the ending kinds, the scenario's stop rule, and the verdict.

A battle ends when a side is out of the fight (destroyed, routed or surrendered: the
scenario's ``stop.when_side`` says which count), when every side is out at once, or when
its stop rule (rounds or seconds) runs out. :func:`verdict` decides from the side
rosters alone, so every clock (personal rounds, ship rounds, Fae turns) ends alike.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum

from fadad_agents.agents.core.base import SideRoster, Status

__all__ = [
    "NO_WINNER_REASONS",
    "BattleStateError",
    "Ending",
    "StopRule",
    "end_summary",
    "plural_name",
    "side_out_kind",
    "verdict",
    "wins",
]


class Ending(StrEnum):
    """How a battle ended."""

    DESTROYED = "destroyed"
    ROUTED = "routed"
    SURRENDERED = "surrendered"
    MUTUAL = "mutual"  # every side out in the same round
    STOPPED = "stopped"  # the scenario's stop condition (rounds or time)


class BattleStateError(RuntimeError):
    """The battle was asked to play after it finished (no state carries over)."""


class StopRule:
    """The scenario's stop condition, as plain values.

    ``capped``: ``max_rounds`` is the runner's cap for a scenario that set none (every
    battle stops), and a battle it stops says so (:meth:`note`).
    """

    __slots__ = ("capped", "max_rounds", "max_seconds", "when_side")

    def __init__(
        self,
        max_rounds: int | None = 100,
        max_seconds: int | None = None,
        when_side: Sequence[str] = ("destroyed", "routed", "surrendered"),
        *,
        capped: bool = False,
    ) -> None:
        self.max_rounds = max_rounds
        self.max_seconds = max_seconds
        self.when_side = frozenset(when_side)
        self.capped = capped

    def reached(self, rounds: int, now: float) -> bool:
        """Whether ``rounds`` played or ``now`` seconds reach a limit of this rule."""
        return (self.max_rounds is not None and rounds >= self.max_rounds) or (
            self.max_seconds is not None and now >= self.max_seconds
        )

    def note(self, ending: Ending | None, rounds: int) -> str | None:
        """Why a battle stopped at the cap rather than by its scenario's rule, or None."""
        if not (self.capped and ending is Ending.STOPPED and rounds == self.max_rounds):
            return None
        return (
            f"the cap of {rounds:,} rounds came with more than one side fighting (the "
            "scenario sets no stop.max_rounds)"
        )


def side_out_kind(roster: SideRoster) -> Ending:
    """How a side that has no one left fighting went: surrendered (if at least as many gave
    up as fled), routed (some fled) or destroyed."""
    if len(roster.downed) == len(roster.members):  # all taken out: none left otherwise
        return Ending.DESTROYED
    surrendered = roster.count(Status.SURRENDERED)
    fled = roster.count(Status.ROUTED) + roster.count(Status.WITHDRAWN)
    if surrendered and surrendered >= fled:
        return Ending.SURRENDERED
    return Ending.ROUTED if fled else Ending.DESTROYED


def verdict(
    sides: Sequence[SideRoster], stop: StopRule, rounds: int, now: float
) -> tuple[Ending, int | None, int | None] | None:
    """``(ending, winner, side whose defeat ended it)`` if the battle is over, else None.

    Side indexes, or None: no winner when every side is out or several still stand; no
    losing side for a mutual end or a stop by the rule.
    """
    standing = [s for s in sides if s.active]
    if len(standing) < len(sides) or len(standing) <= 1:  # a side is out, or only one
        kinds = [(s, side_out_kind(s)) for s in sides if not s.active]
        decisive = [(s, k) for s, k in kinds if k in stop.when_side]
        if len(standing) <= 1 or decisive:
            if not standing:
                return Ending.MUTUAL, None, None
            side, kind = (decisive or kinds)[0]
            return kind, standing[0].index if len(standing) == 1 else None, side.index
    if stop.reached(rounds, now):
        return Ending.STOPPED, None, None
    return None


NO_WINNER_REASONS: dict[str, str] = {
    Ending.MUTUAL: "every side was out in the same round",
    Ending.STOPPED: "the scenario's round or time limit came with more than one side fighting",
}
"""Why a battle that ended this way has no winner, in words."""


def plural_name(name: str) -> bool:
    """Whether a side's name reads as a plural (``Pirates``, ``Dockhands``), so it takes
    ``win``, not ``wins``; ``Ship's crew``, ``Duchy of Harrow`` and ``Snorri`` do not.

    >>> [plural_name(n) for n in ("Pirates", "Ship's crew", "Snorri", "Duchy of Harrow")]
    [True, False, False, False]
    """
    words = name.split()
    last = words[-1] if words else name
    return last.endswith("s") and not last.endswith(("ss", "us", "'s"))


def wins(name: str) -> str:
    """``Snorri wins``, ``Pirates win``."""
    return f"{name} {'win' if plural_name(name) else 'wins'}"


def end_summary(names: Sequence[str], ending: Ending, winner: int | None, loser: int | None) -> str:
    """The end event's line: ``"Snorri wins (Brynhild destroyed)"``, ``"Pirates win (...)"``,
    ``"no winner (mutual: every side was out in the same round)"``."""
    if winner is None:
        reason = NO_WINNER_REASONS.get(ending)
        return f"no winner ({ending}: {reason})" if reason else f"no winner ({ending})"
    how = f"{names[loser]} {ending}" if loser is not None else str(ending)
    return f"{wins(names[winner])} ({how})"
