"""Men waiting in ranks: the way forward through a crowd, and who blocked it last time.

A fighter whose move ends where another stands looks for another place (personal-combat.md
5; PROPOSED in :mod:`~fadad_agents.agents.core.moving`): a free place round its target,
else a free spot a little short of its goal or a step aside; finding none, it waits.

In a deep block most fighters find every way blocked round after round, so the search is
made cheap where the crowd has not changed (the battle is the same either way):

* a fighter remembers the search that blocked it (:class:`Blocked`); while its place, goal
  and allowance are the same and everyone who blocked it stands where it stood, it is
  still blocked (a spot stays taken while whoever took it stands there) and skips the
  search (:data:`REMEMBER_BLOCKED`);
* otherwise each place it tries is first measured against whoever stood in the same try
  last time (a hint: ranks shift little, so one measurement usually settles it), and only
  then against every fighter near the place.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any, NamedTuple

from fadad_agents.agents.core.base import Status
from fadad_agents.agents.core.field import ELBOW_ROOM
from fadad_agents.rules.personal.movement import melee_slots

__all__ = ["REMEMBER_BLOCKED", "Blocked", "way_forward"]

REMEMBER_BLOCKED = True
"""A fighter that found every way blocked remembers who blocked it and skips the search
while nothing it depended on changed; and its next search tries last time's blockers
first. Off (tests only), every search is made afresh: the same battle, slower in a crowd."""

ENGAGE_MARGIN = 0.01
"""Yards inside full reach where a closing fighter stops (so rounding keeps contact)."""

_SHUFFLE = 0.25
"""Yards: a fighter blocked short of its goal does not shuffle forward less than this."""

_NO_HINTS: tuple[Any, ...] = ()

FIGHTING = Status.FIGHTING


@lru_cache(maxsize=256)
def ring(defender_radius: float, attacker_radius: float) -> tuple[float, int]:
    """The angle one attacker takes round a defender, and how many such places there are."""
    slots = melee_slots(defender_radius, attacker_radius)
    return 2 * math.pi / slots, slots


class Blocked(NamedTuple):
    """Where a fighter found every way blocked: its place, goal, allowance, the target
    (and where it stood) whose places it tried, each fighter found in its way and where
    each stood, and who stood in each place tried, in order (the next search's hints).
    Few objects for the collector: one memo per fighter in the ranks."""

    here: tuple[float, float]
    goal: tuple[float, float]
    allowance: float
    target: Any
    target_at: Any
    blockers: tuple[Any, ...]
    places: tuple[Any, ...]
    tried: tuple[Any, ...]

    @classmethod
    def of(
        cls, here: Any, goal: Any, allowance: float, target: Any, at: Any, tried: list[Any]
    ) -> Blocked:
        blockers = tuple(dict.fromkeys(tried))  # each once, in the order found
        places = tuple([other.position for other in blockers])
        return cls(here, goal, allowance, target, at, blockers, places, tuple(tried))

    def still_there(self) -> bool:
        """Everyone who blocked the way stands where it stood: still on the field (only
        those fighting are) and not moved (a move sets a new position)."""
        for other, position in zip(self.blockers, self.places, strict=True):
            if other.position is not position or other.status is not FIGHTING:
                return False
        return True


def way_forward(
    actor: Any,
    field: Any,
    goal: tuple[float, float],
    gap: float,
    yards: float,
    allowance: float,
    target: Any,
) -> tuple[float, float] | None:
    """Where a move of ``yards`` toward ``goal`` (``gap`` away) ends: the full move if
    its end is free; else, with ``target`` (the move reaches it), the free place round it
    nearest the actor's side within ``allowance``; else the first free spot of
    :func:`_free_spot`; None if every one is taken (it waits where it stands)."""
    here = actor.position
    at = None if target is None else target.position
    memo = actor.memory.get("blocked") if REMEMBER_BLOCKED else None
    if memo is not None:
        if (  # the same way blocked as last time: nobody who blocked it then has moved
            memo.here == here
            and memo.goal == goal
            and memo.allowance == allowance
            and memo.target is target
            and memo.target_at == at
            and memo.still_there()
        ):
            return None
        hints = memo.tried
    else:
        hints = _NO_HINTS
    tried: list[Any] = []
    x, y = here[0] + (goal[0] - here[0]) * yards / gap, here[1] + (goal[1] - here[1]) * yards / gap
    if _in_the_way(actor, x, y, field, hints, tried) is None:
        return x, y
    place = None if target is None else _free_place(actor, target, field, allowance, hints, tried)
    if place is None:
        place = _free_spot(actor, field, here, goal, gap, yards, hints, tried)
    if place is None:
        actor.memory["blocked"] = Blocked.of(here, goal, allowance, target, at, tried)
    return place


def _in_the_way(
    actor: Any,
    x: float,
    y: float,
    field: Any,
    hints: tuple[Any, ...],
    tried: list[Any],
    round_target: bool = False,
) -> Any | None:
    """Whoever stands where ``actor`` would stand at ``(x, y)`` (``Field.blocker``), or
    None; recorded in ``tried``. The fighter found in the same try last time is measured
    first: standing within the actor's elbow room of the place, it blocks it.

    A place round the target (``round_target``) is measured with squares taken by ``**``,
    as it always was (``x ** 2`` and ``x * x`` differ in the last bit now and then: the
    same battle needs the same arithmetic)."""
    k = len(tried)
    for hint in (hints[k] if k < len(hints) else None, tried[-1] if k else None):
        if hint is not None and hint.status is FIGHTING:  # hint.fighting, inlined (hot)
            hx, hy = hint.position
            room = (actor.radius + hint.radius) * ELBOW_ROOM
            if round_target:
                if (hx - x) ** 2 + (hy - y) ** 2 < room**2:
                    tried.append(hint)
                    return hint
            else:
                hx -= x
                hy -= y
                if hx * hx + hy * hy < room * room:
                    tried.append(hint)
                    return hint
    if round_target:
        found = _standing_at(field.neighbours(actor, x, y), actor, x, y)
    else:
        found = field.blocker(actor, x, y)
    tried.append(found)
    return found


def _standing_at(near: list[Any], actor: Any, x: float, y: float) -> Any | None:
    """Whoever of ``near`` stands in the actor's way at a place round its target."""
    r = actor.radius
    for o in near:
        if o is not actor:
            ox, oy = o.position
            if (ox - x) ** 2 + (oy - y) ** 2 < ((r + o.radius) * ELBOW_ROOM) ** 2:
                return o
    return None


def _free_place(
    actor: Any,
    target: Any,
    field: Any,
    limit: float,
    hints: tuple[Any, ...],
    tried: list[Any],
) -> tuple[float, float] | None:
    """The free place round ``target`` within ``limit`` yards of the actor where it can
    strike, nearest its own side of the target first, trying the places round it one
    man's width at a time each way, each tested against the fighters near it; None if
    every one is taken (it is surrounded)."""
    (ax, ay), (tx, ty) = actor.position, target.position
    reach = actor.radius + actor.reach + target.radius - ENGAGE_MARGIN
    step, slots = ring(target.radius, actor.radius)
    base = math.atan2(ay - ty, ax - tx)
    edge = (reach + ENGAGE_MARGIN) ** 2
    most = limit * limit
    for k in range(1, slots):  # the place straight ahead (k = 0) was taken
        angle = base + (k + 1) // 2 * step * (1 if k % 2 else -1)  # +1, -1, +2 ...
        x, y = field.clamp(tx + reach * math.cos(angle), ty + reach * math.sin(angle))
        if (x - tx) ** 2 + (y - ty) ** 2 > edge or (x - ax) ** 2 + (y - ay) ** 2 > most:
            continue  # the field's edge cuts this place off, or it is too far to go
        if _in_the_way(actor, x, y, field, hints, tried, round_target=True) is None:
            return x, y
    return None


def _free_spot(
    actor: Any,
    field: Any,
    here: Any,
    goal: Any,
    gap: float,
    yards: float,
    hints: tuple[Any, ...],
    tried: list[Any],
) -> tuple[float, float] | None:
    """Where a move of ``yards`` toward ``goal`` ends: as far along the way as a spot is
    free of other fighters (no two stand in one place): the full move, else a man's
    width to either side of its end (it steps round whoever stands there), else 1, 2,
    4 ... yards short, each with its two sidesteps; no shuffle shorter than
    :data:`_SHUFFLE`, else None: it stays where it stands (PROPOSED: those behind wait
    in ranks)."""
    dx, dy = (goal[0] - here[0]) / gap, (goal[1] - here[1]) / gap
    side = 2 * actor.radius  # a man's width across the way
    sx, sy = -dy * side, dx * side
    bounded = field.width is not None or field.height is not None
    step = yards
    short = 1.0
    while True:
        x, y = here[0] + dx * step, here[1] + dy * step
        if _in_the_way(actor, x, y, field, hints, tried) is None:
            return x, y
        for px, py in ((x + sx, y + sy), (x - sx, y - sy)):
            if bounded:
                px, py = field.clamp(px, py)
            if (px - here[0]) ** 2 + (py - here[1]) ** 2 <= yards * yards and (
                _in_the_way(actor, px, py, field, hints, tried) is None
            ):
                return px, py
        step = yards - short
        if step < _SHUFFLE:
            return None
        short *= 2
