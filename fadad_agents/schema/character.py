"""Creature templates and characters (personal combat).

Rules: ``personal-combat.md`` (skills, Target by Scale, shields, initiative by reaction
speed), ``wounds-and-healing.md`` sections 2, 4 and 6 (Strength, Damage Capacity, Mass
Scale, wound tracks).

:class:`Creature` is a species template in ``models/creatures/`` (``human`` Scale 0,
``hobbit``, ``ogre``, ``dragon`` ...). :class:`Character` extends it with what one
fighter (or a featureless group of ``count`` identical fighters) carries into a battle,
and may start from a template: ``model: creatures/ogre``.

Ladder fields are ints (Fair 0, Good 1, Great 2 ...). Derived values the engine needs:

* ``Character.attack`` / ``Character.defence`` - the chosen skill levels;
* ``Character.odm`` - Strength + Scale (muscle-powered) + weapon bonus (4.1);
* ``Character.ddm`` - Damage Capacity + Mass Scale + armour (4.2).
"""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

from pydantic import Field, model_validator
from pydantic_core import PydanticCustomError

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
from fadad_agents.schema.equipment import Armour, Shield, Weapon
from fadad_agents.schema.starting import MAX_MARKS, WoundMark, parse_mark

__all__ = ["Character", "Creature", "ShipSpell", "WoundTrack"]

WoundTrack = Literal["standard", "moderately_cinematic", "epic", "npc3", "dc_attribute"]


class Creature(Record):
    """A species template: the stats every member of a kind of creature shares."""

    catalog_kind: ClassVar[str | None] = "creatures"

    model: Ref | None = Field(None, description="Catalogue name this was built from.")
    name: Name
    description: Text = ""
    scale: int = Field(0, ge=-40, le=60, description="Strength Scale (personal-combat.md 3).")
    mass_scale: int | None = Field(
        None, ge=-40, le=60, description="Mass Scale for the DDM; None = same as scale."
    )
    strength: Ladder = Field(0, description="Strength (ODM, wounds-and-healing.md 4.1).")
    damage_capacity: Ladder = Field(0, description="Damage Capacity (DDM, section 2).")
    reaction_speed: Ladder = Field(0, description="Initiative trait (personal-combat.md 1.2).")
    traits: dict[Name, Ladder] = Field(
        default_factory=dict, max_length=MAX_ENTRIES, description="Other attributes."
    )
    skills: dict[Name, Ladder] = Field(
        default_factory=dict, max_length=MAX_ENTRIES, description="Skill -> level."
    )
    attack_skill: Ref | None = Field(None, description="Key of `skills` used to attack.")
    defence_skill: Ref | None = Field(
        None, description="Key of `skills` used to defend (parry, Shield, Dodge ...)."
    )
    weapon: Weapon | None = None
    armour: Armour | None = None
    shield: Shield | None = None
    wound_track: WoundTrack | None = Field(
        None,
        description="Box layout, or 'dc_attribute': wounds lower its Damage Capacity "
        "(wounds-and-healing.md 6.4); None = the scenario's rules.wound_track.",
    )
    wound_boxes: Boxes | None = Field(
        None, description="Explicit boxes (Scratch, Hurt, Very Hurt, Incap, Near Death)."
    )
    shield_cap: int | None = Field(
        None,
        ge=-10,
        le=10,
        description="Largest Target a shield can give (small creatures, section 3).",
    )
    short_legs: bool = Field(
        False,
        description="Shorter than human (dwarves, hobbits): walks, jogs and runs "
        "move.short_legs_factor as far (personal-combat.md 5).",
    )
    volume_scale: int | None = Field(
        None,
        ge=-40,
        le=80,
        description="Volume Scale (personal-combat.md 7: log1.5 of its volume / 3.09 cubic "
        "feet): a creature or vessel bigger than a widespread attack's area resists it by "
        "the difference. None: its Mass Scale.",
    )
    magic_to_hit: int | None = Field(
        None,
        ge=1,
        le=10,
        description="Spirit combat (personal-combat.md 8): only a weapon of at least this "
        "magical plus harms it (ghosts, wraiths); its Damage Resistance is this less 1. "
        "None: any weapon harms it.",
    )
    attunement: Ref | None = Field(
        None,
        description="Key of `traits` whose level adds to the damage of its blows on "
        "creatures only magic harms (Faith, Passion, Wisdom; personal-combat.md 8).",
    )
    potential: int | None = Field(
        None,
        ge=0,
        le=30,
        description="Numeric Potential: unarmed, its touch carries a magical plus of "
        "Potential / 3, rounded down, against creatures only magic harms (section 8).",
    )

    @model_validator(mode="after")
    def _skills_exist(self) -> Creature:
        for field in ("attack_skill", "defence_skill"):
            chosen = getattr(self, field)
            if chosen is not None and chosen not in self.skills:
                known = ", ".join(self.skills) or "none defined"
                raise PydanticCustomError(
                    "unknown_skill",
                    "'{skill}' is not one of this fighter's skills (skills: {known})",
                    {"where": field, "skill": chosen, "known": known},
                )
        return self

    @model_validator(mode="after")
    def _a_shield_needs_a_free_hand(self) -> Creature:
        weapon, shield = self.weapon, self.shield
        if weapon is not None and weapon.hands == 2 and shield is not None:
            raise PydanticCustomError(
                "two_hands_and_a_shield",
                "'{weapon}' is wielded in both hands (hands: 2, a (2h) weapon in "
                "wounds-and-healing.md 4.1), leaving none for '{shield}'; drop the shield or "
                "take a one-handed weapon",
                {"where": "shield", "weapon": weapon.name, "shield": shield.name},
            )
        return self

    @model_validator(mode="after")
    def _attunement_is_a_trait(self) -> Creature:
        chosen = self.attunement
        if chosen is not None and chosen not in self.traits:
            known = ", ".join(self.traits) or "none defined"
            raise PydanticCustomError(
                "unknown_trait",
                "'{trait}' is not one of this fighter's traits (traits: {known}); add it to "
                "traits, e.g. traits: {{{trait}: Good}}",
                {"where": "attunement", "trait": chosen, "known": known},
            )
        return self

    @property
    def effective_mass_scale(self) -> int:
        """Mass Scale, defaulting to the Strength Scale."""
        return self.scale if self.mass_scale is None else self.mass_scale

    @property
    def attack(self) -> int:
        """Attack skill level; Mediocre (-1) default for an unskilled attack (FUDGE)."""
        return self.skills[self.attack_skill] if self.attack_skill else -1

    @property
    def defence(self) -> int:
        """Defence skill level; falls back to the attack skill (weapon parry), else -1."""
        if self.defence_skill:
            return self.skills[self.defence_skill]
        return self.attack

    def odm(self, *, fudge: bool = False, less_lethal: bool = False) -> int:
        """Offensive damage modifier: Strength + Scale (muscle-powered) + weapon.

        ``fudge``: FUDGE class values; ``less_lethal`` (``fudge.less_lethal``, with
        ``fudge``) counts every class one less, no weapon included (4.3).
        """
        weapon = self.weapon
        less = fudge and less_lethal
        if weapon is None:
            return self.strength + self.scale - 1 - less  # punch -1 (FADAD 4.1)
        if weapon.strength is not None:
            base = weapon.strength
        elif weapon.muscle_powered:
            base = self.strength + self.scale
        else:
            base = 0
        return base + weapon.damage_bonus(fudge=fudge, less_lethal=less)

    @property
    def ddm(self) -> int:
        """Defensive damage modifier: Damage Capacity + Mass Scale + armour."""
        armour = 0 if self.armour is None else self.armour.ddm
        return self.damage_capacity + self.effective_mass_scale + armour


class ShipSpell(Record):
    """A spell a character can cast at a ship (``ships-spelljammer.md`` 8.1, EX-SJ-06)."""

    name: Name
    effect: Literal["damage", "disintegrate", "dispel_magic_helm", "warp_wood"] = "damage"
    damage: DiceText | None = Field(
        None, description="Damage dice of a damage spell (hit points; 10 = 1 hull point)."
    )
    range_ft: int = Field(150, ge=0, le=100_000, description="Range in feet (150 ft a hex).")
    ignites: bool = Field(False, description="Starts a fire where one is possible (fireball).")
    uses: int = Field(1, ge=1, le=100, description="Times it can be cast in the battle.")


class Character(Creature):
    """A fighter in a scenario, or ``count`` identical featureless NPCs."""

    catalog_kind: ClassVar[str | None] = "creatures"

    kind: Literal["character"] = "character"
    count: int = Field(1, ge=1, le=100_000, description="Identical fighters (NPC group).")
    player: bool = Field(False, description="PC or major NPC: PC-death options apply (C-13).")
    ite_points: int = Field(0, ge=0, le=100, description="Ité (Fudge) points (A-29).")
    policies: Policies
    position: Position | None = Field(
        None,
        description="Where it stands: yards (x, y) on an open map (a count: group's front "
        "rank is centred there), a hex (q, r) on a hex map. None on an open map: in the "
        "melee at its side's place by the centre of the field.",
    )
    ranks: int | None = Field(
        None,
        ge=1,
        le=100_000,
        description="How many ranks deep a count: group forms at its position, its front rank "
        "as wide as that takes (1: a single line; 3: a line three deep). None = as square "
        "a block as its count makes.",
    )
    facing: int | None = Field(
        None,
        ge=0,
        le=5,
        description="Direction faced before the fighter first turns to a foe, in sixths of a "
        "turn (0 = +x, 1 = 60 degrees on to +y ...): its shield guards that side. None = "
        "toward the enemy.",
    )
    aboard: Ref | None = Field(None, description="Name of the ship this fighter is on.")
    spells: list[ShipSpell] = Field(
        default_factory=list,
        max_length=MAX_ENTRIES,
        description="Spells to cast at ships (SJ 8.1).",
    )
    wounds: list[WoundMark] = Field(
        default_factory=list,
        max_length=MAX_MARKS,
        description="Wounds brought from an earlier battle, in the order taken: 'Hurt', or "
        "'Hurt in Very Hurt' for a blow written in a higher box (fadad aftermath writes them). "
        "Every member of a count: group starts with them.",
    )
    member_wounds: list[Annotated[list[WoundMark], Field(max_length=MAX_MARKS)]] = Field(
        default_factory=list,
        max_length=100_000,
        description="A count: group's wounds member by member, from an earlier battle: the "
        "first members start with these lists (fadad aftermath writes them), the rest with "
        "`wounds`.",
    )
    shots_left: int | None = Field(
        None,
        ge=0,
        le=1000,
        description="Shots its missile weapon has left from an earlier battle; None = the "
        "weapon's full ammunition.",
    )

    @property
    def wound_marks(self) -> tuple[tuple[int, int], ...]:
        """``(box, true severity)`` of each starting wound."""
        return tuple(parse_mark(m) for m in self.wounds)

    def member_marks(self, n: int) -> tuple[tuple[int, int], ...]:
        """``(box, true severity)`` of each starting wound of member ``n`` (from 0)."""
        if n < len(self.member_wounds):
            return tuple(parse_mark(m) for m in self.member_wounds[n])
        return self.wound_marks

    @model_validator(mode="after")
    def _one_player(self) -> Character:
        if self.player and self.count > 1:
            raise PydanticCustomError(
                "player_group",
                "{count} player characters in one entry (a player character or major NPC is "
                "one fighter: count 1, or player: false for an NPC group)",
                {"where": "count", "count": self.count},
            )
        if len(self.member_wounds) > self.count:
            raise PydanticCustomError(
                "member_wounds",
                "{lists} wound lists for a group of {count} (at most one a member)",
                {"where": "member_wounds", "lists": len(self.member_wounds), "count": self.count},
            )
        if self.ranks is not None:
            _check_ranks(self.ranks, self.count, self.position)
        if self.shots_left is not None and (self.weapon is None or not self.weapon.ranged):
            raise PydanticCustomError(
                "no_missile",
                "shots left, but its weapon is not a missile weapon (leave shots_left out)",
                {"where": "shots_left"},
            )
        return self


def _check_ranks(ranks: int, count: int, position: object) -> None:
    """A group's ``ranks`` it can form: a group of at least as many, at a position."""
    if count == 1:
        raise PydanticCustomError(
            "lone_ranks",
            "ranks for one fighter (a count: group forms ranks: give count 2 or more, or "
            "leave ranks out)",
            {"where": "ranks"},
        )
    if ranks > count:
        raise PydanticCustomError(
            "too_many_ranks",
            "{ranks} ranks of {count} fighters (at most one rank a fighter: ranks {count} "
            "or fewer)",
            {"where": "ranks", "ranks": ranks, "count": count},
        )
    if position is None:
        raise PydanticCustomError(
            "ranks_unplaced",
            "ranks without a position (a group forms its ranks at its position: give it one; "
            "forces without one stand with their side's)",
            {"where": "ranks"},
        )
