"""Small arms and spells against hulls (``ships-spelljammer.md`` 4.2, 8, 8.1; EX-SJ-06).

A ship's gunnery policy decides (its ``small_arms`` and ``spells`` parameters):

* **Spells** (``spells: hull``, the default): a named character with ``spells`` standing on
  his own deck, not in a deck fight, casts one spell a ship round at the enemy ship his
  gunnery policy picks among those the spell reaches
  (:func:`~fadad_agents.rules.sj_combat.spell_can_target_ship`: range over 150 ft in the
  same hex, shorter only when grappled; 150 ft a hex beyond). PROPOSED: it hits with no
  roll (``sj.spell_attack``). A damage spell does 1 hull point per 10 points and may start
  a fire; *disintegrate* holes the hull; *dispel magic* stops the helm for a round
  (:func:`~fadad_agents.rules.sj_combat.spell_hull_effects`).
* **Missile volleys** (``small_arms: hull``): a crew's arrows at the hull are scattered over
  the side: each hit (rapid resolution d20s vs the ship's AC) does half the crew's maximum
  damage, each at a different spot, so only a missile of 10+ points makes a hull point
  (:func:`~fadad_agents.rules.sj_combat.hull_points_from_spot_damage`): 20 arrows for 60
  points do nothing.
* **Single shots** (``small_arms: hull``): a named character with a missile weapon shoots
  once a ship round at her side: d20 + his attack skill as a d20 bonus vs her AC, PROPOSED
  1d6 (``sj.hull_shot_dice``) + his ODM hit points at one spot: a hull point only if that
  reaches 10.
* **Chopping one spot** (``small_arms: hull``): a named character with a melee weapon on
  his own deck, grappled alongside an enemy ship and not in a deck fight, hacks at one
  spot of her hull: PROPOSED one blow per personal round of the ship round, each 1d8
  (``sj.chop_dice``) + his ODM hit points (no attack roll against a hull that cannot
  dodge), the total kept per spot (:func:`~fadad_agents.rules.sj_combat.spot_damage`):
  every 10 = 1 hull point.

Hull points go to the ship under either damage model (FADAD: the damage number is half
the hull points, the engine's ``HullLoss`` reading, ``ship.hull_points_per_damage_number``).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from fadad_agents.agents.character import Character
from fadad_agents.agents.ship import Ship
from fadad_agents.engine.ship_damage import apply_effect, damage_ship, skill_bonus
from fadad_agents.hexmap import distance
from fadad_agents.rules.sj_combat import (
    Dice,
    hull_points_from_spot_damage,
    resolve_attack,
    spell_can_target_ship,
    spell_hull_effects,
    spot_damage,
)

__all__ = [
    "cast_spells",
    "chop_hull",
    "hull_shots",
    "hull_volley",
    "small_arms_aim",
    "spells_aim",
]

PERSONAL_SECONDS = 6


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


# --- spells ------------------------------------------------------------------------------


def cast_spells(battle: Any, ship: Ship) -> None:
    """Each spellcaster on ``ship``'s deck casts one spell at an enemy ship it reaches."""
    if not battle.has_spells or spells_aim(ship) != "hull" or battle.boarders_on(ship):
        return
    for caster in battle.fighters_on(ship):
        if not ship.fighting or caster.side != ship.side or battle.home_of(caster) is not ship:
            continue
        for entry in battle.spells_of(caster):
            if entry[1] > 0 and _cast(battle, ship, caster, entry):
                break  # one spell a ship round


def _cast(battle: Any, ship: Ship, caster: Any, entry: list[Any]) -> bool:
    spell = entry[0]
    reach = [
        f
        for f in battle.enemy_ships(ship.side)
        if spell_can_target_ship(
            spell.range_ft, distance(ship.hex, f.hex), within_150_ft=ship.grappled_with(f)
        )
    ]
    choice = ship.ship_policies.targeting.choose_ship_target(ship, battle, reach)
    if choice is None:
        return False
    foe = choice[0]
    entry[1] -= 1
    if battle.options.sj.spell_attack == "d20_vs_ac" and not _spell_hits(battle, caster, foe):
        return True
    rolled = _dice(spell.damage).roll(battle.hull_rng) if spell.damage else 0
    hull, effects = spell_hull_effects(
        spell.effect, rolled, spell.ignites, fire_possible=not foe.gargantuan
    )
    battle.record(
        caster.name,
        "spell",
        foe.name,
        (("damage", rolled),) if spell.damage else (),
        (("spell", spell.name), ("effect", spell.effect)),
        (("result", "cast"), ("spell", spell.name), ("hull", hull), ("points", rolled)),
    )
    for effect in effects:
        apply_effect(battle, foe, effect, caster.name)
    if foe.fighting:
        _hull_points(battle, foe, hull, caster.name)
    return True


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
    shots = crew.count
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
    (``sj.hull_shot_dice`` + ODM at one spot)."""
    rng = battle.hull_rng
    dice = _dice(battle.options.sj.hull_shot_dice)
    for m in battle.fighters_on(ship):
        if not isinstance(m, Character) or m.side != ship.side or not battle.missile(m):
            continue
        if not foe.fighting:
            return
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
        if battle.missile(m):
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
