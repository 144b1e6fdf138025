"""The ``mass.*`` section of the rules options (C-15: FADAD units, Spelljammer rapid
resolution)."""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import Field

from fadad_agents.rules.core.options import OptionsSection

__all__ = ["MassOptions"]


class MassOptions(OptionsSection):
    """Mass-combat switches (C-15: FADAD units and Spelljammer rapid resolution are two
    engines; a force's ``kind`` picks its own: ``unit`` or ``crew``)."""

    retired: ClassVar[dict[str, str]] = {
        "engine": "mass.engine is gone (C-15): a force's kind picks its mass-combat engine "
        "(kind: unit fights as a FADAD unit, kind: crew by Spelljammer rapid resolution); "
        "remove it",
    }

    scale_rounding: Literal["half_up", "down"] = Field(
        "half_up", description="A-70: unit Scale log(N)/log(1.5) rounded to nearest (half up)."
    )
    scale_cap: int = Field(
        4,
        ge=0,
        le=4,
        description="mass-combat.md 1.2: cap on the Scale-bonus difference "
        "(SEED +4; the GM may cap lower); the larger unit's bonus is reduced (PROPOSED).",
    )
    scale_in_damage: bool = Field(
        False,
        description="A-70: add the capped Scale difference to the damage number too "
        "(default no: mass is represented by the casualty table).",
    )
    casualties: Literal["deterministic", "random"] = Field(
        "deterministic",
        description="A-70: casualties = round(max% x N) half up, or uniform "
        "random between 0 and that maximum.",
    )
    rapid_rounding: Literal["floor_min1", "half_up"] = Field(
        "floor_min1",
        description="A-59: rapid-resolution dice = attackers / defender HD "
        "rounded down, minimum 1 while anyone stands.",
    )
    rapid_natural_rolls: bool = Field(
        False,
        description="ships-spelljammer.md d20 conventions (PROPOSED): a natural 1 always "
        "misses and a natural 20 always hits in rapid resolution (default: d20 + bonus >= AC).",
    )
    round_seconds: int = Field(
        6,
        ge=1,
        le=3_600,
        description="PROPOSED (C-01: the seed gives FADAD mass combat no round length): "
        "seconds a round lasts in a battle fought by units and crews alone, on the battle's "
        "clock, its log and stop.max_seconds (6 = a personal round; 60 = a minute of mass "
        "melee); a battle with individual fighters keeps 6-second rounds.",
    )
    units_at_range: bool = Field(
        True,
        description="PROPOSED (mass-combat.md gives no distances): units given positions on "
        "an open map close on their foes 30 yards every 6 seconds of a round (a run; 300 in "
        "a 60-second mass.round_seconds) and strike hand to hand within 10 "
        "yards; a unit whose weapon shoots volleys at foes within its Extreme range first "
        "(agents.core.fronts). Off: every unit reaches every foe from the first round.",
    )
    morale_check_level: int = Field(
        0,
        ge=-3,
        le=4,
        description="A-70 (PROPOSED level): a unit's policy-called morale check is morale "
        "trait + 4dF against this ladder level (0 = Fair; -3 Terrible .. 4 Legendary) "
        "(agents.groups.Unit.morale_holds).",
    )
