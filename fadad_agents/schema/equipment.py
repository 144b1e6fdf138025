"""Hand weapons, armour, shields and big (ship) weapons.

Rules: ``wounds-and-healing.md`` section 4 (FADAD ODM/DDM tables, FUDGE/Anna weapon
classes, sharpness, armour groups), ``personal-combat.md`` sections 3 (shields) and 6
(projectile classes, actions to ready), ``ships-fadad.md`` section 3.1 (big weapon table)
and ``ships-spelljammer.md`` section 4 (d20 large weapons, data PROPOSED).

A weapon carries both rule systems' values; the engine picks by ``RulesOptions``:

* ``Weapon.fadad_bonus`` - FADAD weapon bonus (part of ODM), or None if FADAD lists none;
* ``Weapon.fudge_value`` - FUDGE/Anna class + 1 if ``sharp`` (property; None if no class).

Both add ``magic_plus``. ``Weapon.damage_bonus(fudge=...)`` returns the one in use.
"""

from __future__ import annotations

import itertools
from typing import Annotated, Any, ClassVar, Literal

from pydantic import Field, field_validator, model_validator
from pydantic_core import PydanticCustomError

from fadad_agents.rules.ships.options import DiceText
from fadad_agents.schema.base import Ladder, Name, Record, Ref, Text, exact_length

__all__ = [
    "PROJECTILE_DEFENCE_PENALTY",
    "Armour",
    "Shield",
    "ShipWeapon",
    "Weapon",
]

_Yards = Annotated[int, Field(ge=0, le=100_000)]
RangeBands = Annotated[
    tuple[_Yards, _Yards, _Yards, _Yards], exact_length(4, "point-blank, short, medium, long")
]
_RangeMod = Annotated[int, Field(ge=-20, le=20)]
Group = Literal["none", "light", "medium", "heavy"]

PROJECTILE_DEFENCE_PENALTY: dict[str, int] = {
    "none": 0,
    "hand": -1,
    "mechanical": -2,
    "fast": -3,
}
"""Defence penalty by projectile class (personal-combat.md 6.3); shield blocks ignore it."""


class Weapon(Record):
    """A personal weapon (melee, thrown or missile)."""

    catalog_kind: ClassVar[str | None] = "weapons"

    model: Ref | None = Field(None, description="Catalogue name this was built from.")
    name: Name
    description: Text = ""
    fadad_bonus: int | None = Field(
        None, ge=-3, le=10, description="FADAD weapon bonus (wounds-and-healing.md 4.1)."
    )
    fudge_class: int | None = Field(
        None, ge=-3, le=10, description="FUDGE/Anna weapon class before sharpness (4.3)."
    )
    sharp: bool = Field(False, description="Sharpness: +1 on the FUDGE class.")
    group: Group = Field("none", description="Anna's weapon group (4.4, PROPOSED table).")
    hands: Literal[1, 2] = Field(
        1,
        description="Hands it is wielded in (the (1h)/(2h) of wounds-and-healing.md 4.1): a "
        "two-handed weapon leaves no hand for a shield.",
    )
    muscle_powered: bool = Field(
        True, description="Wielder's Strength and Strength Scale add to the ODM."
    )
    strength: Ladder | None = Field(
        None,
        description="Weapon's own Strength for crossbows/guns (replaces the wielder's, A-19).",
    )
    scale_piercing: Literal["none", "halve", "ignore"] = Field(
        "none",
        description="Whale harpoons, elephant guns: a good hit (RD >= scale_piercing_min_rd) "
        "halves or ignores the defender's Mass Scale (wounds-and-healing.md 11).",
    )
    magic_plus: int = Field(0, ge=0, le=10, description="Magic plus, added to damage.")
    ranged: bool = False
    projectile: Literal["none", "hand", "mechanical", "fast"] = Field(
        "none", description="Projectile class: defence penalty 0/-1/-2/-3 (6.3)."
    )
    actions_to_ready: int = Field(0, ge=0, le=10, description="Actions to ready (6.4).")
    range_yards: RangeBands | None = Field(
        None,
        description="Upper bounds in yards of point-blank, short, medium, long range; "
        "beyond long is extreme (as far again as long, PROPOSED), beyond that out of range.",
    )
    ammunition: int | None = Field(
        None,
        ge=0,
        le=1000,
        description="Shots carried into the battle (arrows in the quiver); None = as many as "
        "the battle needs. A ranged fighter out of shots stops shooting.",
    )
    area_ft3: float | None = Field(
        None,
        gt=0,
        le=1e12,
        description="A widespread attack (personal-combat.md 7: a fireball, a dragon's "
        "breath, a grenade): the volume in cubic feet its effect fills round the point it "
        "strikes (a 20-foot fireball 33,510); everyone inside is struck by one roll. Needs "
        "ranged and range_yards. None: it strikes one foe.",
    )
    reach_yards: float = Field(
        1.0,
        gt=0,
        le=10,
        description="Melee reach in yards beyond the wielder's own space, for a Scale 0 "
        "wielder (larger Scales reach further); PROPOSED 1 for hand weapons, 2 for spears "
        "and polearms.",
    )

    @model_validator(mode="after")
    def _area_is_shot(self) -> Weapon:
        if self.area_ft3 is not None and not self.ranged:
            raise PydanticCustomError(
                "area_not_ranged",
                "a widespread attack is thrown, shot or breathed at a place: give it "
                "ranged: true and range_yards, or remove area_ft3",
                {"where": "area_ft3"},
            )
        return self

    @model_validator(mode="after")
    def _ranged_has_ranges(self) -> Weapon:
        if self.ranged and self.range_yards is None:
            raise PydanticCustomError(
                "no_ranges",
                "a ranged weapon needs range_yards: [point-blank, short, medium, long] in "
                "yards (e.g. a bow's [10, 50, 100, 210])",
                {"where": "range_yards"},
            )
        return self

    @property
    def fudge_value(self) -> int | None:
        """FUDGE/Anna damage value: class + sharpness + magic, or None."""
        if self.fudge_class is None:
            return None
        return self.fudge_class + int(self.sharp) + self.magic_plus

    def damage_bonus(self, *, fudge: bool = False, less_lethal: bool = False) -> int:
        """Weapon part of the ODM under FADAD (default) or FUDGE values, with magic.

        A missing value for the requested system falls back to the other one. With
        ``less_lethal`` (``fudge.less_lethal``) a FUDGE class counts one less, its
        sharpness and magic as they are (wounds-and-healing.md 4.3).
        """
        fadad = None if self.fadad_bonus is None else self.fadad_bonus + self.magic_plus
        fudge_value = self.fudge_value
        if fudge_value is not None and less_lethal:
            fudge_value -= 1
        first, second = (fudge_value, fadad) if fudge else (fadad, fudge_value)
        if first is not None:
            return first
        return second if second is not None else 0

    @field_validator("range_yards")
    @classmethod
    def _increasing(cls, value: tuple[int, int, int, int] | None) -> Any:
        if value is not None and any(a > b for a, b in itertools.pairwise(value)):
            raise ValueError(f"{list(value)} must not decrease (point-blank <= ... <= long)")
        return value


Material = Literal[
    "none",
    "light_non_metal",
    "heavy_non_metal",
    "light_metal",
    "medium_metal",
    "heavy_metal",
    "natural",
    "magical",
]
GROUPS: tuple[str, ...] = ("none", "light", "medium", "heavy")
MATERIAL_VALUE: dict[str, int] = {
    "none": 0,
    "light_non_metal": 1,
    "heavy_non_metal": 2,
    "light_metal": 2,
    "medium_metal": 3,
    "heavy_metal": 4,
}
"""DDM bonus by material (wounds-and-healing.md 4.2 and 4.3)."""
MATERIAL_GROUP: dict[str, str] = {
    "none": "none",
    "light_non_metal": "light",
    "heavy_non_metal": "medium",
    "light_metal": "medium",
    "medium_metal": "heavy",
    "heavy_metal": "heavy",
}
"""Anna's armour group by material (4.4, PROPOSED: leather Light; scale, cuir-bouilli,
chain Medium; coat of plates, plate Heavy)."""


class Armour(Record):
    """Body armour or natural protection (part of the DDM)."""

    catalog_kind: ClassVar[str | None] = "armour"

    model: Ref | None = None
    name: Name
    description: Text = ""
    value: int | None = Field(
        None,
        ge=0,
        le=30,
        description="DDM bonus (wounds-and-healing.md 4.2); default: its material's.",
    )
    material: Material = Field(
        "light_non_metal",
        description="What it is made of: sets the DDM bonus by the 4.2 table (light "
        "pliable non-metal +1, heavy rigid non-metal +2, light metal +2, medium metal +3, "
        "heavy metal +4; natural and magical armour give theirs) and Anna's group (4.4).",
    )
    group: Group | None = Field(
        None,
        description="Anna's armour group (4.4, PROPOSED table); default: its material's, "
        "or its value's (natural, magical).",
    )
    magic_plus: int = Field(0, ge=0, le=10)

    @model_validator(mode="before")
    @classmethod
    def _no_fireproof(cls, data: Any) -> Any:
        if isinstance(data, dict) and "fireproof" in data:
            raise PydanticCustomError(
                "retired_field",
                "fireproof is gone: wildfire strikes ships, never a fighter's armour, so "
                "no rule reads it; remove it",
                {"where": "fireproof"},
            )
        return data

    @model_validator(mode="after")
    def _from_material(self) -> Armour:
        """``value`` and ``group`` default to the material's (4.2, 4.4)."""
        value = self.value
        if value is None:
            if self.material not in MATERIAL_VALUE:
                raise PydanticCustomError(
                    "missing_value",
                    "{material} armour has no table value: give its value (DDM bonus)",
                    {"where": "value", "material": self.material},
                )
            value = MATERIAL_VALUE[self.material]
            object.__setattr__(self, "value", value)  # frozen: set once, while validating
        if self.group is None:
            group = MATERIAL_GROUP.get(self.material, GROUPS[min(value, 3)])
            object.__setattr__(self, "group", group)
        return self

    @property
    def ddm(self) -> int:
        """Armour part of the DDM including magic."""
        return (self.value or 0) + self.magic_plus


class Shield(Record):
    """A shield: FADAD Target bonus, or FUDGE penalty to the opponent's skill (C-11)."""

    catalog_kind: ClassVar[str | None] = "shields"

    model: Ref | None = None
    name: Name
    description: Text = ""
    target_bonus: int = Field(ge=0, le=5, description="FADAD Target bonus (3).")
    attackers: int = Field(1, ge=1, le=4, description="Attackers on the shield side covered.")
    attack_penalty: int = Field(0, ge=-3, le=0, description="Bearer's attack modifier.")
    fudge_melee: int = Field(0, ge=0, le=3, description="FUDGE: opponent's melee skill -N.")
    fudge_ranged: int = Field(0, ge=0, le=3, description="FUDGE: vs ranged, if impervious.")
    magic_plus: int = Field(0, ge=0, le=10)


class ShipWeapon(Record):
    """A big weapon: FADAD big-weapon table (ships-fadad.md 3.1) and d20 data (SJ 4).

    ``range_mods[i]`` is the Target modifier at range ``i`` hexes (0..7); None = out of
    range (the table's X).
    """

    catalog_kind: ClassVar[str | None] = "big-weapons"

    model: Ref | None = None
    name: Name
    description: Text = ""
    family: Literal["ballista", "catapult", "bombard", "wildfire", "jettison", "other"]
    crew: int = Field(ge=1, le=50, description="Crew for the listed rate of fire.")
    reload_rounds: int = Field(
        ge=1, le=20, description="Ship rounds per shot: RoF 1/3 -> 3 (PROPOSED reading)."
    )
    damage: int = Field(ge=0, le=100, description="FADAD damage (ships-fadad.md 4).")
    damage_vs_flesh: int = Field(0, ge=0, le=10, description="Extra damage vs creatures.")
    sets_fire: bool = False
    range_mods: tuple[_RangeMod | None, ...] = Field(
        min_length=1, max_length=16, description="Target modifier per range hex; null = X."
    )
    projectile_penalty: int | None = Field(
        None,
        ge=-5,
        le=0,
        description="Penalty to the target ship's dodge against this weapon (ships-fadad.md "
        "3); none = by its family: catapult stones and ballista bolts -2 (the seed; other "
        "shot counts as a stone), bombard and wildfire shot ship.bombard_wildfire_dodge_"
        "penalty.",
    )
    same_hex: bool = Field(True, description="Can fire at ships in its own hex (catapults no).")
    sj_hull_damage: DiceText | None = Field(None, description="d20: hull damage dice.")
    sj_attack_mod: int = Field(0, ge=-10, le=10)
    arc: Literal["any", "fore", "aft", "port", "starboard"] = Field(
        "any", description="Field of fire (SJ 7.4 optional)."
    )
    count: int = Field(1, ge=1, le=100, description="Identical mounts.")

    @field_validator("reload_rounds", mode="before")
    @classmethod
    def _rof(cls, value: Any) -> Any:
        if isinstance(value, str) and value.startswith("1/") and value[2:].isdigit():
            return int(value[2:])
        return value

    @field_validator("range_mods", mode="before")
    @classmethod
    def _x_is_none(cls, value: Any) -> Any:
        if isinstance(value, list | tuple):
            return [None if v in ("X", "x") else v for v in value]
        return value

    @field_validator("range_mods")
    @classmethod
    def _some_range(cls, value: tuple[int | None, ...]) -> tuple[int | None, ...]:
        if all(mod is None for mod in value):
            raise ValueError("every range is X (at least one range needs a Target modifier)")
        return value

    @property
    def max_range(self) -> int:
        """Largest range in hexes at which the weapon can fire."""
        return max(i for i, mod in enumerate(self.range_mods) if mod is not None)
