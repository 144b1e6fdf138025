"""Men waiting in ranks: the way forward through a crowd, and who blocked it last time.

A fighter whose move ends where another stands looks for another place (personal-combat.md
5; PROPOSED in :mod:`~fadad_agents.agents.core.moving`): a free place round its target,
else a free spot a little short of its goal or a step aside; finding none, it waits.

In a deep block most fighters find every way blocked round after round, so the search is
made cheap where the crowd has not changed (the battle is the same either way):

* a fighter remembers the search that blocked it (:class:`Blocked`); while its place, goal
  and allowance are the same, a place whose blocker stands where it stood is still taken
  (a spot stays taken while whoever took it stands there): only the places whose blocker
  moved or left are measured again, none at all while nobody did
  (:data:`REMEMBER_BLOCKED`);
* otherwise each place it tries is measured against the fighters filed under its square
  of the elbow-room index, whoever stands in that square first (one measurement usually
  settles it); with a giant on the field (no such index), first against whoever stood in
  the same try last time (a hint: ranks shift little), then every fighter near the place;
* once numba is loaded (by anything), a search's places are worked out and measured in
  one compiled call, against the field mirrored in arrays
  (:mod:`~fadad_agents.agents.core.crowd.occupied`), and so are a remembered search's
  places measured again; the field then keeps no elbow-room index;
* before the first move of a round, the searches of the many fighters whose way changed
  (their target fell or stepped) are measured together, in arrays
  (:mod:`~fadad_agents.agents.core.crowd.ahead`): each gets the memo its own search
  would have left, and its turn checks only whether those blockers still stand there.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Sequence
from functools import lru_cache
from operator import attrgetter
from typing import Any, NamedTuple

import numpy as np

from fadad_agents.agents.core.base import Status
from fadad_agents.agents.core.field import ELBOW_ROOM, HALO_SPAN, HALO_YARDS
from fadad_agents.agents.core.field.measures import SQUARES_HIGH, SQUARES_LOW
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

_ROUNDING, _ROUNDING_YARDS = 1 + 1e-9, 1e-6
"""A share and yards more than floating point can move a place measured (no place is
taken as near enough to go unmeasured unless it is nearer by both). The places round a
target and the sidesteps are measured by ``**`` (``pow``), as they always were, but ``**``
is called only where ``*`` might decide otherwise (:data:`SQUARES_LOW`,
:data:`SQUARES_HIGH`)."""

_NO_HINTS: tuple[Any, ...] = ()

COMPILED_PLACES = True
"""Once numba is loaded (by anything), a search's places are worked out in compiled code
(:mod:`~fadad_agents.agents.core.crowd.places`), and measured there against the field in
arrays (:mod:`~fadad_agents.agents.core.crowd.occupied`) where it keeps them. Off (tests
only), always in Python: the same places, the same battle."""

_places: Any = None  # crowd.places once imported (numba loaded)

_occupied: Any = None  # crowd.occupied once imported (numba loaded)

_remembered: Any = None  # crowd.remembered, imported with it

_NO_TURNS = np.empty(0)  # no places round a target (the move does not reach it)

_UNASKED = object()  # the elbow-room index not yet asked for

_memo = tuple.__new__

_POSITION = attrgetter("position")

FIGHTING = Status.FIGHTING


@lru_cache(maxsize=256)
def ring(defender_radius: float, attacker_radius: float) -> tuple[float, int]:
    """The angle one attacker takes round a defender, and how many such places there are."""
    slots = melee_slots(defender_radius, attacker_radius)
    return 2 * math.pi / slots, slots


@lru_cache(maxsize=256)
def _turns_array(defender_radius: float, attacker_radius: float) -> Any:
    """:func:`_ring_turns` in an array (compiled code reads it)."""
    return np.array(_ring_turns(defender_radius, attacker_radius), dtype=np.float64)


@lru_cache(maxsize=256)
def _ring_turns(defender_radius: float, attacker_radius: float) -> tuple[float, ...]:
    """The turns from the place straight ahead (which was taken) to each other place
    round a defender (:func:`ring`), in the order tried: one place each way, then two
    ... (the angles of :func:`_places_round`, worked out once)."""
    step, slots = ring(defender_radius, attacker_radius)
    return tuple((k + 1) // 2 * step * (1 if k % 2 else -1) for k in range(1, slots))


class Blocked(NamedTuple):
    """Where a fighter found every way blocked: its place, goal, allowance, the target
    (and where it stood) whose places it tried; every place it tried in order (``x, y``
    flat: the first ``1 + ring`` the end of its move and the places round its target), who
    stood in each and where that one stood; whom it chased (its target) and where that one
    stood; and the way it searched (``moving``'s remembered way, None if not remembered:
    while the fighter's way is that very one, the search is the same). Few objects for the
    collector: one memo per fighter in the ranks, its places floats in one list.

    A memo made ahead (:func:`measure_ahead`) may know blockers for only the first few
    places (``tried`` shorter): the place after them was free then; it is measured on the
    fighter's turn, and those after it if it was taken meanwhile. A memo of a compiled
    search keeps its blockers in the field's mirror instead (``tried`` None:
    :mod:`~fadad_agents.agents.core.crowd.remembered`)."""

    here: tuple[float, float]
    goal: tuple[float, float]
    allowance: float
    target: Any
    target_at: Any
    spots: Sequence[float]
    ring: int
    tried: Any
    stood: Any
    chased: Any
    chased_at: Any
    way: Any

    @classmethod
    def of(  # ``tried``: who stood in each place, or (mirror, kept) of crowd.remembered
        cls, here: Any, goal: Any, allowance: float, target: Any, at: Any,
        spots: Sequence[float], ring: int, tried: Any, chased: Any, way: Any = None,
    ) -> Blocked:  # fmt: skip
        stood: Any = tried
        if type(tried) is tuple:  # kept in the mirror (occupied.REMEMBERED)
            tried = None
        else:
            stood = list(map(_POSITION, tried))  # and tuple.__new__: a blocked search each
        seen = None if chased is None else chased.position
        fields = (here, goal, allowance, target, at, spots, ring, tried, stood, chased, seen, way)
        return _memo(cls, fields)

    def retry(self, actor: Any, field: Any) -> tuple[float, float] | None:
        """The same search again, measuring only the places whose blocker moved or left (a
        place stays taken while whoever took it stands there, fighting): the first free
        place in order, or None, the memo brought up to date, if all are still taken."""
        tried, stood, spots, ring = self.tried, self.stood, self.spots, self.ring
        if tried is None:  # kept in the field's mirror: measured there, else afresh
            found = _remembered.recheck(self, actor, field)
            if found is not _remembered.AFRESH:  # else its mirror is gone: measured afresh
                return found  # type: ignore[no-any-return]
            return _first_free(actor, field, list(map(float, spots)), ring, (), [])
        halo: Any = _UNASKED
        occupied: Any = None
        r = actor.radius
        for k, other in enumerate(tried):
            if other.position is stood[k] and other.status is FIGHTING:
                continue
            x, y = spots[2 * k], spots[2 * k + 1]  # _first_free of this place alone
            if halo is _UNASKED:
                occupied = field.occupancy()  # the field in arrays, kept instead of the index
                halo = None if occupied else field.elbow_index(actor)
            if occupied:
                found = occupied.standing_at(actor, x, y, 0 < k <= ring)
            elif halo is None or 0 < k <= ring:
                measured: list[Any] = []
                _first_free(actor, field, spots, ring, (), measured, k, k + 1)
                found = measured[0]
            else:  # as _first_free in the elbow-room index, inlined: ~30,000 a round in a crowd
                for found in halo.get(x // HALO_YARDS * HALO_SPAN + y // HALO_YARDS, ()):
                    if found.status is FIGHTING and found is not actor:
                        ox, oy = found.position
                        ox -= x
                        oy -= y
                        room = (r + found.radius) * ELBOW_ROOM
                        if ox * ox + oy * oy < room * room:
                            break
                else:
                    found = None
            if found is None:
                return x, y
            tried[k], stood[k] = found, found.position
        if 2 * len(tried) == len(spots):
            return None
        more: list[Any] = []
        place = _first_free(actor, field, spots, ring, (), more, len(tried))
        if place is None:  # the places never measured are taken too
            tried += more
            stood += [other.position for other in more]
        return place


def way_forward(
    actor: Any,
    field: Any,
    goal: tuple[float, float],
    gap: float,
    yards: float,
    allowance: float,
    target: Any,
    way: Any = None,
    memo: Any = _UNASKED,
    step: bool = False,
) -> tuple[float, float] | None:
    """Where a move of ``yards`` toward ``goal`` (``gap`` away) ends: the full move if
    its end is free; else, with ``target`` (the move reaches it), the free place round it
    nearest the actor's side within ``allowance``; else the first free spot of
    :func:`_way_spots`; None if every one is taken (it waits where it stands). ``way``:
    the remembered way these come from, kept in the memo (:class:`Blocked`); ``memo``:
    the actor's memo if the caller read it already; ``step``: it moves to the place found
    (:func:`~.moving.advance`; :func:`~.crowd.occupied.first_free`'s ``step``)."""
    here = actor.position
    at = None if target is None else target.position
    known: Blocked | None = None
    if REMEMBER_BLOCKED:
        known = actor.memory.get("blocked") if memo is _UNASKED else memo
    hints: list[Any] | tuple[Any, ...] = _NO_HINTS
    if known is not None:
        if (  # the same search: the same places in the same order
            known.here == here
            and known.goal == goal
            and known.allowance == allowance
            and known.target is target
            and known.target_at == at
        ):
            return known.retry(actor, field)
        hints = known.tried or _NO_HINTS
    tried: list[Any] = []
    compiled = None
    if COMPILED_PLACES and (_places is not None or "numba" in sys.modules):
        searched = _compiled_search(actor, field, target, goal, gap, yards, allowance, step)
        if searched is not None:  # numba loaded: every place at once, compiled
            place, spots, ring, tried = searched
            if place is None:
                actor.memory["blocked"] = Blocked.of(
                    here, goal, allowance, target, at, spots, ring, tried, actor.target, way
                )
            return place
        compiled = _compiled_places(actor, field, target, (goal, gap, yards, allowance))
    if compiled is not None:
        spots, ring = compiled
        place = _first_free(actor, field, spots, ring, hints, tried)
    else:
        spots = [  # x, y of each place in the order tried, flat (floats: nothing to collect)
            here[0] + (goal[0] - here[0]) * yards / gap,
            here[1] + (goal[1] - here[1]) * yards / gap,
        ]
        if target is not None:
            _places_round(actor, target, field, allowance, spots)
        ring = len(spots) // 2 - 1
        place = _first_free(actor, field, spots, ring, hints, tried)
        if place is None:  # the spots short of the goal, worked out only when needed
            _way_spots(actor, field, here, goal, gap, yards, spots)
            place = _first_free(actor, field, spots, ring, hints, tried, ring + 1)
    if place is None:
        actor.memory["blocked"] = Blocked.of(
            here, goal, allowance, target, at, spots, ring, tried, actor.target, way
        )
    return place


def _compiled_search(
    actor: Any, field: Any, target: Any, goal: Any, gap: float, yards: float, allowance: float,
    step: bool = False,
) -> tuple[tuple[float, float] | None, list[float], int, list[Any]] | None:  # fmt: skip
    """:func:`way_forward`'s search for a move toward ``goal`` (``gap``, ``yards`` and
    ``allowance`` as there) in one compiled call, against the field in arrays
    (:mod:`~fadad_agents.agents.core.crowd.occupied`; asked only once numba is loaded):
    its first free place, else None with its places, how many round the target and who
    stood in each (:func:`~fadad_agents.agents.core.crowd.occupied.first_free`); None
    where the field has no such mirror (a giant on it, or spread too wide) or too many
    places. (:func:`_compiled_way`'s arguments made here: every search of a mover.)"""
    occupied = field.occupancy()  # kept from placement on (squares.MIRRORED), or made here
    if not occupied or _occupied is None:
        if not _mirrored(actor, field):
            return None
        occupied = field.occupancy()
    (hx, hy), width, height = actor.position, field.width, field.height
    bounds = (-1.0 if width is None else float(width), -1.0 if height is None else float(height))
    gx, gy = goal
    r = actor.radius
    if target is None:
        way = (hx, hy, gx, gy, gap, yards, allowance, r, 0.0, 0.0, 0.0, 0.0, _SHUFFLE)
        return _occupied.first_free(actor, occupied, way, _NO_TURNS, bounds, step)  # type: ignore[no-any-return]
    tx, ty = target.position
    reach = r + actor.reach + target.radius - ENGAGE_MARGIN
    edge = (reach + ENGAGE_MARGIN) ** 2  # as _places_round measures the field's edge
    way = (hx, hy, gx, gy, gap, yards, allowance, r, tx, ty, reach, edge, _SHUFFLE)
    turns = _turns_array(target.radius, r)
    return _occupied.first_free(actor, occupied, way, turns, bounds, step)  # type: ignore[no-any-return]


def _mirrored(actor: Any, field: Any) -> bool:
    """Whether the field is mirrored in arrays for :func:`_compiled_search` (made here if
    it is not yet, and the compiled modules imported: numba is loaded)."""
    global _occupied, _places, _remembered
    if _occupied is None:
        from fadad_agents.agents.core.crowd import occupied as module  # numba: loaded
        from fadad_agents.agents.core.crowd import remembered

        _occupied, _remembered = module, remembered
    if _places is None:
        from fadad_agents.agents.core.crowd import places  # numba: loaded already

        _places = places
    occupied = field.occupancy()
    if occupied is None:
        if field.elbow_index(actor) is None:
            return False  # a giant on the field: no squares of a man's size
        occupied = _occupied.Occupied.made(field.standing(), field.widest) or False
        field.keep(occupied)
    return bool(occupied)


def _compiled_places(
    actor: Any, field: Any, target: Any, move: tuple[Any, float, float, float]
) -> tuple[list[float], int] | None:
    """:func:`way_forward`'s places (``x, y`` flat) for a ``move`` (its goal, gap, yards
    and allowance) and how many round the target, worked out in compiled code
    (:mod:`~fadad_agents.agents.core.crowd.places`; asked only once numba is loaded);
    None if there are too many (Python works them out, the same places)."""
    way = _compiled_way(actor, field, target, move)  # first: it imports _places
    return _places.spots_of(*way)  # type: ignore[no-any-return]


def _compiled_way(
    actor: Any, field: Any, target: Any, move: tuple[Any, float, float, float]
) -> tuple[tuple[float, ...], Any, tuple[float, float]]:
    """The arguments of :func:`~fadad_agents.agents.core.crowd.places.spots_of` for a
    ``move`` (its goal, gap, yards and allowance)."""
    global _places
    if _places is None:
        from fadad_agents.agents.core.crowd import places  # numba: loaded already

        _places = places
    (hx, hy), width, height = actor.position, field.width, field.height
    goal, gap, yards, allowance = move
    bounds = (-1.0 if width is None else float(width), -1.0 if height is None else float(height))
    if target is None:
        way = (hx, hy, *goal, gap, yards, allowance, actor.radius, 0.0, 0.0, 0.0, 0.0, _SHUFFLE)
        return way, _NO_TURNS, bounds
    tx, ty = target.position
    reach = actor.radius + actor.reach + target.radius - ENGAGE_MARGIN
    edge = (reach + ENGAGE_MARGIN) ** 2  # as _places_round measures the field's edge
    way = (hx, hy, *goal, gap, yards, allowance, actor.radius, tx, ty, reach, edge, _SHUFFLE)
    return way, _turns_array(target.radius, actor.radius), bounds


def _first_free(
    actor: Any,
    field: Any,
    spots: Sequence[float],
    ring: int,
    hints: list[Any] | tuple[Any, ...],
    tried: list[Any],
    start: int = 0,
    stop: int | None = None,
) -> tuple[float, float] | None:
    """The first of places ``start`` to ``stop`` of ``spots`` (``x, y`` flat) where nobody
    stands in the actor's elbow room (``Field.blocker``), or None; whoever is found at
    each place is appended to ``tried`` (None where it is free). With the elbow-room
    index, the fighters filed under the place's square are measured, those standing in it
    first (most places are settled by the first); without it, whoever was found in the
    same try last time (``hints``), then in the try before, then everyone near the place.
    Which blocker is found is part of no answer: any one standing within the actor's
    elbow room of the place blocks it.

    The places round the target (places 1 to ``ring``) are measured with squares taken by
    ``**``, as they always were (``x ** 2`` and ``x * x`` differ in the last bit now and
    then: the same battle needs the same arithmetic), called only within a hair of the
    elbow room (:data:`SQUARES_LOW`, :data:`SQUARES_HIGH`), where ``*`` might decide
    otherwise. One call for a run of a search's places, the measuring inlined: a rear rank
    tries a dozen a round. (With the field in arrays kept instead of the index, each place
    is measured there, compiled.)"""
    occupied = field.occupancy()
    if occupied:
        for k in range(start, len(spots) // 2 if stop is None else stop):
            x, y = spots[2 * k], spots[2 * k + 1]
            found = occupied.standing_at(actor, x, y, 0 < k <= ring)
            tried.append(found)
            if found is None:
                return x, y
        return None
    halo = field.elbow_index(actor)
    known = len(hints)
    r = actor.radius
    last = tried[-1] if tried else None  # who blocked the try before
    for k in range(start, len(spots) // 2 if stop is None else stop):
        x, y = spots[2 * k], spots[2 * k + 1]
        by_pow = 0 < k <= ring
        near: Any = (  # halo_key, written out: a rear rank measures a dozen places
            halo.get(x // HALO_YARDS * HALO_SPAN + y // HALO_YARDS, ())
            if halo is not None
            else (hints[k] if k < known else None, last, *field.neighbours(actor, x, y))
        )
        found = None
        for other in near:
            if other is not None and other is not actor and other.status is FIGHTING:
                ox, oy = other.position
                room = (r + other.radius) * ELBOW_ROOM
                ox -= x
                oy -= y
                d, limit = ox * ox + oy * oy, room * room
                if by_pow and limit * SQUARES_LOW <= d <= limit * SQUARES_HIGH:
                    d, limit = ox**2 + oy**2, room**2  # within a hair: as ``**`` decides
                if d < limit:
                    found = other
                    break
        tried.append(found)
        if found is None:
            return x, y
        last = found
    return None


def _places_round(
    actor: Any,
    target: Any,
    field: Any,
    limit: float,
    spots: list[float],
) -> None:
    """Add to ``spots`` (``x, y`` flat) the places round ``target`` within ``limit`` yards
    of the actor where it could strike, besides the one straight ahead, nearest its own
    side of the target first: one man's width at a time each way."""
    (ax, ay), (tx, ty) = actor.position, target.position
    reach = actor.radius + actor.reach + target.radius - ENGAGE_MARGIN
    base = math.atan2(ay - ty, ax - tx)
    edge = (reach + ENGAGE_MARGIN) ** 2
    most = limit * limit
    cos, sin = math.cos, math.sin
    bounded = field.width is not None or field.height is not None
    # On open ground every place lies within the actor's gap to the target plus reach:
    # short of the limit by more than rounding, none is measured against it.
    far = bounded or (math.hypot(ax - tx, ay - ty) + reach) * _ROUNDING + _ROUNDING_YARDS >= limit
    for turn in _ring_turns(target.radius, actor.radius):
        angle = base + turn
        x, y = tx + reach * cos(angle), ty + reach * sin(angle)
        if bounded:
            x, y = field.clamp(x, y)
            if (x - tx) ** 2 + (y - ty) ** 2 > edge:
                continue  # the field's edge cuts this place off
        if far:
            dx, dy = x - ax, y - ay
            d = dx * dx + dy * dy
            if most * SQUARES_LOW <= d <= most * SQUARES_HIGH:
                d = dx**2 + dy**2  # within a hair: as ``**`` decides
            if d > most:
                continue  # too far to go
        spots += x, y


def _way_spots(
    actor: Any,
    field: Any,
    here: Any,
    goal: Any,
    gap: float,
    yards: float,
    spots: list[float],
) -> None:
    """Add to ``spots`` (``x, y`` flat) where a move of ``yards`` toward ``goal`` may end,
    in the order tried (the first free wins: no two stand in one place): the full move,
    then a man's width to either side of its end (it steps round whoever stands there),
    then 1, 2, 4 ... yards short, each with its two sidesteps, no shuffle shorter than
    :data:`_SHUFFLE` (PROPOSED: those behind wait in ranks)."""
    hx, hy = here
    dx, dy = (goal[0] - hx) / gap, (goal[1] - hy) / gap
    side = 2 * actor.radius  # a man's width across the way
    sx, sy = -dy * side, dx * side
    bounded = field.width is not None or field.height is not None
    most = yards * yards
    low, high = most * SQUARES_LOW, most * SQUARES_HIGH  # ``**`` only within a hair of the limit
    step = yards
    short = 1.0
    while True:
        x, y = hx + dx * step, hy + dy * step
        spots += x, y
        for px, py in ((x + sx, y + sy), (x - sx, y - sy)):
            if bounded:
                px, py = field.clamp(px, py)
            ox, oy = px - hx, py - hy
            d = ox * ox + oy * oy
            if d < low or (d <= high and ox**2 + oy**2 <= most):
                spots += px, py
        step = yards - short
        if step < _SHUFFLE:
            break
        short *= 2
