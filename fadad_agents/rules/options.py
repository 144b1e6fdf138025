"""RulesOptions: every point the seeds leave open, as a named option with its default.

Keys follow ``CONFLICTS.md`` section 3 (``fadad.target_mode`` is
``RulesOptions().fadad.target_mode``). Each field's description names the conflict or
ambiguity it settles (C-nn, A-nn) and the default chosen there. Options are frozen
pydantic models: validate them once at the boundary, then pass the object around.

>>> opts = RulesOptions.from_flat({"fadad.target_mode": "target_gate_gte"})
>>> opts.fadad.target_mode, opts.shield_mode
('target_gate_gte', 'fadad_target')
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

__all__ = [
    "FadadOptions",
    "FaeOptions",
    "FireOptions",
    "FudgeOptions",
    "LocationOptions",
    "MassOptions",
    "MoveOptions",
    "PcDeathOptions",
    "RangeOptions",
    "RulesOptions",
    "ShipOptions",
    "SjOptions",
]


class _Options(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class FadadOptions(_Options):
    """FADAD personal-combat switches."""

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
    ms_table_literal: bool = Field(
        False,
        description="A-33: use the printed Maneuvering Skill table (Mediocre 8, Poor 7 rounds "
        "per 90 degrees) instead of 8 for both.",
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


class RangeOptions(_Options):
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


class MoveOptions(_Options):
    """Movement switches."""

    target_bonus: tuple[int, int] = Field(
        (1, 2),
        description="A-08: Target bonus of a quickly moving character as (jogging, running); "
        "(0, 0) turns it off.",
    )


class LocationOptions(_Options):
    """Hit-location switches."""

    also_general_wound: bool = Field(
        False,
        description="A-09: a location hit also marks the general wound track.",
    )
    severity_thresholds: tuple[int, int, int] = Field(
        (1, 3, 7),
        description="A-09: lowest damage number for a Scratched, Hurt and Incapacitated "
        "location (below the first: no effect).",
    )
    minimum_margin_cap_scale: int = Field(
        3,
        description="A-09: a hit winning by exactly the location's minimum RD is capped at Hurt "
        "unless the attacker's Scale exceeds the defender's by at least this much.",
    )


class FudgeOptions(_Options):
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


class PcDeathOptions(_Options):
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


class ShipOptions(_Options):
    """Ship-combat switches (C-02, C-03)."""

    damage_model: Literal["fadad_levels", "sj_hull_points"] = Field(
        "sj_hull_points", description="C-02: FADAD damage levels or Spelljammer hull points."
    )
    crit_table: Literal["fadad_6dF", "sj_d20"] = Field(
        "sj_d20", description="C-03: which critical table drives the shared effect handlers."
    )
    crit_triggers: tuple[str, ...] = Field(
        ("natural_20", "half_hull", "ram", "shear_20", "rd_4", "heavy_damage", "crippling"),
        description="C-03/A-39: enabled ship-critical triggers; each damage model reads the "
        "names it knows. d20: natural_20, half_hull, ram, shear_20. FADAD: rd_4 (hit with "
        "RD >= 4; 'dice_4' = all four attack dice + instead), heavy_damage (damage number "
        ">= 5), crippling (Crippling damage or promotion to Crippled); at most one crit from "
        "the attack and one from damage per hit.",
    )
    ms_rounding: Literal["toward_positive", "away_from_zero"] = Field(
        "toward_positive",
        description="A-34: 'round fractions up' in MS = ceil((a + MC) / 2) means toward "
        "+infinity (-1.5 -> -1) or away from zero (-1.5 -> -2).",
    )
    target_bands_extended: bool = Field(
        True,
        description="A-36: extend the base-Target table past 854 tons (855-2,883 -3, "
        "2,884+ -4, bands x3.375); off = every ship of 254 tons or more is -2.",
    )
    bombard_wildfire_dodge_penalty: int = Field(
        -2,
        le=0,
        description="Section 3 (PROPOSED): fast-projectile dodge penalty for wildfire and "
        "bombard shot (catapult stones and ballista bolts are -2 by the seed); 0 = none.",
    )
    reload_rule: Literal["sj_plus_one", "proportional"] = Field(
        "sj_plus_one",
        description="A-37: a short-handed big weapon takes one more ship round per missing "
        "crewman (d20 rule) or time x crew needed / crew present (rounded up).",
    )
    fadad_boxes: tuple[int, int, int, int, int] = Field(
        (3, 1, 1, 1, 1),
        description="A-38: ship wound-track boxes Scratched, Lightly, Heavily, Crippled, Wrecked.",
    )
    fadad_negative_cap: bool = Field(
        True,
        description="A-38: a ship damage number with a negative base is capped at 1, as for "
        "characters (wounds-and-healing.md 5.1).",
    )
    overflow_past_wrecked: Literal["destroyed", "stay_wrecked"] = Field(
        "destroyed",
        description="Section 4 (PROPOSED): damage overflowing past Wrecked destroys the ship.",
    )
    piercing_entangle_pct: int = Field(
        50,
        ge=0,
        le=100,
        description="A-44: chance in % that a FADAD piercing ram leaves the ships entangled.",
    )
    coma_dice: int = Field(
        1,
        ge=0,
        le=4,
        description="A-23: Spelljammer shock coma lasts 3 + this many dF days (min 1).",
    )
    repair_workers_per_ton: int = Field(
        1,
        ge=1,
        description="A-43: most repair workers per ton of ship volume per shift.",
    )


class FireOptions(_Options):
    """Fire switches (C-08)."""

    sj_firefighting: bool = Field(
        True,
        description="C-08: Spelljammer firefighting in both rulesets: one firefighter per "
        "point of the fire puts it out, fewer lower it by one each; the air envelope fouls "
        "at 10% and 40% of tonnage burnt.",
    )
    fadad_crit_fire_scale: Literal["damage_number", "weapon_damage"] = Field(
        "damage_number",
        description="C-08 (PROPOSED): a FADAD crit fire's value (0, then +1 a round) is the "
        "ship damage number itself, or weapon damage like wildfire (value + 4dF - fireproof "
        "armour - Mass Scale).",
    )


class SjOptions(_Options):
    """Spelljammer (d20) switches."""

    crash_dc: int = Field(15, description="A-51: Helm Pilot check DC in a crash.")
    crash_save_dc: int = Field(15, description="A-51: Reflex save DC in a crash.")
    lock_pct_per_10_tons: bool = Field(
        False, description="A-52: piercing-ram lock chance 5% per 10 tons instead of per ton."
    )
    half_hull_crit_repeat: bool = Field(
        False,
        description="A-49: every damaging hit while past half hull points is a critical, "
        "not only the hit that first crosses half.",
    )
    poorly_maintained_crit_from: int = Field(
        19,
        ge=2,
        le=20,
        description="A-49: lowest natural d20 that crits a poorly maintained ship (section 17).",
    )
    crit_fortitude_dc: int = Field(
        15, description="A-50: bystanders' Fortitude save DC against a crew-casualty critical."
    )
    shaken_dexterity_dc: int = Field(
        10, description="A-50: PCs' Dexterity check DC against falling when the ship is shaken."
    )
    shock_will_dc: int = Field(
        15, description="A-50: the helmsman's Will save DC against spelljammer shock."
    )
    mc_loss_rounds_per_turn: int = Field(
        1,
        ge=1,
        description="A-50: rounds per 'turn' of the 1d10-turn Maneuverability loss; 1 reads "
        "turns as rounds, 10 as 10-round turns.",
    )
    grapple_lines_rounding: Literal["ceil", "floor"] = Field(
        "ceil", description="A-53: lines needed = tonnage/10 of the smaller ship, rounded."
    )
    pursuit_turn_rounds: int = Field(
        10, ge=1, description="A-55: rounds in a 'turn'; two turns of delay lose the quarry."
    )
    morale_stacking: Literal["worst_per_family", "cumulative"] = Field(
        "worst_per_family",
        description="A-57: graded morale modifiers (hull 25/50/75%, HP, crew losses, HD) apply "
        "only the worst entry of each family, or all of them.",
    )
    free_turn_counts_toward_hex_limit: bool = Field(
        True,
        description="A-61: the free end-of-move hex-side turn counts toward the class's "
        "turns per hex (Average 1, Good 2).",
    )


class FaeOptions(_Options):
    """Fae Domains (d100) switches."""

    margin_mode: Literal["mcs_minus_roll", "roll"] = Field(
        "mcs_minus_roll", description="A-62: margin of a success = MCS - roll."
    )
    botch_range: int = Field(
        100, ge=1, le=101, description="A-62: a roll >= this botches (101 = no botch)."
    )
    damage_rounding: Literal["half_up", "down"] = Field(
        "half_up", description="A-63: damage = Base x Margin% rounded to nearest, half up."
    )
    half_threshold: Literal["literal", "at_least_half", "more_than_half"] = Field(
        "literal",
        description="A-65: special called shots; 'literal' reads 'half' as >= half and "
        "'more than half' as strictly more, per effect.",
    )
    mounted_charge: Literal["half_sum", "half_rider_plus_mount"] = Field(
        "half_sum",
        description="A-66: mounted charge bonus = 1/2 (rider Size + mount Size), or half the "
        "rider's Size plus the whole mount's.",
    )
    equipment_wear: bool = Field(
        True,
        description="A-67: armour and shields lose DR by the excess of a blow over their DR, "
        "as the wand and barriers do.",
    )
    acrobatic_bonus: Literal["to_chance", "to_margin"] = Field(
        "to_chance",
        description="Section 2.3 (PROPOSED here, no A-nn): the Acrobatics margin is added to "
        "the dodge test's chance, or to the dodge margin after a successful dodge.",
    )
    underwater_missile_divisor: int = Field(
        10,
        ge=0,
        description="Section 6 (PROPOSED, A-68 spirit): missiles underwater are 'nearly "
        "useless': skill divided by this; 0 forbids missile attacks underwater.",
    )
    ladder_bridge: bool = Field(
        False,
        description="C-04: let ladder (4dF) characters act in Fae scenes with a percentile "
        "equal to P(skill + 4dF >= Fair).",
    )
    size_bridge: bool = Field(
        False,
        description="C-18: FADAD Mass Scale from Fae Size = round(log1.5(Size/50)).",
    )
    bridge_wound_points: int = Field(
        40,
        ge=1,
        description="C-04 mixed scenes (PROPOSED, issue 7): Wound Points a Fae weapon sees on a "
        "FADAD fighter of Fair Damage Capacity and Mass Scale 0; x1.5 per level above.",
    )
    bridge_armour_dr: int = Field(
        6,
        ge=0,
        description="C-04 mixed scenes (PROPOSED, issue 7): Fae Defense Rating per point of "
        "FADAD armour.",
    )
    melee_reach: int = Field(
        2,
        ge=1,
        description="Section 3 (PROPOSED, issue 7): yards within which a melee weapon hits "
        "on open ground.",
    )
    facing: bool = Field(
        True,
        description="Section 3.1 (PROPOSED, issue 7): blindside and rear attacks from "
        "positions, each fighter facing its own target.",
    )
    bridge_wound_percent: tuple[int, ...] = Field(
        (0, 10, 25, 50, 75, 100, 150),
        min_length=7,
        max_length=7,
        description="C-04 mixed scenes (PROPOSED, issue 7): percent of a Fae body's Wound "
        "Points done by one FADAD blow of wound level 0..6 (None..Dead); read backwards "
        "for Fae blows on FADAD bodies. Keep it non-decreasing.",
    )
    bridge_attribute_step: int = Field(
        15,
        ge=1,
        description="C-04 mixed scenes (PROPOSED, issue 7): a Fae attribute as a ladder "
        "level = round((value - 50) / step), Terrible..Legendary.",
    )
    bridge_weapon_divisor: int = Field(
        30,
        ge=1,
        description="C-04 mixed scenes (PROPOSED, issue 7): FADAD weapon bonus of a Fae "
        "weapon = round(base damage / divisor) (longsword 80 -> +3).",
    )
    dive_failed_level_out: Literal["land_prone", "crash", "no_swoop"] = Field(
        "land_prone",
        description="Section 6 (PROPOSED, issue 7): a failed Aerobatics test to level out "
        "after a dive: land prone at altitude 0; or land prone and take fall damage; or "
        "stay aloft at the dive's bottom without the swoop's charge.",
    )
    fall_damage_per_yard: int = Field(
        10,
        ge=0,
        description="Sections 2.1 and 6 (PROPOSED, issue 7): a fall does base damage 10 "
        "(SEED, a dropped object) plus this per yard fallen, armour applying; dropped "
        "items lose DR by it as equipment damage.",
    )
    wait_cost: int = Field(
        25,
        ge=1,
        le=50,
        description="Section 2 delay (PROPOSED, issue 7): margin a 'wait'/'delay' lowers the "
        "count by (25 = a short action's worth).",
    )
    two_handed_grip: Literal["cancels_large", "always_bonus", "cancels_and_bonus"] = Field(
        "cancels_large",
        description="Section 3.1 (PROPOSED, issue 7): the two-handed grip's +20 only cancels "
        "a large weapon's -20; or +20 for any two-handed weapon (large ones net 0); or it "
        "cancels the -20 and still gives +20 (the bastard sword's net edge).",
    )
    useless_leg_runs: bool = Field(
        False,
        description="Section 7 limb shots (PROPOSED, issue 7): with a numb, mangled or "
        "severed leg movement is halved (as a held leg); False also forbids running.",
    )
    glide_collision: bool = Field(
        True,
        description="Section 6 (PROPOSED, issue 7): an end-of-turn glide that passes within "
        "1 yd of another fighter at its altitude collides: each takes base damage half the "
        "other's Size at margin 100, armour applying, and the glide stops there.",
    )


class MassOptions(_Options):
    """Mass-combat switches (C-15)."""

    engine: Literal["fadad_units", "sj_rapid"] = Field(
        "fadad_units", description="C-15: FADAD unit combat or Spelljammer rapid resolution."
    )
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


class RulesOptions(_Options):
    """All rules options of a battle. Defaults reproduce every seed example."""

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
        Field("standard", description="Wound boxes per level (wounds-and-healing.md 6.2, A-25).")
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
        description="A-27: knockout duration in combat rounds; None = rest of the combat.",
    )
    scale_piercing_min_rd: int = Field(
        3,
        ge=1,
        description="wounds-and-healing.md 11 (PROPOSED): the RD from which a scale-piercing "
        "weapon halves or ignores the defender's Mass Scale.",
    )
    head_blow_knockout: bool = Field(
        False,
        description="SEED 001 4.62 (GM option): a Good-or-better stun blow to the head that "
        "wins knocks out automatically.",
    )
    ship: ShipOptions = ShipOptions()
    fire: FireOptions = FireOptions()
    sj: SjOptions = SjOptions()
    fae: FaeOptions = FaeOptions()
    mass: MassOptions = MassOptions()

    @classmethod
    def from_flat(cls, flat: dict[str, Any]) -> RulesOptions:
        """Build options from dotted keys as CONFLICTS.md writes them (``"fadad.initiative"``)."""
        nested: dict[str, Any] = {}
        for key, value in flat.items():
            head, _, tail = key.partition(".")
            if tail:
                nested.setdefault(head, {})[tail] = value
            else:
                nested[head] = value
        return cls.model_validate(nested)

    def flat(self) -> dict[str, Any]:
        """Every option as a dotted key, the inverse of :meth:`from_flat`."""
        out: dict[str, Any] = {}
        for key, value in self.model_dump().items():
            if isinstance(value, dict):
                out.update({f"{key}.{k}": v for k, v in value.items()})
            else:
                out[key] = value
        return out
