"""Bulk forces and ships: Crew, Unit, Ship.

Rules: ``ships-spelljammer.md`` sections 6 (crew shortage), 13 (rapid resolution: the
average crewman's HD, AC, attack, maximum damage) and 18 (morale 11); ``mass-combat.md``
section 1 (FADAD units: Scale from head count, unit morale); ``ships-fadad.md`` sections
2-4 (Maneuverability Class, Maneuvering Skill inputs, volume Target, armour, Mass Scale,
damage boxes) and 5.1 (rams).

* :class:`Crew` - featureless NPCs resolved in bulk (one agent with a head count).
* :class:`Unit` - a FADAD mass-combat unit (one 4dF combatant with a Scale bonus).
* :class:`Ship` - a hull with SJ and FADAD stats, its big weapons, and where it is.

Crews and characters say which ship they are on with ``aboard: <ship name>``.
"""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import Field, model_validator
from pydantic_core import PydanticCustomError

from fadad_agents.rules.ships.crew import CREW_SITUATIONS, CrewSituation
from fadad_agents.rules.ships.movement import BodySize, Weather
from fadad_agents.rules.ships.options import DiceText
from fadad_agents.schema.base import (
    MAX_ENTRIES,
    Boxes,
    Ladder,
    Name,
    Policies,
    Position,
    Record,
    Ref,
    Text,
)
from fadad_agents.schema.equipment import Armour, ShipWeapon, Weapon
from fadad_agents.schema.starting import MAX_MARKS, ShipMark

__all__ = ["MC_LADDER", "Crew", "GravityWell", "Ship", "Unit"]


def _refuse(data: object, field: str, why: str) -> object:
    """A stat block may not carry ``field`` any more: one clear message saying why."""
    if isinstance(data, dict) and field in data:
        raise PydanticCustomError("retired_field", "{why}", {"where": field, "why": why})
    return data


MC_LADDER: dict[str, int] = {"A": 2, "B": 1, "C": 0, "D": -1, "E": -2, "F": -3}
"""FADAD MS-table equivalence of SJ manoeuvrability letters (ships-fadad.md 2)."""


class _Placed(Record):
    """Fields every force shares: kind tag, name, policies, position.

    Crews and units have no ``facing``: they carry no shield and the mass rules give a
    group no front (a scenario that sets one gets the unknown-field error).
    """

    model: Ref | None = Field(None, description="Catalogue name this was built from.")
    name: Name
    description: Text = ""
    policies: Policies
    position: Position | None = Field(None, description="Map cell (q, r) or (x, y).")


class Crew(_Placed):
    """Featureless NPCs with a head count and average stats (SJ rapid resolution 13)."""

    catalog_kind: ClassVar[str | None] = "crews"

    kind: Literal["crew"] = "crew"
    count: int = Field(ge=1, le=1_000_000, description="Head count.")
    role: Literal["rigging", "marines", "gunners", "boarders", "passengers", "mixed"] = "mixed"
    morale: int = Field(11, ge=2, le=20, description="SJ morale (2d10 <= morale, 18).")
    hit_dice: float = Field(1.0, gt=0, le=40, description="Average HD (13 step 3).")
    armour_class: int = Field(10, ge=-10, le=20, description="Average AC (d20 ascending).")
    attack_bonus: int = Field(1, ge=-5, le=30)
    max_damage: int = Field(8, ge=1, le=200, description="Average maximum damage (13 step 4).")
    incapacitating_attack: bool = Field(False, description="Doubles dice (13 step 4).")
    skill: Ladder = Field(0, description="FADAD skill of the average member.")
    strength: Ladder = 0
    damage_capacity: Ladder = 0
    scale: int = Field(0, ge=-40, le=60)
    weapon: Weapon | None = None
    armour: Armour | None = None
    aboard: Ref | None = Field(None, description="Name of the ship this crew is on.")

    @model_validator(mode="before")
    @classmethod
    def _no_quality(cls, data: object) -> object:
        return _refuse(
            data,
            "quality",
            "a crew's quality is read by no rule of the seeds, so the simulator does not take "
            "it: remove it and say what makes the crew better in morale, hit_dice, "
            "attack_bonus or skill",
        )


class Unit(_Placed):
    """A FADAD mass-combat unit (mass-combat.md 1)."""

    catalog_kind: ClassVar[str | None] = "units"

    kind: Literal["unit"] = "unit"
    count: int = Field(ge=1, le=10_000_000, description="Fighters N; Scale = log N / log 1.5.")
    skill: Ladder = Field(0, description="Attack skill of a representative member.")
    defence_skill: Ladder | None = Field(None, description="None = same as skill.")
    morale: Ladder = Field(0, description="Morale/leadership trait for morale checks.")
    strength: Ladder = 0
    damage_capacity: Ladder = 0
    scale: int = Field(0, ge=-40, le=60, description="Scale of one member.")
    weapon: Weapon | None = None
    armour: Armour | None = None
    leader: Ref | None = Field(None, description="Name of a character leading the unit.")


class GravityWell(Record):
    """Where a ship starts inside a body's gravity well (``ships-spelljammer.md`` 1.2).

    Before tactical movement she climbs out for the size class's rounds times the
    weather's multiplier (EX-SJ-12), after a 1d8-round helm warm-up if ``landed``.
    """

    size: BodySize = Field(
        description="Body size class A..J (A 1 round .. J 96 rounds to climb out)."
    )
    weather: Weather = Field(
        "normal",
        description="x1, x2 (strong winds, rain, snow), x4 (storm, gale); "
        "no take-off in a hurricane.",
    )
    landed: bool = Field(True, description="On the surface: the helm warms up 1d8 rounds first.")


class Ship(_Placed):
    """A ship: hull stats for both rule systems, weapons, crew requirement, position."""

    catalog_kind: ClassVar[str | None] = "ships"

    kind: Literal["ship"] = "ship"
    facing: int = Field(0, ge=0, le=5, description="Hex side faced, 0..5.")
    hull_class: Text = Field("", max_length=120, description="Class name of the design.")
    tons: int = Field(ge=1, le=1_000_000, description="Size in SJ tons (volume, base Target).")
    mass_scale: int = Field(ge=0, le=80, description="FADAD Mass Scale (DDM vs big weapons).")
    hull_points: int = Field(ge=1, le=100_000, description="SJ hull points.")
    damage_boxes: Boxes | None = Field(
        None,
        description="FADAD boxes: Scratched, Light, Heavy, Crippled, Wrecked; none = the "
        "scenario's ship.fadad_boxes (A-38, PROPOSED 3/1/1/1/1).",
    )
    armour: int = Field(0, ge=0, le=20, description="FADAD ship armour (ships-fadad.md 4).")
    hull_damage: int = Field(
        0,
        ge=0,
        le=100_000,
        description="SJ hull points lost in an earlier battle and not yet repaired "
        "(fadad aftermath writes it); she starts the battle with that much less hull.",
    )
    damage_marks: list[ShipMark] = Field(
        default_factory=list,
        max_length=MAX_MARKS,
        description="FADAD damage track boxes marked in an earlier battle: 'Scratched', "
        "'Lightly Damaged' ... ('Scratched in Lightly Damaged' for one written higher).",
    )
    armour_class: int = Field(ge=-10, le=30, description="SJ AC = armour rating.")
    maneuverability: Literal["A", "B", "C", "D", "E", "F"] = Field(
        description="Maneuverability class letter (SJ 2; FADAD MS table A=Great..F=Terrible)."
    )
    fadad_mc: Ladder | None = Field(None, description="FADAD MC; None = from the letter.")
    sr: int = Field(ge=0, le=20, description="Ship Rating (hexes per round).")
    speed: int = Field(0, ge=0, le=20, description="Current speed at scenario start.")
    min_crew: int = Field(ge=1, le=100_000, description="Minimum crew (excl. weapon crews).")
    max_crew: int | None = Field(None, ge=1, le=100_000)
    ram: Literal["none", "blunt", "piercing", "grappling"] = "none"
    ram_dice: DiceText | None = Field(None, description="SJ ram.")
    landing: Literal["none", "water", "land", "both"] = "none"
    cost_gp: int = Field(0, ge=0, le=10**12)
    weapons: list[ShipWeapon] = Field(default_factory=list, max_length=MAX_ENTRIES)
    helm_skill: Ladder = Field(0, description="Helmsman's helm skill (MS input).")
    crew_skill: Ladder = Field(0, description="Effective rigging-crew skill (MS input).")
    familiar: bool = Field(True, description="Helm and crew used to working together.")
    gravity_well: GravityWell | None = Field(
        None, description="Starts landed on or inside a body's gravity well (SJ 1.2)."
    )
    gargantuan: bool = Field(
        False,
        description="A gargantuan creature (space wyrm) fighting as a ship: no crew, its "
        "body is its ram; rams against it roll d4s for d6s (SJ 9, EX-SJ-07).",
    )
    poorly_maintained: bool = Field(
        False,
        description="Last repaired without a skilled hand (SJ 17): critical hits on her come "
        "one easier - a d20 crit from sj.poorly_maintained_crit_from (19), a FADAD attack "
        "crit at RD 3 (PROPOSED).",
    )
    grapnels: Literal["lines", "chains"] = Field(
        "lines",
        description="Her grappling hooks hang on lines (cut at AC 10, 5 hit points) or on "
        "chains (AC 4, 20 hit points) (SJ 12).",
    )
    captain: Ref | None = Field(
        None,
        description="Name of the character aboard who captains her (SJ 18: captain on deck "
        "+4, slain -2 and a morale check); default her first player character, else her "
        "first named character.",
    )
    crew_situation: tuple[CrewSituation, ...] = Field(
        (),
        max_length=len(CREW_SITUATIONS),
        description="Standing morale modifiers of her crew (SJ 18): plunder_share +2, "
        "hated_enemy +4, favored +2, poorly_treated -4, captain_other_alignment -1, "
        "defending_home +2, defensive_terrain +1, magical_creatures -2; surprised -2 and a "
        "morale check at the end of the first round.",
    )

    @model_validator(mode="after")
    def _consistent(self) -> Ship:
        if self.max_crew is not None and self.max_crew < self.min_crew:
            raise PydanticCustomError(
                "ship_crew",
                "{max} is below min_crew {min} (a ship needs at least her minimum crew room)",
                {"where": "max_crew", "max": self.max_crew, "min": self.min_crew},
            )
        if self.speed > self.sr:
            raise PydanticCustomError(
                "ship_speed",
                "{speed} is above her Ship Rating sr {sr} (the most hexes a round she makes)",
                {"where": "speed", "speed": self.speed, "sr": self.sr},
            )
        if self.hull_damage >= self.hull_points:
            raise PydanticCustomError(
                "ship_hull",
                "{damage} leaves none of her {hull} hull points (a ship starts with some hull "
                "left: at most {most})",
                {
                    "where": "hull_damage",
                    "damage": self.hull_damage,
                    "hull": self.hull_points,
                    "most": self.hull_points - 1,
                },
            )
        return self

    @model_validator(mode="before")
    @classmethod
    def _no_volume_scale(cls, data: object) -> object:
        return _refuse(
            data,
            "volume_scale",
            "no rule the simulator plays reads a ship's Volume Scale (FADAD widespread "
            "attacks on ships are not played; her size is her tons): remove it",
        )

    @property
    def mc_level(self) -> int:
        """FADAD Maneuverability Class as a ladder value."""
        return self.fadad_mc if self.fadad_mc is not None else MC_LADDER[self.maneuverability]
