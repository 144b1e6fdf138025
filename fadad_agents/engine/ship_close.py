"""Movement with facing, debris, ramming, shearing, crashes, grappling, cutting, boarding.

* Movement: Spelljammer (``ship.damage_model = sj_hull_points``): every legal plan of
  :func:`~fadad_agents.rules.sj_movement.legal_moves` for the ship's SR and current class
  (crew shortage and criticals lower it). FADAD (``fadad_levels``, PROPOSED reading of the
  MS table): up to SR hexes and at most the MS row's faces per round, turns costing no SR.
  Plans are precomputed per (SR, class) relative to facing 0 and rotated, one per end
  state (hex, facing), the shortest kept. The map edge bounds moves. A grappled ship does
  not move (SJ 12; towing is not played).
* Debris (SJ 7.2): a ship entering a debris hex at 2+ hexes this turn is attacked as by a
  jettison (PROPOSED: d20 +0 vs AC; small 1d4, medium 1d6, large 1d8 hull points, the same
  roll as a FADAD damage number); burning debris adds a Fire! critical.
* Ramming (SJ 9, FADAD 5.1), shearing (SJ 11), crashes (SJ 10), grappling lines and
  cutting them (SJ 12), boarding the round after grappling (SJ 12). d20 helmsman rolls use
  the helm skill as a d20 bonus (:func:`~fadad_agents.engine.ship_damage.d20_bonus`).
"""

from __future__ import annotations

import itertools
from functools import cache
from typing import Any

from fadad_agents.agents.groups import Crew
from fadad_agents.agents.ship import Ship
from fadad_agents.engine.ship_damage import (
    apply_effect,
    d20_bonus,
    damage_ship,
    fadad_hit,
    hull_hit,
    roll_crits,
)
from fadad_agents.hexmap import DIRECTIONS, Hex, rotate
from fadad_agents.policies.ship_protocols import MoveOption
from fadad_agents.rules import ship_effects as fx
from fadad_agents.rules.dice import roll_4df
from fadad_agents.rules.ships_fadad import maneuver_row
from fadad_agents.rules.ships_fadad_damage import (
    ram_damage,
    ram_damage_base,
    resolve_ram_attempt,
    roll_entangled,
)
from fadad_agents.rules.sj_close import (
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
    resolve_shear,
    tow,
)
from fadad_agents.rules.sj_combat import Dice, debris_hazard, resolve_attack
from fadad_agents.rules.sj_crew import morale_failure
from fadad_agents.rules.sj_movement import ManeuverClass, legal_moves, letter_from_ladder

__all__ = [
    "board",
    "crash",
    "cut_lines",
    "grapple",
    "move_options",
    "move_ship",
    "ram",
    "shear",
]

_SEGMENTS = ("", "L", "R", "LL", "RR", "RRR")


def _walk(plan: str) -> tuple[tuple[Hex, ...], int]:
    """Hexes entered and the final facing of a plan started at the origin facing 0."""
    pos, facing, path = Hex(0, 0), 0, []
    for step in plan:
        if step == "F":
            pos = pos + DIRECTIONS[facing]
            path.append(pos)
        else:
            facing = (facing + (1 if step == "R" else -1)) % 6
    return tuple(path), facing


def _dedupe(plans: Any) -> tuple[tuple[str, tuple[Hex, ...], int], ...]:
    seen: dict[tuple[Hex, int], tuple[str, tuple[Hex, ...], int]] = {}
    for plan in plans:
        path, facing = _walk(plan)
        end = path[-1] if path else Hex(0, 0)
        key = (end, facing)
        if key not in seen or len(plan) < len(seen[key][0]):
            seen[key] = (plan, path, facing)
    return tuple(seen.values())


@cache
def sj_plans(sr: int, mc: ManeuverClass) -> tuple[tuple[str, tuple[Hex, ...], int], ...]:
    """One legal SJ plan per end state, relative to facing 0 (``legal_moves``)."""
    return _dedupe(legal_moves(sr, mc))


@cache
def fadad_plans(sr: int, faces: int) -> tuple[tuple[str, tuple[Hex, ...], int], ...]:
    """FADAD plans: up to ``sr`` hexes, at most ``faces`` hex sides turned (PROPOSED)."""
    plans = []
    for hexes in range(sr + 1):
        for segs in itertools.product(_SEGMENTS, repeat=hexes + 1):
            if sum(len(s) for s in segs) <= faces:
                plans.append("F".join(segs))
    return _dedupe(plans)


type Oriented = tuple[tuple[str, tuple[Hex, ...], int], ...]


@cache
def _oriented(fadad: bool, sr: int, turning: int, f0: int) -> Oriented:
    """The plans rotated to start facing ``f0``: (plan, hexes entered as offsets, facing)."""
    plans = fadad_plans(sr, turning) if fadad else sj_plans(sr, ManeuverClass(turning))
    return tuple(
        (plan, tuple(rotate(h, f0) for h in path), (facing + f0) % 6)
        for plan, path, facing in plans
    )


def _plans(battle: Any, ship: Ship) -> Oriented:
    sr = ship.sr
    if battle.options.ship.damage_model == "fadad_levels":
        ms = ship.ms
        literal = battle.options.fadad.ms_table_literal
        faces = 0 if ms is None else maneuver_row(ms, literal=literal).faces
        return _oriented(True, sr, faces, ship.facing)
    return _oriented(False, sr, int(ship.mc), ship.facing)


def _speed_band(battle: Any, ship: Ship) -> tuple[int, int]:
    """Hexes the ship may make this round: any up to SR (SJ); FADAD: last round's speed
    changed by at most the MS row's maximum acceleration (PROPOSED reading of section 2)."""
    sr = ship.sr
    if battle.options.ship.damage_model != "fadad_levels":
        return 0, sr
    ms = ship.ms
    acc = 0 if ms is None else maneuver_row(ms).max_acceleration
    return min(sr, max(0, ship.speed - acc)), min(sr, ship.speed + acc)


def move_options(battle: Any, ship: Ship) -> list[tuple[MoveOption, tuple[Hex, ...]]]:
    """Every end state the ship can reach this round, with the hexes it passes."""
    out = []
    origin, radius = ship.hex, battle.map_radius
    lo, hi = _speed_band(battle, ship)
    for plan, offsets, facing in _plans(battle, ship):
        if not lo <= len(offsets) <= hi:
            continue
        hexes = tuple(origin + h for h in offsets)
        end = hexes[-1] if hexes else origin
        if radius is not None and end.length() > radius:
            continue
        out.append((MoveOption(plan, (end.q, end.r), facing), hexes))
    return out


TOW_CAPACITY = 2
"""PROPOSED: a helm moves up to this many times its own ship's tonnage (SJ 14 gives none)."""


def towed_by(battle: Any, ship: Ship) -> list[Ship] | None:
    """The ships ``ship`` drags along when it moves, or ``None`` if it cannot move (SJ 14).

    Grappled ships are immobilised unless one tows: only the stronger helm (higher SR)
    works, and it must move the combined tonnage.
    """
    held = [o for o in ship.grapples if o.fighting and ship.grappled_with(o)]
    if held and ship.ship_policies.maneuver.intent not in ("flee", "shoot"):
        return None  # a ship alongside to fight stays alongside
    if any(battle.boarders_on(s) for s in (ship, *held)):
        return None  # nobody takes the helm away from a deck fight
    for other in held:
        mover = tow(
            ship.sr,
            other.sr,
            TOW_CAPACITY * ship.tons,
            TOW_CAPACITY * other.tons,
            ship.tons + sum(o.tons for o in held if o is not other),
            other.tons,
        )
        if mover != "a":
            return None
    return held


def move_ship(battle: Any, ship: Ship) -> None:
    """The ship's move this turn: its maneuver policy picks a plan; debris on the way."""
    ship.moved = 0
    ship.memory["wake"] = ()
    towing = towed_by(battle, ship) if ship.sr > 0 else None
    if towing is None:
        ship.speed = 0
        return
    options = move_options(battle, ship)
    if not options:
        return
    paths = {o.plan: p for o, p in options}
    choice = ship.ship_policies.maneuver.choose_move(ship, battle, [o for o, _ in options])
    if not choice.plan:
        ship.speed = 0
        return
    start = ship.hex
    path = paths[choice.plan]
    for other in list(ship.grapples):  # too few lines: leaving the hex breaks them
        if not ship.grappled_with(other):
            battle.release(ship, other, "lines snap as she pulls away")
    ship.moved = ship.speed = len(path)
    ship.memory["wake"] = (start, *path[:-1])  # where a jettison drops its rubble
    battle.place(ship, Hex(*choice.end), choice.facing)
    for other in towing:
        battle.place(other, ship.hex, other.facing)
        other.speed = 0
        battle.record(ship.name, "tow", other.name, (), (), (("result", "tows"),))
    battle.record(
        ship.name,
        "maneuver",
        None,
        (),
        (("sr", ship.sr),),
        (
            ("result", choice.plan),
            ("from", (start.q, start.r)),
            ("to", choice.end),
            ("facing", choice.facing),
        ),
    )
    _debris(battle, ship, path)


_JETTISON = {"small": "1d4", "medium": "1d6", "large": "1d8"}


def _debris(battle: Any, ship: Ship, path: tuple[Hex, ...]) -> None:
    hazard = debris_hazard(len(path))
    for h in path:
        if h not in battle.debris or not ship.fighting:
            continue
        if hazard is not None:
            hit = resolve_attack(0, ship.spec.armour_class, battle.close_rng, None).hit
            dmg = Dice.parse(_JETTISON[hazard]).roll(battle.close_rng) if hit else 0
            battle.record(
                ship.name,
                "debris",
                None,
                (),
                (),
                (("result", "struck" if hit else "clear"), ("damage", dmg)),
            )
            if dmg:
                damage_ship(battle, ship, dmg, dmg, "debris")
        if battle.debris[h] and ship.fighting:
            apply_effect(battle, ship, fx.Fire(0), "burning debris")


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
        left_and_reentered=False,
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
    res = resolve_attack(d20_bonus(ship.helm), foe.spec.armour_class, rng, None)
    kind = ship.spec.ram
    assert kind != "none"  # ram() returns early for ships without a ram
    out = ram_outcome(
        kind,
        ship.tons,
        battle.options.sj.lock_pct_per_10_tons,
        battle.options.sj.shaken_dexterity_dc,
    )
    dice = ram_damage_dice(Dice.parse(ship.spec.ram_dice or "2d6"), foe.gargantuan)
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
        battle.lash(ship, foe, chains=True)


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
        (("ram", ship.spec.ram),),
        (("result", "hit" if att.rams else "miss"), ("rd", att.rd)),
    )
    if not att.rams:
        return
    opts = battle.options.ship
    rel = max(1, ship.moved)
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
        battle.lash(ship, foe, chains=True)


def crash(battle: Any, a: Ship, b: Ship) -> None:
    """Two ships in one hex may crash: the smaller into the larger unless its helm avoids it."""
    crasher, other = (a, b) if crashing_ship(a.tons, b.tons) == "a" else (b, a)
    sj = battle.options.sj
    bonus = None if crasher.sr == 0 else d20_bonus(crasher.helm)
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
    damage_ship(battle, other, res.other_damage, res.other_damage // 2, crasher.name)
    if res.other_shaken and other.fighting:
        apply_effect(
            battle,
            other,
            fx.Shaken(fx.Check("dexterity", sj.shaken_dexterity_dc, "d20")),
            crasher.name,
        )
    damage_ship(battle, crasher, res.crasher_loss, res.crasher_loss // 2, "crash")
    if crasher.fighting:
        _crash_casualties(battle, crasher)


def _crash_casualties(battle: Any, ship: Ship) -> None:
    """Everyone aboard a crashing ship saves or takes 1d6 a ton (max 20d6), half on a save;
    a crewman dies when it reaches his average hit points (HD x 4.5, PROPOSED)."""
    rng, dc = battle.close_rng, battle.options.sj.crash_save_dc
    lost = 0
    for crew in battle.crews_on(ship):
        dead = sum(
            1
            for _ in range(crew.count)
            if 2 * resolve_crash_crew_damage(ship.tons, 0, rng, dc)[1] >= 9 * crew.stats.hd
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
        d20_bonus(ship.helm), foe.spec.armour_class, foe.shear_losses, battle.close_rng
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
    """Throw grappling hooks: one per hand up to the lines needed, each vs AC 10 (SJ 12)."""
    needed = lines_to_grapple(ship.tons, foe.tons, battle.options.sj.grapple_lines_rounding)
    have = ship.grapples.get(foe, 0)
    throws = min(needed - have, battle.crew_heads_home(ship))
    if throws <= 0:
        return
    bonus = battle.crew_bonus(ship)
    caught = sum(
        1 for _ in range(throws) if resolve_attack(bonus, LINE.ac, battle.close_rng, None).hit
    )
    battle.add_lines(ship, foe, caught)
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
    """The crew hacks at the lines (AC 10, 5 hp; chains AC 4, 20 hp), two hands a line."""
    lines = ship.grapples.get(foe, 0)
    if lines <= 0:
        return
    rope = CHAIN if battle.is_locked(ship, foe) else LINE
    tries = min(lines, max(1, battle.crew_heads_home(ship) // 2))
    bonus = battle.crew_bonus(ship)
    axe = Dice(1, 6)
    cut = sum(1 for _ in range(tries) if cut_line(bonus, axe, rope, rope.hp, battle.close_rng).cut)
    if cut:
        battle.add_lines(ship, foe, -cut)
    battle.record(
        ship.name,
        "cut_lines",
        foe.name,
        (),
        (("tries", tries),),
        (
            ("result", "free" if not ship.grappled_with(foe) else "still grappled"),
            ("cut", cut),
            ("left", ship.grapples.get(foe, 0)),
        ),
    )


def board(battle: Any, ship: Ship, foe: Ship) -> None:
    """Boarders at the gunwale swarm across (the round after grappling, SJ 12).

    A very dangerous boarding (PROPOSED: the enemy deck holds at least twice the party's
    heads) calls a morale check first; a crew that fails refuses (``to_board``).
    """
    party = battle.boarding_party(ship)
    if not party:
        return
    heads = sum(m.headcount for m in party)
    if battle.boarders_defending(foe) >= 2 * heads:
        for m in list(party):
            if isinstance(m, Crew) and not m.morale_holds("a very dangerous boarding"):
                assert morale_failure("to_board") == "refuse"
                party.remove(m)
                battle.record(m.name, "refuse", foe.name, (), (), (("result", "refuses to board"),))
        heads = sum(m.headcount for m in party)
    if not party:
        return
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
