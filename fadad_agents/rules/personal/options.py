"""The personal-combat sections of the rules options (FADAD, FUDGE, range, movement,
hit locations, PC death) and :class:`PersonalOptions`, the base of
:class:`~fadad_agents.rules.options.RulesOptions` that holds them.

Keys follow ``CONFLICTS.md`` section 3; each field's description names the conflict or
ambiguity it settles (C-nn, A-nn) and the default chosen there.
"""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

from pydantic import Field

from fadad_agents.rules.core.options import OptionsSection

__all__ = [
    "FadadOptions",
    "FudgeOptions",
    "LocationOptions",
    "MoveOptions",
    "PcDeathOptions",
    "PersonalOptions",
    "RangeOptions",
]

_Level = Annotated[int, Field(ge=0, le=10)]
_DamageNumber = Annotated[int, Field(ge=0, le=50)]


class FadadOptions(OptionsSection):
    """FADAD personal-combat switches."""

    retired: ClassVar[dict[str, str]] = {
        "ms_table_literal": "fadad.ms_table_literal is gone (A-33): ships turn by the "
        "Maneuvering Skill table's faces per ship round, where Mediocre and Poor both turn "
        "2, and its combat rounds per 90 degrees (15 / faces: 7.5 printed as 8 and 7) is "
        "read by no rule; remove it",
    }

    target_mode: Literal["effective_opposition", "target_gate_gte"] = Field(
        "effective_opposition",
        description="A-01: 'effective_opposition' RD = attack - max(defence, Target), hit iff "
        "RD >= 1; 'target_gate_gte' hit iff attack > defence and attack >= Target.",
    )
    initiative: Literal["rolled", "static"] = Field(
        "rolled",
        description="A-05: 'rolled' = reaction-speed trait + 4dF; 'static' orders by the trait "
        "alone, as in the Snorri vs Brynhild example.",
    )
    actions_per_round: int = Field(
        2, ge=1, le=10, description="A-06: action budget per 6-second round."
    )
    crit_effects: Literal["none", "non_lethal", "random"] = Field(
        "non_lethal",
        description="A-17: effects of FADAD crits from the PROPOSED d8 list: 'non_lethal' draws "
        "only non-lethal effects (the seed's advice for boring attacks), 'random' draws from "
        "all eight, 'none' counts crits without effects.",
    )
    knockdown_penalty: int = Field(
        1,
        ge=0,
        le=2,
        description="A-17 (PROPOSED): a fighter knocked down by a Knockdown crit is at this "
        "positional disadvantage (personal-combat.md 2.1: -1 or -2) on every roll until it "
        "spends an action to rise.",
    )
    weapon_size_comparison: bool = Field(
        False,
        description="A-04: FUDGE melee modifier: -1 to a fighter whose weapon + shield value is "
        "2+ below the opponent's (optional in FADAD).",
    )
    all_out_attack_defends: bool = Field(
        False,
        description="A-04: whether an all-out attacker (+1 to hit) may still defend that round; "
        "PROPOSED default: no defensive action.",
    )
    spirit_crit_plus: Literal["once", "per_crit"] = Field(
        "once",
        description="A-13: spirit combat: a crit adds the weapon's plus again, once (literal) or "
        "once per crit.",
    )
    spirit_negative_cap: bool = Field(
        True,
        description="A-13: the FADAD negative-total cap (base < 0 -> final at most 1) also "
        "applies to spirit damage (PROPOSED).",
    )


class RangeOptions(OptionsSection):
    """Ranged-combat switches."""

    extreme_literal: bool = Field(
        False,
        description="A-02: Extreme range Target = printed Legendary+1 (+5) instead of "
        "Terrible + 7 = Legendary (+4).",
    )
    widespread_scale_rounding: Literal["toward_zero", "floor", "nearest"] = Field(
        "toward_zero",
        description="A-11: rounding of Scale / 3 against widespread attacks.",
    )
    volume_scale_rounding: Literal["nearest", "floor", "ceil"] = Field(
        "nearest",
        description="A-11: rounding of volume scale = log1.5(V / 3.09 cubic feet).",
    )
    extreme_multiple: float = Field(
        2.0,
        ge=1,
        le=10,
        description="PROPOSED (section 6.2 gives Extreme as 'as far as such projectiles have "
        "ever gone'): Extreme range ends at this multiple of the weapon's long range; "
        "nobody shoots beyond it.",
    )
    parry_missiles: bool = Field(
        False,
        description="Section 6.3: in a heroic game a fighter may parry a missile with its "
        "weapon skill; off (default), a missile is dodged or blocked with a shield.",
    )
    into_melee_cover: int = Field(
        1,
        ge=0,
        le=4,
        description="PROPOSED (the seeds are silent on shooting into a melee): a target in "
        "contact with the shooter's own friends is partly covered by them: its Target rises "
        "by this much.",
    )
    dexterity_past_two_actions: bool = Field(
        True,
        description="Section 1 (SEED 4.4): a shooter attempting more than two actions in a "
        "round needs a Good Dexterity roll (its Dexterity trait, else Fair) to ready its "
        "weapon with each action past the second; a failed roll spends the action for "
        "nothing. Only with fadad.actions_per_round above 2.",
    )


class MoveOptions(OptionsSection):
    """Movement switches."""

    target_bonus: tuple[_Level, _Level] = Field(
        (1, 2),
        description="A-08: Target bonus of a quickly moving character as (jogging, running); "
        "(0, 0) turns it off.",
    )
    short_legs_factor: float = Field(
        0.75,
        gt=0,
        le=1,
        description="PROPOSED (section 5: reduce for races shorter than human): the share of "
        "the walk, jog and run distances a fighter with short legs (dwarf, hobbit) covers.",
    )
    heavy_armour_factor: float = Field(
        0.75,
        gt=0,
        le=1,
        description="PROPOSED (section 5: reduce for heavy armour): the share of the walk, "
        "jog and run distances a fighter in heavy metal armour (plate) covers.",
    )
    hurt_leg_factor: float = Field(
        0.75,
        gt=0,
        le=1,
        description="PROPOSED (section 4: a Hurt leg is -1 running): the share of the walk, "
        "jog and run distances a fighter covers while a leg is Hurt (an Incapacitated leg "
        "grounds it).",
    )


class LocationOptions(OptionsSection):
    """Hit-location switches."""

    also_general_wound: bool = Field(
        False,
        description="A-09: a location hit also marks the general wound track.",
    )
    severity_thresholds: tuple[_DamageNumber, _DamageNumber, _DamageNumber] = Field(
        (1, 3, 7),
        description="A-09: lowest damage number for a Scratched, Hurt and Incapacitated "
        "location (below the first: no effect).",
    )
    minimum_margin_cap_scale: int = Field(
        3,
        ge=0,
        le=100,
        description="A-09: a hit winning by exactly the location's minimum RD is capped at Hurt "
        "unless the attacker's Scale exceeds the defender's by at least this much.",
    )


class FudgeOptions(OptionsSection):
    """FUDGE / Anna's Fantasy FUDGE wound options (seed 001)."""

    damage_roll: Literal[
        "none", "1dF_factor", "1dF_level", "parity", "4dF_limited", "4dF_unlimited"
    ] = Field("none", description="C-10, section 7 of wounds-and-healing.md.")
    double_rd: bool = Field(
        False, description="A-21: damage = 2*RD + factor on the doubled-RD track."
    )
    graze: bool = Field(True, description="RD +1 is a graze read on the graze table (SEED 001).")
    less_lethal: bool = Field(
        False, description="Subtract 1 from each weapon class value except sharpness (SEED 001)."
    )
    weapon_groups: bool = Field(
        False,
        description="A-18: Anna's weapon/armour groups (full, half or no damage by armour group).",
    )
    minmidmax_minus2: bool = Field(
        False, description="Min-Mid-Max: bonus -2 instead of -1 for a factor of -5 or worse."
    )
    situational_levels: bool = Field(
        True,
        description="A-30: freeform situational roll +3/+4 adds one/two levels; else no change.",
    )
    graze_scale_step: int = Field(
        5,
        ge=1,
        le=100,
        description="A-22: each full N points of Scale advantage raise a damaging graze one "
        "level, capped at Very Hurt.",
    )
    minmidmax_epic: bool = Field(
        False,
        description="A-28: Min-Mid-Max epic thresholds (Scratch 1-2, Hurt 3-4, Very Hurt 5, "
        "Incapacitated 6, Near Death 7+) instead of the standard track.",
    )
    minmidmax_kill_above_9: bool = Field(
        False,
        description="Min-Mid-Max (SEED 001 4.63): a result above 9 kills outright instead of "
        "staying Near Death.",
    )
    scale_damage_roll: bool = Field(
        False,
        description="C-10 (SEED 001 4.61 Scale note): when Scale alone stands between a "
        "Scratch and no damage, roll a limited 4dF damage roll even with damage_roll 'none'.",
    )


class PcDeathOptions(OptionsSection):
    """PC death protections (C-13), usable together; never for ordinary NPCs."""

    max_three_levels: bool = Field(False, description="FUDGE option 1: at most 3 levels a blow.")
    no_near_death_unless_incap: bool = Field(
        False, description="FUDGE option 2: Near Death only if Incapacitated at round start."
    )
    point_spend: bool = Field(
        True,
        description="A-29 / FADAD 4.5.9: an Ite (Fudge) point turns a deadly wound into "
        "Incapacitated.",
    )


class PersonalOptions(OptionsSection):
    """The personal-combat options: FADAD and FUDGE fighting, wounds, stun and healing.

    Its fields are top-level keys of :class:`~fadad_agents.rules.options.RulesOptions`
    (``wound_model``, ``fadad.initiative`` ...), which extends it; the personal kernel takes
    a ``PersonalOptions`` and so knows no other rule system's options.
    """

    fadad: FadadOptions = FadadOptions()
    shield_mode: Literal["fadad_target", "fudge_skill_penalty"] = Field(
        "fadad_target",
        description="C-11: FADAD shields raise Target; FUDGE shields lower the opponent's skill.",
    )
    range: RangeOptions = RangeOptions()
    move: MoveOptions = MoveOptions()
    location: LocationOptions = LocationOptions()
    wound_model: Literal["fadad", "fudge_numeric", "fudge_minmidmax", "fudge_freeform"] = Field(
        "fadad", description="C-10: how a hit becomes a wound."
    )
    fudge: FudgeOptions = FudgeOptions()
    overflow_past_near_death: Literal["dead", "stay_near_death"] = Field(
        "dead", description="A-24: what overflow past Near Death does."
    )
    scratch_cap: bool = Field(
        False, description="Scratches never raise the wound level beyond Very Hurt (SEED 001)."
    )
    wound_track: Literal["standard", "moderately_cinematic", "epic", "npc3", "dc_attribute"] = (
        Field(
            "standard",
            description="Wound boxes per level (wounds-and-healing.md 6.2, A-25); "
            "'dc_attribute' records a character's wounds on its Damage Capacity instead "
            "(6.4: a level lost a blow, no damage factor; characters only).",
        )
    )
    pc_death: PcDeathOptions = PcDeathOptions()
    healing_model: Literal["fadad", "fudge"] = Field("fadad", description="C-09.")
    stun_scratches_accumulate: bool = Field(
        False,
        description="A-27: Scratch-level stun blows are recorded on the stun track and "
        "accumulate (default: no effect).",
    )
    knockout_rounds: int | None = Field(
        None,
        ge=1,
        le=10_000,
        description="A-27: knockout duration in combat rounds; None = rest of the combat.",
    )
    scale_piercing_min_rd: int = Field(
        3,
        ge=1,
        le=100,
        description="wounds-and-healing.md 11 (PROPOSED): the RD from which a scale-piercing "
        "weapon halves or ignores the defender's Mass Scale.",
    )
    head_blow_knockout: bool = Field(
        False,
        description="SEED 001 4.62 (GM option): a Good-or-better stun blow to the head that "
        "wins knocks out automatically.",
    )
