"""Mass combat: FADAD units and Spelljammer rapid resolution, scalar and in bulk.

Implements ``mass-combat.md`` (FADAD units, section 1) and ``ships-spelljammer.md``
section 13 (rapid resolution) with section 18's crew morale roll, as settled by
``CONFLICTS.md`` C-15 (two separate engines, by force kind), C-16 (separate morale
mechanics), A-59 (dice division: floor, minimum 1) and A-70 (unit Scale rounded to
nearest, Scale not in the damage modifiers, morale = trait + 4dF vs level, casualties
``round(max% x N)``).

This module is the public entry point; the rules live in
:mod:`fadad_agents.rules.mass.units` (FADAD unit Scale, damage table, morale, track),
:mod:`fadad_agents.rules.mass.fight` (a unit attacking a unit) and
:mod:`fadad_agents.rules.mass.rapid` (Spelljammer rapid resolution and crew morale), kept
apart so each module stays short.

Every rule has a scalar pure function on a ``random.Random`` stream and, where an engine
resolves thousands of groups at once, a ``*_batch`` twin over numpy arrays drawing from a
``numpy.random.Generator``. Finite chances come with their exact distributions.

>>> unit_scale(100), capped_scale_bonuses(11, 6), rapid_dice(30, defender_hd=2, max_damage=8)
(11, (10, 6), 15)
"""

from __future__ import annotations

from fadad_agents.rules.mass.fight import (
    UnitAttack,
    UnitBatch,
    UnitState,
    resolve_unit_attack,
    resolve_unit_attacks_batch,
    unit_damage_number,
    unit_damage_outcomes,
)
from fadad_agents.rules.mass.rapid import (
    CrewBatch,
    CrewGroup,
    RapidError,
    RapidRound,
    average_hd,
    crew_morale_check,
    crew_morale_check_batch,
    crew_morale_pass_probability,
    incapacitated_share,
    rapid_dice,
    rapid_dice_batch,
    rapid_hit_probability,
    rapid_round_outcomes,
    rapid_volley,
    rapid_volley_batch,
    rapid_volley_outcomes,
    resolve_rapid_round,
    resolve_rapid_rounds_batch,
)
from fadad_agents.rules.mass.units import (
    DEAD,
    NO_HIT,
    SUB_SCRATCHES_PER_SCRATCH,
    UNIT_DAMAGE_TABLE,
    UNIT_TRACK_BOXES,
    MassError,
    UnitDamageRow,
    UnitWounds,
    capped_scale_bonuses,
    capped_scale_bonuses_batch,
    casualties,
    casualties_batch,
    casualty_outcomes,
    max_casualties,
    max_casualties_batch,
    morale_check,
    morale_check_batch,
    morale_pass_probability,
    record_unit_damage,
    record_unit_damage_batch,
    resolve_unit_morale,
    unit_damage_row,
    unit_scale,
    unit_scale_batch,
)

__all__ = [
    "DEAD",
    "NO_HIT",
    "SUB_SCRATCHES_PER_SCRATCH",
    "UNIT_DAMAGE_TABLE",
    "UNIT_TRACK_BOXES",
    "CrewBatch",
    "CrewGroup",
    "MassError",
    "RapidError",
    "RapidRound",
    "UnitAttack",
    "UnitBatch",
    "UnitDamageRow",
    "UnitState",
    "UnitWounds",
    "average_hd",
    "capped_scale_bonuses",
    "capped_scale_bonuses_batch",
    "casualties",
    "casualties_batch",
    "casualty_outcomes",
    "crew_morale_check",
    "crew_morale_check_batch",
    "crew_morale_pass_probability",
    "incapacitated_share",
    "max_casualties",
    "max_casualties_batch",
    "morale_check",
    "morale_check_batch",
    "morale_pass_probability",
    "rapid_dice",
    "rapid_dice_batch",
    "rapid_hit_probability",
    "rapid_round_outcomes",
    "rapid_volley",
    "rapid_volley_batch",
    "rapid_volley_outcomes",
    "record_unit_damage",
    "record_unit_damage_batch",
    "resolve_rapid_round",
    "resolve_rapid_rounds_batch",
    "resolve_unit_attack",
    "resolve_unit_attacks_batch",
    "resolve_unit_morale",
    "unit_damage_number",
    "unit_damage_outcomes",
    "unit_damage_row",
    "unit_scale",
    "unit_scale_batch",
]
