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

from collections.abc import Callable, Sequence
from functools import cache, lru_cache, partial
from typing import Any

from fadad_agents.agents.ships.ship import Ship
from fadad_agents.engine.ships.damage import apply_effect, damage_ship
from fadad_agents.hexmap import DIRECTIONS, Hex, rotate
from fadad_agents.policies.ships.protocols import MoveOption, MoveOptions
from fadad_agents.rules.ships import effects as fx
from fadad_agents.rules.ships.close import tow
from fadad_agents.rules.ships.combat import Dice, debris_hazard, resolve_attack
from fadad_agents.rules.ships.fadad_combat import ManeuverRow, maneuver_row
from fadad_agents.rules.ships.movement import ManeuverClass, turn_limit_per_hex

__all__ = ["fadad_plans", "move_options", "move_ship", "sj_plans", "towed_by"]


_SEGMENTS = ("", "L", "R", "LL", "RR", "RRR")
"""Turns within one hex without redundancy: never both ways, at most three sides."""
_TURN = {seg: (-1 if seg.startswith("L") else 1) * len(seg) for seg in _SEGMENTS}

type Plans = tuple[tuple[str, tuple[Hex, ...], int], ...]
type SegmentRule = Callable[[int, int, str, bool], bool]
"""Whether a plan may take ``segment`` (its turns in one hex) after ``hexes`` hexes and
``turns`` hex sides turned so far, then end (``final``) or move on into the next hex."""


def _search(sr: int, allowed: SegmentRule) -> Plans:
    """One plan per end state (hex, facing) from the origin facing 0: the shortest, ties to
    fewer hexes, then the first in segment order (as enumerating every plan would pick).

    A search over (hex, facing) per number of hexes entered: two partial plans that reach
    the same hex and facing after as many hexes are alike for what follows, and the shorter
    (fewer turns, so less SR spent) can go wherever the other can, so only it is kept.
    Polynomial in SR (every plan is ``6 ** (hexes + 1)`` of them: SR 12 would be ~10^10).
    """
    best: dict[tuple[Hex, int], tuple[tuple[int, int, tuple[int, ...]], str, tuple[Hex, ...]]]
    best = {}
    layer: dict[tuple[Hex, int], tuple[int, tuple[int, ...], str, tuple[Hex, ...], int]] = {
        (Hex(0, 0), 0): (0, (), "", (), 0)
    }
    for hexes in range(sr + 1):
        ahead: dict[tuple[Hex, int], tuple[int, tuple[int, ...], str, tuple[Hex, ...], int]]
        ahead = {}
        for (pos, facing), (length, order, plan, path, turns) in layer.items():
            for i, segment in enumerate(_SEGMENTS):
                turned = (facing + _TURN[segment]) % 6
                if allowed(hexes, turns, segment, True):
                    key = (length + len(segment), hexes, (*order, i))
                    held = best.get((pos, turned))
                    if held is None or key < held[0]:
                        best[pos, turned] = (key, plan + segment, path)
                if hexes < sr and allowed(hexes, turns, segment, False):
                    step = pos + DIRECTIONS[turned]
                    cand = (length + len(segment) + 1, (*order, i))
                    there = ahead.get((step, turned))
                    if there is None or cand < there[:2]:
                        entered = (*path, step)
                        ahead[step, turned] = (
                            *cand,
                            plan + segment + "F",
                            entered,
                            turns + len(segment),
                        )
        layer = ahead
    ends = sorted((key, plan, path, facing) for (_, facing), (key, plan, path) in best.items())
    return tuple((plan, path, facing) for _, plan, path, facing in ends)


@cache
def sj_plans(sr: int, mc: ManeuverClass, free_turn_counts: bool = True) -> Plans:
    """One legal SJ plan per end state, relative to facing 0: the plans
    :func:`~fadad_agents.rules.ships.movement.legal_moves` allows (1 SR a hex or a hex side,
    Perfect turns free, the last turn free; Poor moves before it turns; turns per hex by
    class, the free turn among them with ``sj.free_turn_counts_toward_hex_limit``)."""
    limit, perfect = turn_limit_per_hex(mc), mc is ManeuverClass.PERFECT

    def allowed(hexes: int, turns: int, segment: str, final: bool) -> bool:
        n = len(segment)
        if sr <= 0:
            return final and not n
        if mc is ManeuverClass.POOR and hexes == 0 and n:
            return False  # a Poor ship moves into the hex ahead before it turns
        counted = n - 1 if final and n and not free_turn_counts else n
        if limit is not None and counted > limit:
            return False
        spent = hexes + (0 if perfect else turns)
        if final:
            return spent + (0 if perfect else max(0, n - 1)) <= sr
        return spent + (0 if perfect else n) + 1 <= sr

    return _search(sr, allowed)


@cache
def fadad_plans(sr: int, faces: int) -> Plans:
    """FADAD plans: up to ``sr`` hexes, at most ``faces`` hex sides turned (PROPOSED)."""

    def allowed(hexes: int, turns: int, segment: str, final: bool) -> bool:
        return turns + len(segment) <= faces

    return _search(sr, allowed)


type Oriented = tuple[tuple[tuple[str, int, int, int, int], ...], dict[str, tuple[Hex, ...]]]
"""The plans of :func:`_oriented`, each as (plan, hexes entered, end offset q, end offset r,
facing), and each plan's path as offsets."""


@cache
def _oriented(fadad: bool, sr: int, turning: int, f0: int, free_turn_counts: bool) -> Oriented:
    """The plans rotated to start facing ``f0``."""
    if fadad:
        plans = fadad_plans(sr, turning)
    else:
        plans = sj_plans(sr, ManeuverClass(turning), free_turn_counts)
    offsets_of = {plan: tuple(rotate(h, f0) for h in path) for plan, path, _ in plans}
    ends = []
    for plan, path, facing in plans:
        end = offsets_of[plan][-1] if path else Hex(0, 0)
        ends.append((plan, len(path), end.q, end.r, (facing + f0) % 6))
    return tuple(ends), offsets_of


def _speed_band(battle: Any, ship: Ship, sr: int, row: ManeuverRow | None) -> tuple[int, int]:
    """Hexes the ship may make this round at SR ``sr``: any up to SR (SJ); FADAD: last
    round's speed changed by at most her MS row's (``row``) maximum acceleration (PROPOSED
    reading of section 2, ``ship.fadad_acceleration_limit``)."""
    opts = battle.options.ship
    if opts.damage_model != "fadad_levels" or not opts.fadad_acceleration_limit:
        return 0, sr
    acc = 0 if row is None else row.max_acceleration
    return min(sr, max(0, ship.speed - acc)), min(sr, ship.speed + acc)


def move_options(battle: Any, ship: Ship) -> list[tuple[MoveOption, tuple[Hex, ...]]]:
    """Every end state the ship can reach this round, with the hexes it passes."""
    origin = ship.hex
    moves, offsets, _ = _reachable(battle, ship, ship.sr)
    return [(move, tuple(origin + h for h in offsets[move.plan])) for move in moves]


type Reachable = tuple[
    MoveOptions,
    dict[str, tuple[Hex, ...]],
    dict[str, tuple[tuple[Hex, ...], tuple[Hex, ...]]],
]
"""The moves offered, each plan's path as offsets, and the paths taken so far as hexes
with the wake each leaves (filled as plans are taken: the same start and moves, so the
same hexes)."""


def _reachable(battle: Any, ship: Ship, sr: int) -> Reachable:
    """:func:`move_options` as the moves at SR ``sr``, and each plan's path as offsets from
    the ship's hex (the hexes of the one path taken are made, not those of the dozens
    offered)."""
    here = ship.hex
    # What her plans this turn depend on: the arguments of :func:`_oriented`.
    free = battle.options.sj.free_turn_counts_toward_hex_limit
    plans: tuple[bool, int, int, int, bool]
    if ship.levels_model:  # her MS row, read once for her turns and her speed
        ms = ship.ms
        row = None if ms is None else maneuver_row(ms)
        lo, hi = _speed_band(battle, ship, sr, row)
        plans = (True, sr, 0 if row is None else row.faces, ship.facing, free)
    else:  # SJ: any speed up to SR (what _speed_band says, without reading it twice)
        lo, hi = 0, sr
        plans = (False, sr, int(ship.mc), ship.facing, free)
    return _reachable_from(plans, here.q, here.r, lo, hi, battle.map_radius)


_move = partial(tuple.__new__, MoveOption)
"""``MoveOption._make`` without its Python call (a hundred moves a new ship state)."""


@lru_cache(maxsize=1024)  # a ship's turns repeat much within a sweep (98% of a duel's)
def _reachable_from(
    plans: tuple[bool, int, int, int, bool], q0: int, r0: int, lo: int, hi: int, radius: int | None
) -> Reachable:
    ends, offsets_of = _oriented(*plans)  # (offsets_of: more plans than offered, as good)
    if radius is None or Hex(q0, r0).length() + hi <= radius:  # no move offered leaves the map
        # The same moves, shifted, wherever she is: their shape is what her plans are
        # made of (``_oriented``'s arguments) and her speeds, by value (not the plans'
        # id, which would name other plans were they ever dropped and made again).
        moves = [_move((p, (q0 + q, r0 + r), f)) for p, n, q, r, f in ends if lo <= n <= hi]
        return MoveOptions.of(moves, (q0, r0), (*plans, lo, hi)), offsets_of, {}
    moves = []
    for plan, n, q, r, facing in ends:
        end = Hex(q0 + q, r0 + r)
        if lo <= n <= hi and end.length() <= radius:
            moves.append(MoveOption(plan, (end.q, end.r), facing))
    return MoveOptions.of(moves, (q0, r0), None), offsets_of, {}


def towed_by(battle: Any, ship: Ship) -> Sequence[Ship] | None:
    """The ships ``ship`` drags along when it moves, or ``None`` if it cannot move (SJ 14).

    Grappled ships are immobilised unless one tows: only the stronger helm (higher SR)
    works, and it must move the combined tonnage: a helm moves up to ``sj.tow_capacity``
    (PROPOSED 2) times its own ship's tonnage (SJ 14 gives no figure).
    """
    if not ship.grapples:  # the usual case: free, she tows nobody (no list made a move)
        return None if battle.boarders_on(ship) else ()
    return _towed(battle, ship)


def _towed(battle: Any, ship: Ship) -> list[Ship] | None:
    """:func:`towed_by` of a ship with lines out (apart: its generators' closure cells
    would be made by every ship's every move)."""
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
    sr = ship.sr  # read once: nothing before her move changes it
    towing = towed_by(battle, ship) if sr > 0 else None
    if towing is None:
        ship.speed = 0
        return
    moves, offsets, taken = _reachable(battle, ship, sr)
    if not moves:
        return
    choice = ship.ship_policies.maneuver.choose_move(ship, battle, moves)
    if not choice.plan:
        ship.speed = 0
        return
    start = ship.hex
    held = taken.get(choice.plan)
    if held is None:  # the hexes of the one path taken and her wake, once per start and moves
        path = tuple([start + h for h in offsets[choice.plan]])  # (no closure cell a move)
        held = taken[choice.plan] = (path, (start, *path[:-1]))
    path, wake = held
    for other in list(ship.grapples) if ship.grapples else ():  # too few lines part
        if not ship.grappled_with(other):
            battle.release(ship, other, "lines snap as she pulls away")
    ship.moved = ship.speed = len(path)
    ship.memory["wake"] = wake  # where a jettison drops its rubble
    battle.place(ship, path[-1] if path else start, choice.facing)  # path ends at choice.end
    for other in towing:
        battle.place(other, ship.hex, other.facing)
        other.speed = 0
        battle.record(ship.name, "tow", other.name, (), (), (("result", "tows"),))
    # Every ship's move every round: its log fields are made only if the log is read.
    battle.defer(_maneuver_event, (ship.name, sr, choice, (start.q, start.r)))
    if battle.debris:  # an open sky: nothing to hit on the way
        _debris(battle, ship, path)


def _maneuver_event(name: str, sr: int, choice: MoveOption, start: tuple[int, int]) -> Any:
    """The log fields of a move (actor, action, target, dice, modifiers, outcome)."""
    outcome = (("result", choice.plan), ("from", start), ("to", choice.end))
    return name, "maneuver", None, (), (("sr", sr),), (*outcome, ("facing", choice.facing))


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
