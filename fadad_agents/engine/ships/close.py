"""Ramming, shearing, crashes, grappling, cutting, boarding; ship movement re-exported.

* Ramming (SJ 9, FADAD 5.1), shearing (SJ 11), crashes (SJ 10), grappling lines and
  cutting them (SJ 12), boarding the round after grappling (SJ 12). d20 helmsman rolls use
  the helm skill as a d20 bonus (:func:`~fadad_agents.engine.ships.damage.skill_bonus`,
  ``engine.ladder_d20_bonus``).
* Movement, towing and debris live in :mod:`~fadad_agents.engine.ships.maneuver`;
  :func:`move_options`, :func:`move_ship` and :func:`towed_by` are importable from here too.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from fadad_agents.agents.ships.ship import Ship
from fadad_agents.engine.ships.damage import (
    apply_effect,
    damage_ship,
    dies_of,
    fadad_hit,
    hull_hit,
    roll_crits,
    skill_bonus,
)
from fadad_agents.engine.ships.maneuver import move_options, move_ship, towed_by
from fadad_agents.engine.ships.morale import boarding_check
from fadad_agents.hexmap import DIRECTIONS
from fadad_agents.rules.core.dice import roll_4df
from fadad_agents.rules.ships import effects as fx
from fadad_agents.rules.ships.close import (
    CHAIN,
    LINE,
    crash_damage,
    crashing_ship,
    cut_line,
    lines_to_grapple,
    ram_allowed,
    ram_damage_dice,
    ram_outcome,
    ram_size_check,
    resolve_crash_avoidance,
    resolve_crash_crew_damage,
    resolve_lock,
    resolve_separation,
    resolve_shear,
)
from fadad_agents.rules.ships.combat import Dice, resolve_attack
from fadad_agents.rules.ships.fadad_damage import (
    ram_damage,
    ram_damage_base,
    resolve_ram_attempt,
    roll_entangled,
)
from fadad_agents.rules.ships.movement import letter_from_ladder

__all__ = [
    "board",
    "crash",
    "cut_lines",
    "grapple",
    "move_options",
    "move_ship",
    "ram",
    "separate",
    "shear",
    "towed_by",
]

PERSONAL_SECONDS = 6


# --- ramming, shearing, crashes ----------------------------------------------------------


def ram(battle: Any, ship: Ship, foe: Ship, *, counter: bool = False) -> None:
    """A ram attempt (SJ 9 or FADAD 5.1), a crash instead when the sizes forbid it."""
    kind = ship.spec.ram
    if kind == "none":
        return
    rammed = ship.memory.get("rammed_round") == battle.round
    allowed = ram_allowed(
        has_initiative=battle.holds_initiative(ship.side),
        same_hex_at_start=battle.start_hex.get(ship) == foe.hex
        and battle.start_hex.get(foe) == foe.hex,
        left_and_reentered=ship.moved > 0,  # she started in the hex and moved: out and in
        grappled_with_target=ship.grappled_with(foe),
        rammed_this_turn=rammed,
        head_on_counter=counter,
    )
    if not allowed:
        return
    ship.memory["rammed_round"] = battle.round
    size = ram_size_check(ship.tons, foe.tons, kind)
    if size != "ok":
        crasher, other = (foe, ship) if size == "target_crashes" else (ship, foe)
        crash(battle, crasher, other)
        return
    if battle.options.ship.damage_model == "fadad_levels":
        _fadad_ram(battle, ship, foe)
    else:
        _sj_ram(battle, ship, foe, counter)


def _sj_ram(battle: Any, ship: Ship, foe: Ship, counter: bool) -> None:
    rng = battle.close_rng
    res = resolve_attack(skill_bonus(battle, ship.helm), foe.spec.armour_class, rng, None)
    kind = ship.spec.ram
    assert kind != "none"  # ram() returns early for ships without a ram
    out = ram_outcome(
        kind,
        ship.tons,
        battle.options.sj.lock_pct_per_10_tons,
        battle.options.sj.shaken_dexterity_dc,
    )
    dice = ram_damage_dice(_ram_dice(battle, ship, counter), foe.gargantuan)
    dmg = dice.roll(rng) if res.hit and out.does_damage else 0
    locked = res.hit and (out.grappled or (out.lock_pct > 0 and resolve_lock(out.lock_pct, rng)))
    battle.record(
        ship.name,
        "ram",
        foe.name,
        (("d20", res.roll),),
        (("ram", ship.spec.ram), ("dice", f"{dice.count}d{dice.sides}")),
        (
            ("result", "hit" if res.hit else "miss"),
            ("hull", dmg),
            ("gargantuan", foe.gargantuan),
            ("locked", locked),
            ("counter", counter),
        ),
    )
    if not res.hit:
        head_on = (foe.facing - ship.facing) % 6 == 3
        if head_on and not counter and foe.spec.ram != "none":
            ram(battle, foe, ship, counter=True)
        return
    for effect in out.effects:
        apply_effect(battle, foe, effect, ship.name)
    hull_hit(battle, foe, dmg, ram_crits=out.random_crits, source=ship.name)
    if locked and foe.fighting:
        battle.lash(ship, foe, lock=True)


def _ram_dice(battle: Any, ship: Ship, counter: bool) -> Dice:
    """Her ram's dice at the speed she strikes with (PROPOSED, ``sj.ram_dice_by_speed``:
    the listed dice are at her full SR, fewer in proportion below it, at least one): the
    hexes she made this turn, or a head-on counter-ram's speed from the previous turn
    ("she has not had the chance to reach full, ramming speed", SJ 9)."""
    speed = None
    if battle.options.sj.ram_dice_by_speed:
        speed = ship.memory.get("last_speed", 0) if counter else ship.moved
    return _ram_dice_at(ship.spec.ram_dice or "2d6", speed, ship.spec.sr)


@lru_cache(maxsize=256)  # a sweep's rams strike with a handful of (dice, speed, SR)
def _ram_dice_at(listed_dice: str, speed: int | None, sr: int) -> Dice:
    """The listed dice at ``speed`` of ``sr`` (all of them when ``speed`` is None)."""
    listed = Dice.parse(listed_dice)
    if speed is None:
        return listed
    count = max(1, min(listed.count, -(-listed.count * speed // max(1, sr))))
    return Dice(count, listed.sides, listed.bonus)


def relative_speed(ship: Ship, foe: Ship) -> int:
    """Hexes a round between the two ships' motions (FADAD 5.1 "relative speed in SR"):
    the length of the difference of their velocities (facing x hexes made): head-on they
    add up, in line they subtract. ``foe`` moves at her last speed."""
    mine = DIRECTIONS[ship.facing] * ship.moved
    theirs = DIRECTIONS[foe.facing] * foe.speed
    return (mine - theirs).length()


def _fadad_ram(battle: Any, ship: Ship, foe: Ship) -> None:
    rng = battle.close_rng
    att = resolve_ram_attempt(
        ship.ms if ship.ms is not None else -4, foe.ms if foe.ms is not None else -4, rng
    )
    battle.record(
        ship.name,
        "ram",
        foe.name,
        (),
        (("ram", ship.spec.ram), ("relative_sr", relative_speed(ship, foe))),
        (("result", "hit" if att.rams else "miss"), ("rd", att.rd)),
    )
    if not att.rams:
        return
    opts = battle.options.ship
    rel = relative_speed(ship, foe)
    piercing = ship.spec.ram == "piercing"
    to_foe = ram_damage_base(ship.spec.mass_scale, rel, other_ram_piercing=piercing)
    to_ship = ram_damage_base(foe.spec.mass_scale, rel, ram_takes_brunt=True)
    for victim, base in ((foe, to_foe), (ship, to_ship)):
        dmg = ram_damage(
            base,
            roll_4df(rng),
            victim.spec.armour,
            victim.spec.mass_scale,
            negative_cap=opts.fadad_negative_cap,
        )
        if dmg > 0:
            fadad_hit(battle, victim, dmg, source="ram")
    if (
        piercing
        and ship.fighting
        and foe.fighting
        and roll_entangled(rng, opts.piercing_entangle_pct)
    ):
        battle.lash(ship, foe, lock=True)


def crash(battle: Any, a: Ship, b: Ship) -> None:
    """Two ships in one hex may crash: the smaller into the larger unless its helm avoids it."""
    crasher, other = (a, b) if crashing_ship(a.tons, b.tons) == "a" else (b, a)
    sj = battle.options.sj
    bonus = None if crasher.sr == 0 else skill_bonus(battle, crasher.helm)
    letter = (
        letter_from_ladder(crasher.ms) if crasher.ms is not None else crasher.spec.maneuverability
    )
    if resolve_crash_avoidance(bonus, letter, battle.close_rng, sj.crash_dc):
        battle.record(crasher.name, "crash", other.name, (), (), (("result", "avoided"),))
        return
    res = crash_damage(crasher.hull_left, crasher.spec.hull_points)
    battle.record(
        crasher.name,
        "crash",
        other.name,
        (),
        (),
        (("result", "crash"), ("loss", res.crasher_loss), ("other", res.other_damage)),
    )
    per = battle.options.ship.hull_points_per_damage_number
    damage_ship(battle, other, res.other_damage, res.other_damage // per, crasher.name)
    if res.other_shaken and other.fighting:
        apply_effect(
            battle,
            other,
            fx.Shaken(fx.Check("dexterity", sj.shaken_dexterity_dc, "d20"), npc_fall_pct=40),
            crasher.name,
        )
    damage_ship(battle, crasher, res.crasher_loss, res.crasher_loss // per, "crash")
    if crasher.fighting:
        _crash_casualties(battle, crasher)


def _crash_casualties(battle: Any, ship: Ship) -> None:
    """Everyone aboard a crashing ship saves or takes 1d6 a ton (max 20d6), half on a save;
    a crewman dies when it reaches his average hit points (HD x 4.5, PROPOSED
    ``sj.crewman_hit_points_per_hd``)."""
    sj = battle.options.sj
    rng, dc, per_hd = battle.close_rng, sj.crash_save_dc, sj.crewman_hit_points_per_hd
    lost = 0
    for crew in battle.crews_on(ship):
        dead = sum(
            1
            for _ in range(crew.count)
            if dies_of(resolve_crash_crew_damage(ship.tons, 0, rng, dc)[1], crew.stats.hd, per_hd)
        )
        lost += battle.casualties(crew, dead) if dead else 0
    battle.record(
        ship.name, "effect", "crash", (), (), (("result", f"{lost} killed in the crash"),)
    )


def shear(battle: Any, ship: Ship, foe: Ship, *, back: bool = False) -> None:
    """A shearing pass (SJ 11): the target loses a class (at most two); 20 is a crit."""
    if ship.memory.get("sheared_round") == battle.round:
        return
    ship.memory["sheared_round"] = battle.round
    res = resolve_shear(
        skill_bonus(battle, ship.helm), foe.spec.armour_class, foe.shear_losses, battle.close_rng
    )
    battle.record(
        ship.name,
        "shear",
        foe.name,
        (),
        (),
        (
            ("result", "hit" if res.hit else "miss"),
            ("mc_loss", res.mc_loss),
            ("critical", res.critical),
        ),
    )
    if res.mc_loss:
        foe.shear_losses += 1
    if res.critical:
        roll_crits(battle, foe, 1, 0, 0, "blast", ship.name)
    if res.shear_back_allowed and not back and foe.fighting:
        shear(battle, foe, ship, back=True)


# --- grappling, cutting, boarding --------------------------------------------------------


def grapple(battle: Any, ship: Ship, foe: Ship) -> None:
    """Throw grappling hooks: one per hand up to the lines needed, each vs AC 10 (SJ 12);
    hooks on chains if that is her gear (``grapnels``)."""
    needed = lines_to_grapple(ship.tons, foe.tons, battle.options.sj.grapple_lines_rounding)
    have = len(battle.lines_between(ship, foe))
    throws = min(needed - have, battle.crew_heads_home(ship))
    if throws <= 0:
        return
    bonus = battle.crew_bonus(ship)
    caught = sum(
        1 for _ in range(throws) if resolve_attack(bonus, LINE.ac, battle.close_rng, None).hit
    )
    battle.add_lines(ship, foe, caught, CHAIN if ship.spec.grapnels == "chains" else LINE)
    battle.record(
        ship.name,
        "grapple",
        foe.name,
        (),
        (("needed", needed),),
        (
            ("result", "grappled" if ship.grappled_with(foe) else "lines out"),
            ("lines", have + caught),
        ),
    )


def cut_lines(battle: Any, ship: Ship, foe: Ship) -> None:
    """The crew hacks at the lines: two hands a line, the most worn first, a blow each per
    personal round of the ship round; a blow must hit AC 10 (a chain AC 4) and its 1d6 wears
    the line down until its 5 hit points (a chain's 20) are gone (SJ 12)."""
    lines = sorted(battle.lines_between(ship, foe), key=lambda line: line[1])
    if not lines:
        return
    tries = min(len(lines), max(1, battle.crew_heads_home(ship) // 2))
    blows = max(1, battle.round_seconds // PERSONAL_SECONDS)
    bonus, rng, axe = battle.crew_bonus(ship), battle.close_rng, Dice(1, 6)
    cut = 0
    for line in lines[:tries]:
        for _ in range(blows):
            res = cut_line(bonus, axe, line[0], line[1], rng)
            line[1] = res.hp_left
            if res.cut:
                cut += 1
                break
    battle.drop_cut_lines(ship, foe)
    battle.record(
        ship.name,
        "cut_lines",
        foe.name,
        (),
        (("tries", tries), ("blows", blows)),
        (
            ("result", "free" if not ship.grappled_with(foe) else "still grappled"),
            ("cut", cut),
            ("left", len(battle.lines_between(ship, foe))),
            ("worn", tuple(line[1] for line in battle.lines_between(ship, foe))),
        ),
    )


def separate(battle: Any, ship: Ship, foe: Ship) -> None:
    """Locked ships part only when a helmsman of either ship pulls them apart (SJ 9): an
    attack roll with his helm skill as a d20 bonus against the other ship's AC
    (:func:`~fadad_agents.rules.ships.close.resolve_separation`); under the FADAD ship
    rules (PROPOSED) an opposed Maneuvering Skill roll, as a ram attempt. Nobody at the
    helm, no pull."""
    fadad, ms = battle.options.ship.damage_model == "fadad_levels", ship.ms
    if ship.helm_out or (fadad and ms is None):
        return
    rng = battle.close_rng
    if fadad:
        att = resolve_ram_attempt(ms or 0, foe.ms if foe.ms is not None else -4, rng)
        parted, dice = att.rd >= 1, (("rd", att.rd),)
    else:
        res = resolve_separation(skill_bonus(battle, ship.helm), foe.spec.armour_class, rng)
        parted, dice = res.hit, (("d20", res.roll),)
    battle.record(
        ship.name,
        "separate",
        foe.name,
        dice,
        (("helm", ship.helm),),
        (("result", "pulls free" if parted else "still locked"),),
    )
    if parted:
        battle.unlock(ship, foe)


def board(battle: Any, ship: Ship, foe: Ship) -> None:
    """Boarders at the gunwale swarm across (the round after grappling, SJ 12).

    A very dangerous boarding (PROPOSED: the enemy deck holds at least
    ``sj.very_dangerous_boarding_odds`` times the party's heads) calls a morale check of
    the crew first (:func:`~fadad_agents.engine.ships.morale.boarding_check`); on a
    failure its NPCs refuse (``to_board``).
    """
    party = battle.boarding_party(ship, taking=not foe.fighting)
    party = boarding_check(battle, ship, party, foe)
    if not party:
        return
    heads = sum(m.headcount for m in party)
    for member in party:
        battle.move_aboard(member, foe)
    battle.record(
        ship.name,
        "board",
        foe.name,
        (),
        (),
        (
            ("result", f"{heads} boarder{'s' if heads != 1 else ''}"),
            ("who", tuple(m.name for m in party)),
            ("heads", heads),
        ),
    )
