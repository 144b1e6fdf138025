"""The Fae Domains section of :class:`~fadad_agents.rules.options.RulesOptions`: ``fae.*``.

The Fae kernel reads it on its own; :class:`~fadad_agents.rules.options.RulesOptions` composes it.
"""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

from pydantic import Field, model_validator

from fadad_agents.rules.core.options import OptionsSection

__all__ = ["FaeOptions"]


RETIRED: dict[str, str] = {
    "bridge_weapon_divisor": "fae.bridge_weapon_divisor is gone: no rule read it (a Fae "
    "blow on a FADAD fighter lands by the Fae damage sequence, not by a FADAD weapon bonus); "
    "remove it",
}
"""Options that once existed, with what to do about a file that still sets one."""


class FaeOptions(OptionsSection):
    """Fae Domains (d100) switches."""

    retired: ClassVar[dict[str, str]] = RETIRED

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
        le=1_000,
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
        le=100_000,
        description="C-04 mixed scenes (PROPOSED, issue 7): Wound Points a Fae weapon sees on a "
        "FADAD fighter of Fair Damage Capacity and Mass Scale 0; x1.5 per level above.",
    )
    bridge_armour_dr: int = Field(
        6,
        ge=0,
        le=1_000,
        description="C-04 mixed scenes (PROPOSED, issue 7): Fae Defense Rating per point of "
        "FADAD armour.",
    )
    melee_reach: int = Field(
        2,
        ge=1,
        le=1_000,
        description="Section 3 (PROPOSED, issue 7): yards within which a melee weapon hits "
        "on open ground.",
    )
    facing: bool = Field(
        True,
        description="Section 3.1: blindside (+15) and rear (+20) attacks from where the "
        "attacker stands against the target's facing (fae.front_arc, fae.rear_arc); a "
        "fighter faces the foe it acts against, or the way it moves (PROPOSED). False: no "
        "flank bonuses at all.",
    )
    front_arc: int = Field(
        120,
        ge=0,
        le=360,
        description="Section 3.1 (PROPOSED: the seed names the arcs, not their widths): "
        "degrees of the front arc centred on the facing; blows from it get no flank bonus.",
    )
    rear_arc: int = Field(
        90,
        ge=0,
        le=360,
        description="Section 3.1 (PROPOSED): degrees of the rear arc centred behind the "
        "facing; blows from it are rear attacks (+20), from between the arcs blindside (+15).",
    )
    bridge_wound_percent: tuple[Annotated[int, Field(ge=0, le=1_000)], ...] = Field(
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
        le=1_000,
        description="C-04 mixed scenes (PROPOSED, issue 7): a Fae attribute as a ladder "
        "level = round((value - 50) / step), Terrible..Legendary.",
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
        le=1_000,
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
    two_handed_grip: Literal["always_bonus", "cancels_large", "cancels_and_bonus"] = Field(
        "always_bonus",
        description="Section 3.1: a two-handed grip adds +20 to any melee weapon, so a large "
        "one nets 0 and a bastard sword gains the seed's 'slight edge' (always_bonus); or "
        "the +20 only cancels a large weapon's -20 (cancels_large, PROPOSED, issue 7); or it "
        "cancels the -20 and still adds +20 (cancels_and_bonus, PROPOSED).",
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
    glide_hits_terrain: bool = Field(
        True,
        description="Section 6 (PROPOSED): with glide_collision on, an end-of-turn glide "
        "also collides with the map's obstacles (trees, towers) it passes within their "
        "radius + 1 yd of while below their height: it stops there and takes base damage "
        "half the obstacle's Size at margin 100, armour applying; the obstacle takes none.",
    )
    limb_hold_modifier: int = Field(
        -20,
        ge=-100,
        le=100,
        description="Section 4 (PROPOSED, A-68: the maneuver list was dropped): modifier of "
        "the Unarmed test that seizes a limb hold (aimed like a called shot, 3.3).",
    )
    submission_hold_modifier: int = Field(
        -40,
        ge=-100,
        le=100,
        description="Section 4 (PROPOSED, A-68): modifier of the Unarmed test that seizes a "
        "submission hold (the hold that leaves the target nothing but breaking free).",
    )
    mount_defence: Literal["dodge", "none"] = Field(
        "dodge",
        description="Section 6 (PROPOSED, issue 7): a ridden mount dodges the blows aimed at "
        "it (it cannot parry), or never defends (agents.fae_mount).",
    )
    free_actions_per_count: int = Field(
        3,
        ge=0,
        le=100,
        description="Section 2.1 (PROPOSED): most free actions (speak, gesture, drop) a "
        "fighter takes beside one action at a count; then the count waits "
        "(agents.fae_actions).",
    )

    @model_validator(mode="after")
    def _arcs_fit(self) -> FaeOptions:
        if self.front_arc + self.rear_arc > 360:
            raise ValueError(
                f"fae.front_arc {self.front_arc} + fae.rear_arc {self.rear_arc} exceed 360 "
                "degrees; make them fit in a circle"
            )
        return self
