"""Ship movement with facing, towing, and debris on the way.

* Movement: Spelljammer (``ship.damage_model = sj_hull_points``): every legal plan of
  :func:`~fadad_agents.rules.ships.movement.legal_moves` for the ship's SR and current class
  (crew shortage and criticals lower it). FADAD (``fadad_levels``, PROPOSED reading of the
  MS table): up to SR hexes and at most the MS row's faces per round, turns costing no SR.
  Plans are precomputed per (SR, class) relative to facing 0 and rotated, one per end
  state (hex, facing), the shortest kept. The map edge bounds moves. A grappled ship does
  not move (SJ 12) unless she tows (SJ 14, :func:`towed_by`, ``sj.tow_capacity``).
  FADAD speed changes by at most the MS row's acceleration (``ship.fadad_acceleration_limit``).
* Debris (SJ 7.2): a ship entering a debris hex at 2+ hexes this turn is attacked as by a
  jettison (PROPOSED: d20 +0 vs AC, ``sj.debris_attack_bonus``; small 1d4, medium 1d6,
  large 1d8 hull points, ``sj.debris_hull_dice``, the same roll as a FADAD damage number);
  burning debris adds a Fire! critical.
"""

from __future__ import annotations

import itertools
from functools import cache
from typing import Any

from fadad_agents.agents.ships.ship import Ship
from fadad_agents.engine.ships.damage import apply_effect, damage_ship
from fadad_agents.hexmap import DIRECTIONS, Hex, rotate
from fadad_agents.policies.ships.protocols import MoveOption
from fadad_agents.rules.ships import effects as fx
from fadad_agents.rules.ships.close import tow
from fadad_agents.rules.ships.combat import Dice, debris_hazard, resolve_attack
from fadad_agents.rules.ships.fadad_combat import maneuver_row
from fadad_agents.rules.ships.movement import ManeuverClass, legal_moves

__all__ = ["fadad_plans", "move_options", "move_ship", "sj_plans", "towed_by"]


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
    changed by at most the MS row's maximum acceleration (PROPOSED reading of section 2,
    ``ship.fadad_acceleration_limit``)."""
    sr = ship.sr
    opts = battle.options.ship
    if opts.damage_model != "fadad_levels" or not opts.fadad_acceleration_limit:
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


def towed_by(battle: Any, ship: Ship) -> list[Ship] | None:
    """The ships ``ship`` drags along when it moves, or ``None`` if it cannot move (SJ 14).

    Grappled ships are immobilised unless one tows: only the stronger helm (higher SR)
    works, and it must move the combined tonnage: a helm moves up to ``sj.tow_capacity``
    (PROPOSED 2) times its own ship's tonnage (SJ 14 gives no figure).
    """
    held = [o for o in ship.grapples if o.fighting and ship.grappled_with(o)]
    if held and ship.ship_policies.maneuver.intent not in ("flee", "shoot"):
        return None  # a ship alongside to fight stays alongside
    if any(battle.boarders_on(s) for s in (ship, *held)):
        return None  # nobody takes the helm away from a deck fight
    capacity = battle.options.sj.tow_capacity
    for other in held:
        mover = tow(
            ship.sr,
            other.sr,
            capacity * ship.tons,
            capacity * other.tons,
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


_JETTISON_SIZES = ("small", "medium", "large")


def _debris(battle: Any, ship: Ship, path: tuple[Hex, ...]) -> None:
    """Debris on the way attacks the ship (``sj.debris_attack_bonus`` vs her AC) for
    ``sj.debris_hull_dice`` by the jettison size her speed makes it (SJ 7.2, A-60)."""
    hazard = debris_hazard(len(path))
    sj = battle.options.sj
    for h in path:
        if h not in battle.debris or not ship.fighting:
            continue
        if hazard is not None:
            hit = resolve_attack(
                sj.debris_attack_bonus, ship.spec.armour_class, battle.close_rng, None
            ).hit
            dice = sj.debris_hull_dice[_JETTISON_SIZES.index(hazard)]
            dmg = Dice.parse(dice).roll(battle.close_rng) if hit else 0
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
