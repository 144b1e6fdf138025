"""Ships between battles: the damage a ship carries out of a fight, and her repair in a
yard (SJ 17 / FADAD 7, C-21) while the crews rest.

Under ``sj_hull_points`` a yard repairs hull points (each five-worker crew a point a day,
three days a point when more than half the hull was lost, A-56); under ``fadad_levels``
she is repaired whole once the bill's worker-weeks are done (1 worker-week per 20 gp, at
most ``ship.repair_workers_per_ton`` workers a ton, A-43). Lasting criticals (holed, helm
out, lost maneuverability) are written down for the GM and mended with the hull.
"""

from __future__ import annotations

import math
from typing import Any

from fadad_agents.agents.ships.ship import Ship
from fadad_agents.campaign.state import ShipState
from fadad_agents.rules.ships.chase import repair_cost
from fadad_agents.rules.ships.fadad_damage import (
    ShipLevel,
    repair_weeks,
    repair_worker_weeks,
)
from fadad_agents.rules.ships.fadad_damage import repair_cost as fadad_repair_cost
from fadad_agents.schema.starting import SHIP_LEVELS, mark_text, parse_mark

__all__ = ["YARD_WORKERS", "repair_ship", "ship_state"]

YARD_WORKERS = 5
"""PROPOSED: one five-worker yard crew repairs a ship (as the battle's repair bill)."""


def _criticals(ship: Ship) -> list[str]:
    found = [f"{e.kind} {e.amount}" for e in ship.effects if e.until is None]
    if ship.holed:
        found.append("holed")
    if ship.helm_out:
        found.append("helm out")
    if ship.shear_losses:
        found.append(f"maneuverability -{ship.shear_losses} (sheared)")
    return found


def ship_state(member: Any, side: str, battle: Any) -> ShipState | None:
    """A ship's state at the end of the battle (None for anything but a ship)."""
    if not isinstance(member, Ship) or member.gargantuan:
        return None
    marks = [mark_text(box, sev, SHIP_LEVELS) for box, sev in member.track.marks]
    return ShipState(
        name=member.name,
        side=side,
        fate=str(member.status),
        hull_points=member.spec.hull_points,
        tons=member.spec.tons,
        cost_gp=member.spec.cost_gp,
        hull_damage=member.hull_damage,
        hull_damage_after_battle=member.hull_damage,
        damage_marks=marks,
        damage_marks_after_battle=marks,
        crew_start=member.crew_start,
        crew_lost=member.crew_lost,
        fires=len(member.fire_list),
        criticals=_criticals(member),
        repairs=dict(battle.repairs.get(member.name, {})),
    )


def _sj_repaired(state: ShipState, days: int) -> int:
    """Hull points a yard crew mends in ``days`` (the kernel's bill, :func:`repair_cost`)."""
    damage = state.hull_damage_after_battle
    lo, hi = 0, damage
    while lo < hi:  # the most points whose repair takes no longer than ``days``
        mid = (lo + hi + 1) // 2
        if repair_cost(mid, state.hull_points, damage, YARD_WORKERS).days <= days:
            lo = mid
        else:
            hi = mid - 1
    return lo


def _level(state: ShipState) -> ShipLevel:
    """Her FADAD damage level as the battle left her."""
    boxes = (parse_mark(m, SHIP_LEVELS)[0] for m in state.damage_marks_after_battle)
    return ShipLevel(max(boxes, default=0))


def repair_ship(state: ShipState, days: int, workers_per_ton: int) -> tuple[ShipState, str | None]:
    """The ship after ``days`` (since the battle) in a yard, and what changed (or None).

    A ship the battle took out (sunk, broken up) is not repaired."""
    if state.fate == "out":
        return state, None
    if state.hull_damage_after_battle:
        mended = _sj_repaired(state, days)
        left = state.hull_damage_after_battle - mended
        if left == state.hull_damage:
            return state, None
        damage = state.hull_damage_after_battle
        paid = repair_cost(mended, state.hull_points, damage, YARD_WORKERS)
        owed = repair_cost(left, state.hull_points, damage, YARD_WORKERS)
        done = {
            "hull_damage": left,
            "criticals": state.criticals if left else [],
            "repairs": {"gold": owed.gold, "days": owed.days, "hull_points": left} if left else {},
        }
        change = (
            f"{state.name}: hull {state.hull_points - state.hull_damage} -> "
            f"{state.hull_points - left} of {state.hull_points} ({paid.gold:,} gp since the battle)"
        )
        return state.model_copy(update=done), change
    if state.damage_marks_after_battle and state.damage_marks:
        level = _level(state)
        if level >= ShipLevel.WRECKED:
            return state, None  # beyond repair
        bill = fadad_repair_cost(state.cost_gp, int(level))
        weeks = repair_weeks(repair_worker_weeks(bill), state.tons, workers_per_ton=workers_per_ton)
        if days < 7 * weeks:
            return state, None
        cost = math.ceil(bill)
        done = {"damage_marks": [], "criticals": [], "repairs": {}}
        return state.model_copy(update=done), f"{state.name}: repaired whole ({cost:,} gp)"
    return state, None
