"""Small arms and spells against hulls (``ships-spelljammer.md`` 4.2, 8, 8.1; EX-SJ-06).

A ship's gunnery policy decides (its ``small_arms`` and ``spells`` parameters):

* **Spells** (``spells: hull``, the default): a named character with ``spells`` standing on
  his own deck, not in a deck fight, casts one spell a ship round at the enemy ship his
  gunnery policy picks among those the spell reaches
  (:func:`~fadad_agents.rules.ships.combat.spell_can_target_ship`: range over one hex of the
  map in the same hex, shorter only when grappled; one hex of the map (150 ft on a
  Spelljammer map, 500 yards on a FADAD one) per hex beyond). PROPOSED: it hits with no
  roll (``sj.spell_attack``). A damage spell does 1 hull point per 10 points and may start
  a fire; *disintegrate* holes the hull; *dispel magic* stops the helm for a round
  (:func:`~fadad_agents.rules.ships.combat.spell_hull_effects`).
* **Missile volleys** (``small_arms: hull``): a crew's arrows at the hull are scattered over
  the side: each hit (rapid resolution d20s vs the ship's AC) does half the crew's maximum
  damage, each at a different spot, so only a missile of 10+ points makes a hull point
  (:func:`~fadad_agents.rules.ships.combat.hull_points_from_spot_damage`): 20 arrows for 60
  points do nothing.
* **Single shots** (``small_arms: hull``): a named character with a missile weapon shoots
  once a ship round at her side: d20 + his attack skill as a d20 bonus vs her AC, PROPOSED
  1d6 (``sj.hull_shot_dice``) + his ODM hit points at one spot: a hull point only if that
  reaches 10.
* **Chopping one spot** (``small_arms: hull``): a named character with a melee weapon on
  his own deck, grappled alongside an enemy ship and not in a deck fight, hacks at one
  spot of her hull: PROPOSED one blow per personal round of the ship round, each 1d8
  (``sj.chop_dice``) + his ODM hit points (no attack roll against a hull that cannot
  dodge), the total kept per spot (:func:`~fadad_agents.rules.ships.combat.spot_damage`):
  every 10 = 1 hull point.

Under the FADAD ship rules (``ship.damage_model = fadad_levels``) single shots and spells
roll FADAD-style instead (``ships-fadad.md`` 5.3): the character's attack skill + his wound
penalty + 4dF against the ship's Target for hand weapons and spells, Terrible-1 (-4),
modified for range (PROPOSED steps by yards, ``ship.hand_attack_range_mods``; grappled
ships are alongside, ships sharing a hex ``ship.hand_attack_shared_hex_fraction`` of a hex
apart); an undefended attack meets the Target only (A-07), so it hits as
``fadad.target_mode`` says (default: the rolled degree must exceed the Target, as section 3
says of ships). ``sj.spell_attack`` is not read. Section 5.3 gives no damage route of its
own (section 4's damage number is the big weapons'), so a hit does what it does under the
d20 rules: a shot ``sj.hull_shot_dice`` + ODM at one spot, a spell its hull effects.
Volleys and chopping blows are unchanged (no FADAD rule for them).

Hull points go to the ship under either damage model (FADAD: the damage number is half
the hull points, the engine's ``HullLoss`` reading, ``ship.hull_points_per_damage_number``).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Any

from fadad_agents.agents.core.character import Character
from fadad_agents.agents.ships.ship import Ship
from fadad_agents.engine.ships.damage import apply_effect, damage_ship, skill_bonus
from fadad_agents.engine.ships.deck import fallen
from fadad_agents.hexmap import distance
from fadad_agents.rules.core.actions import hit_probability, opposed, rolled_degree
from fadad_agents.rules.core.dice import roll_4df
from fadad_agents.rules.ships.combat import (
    Dice,
    hull_points_from_spot_damage,
    resolve_attack,
    spell_can_target_ship,
    spell_hull_effects,
    spot_damage,
)

__all__ = [
    "HAND_ATTACK_TARGET",
    "HandAttack",
    "cast_spells",
    "chop_hull",
    "hand_attack_hit_chance",
    "hand_attack_target",
    "hull_shots",
    "hull_volley",
    "plays_fadad",
    "roll_hand_attack",
    "small_arms_aim",
    "spells_aim",
    "yards_apart",
]

PERSONAL_SECONDS = 6

HAND_ATTACK_TARGET = -4
"""Terrible-1: a ship's Target against hand weapons and spells (``ships-fadad.md`` 5.3)."""


@cache
def _dice(text: str) -> Dice:
    return Dice.parse(text)


def small_arms_aim(ship: Ship) -> str:
    """``crew`` (the default) or ``hull``: where the ship's hands aim their small arms."""
    return str(getattr(ship.ship_policies.targeting, "small_arms", "crew"))


def spells_aim(ship: Ship) -> str:
    """``hull`` (the default) or ``hold``: whether her spellcasters cast at enemy ships."""
    return str(getattr(ship.ship_policies.targeting, "spells", "hull"))


def _hull_points(battle: Any, foe: Ship, hull: int, source: str) -> None:
    if hull > 0:
        per = battle.options.ship.hull_points_per_damage_number
        damage_ship(battle, foe, hull, hull // per, source)


# --- FADAD: hand weapons and spells against ships (ships-fadad.md 5.3) -------------------


def plays_fadad(battle: Any) -> bool:
    """Whether the battle plays the FADAD ship rules (``ship.damage_model``), as gunnery does."""
    return bool(battle.options.ship.damage_model == "fadad_levels")


def yards_apart(battle: Any, ship: Ship, foe: Ship) -> int:
    """How far a hand weapon or spell from ``ship`` travels to ``foe``'s hull, in yards.

    Grappled ships lie alongside (0); ships sharing a hex are
    ``ship.hand_attack_shared_hex_fraction`` of a hex apart (the engine keeps no positions
    inside a hex); ships n hexes apart, n hexes.
    """
    if ship.grappled_with(foe):
        return 0
    width: int = battle.hex_yards
    hexes = distance(ship.hex, foe.hex)
    if hexes == 0:
        fraction: float = battle.options.ship.hand_attack_shared_hex_fraction
        return round(width * fraction)
    return hexes * width


def hand_attack_target(yards: int, steps: tuple[tuple[int, int], ...]) -> tuple[int, int]:
    """(Target, range modifier) of a ship ``yards`` off against a hand weapon or spell.

    ``steps`` is ``ship.hand_attack_range_mods``: (up to yards, modifier) by increasing
    distance; farther than the last step takes its modifier.

    >>> hand_attack_target(0, ((10, -2), (50, 0)))
    (-6, -2)
    >>> hand_attack_target(900, ((10, -2), (50, 0)))
    (-4, 0)
    """
    mod = next((m for most, m in steps if yards <= most), steps[-1][1])
    return HAND_ATTACK_TARGET + mod, mod


def hand_attack_hit_chance(skill: int, target: int, mode: str, penalty: int = 0) -> Fraction:
    """Exact chance that skill + ``penalty`` + 4dF hits a hull's ``target`` (A-07, ``mode``
    is ``fadad.target_mode``): the exact twin of :func:`roll_hand_attack`."""
    return hit_probability(skill, None, target, attack_modifier=penalty, mode=mode)


@dataclass(frozen=True, slots=True)
class HandAttack:
    """One FADAD roll of a hand weapon or spell at a hull (``ships-fadad.md`` 5.3).

    Attributes:
        skill: the attacker's attack skill (ladder).
        penalty: his wound penalty (0 or less).
        dice: the 4dF total.
        target: the ship's Target, -4 + ``range_mod``.
        range_mod: the range modifier (``ship.hand_attack_range_mods``).
        yards: the range it was read at.
        rd: rolled degree - Target.
        hit: whether it hits (``fadad.target_mode``).
    """

    skill: int
    penalty: int
    dice: int
    target: int
    range_mod: int
    yards: int
    rd: int
    hit: bool

    @property
    def rolled(self) -> int:
        """The rolled degree: skill + penalty + dice."""
        return rolled_degree(self.skill, self.dice, self.penalty)

    def dice_pairs(self) -> tuple[tuple[str, int], ...]:
        """The log event's dice."""
        return (("4dF", self.dice),)

    def modifier_pairs(self) -> tuple[tuple[str, int], ...]:
        """The log event's modifiers: skill, wounds, Target and how range made it."""
        return (
            ("skill", self.skill),
            ("wounds", self.penalty),
            ("target", self.target),
            ("range_mod", self.range_mod),
            ("yards", self.yards),
        )


def roll_hand_attack(battle: Any, attacker: Any, ship: Ship, foe: Ship) -> HandAttack:
    """``attacker`` on ``ship`` rolls his attack skill + wounds + 4dF against ``foe``'s Target."""
    fighter = getattr(attacker, "fighter", None)
    skill = fighter.attack if fighter is not None else 0
    penalty = int(getattr(attacker, "penalty", 0))
    yards = yards_apart(battle, ship, foe)
    target, mod = hand_attack_target(yards, battle.options.ship.hand_attack_range_mods)
    dice = roll_4df(battle.hull_rng)
    res = opposed(
        rolled_degree(skill, dice, penalty),
        None,
        target,
        attack_dice=dice,
        mode=battle.options.fadad.target_mode,
    )
    return HandAttack(skill, penalty, dice, target, mod, yards, res.rd, res.hit)


# --- spells ------------------------------------------------------------------------------


def cast_spells(battle: Any, ship: Ship, only: Ship | None = None) -> None:
    """Each spellcaster on ``ship``'s deck casts one spell a turn at an enemy ship it
    reaches (``only``: at that ship, out of turn)."""
    if not battle.has_spells or spells_aim(ship) != "hull" or battle.boarders_on(ship):
        return
    for caster in battle.fighters_on(ship):
        if not ship.fighting or caster.side != ship.side or battle.home_of(caster) is not ship:
            continue
        if fallen(battle, caster) or caster.memory.get("cast") == battle.round:
            continue  # thrown off his feet, or he has cast this round already
        for entry in battle.spells_of(caster):
            if entry[1] > 0 and _cast(battle, ship, caster, entry, only):
                caster.memory["cast"] = battle.round
                break  # one spell a ship round


def _cast(battle: Any, ship: Ship, caster: Any, entry: list[Any], only: Ship | None) -> bool:
    spell = entry[0]
    reach = [
        f
        for f in (battle.enemy_ships(ship.side) if only is None else [only])
        if spell_can_target_ship(
            spell.range_ft,
            distance(ship.hex, f.hex),
            within_150_ft=ship.grappled_with(f),
            hex_feet=3 * battle.hex_yards,
        )
    ]
    choice = ship.ship_policies.targeting.choose_ship_target(ship, battle, reach)
    if choice is None:
        return False
    foe = choice[0]
    entry[1] -= 1
    roll = roll_hand_attack(battle, caster, ship, foe) if plays_fadad(battle) else None
    if roll is not None and not roll.hit:
        _spell_misses(battle, caster, foe, spell.name, roll)
        return True
    d20 = roll is None and battle.options.sj.spell_attack == "d20_vs_ac"
    if d20 and not _spell_hits(battle, caster, foe):
        return True
    rolled = _dice(spell.damage).roll(battle.hull_rng) if spell.damage else 0
    hull, effects = spell_hull_effects(
        spell.effect, rolled, spell.ignites, fire_possible=not foe.gargantuan
    )
    dice: tuple[tuple[str, int], ...] = (("damage", rolled),) if spell.damage else ()
    mods: tuple[tuple[str, Any], ...] = (("spell", spell.name), ("effect", spell.effect))
    out: tuple[tuple[str, Any], ...] = (
        ("result", "cast"),
        ("spell", spell.name),
        ("hull", hull),
        ("points", rolled),
    )
    if roll is not None:  # FADAD: the roll that put it on her hull, too
        dice, mods, out = (
            roll.dice_pairs() + dice,
            mods + roll.modifier_pairs(),
            (*out, ("rd", roll.rd)),
        )
    battle.record(caster.name, "spell", foe.name, dice, mods, out)
    for effect in effects:
        apply_effect(battle, foe, effect, caster.name)
    if foe.fighting:
        _hull_points(battle, foe, hull, caster.name)
    return True


def _spell_misses(battle: Any, caster: Any, foe: Ship, spell: str, roll: HandAttack) -> None:
    """FADAD: the spell goes wide of ``foe``'s hull, and is spent."""
    battle.record(
        caster.name,
        "spell",
        foe.name,
        roll.dice_pairs(),
        roll.modifier_pairs(),
        (("result", "miss"), ("spell", spell), ("rd", roll.rd), ("hull", 0)),
    )


def _spell_hits(battle: Any, caster: Any, foe: Ship) -> bool:
    """``sj.spell_attack = d20_vs_ac``: d20 + the caster's attack skill as a d20 bonus vs AC."""
    fighter = getattr(caster, "fighter", None)
    bonus = skill_bonus(battle, fighter.attack if fighter is not None else 0)
    res = resolve_attack(bonus, foe.spec.armour_class, battle.hull_rng, None)
    if not res.hit:
        battle.record(
            caster.name,
            "spell",
            foe.name,
            (("d20", res.roll),),
            (("bonus", bonus), ("ac", foe.spec.armour_class)),
            (("result", "miss"), ("hull", 0)),
        )
    return res.hit


# --- missile volleys at the hull ---------------------------------------------------------


def hull_volley(battle: Any, crew: Any, foe: Ship) -> None:
    """A crew's missiles at ``foe``'s hull: scattered hits, one spot each (EX-SJ-06)."""
    stats = crew.stats
    rng = battle.hull_rng
    shots = crew.strikers  # those on their feet
    hits = sum(
        1
        for _ in range(shots)
        if resolve_attack(stats.attack_bonus, foe.spec.armour_class, rng, None).hit
    )
    each = (stats.max_damage + 1) // 2
    points = hits * each
    hull = hull_points_from_spot_damage([each] * hits)
    battle.record(
        crew.name,
        "hull_volley",
        foe.name,
        (("d20s", shots),),
        (("each", each),),
        (
            ("result", "scattered" if hull == 0 else "holes"),
            ("hits", hits),
            ("points", points),
            ("hull", hull),
        ),
    )
    _hull_points(battle, foe, hull, crew.name)


def hull_shots(battle: Any, ship: Ship, foe: Ship) -> None:
    """Named characters on ``ship`` with missile weapons each loose one shot at ``foe``'s side
    (``sj.hull_shot_dice`` + ODM at one spot): d20 vs AC, or under FADAD skill + 4dF vs the
    hull's Target (section 5.3)."""
    rng = battle.hull_rng
    dice = _dice(battle.options.sj.hull_shot_dice)
    fadad = plays_fadad(battle)
    for m in battle.fighters_on(ship):
        if not isinstance(m, Character) or m.side != ship.side or not battle.missile(m):
            continue
        if fallen(battle, m):
            continue
        if not foe.fighting:
            return
        if fadad:
            _fadad_shot(battle, m, ship, foe, dice)
            continue
        bonus = skill_bonus(battle, m.fighter.attack)
        res = resolve_attack(bonus, foe.spec.armour_class, rng, None)
        points = dice.roll(rng) + max(0, m.fighter.odm) if res.hit else 0
        hull = hull_points_from_spot_damage([points])
        battle.record(
            m.name,
            "hull_shot",
            foe.name,
            (("d20", res.roll),),
            (("bonus", bonus), ("ac", foe.spec.armour_class)),
            (("result", "hit" if res.hit else "miss"), ("points", points), ("hull", hull)),
        )
        _hull_points(battle, foe, hull, m.name)


def _fadad_shot(battle: Any, m: Character, ship: Ship, foe: Ship, dice: Dice) -> None:
    """FADAD 5.3: skill + 4dF against the hull's Target; a hit is one spot's points."""
    roll = roll_hand_attack(battle, m, ship, foe)
    points = dice.roll(battle.hull_rng) + max(0, m.fighter.odm) if roll.hit else 0
    hull = hull_points_from_spot_damage([points])
    battle.record(
        m.name,
        "hull_shot",
        foe.name,
        roll.dice_pairs(),
        roll.modifier_pairs(),
        (
            ("result", "hit" if roll.hit else "miss"),
            ("rd", roll.rd),
            ("points", points),
            ("hull", hull),
        ),
    )
    _hull_points(battle, foe, hull, m.name)


# --- one spot, chopped -------------------------------------------------------------------


def chop_hull(battle: Any, ship: Ship, foe: Ship) -> None:
    """Named hands with melee weapons on ``ship`` hack one spot of ``foe``'s hull
    (``sj.chop_dice`` + ODM a blow)."""
    if small_arms_aim(ship) != "hull" or not ship.grappled_with(foe) or battle.boarders_on(ship):
        return
    blows = max(1, battle.round_seconds // PERSONAL_SECONDS)
    rng = battle.hull_rng
    dice = _dice(battle.options.sj.chop_dice)
    for m in battle.fighters_on(ship):
        if not isinstance(m, Character) or m.side != ship.side or not foe.fighting:
            continue
        if battle.missile(m) or fallen(battle, m):
            continue
        odm = m.fighter.odm
        rolls = [max(0, dice.roll(rng) + odm) for _ in range(blows)]
        key = (m.unique_id, foe.unique_id)
        before = battle.spots.get(key, 0)
        total, caused = spot_damage(before, sum(rolls))
        battle.spots[key] = total
        hull = caused - before // 10
        battle.record(
            m.name,
            "hull_chop",
            foe.name,
            (("blows", tuple(rolls)),),
            (("odm", odm),),
            (("result", "hacks"), ("points", sum(rolls)), ("spot", total), ("hull", hull)),
        )
        _hull_points(battle, foe, hull, m.name)
