"""Ship-combat sections of :class:`~fadad_agents.rules.options.RulesOptions`: ``ship.*``
(both rulesets' ship combat, C-02, C-03), ``fire.*`` (C-08) and ``sj.*`` (Spelljammer d20).

Re-exported by :mod:`fadad_agents.rules.options`; import them from there.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from fadad_agents.rules.options_base import OptionsSection

__all__ = ["FireOptions", "ShipOptions", "SjOptions"]


class ShipOptions(OptionsSection):
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


class FireOptions(OptionsSection):
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


class SjOptions(OptionsSection):
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
