"""FADAD units on open ground: missile units shoot while the lines close, then melee.

Rules: ``mass-combat.md`` gives no distances (a unit is one 4dF combatant); PROPOSED here,
after ``personal-combat.md`` 5 and 6 scaled up to a unit (``mass.units_at_range``): a
unit given a position on an open map strikes a foe unit hand to hand only within
:data:`CONTACT_YARDS` of it, centre to centre; farther off it runs toward its target,
:data:`RUN_YARDS` in a 6-second round (its men's two movement actions; as far again for
every 6 seconds of a longer ``mass.round_seconds``), and strikes nothing that round. A
unit whose weapon shoots (a bow, a sling) volleys at a foe unit within its weapon's
Extreme range from where it stands, its attack less the range band's Target modifier
(section 6.2), and closes only on foes beyond it. A unit that ran at a foe holds its
course at it while it fights, unless another is at hand (:func:`course`). Units and crews
without positions, or on hex maps, reach and are reached everywhere, as before.
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any, NamedTuple

from fadad_agents.rules.mass import UnitState
from fadad_agents.rules.personal.ranged import range_band, range_target_modifier

__all__ = ["CONTACT_YARDS", "RUN_YARDS", "Front", "aimed", "closes_on", "course"]

CONTACT_YARDS = 10.0
"""PROPOSED: yards between two units' centres at which their front ranks meet."""

RUN_YARDS = 30.0
"""PROPOSED: yards a unit closes in a 6-second round (15 an action, two actions: a run)."""


class Front(NamedTuple):
    """How a unit on open ground meets its foes (a unit's ``shot``).

    Attributes:
        extreme: where its missile weapon's Extreme range ends, in yards (0: none).
        bands: the weapon's range bands in yards, or None (hand to hand only).
        run_yards: yards it closes in one of the battle's rounds.
    """

    extreme: float
    bands: Any
    run_yards: float


_EDGE = 0.5
"""Yards past contact that still count as in contact (no half-yard shuffles)."""


def closes_on(unit: Any, target: Any, arena: Any) -> int | None:
    """How ``unit`` strikes ``target`` this turn: the Target modifier of the range band it
    shoots across (0 hand to hand, or where either has no place), or None: it runs toward
    the target instead (logged as a move) and strikes nothing."""
    modifier = _at_hand(unit, target, arena)
    if modifier is not None:
        return modifier
    here, there = unit.position, _where(target, arena.round)
    gap = math.dist(here, there)
    yards = min(unit.shot.run_yards, gap - CONTACT_YARDS)
    f = yards / gap
    to = (here[0] + (there[0] - here[0]) * f, here[1] + (there[1] - here[1]) * f)
    unit.memory["ran_from"] = (arena.round, here)
    unit.memory["chasing"] = target
    unit.position = to
    arena.record(
        unit.name,
        "move",
        target.name,
        (),
        (("actions", 2),),
        (
            ("result", "run"),
            ("yards", round(yards, 2)),
            ("from", (round(here[0], 2), round(here[1], 2))),
            ("to", (round(to[0], 2), round(to[1], 2))),
        ),
    )
    return None


def course(unit: Any, target: Any, arena: Any) -> Any:
    """The foe ``unit`` goes for this turn: ``target``, unless the unit ran at another foe
    before that still fights and ``target`` is not at hand (in contact, or within its
    volleys' range): then it holds its course at that foe (PROPOSED). A targeting policy
    that ranks the foes afresh each round (``strongest_adjacent``, as volleys thin them)
    would otherwise turn a charge back and forth between them and never arrive."""
    chased = unit.memory.get("chasing")
    if chased is None or chased is target or not chased.fighting:
        return target
    return target if _at_hand(unit, target, arena) is not None else chased


def _at_hand(unit: Any, target: Any, arena: Any) -> int | None:
    """The Target modifier ``unit`` strikes ``target`` at from where it stands (0 hand to
    hand, or where either has no place), or None: out of its reach."""
    shot = getattr(unit, "shot", None)  # only units carry it (crews reach everyone)
    here, there = unit.position, _where(target, arena.round)
    if shot is None or here is None or there is None:
        return 0
    gap = math.dist(here, there)
    if gap <= CONTACT_YARDS + _EDGE:
        return 0
    extreme, bands, _ = shot
    if bands is not None and gap <= extreme and hasattr(target, "unit_state"):  # a group
        opts = arena.options.range
        band = range_band(gap, bands, opts.extreme_multiple) or "extreme"
        return int(range_target_modifier(band, extreme_literal=opts.extreme_literal))
    return None


def _where(target: Any, rnd: int) -> Any:
    """Where ``target`` stood when this round began: a unit that ran this round reaches
    its new place for others only next round (so the order of a shared turn, or of the
    sides in the file, gives no one the first blow)."""
    ran = target.memory.get("ran_from")
    return ran[1] if ran is not None and ran[0] == rnd else target.position


def aimed(state: UnitState, modifier: int) -> UnitState:
    """The unit's state for one volley: its attack less the range band's Target modifier."""
    return replace(state, attack=state.attack - modifier) if modifier else state
