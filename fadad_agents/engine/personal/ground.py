"""The compiled plain melee on open ground (numba): fighters who close in, find a way
through the crowd round their targets and strike whoever their reach touches, as
:meth:`~fadad_agents.agents.core.character.Character.declare` and
:meth:`~fadad_agents.agents.core.character.Character.act` play them in Python on a field
where not all touch (:mod:`~fadad_agents.agents.core.moving`, :mod:`~fadad_agents.agents.
core.ranks`, :mod:`~fadad_agents.agents.core.field.room`,
:meth:`~fadad_agents.engine.core.space.OnTheField.foes_in_reach`).

The field is the one Python keeps in arrays (:class:`~fadad_agents.agents.core.crowd.
occupied.Occupied`, a slot a fighter, by the fighter's index here), and every question is
asked of it with the same compiled code Python's searches use, or its twin: foes in reach
in the order the other side's buckets list them (:func:`~fadad_agents.agents.core.crowd.
occupied._touching_in`), a side's nearest (:func:`nearest`, ``remembered._nearest_in``
begun from the last one found and stepping over empty blocks), a move's first free place
(:func:`~fadad_agents.agents.core.crowd.occupied._search`). Every sum, ``hypot`` and
square is Python's to the last bit (:mod:`~fadad_agents.agents.core.crowd.planning`,
:mod:`~fadad_agents.agents.core.crowd.elbows`), the exponent 2 read at run time
(``geo[_TWO]``), never compiled into a product.

A fighter's place is ``pos[i]`` (:data:`_X`, :data:`_Y`, its bearing, radius, reach and
stride); ``geo`` holds the field's bucket side, the widest radius, the allowances of 0, 1
and 2 movement actions and the moving Target bonuses; ``bounds[side]`` the least and
greatest bucket keys each side ever used (``Squares._bounds``); ``counters`` the events
already taken off the field (:func:`taken_off`), the next bucket stamp, the blocks of the
mirror's squares across and down, each side's last nearest found, then how many of each
side stand in each block (:data:`BLOCK`). A move is an event row (:data:`MOVE`) with its
yards and both ends in ``moved``.
"""

from __future__ import annotations

import math

import numpy as np

from fadad_agents.agents.core.crowd.elbows import _within, _within_pow
from fadad_agents.agents.core.crowd.nearest import _gap2
from fadad_agents.agents.core.crowd.occupied import _put_in, _search, _touching_in, _unlink, _views
from fadad_agents.agents.core.crowd.planning import _contact, hypot
from fadad_agents.agents.core.crowd.remembered import _in_squares
from fadad_agents.agents.core.field.caching import njit
from fadad_agents.engine.personal.choosing import _foe, _foes
from fadad_agents.engine.personal.outcomes import _admit, _has_room
from fadad_agents.engine.personal.swing import (
    _ATTACKS,
    _DEFENCES,
    _SIDE,
    _TARGET,
    _event,
)
from fadad_agents.engine.personal.twister import random

__all__ = ["GAVE_UP", "MOVE", "STATE_MORE"]

MOVE = 8
"""An event kind: a move (``moving.move_event``): target, actions spent, gait (1 walk, 2 jog,
3 run); its yards and ends in ``moved``."""

GAVE_UP = -2
"""The kernel's answer when the battle left what it plays here (a search of more places
than the mirror's scratch holds, a fighter outside the mirror's grid): Python plays it."""

# a placed fighter's state, after swing.STATE_COLUMNS
_MOVES, _WANTED, _GAIT, _STEPPED, _MOST = 24, 25, 26, 27, 28
STATE_MORE = 5

# pos columns
_X, _Y, _BEARING, _RADIUS, _REACH, _STRIDE = 0, 1, 2, 3, 4, 5
# geo
_CELL, _WIDEST, _ALLOW, _BONUS, _TWO = 0, 1, 2, 5, 7

_ARRIVE = 1e-6  # moving._ARRIVE
_ENGAGE = 0.01  # ranks.ENGAGE_MARGIN
_SHUFFLE = 0.25  # ranks._SHUFFLE
_SMALL = 32  # space._SMALL: up to this many foes, each measured in the live list's order
_ROOMY, _SIZE, _BAND, _ROUND, _TAKEN = 0, 1, 2, 3, 4  # places' columns (outcomes._admit)


@njit(cache=True, inline="always")
def touches(i: int, t: int, pos: np.ndarray, geo: np.ndarray) -> bool:
    """``moving.touches``: ``i``'s reach touches ``t``."""
    reach = pos[i, _RADIUS] + pos[i, _REACH] + pos[t, _RADIUS]
    dx, dy = pos[i, _X] - pos[t, _X], pos[i, _Y] - pos[t, _Y]
    return _within(dx, dy, reach * reach + _ARRIVE, geo[_TWO])


@njit(cache=True, inline="always")
def foes_in_reach(
    i: int,
    s: np.ndarray,
    pos: np.ndarray,
    geo: np.ndarray,
    active: np.ndarray,
    counts: np.ndarray,
    floats: np.ndarray,
    ints: np.ndarray,
    filing: np.ndarray,
    bounds: np.ndarray,
) -> int:
    """``OnTheField.foes_in_reach`` of melee character ``i`` on a field of two sides: into
    the mirror's scratch (``occupied._views``' last), how many (-1: more than it holds).
    Up to :data:`_SMALL` foes, each measured in the live list's order; else those the
    mirror finds round it, in the order the other side's buckets list them."""
    side = 1 - s[i, _SIDE]
    n = _foes(s[i, _SIDE], counts)
    x, y, two = pos[i, _X], pos[i, _Y], geo[_TWO]
    base = pos[i, _RADIUS] + pos[i, _REACH]
    if n <= _SMALL:
        out = _views(floats, ints)[5]
        count = 0
        for k in range(n):
            f = _foe(s[i, _SIDE], k, active, counts)
            if _within_pow(pos[f, _X] - x, pos[f, _Y] - y, base + pos[f, _RADIUS], 1e-6, two):
                out[count] = f
                count += 1
        return count
    cell, widest = geo[_CELL], geo[_WIDEST]
    radius = base + widest
    x0, y0 = math.floor((x - radius) / cell), math.floor((y - radius) / cell)
    x1, y1 = math.floor((x + radius) / cell), math.floor((y + radius) / cell)
    x0, y0 = max(x0, bounds[side, 0]), max(y0, bounds[side, 1])
    x1, y1 = min(x1, bounds[side, 2]), min(y1, bounds[side, 3])
    if x1 < x0 or y1 < y0:
        return 0
    asked = (x, y, radius, base, widest, cell, float(side), float(x0), float(x1), float(y0),
             float(y1))  # fmt: skip
    return int(_touching_in(asked, floats, ints, filing, two))


BLOCK = 8
"""The mirror's squares are counted by side in blocks of ``BLOCK`` by ``BLOCK``
(``counters[_BLOCKS:]``): a search for a side's nearest steps over a block where none of
that side stands (a rear rank's own side, between it and the foe)."""

_LAST = 4  # counters: events taken off, next stamp, blocks across, down, each side's last
_BLOCKS = 6  # nearest found (-1: none yet), then the counts of each side's blocks


@njit(cache=True)
def _block(side: int, square: int, rows: int, counters: np.ndarray) -> int:
    """Where ``counters`` counts ``side``'s fighters in the block of mirror ``square``."""
    i, j = square // rows, square % rows
    return int(_BLOCKS + (side * counters[2] + i // BLOCK) * counters[3] + j // BLOCK)


@njit(cache=True, inline="always")
def nearest(
    x: float,
    y: float,
    side: int,
    geo: np.ndarray,
    floats: np.ndarray,
    ints: np.ndarray,
    filing: np.ndarray,
    bounds: np.ndarray,
    counters: np.ndarray,
    hint: int,
) -> int:
    """``remembered._nearest_in``: the slot of ``side`` nearest ``(x, y)`` (-1: none),
    by ``**``, the lower ``unique_id`` on a tie. The same squares searched, a block of
    them at a time, over those of a block where none of ``side`` stands (:data:`BLOCK`),
    and begun from the nearer of the last nearest of ``side`` found and ``hint`` (the asker's
    last target; -1: none), each if it still stands on the field: a rank asks in its
    order, its neighbours' nearest most often its own, and one walking to a far foe finds
    it again, so that the search stops within a few squares. A block column (:data:`BLOCK`
    columns) and a block wholly farther than the best found are passed over at once (a
    mile-long line's far-apart survivors searched it column by column), and a block where
    some of ``side`` stand is searched as ``remembered._nearest_in`` searches a side's
    squares (:func:`~fadad_agents.agents.core.crowd.remembered._in_squares`). Whatever it
    begins from, the answer is the one nearest (a square is passed over only where it lies
    wholly farther than the best found, a slot only where farther by products by a hair)."""
    grid, spots, links, head, _, _ = _views(floats, ints)
    cell, two = geo[_CELL], geo[_TWO]
    gx, gy, g = grid[0], grid[1], grid[2]
    columns, rows = int(grid[3]), int(grid[4])
    i0 = max(math.floor((bounds[side, 0] * cell - gx) / g) - 1, 0)
    i1 = min(math.floor(((bounds[side, 2] + 1) * cell - gx) / g) + 1, columns - 1)
    j0 = max(math.floor((bounds[side, 1] * cell - gy) / g) - 1, 0)
    j1 = min(math.floor(((bounds[side, 3] + 1) * cell - gy) / g) + 1, rows - 1)
    xi, yj = math.floor((x - gx) / g), math.floor((y - gy) / g)  # its square (maybe off)
    ci, cj = min(max(xi, i0), i1), min(max(yj, j0), j1)
    best, best_d, best_id = -1, math.inf, 0
    for begun in (counters[_LAST + side], hint):  # each still on the field, of ``side``
        if begun >= 0 and links[begun, 2] >= 0 and filing[begun, 0] == side:
            px, py = spots[begun, 0] - x, spots[begun, 1] - y
            d = px**two + py**two
            if d < best_d or (d == best_d and filing[begun, 2] < best_id):
                best, best_d, best_id = begun, d, filing[begun, 2]
    across, down = counters[2], counters[3]
    for step in (1, -1):  # a block column at a time (BLOCK columns), outward from its own
        bi = ci // BLOCK if step == 1 else ci // BLOCK - 1
        while i0 // BLOCK <= bi <= i1 // BLOCK:
            ia, ib = max(bi * BLOCK, i0), min(bi * BLOCK + BLOCK - 1, i1)
            gxb = _gap2(gx + min(max(xi, ia), ib) * g, x, g)  # its squares' least, exactly
            if gxb > best_d:
                break  # the whole block column lies farther than the best, and those after
            base = _BLOCKS + (side * across + bi) * down
            for turn in (1, -1):
                bj = cj // BLOCK if turn == 1 else cj // BLOCK - 1
                while j0 // BLOCK <= bj <= j1 // BLOCK:
                    ja, jb = max(bj * BLOCK, j0), min(bj * BLOCK + BLOCK - 1, j1)
                    if gxb + _gap2(gy + min(max(yj, ja), jb) * g, y, g) > best_d:
                        break  # the whole block lies farther, and those after it
                    if counters[base + bj]:  # some of side stand in this block
                        best, best_d, best_id = _in_squares(
                            x, y, side, two, ia, ib, ja, jb, xi, yj, best, best_d, best_id,
                            grid, spots, links, head, filing,
                        )  # fmt: skip
                    bj += turn
            bi += step
    counters[_LAST + side] = best
    return int(best)


@njit(cache=True, inline="always")
def random_foe(
    i: int,
    s: np.ndarray,
    pos: np.ndarray,
    geo: np.ndarray,
    active: np.ndarray,
    counts: np.ndarray,
    floats: np.ndarray,
    ints: np.ndarray,
    filing: np.ndarray,
    bounds: np.ndarray,
    counters: np.ndarray,
    targeting: np.ndarray,
) -> tuple[int, bool]:
    """``random_foe_told``: a random foe in reach (drawn from ``targeting``), else the
    nearest on the field; and whether it was in reach. (-1, False): none left, or more
    foes in reach than the mirror's scratch holds (-2)."""
    n = foes_in_reach(i, s, pos, geo, active, counts, floats, ints, filing, bounds)
    if n < 0:
        return -2, False
    if n > 0:
        return int(_views(floats, ints)[5][int(random(targeting) * n)]), True
    mine = s[i, _SIDE]
    if _foes(mine, counts) == 0:
        return -1, False
    near = nearest(pos[i, _X], pos[i, _Y], 1 - mine, geo, floats, ints, filing, bounds,
                   counters, s[i, _TARGET])  # fmt: skip  # (its last target: not yet told)
    if near >= 0:
        return int(near), False
    return _foe(mine, int(random(targeting) * _foes(mine, counts)), active, counts), False


@njit(cache=True, inline="always")
def another_in_reach(
    i: int,
    s: np.ndarray,
    pos: np.ndarray,
    geo: np.ndarray,
    active: np.ndarray,
    counts: np.ndarray,
    floats: np.ndarray,
    ints: np.ndarray,
    filing: np.ndarray,
    bounds: np.ndarray,
    places: np.ndarray,
    room: np.ndarray,
    bands: np.ndarray,
    rules: np.ndarray,
    rnd: int,
    claim: bool,
) -> int:
    """``room.another_in_reach`` (``claim``: a place taken round it, now the target) or
    ``room.roomy_foe_in_reach`` (not): the first foe in reach with a place for ``i``
    (-1: none; -2: too many to tell)."""
    n = foes_in_reach(i, s, pos, geo, active, counts, floats, ints, filing, bounds)
    if n < 0:
        return -2
    out = _views(floats, ints)[5]  # foes_in_reach's (neither test below asks the mirror)
    for k in range(n):
        foe = out[k]
        if claim:
            if places[foe, _ROOMY] or _admit(foe, i, places, room, bands, rules, rnd):
                s[i, _TARGET] = foe
                return int(foe)
        elif _has_room(foe, i, places, room, bands, rules, rnd):
            return int(foe)
    return -1


@njit(cache=True, inline="always")
def plan_move(
    i: int, t: int, budget: int, attacks: int, s: np.ndarray, pos: np.ndarray, geo: np.ndarray
) -> int:
    """``moving.plan_move`` of a :class:`CloseIn` fighter without a crit's slowing: its
    movement actions (``s[i, _MOVES]``) and how many of ``attacks`` it can still make."""
    s[i, _MOVES] = 0
    s[i, _WANTED] = attacks  # follow_plan's memory["attacks_wanted"]
    ax, ay, tx, ty, two = pos[i, _X], pos[i, _Y], pos[t, _X], pos[t, _Y], geo[_TWO]
    full = pos[i, _RADIUS] + pos[i, _REACH] + pos[t, _RADIUS]
    if _within(ax - tx, ay - ty, full * full + _ARRIVE, two):
        return attacks  # no destination: it stands and strikes whoever is in reach
    gx, gy = _contact(ax, ay, tx, ty, full - _ENGAGE)
    gap = hypot(ax - gx, ay - gy)
    pace = pos[i, _STRIDE]
    spent, yards = 0, 0.0  # steps_for
    if gap > 0:
        top = min(max(min(s[i, _MOST], budget), 0), 2)
        spent, yards = top, geo[_ALLOW + top] * pace
        for k in range(top + 1):
            if gap <= geo[_ALLOW + k] * pace:
                spent, yards = k, gap
                break
    s[i, _MOVES] = spent
    if yards < gap - _ARRIVE or hypot(gx - tx, gy - ty) > full + _ARRIVE:
        return 0
    left = budget - spent
    return attacks if attacks < left else left


@njit(cache=True, inline="always")
def spare(i: int, actions: int, s: np.ndarray, pos: np.ndarray, geo: np.ndarray) -> None:
    """``moving._spare``: movement actions not needed after all go to attacks on a target
    now in reach, up to what it wanted, the rest to defences."""
    if actions <= 0:
        return
    s[i, _MOVES] -= actions
    strikes = 0
    t = s[i, _TARGET]
    if t >= 0 and touches(i, t, pos, geo):
        strikes = max(0, min(actions, s[i, _WANTED] - s[i, _ATTACKS]))
    s[i, _ATTACKS] += strikes
    s[i, _DEFENCES] += actions - strikes


@njit(cache=True, inline="always")
def advance(
    i: int,
    s: np.ndarray,
    pos: np.ndarray,
    geo: np.ndarray,
    floats: np.ndarray,
    ints: np.ndarray,
    filing: np.ndarray,
    bounds: np.ndarray,
    counters: np.ndarray,
    rings: np.ndarray,
    places: np.ndarray,
    rnd: int,
    events: np.ndarray,
    moved: np.ndarray,
) -> int:
    """``moving.advance`` on open ground: toward the point of contact with its target as
    far as its planned actions go, to the first free place of its way
    (``ranks.way_forward``), logged; actions not needed spared. 1 done, 0 an array full,
    :data:`GAVE_UP`."""
    planned = s[i, _MOVES]
    t = s[i, _TARGET]
    hx, hy, two = pos[i, _X], pos[i, _Y], geo[_TWO]
    r = pos[i, _RADIUS]
    if t < 0:
        spare(i, planned, s, pos, geo)
        return 1
    tx, ty = pos[t, _X], pos[t, _Y]
    full = r + pos[i, _REACH] + pos[t, _RADIUS]
    if _within(hx - tx, hy - ty, full * full + _ARRIVE, two):
        spare(i, planned, s, pos, geo)  # no destination
        return 1
    gx, gy = _contact(hx, hy, tx, ty, full - _ENGAGE)
    gap = hypot(hx - gx, hy - gy)
    pace = pos[i, _STRIDE]
    allowance = geo[_ALLOW + planned] * pace
    yards = gap if gap <= allowance else allowance
    if yards <= _ARRIVE:
        spare(i, planned, s, pos, geo)
        return 1
    reaches = yards >= gap - _ARRIVE
    size_t, size_i = places[t, _SIZE], places[i, _SIZE]
    count = int(rings[size_t, size_i, 0]) if reaches else 0
    reach = full - _ENGAGE
    ring = (tx, ty, reach, (reach + _ENGAGE) ** two) if reaches else (0.0, 0.0, 0.0, 0.0)
    way = (hx, hy, gx, gy, gap, yards, allowance, r, *ring, _SHUFFLE)
    edges = (-1.0, -1.0)  # open ground
    found, _, x, y = _search(way, rings[size_t, size_i, 1 : 1 + count], edges, i, floats, ints,
                             two)  # fmt: skip
    if found < 0:
        return GAVE_UP
    if found > 0:  # every place taken: it waits where it stands
        spare(i, planned, s, pos, geo)
        return 1
    yards = hypot(hx - x, hy - y)
    if yards <= _ARRIVE:
        spare(i, planned, s, pos, geo)
        return 1
    spent, most = 0, min(planned, 2)
    while spent < most and yards > geo[_ALLOW + spent] * pace:
        spent += 1
    if not move(i, x, y, s, pos, geo, floats, ints, filing, bounds, counters):
        return GAVE_UP
    pos[i, _BEARING] = math.atan2(gy - hy, gx - hx)
    s[i, _GAIT] = spent + 1
    e = _event(events, MOVE, rnd, i)
    if e < 0:
        return 0
    events[e, 3], events[e, 4], events[e, 5] = s[i, _TARGET], spent, spent + 1
    moved[e, 0], moved[e, 1], moved[e, 2], moved[e, 3], moved[e, 4] = yards, hx, hy, x, y
    if planned > spent:
        spare(i, planned - spent, s, pos, geo)
    return 1


@njit(cache=True, inline="always")
def move(
    i: int,
    x: float,
    y: float,
    s: np.ndarray,
    pos: np.ndarray,
    geo: np.ndarray,
    floats: np.ndarray,
    ints: np.ndarray,
    filing: np.ndarray,
    bounds: np.ndarray,
    counters: np.ndarray,
) -> bool:
    """``Squares.move``: ``i`` stands at ``(x, y)``, in the mirror, filed last in its new
    bucket where it stepped into another (stamped, its side's bounds widened). False:
    outside the mirror's grid."""
    cell = geo[_CELL]
    oi, oj = pos[i, _X] // cell, pos[i, _Y] // cell
    ni, nj = x // cell, y // cell
    grid, spots, links, head, _, _ = _views(floats, ints)
    was = links[i, 2]
    if not _put_in(i, x, y, pos[i, _RADIUS], spots, links, head, grid):
        return False
    pos[i, _X], pos[i, _Y] = x, y
    if links[i, 2] != was:
        rows, side = int(grid[4]), s[i, _SIDE]
        counters[_block(side, was, rows, counters)] -= 1
        counters[_block(side, links[i, 2], rows, counters)] += 1
    if ni != oi or nj != oj:
        filing[i, 1] = counters[1]
        counters[1] += 1
        b = bounds[s[i, _SIDE]]
        ki, kj = int(ni), int(nj)
        if ki < b[0]:
            b[0] = ki
        elif ki > b[2]:
            b[2] = ki
        if kj < b[1]:
            b[1] = kj
        elif kj > b[3]:
            b[3] = kj
    return True


@njit(cache=True, inline="always")
def taken_off(
    events: np.ndarray,
    counters: np.ndarray,
    floats: np.ndarray,
    ints: np.ndarray,
    filing: np.ndarray,
) -> None:
    """Those taken out or gone since last asked (the events from ``counters[0]``) off the
    field, as ``Battle._deactivate`` takes them off it at once."""
    grid, _, links, head, _, _ = _views(floats, ints)
    for e in range(counters[0], events[0, 0]):
        if events[e, 0] == 2 or events[e, 0] == 7:  # swing.OUT, morale.LEAVES
            k = events[e, 2]
            if links[k, 2] >= 0:
                counters[_block(filing[k, 0], links[k, 2], int(grid[4]), counters)] -= 1
                _unlink(k, head, links)
    counters[0] = events[0, 0]
