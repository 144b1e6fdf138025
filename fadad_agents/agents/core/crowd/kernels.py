"""The compiled loop of a band's turn: fighters waiting in the ranks, in numba.

Imported only where a crowd's turn is played in arrays (:mod:`~fadad_agents.agents.
core.crowd.waiting`): the 5 v 5 and ship battles never load numba. Each function repeats
the arithmetic of the Python it stands for operation by operation (a sum, product or
quotient of two floats, and ``math.cos``, ``sin`` and ``atan2``, are the same compiled).
Where Python squares by ``**`` (the C library's ``pow``, which may differ from ``*`` in
the last bit) so does this code, with the exponent ``two`` passed in at run time: a
constant 2 would be compiled into a product. A place is free or taken here exactly when
the Python search finds it so, and a fighter is left to Python wherever the arrays do not
know its whole turn.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numba import types

from fadad_agents.agents.core.crowd.elbows import Crowd, _within, _within_pow
from fadad_agents.agents.core.crowd.nearest import NEAR_TYPE, _nearest_to
from fadad_agents.agents.core.crowd.occupied import direct
from fadad_agents.agents.core.crowd.searching import _MOST_SPOTS, _UNKNOWN, MEMO, _search
from fadad_agents.agents.core.field.caching import njit
from fadad_agents.agents.core.moving import _ARRIVE

__all__ = [
    "BLOCKED",
    "FOUND",
    "MEMO",
    "NEAR",
    "NO_TURN",
    "PYTHONS",
    "UNSURE",
    "WAITS",
    "file_all",
    "refile",
    "refile_now",
    "unfile",
    "wait_in_ranks",
    "wait_now",
]

WAITS = 0
"""Everyone of the turn from the start waited (or was not fighting)."""
FOUND = 1
"""The fighter at the stop finds a free place: its move is made in Python."""
UNSURE = 2
"""The fighter at the stop plays its turn in Python (its way changed since it was worked
out, it strikes, or its places lie beyond the squares of the index)."""
BLOCKED = 3
"""The fighter at the stop finds every place taken, then plays the rest of its turn in
Python (it strikes or chooses a new target)."""

NEAR = 4
"""The fighter at the stop lost its target and the foes are not filed for the loop yet
(``near``): Python files them, and the loop goes on from the stop."""

NO_TURN = -2
"""In a member's plan: not fighting when the turn began, it has no turn."""
PYTHONS = -1
"""In a member's plan: its turn is played in Python."""


@njit(cache=True)
def file_all(x: Any, y: Any, on_field: Any, cell: float, depth: int) -> tuple[Any, Any, Any]:
    """Everyone ``on_field`` filed in squares of side ``cell`` over the box round them
    (a margin of 64 squares): the ``grid`` the others read - each square's fighters (up
    to ``depth``), how many, and the box (its first square's indices, its width and
    height; a height of 0: a square overflowed)."""
    n = len(x)
    i_lo, j_lo, i_hi, j_hi = 1 << 40, 1 << 40, -(1 << 40), -(1 << 40)
    for k in range(n):
        if on_field[k]:
            i, j = math.floor(x[k] / cell), math.floor(y[k] / cell)
            i_lo, i_hi = min(i_lo, i), max(i_hi, i)
            j_lo, j_hi = min(j_lo, j), max(j_hi, j)
    i0, j0 = i_lo - 64, j_lo - 64
    width, height = max(i_hi - i0 + 65, 1), max(j_hi - j0 + 65, 1)
    squares = np.full((width * height, depth), -1, dtype=np.int32)
    counts = np.zeros(width * height, dtype=np.int32)
    box = np.array([i0, j0, width, height])
    for k in range(n):
        if on_field[k]:
            s = _square(x[k], y[k], box, cell)
            if counts[s] == depth:
                return squares, counts, np.array([i0, j0, width, 0])
            squares[s, counts[s]] = k
            counts[s] += 1
    return squares, counts, box


@njit(cache=True)
def refile(
    k: int,
    ox: float,
    oy: float,
    nx: float,
    ny: float,
    grid: tuple[Any, Any, Any],
    cell: float,
) -> bool:
    """Move fighter ``k`` from ``(ox, oy)`` to ``(nx, ny)`` in the ``grid``; False if it
    left the box or its new square is full (file everyone again)."""
    squares, counts, box = grid
    i0, j0, width, height = box[0], box[1], box[2], box[3]
    i, j = math.floor(nx / cell) - i0, math.floor(ny / cell) - j0
    if i < 1 or j < 1 or i >= width - 1 or j >= height - 1:
        return False
    new = i * height + j
    if counts[new] == squares.shape[1]:
        return False
    _take_out(k, _square(ox, oy, box, cell), squares, counts)
    squares[new, counts[new]] = k
    counts[new] += 1
    return True


@njit(cache=True)
def unfile(ks: Any, x: Any, y: Any, squares: Any, counts: Any, box: Any, cell: float) -> None:
    """Take the fighters ``ks`` (fallen: nobody's place is taken by them, nor is anyone in
    reach of them) out of the squares of :func:`file_all`, each from the square of where
    it stands."""
    for k in ks:
        _take_out(k, _square(x[k], y[k], box, cell), squares, counts)


@njit(cache=True)
def _square(x: float, y: float, box: Any, cell: float) -> int:
    """The square of :func:`file_all`'s ``box`` that holds ``(x, y)``."""
    return int((math.floor(x / cell) - box[0]) * box[3] + math.floor(y / cell) - box[1])


@njit(cache=True)
def _take_out(k: int, s: int, squares: Any, counts: Any) -> None:
    """Take fighter ``k`` out of square ``s`` (the last of the square's fighters takes
    its room)."""
    c = counts[s]
    for m in range(c):
        if squares[s, m] == k:
            squares[s, m] = squares[s, c - 1]
            squares[s, c - 1] = -1
            counts[s] = c - 1
            return


@njit(cache=True)
def _foe_in_reach(
    k: int,
    hx: float,
    hy: float,
    base: float,
    crowd: Crowd,
    grid: tuple[Any, Any, Any],
    measures: Any,
) -> bool:
    """Whether a foe of fighter ``k`` still fighting may stand in its reach from
    ``(hx, hy)``, ``base`` its radius and reach together, as it looks after waiting
    (``OnTheField.foes_in_reach``, then ``moving.touches`` on a new target): in reach if
    :func:`moving.touches` or ``foes_in_reach``'s measure among a few foes (``(base +
    radius) ** 2``) says so, each decided as Python decides it. False: Python finds
    none (most who wait behind the front); True beyond the squares of the index."""
    x, y, radius, side, fighting, _ = crowd
    squares, counts, box = grid
    cell, two = measures[0], measures[4]
    wide = base + measures[3] + 1e-3  # the widest foe's reach, a millimetre over _ARRIVE
    i0, j0, width, height = box[0], box[1], box[2], box[3]
    a0, a1 = math.floor((hx - wide) / cell) - i0, math.floor((hx + wide) / cell) - i0
    b0, b1 = math.floor((hy - wide) / cell) - j0, math.floor((hy + wide) / cell) - j0
    if a0 < 0 or b0 < 0 or a1 >= width or b1 >= height:
        return True
    own = side[k]
    for a in range(a0, a1 + 1):
        for b in range(b0, b1 + 1):
            s = a * height + b
            for m in range(counts[s]):
                o = squares[s, m]
                if side[o] == own or not fighting[o]:
                    continue
                reach = base + radius[o]
                if _within(hx - x[o], hy - y[o], reach * reach + _ARRIVE, two) or _within_pow(
                    x[o] - hx, y[o] - hy, reach, _ARRIVE, two
                ):
                    return True
    return False


@njit(cache=True)
def wait_in_ranks(
    start: int,
    plan: Any,
    way: Any,
    takes_nearest: Any,
    x: Any,
    y: Any,
    radius: Any,
    side: Any,
    fighting: Any,
    version: Any,
    squares: Any,
    counts: Any,
    box: Any,
    measures: Any,
    memo_key: Any,
    memo: Any,
    moved: Any,
    places: Any,
    lost: Any,
    near: Any,
    lost_rows: Any,
) -> tuple[int, int, float, float, int, int]:
    """Play the turns from ``start`` of a band's members while each waits where it
    stands (every place its move may end is taken: ``moving.advance`` finding no place)
    or only moves: it plans no attack, finds a free place and stands there out of its
    target's reach (:func:`moving.touches`: the spare actions go to defences), so its
    turn is the move alone. Returns where it stopped, why (:data:`WAITS` at the end,
    :data:`FOUND` with the free place, :data:`BLOCKED`, else :data:`UNSURE`), the place,
    how many moved (each mover's member in ``moved``, its place in ``places``, in order,
    made in the arrays already: its turn in Python makes the same move), and how many
    who waited lost their target (``lost``): one with attacks whose target fell and who
    finds no foe in reach (:func:`_foe_in_reach`) ends its turn taking the nearest foe,
    in Python, if it ``takes_nearest`` (its new target is ``random_foe``'s: no dice),
    the nearest found here: its row of the foes filed in ``near`` (a side's
    ``Nearest.arrays``) in ``lost_rows``; stops with :data:`NEAR` where they are not
    filed yet (its box's square side below 0).

    ``plan`` per member: its index (:data:`NO_TURN`: not fighting when the turn began;
    :data:`PYTHONS`: its turn is Python's), its target's, its planned movement actions
    and attacks, whether it has a way (a move to search), how many places round the
    target it tries (0: the move does not reach it), its row of ``way``, its own and its
    target's ``version`` when the way was worked out. ``way``: the goal's x, y, the
    yards to it, the yards it moves, its allowance and the member's reach.

    Every fighter's ``x``, ``y``, ``radius``, ``side``, whether it is ``fighting`` and
    its ``version`` (how often it moved), by index; the squares, ``counts`` and ``box``
    of :func:`file_all`; ``measures``: the squares' side, the field's width and height
    (below 0: unbounded), the widest fighter's radius, the exponent 2 and whether a
    search asks each place's last blocker first. Each fighter's memo of its last search
    (:func:`~.searching._search`) is kept up to date; ``moved``, ``places`` and ``lost``
    have room for every member. (Arrays apart, not in tuples:
    numba's dispatcher types a tuple slowly, and this is called thousands of times a
    round.)"""
    crowd = (x, y, radius, side, fighting, version)
    grid = (squares, counts, box)
    two = measures[4]
    n = len(plan)
    spots = np.empty(_MOST_SPOTS * 2)
    count = lost_count = 0
    for i in range(start, n):
        k = plan[i, 0]
        if k == NO_TURN:
            continue
        if k == PYTHONS:
            return i, UNSURE, 0.0, 0.0, count, lost_count
        if not fighting[k]:
            continue
        t, w = plan[i, 1], plan[i, 6]
        if version[k] != plan[i, 7] or version[t] != plan[i, 8]:  # its way changed
            return i, UNSURE, 0.0, 0.0, count, lost_count
        hx, hy, tx, ty = x[k], y[k], x[t], y[t]
        # moving.touches: the act step moves only a fighter out of reach or with actions
        reach = radius[k] + way[w, 5] + radius[t]
        touching = _within(hx - tx, hy - ty, reach * reach + _ARRIVE, two)
        planned, attacks = plan[i, 2], plan[i, 3]
        if touching:
            if planned or attacks:  # it strikes: Python's
                return i, UNSURE, 0.0, 0.0, count, lost_count
            continue
        if plan[i, 4]:
            found = _search(
                w, k, t, plan[i, 5], planned, way, crowd, grid, measures, memo_key, memo, spots
            )
            if found == _UNKNOWN:
                return i, UNSURE, 0.0, 0.0, count, lost_count
            if found >= 0:
                px, py = spots[2 * found], spots[2 * found + 1]
                # with attacks, its turn is Python's unless its blows would find nobody
                # there: its target fighting, no foe in its reach (MOVERS_WITH_ATTACKS)
                blows = attacks != 0 and not (
                    measures[6]
                    and fighting[t]
                    and not _foe_in_reach(k, px, py, radius[k] + way[w, 5], crowd, grid, measures)
                )
                if blows or not _moves_alone(k, t, px, py, reach, crowd, grid, measures):
                    return i, FOUND, px, py, count, lost_count
                moved[count], places[count, 0], places[count, 1] = i, px, py
                count += 1
                continue
        if attacks:  # after waiting it looks for a foe in reach (another_in_reach)
            if not (fighting[t] or takes_nearest[k]) or _foe_in_reach(
                k, hx, hy, radius[k] + way[w, 5], crowd, grid, measures
            ):
                return i, BLOCKED if plan[i, 4] else UNSURE, 0.0, 0.0, count, lost_count
            if not fighting[t]:
                box = near[5]
                if box[2] < 0:  # the foes not filed for the loop yet: Python files them
                    return i, NEAR, 0.0, 0.0, count, lost_count
                lost[lost_count] = i
                lost_rows[lost_count] = _nearest_to(near, hx, hy, two)[0]
                lost_count += 1
    return n, WAITS, 0.0, 0.0, count, lost_count


@njit(cache=True)
def _moves_alone(
    k: int,
    t: int,
    px: float,
    py: float,
    reach: float,
    crowd: Crowd,
    grid: tuple[Any, Any, Any],
    measures: Any,
) -> bool:
    """Move fighter ``k`` to ``(px, py)`` in the arrays if its move there is its whole
    turn: the place lies farther than ``moving._ARRIVE`` from where it stands (twice
    that: Python measures by ``hypot``), and its target ``t`` (fallen or not: it stays
    placed) stands out of its ``reach`` from there (``moving.touches``: no spare action
    turns into a blow).
    False, nothing moved, if not (or the grid must be filed afresh: Python's turn)."""
    x, y, version = crowd[0], crowd[1], crowd[5]
    dx, dy = px - x[k], py - y[k]
    if dx * dx + dy * dy <= 4 * _ARRIVE * _ARRIVE:
        return False
    if _within(px - x[t], py - y[t], reach * reach + _ARRIVE, measures[4]):
        return False
    if not refile(k, x[k], y[k], px, py, grid, measures[0]):
        return False
    x[k], y[k] = px, py
    version[k] += 1
    return True


_I8 = types.int64
_F1, _I1, _J1, _B1 = types.float64[::1], types.int64[::1], types.int32[::1], types.boolean[::1]
_F2, _I2, _J2 = types.float64[:, ::1], types.int64[:, ::1], types.int32[:, ::1]
WAIT_TYPES: tuple[Any, ...] = (_I8, _I2, _F2, _B1, _F1, _F1, _F1, _I1, _B1, _I1, _J2, _J1)
WAIT_TYPES += (_I1, _F1, _I2, _J2, _I1, _F2, _I1, NEAR_TYPE, _I1)
"""The numba types of :func:`wait_in_ranks`' arguments as a band's turn gives them."""

wait_now = direct(wait_in_ranks, *WAIT_TYPES)
""":func:`wait_in_ranks` without numba's dispatch (:func:`~.occupied.direct`): numba types
every argument of a call to pick its code, and :func:`wait_in_ranks` is given 19, about
3.8 us a call, 2,000 calls in the bench's 3 rounds at 20,000 agents. Only for arguments
of exactly :data:`WAIT_TYPES` (contiguous arrays of the dtype); a test checks the
dispatcher picks this very signature for the arrays a band's turn gives."""

GRID_TYPES: tuple[Any, ...] = (_I8, types.float64, types.float64, types.float64, types.float64)
_TUPLE: Any = types.Tuple  # (numba's types are untyped)
GRID_TYPES += (_TUPLE((_J2, _J1, _I1)), types.float64)
"""The numba types of :func:`refile`'s arguments as ``waiting._Crowd`` gives them: its
``grid`` is always :func:`file_all`'s own arrays (made there, C-contiguous)."""

refile_now = direct(refile, *GRID_TYPES)
""":func:`refile` without numba's dispatch (typing the grid's tuple of three arrays costs
about as much as the call's work, a thousand calls in the bench's 3 rounds at 20,000
agents). Only for arguments of :data:`GRID_TYPES` (an int for a float will do); a test
checks it answers as the dispatcher."""
