"""Fae Domains stat blocks: percentile attributes and skills, gear with Defense Ratings.

Rules: ``fae-domains.md`` section 1 (percentile attributes and skills; Wound and Fatigue
Points are character inputs, A-69), 2 (Move Rates), 3 (weapons: base damage, range
rating, large weapons, two-handed grips), 6 (flight, mounts, water) and 8 (Defense
Ratings of armour, shields and weapons).

* :class:`FaeGear` - a weapon, armour or shield; catalogue folder ``models/fae/``
  (``fae/longsword``). The seed gives no weapon table: the catalogue's numbers are
  ORIGINAL (said so in each file).
* :class:`FaeAttributes` - the attributes a Fae combat rule tests: Strength, Agility,
  Stamina, Size, Willpower, Luck and Reaction (50 = human average). Charisma and
  Intelligence, which no combat rule of seed 004 tests, are refused with a line saying so.
* :class:`FaeMount` - a steed or flying mount: a combatant of its own beside its rider
  (its own Reaction test, actions and weapon; :meth:`FaeMount.combatant`).
* :class:`FaeCharacter` - a Fae Domains combatant (force ``kind: fae``, or
  ``ruleset: fae`` on the force or the whole scenario).

>>> FaeGear(item="weapon", name="Club", skill="Bludgeon", base_damage=40).damage_kind
'blunt'
"""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

from pydantic import Field, model_validator
from pydantic_core import PydanticCustomError

from fadad_agents.rules.fae.special import object_base_damage
from fadad_agents.schema.base import (
    MAX_ENTRIES,
    NAME_LENGTH,
    Name,
    Policies,
    Position,
    Record,
    Ref,
    Text,
)

__all__ = ["FaeAttributes", "FaeCharacter", "FaeGear", "FaeMount", "Percent"]

Percent = Annotated[int, Field(ge=0, le=300)]
"""A skill's percentile rating, 0..300."""

AttributeName = Literal[
    "strength",
    "agility",
    "stamina",
    "size",
    "willpower",
    "luck",
    "reaction",
]
"""The attributes a skill may key off (section 1): those a combat rule tests."""

_Skills = Annotated[
    dict[Name, Percent],
    Field(default_factory=dict, max_length=MAX_ENTRIES, description="Skill -> percent."),
]


class FaeGear(Record):
    """A Fae Domains weapon, armour or shield (catalogue ``models/fae/<name>.yaml``).

    Attributes:
        item: ``weapon``, ``armour`` or ``shield``.
        dr: Defense Rating: what armour subtracts, what a block multiplies by its margin,
            and what a blow must exceed to damage the item (section 8).
        skill: the skill used with it (weapons; shields block with ``Shield``).
        base_damage: Base Damage; damage = base x margin% (section 3.2).
        damage_kind: blunt, slashing or piercing (stun penalty, special called shots).
        hands: hands needed; 2 gives the two-handed +20%.
        large: longer than half the wielder's height: -20% unless held two-handed.
        range_rating: yards per -5% range increment (missile and thrown weapons).
        max_range: nothing beyond can be hit (yards).
        thrown: a thrown weapon (Thrown Weapons skill; range from Strength and weight).
        weight: pounds (thrown range, dropping, dragging).
    """

    catalog_kind: ClassVar[str | None] = "fae"

    model: Ref | None = Field(None, description="Catalogue name this was built from.")
    item: Literal["weapon", "armour", "shield"] = "weapon"
    name: Name
    description: Text = ""
    dr: int = Field(0, ge=0, le=1000, description="Defense Rating (section 8).")
    skill: Ref | None = Field(None, description="Skill used with it (Sword, Bow, Shield ...).")
    base_damage: int = Field(0, ge=0, le=10_000, description="Base Damage (3.2).")
    damage_kind: Literal["blunt", "slashing", "piercing"] = "blunt"
    hands: int = Field(1, ge=1, le=2)
    large: bool = Field(False, description="Longer than half the wielder's height (-20%).")
    range_rating: int | None = Field(None, ge=1, le=10_000, description="Yards per increment.")
    max_range: int | None = Field(None, ge=1, le=100_000, description="Yards.")
    thrown: bool = False
    weight: float = Field(1.0, gt=0, le=10_000, description="Pounds.")

    @model_validator(mode="after")
    def _weapon_has_skill(self) -> FaeGear:
        rated = self.base_damage > 0 or self.thrown  # thrown objects: weight / 3 (3.4)
        if self.item == "weapon" and (self.skill is None or not rated):
            raise PydanticCustomError(
                "fae_weapon",
                "a Fae weapon needs a skill and a base_damage > 0 (e.g. skill: Sword, "
                "base_damage: 60; a thrown object may leave it out)",
                {"where": "skill" if self.skill is None else "base_damage"},
            )
        return self

    @property
    def damage_base(self) -> int:
        """Base Damage; an object with no damage rating does weight / 3 (3.4, half up)."""
        if self.base_damage > 0:
            return self.base_damage
        return object_base_damage(weight=max(1, round(self.weight)))

    @property
    def ranged(self) -> bool:
        """A missile or thrown weapon (has a range rating)."""
        return self.range_rating is not None


UNTESTED_ATTRIBUTES = ("charisma", "intelligence")
"""Attributes of the *Attributes* chapter that no combat rule of seed 004 tests."""


class FaeAttributes(Record):
    """The attributes Fae combat tests (the *Attributes* chapter), plus Reaction.

    Strength (holds, disarms, throwing range), Agility (the default primary attribute),
    Stamina and Willpower (recovery and morale tests), Size (charges, collisions,
    weight), Luck (every test) and Reaction (turn order). Charisma and Intelligence are
    refused: no combat rule of the seed reads them, and a stat block should not carry a
    number that changes nothing.
    """

    strength: int = Field(50, ge=1, le=500)
    agility: int = Field(50, ge=1, le=500)
    stamina: int = Field(50, ge=1, le=500)
    size: int = Field(50, ge=1, le=100_000, description="Weight ~ 3 x Size lb.")
    willpower: int = Field(50, ge=1, le=500)
    luck: int = Field(50, ge=1, le=500)
    reaction: int = Field(50, ge=1, le=500, description="Reaction test base (section 2).")

    @model_validator(mode="before")
    @classmethod
    def _no_untested_attributes(cls, data: object) -> object:
        if isinstance(data, dict):
            for name in UNTESTED_ATTRIBUTES:
                if name in data:
                    raise PydanticCustomError(
                        "fae_untested_attribute",
                        "{name} is tested by no Fae Domains combat rule (seed 004), so the "
                        "simulator does not take it: remove it from attributes",
                        {"where": name, "name": name.capitalize()},
                    )
        return data


class FaeMount(Record):
    """A mount: its own Reaction test, Size for charges, Move Rates, Wound Points."""

    name: Name
    attributes: FaeAttributes = Field(default_factory=FaeAttributes)
    skills: _Skills
    wound_points: int = Field(ge=1, le=100_000)
    fatigue_points: int = Field(ge=1, le=100_000)
    walk_mr: int = Field(10, ge=0, le=10_000, description="Yards per turn.")
    run_mr: int = Field(40, ge=0, le=10_000)
    fly_mr: int | None = Field(None, ge=1, le=10_000)
    weapon: FaeGear | None = Field(
        None, description="Its own weapon (bite, kick, trample); none: it never attacks alone."
    )

    def combatant(self, rider: FaeCharacter) -> FaeCharacter:
        """This mount as a Fae combatant beside ``rider`` (same place, height and water)."""
        return FaeCharacter(
            name=rider.mount_name,
            attributes=self.attributes,
            skills=self.skills,
            wound_points=self.wound_points,
            fatigue_points=self.fatigue_points,
            walk_mr=self.walk_mr,
            run_mr=self.run_mr,
            fly_mr=self.fly_mr,
            altitude=rider.altitude,
            underwater=rider.underwater,
            weapons=[self.weapon] if self.weapon is not None else [],
            policies={},
            position=rider.position,
        )


class FaeCharacter(Record):
    """A Fae Domains combatant in a scenario (or ``count`` identical ones).

    The Reaction test is against ``attributes.reaction`` (+ Luck/10); weapon tests
    against ``skills[weapon.skill]`` + the skill's primary attribute (``skill_attributes``,
    default Agility) + Luck/10 (section 1).
    """

    catalog_kind: ClassVar[str | None] = None

    kind: Literal["fae"] = "fae"
    ruleset: Literal["fae"] = "fae"
    model: Ref | None = Field(None, description="Not used (Fae creatures are written inline).")
    name: Name
    description: Text = ""
    count: int = Field(1, ge=1, le=10_000)
    player: bool = Field(
        False, description="A player character: never rolls NPC morale (a band's check)."
    )
    attributes: FaeAttributes = Field(default_factory=FaeAttributes)
    skills: _Skills
    skill_attributes: dict[Name, AttributeName] = Field(
        default_factory=dict,
        max_length=MAX_ENTRIES,
        description="Skill -> primary attribute (strength, agility ...); default agility.",
    )
    wound_points: int = Field(ge=1, le=100_000, description="A-69: an input.")
    fatigue_points: int = Field(ge=1, le=100_000, description="A-69: an input.")
    walk_mr: int = Field(10, ge=0, le=10_000, description="Walk Move Rate, yards per turn.")
    run_mr: int = Field(30, ge=0, le=10_000, description="Run Move Rate, yards per turn.")
    fly_mr: int | None = Field(None, ge=1, le=10_000, description="Fly MR; None = no wings.")
    can_glide: bool = Field(False, description="Glides on Walk MR without flight.")
    altitude: int = Field(0, ge=0, le=100_000, description="Yards above ground at the start.")
    underwater: bool = False
    blinded: bool = Field(False, description="Blind, in darkness or against the invisible (-60%).")
    ambidextrous: bool = False
    vision: Literal["normal", "wide_angle", "all_around"] = "normal"
    weapons: list[FaeGear] = Field(
        default_factory=list, max_length=MAX_ENTRIES, description="Readied first."
    )
    armour: FaeGear | None = None
    shield: FaeGear | None = None
    mount: FaeMount | None = None
    policies: Policies
    position: Position | None = Field(None, description="Yards (x, y) on open ground.")
    facing: int | None = Field(
        None,
        ge=0,
        le=359,
        description="Degrees counter-clockwise from +x that the fighter faces at the start "
        "(until it first acts or moves); none: toward the nearest foe (section 3.1 arcs).",
    )

    @model_validator(mode="after")
    def _gear_fits(self) -> FaeCharacter:
        for i, weapon in enumerate(self.weapons):
            if weapon.item != "weapon":
                raise PydanticCustomError(
                    "fae_gear",
                    "'{name}' is {item}, not a weapon (put it under armour: or shield:)",
                    {"where": f"weapons.{i}", "name": weapon.name, "item": weapon.item},
                )
        for slot in ("armour", "shield"):
            gear = getattr(self, slot)
            if gear is not None and gear.item != slot:
                raise PydanticCustomError(
                    "fae_gear",
                    "'{name}' is a {item}, not {slot}",
                    {"where": slot, "name": gear.name, "item": gear.item, "slot": slot},
                )
        if self.player and self.count > 1:
            raise PydanticCustomError(
                "player_group",
                "{count} player characters in one entry (use count: 1)",
                {"where": "count", "count": self.count},
            )
        if self.mount is not None and len(self.mount_name) > NAME_LENGTH:
            raise PydanticCustomError(
                "mount_name",
                "the mount fights as '{rider}'s {mount}': at most {most} characters for the "
                "rider's and mount's names together",
                {"where": "mount.name", "rider": self.name, "mount": self.mount.name,
                 "most": NAME_LENGTH - 3},
            )  # fmt: skip
        return self

    @property
    def mount_name(self) -> str:
        """What the mount is called when it fights beside its rider."""
        return f"{self.name}'s {self.mount.name}" if self.mount is not None else ""

    def skill(self, name: str | None) -> int:
        """A skill's percent; 0 for an unknown skill (section 1)."""
        return 0 if name is None else self.skills.get(name, 0)

    def primary(self, skill: str | None) -> int:
        """The primary attribute's value for ``skill`` (Agility unless mapped)."""
        attr = self.skill_attributes.get(skill or "", "agility")
        return int(getattr(self.attributes, attr))
