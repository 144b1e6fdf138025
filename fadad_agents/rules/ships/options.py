"""Ship-combat sections of :class:`~fadad_agents.rules.options.RulesOptions`: ``ship.*``
(both rulesets' ship combat, C-02, C-03), ``fire.*`` (C-08) and ``sj.*`` (Spelljammer d20).

The ship kernel reads them on their own; :class:`~fadad_agents.rules.options.RulesOptions`
composes them.
"""

from __future__ import annotations

from itertools import pairwise
from typing import Annotated, Literal

from pydantic import AfterValidator, Field, field_validator

from fadad_agents.rules.core.options import OptionsSection
from fadad_agents.rules.ships.combat import Dice

__all__ = ["DiceText", "FireOptions", "ShipOptions", "SjOptions"]


def _dice_text(text: str) -> str:
    Dice.parse(text)  # a CombatError (ValueError) names what is allowed
    return text


DiceText = Annotated[
    str,
    Field(pattern=r"^(\d+d\d+([+-]\d+)?|\d+)$", max_length=20),
    AfterValidator(_dice_text),
]
"""Dice as scenario files write them: ``"1d6"``, ``"2d8+1"``, ``"5"`` (at most 100 dice of
at most 100 sides, :meth:`~fadad_agents.rules.ships.combat.Dice.parse`)."""


CritTrigger = Literal[
    "natural_20", "half_hull", "ram", "shear_20", "rd_4", "dice_4", "heavy_damage", "crippling"
]
"""What may make a ship critical (C-03/A-39): d20 and FADAD triggers."""

_Boxes = Annotated[int, Field(ge=0, le=100)]
_Yards = Annotated[int, Field(ge=0, le=1_000_000)]
_Modifier = Annotated[int, Field(ge=-20, le=20)]
_DC = Annotated[int, Field(ge=1, le=100)]


class ShipOptions(OptionsSection):
    """Ship-combat switches (C-02, C-03)."""

    damage_model: Literal["fadad_levels", "sj_hull_points"] = Field(
        "sj_hull_points", description="C-02: FADAD damage levels or Spelljammer hull points."
    )
    crit_table: Literal["fadad_6dF", "sj_d20"] = Field(
        "sj_d20", description="C-03: which critical table drives the shared effect handlers."
    )
    crit_triggers: tuple[CritTrigger, ...] = Field(
        ("natural_20", "half_hull", "ram", "shear_20", "rd_4", "heavy_damage", "crippling"),
        max_length=8,
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
        ge=-10,
        le=0,
        description="Section 3 (PROPOSED): fast-projectile dodge penalty for wildfire and "
        "bombard shot (catapult stones and ballista bolts are -2 by the seed); 0 = none.",
    )
    reload_rule: Literal["sj_plus_one", "proportional"] = Field(
        "sj_plus_one",
        description="A-37: a short-handed big weapon takes one more ship round per missing "
        "crewman (d20 rule) or time x crew needed / crew present (rounded up).",
    )
    fadad_boxes: tuple[_Boxes, _Boxes, _Boxes, _Boxes, _Boxes] = Field(
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
        description="Section 4: a ship reaching Wrecked 'crumbles, blows apart' and breaks "
        "up (destroyed, the seed); or (stay_wrecked, PROPOSED, Wrecked as 'Near Death') she "
        "stays a hulk dead in space - no helm, no guns, no dodge - whose people fight on and "
        "may be boarded, and further damage leaves her Wrecked (engine.ships.damage).",
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
        le=100,
        description="A-43: most repair workers per ton of ship volume per shift.",
    )
    blast_victims: int = Field(
        3,
        ge=0,
        le=1_000,
        description="PROPOSED (FADAD 6dF crits): hands caught by a crew 'blast' hit, everyone "
        "in its 10-ft area (engine.ship_damage.crew_hit).",
    )
    crewman_dies_at_damage: int = Field(
        7,
        ge=1,
        le=100,
        description="PROPOSED (FADAD 6dF crits): a crewman hit by a crew critical dies from "
        "this damage number (7 = Incapacitated) (engine.ship_damage).",
    )
    hull_points_per_damage_number: int = Field(
        2,
        ge=1,
        le=1_000,
        description="PROPOSED (C-02): under FADAD levels, hull points from a HullLoss result, "
        "a crash or small arms make a damage number of hull points // this "
        "(engine.ship_damage, ship_close, ship_hull_attacks).",
    )
    shaken_stops_guns: bool = Field(
        False,
        description="PROPOSED alternative to the seed: a Ship Shaken result stops every "
        "weapon of hers that has not yet fired this round. Default no: as SJ 5 says, each "
        "hand may fall (NPCs 40%, PCs a Dexterity check) and a weapon whose hands all fell "
        "does not fire (engine.ships.deck.shake, engine.ships.gunnery.fire_guns).",
    )
    fadad_acceleration_limit: bool = Field(
        True,
        description="PROPOSED (FADAD section 2): a ship's speed may change by at most the MS "
        "row's maximum acceleration a round; False = any speed up to SR "
        "(engine.ship_maneuver).",
    )
    hand_attack_range_mods: tuple[tuple[_Yards, _Modifier], ...] = Field(
        ((10, -2), (50, 0), (150, 1), (500, 3), (1500, 5)),
        min_length=1,
        max_length=20,
        description="PROPOSED (FADAD 5.3 'modified for range: fudge it'): Target modifier to "
        "a ship's Terrible-1 (-4) against a hand weapon or spell, as (up to this many yards, "
        "modifier) steps by increasing distance; farther than the last step takes its "
        "modifier. Default: alongside (30 ft) -2 = Target -6, 'hard to miss'; 50 yd -4; "
        "150 yd -3; 500 yd (a FADAD hex) -1; 1,500 yd +1 "
        "(engine.ship_hull_attacks.hand_attack_target).",
    )
    hand_attack_shared_hex_fraction: float = Field(
        0.5,
        ge=0,
        le=1,
        description="PROPOSED (FADAD 5.3): for that range, ships sharing a hex but not "
        "grappled are this fraction of a hex apart (grappled: 0 yards; n hexes: n hexes) "
        "(engine.ship_hull_attacks.yards_apart).",
    )

    @field_validator("hand_attack_range_mods")
    @classmethod
    def _steps_increase(cls, steps: tuple[tuple[int, int], ...]) -> tuple[tuple[int, int], ...]:
        yards = [most for most, _ in steps]
        if any(b <= a for a, b in pairwise(yards)) or yards[0] < 0:
            raise ValueError(
                f"ship.hand_attack_range_mods: the yards of the steps {yards} must be 0 or "
                "more and strictly increasing, e.g. [[10, -2], [50, 0], [150, 1]]"
            )
        return steps


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
    fouled_air_penalty: int = Field(
        1,
        ge=0,
        le=4,
        description="PROPOSED (SJ 7.3 names the air's steps, fresh, fouled, deadly, and 'all "
        "effects of the change affecting the crew', but not the effects): everyone on the "
        "deck of a ship whose air fire has fouled fights this many levels worse - on every "
        "FADAD roll, and on a d20 at engine.ladder_d20_bonus's step a level (crews' rapid "
        "resolution, her big weapons); 0 = no effect. The air fouls only with "
        "sj_firefighting.",
    )
    deadly_air_penalty: int = Field(
        3,
        ge=0,
        le=8,
        description="PROPOSED (SJ 7.3, as fouled_air_penalty): the levels lost once her air "
        "is deadly (choking smoke); 0 = no effect.",
    )


class SjOptions(OptionsSection):
    """Spelljammer (d20) switches."""

    crash_dc: _DC = Field(15, description="A-51: Helm Pilot check DC in a crash.")
    crash_save_dc: _DC = Field(15, description="A-51: Reflex save DC in a crash.")
    ram_dice_by_speed: bool = Field(
        True,
        description="PROPOSED (A-52, the ram-damage table is lost; SJ 9 gives a counter-ram "
        "'its speed from the previous turn'): a ship's ram_dice are for a ram at her full SR; "
        "at a lower speed she rolls that share of them, rounded up, at least one; False = "
        "the listed dice at any speed (engine.ships.close).",
    )
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
    crit_fortitude_dc: _DC = Field(
        15, description="A-50: bystanders' Fortitude save DC against a crew-casualty critical."
    )
    shaken_dexterity_dc: _DC = Field(
        10, description="A-50: PCs' Dexterity check DC against falling when the ship is shaken."
    )
    shock_will_dc: _DC = Field(
        15, description="A-50: the helmsman's Will save DC against spelljammer shock."
    )
    mc_loss_rounds_per_turn: int = Field(
        1,
        ge=1,
        le=100,
        description="A-50: rounds per 'turn' of the 1d10-turn Maneuverability loss; 1 reads "
        "turns as rounds, 10 as 10-round turns.",
    )
    grapple_lines_rounding: Literal["ceil", "floor"] = Field(
        "ceil", description="A-53: lines needed = tonnage/10 of the smaller ship, rounded."
    )
    pursuit_turn_rounds: int = Field(
        10,
        ge=1,
        le=1_000,
        description="A-55: rounds in a 'turn'; two turns of delay lose the quarry.",
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
    tow_capacity: int = Field(
        2,
        ge=0,
        le=100,
        description="PROPOSED (SJ 14 gives no figure): a helm moves up to this many times "
        "its own ship's tonnage, so a ship tows a grappled one only if this x her tons "
        "covers both (engine.ship_maneuver.towed_by); 0 = no towing.",
    )
    very_dangerous_boarding_odds: int = Field(
        2,
        ge=1,
        le=100,
        description="PROPOSED (SJ 12): a boarding is 'very dangerous' (each boarding crew "
        "checks morale first, refusing on a failure) when the enemy deck holds at least "
        "this many times the party's heads (engine.ship_close.board).",
    )
    crewman_hit_points_per_hd: float = Field(
        4.5,
        gt=0,
        le=1_000,
        description="PROPOSED (d20 crew hits): a crewman dies when one hit's damage reaches "
        "his average hit points, HD x this (engine.ship_damage crew criticals, "
        "engine.ship_close crash casualties).",
    )
    weapons_start_loaded: bool = Field(
        True,
        description="PROPOSED (SJ 15): ships meet with their big weapons loaded; False = "
        "each starts reloading when hands reach it (engine.ship_build, WeaponTeam).",
    )
    new_helmsman_warmup: bool = Field(
        True,
        description="PROPOSED (SJ 1.2): a new helmsman in battle (the old one in a helm-shock "
        "coma or taken out) warms the helm up 1d8 rounds again before she maneuvers; False "
        "= he only finishes a warm-up already under way (engine.ship_helm).",
    )
    jettisoned_debris_blocks_escape: bool = Field(
        False,
        description="PROPOSED (SJ 15): rubble a fleeing ship jettisons counts against the "
        "25-hex capture distance like wrecks and map debris; default no, it is too small a "
        "mass (engine.ship_morale.try_escape).",
    )
    cut_loose_adds_capture: bool = Field(
        True,
        description="PROPOSED (SJ 16): a pursuer slowed by a mass the quarry cut loose loses "
        "the rounds to cover its 11-20 stop hexes plus the 25-hex capture distance; False = "
        "the stop hexes only (engine.ship_jettison.mass_delay).",
    )
    debris_attack_bonus: int = Field(
        0,
        ge=-100,
        le=100,
        description="PROPOSED (SJ 7.2, A-60): d20 bonus of a debris field's attack on a ship "
        "entering it at 2+ hexes a round, vs her AC (engine.ship_maneuver).",
    )
    debris_hull_dice: tuple[DiceText, DiceText, DiceText] = Field(
        ("1d4", "1d6", "1d8"),
        description="PROPOSED (SJ 7.2, A-60): hull damage of a debris hit as by a small, "
        "medium and large jettison (by the ship's speed); the same roll is the FADAD damage "
        "number (engine.ship_maneuver).",
    )
    hull_shot_dice: DiceText = Field(
        "1d6",
        description="PROPOSED (SJ 8): points a named character's missile does at one spot of "
        "a hull, plus his ODM; every 10 at a spot is a hull point "
        "(engine.ship_hull_attacks.hull_shots).",
    )
    chop_dice: DiceText = Field(
        "1d8",
        description="PROPOSED (SJ 8): points of one chopping blow at a grappled hull (no "
        "attack roll), plus the chopper's ODM, one blow per personal round "
        "(engine.ship_hull_attacks.chop_hull).",
    )
    spell_attack: Literal["automatic", "d20_vs_ac"] = Field(
        "automatic",
        description="PROPOSED (SJ 8.1): a spell cast at a ship's hull hits with no roll, or "
        "needs d20 + the caster's attack skill as a d20 bonus (engine.ladder_d20_bonus) to "
        "reach her AC; a miss spends the spell (engine.ship_hull_attacks.cast_spells).",
    )
    gargantuan_carcass_debris: bool = Field(
        False,
        description="PROPOSED: a slain gargantuan creature leaves a debris field in its hex "
        "and the next as a broken-up ship does; default no (engine.ship_damage.break_up).",
    )
    packed_crew_factor: int = Field(
        2,
        ge=1,
        le=100,
        description="PROPOSED (SJ 15 reaction by appearance): a newcomer's deck is 'packed "
        "to the gunwales' with at least this many times her minimum crew on it "
        "(engine.ship_build).",
    )
    gunnery_range_step: int = Field(
        2,
        ge=0,
        le=10,
        description="PROPOSED (A-37/A-48: the SJ weapon table with its ranges is lost): a "
        "big weapon's d20 attack takes its range table's Target modifier at that range "
        "(ships-fadad.md 3.1, in hexes) times this, as d20 points against it: a ballista "
        "+8 alongside, -6 at 7 hexes; 2 = the ladder's step on engine.ladder_d20_bonus; "
        "0 = range does not matter (engine.ships.gunnery).",
    )
    gunner_attack_bonus: bool = Field(
        True,
        description="PROPOSED (C-20): a big weapon's d20 attack adds the average crewman's "
        "attack bonus to the weapon's own modifier; False = the weapon's modifier only "
        "(engine.ship_gunnery).",
    )
    outnumbered_heads: Literal["deck_when_boarded", "fleets"] = Field(
        "deck_when_boarded",
        description="PROPOSED (SJ 18 'crew outnumbered 3:1'): heads counted on the ship's own "
        "deck while boarders are aboard, else both fleets'; or always both fleets' "
        "(engine.ship_morale).",
    )
    riggers_stay_aboard: bool = Field(
        True,
        description="PROPOSED (SJ 12): crews with role 'rigging' stay aboard when the rest "
        "board (engine.ship_state.boarding_party).",
    )
    deck_missile_modifier: int = Field(
        0,
        ge=-100,
        le=100,
        description="PROPOSED (SJ 8): modifier to a crew's hand-missile volley at the crew "
        "of an enemy ship in her hex (medium range, short in contact: none) "
        "(engine.ships.turn.missile_fire).",
    )
    crews_start_armed: bool = Field(
        True,
        description="PROPOSED (SJ 15 reaction by appearance): a newcomer's crew shows arms; "
        "False = unarmed, so a ship with nothing loaded looks friendly (engine.ship_build).",
    )
    superior_force_ratio: int = Field(
        3,
        ge=0,
        le=1000,
        description="PROPOSED (SJ 18 'the ship is faced by an obviously superior force'): a "
        "ship's crew checks morale when the enemy fleet first has this many times her "
        "side's tonnage, or its people this many times her side's heads; 0 = never "
        "(engine.ships.morale).",
    )
    crew_morale_roll: Literal["2d10", "1d20"] = Field(
        "2d10",
        description="A-57/C-16 (PROPOSED roll): a crew's morale holds on this roll "
        "<= morale (agents.core.groups.Crew, engine.ships.morale).",
    )
