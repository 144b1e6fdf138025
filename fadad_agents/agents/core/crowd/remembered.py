"""A blocked search remembered in the field's mirror in arrays, and measured again there.

A fighter whose every place was taken remembers who blocked each and where that one stood
(:class:`~fadad_agents.agents.core.ranks.Blocked`), and next time measures again only the
places whose blocker moved or left: a place stays taken while whoever took it stands
there. Where the search was made in compiled code (:func:`~fadad_agents.agents.core.crowd.
occupied.first_free`), the memo is one array kept with the mirror it was measured in
(:data:`~fadad_agents.agents.core.crowd.occupied.REMEMBERED`): the places (``x, y`` flat),
then each place's blocker's slot there and where it stood; ``Blocked.spots`` are its
places, ``Blocked.tried`` is None and ``Blocked.stood`` the pair. Measuring them again is
one compiled call (:func:`recheck`): a blocker still in the mirror where it stood is
still there (a slot leaves the mirror as its fighter leaves the field, and is never
another's); the first free place in order is the one Python's memo would find.

Here too, a melee fighter's re-targeting asked of the mirror, in one compiled call: a
fighter whose target fell draws a new one from the foes in reach, and with none in reach
(behind the ranks: most who ask) takes its nearest foe (:func:`~fadad_agents.policies.
core.defaults.random_foe`), at 200 agents about 160 times a round. Python told the
nearest first where the other side is filed in arrays for it (:class:`~fadad_agents.
agents.core.crowd.nearest.Nearest`, filed again after each turn its side moved in,
searched square by square till then), asked the mirror in another call, then looked the
nearest up again. Here the mirror (:class:`~fadad_agents.agents.core.crowd.occupied.
Occupied`, up to date after every move) is asked once (:func:`foes_or_nearest`): the
foes in reach (:func:`~fadad_agents.agents.core.crowd.occupied._touching_in`: the same
foes in the same order) and, where none is, the nearest foe, measured as
``Field.nearest`` measures (squared yards by ``**``, ties to the lower ``unique_id``):
the same answers (:func:`nearest_foe`, :func:`nearest_to_each` alone).
"""

from __future__ import annotations

import math
from itertools import chain
from typing import Any

import numpy as np
from numba import types

from fadad_agents.agents.core.crowd.nearest import _gap2
from fadad_agents.agents.core.crowd.occupied import (
    _FLOATS,
    _INTS,
    _TWO,
    Occupied,
    _standing_at,
    _touching_in,
    _views,
    direct,
)
from fadad_agents.agents.core.field.caching import njit
from fadad_agents.agents.core.field.measures import SQUARES_HIGH

__all__ = ["AFRESH", "blockers", "foes_or_nearest", "nearest_foe", "nearest_to_each", "recheck"]

AFRESH = object()
""":func:`recheck`'s answer where the memo's mirror is gone (made again since, or given
up): its slots name no one now, and every place is to be measured afresh."""


@njit(cache=True)
def _recheck(
    kept: Any, ring: int, me: int, r: float, floats: Any, ints: Any, two: float
) -> tuple[int, float, float]:
    """The first of the places in ``kept`` (``x, y`` flat, then each one's blocker's slot
    and where it stood) free of anyone within the elbow room of the fighter in slot
    ``me`` (radius ``r``; squares by ``**`` within a hair round the target, places 1 to
    ``ring``, as the search measured them), measuring only those whose blocker left the
    mirror or stands elsewhere: its index and ``x, y``; -1 if all are taken, each blocker
    found now written in its stead."""
    grid, spots, links, head, _, _ = _views(floats, ints)
    count = len(kept) // 5
    for k in range(count):
        e = 2 * count + 3 * k
        s = int(kept[e])
        if links[s, 2] >= 0 and spots[s, 0] == kept[e + 1] and spots[s, 1] == kept[e + 2]:
            continue  # it stands where it stood: the place is taken still
        x, y = kept[2 * k], kept[2 * k + 1]
        found = _standing_at(x, y, 0 < k <= ring, me, r, spots, links, head, grid, two)
        if found < 0:
            return k, x, y
        kept[e], kept[e + 1], kept[e + 2] = found, spots[found, 0], spots[found, 1]
    return -1, 0.0, 0.0


_F8, _I8 = types.float64, types.int64
_recheck_now = direct(_recheck, _FLOATS, _I8, _I8, _F8, _FLOATS, _INTS, _F8)


def recheck(memo: Any, actor: Any, field: Any) -> Any:
    """``memo.retry`` of a memo kept in the mirror (see the module): the first free place
    in order, or None (the memo brought up to date); :data:`AFRESH` if the field's mirror
    is no longer the one it was measured in."""
    mirror, kept = memo.stood
    if field.occupancy() is not mirror:
        return AFRESH
    me = mirror.slots.get(actor, -1)
    k, x, y = _recheck_now(kept, memo.ring, me, actor.radius, mirror.floats, mirror.ints, _TWO)
    return None if k < 0 else (x, y)


def blockers(memo: Any) -> list[Any]:
    """Who blocked each place of ``memo`` (its ``tried``, or read from its mirror)."""
    if memo.tried is not None:
        return list(memo.tried)
    mirror, kept = memo.stood
    count = len(kept) // 5
    return [mirror.agents[int(s)] for s in kept[2 * count :: 3].tolist()]


@njit(cache=True)
def _nearest_in(
    x: float, y: float, side: Any, keys: Any, cell: float, floats: Any, ints: Any, filing: Any,
    two: float,
) -> int:  # fmt: skip
    """The slot of side ``side`` nearest ``(x, y)`` in the mirror (-1: none there), by
    ``(sx - x) ** two + (sy - y) ** two``, the lower ``unique_id`` on a tie, as
    ``Field.nearest`` finds it: the grid's squares over the side's buckets (``cell``
    yards wide, the least and greatest keys ``keys``, across and down, its least first:
    nobody of it stands outside them), a square more each way, a column at a time
    outward from the one nearest the point, each column's rows outward, a run stopped at
    the first square wholly farther than the best found. A slot is measured by ``**``
    unless farther than the best by products."""
    grid, spots, links, head, _, _ = _views(floats, ints)
    gx, gy, g = grid[0], grid[1], grid[2]
    columns, rows = int(grid[3]), int(grid[4])
    i0 = max(math.floor((keys[0] * cell - gx) / g) - 1, 0)
    i1 = min(math.floor(((keys[2] + 1) * cell - gx) / g) + 1, columns - 1)
    j0 = max(math.floor((keys[1] * cell - gy) / g) - 1, 0)
    j1 = min(math.floor(((keys[3] + 1) * cell - gy) / g) + 1, rows - 1)
    xi, yj = math.floor((x - gx) / g), math.floor((y - gy) / g)
    return _in_squares(x, y, side, two, i0, i1, j0, j1, xi, yj, -1, math.inf, 0,
                       grid, spots, links, head, filing)[0]  # fmt: skip


@njit(cache=True)
def _in_squares(
    x: float, y: float, side: Any, two: float, ia: int, ib: int, ja: int, jb: int, xi: int,
    yj: int, best: int, best_d: float, best_id: int, grid: Any, spots: Any, links: Any,
    head: Any, filing: Any,
) -> tuple[int, float, int]:  # fmt: skip
    """:func:`_nearest_in`'s search of the squares ``ia..ib`` across, ``ja..jb`` down (all
    of a side's, or a block of them: ``engine.personal.ground.nearest``), begun from
    ``best`` at ``best_d`` (its ``unique_id`` ``best_id``; -1, inf: none): a column at a
    time outward from the one nearest ``(x, y)`` (whose square is ``xi``, ``yj``), each
    column's rows outward, a run stopped at the first square wholly farther than the best
    found. The best found, its measure and ``unique_id``."""
    gx, gy, g, rows = grid[0], grid[1], grid[2], int(grid[4])
    im, jm = min(max(xi, ia), ib), min(max(yj, ja), jb)  # its own square's, or the nearest
    for step in (1, -1):
        i = im if step == 1 else im - 1
        while ia <= i <= ib:
            gx2 = _gap2(gx + i * g, x, g)
            if gx2 > best_d:
                break  # the whole column lies farther than the best, and those after it
            for turn in (1, -1):
                j = jm if turn == 1 else jm - 1
                while ja <= j <= jb:
                    if gx2 + _gap2(gy + j * g, y, g) > best_d:
                        break
                    s = head[i * rows + j]
                    while s >= 0:
                        if filing[s, 0] == side:
                            px, py = spots[s, 0] - x, spots[s, 1] - y
                            if px * px + py * py <= best_d * SQUARES_HIGH:
                                d = px**two + py**two
                                if d < best_d or (d == best_d and filing[s, 2] < best_id):
                                    best, best_d, best_id = s, d, filing[s, 2]
                        s = links[s, 0]
                    j += turn
            i += step
    return best, best_d, best_id


@njit(cache=True)
def _nearest_of(asked: Any, floats: Any, ints: Any, filing: Any, two: float) -> int:
    """:func:`_nearest_in` of ``asked``: ``x, y``, the side, its buckets' side and keys."""
    keys = (asked[4], asked[5], asked[6], asked[7])
    return _nearest_in(asked[0], asked[1], asked[2], keys, asked[3], floats, ints, filing, two)


@njit(cache=True)
def _nearest_each(asked: Any, places: Any, floats: Any, ints: Any, filing: Any, two: float) -> Any:
    """:func:`_nearest_in`'s slot for each of ``places`` (``x, y`` flat; ``asked``: the
    side, its buckets' side and keys)."""
    keys = (asked[2], asked[3], asked[4], asked[5])
    found = np.empty(len(places) // 2, np.int64)
    for k in range(len(found)):
        x, y = places[2 * k], places[2 * k + 1]
        found[k] = _nearest_in(x, y, asked[0], keys, asked[1], floats, ints, filing, two)
    return found


@njit(cache=True)
def _in_reach_or_nearest(
    asked: Any, floats: Any, ints: Any, filing: Any, two: float
) -> tuple[int, int]:
    """:func:`_touching_in`'s count of ``asked[:11]`` (its foes in the scratch
    ``blockers``) and, where that is none, the slot of that side's nearest
    (:func:`_nearest_in`, its buckets' keys ``asked[11:]``), else -1."""
    count = _touching_in(asked[:11], floats, ints, filing, two)
    if count != 0:
        return count, -1
    keys = (asked[11], asked[12], asked[13], asked[14])
    return 0, _nearest_in(asked[0], asked[1], asked[6], keys, asked[5], floats, ints, filing, two)


_FILING = types.int64[:, ::1]
_tuple_of: Any = types.UniTuple  # (numba's types are untyped)
_nearest_now = direct(_nearest_of, _tuple_of(_F8, 8), _FLOATS, _INTS, _FILING, _F8)
_each_now = direct(_nearest_each, _tuple_of(_F8, 6), _FLOATS, _FLOATS, _INTS, _FILING, _F8)
_or_nearest_now = direct(_in_reach_or_nearest, _tuple_of(_F8, 15), _FLOATS, _INTS, _FILING, _F8)


def foes_or_nearest(mirror: Occupied, asked: tuple[float, ...]) -> tuple[list[Any] | None, Any]:
    """The foes in reach ``asked[:11]`` asks for (``space._touching``'s question of
    :meth:`Occupied.touching`), in the order the other side's buckets list them (None:
    more than the mirror's scratch holds), and, where none is, the nearest of that side
    (``asked[11:]``: its least and greatest bucket keys; None: nobody of it there)."""
    count, s = _or_nearest_now(asked, mirror.floats, mirror.ints, mirror.filing, _TWO)
    if count < 0:
        return None, None
    agents = mirror.agents  # slot -1 reads None
    if count == 0:
        return [], agents[s]
    return [agents[k] for k in mirror.blockers[:count].tolist()], None


def nearest_foe(mirror: Occupied, asked: tuple[float, ...]) -> Any:
    """The fighter of side ``asked[2]`` nearest ``asked[0], asked[1]`` on the field, as
    ``Field.nearest`` finds it (``asked[3]``: the side's buckets' side, ``asked[4:]``
    their least and greatest keys), or None: nobody of it there."""
    return mirror.agents[_nearest_now(asked, mirror.floats, mirror.ints, mirror.filing, _TWO)]


def nearest_to_each(
    mirror: Occupied, asked: tuple[float, ...], points: list[tuple[float, float]]
) -> list[Any]:
    """:func:`nearest_foe` of side ``asked[0]`` (``asked[1]``: its buckets' side,
    ``asked[2:]`` their least and greatest keys) to each of ``points``, in one call."""
    places = np.fromiter(chain.from_iterable(points), np.float64, 2 * len(points))
    found = _each_now(asked, places, mirror.floats, mirror.ints, mirror.filing, _TWO)
    agents = mirror.agents
    return [agents[s] for s in found.tolist()]
