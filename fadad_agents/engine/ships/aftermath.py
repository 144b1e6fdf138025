"""After the battle: the repair bill of each damaged ship, and who of the fallen crews lives.

* Repair (SJ 17 / FADAD 7, C-21): logged per damaged ship still afloat when the battle
  ends, and kept in ``battle.repairs``.
* The fallen of rapid resolution (``ships-spelljammer.md`` 13 step 7): at the end of the
  fight each side rolls 1d6; d6 x 5% of its crew casualties (rounded down) were only
  incapacitated, not killed or mortally wounded. Logged per side and kept in
  ``battle.incapacitated``; the winners' may recover, the losers' be taken prisoner.
"""

from __future__ import annotations

import math
from typing import Any

from fadad_agents.agents.core.base import Status
from fadad_agents.agents.core.groups import Crew
from fadad_agents.rules.mass import incapacitated_share
from fadad_agents.rules.ships.chase import repair_cost
from fadad_agents.rules.ships.fadad_damage import ShipLevel, repair_weeks, repair_worker_weeks
from fadad_agents.rules.ships.fadad_damage import repair_cost as fadad_repair_cost

__all__ = ["log_incapacitated", "log_repairs"]


def log_repairs(battle: Any) -> None:
    """The repair bill of every damaged ship still afloat (C-21)."""
    fadad = battle.options.ship.damage_model == "fadad_levels"
    for ship in battle.ships:
        if ship.status is Status.OUT or ship.gargantuan:
            continue
        if fadad:
            level = ship.level
            if level == ShipLevel.UNDAMAGED or level >= ShipLevel.WRECKED:
                continue
            cost = fadad_repair_cost(ship.spec.cost_gp, int(level))
            weeks = repair_weeks(
                repair_worker_weeks(cost),
                ship.tons,
                workers_per_ton=battle.options.ship.repair_workers_per_ton,
            )
            bill = {"gold": math.ceil(cost), "days": 7 * weeks, "level": level.label}
        else:
            if ship.hull_damage == 0:
                continue
            res = repair_cost(ship.hull_damage, ship.spec.hull_points, ship.hull_damage, workers=5)
            bill = {"gold": res.gold, "days": res.days, "hull_points": ship.hull_damage}
        battle.repairs[ship.name] = bill
        battle.record(
            ship.name, "repair", None, (), (), (("result", f"{bill['gold']} gp"), *bill.items())
        )


def log_incapacitated(battle: Any) -> None:
    """Each side's crew casualties who were only incapacitated (SJ 13 step 7)."""
    for roster in battle.sides:
        fallen = sum(
            m.start_count - (m.count if m.status is not Status.OUT else 0)
            for m in roster.members
            if isinstance(m, Crew)
        )
        if fallen <= 0:
            continue
        d6 = int(battle.aftermath_rng.random() * 6) + 1  # the stream only if someone fell
        alive = incapacitated_share(fallen, d6)
        battle.incapacitated[roster.name] = alive
        battle.record(
            roster.name,
            "incapacitated",
            None,
            (("1d6", d6),),
            (("casualties", fallen),),
            (("result", f"{alive} of {fallen} only incapacitated"), ("incapacitated", alive)),
        )
