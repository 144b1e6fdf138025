"""A fighter's search for a free place along its way, in compiled code.

:func:`~fadad_agents.agents.core.ranks.way_forward` of a fighter waiting in the ranks, as
the compiled loop of a band's turn makes it (:func:`~.kernels.wait_in_ranks`): the places
along its way in the order Python tries them, each free or taken as Python finds it
(:func:`~.elbows._taken`). Each fighter remembers who blocked each place of its last
search (its memo): while its way is the same, a place stays taken while that one stands
where it stood; once its way changed, the one who blocked a place last time is the first
asked whether it blocks the place now (any blocker will do: a place is taken or not).
"""

from __future__ import annotations

import math
from typing import Any

from fadad_agents.agents.core.crowd.elbows import (
    _BEYOND,
    _FREE,
    Crowd,
    _clamp,
    _closer,
    _taken,
    _within,
    _within_pow,
)
from fadad_agents.agents.core.field import ELBOW_ROOM
from fadad_agents.agents.core.field.caching import njit
from fadad_agents.agents.core.ranks import _SHUFFLE, ENGAGE_MARGIN

__all__ = ["MEMO"]

_UNKNOWN = -2  # a search the arrays cannot make

MEMO = 32
"""Places of a search whose blockers a fighter remembers (``ranks.Blocked``, in arrays):
while its way is the same, a place stays taken while its blocker stands where it stood."""

_MOST_SPOTS = 128
"""Places one search tries at most (a giant's ring has more: Python's)."""


@njit(cache=True)
def _search(
    w: int,
    k: int,
    t: int,
    slots: int,
    planned: int,
    way: Any,
    crowd: Crowd,
    grid: tuple[Any, Any, Any],
    measures: Any,
    memo_key: Any,
    memo: Any,
    spots: Any,
) -> int:
    """``ranks.way_forward`` along ``way`` row ``w`` for fighter ``k`` (target ``t``, with
    ``slots`` places round it, 0: the move does not reach it; ``planned`` movement
    actions): the first of its places (left in ``spots``) where nobody stands, -1 if
    every one is taken, :data:`_UNKNOWN` if the arrays cannot tell.

    The fighter's memo (``memo_key``: its version, target and target's version and
    planned actions when made, and how many places the search has, -1 not known;
    ``memo``: each place's blocker and that one's version then, -1 unknown) answers for a
    place whose blocker has neither moved nor fallen; every other place is measured, and
    its blocker remembered. The places follow from the key (where the fighter and its
    target stand, its actions): while the memo answers for every one, none is worked
    out. Once the key changed, a place's blocker of the last search (still fighting) is
    measured first (``measures[5]``: :data:`~.waiting.ASK_LAST_BLOCKER`): in a block
    that moved a little the same one most often stands there still, and only if it does
    not are the place's squares searched."""
    fighting, version = crowd[4], crowd[5]
    key = memo_key[k]
    known = memo[k]
    if key[0] != version[k] or key[1] != t or key[2] != version[t] or key[3] != planned:
        if key[0] < 0 or not measures[5]:
            known[:] = -1  # never searched (or no blocker asked first): nothing known
        else:  # another way: its blockers kept only as the first to try (none known)
            for s in range(MEMO):
                known[2 * s + 1] = -1
        key[0], key[1], key[2], key[3], key[4] = version[k], t, version[t], planned, -1
    elif 0 <= key[4] <= MEMO and _all_taken(key[4], known, fighting, version):
        return -1
    count, ring = _spots(w, k, t, slots, way, crowd, measures, spots)
    if count < 0:
        return _UNKNOWN
    key[4] = count
    for s in range(count):
        taken = _FREE
        if s < MEMO:
            b = known[2 * s]
            if b >= 0 and fighting[b]:
                if version[b] == known[2 * s + 1]:
                    continue  # its blocker stands where it stood
                if _blocks(k, b, spots[2 * s], spots[2 * s + 1], 0 < s <= ring, crowd, measures):
                    taken = b  # the one who blocked it last time blocks it still
                    if _beyond(spots[2 * s], spots[2 * s + 1], grid, measures[0]):
                        taken = _BEYOND
        if taken == _FREE:
            taken = _taken(k, spots[2 * s], spots[2 * s + 1], 0 < s <= ring, crowd, grid, measures)
        if taken == _BEYOND:
            return _UNKNOWN
        if taken == _FREE:
            return s
        if s < MEMO:
            known[2 * s], known[2 * s + 1] = taken, version[taken]
    return -1


@njit(cache=True)
def _all_taken(count: int, known: Any, fighting: Any, version: Any) -> bool:
    """Whether the memo ``known`` answers for each of a search's ``count`` places: its
    blocker still fighting where it stood."""
    for s in range(count):
        b = known[2 * s]
        if b < 0 or not fighting[b] or version[b] != known[2 * s + 1]:
            return False
    return True


@njit(cache=True)
def _spots(
    w: int,
    k: int,
    t: int,
    slots: int,
    way: Any,
    crowd: Crowd,
    measures: Any,
    spots: Any,
) -> tuple[int, int]:
    """The places along ``way`` row ``w`` for fighter ``k`` in the order
    ``ranks.way_forward`` tries them (``x, y`` flat in ``spots``): the end of its move,
    the places round its target ``t`` (``_places_round``) if the move reaches it, then
    ``_way_spots``. How many, and how many round the target; -1 if more than
    :data:`_MOST_SPOTS`."""
    x, y, radius = crowd[0], crowd[1], crowd[2]
    width_yd, height_yd, two = measures[1], measures[2], measures[4]
    hx, hy = x[k], y[k]
    gx, gy, gap, yards, allowance = way[w, 0], way[w, 1], way[w, 2], way[w, 3], way[w, 4]
    spots[0] = hx + (gx - hx) * yards / gap
    spots[1] = hy + (gy - hy) * yards / gap
    count = 1
    if slots:  # _places_round
        tx, ty = x[t], y[t]
        reach = radius[k] + way[w, 5] + radius[t] - ENGAGE_MARGIN
        if slots > _MOST_SPOTS // 2:
            return -1, 0
        step = 2 * math.pi / slots
        base = math.atan2(hy - ty, hx - tx)
        most = allowance * allowance
        for s in range(1, slots):
            angle = base + (s + 1) // 2 * step * (1 if s % 2 else -1)
            px = _clamp(tx + reach * math.cos(angle), width_yd)
            py = _clamp(ty + reach * math.sin(angle), height_yd)
            if not _within_pow(px - tx, py - ty, reach + ENGAGE_MARGIN, 0.0, two) or not _within(
                px - hx, py - hy, most, two
            ):
                continue
            spots[2 * count], spots[2 * count + 1] = px, py
            count += 1
    ring = count - 1
    dx, dy = (gx - hx) / gap, (gy - hy) / gap
    side = 2 * radius[k]
    sx, sy = -dy * side, dx * side
    bounded = width_yd >= 0 or height_yd >= 0
    step = yards
    short = 1.0
    while True:
        px, py = hx + dx * step, hy + dy * step
        spots[2 * count], spots[2 * count + 1] = px, py
        count += 1
        for sign in (1.0, -1.0):
            qx, qy = px + sign * sx, py + sign * sy
            if bounded:
                qx, qy = _clamp(qx, width_yd), _clamp(qy, height_yd)
            if _within(qx - hx, qy - hy, yards * yards, two):
                spots[2 * count], spots[2 * count + 1] = qx, qy
                count += 1
        step = yards - short
        if step < _SHUFFLE:
            break
        short *= 2
        if count + 3 > _MOST_SPOTS:
            return -1, 0
    return count, ring


@njit(cache=True)
def _blocks(
    k: int, o: int, sx: float, sy: float, by_pow: bool, crowd: Crowd, measures: Any
) -> bool:
    """Whether fighter ``o`` stands within fighter ``k``'s elbow room of ``(sx, sy)``,
    measured as :func:`_taken` measures."""
    x, y, radius = crowd[0], crowd[1], crowd[2]
    ox = x[o] - sx
    oy = y[o] - sy
    room = (radius[k] + radius[o]) * ELBOW_ROOM
    if by_pow:
        return _closer(ox, oy, room, measures[4])
    return bool(ox * ox + oy * oy < room * room)


@njit(cache=True)
def _beyond(sx: float, sy: float, grid: tuple[Any, Any, Any], cell: float) -> bool:
    """Whether ``(sx, sy)`` lies beyond the squares of the index (:func:`_taken`)."""
    box = grid[2]
    i, j = math.floor(sx / cell) - box[0], math.floor(sy / cell) - box[1]
    return bool(i < 1 or j < 1 or i >= box[2] - 1 or j >= box[3] - 1)
