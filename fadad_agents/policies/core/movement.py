"""Movement and positioning policies: where a fighter wants to stand this round.

A movement policy answers ``destination(actor, target, battle)`` with ``(goal, actions)``:
the point in yards it heads for and the most movement actions it will spend on the way
(0: only the free 8-yard step; 1: a jog of 15; 2: a run of 30, personal-combat.md 5), or
``None`` to stay where it is. The agent works out the actions the distance needs; actions
not spent moving go to attacks and defences.

* ``close`` (default for melee fighters): head for contact with the target.
* ``hold``: hold the line; strike only what comes into reach.
* ``kite`` (default for missile fighters): keep ``distance`` yards from the nearest foe
  with the free step, and shoot.
* ``guard``: stay within ``radius`` yards of a comrade (``ward``, else the side's most
  wounded fighter) and strike what comes near.
* ``flee``: run from the nearest foe.
"""

from __future__ import annotations

import math
from operator import attrgetter
from typing import Any

from fadad_agents.policies.core.protocols import BattleView, CombatantView, Move

__all__ = ["CloseIn", "Flee", "Guard", "HoldLine", "Kite"]

_GAITS = {"walk": 0, "jog": 1, "run": 2}

_wound = attrgetter("wound")


def _gait_actions(gait: str) -> int:
    try:
        return _GAITS[gait]
    except KeyError:
        raise ValueError(f"gait {gait!r} must be one of walk, jog, run") from None


def _away(here: Any, there: Any, yards: float) -> tuple[float, float]:
    """The point ``yards`` beyond ``here`` on the line from ``there`` through ``here``."""
    dx, dy = here[0] - there[0], here[1] - there[1]
    norm = math.hypot(dx, dy)
    if norm == 0:  # on top of each other: away along +x
        dx, norm = 1.0, 1.0
    return here[0] + dx / norm * yards, here[1] + dy / norm * yards


class CloseIn:
    """Head for contact with the target, at up to ``gait`` (walk, jog or run)."""

    __slots__ = ("actions",)

    still_in_contact = True
    """In contact with its target it never moves (the agent skips the call then)."""

    foreseeable = True
    """Its destination follows from where the actor and its target stand (the agent may
    work it out before the actor's turn)."""

    def __init__(self, gait: str = "run") -> None:
        self.actions = _gait_actions(gait)

    def destination(
        self, actor: CombatantView, target: CombatantView | None, battle: BattleView
    ) -> Move | None:
        if target is None:
            return None
        point = battle.engage_point(actor, target)
        return None if point is None else (point, self.actions)


class HoldLine:
    """Stay put: strike only foes that come into reach."""

    __slots__ = ()

    def destination(
        self, actor: CombatantView, target: CombatantView | None, battle: BattleView
    ) -> Move | None:
        return None


class Kite:
    """Keep ``distance`` yards from the nearest foe with the free step, else stand."""

    __slots__ = ("distance",)

    def __init__(self, distance: float = 10.0) -> None:
        if distance <= 0:
            raise ValueError("distance must be positive (yards)")
        self.distance = float(distance)

    def destination(
        self, actor: CombatantView, target: CombatantView | None, battle: BattleView
    ) -> Move | None:
        foe = battle.nearest_foe(actor)
        here = actor.position
        if foe is None or here is None or foe.position is None:
            return None
        gap = math.dist(here, foe.position)
        if gap >= self.distance:
            return None
        return _away(here, foe.position, self.distance - gap), 0


class Guard:
    """Stay within ``radius`` yards of a comrade: ``ward`` by name, else the side's most
    wounded fighter; close on foes that come that near."""

    __slots__ = ("radius", "ward")

    def __init__(self, ward: str = "", radius: float = 3.0) -> None:
        if radius <= 0:
            raise ValueError("radius must be positive (yards)")
        self.ward = ward
        self.radius = float(radius)

    def _ward(self, actor: CombatantView, battle: BattleView) -> CombatantView | None:
        """The comrade ``actor`` guards: the first of its side named :attr:`ward`, else the
        first of the most wounded (none but itself: None). Asked at each move of each
        guard: the side's live list read as far as needed, never copied."""
        friends = battle.friends(actor.side)
        if self.ward:
            return next((f for f in friends if f.name == self.ward and f is not actor), None)
        return max((f for f in friends if f is not actor), key=_wound, default=None)

    def destination(
        self, actor: CombatantView, target: CombatantView | None, battle: BattleView
    ) -> Move | None:
        ward = self._ward(actor, battle)
        here = actor.position
        if ward is None or ward.position is None or here is None:
            return CloseIn().destination(actor, target, battle)
        near = target is not None and target.position is not None
        if near and math.dist(target.position, ward.position) <= self.radius * 2:  # type: ignore[union-attr, arg-type]
            return CloseIn().destination(actor, target, battle)
        gap = math.dist(here, ward.position)
        if gap <= self.radius:
            return None
        return _away(ward.position, here, -self.radius), 2


class Flee:
    """Run from the nearest foe."""

    __slots__ = ()

    def destination(
        self, actor: CombatantView, target: CombatantView | None, battle: BattleView
    ) -> Move | None:
        foe = battle.nearest_foe(actor)
        here = actor.position
        if foe is None or here is None or foe.position is None:
            return None
        return _away(here, foe.position, 30.0), 2
