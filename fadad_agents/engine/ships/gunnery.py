"""Gunnery: fields of fire, ranges, and shots at hulls or crews under either damage model.

* Fields of fire (``ships-spelljammer.md`` 7.4): a fixed bow (stern) weapon bears inside
  the lines of the three frontal (rear) hexes, +2 to hit (d20) on a target dead ahead
  (astern); broadside weapons bear in their 120-degree quarter; ``any`` bears everywhere.
  A weapon with ``same_hex: false`` (catapults, section 4) cannot fire into its own hex.
  Range is the weapon's range-modifier table, in hexes (A-37).
* d20 (C-20): weapon attack = d20 + the weapon's ``sj_attack_mod`` + the average
  crewman's attack bonus (PROPOSED, ``sj.gunner_attack_bonus``) - its range modifier x
  ``sj.gunnery_range_step`` (PROPOSED) vs the ship's AC; the hull damage is the weapon's
  dice, and a wildfire hit's damage is its fire's first round. Against crew: vs the
  crewman's AC (+1 when his ship's armour is better and it has initiative); a miss may
  still hit the hull for at most 1 point. A gun whose hands were all thrown off their
  feet by a Ship Shaken result is silent that round (every gun, with
  ``ship.shaken_stops_guns``).
* FADAD (section 3): the gunners' skill (the ship's ``crew_skill``, PROPOSED) + 4dF must
  exceed both the Target (volume + range, floor -4) and the ship's dodge (MS + 4dF - the
  projectile penalty); damage RD + weapon + 4dF - armour - Mass Scale. Against crew the
  Target is the range modifier + 4 (human-size, section 5.2) and a hit downs one.
* Her gunners breathe her air: fouled or deadly by fire, it costs them its levels
  (``fire.fouled_air_penalty``, PROPOSED; on a d20 at ``engine.ladder_d20_bonus``'s step).

Each weapon fires at most once a turn and then reloads (:class:`~fadad_agents.agents.
weapon_team.WeaponTeam`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

from fadad_agents.agents.core.groups import Crew
from fadad_agents.agents.ships.ship import Ship
from fadad_agents.agents.ships.weapon_team import WeaponTeam
from fadad_agents.engine.ships.damage import fadad_hit, hull_hit, ignite
from fadad_agents.engine.ships.deck import air_of
from fadad_agents.hexmap import ORIGIN, Hex, dead_ahead, distance, in_arc, in_bow_cone
from fadad_agents.rules.core.damage import fadad_damage
from fadad_agents.rules.core.dice import roll_4df
from fadad_agents.rules.core.wounds import Wound, WoundTrack, wound_for_damage
from fadad_agents.rules.personal.wound_models import record_wound
from fadad_agents.rules.ships.combat import (
    Dice,
    crewman_ac,
    field_of_fire_bonus,
    resolve_attack,
    stray_hull_damage,
)
from fadad_agents.rules.ships.fadad_combat import (
    BigWeapon,
    artillery_target,
    dodge_penalty,
    non_ship_target,
    resolve_ship_attack,
)
from fadad_agents.rules.ships.fadad_crits import crew_damage, crew_hit_kind
from fadad_agents.rules.ships.fadad_damage import ship_damage
from fadad_agents.schema.equipment import ShipWeapon

__all__ = ["bearing", "big_weapon", "fire_guns", "range_penalty"]


@cache
def big_weapon(weapon: ShipWeapon) -> BigWeapon:
    """The FADAD table row of a catalogue weapon (jettisons and others shoot as catapults)."""
    kind = (
        weapon.family
        if weapon.family in ("ballista", "catapult", "bombard", "wildfire")
        else "catapult"
    )
    return BigWeapon(
        key=weapon.name.lower().replace(" ", "_"),
        name=weapon.name,
        kind=kind,
        crew=weapon.crew,
        rounds_per_shot=weapon.reload_rounds,
        damage=weapon.damage,
        range_mods=weapon.range_mods,
        flesh_bonus=weapon.damage_vs_flesh,
        sets_fire=weapon.sets_fire,
    )


@cache
def _dice(text: str) -> Dice:
    return Dice.parse(text)


def bearing(ship: Ship, team: WeaponTeam, foe: Ship) -> int | None:
    """The d20 field-of-fire bonus if ``team`` bears on ``foe`` in range, else ``None``."""
    w, here, there = team.weapon, ship.hex, foe.hex
    return _bearing(
        w.arc, w.same_hex, w.range_mods, there.q - here.q, there.r - here.r, ship.facing
    )


@lru_cache(maxsize=1 << 16)  # asked for every loaded gun every turn; the same few offsets
def _bearing(
    arc: str, same_hex: bool, mods: tuple[int | None, ...], q: int, r: int, facing: int
) -> int | None:
    """:func:`bearing` of a weapon with ``arc``, ``same_hex`` and range table ``mods`` at a
    ship facing ``facing`` on a target ``(q, r)`` hexes away."""
    d = (abs(q) + abs(r) + abs(q + r)) // 2
    if d >= len(mods) or mods[d] is None or (d == 0 and not same_hex):
        return None
    if arc == "any" or d == 0:
        return 0
    target = Hex(q, r)
    if arc in ("fore", "aft"):
        f = facing if arc == "fore" else (facing + 3) % 6
        inside = in_bow_cone(ORIGIN, f, target)
        return field_of_fire_bonus(True, inside, dead_ahead(ORIGIN, f, target))
    return 0 if in_arc(ORIGIN, facing, target, arc) else None


def fire_guns(battle: Any, ship: Ship, only: Ship | None = None) -> None:
    """Every loaded weapon that bears fires once at the target its gunnery policy picks
    (``only``: at that ship, out of turn) (none after a Ship Shaken result this round,
    ``ship.shaken_stops_guns``)."""
    round_no = battle.round
    for team in ship.teams:  # WeaponTeam.can_fire inline: most turns no gun can
        if team.loaded and team.crew > 0 and not team.disabled and team.fired_round != round_no:
            break
    else:
        return  # most turns: every gun reloading or fired already
    if ship.shaken_round == round_no and battle.options.ship.shaken_stops_guns:
        return
    if ship.levels_model and ship.wrecked:  # a FADAD hulk dead in space (stay_wrecked)
        return
    policy = ship.ship_policies.targeting
    for team in ship.teams:
        if not ship.fighting:
            return
        if not team.can_fire(round_no):
            continue
        candidates, bonuses = [], []  # the foes she bears on, and her d20 bonus at each
        w, here = team.weapon, ship.hex
        for foe in battle.enemy_ships(ship.side) if only is None else (only,):
            there = foe.hex  # bearing(ship, team, foe), inline: every gun that can fire
            b = _bearing(
                w.arc, w.same_hex, w.range_mods, there.q - here.q, there.r - here.r, ship.facing
            )
            if b is not None:
                candidates.append(foe)
                bonuses.append(b)
        if not candidates:
            continue  # nothing in her arc and range: no choice to ask for
        choice = policy.choose_ship_target(ship, battle, candidates)
        if choice is None:
            continue
        foe, aim = choice
        if ship.grapples and ship.grappled_with(foe):
            aim = "crew"  # in contact large weapons only aim at areas of the deck (SJ 8)
        if aim == "crew" and not any(m.headcount for m in battle.fighters_on(foe)):
            aim = "hull"
        team.fire(round_no)
        if ship.levels_model:  # (ship.damage_model: fadad_levels)
            _fadad_shot(battle, ship, team, foe, aim)
        else:
            fof = bonuses[0] if len(candidates) == 1 else bonuses[candidates.index(foe)]
            _sj_shot(battle, ship, team, foe, aim, fof)


def _record(
    battle: Any, ship: Ship, team: WeaponTeam, foe: Ship, dice: Any, mods: Any, out: Any
) -> None:
    battle.record(ship.name, "gunnery", foe.name, dice, (("weapon", team.label), *mods), out)


def _gunner_bonus(battle: Any, ship: Ship) -> int:
    """The average crewman's attack bonus (``sj.gunner_attack_bonus``, PROPOSED)."""
    if not battle.options.sj.gunner_attack_bonus:
        return 0
    bonus: int = battle.crew_bonus(ship)
    return bonus


def range_penalty(battle: Any, weapon: ShipWeapon, hexes: int) -> int:
    """The d20 attack's modifier for range: the weapon's range table (its Target modifier
    at ``hexes``, A-37) times ``sj.gunnery_range_step`` d20 points a step (PROPOSED, the
    lost SJ weapon table's ranges, A-48; 0 = range does not matter)."""
    mod = weapon.range_mods[hexes] if hexes < len(weapon.range_mods) else None
    step: int = battle.options.sj.gunnery_range_step
    return -(mod or 0) * step


def _victim(battle: Any, ship: Ship, rng: Any) -> Any:
    """A random individual on ``ship``'s deck: "if 10 individuals are available to attack,
    then any of the 10 may be hit" (SJ 4): a crew's man as often as its heads, a named
    character as one of them."""
    people = battle.fighters_on(ship)
    pick = int(rng.random() * sum(m.headcount for m in people))
    for m in people:
        if pick < m.headcount:
            return m
        pick -= m.headcount
    return people[-1]


def _ac(battle: Any, victim: Any) -> int:
    """The victim's AC: a crewman's average; a named character's, PROPOSED, 10 plus his
    defence skill's ladder steps at the d20 step of ``engine.ladder_d20_bonus``."""
    if isinstance(victim, Crew):
        return int(victim.stats.ac)
    step: int = battle.options.engine.ladder_d20_bonus[1]
    return 10 + step * int(victim.fighter.defence)


@dataclass(frozen=True, slots=True)
class _Blow:
    """A big weapon's hit on a named character, as his ``absorb`` takes a blow."""

    track: WoundTrack
    hit: bool = True
    crit_effects: tuple[Any, ...] = ()


def _strike_person(
    battle: Any, victim: Any, rd: int, damage: int, source: str
) -> tuple[int, Callable[[], None]]:
    """A big weapon's hit on one person, to log first and apply after: a crewman is down
    (one casualty); a named character takes its FADAD damage number (RD + weapon damage
    with its bonus against flesh - his DDM + 4dF; RD 0 under the d20 rules, PROPOSED) as a
    wound, with a player character's protections. Returns the heads it downs and the
    applying call."""
    if isinstance(victim, Crew):

        def down() -> None:
            battle.casualties(victim, 1)
            battle.refresh_crews()

        return min(1, victim.count), down
    number = fadad_damage(rd, damage - victim.fighter.ddm, roll_4df(battle.gunnery_rng))
    wound = int(wound_for_damage(number))
    track = record_wound(battle.combat_rules.wounds, victim.melee_track(), wound, pc=victim.player)

    def wounded() -> None:
        outcome = (("result", Wound(track.level).label), ("wound", Wound(wound).label))
        battle.record(victim.name, "struck", source, (), (("damage", number),), outcome)
        victim.absorb(_Blow(track), battle)

    return int(track.out_of_fight), wounded


def _sj_shot(battle: Any, ship: Ship, team: WeaponTeam, foe: Ship, aim: str, fof: int) -> None:
    rng = battle.gunnery_rng
    w = team.weapon
    reach = range_penalty(battle, w, distance(ship.hex, foe.hex))
    smoke = air_of(battle, ship) * battle.options.engine.ladder_d20_bonus[1] if ship.air else 0
    bonus = w.sj_attack_mod + _gunner_bonus(battle, ship) + fof + reach - smoke
    dice = _dice(w.sj_hull_damage or "1d6")
    if aim == "crew":
        victim = _victim(battle, foe, rng)
        ac = crewman_ac(
            _ac(battle, victim), foe.spec.armour_class, battle.holds_initiative(foe.side)
        )
        res = resolve_attack(bonus, ac, rng, None)
        dmg = dice.roll(rng)
        if res.hit:
            lost, apply = _strike_person(battle, victim, 0, w.damage + w.damage_vs_flesh, ship.name)
            _record(
                battle,
                ship,
                team,
                foe,
                (("d20", res.roll),),
                (("bonus", bonus), ("ac", ac)),
                (
                    ("result", "crew hit"),
                    ("aim", "crew"),
                    ("casualties", lost),
                    ("crew", victim.name),
                ),
            )
            apply()
            if w.sets_fire:
                ignite(battle, foe, dmg, ship.name)
            return
        stray = (
            stray_hull_damage(dmg)
            if resolve_attack(bonus, foe.spec.armour_class, rng, None).hit
            else 0
        )
        _record(
            battle,
            ship,
            team,
            foe,
            (("d20", res.roll),),
            (("bonus", bonus), ("ac", ac)),
            (("result", "miss"), ("aim", "crew"), ("hull", stray)),
        )
        if stray:
            hull_hit(battle, foe, stray, source=ship.name)
        return
    crit_from = battle.options.sj.poorly_maintained_crit_from if foe.spec.poorly_maintained else 20
    ac = foe.spec.armour_class
    res = resolve_attack(bonus, ac, rng, crit_from)
    dmg = dice.roll(rng) if res.hit else 0
    # The most common shot: its log fields are made only if the log is read.
    battle.defer(_hull_shot_event, (ship.name, foe.name, team.label, res, bonus, ac, dmg))
    if res.hit:
        if w.sets_fire:  # the hit's damage is the fire's first round
            ignite(battle, foe, dmg, ship.name, paid=True)
        hull_hit(battle, foe, dmg, attack_critical=res.critical, source=ship.name)


def _hull_shot_event(
    name: str, foe: str, label: str, res: Any, bonus: int, ac: int, dmg: int
) -> Any:
    """The log fields of a d20 shot at a hull (as :func:`_record` writes them)."""
    outcome = (("result", "hit" if res.hit else "miss"), ("aim", "hull"), ("hull", dmg))
    return (
        name,
        "gunnery",
        foe,
        (("d20", res.roll),),
        (("weapon", label), ("bonus", bonus), ("ac", ac)),
        (*outcome, ("critical", res.critical)),
    )


def _fadad_shot(battle: Any, ship: Ship, team: WeaponTeam, foe: Ship, aim: str) -> None:
    rng = battle.gunnery_rng
    opts = battle.options.ship
    bw = big_weapon(team.weapon)
    d = distance(ship.hex, foe.hex)
    skill = ship.spec.crew_skill - air_of(battle, ship)  # her gunners breathe her air
    if aim == "crew":
        target = non_ship_target(bw, d, "human")
        shot, dice = resolve_ship_attack(skill, target, None, 0, rng)
        lost, apply, victim = 0, None, None
        if shot.hit:
            victim = _victim(battle, foe, rng)
            lost, apply = _strike_person(
                battle, victim, shot.rd, bw.damage + bw.flesh_bonus, ship.name
            )
        _record(
            battle,
            ship,
            team,
            foe,
            (("4dF", dice),),
            (("skill", skill), ("target", target)),
            (
                ("result", "crew hit" if shot.hit else "miss"),
                ("aim", "crew"),
                ("rd", shot.rd),
                ("casualties", lost),
                ("crew", None if victim is None else victim.name),
            ),
        )
        if apply is not None:
            apply()
            if bw.sets_fire:
                ignite(battle, foe, bw.damage, ship.name)
        return
    target = artillery_target(foe.tons, bw, d, extended=opts.target_bands_extended)
    penalty = team.weapon.projectile_penalty
    if penalty is None:  # by the weapon's family (section 3)
        penalty = dodge_penalty(bw, proposed_penalty=opts.bombard_wildfire_dodge_penalty)
    shot, dice = resolve_ship_attack(skill, target, foe.ms, penalty, rng)
    if not shot.hit:
        _record(
            battle,
            ship,
            team,
            foe,
            (("4dF", dice),),
            (("skill", skill), ("target", target)),
            (("result", "miss"), ("aim", "hull"), ("rd", shot.rd), ("dodge", shot.dodge)),
        )
        return
    roll = roll_4df(rng)
    dmg = ship_damage(
        shot.rd,
        bw.damage,
        roll,
        foe.spec.armour,
        foe.spec.mass_scale,
        negative_cap=opts.fadad_negative_cap,
    )
    _record(
        battle,
        ship,
        team,
        foe,
        (("4dF", dice), ("damage_4dF", roll)),
        (("skill", skill), ("target", target)),
        (
            ("result", "hit"),
            ("aim", "hull"),
            ("rd", shot.rd),
            ("dodge", shot.dodge),
            ("damage", dmg),
        ),
    )
    if bw.sets_fire:  # the hit's damage is the fire's first round
        ignite(battle, foe, bw.damage, ship.name, paid=True)
    fadad_hit(
        battle,
        foe,
        dmg,
        rd=shot.rd,
        attack_dice=dice,
        crew_damage=max(0, crew_damage(bw.damage, shot.rd, roll)),
        crew_kind=crew_hit_kind(bw.kind),
        source=ship.name,
    )
