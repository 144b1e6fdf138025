"""Who stands where on the field, mirrored in arrays, and a search's first free place
measured there in compiled code (numba), once numba is loaded anyway.

A fighter whose move ends where another stands tries a dozen places in order
(:func:`~fadad_agents.agents.core.ranks.way_forward`), each measured in Python against
the fighters filed under the place's square: near Python's floor, yet a fifth of a round
of 200 in ranks. Here the places are worked out (:mod:`~fadad_agents.agents.core.crowd.
places`) and measured in one compiled call, against the field in arrays
(:class:`Occupied`): each fighter's ``x, y`` and radius, and a grid of squares at least
as wide as any two fighters' elbow room, each listing who stands in it (a linked list of
array slots), so that a place is measured against those of the nine squares round it.

The measuring is ``_first_free``'s, operation for operation (squares by ``*``, and by
``**`` within a hair of the elbow room round the target): the same places are free. Who
blocks a place may differ (any fighter within its elbow room; which is part of no answer).
Everyone filed on the field is fighting (a fighter leaving the fight is taken off it at
once), so no status is read here. The searches count no references (``uncounted``).

The field keeps the mirror as fighters come, move and leave (``Squares.occupied``): made
at the first search that asks for it, and again when someone steps outside its grid.
"""

from __future__ import annotations

import math
from itertools import chain
from typing import Any

import numba
import numpy as np
from numba import types

from fadad_agents.agents.core.crowd.places import MOST_SPOTS, _spots
from fadad_agents.agents.core.field.borrowed import uncounted
from fadad_agents.agents.core.field.caching import njit
from fadad_agents.agents.core.field.measures import ELBOW_ROOM, SQUARES_HIGH, SQUARES_LOW

__all__ = ["MOST_SQUARES", "Occupied", "direct", "first_free"]

MOST_SQUARES = 1 << 20
"""The most squares the grid may have: a field spread wider (thousands of yards) is
measured in Python, as before."""

_MARGIN = 16.0
"""Grid kept round everyone: 16 yards, or half the crowd's spread that way (a wide front fits)."""


_TWO = np.float64(2.0)  # Python's squares are pow(x, 2.0): given at run time, never x * x

_HEADER = 6
"""The grid's figures first in :class:`Occupied`'s ``floats``: its corner, its squares'
side, its columns and rows, and how many slots (:func:`_views`)."""


@njit(cache=True)
def _square(x: float, y: float, grid: Any) -> int:
    """The grid's square holding ``(x, y)``, or -1 outside the grid."""
    i = math.floor((x - grid[0]) / grid[2])
    j = math.floor((y - grid[1]) / grid[2])
    if i >= 0 and j >= 0 and i < grid[3] and j < grid[4]:
        return int(i) * int(grid[4]) + int(j)
    return -1


@njit(cache=True)
def _unlink(s: int, head: Any, links: Any) -> None:
    """Take slot ``s`` out of its square's list (if it is in one)."""
    following, before, square = links[s, 0], links[s, 1], links[s, 2]
    if square < 0:
        return
    if before >= 0:
        links[before, 0] = following
    else:
        head[square] = following
    if following >= 0:
        links[following, 1] = before
    links[s, 2] = -1


@njit(cache=True, inline="always")
def _views(floats: Any, ints: Any) -> tuple[Any, Any, Any, Any, Any, Any]:
    """:class:`Occupied`'s two arrays seen as its parts: ``grid`` (its corner, its
    squares' side, its columns and rows, and how many slots), each slot's ``spots`` and
    ``links``, each square's ``head``, and a search's scratch: ``out`` (its places) and
    ``blockers`` (who stood in each)."""
    capacity, squares = int(floats[5]), int(floats[3]) * int(floats[4])
    spots = floats[_HEADER : _HEADER + 3 * capacity].reshape((capacity, 3))
    links = ints[: 3 * capacity].reshape((capacity, 3))
    head = ints[3 * capacity : 3 * capacity + squares]
    out, blockers = floats[_HEADER + 3 * capacity :], ints[3 * capacity + squares :]
    return floats[:_HEADER], spots, links, head, out, blockers


@njit(cache=True)
def _put(s: int, x: float, y: float, r: float, floats: Any, ints: Any) -> bool:
    """:func:`_put_in` of the mirror's two arrays (two arguments: numba's call costs
    more with each array it is given)."""
    grid, spots, links, head, _, _ = _views(floats, ints)
    return _put_in(s, x, y, r, spots, links, head, grid)


@njit(cache=True)
def _put_in(
    s: int, x: float, y: float, r: float, spots: Any, links: Any, head: Any, grid: Any
) -> bool:
    """Slot ``s`` stands at ``(x, y)`` with radius ``r``, listed in its square; False
    (nothing changed) if that lies outside the grid."""
    square = _square(x, y, grid)
    if square < 0:
        return False
    spots[s, 0], spots[s, 1], spots[s, 2] = x, y, r
    if links[s, 2] != square:
        _unlink(s, head, links)
        first = head[square]
        links[s, 0], links[s, 1], links[s, 2] = first, -1, square
        if first >= 0:
            links[first, 1] = s
        head[square] = s
    return True


@njit(cache=True)
def _standing_in(
    x: float, y: float, by_pow: bool, me: int, r: float, floats: Any, ints: Any, two: float
) -> int:
    """:func:`_standing_at` in the mirror's two arrays."""
    grid, spots, links, head, _, _ = _views(floats, ints)
    return _standing_at(x, y, by_pow, me, r, spots, links, head, grid, two)


@njit(cache=True, inline="always")
def _standing_at(
    x: float,
    y: float,
    by_pow: bool,
    me: int,
    r: float,
    spots: Any,
    links: Any,
    head: Any,
    grid: Any,
    two: float,
) -> int:
    """A slot (not ``me``) standing within the elbow room of a fighter of radius ``r`` at
    ``(x, y)``, measured as ``ranks._first_free`` measures (``by_pow``: squares by ``**``
    within a hair of the elbow room), or -1: everyone within it stands in the nine
    squares round the place."""
    columns, rows = int(grid[3]), int(grid[4])
    fi, fj = math.floor((x - grid[0]) / grid[2]), math.floor((y - grid[1]) / grid[2])
    if not (fi >= -1 and fj >= -1 and fi <= columns and fj <= rows):
        return -1
    i0, i1 = max(int(fi) - 1, 0), min(int(fi) + 1, columns - 1)
    j0, j1 = max(int(fj) - 1, 0), min(int(fj) + 1, rows - 1)
    for i in range(i0, i1 + 1):
        for j in range(j0, j1 + 1):
            s = head[i * rows + j]
            while s >= 0:
                if s != me:
                    ox, oy = spots[s, 0] - x, spots[s, 1] - y
                    room = (r + spots[s, 2]) * ELBOW_ROOM
                    d, limit = ox * ox + oy * oy, room * room
                    if by_pow and limit * SQUARES_LOW <= d and d <= limit * SQUARES_HIGH:
                        d, limit = ox**two + oy**two, room**two
                    if d < limit:
                        return int(s)
                s = links[s, 0]
    return -1


@uncounted
def _search(
    way: Any, turns: Any, bounds: Any, me: int, floats: Any, ints: Any, two: float
) -> tuple[int, int, float, float]:
    """A search's places (``places._spots`` into ``out``, ``x, y`` flat) and the first
    where nobody stands within the elbow room of the fighter in slot ``me``
    (``ranks._first_free``): how many places (-1: more than ``out`` holds; 0: every one
    taken), how many round the target, and the first free place's ``x, y`` (read in
    Python without indexing ``out``); ``blockers[k]``, a slot standing in place ``k``
    (-1: free), for every place measured (``out`` and ``blockers``: the mirror's scratch,
    :func:`_views` of its two arrays ``floats`` and ``ints``)."""
    grid, spots, links, head, out, blockers = _views(floats, ints)
    count, ring = _spots(way, turns, bounds, two, out[: 2 * MOST_SPOTS])
    if count < 0:
        return -1, 0, 0.0, 0.0
    r = way[7]
    kept = out[2 * count :]  # each blocker's slot and where it stood (crowd.remembered)
    for k in range(count):
        x, y = out[2 * k], out[2 * k + 1]
        found = _standing_at(x, y, 0 < k <= ring, me, r, spots, links, head, grid, two)
        blockers[k] = found
        if found < 0:
            return 0, ring, x, y
        kept[3 * k], kept[3 * k + 1], kept[3 * k + 2] = found, spots[found, 0], spots[found, 1]
    return count, ring, 0.0, 0.0


_STEPPED = (2 * 1e-6) ** 2
"""The least squared yards from where a mover stands to the place its search found for it
to be moved there at once (:func:`_search_step`): twice ``moving``'s yards that count as
there, so that a place moved to here is one ``advance`` moves to (it moves by more than
1e-6 yards, however ``hypot`` rounds)."""


@njit(cache=True)
def _search_step(
    way: Any, turns: Any, bounds: Any, me: int, floats: Any, ints: Any, two: float
) -> tuple[int, int, float, float, bool]:
    """:func:`_search` of a mover who moves to the place found (``moving.advance``), and
    whether slot ``me`` was moved there too (as :func:`_put` would: the place lies in the
    grid, and farther from where it stands than :data:`_STEPPED`), to spare the field's
    move a second compiled call."""
    count, ring, x, y = _search(way, turns, bounds, me, floats, ints, two)
    if count == 0:
        dx, dy = x - way[0], y - way[1]
        if dx * dx + dy * dy > _STEPPED:
            grid, spots, links, head, _, _ = _views(floats, ints)
            return 0, ring, x, y, _put_in(me, x, y, way[7], spots, links, head, grid)
    return count, ring, x, y, False


@uncounted
def _touching_in(asked: Any, floats: Any, ints: Any, filing: Any, two: float) -> int:
    """``space._touching``'s foes, measured here: the slots of side ``asked[6]`` filed in
    the side's buckets ``asked[7]`` to ``asked[8]`` across and ``asked[9]`` to
    ``asked[10]`` down (``x // cell, y // cell``, ``cell`` ``asked[5]``) standing within
    ``asked[2]`` yards of ``asked[0], asked[1]`` (squares by products, by ``**`` within a
    hair) and, unless as wide as the widest (``asked[4]``), within the reach ``asked[3]``
    plus their radius: into the scratch ``blockers`` in the order the buckets list them
    (bucket by bucket, across then down, each in the order filed: ``filing``'s stamps).
    How many; -1 if more than the scratch holds."""
    grid, spots, links, head, _, found = _views(floats, ints)
    x, y, radius, base, widest, cell = asked[0], asked[1], asked[2], asked[3], asked[4], asked[5]
    side, bx0, bx1, by0, by1 = asked[6], asked[7], asked[8], asked[9], asked[10]
    r2 = radius * radius
    low, high = r2 * SQUARES_LOW, r2 * SQUARES_HIGH
    columns, rows = int(grid[3]), int(grid[4])  # the grid's squares within radius, and one
    i0 = max(math.floor((x - radius - grid[0]) / grid[2]) - 1, 0)  # more (floating point)
    i1 = min(math.floor((x + radius - grid[0]) / grid[2]) + 1, columns - 1)
    j0 = max(math.floor((y - radius - grid[1]) / grid[2]) - 1, 0)
    j1 = min(math.floor((y + radius - grid[1]) / grid[2]) + 1, rows - 1)
    count = 0
    for i in range(int(i0), int(i1) + 1):
        for j in range(int(j0), int(j1) + 1):
            s = head[i * rows + j]
            while s >= 0:
                px, py = spots[s, 0] - x, spots[s, 1] - y
                d = px * px + py * py
                if filing[s, 0] == side and (d < low or (d <= high and px**two + py**two <= r2)):
                    ki, kj = spots[s, 0] // cell, spots[s, 1] // cell  # its bucket (as Python)
                    near = bx0 <= ki <= bx1 and by0 <= kj <= by1
                    if near:
                        if spots[s, 2] != widest:  # as wide: within radius, it touches
                            reach = base + spots[s, 2]
                            limit = reach * reach + 1e-6
                            if d > limit * SQUARES_LOW and (
                                d > limit * SQUARES_HIGH or px**two + py**two > limit
                            ):
                                near = False
                        if near:
                            if count >= len(found):
                                return -1
                            found[count] = s
                            count += 1
                s = links[s, 0]
    for a in range(1, count):  # in the buckets' order: a handful, by insertion
        s = found[a]
        si, sj, stamp = spots[s, 0] // cell, spots[s, 1] // cell, filing[s, 1]
        b = a - 1
        while b >= 0:
            t = found[b]
            ti, tj = spots[t, 0] // cell, spots[t, 1] // cell
            if ti < si or (ti == si and (tj < sj or (tj == sj and filing[t, 1] < stamp))):
                break
            found[b + 1] = t
            b -= 1
        found[b + 1] = s
    return count


@njit(cache=True)
def _file_all(floats: Any, ints: Any, n: int) -> bool:
    """List slots ``0 .. n`` (``spots`` set) in their squares; False if one lies outside."""
    grid, spots, links, head, _, _ = _views(floats, ints)
    for s in range(n):
        if not _put_in(s, spots[s, 0], spots[s, 1], spots[s, 2], spots, links, head, grid):
            return False
    return True


_FLOATS, _INTS = types.float64[::1], types.int64[::1]  # the mirror's two arrays, typed

_tuple_of: Any = types.UniTuple  # (numba's types are untyped)
_WAY = _tuple_of(types.float64, 13)  # a search's way (ranks._compiled_search)


def direct(dispatcher: Any, *typed: Any) -> Any:
    """``dispatcher``'s compiled code for arguments of the numba types ``typed``, to be
    called without its dispatch: numba types every argument of a call to pick its code,
    about 2,800 instructions a call here, as many as most of these calls' own work (3%
    of a round's instructions at 200 agents). Only for arguments of these types (a float
    or int for a float, an array of the dtype, contiguous); the dispatcher's own answers
    (tests/engine/core/test_compiled_direct.py). With numba's ``NUMBA_DISABLE_JIT`` (its
    debugging switch: every ``njit`` function left as Python), the Python function, its
    numpy scalars given back as Python's, as compiled code boxes them."""
    if numba.config.DISABLE_JIT:  # type: ignore[attr-defined]  # (read from the environment)
        return _as_compiled(dispatcher)
    return dispatcher.compile(typed)


def _as_compiled(function: Any) -> Any:
    """``function`` (an ``njit`` one left as Python) answering as its compiled code
    would: a numpy scalar, alone or in a tuple, as a Python ``float``, ``int`` or
    ``bool``."""

    def call(*args: Any) -> Any:
        found = function(*args)
        if isinstance(found, tuple):
            return tuple(v.item() if isinstance(v, np.generic) else v for v in found)
        return found.item() if isinstance(found, np.generic) else found

    return call


_F8, _I8 = types.float64, types.int64
_put_now = direct(_put, _I8, _F8, _F8, _F8, _FLOATS, _INTS)
_standing_now = direct(_standing_in, _F8, _F8, types.boolean, _I8, _F8, _FLOATS, _INTS, _F8)
_search_now = direct(_search, _WAY, _FLOATS, _tuple_of(_F8, 2), _I8, _FLOATS, _INTS, _F8)
_step_now = direct(_search_step, _WAY, _FLOATS, _tuple_of(_F8, 2), _I8, _FLOATS, _INTS, _F8)
_ASKED = _tuple_of(_F8, 11)  # a question of Occupied.touching
_touching_now = direct(_touching_in, _ASKED, _FLOATS, _INTS, types.int64[:, ::1], _F8)


class Occupied:
    """The field in arrays (see the module): a slot a fighter, ``spots`` its ``x, y`` and
    radius, ``links`` the next and previous slot in its square and the square (-1: off
    the field), ``head`` each square's first slot; ``grid`` the grid's corner, its
    squares' side and how many columns and rows (and how many slots). ``agents``: who
    holds each slot, and None last (a slot of -1, nobody, reads None). These are parts
    of two arrays, ``floats`` and ``ints`` (:func:`_views`), with a search's scratch:
    what compiled code is given (numba's call costs more with each array). ``ahead``: a
    mover its search moved here already (:func:`first_free` with ``step``), till the
    field's move finds it so (``Squares.move``). ``filing``: each slot's side and when it
    was last filed in its side's bucket (a stamp, from ``stamp`` on: a bucket lists its
    fighters in the order filed), so that foes in reach are told in the buckets' order
    (:meth:`touching`), and its ``unique_id`` (the nearest's ties: ``crowd.remembered``)."""

    __slots__ = (
        "agents", "ahead", "blockers", "filing", "floats", "grid", "head", "ints", "links",
        "out", "slots", "spots", "stamp",
    )  # fmt: skip

    def __init__(self, standing: list[Any], spots: Any, grid: tuple[float, ...]) -> None:
        n = len(standing)
        capacity = max(64, 2 * n)
        squares = int(grid[3]) * int(grid[4])
        self.agents: list[Any] = [*standing, *[None] * (capacity - n + 1)]
        self.ahead: Any = None
        self.slots = {agent: s for s, agent in enumerate(standing)}
        self.floats = np.zeros(_HEADER + 3 * capacity + 5 * MOST_SPOTS)
        self.floats[:_HEADER] = (*grid, capacity)
        self.ints = np.full(3 * capacity + squares + MOST_SPOTS, -1, dtype=np.int64)
        self.grid, self.spots, self.links, self.head, self.out, self.blockers = _views(
            self.floats, self.ints
        )
        self.spots[:n] = spots
        # filed in the order standing lists them: bucket by bucket, each in its order
        self.filing = np.zeros((capacity, 3), dtype=np.int64)
        self.filing[:n, 0] = np.fromiter([agent.side for agent in standing], np.int64, n)
        self.filing[:n, 1] = np.arange(n)
        self.filing[:n, 2] = np.fromiter([agent.unique_id for agent in standing], np.int64, n)
        self.stamp = n

    @classmethod
    def made(cls, standing: list[Any], widest: float) -> Occupied | None:
        """The mirror of a field where ``standing`` stand (no one wider than ``widest``),
        or None if its grid would be too large (:data:`MOST_SQUARES`)."""
        # Squares a hair wider than any two fighters' elbow room (floating point).
        side = max(2 * widest * ELBOW_ROOM * (1 + 1e-9) + 1e-9, 0.5)
        n = len(standing)  # x, y and radius of each, in one pass each (tens of thousands)
        spots = np.empty((n, 3))
        where = chain.from_iterable([agent.position for agent in standing])
        spots[:, :2] = np.fromiter(where, np.float64, 2 * n).reshape(n, 2)
        spots[:, 2] = np.fromiter([agent.radius for agent in standing], np.float64, n)
        low = spots[:, :2].min(axis=0).tolist() if n else [0.0, 0.0]
        high = spots[:, :2].max(axis=0).tolist() if n else [0.0, 0.0]
        across, down = (max(_MARGIN, (b - a) / 2) for a, b in zip(low, high, strict=True))
        x0, y0 = low[0] - across, low[1] - down
        columns = math.floor((high[0] + across - x0) / side) + 1
        rows = math.floor((high[1] + down - y0) / side) + 1
        if columns * rows > MOST_SQUARES:
            return None
        found = cls(standing, spots, (x0, y0, side, float(columns), float(rows)))
        if not _file_all(found.floats, found.ints, n):
            return None  # floating point at the grid's far edge: not worth a second try
        return found

    def put(self, agent: Any, x: float, y: float) -> bool:
        """``agent`` stands at ``(x, y)`` (it came or moved); False if the mirror no
        longer holds (outside its grid, or no slot left): the field makes a new one."""
        s = self.slots.get(agent)
        if s is None:
            s = len(self.slots)
            if s >= len(self.spots):
                return False
            self.slots[agent] = s
            self.agents[s] = agent
            self.filing[s] = agent.side, self.stamp, agent.unique_id  # filed just now
            self.stamp += 1
        return bool(_put_now(s, x, y, agent.radius, self.floats, self.ints))

    def refiled(self, agent: Any) -> None:
        """``agent`` was filed last in a bucket of its side just now (it came or stepped
        into another bucket; one not yet here is stamped when put here)."""
        s = self.slots.get(agent)
        if s is not None:
            self.filing[s, 1] = self.stamp
            self.stamp += 1

    def touching(self, asked: tuple[float, ...]) -> list[Any] | None:
        """The foes ``asked`` for (:func:`_touching_in`: the question of
        ``space._touching``), in the order its buckets list them; None if too many."""
        count = _touching_now(asked, self.floats, self.ints, self.filing, _TWO)
        if count < 0:
            return None
        agents = self.agents
        return [agents[s] for s in self.blockers[:count].tolist()]

    def standing_at(self, agent: Any, x: float, y: float, by_pow: bool = False) -> Any | None:
        """Someone standing within ``agent``'s elbow room at ``(x, y)`` (``agent`` no
        wider than anyone on the field), measured by products (``by_pow``: as the places
        round a target are measured, ``**`` within a hair), or None."""
        me = self.slots.get(agent, -1)
        s = _standing_now(x, y, by_pow, me, agent.radius, self.floats, self.ints, _TWO)
        return self.agents[s]

    def standing(self) -> tuple[list[Any], Any]:
        """Everyone on the field (in slot order), and each one's ``x, y`` and radius."""
        on = np.flatnonzero(self.links[: len(self.slots), 2] >= 0)
        agents = self.agents
        return [agents[s] for s in on.tolist()], self.spots[on]

    def drop(self, agent: Any) -> None:
        """``agent`` left the field."""
        s = self.slots.get(agent)
        if s is not None:
            _unlink(s, self.head, self.links)


REMEMBERED = True
"""A search that finds every place taken leaves its places, and each one's blocker's slot
and where it stood, in one array kept with the mirror it was measured in
(:func:`first_free`'s ``tried`` is then that pair): ``ranks.Blocked.retry`` measures them
again in one compiled call (:mod:`~fadad_agents.agents.core.crowd.remembered`) instead of
a Python list of blockers and their positions. False (tests only): the lists; the same
battle."""

_NO_SPOTS: list[Any] = []  # a free place found: no places nor blockers kept (never changed)


def first_free(
    actor: Any,
    occupied: Occupied,
    way: tuple[float, ...],
    turns: Any,
    bounds: Any,
    step: bool = False,
) -> tuple[tuple[float, float] | None, Any, int, Any] | None:
    """A search's first free place (``ranks.way_forward``; ``way``, ``turns`` and
    ``bounds`` as :func:`~fadad_agents.agents.core.crowd.places.spots_of` takes them), in
    one compiled call: ``(place, spots, ring, tried)``, where, if every place is taken
    (``place`` None), ``spots`` are the places (``x, y`` flat), ``ring`` how many round
    the target and ``tried`` who stood in each (else both empty; with :data:`REMEMBERED`
    the places are an array and ``tried`` the mirror and that array, each blocker's slot
    and where it stood after the places: :mod:`~.remembered`); None if there are more
    than :data:`~fadad_agents.agents.core.crowd.places.MOST_SPOTS` places or the actor is
    not in the mirror (Python searches, the same places). ``step``: the actor moves to the
    place found, farther than 1e-6 yards (``moving.advance``): it is moved there in the
    mirror in the same call if it can be (:attr:`Occupied.ahead`), and the field's move
    must follow."""
    me = occupied.slots.get(actor)
    if me is None:
        return None
    if step:
        count, ring, x, y, moved = _step_now(
            way, turns, bounds, me, occupied.floats, occupied.ints, _TWO
        )
        if moved:
            occupied.ahead = actor
    else:
        count, ring, x, y = _search_now(
            way, turns, bounds, me, occupied.floats, occupied.ints, _TWO
        )
    if count <= 0:
        return None if count else ((x, y), _NO_SPOTS, ring, _NO_SPOTS)
    if REMEMBERED:  # the places and blockers kept in an array (crowd.remembered)
        kept = occupied.out[: 5 * count].copy()
        return None, kept[: 2 * count], ring, (occupied, kept)
    agents = occupied.agents
    tried = [agents[s] for s in occupied.blockers[:count].tolist()]
    return None, occupied.out[: 2 * count].tolist(), ring, tried
