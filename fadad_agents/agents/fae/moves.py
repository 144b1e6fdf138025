"""How a Fae Domains combatant moves, flies and rides, and how its events are logged.

``fae-domains.md`` sections 2 (walk, Move, Run; a held fighter drags its holder along,
section 4) and 6 (glide, dive, fly, climb, swoop; mount commands; an end-of-turn glide may fly into
a fighter or a map obstacle, ``fae.glide_collision``). PROPOSED here: a failed level-out
after a dive (``fae.dive_failed_level_out``) lands the flyer prone at altitude 0, crashes
(fall damage 10 + ``fae.fall_damage_per_yard`` per yard) or leaves it aloft without the
swoop's charge.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from fadad_agents.agents.fae.character import position_xy
from fadad_agents.rules.fae.attack import Defences, damage_sequence, equipment_damage
from fadad_agents.rules.fae.special import (
    DIVE_LEVEL_OUT_BONUS,
    can_drag,
    climb,
    dive,
    end_of_turn_glide,
    fly,
    glide,
)
from fadad_agents.schema.scenario import Obstacle

if TYPE_CHECKING:
    from fadad_agents.agents.fae.arena import FaeArena
    from fadad_agents.agents.fae.character import FaeCharacter

FALL_BASE_DAMAGE = 10
"""SEED (2.1): a dropped fragile item takes a fall of base damage 10."""

__all__ = [
    "FALL_BASE_DAMAGE",
    "approach",
    "drop_item",
    "end_turn_glide",
    "fall_damage",
    "log_event",
    "manoeuvre",
    "obstacle_hit",
    "step_away",
]


def _at(arena: FaeArena) -> tuple[tuple[str, Any], ...]:
    """The exact time (3 decimals) and Fae turn, appended to every Fae event's outcome."""
    return (("at", round(float(arena.now), 3)), ("turn", arena.fae_turn))


def log_event(
    arena: FaeArena,
    c: Any,
    action: str,
    target: Any,
    result: Any,
    dice: tuple[tuple[str, Any], ...] = (),
    mods: tuple[tuple[str, Any], ...] = (),
    more: tuple[tuple[str, Any], ...] = (),
) -> None:
    name = None if target is None else target.name
    count = c.memory.get("count")  # the count of its latest action or defence
    arena.record(
        c.name,
        action,
        name,
        dice,
        (("count", count), *mods),
        (("result", result), *more, *_at(arena)),
    )


# --- moving, flying, mounts ---------------------------------------------------------------


def approach(c: FaeCharacter, target: Any, yards: float, arena: FaeArena, how: str) -> None:
    """Move up to ``yards`` toward ``target`` on the ground plane, stopping at reach.

    A fighter in a basic or limb hold drags its holder along, if it can lift its weight
    (section 4, ``rules.fae.special.can_drag``); else it cannot move at all.
    """
    c.kneeling = False  # one walks on one's feet
    holder = c.held_by
    if holder is not None and not can_drag(c.stats.attributes.strength, holder.size):
        more = (("distance", round(c.distance(target), 2)), ("pinned_by", holder.name))
        log_event(arena, c, how, target, 0.0, more=more)
        return
    tx, ty = getattr(target, "xy", None) or position_xy(target)
    dx, dy = tx - c.xy[0], ty - c.xy[1]
    gap = math.hypot(dx, dy)
    stop = min(c.reach, 1.0) if not c.ranged else c.reach
    step = max(0.0, min(yards, gap - stop))
    if gap > 0 and step > 0:
        c.xy = (c.xy[0] + dx * step / gap, c.xy[1] + dy * step / gap)
        c.position = (round(c.xy[0]), round(c.xy[1]))
        c.turn(dx, dy)
        if holder is not None:  # dragged along, still clinging
            holder.xy, holder.position = c.xy, c.position
    log_event(
        arena, c, how, target, round(step, 2), more=(("distance", round(c.distance(target), 2)),)
    )


def manoeuvre(c: FaeCharacter, target: Any, arena: FaeArena) -> str:
    """A free flight action chosen by the tactics policy (section 6); returns the choice.

    A ``command_mount`` choice is returned unplayed: the caller gives the order
    (:func:`fadad_agents.agents.fae.mount.command`), as mounts build on moves. Each flight
    action is one of the free actions at this count (``fae.free_actions_per_count``).
    """
    move: str = c.fae_policies.tactics.manoeuvre(c, target, arena)
    if move in ("none", "command_mount") or target is None:
        return move
    mr = c.fly_mr or (c.walk_mr if c.stats.can_glide else 0)
    if not mr or not c.take_free():
        return "none"
    tx, ty = getattr(target, "xy", None) or position_xy(target)
    gap = math.hypot(tx - c.xy[0], ty - c.xy[1])
    if move == "dive":
        _dive(c, target, min(mr, gap), arena)
        return move
    state = c.flight
    if move == "climb" and c.fly_mr:
        across = min(float(mr * 4 // 5), max(0.0, gap - 1.0))
        c.flight = climb(state, mr // 2, int(across), mr)
    elif c.fly_mr:
        across = float(int(min(float(mr), max(0.0, gap - 1.0))))
        c.flight = fly(state, int(across), mr)
    else:  # a glider without wings glides (Walk MR, 1 yd of altitude per 3 yd)
        limit = mr * 3 // 2 if state.after_dive else min(mr, state.glide_cap or mr)
        across = float(int(min(float(limit), max(0.0, gap - 1.0))))
        c.flight = glide(state, int(across), mr)
    c.flew = True
    _slide(c, tx, ty, across)
    log_event(arena, c, move, target, c.altitude, more=(("altitude", c.altitude),))
    if c.fae_policies.tactics.manoeuvre(c, target, arena) == "dive" and c.take_free():
        _dive(c, target, 0.0, arena)  # fly in, then swoop
    return move


def _slide(c: FaeCharacter, tx: float, ty: float, yards: float) -> None:
    dx, dy = tx - c.xy[0], ty - c.xy[1]
    gap = math.hypot(dx, dy)
    if gap > 0 and yards > 0:
        k = min(1.0, yards / gap)
        c.xy = (c.xy[0] + dx * k, c.xy[1] + dy * k)
        c.position = (round(c.xy[0]), round(c.xy[1]))
        c.turn(dx, dy)


def _dive(c: FaeCharacter, target: Any, across: float, arena: FaeArena) -> None:
    """Dive to the target's altitude and level out with Aerobatics at +30 (a swoop next).

    A crash (``fae.dive_failed_level_out: crash``) falls from where the dive began."""
    start = c.altitude
    drop = start - getattr(target, "altitude", 0)
    if drop < 1:
        return
    c.flight = dive(c.flight, drop)
    tx, ty = getattr(target, "xy", None) or position_xy(target)
    _slide(c, tx, ty, max(0.0, across - 1.0))
    c.flew = True
    roll = c.test("Aerobatics", DIVE_LEVEL_OUT_BONUS)
    mode = c.opts.dive_failed_level_out
    if roll.check.success:
        c.ran_turn, c.charging = arena.fae_turn, True  # a swoop is a charge (3.3)
        result = "levels out"
    elif mode == "no_swoop":  # pulled up late: aloft, but no charge
        result = "pulls up late"
    else:
        c.flight = type(c.flight)(0)
        c.prone = True
        result = "crashes"
        if mode == "crash":
            _fall(c, start, arena)
    log_event(
        arena,
        c,
        "dive",
        target,
        result,
        (("d100", roll.roll),),
        (("mcs", roll.mcs),),
        (("altitude", c.altitude),),
    )


def fall_damage(yards: int, per_yard: int) -> int:
    """PROPOSED: base damage of a fall of ``yards``: 10 (SEED, a dropped object) + per yard."""
    return FALL_BASE_DAMAGE + per_yard * max(0, yards)


def _fall(c: FaeCharacter, yards: int, arena: FaeArena) -> None:
    """A crash from ``yards`` up: fall damage at margin 100, armour applying (PROPOSED)."""
    res = damage_sequence(
        fall_damage(yards, c.opts.fall_damage_per_yard),
        100,
        Defences(armour_dr=c.armour_dr),
        c.opts,
    )
    log_event(arena, c, "fall", None, res.inflicted, more=(("yards", yards),))
    c.apply(arena, res.inflicted, False, "fall")


def drop_item(c: FaeCharacter, name: str, arena: FaeArena) -> None:
    """Drop ``name`` (default the readied weapon), a free action (2.1). It falls to the
    ground and takes fall damage (10 + ``fae.fall_damage_per_yard`` per yard of altitude,
    PROPOSED) as equipment damage: above its DR it loses DR; at 0 it is broken. Dropped
    standing, it lies at the fighter's feet (a Pick Up action takes it back); dropped from
    the air, it is out of reach below."""
    hands = c.hands
    i = next((k for k, w in enumerate(hands.weapons) if w.name == name), 0 if not name else -1)
    if i < 0 or not hands.weapons:
        log_event(
            arena, c, "drop", None, "nothing to drop", more=(("item", name or None), ("fell", 0))
        )
        return
    item = hands.drop(i)
    lying = hands.ground[-1]
    hit = equipment_damage(lying.dr, fall_damage(c.altitude, c.opts.fall_damage_per_yard))
    lying.dr = hit.dr_after
    if hit.broken or c.altitude > 0:
        hands.ground.remove(lying)
    result = "broken" if hit.broken else "damaged" if hit.excess > 0 else "intact"
    log_event(
        arena,
        c,
        "drop",
        None,
        result,
        more=(("item", item.name), ("fell", c.altitude), ("dr_after", max(0, hit.dr_after))),
    )


def end_turn_glide(c: FaeCharacter, arena: FaeArena) -> None:
    """A flyer that took no flight action glides straight ahead at margin 0 (section 6)."""
    mr = c.fly_mr or (c.walk_mr if c.stats.can_glide else 0)
    if not c.fighting or c.flew or c.altitude <= 0 or not mr:
        return
    if getattr(c, "rider", None) is not None:  # a ridden mount glides with its rider
        return
    before = c.flight
    c.flight = end_of_turn_glide(before, mr)
    hx, hy = c.heading or (1.0, 0.0)
    dist = c.flight.speed
    hit = _glide_collision(c, arena, before.altitude, dist, (hx, hy))
    if hit is not None:
        dist = hit[1]
        c.flight = glide(before, dist, mr)
    c.xy = (c.xy[0] + hx * dist, c.xy[1] + hy * dist)
    c.position = (round(c.xy[0]), round(c.xy[1]))
    log_event(arena, c, "glide", None, dist, more=(("altitude", c.altitude),))
    if hit is None:
        return
    if isinstance(hit[0], Obstacle):
        _hit_obstacle(c, hit[0], arena)
    else:
        _collide(c, hit[0], arena)


def _glide_collision(
    c: FaeCharacter, arena: FaeArena, alt: int, dist: int, heading: tuple[float, float]
) -> tuple[Any, int] | None:
    """What the glide hits first, a fighter or an obstacle, and the whole yards glided
    before reaching it (``fae.glide_collision``, ``fae.glide_hits_terrain``, PROPOSED)."""
    if not c.opts.glide_collision or dist <= 0:
        return None
    fighter = _fighter_in_path(c, arena, alt, dist, heading)
    obstacle = _obstacle_in_path(c, arena, alt, dist, heading)
    if obstacle is not None and (fighter is None or obstacle[0] < fighter[0]):
        return obstacle[1], int(obstacle[0])
    return None if fighter is None else (fighter[1], int(fighter[0]))


def _fighter_in_path(
    c: FaeCharacter, arena: FaeArena, alt: int, dist: int, heading: tuple[float, float]
) -> tuple[float, Any] | None:
    """The first fighter within 1 yd of the glide's path at its altitude then, with the
    yards along the path to it."""
    others = [o for o in (*arena.friends(c.side), *arena.foes(c.side)) if o is not c]
    best: tuple[float, Any] | None = None
    for o in others:
        if not o.fighting or getattr(o, "rider", None) is c or getattr(c, "rider", None) is o:
            continue
        ox, oy = getattr(o, "xy", None) or position_xy(o)
        along = (ox - c.xy[0]) * heading[0] + (oy - c.xy[1]) * heading[1]
        if not 0 < along <= dist:
            continue
        px, py = c.xy[0] + heading[0] * along, c.xy[1] + heading[1] * along
        height = alt - int(along) // 3  # 1 yd of altitude lost per 3 yd glided
        near = math.hypot(ox - px, oy - py) <= 1.0
        if (
            near
            and abs(height - getattr(o, "altitude", 0)) <= 1
            and (best is None or along < best[0])
        ):
            best = (along, o)
    return best


def _obstacle_in_path(
    c: FaeCharacter, arena: FaeArena, alt: int, dist: int, heading: tuple[float, float]
) -> tuple[float, Obstacle] | None:
    """The first map obstacle the glide meets below its height, with the yards to it."""
    if not c.opts.glide_hits_terrain:
        return None
    best: tuple[float, Obstacle] | None = None
    for obstacle in arena.obstacles:
        at = obstacle_hit(c.xy, heading, alt, dist, obstacle)
        if at is not None and (best is None or at < best[0]):
            best = (at, obstacle)
    return best


def obstacle_hit(
    start: tuple[float, float],
    heading: tuple[float, float],
    altitude: int,
    dist: int,
    obstacle: Obstacle,
) -> float | None:
    """Yards along a glide from ``start`` (unit ``heading``, ``altitude``, ``dist`` yd long)
    to the first point within the obstacle's radius + 1 yd (as for fighters) where the
    glider is below its height; None if the glide misses it, passes over it or heads away.

    Altitude falls 1 yd per 3 whole yards glided, so the glider is below ``height`` from
    ``3 * (altitude - height + 1)`` yd on.

    >>> oak = Obstacle(name="old oak", position=(10, 0), radius=1, height=8)
    >>> obstacle_hit((0.0, 0.0), (1.0, 0.0), 5, 12, oak)
    8.0
    >>> obstacle_hit((0.0, 0.0), (1.0, 0.0), 12, 12, oak) is None  # high over its crown
    True
    """
    ox, oy = obstacle.position
    along = (ox - start[0]) * heading[0] + (oy - start[1]) * heading[1]
    if along <= 0:  # behind the glider or level with it: gliding away
        return None
    off = math.hypot(ox - start[0] - heading[0] * along, oy - start[1] - heading[1] * along)
    reach = obstacle.radius + 1.0
    if off > reach:
        return None
    half = math.sqrt(reach * reach - off * off)
    low = 3.0 * max(0, altitude - obstacle.height + 1)  # first yard below its height
    at = max(along - half, 0.0, low)
    return at if at <= min(along + half, float(dist)) else None


def _collision_damage(c: FaeCharacter, victim: Any, size: int, arena: FaeArena) -> None:
    """``victim`` takes base damage half ``size`` at margin 100, armour applying."""
    res = damage_sequence(size // 2, 100, Defences(armour_dr=victim.armour_dr), c.opts)
    log_event(arena, victim, "collision_damage", None, res.inflicted)
    victim.apply(arena, res.inflicted, False, "collision")


def _collide(c: FaeCharacter, other: Any, arena: FaeArena) -> None:
    """Both take base damage half the other's Size at margin 100, armour applying."""
    attrs = getattr(getattr(other, "stats", None), "attributes", None)
    other_size = attrs.size if attrs is not None else 50  # a FADAD fighter: human-sized
    log_event(arena, c, "collision", other, "collides")
    for victim, size in ((c, other_size), (other, c.size)):
        if not hasattr(victim, "apply") or not victim.fighting:
            continue  # a FADAD fighter (mixed scenes) is not hurt by this PROPOSED rule
        _collision_damage(c, victim, size, arena)


def _hit_obstacle(c: FaeCharacter, obstacle: Obstacle, arena: FaeArena) -> None:
    """The glider alone is hurt, as by a fighter of the obstacle's Size (PROPOSED)."""
    more = (("obstacle", True), ("height", obstacle.height), ("altitude", c.altitude))
    log_event(arena, c, "collision", obstacle, "collides", more=more)
    if c.fighting:
        _collision_damage(c, c, obstacle.size, arena)


def step_away(c: FaeCharacter, other: Any, yards: float) -> None:
    """Move ``yards`` straight away from ``other`` (a dodger's sidestep, section 2.2)."""
    ox, oy = getattr(other, "xy", None) or position_xy(other)
    dx, dy = c.xy[0] - ox, c.xy[1] - oy
    gap = math.hypot(dx, dy) or 1.0
    c.xy = (c.xy[0] + dx * yards / gap, c.xy[1] + dy * yards / gap)
    c.position = (round(c.xy[0]), round(c.xy[1]))
