"""The nearest fighter of a side to a point, found in arrays.

A round's targeting asks thousands of times for the foe nearest a fighter
(:meth:`~fadad_agents.agents.core.field.Field.nearest`); in a crowd the side's fighters
are filed once in squares in arrays, while the side stands as it did, and each question
is answered there, compiled (numba: imported only for a side big enough to ask). One
who leaves is marked there (:meth:`Nearest.leave`) and passed over: a melee's losses keep
the side filed.
"""

from __future__ import annotations

import math
from itertools import chain
from operator import attrgetter
from typing import Any

import numpy as np
from numba import typeof

from fadad_agents.agents.core.crowd.occupied import direct
from fadad_agents.agents.core.field.caching import njit

__all__ = ["NEAREST_DIRECT", "NEAREST_SEEDED", "NEAR_TYPE", "NOBODY", "UNFILED", "Nearest"]

NEAREST_DIRECT = True
"""Ask the compiled searches of a side filed from a crowd's arrays (:meth:`Nearest.of`),
and every search of many points at once, by their code for the arrays' types, without
numba's dispatch (:func:`~.occupied.direct`; False: by the dispatcher, as a side filed
from its fighters asked one point at a time always is not; the tests compare both).
Arrays of other types or strides (a view) always go by the dispatcher."""

NEAREST_SEEDED = True
"""Begin each search of many points at once (:meth:`Nearest.to_each`,
:meth:`~Nearest.rows_to_each`) from the nearest of the last point's nearest and those in
three squares of the point's row (its own and the columns either side), not from nothing
(False; the tests compare both): the same answers, fewer squares looked at where the first
column searched holds only a few spots far along it (a rank filed across two columns by a
rounding: 60-110 squares a search, against 2-25), or where the nearest lies far off (the
points of a band's rear ranks, asked in their order, most often share a nearest foe
beyond the front: 3.0 us a search mid-battle at 20,000 fighters, 1.7 so)."""

_SLACK = 1e-6
"""Yards taken off a square's distance before skipping it (floating point at its edges),
as ``Field.nearest`` takes them."""

_SPREAD = 9.0
"""Spots a square holds on average (squares three spacings wide): where the nearest lies
far off (behind the ranks, most who ask), fewer squares to cross for a few more spots
measured in each. One a square read 1.2-3.0 us a search in a battle of 20,000, nine
0.6-1.6 (the same answers: the search is exact whatever the squares)."""

_CLOSE = 1 + 1e-12
"""A spot whose squared yards by products exceed the best's this many times over is
farther by ``pow`` too (the two part in the last bit at most): not measured again."""

_unique_id = attrgetter("unique_id")


class Nearest:
    """The fighters of a side where they stand now, filed in squares in arrays, and the
    nearest of them to any point: measured as ``Field.nearest`` measures (squared yards
    by ``**``, ties to the lower ``unique_id``), every fighter that may be the nearest
    (those in the squares no farther than the best found) measured, so each answer is
    ``Field.nearest``'s, those who left since (:meth:`leave`) passed over."""

    __slots__ = ("arrays", "each", "left", "near", "objects", "picks", "rows")

    def __init__(self, members: list[Any]) -> None:
        # read in memory order (the side's squares list them scattered): a pass over a
        # crowd of objects costs a few times less so; the answers do not depend on order
        members = sorted(members, key=id)
        spots = np.fromiter(
            chain.from_iterable([agent.position for agent in members]), np.float64, 2 * len(members)
        ).reshape(-1, 2)
        self._filed(spots, np.fromiter(map(_unique_id, members), np.int64, len(members)), members)
        self.near = _nearest_now  # its arrays made here, of the types it was compiled for
        self.each = _each_now if NEAREST_DIRECT else _nearest_each

    @classmethod
    def of(cls, spots: Any, ids: Any, members: list[Any], picks: Any = None) -> Nearest:
        """The ``members`` standing at ``spots`` (a row each, x and y) with ``ids`` their
        ``unique_id``: filed from arrays at hand (a crowd's), no fighter read. With
        ``picks``, each row's index in ``members`` and one more, last, where ``members``
        holds None (a crowd's fighters, not copied: :meth:`~.waiting._Crowd.filed`)."""
        known = cls.__new__(cls)
        known._filed(spots, ids, members, picks)
        # the direct code only for the arrays it was compiled for (a crowd's: spots of
        # np.column_stack, ids fancy-indexed, both new C-contiguous arrays); else
        # numba's dispatch finds the code for these arrays
        typed = NEAREST_DIRECT and _c_array(spots, np.float64, 2) and _c_array(ids, np.int64, 1)
        known.near, known.each = (
            (_nearest_now, _each_now) if typed else (_nearest_to, _nearest_each)
        )
        return known

    def _filed(self, spots: Any, ids: Any, members: list[Any], picks: Any = None) -> None:
        # each row's member is objects[picks[row]]; picks[-1] (row -1: every one left)
        # is None's: a crowd's fighters are listed once, and a side filed afresh reads
        # none of them (a list of 10,000 made anew touches each one: half a millisecond)
        n = len(ids)
        if picks is None:
            members, picks = [*members, None], np.arange(n + 1)
        self.objects, self.picks = members, picks
        self.left = left = np.zeros(n, np.bool_)
        self.rows = np.full(int(ids.max()) + 1 if n else 0, -1, np.int64)
        self.rows[ids] = np.arange(n)  # each member's row, by unique_id
        self.arrays: tuple[Any, Any, Any, Any, Any, Any, Any] = (spots, ids, *_file(spots), left)

    @property
    def members(self) -> list[Any]:
        """Those filed, row by row."""
        return list(map(self.objects.__getitem__, self.picks[:-1].tolist()))

    def at(self, rows: Any) -> list[Any]:
        """The member of each of ``rows`` (an array; None for -1)."""
        return list(map(self.objects.__getitem__, self.picks[rows].tolist()))

    def leave(self, agent: Any) -> None:
        """``agent`` left the field: nobody's nearest from now on (one not filed here,
        never anybody's)."""
        uid = agent.unique_id
        if uid < len(self.rows) and self.rows[uid] >= 0:
            self.left[self.rows[uid]] = True

    def to(self, x: float, y: float) -> Any:
        """The member nearest ``(x, y)`` (None: every one left)."""
        return self.objects[self.picks[self.near(self.arrays, x, y, 2.0)[0]]]

    def to_each(self, points: list[tuple[float, float]]) -> list[Any]:
        """The member nearest each of ``points`` (as :meth:`to`), in one compiled call."""
        places = np.fromiter(chain.from_iterable(points), np.float64, 2 * len(points))
        return self.at(self.each(self.arrays, places, 2.0, NEAREST_SEEDED))

    def rows_to_each(self, places: Any) -> Any:
        """The row of the member nearest each of ``places`` (x and y in turn, flat), -1
        where every one left: :meth:`to_each` in arrays (``members[row]``)."""
        each = self.each if _c_array(places, np.float64, 1) else _nearest_each
        return each(self.arrays, places, 2.0, NEAREST_SEEDED)


def _c_array(a: Any, dtype: Any, ndim: int) -> bool:
    """Whether ``a`` is an array of ``dtype`` and ``ndim`` dimensions laid out as C lays
    it out (a direct call's code reads any other wrongly, silently)."""
    return (
        isinstance(a, np.ndarray) and a.dtype == dtype and a.ndim == ndim and a.flags.c_contiguous
    )


@njit(cache=True)
def _file(spots: Any) -> tuple[Any, Any, Any, Any]:
    """The ``spots`` filed in squares over their box, about :data:`_SPREAD` a square:
    each square's first row in ``filed`` (and the next's, one more), the rows square by
    square, each column's least and greatest x (``across``), and the box (its corner, the
    square's side, columns and rows)."""
    n = len(spots)
    x_lo, y_lo = spots[:, 0].min(), spots[:, 1].min()
    wide, high = spots[:, 0].max() - x_lo, spots[:, 1].max() - y_lo
    cell = max(math.sqrt(wide * high * _SPREAD / n), max(wide, high) / n, 1e-3)
    columns, rows = int(wide / cell) + 1, int(high / cell) + 1
    square = np.empty(n, np.int64)
    starts = np.zeros(columns * rows + 1, np.int64)
    for k in range(n):
        i = min(int((spots[k, 0] - x_lo) / cell), columns - 1)
        j = min(int((spots[k, 1] - y_lo) / cell), rows - 1)
        square[k] = i * rows + j
        starts[square[k] + 1] += 1
    for s in range(columns * rows):
        starts[s + 1] += starts[s]
    filed = np.empty(n, np.int64)
    fill = starts[:-1].copy()
    across = np.empty((columns, 2))
    across[:, 0], across[:, 1] = math.inf, -math.inf
    for k in range(n):
        filed[fill[square[k]]] = k
        fill[square[k]] += 1
        i = square[k] // rows
        across[i, 0] = min(across[i, 0], spots[k, 0])
        across[i, 1] = max(across[i, 1], spots[k, 0])
    return starts, filed, across, np.array([x_lo, y_lo, cell, columns, rows])


@njit(cache=True)
def _nearest_to(arrays: Any, x: float, y: float, two: float) -> tuple[int, float]:
    """The row of ``spots`` (of a :class:`Nearest`'s ``arrays``) nearest ``(x, y)`` by
    ``(px - x) ** two + (py - y) ** two`` (``two`` given at run time: Python's ``**`` is
    the C library's ``pow``, which a constant 2 compiled into a product may differ from in
    the last bit), the lower of ``ids`` on a tie, and that squared distance; rows that
    ``left`` are passed over (-1 and infinity: every row left). :func:`_search` from the
    square nearest the point, nothing found yet."""
    ci, cj = _square_of(arrays[5], x, y)
    return _search(arrays, x, y, two, ci, cj, -1, math.inf, 0)


@njit(cache=True)
def _square_of(box: Any, x: float, y: float) -> tuple[int, int]:
    """The column and row of the square of ``box`` nearest ``(x, y)``."""
    x_lo, y_lo, cell = box[0], box[1], box[2]
    columns, rows = int(box[3]), int(box[4])
    ci = min(max(math.floor((x - x_lo) / cell), 0), columns - 1)
    cj = min(max(math.floor((y - y_lo) / cell), 0), rows - 1)
    return ci, cj


@njit(cache=True)
def _search(
    arrays: Any, x: float, y: float, two: float, ci: int, cj: int, best: int, best_d: float,
    best_id: int,
) -> tuple[int, float]:  # fmt: skip
    """:func:`_nearest_to`'s answer, the best found so far ``best`` (a row, -1: none yet;
    its squared distance ``best_d`` and ``ids`` entry ``best_id``): the search runs a
    column of squares at a time outward from the one of square ``(ci, cj)``, each
    column's rows outward, and stops a run at the first square wholly farther than the
    best found, as ``Field.nearest``; a column's rows are measured from where its spots
    lie ``across`` it (their least and greatest x), so that behind a straight rank a few
    squares of it are looked at. A square is passed over only when every spot in it is
    farther than the best, a spot only when it is farther by products (:data:`_CLOSE`):
    whatever the best it starts from, and whatever the order, the answer is the one
    nearest spot (the lowest id of those as near)."""
    across, box = arrays[4], arrays[5]
    x_lo, y_lo, cell = box[0], box[1], box[2]
    columns, rows = int(box[3]), int(box[4])
    for step in (1, -1):
        i = ci if step == 1 else ci - 1
        while 0 <= i < columns:
            column, i = i, i + step
            if _gap2(x_lo + column * cell, x, cell) > best_d:
                break  # the whole column lies farther than the best, and those after it
            lo, hi = across[column, 0], across[column, 1]
            if lo > hi:
                continue  # nobody in it
            gx2 = _gap2(lo, x, hi - lo)  # to its spots
            if gx2 > best_d:
                continue
            for turn in (1, -1):
                j = cj if turn == 1 else cj - 1
                while 0 <= j < rows:
                    if gx2 + _gap2(y_lo + j * cell, y, cell) > best_d:
                        break
                    best, best_d, best_id = _measure(
                        arrays, column * rows + j, x, y, two, best, best_d, best_id
                    )
                    j += turn
    return best, best_d


@njit(cache=True)
def _measure(
    arrays: Any, s: int, x: float, y: float, two: float, best: int, best_d: float, best_id: int
) -> tuple[int, float, int]:
    """The best of ``best`` (its squared distance ``best_d``, its id ``best_id``) and the
    spots of square ``s`` not ``left``: the nearer, the lower id on a tie."""
    spots, ids, starts, filed, _, _, left = arrays
    for f in range(starts[s], starts[s + 1]):
        k = filed[f]
        if left[k]:
            continue
        dx, dy = spots[k, 0] - x, spots[k, 1] - y
        if dx * dx + dy * dy > best_d * _CLOSE:
            continue  # farther by products: farther by pow too
        d = dx**two + dy**two
        if d < best_d or (d == best_d and ids[k] < best_id):
            best, best_d, best_id = k, d, ids[k]
    return best, best_d, best_id


@njit(cache=True)
def _nearest_each(arrays: Any, places: Any, two: float, seeded: bool) -> Any:
    """:func:`_nearest_to`'s row for each point of ``places`` (x and y in turn);
    ``seeded``: each search begun from the best of the last point's row and three squares
    of the point's row, its own and the columns before and after it
    (:data:`NEAREST_SEEDED`): :func:`_search` finds the nearest whatever it begins from."""
    spots, ids, box = arrays[0], arrays[1], arrays[5]
    columns, rows = int(box[3]), int(box[4])
    found = np.empty(len(places) // 2, np.int64)
    last = -1
    for q in range(len(found)):
        x, y = places[2 * q], places[2 * q + 1]
        ci, cj = _square_of(box, x, y)
        best, best_d, best_id = -1, math.inf, 0
        if seeded:
            if last >= 0:  # the last point's nearest (none left): most often near
                dx, dy = spots[last, 0] - x, spots[last, 1] - y
                best, best_d, best_id = last, dx**two + dy**two, ids[last]
            for i in range(max(ci - 1, 0), min(ci + 2, columns)):
                best, best_d, best_id = _measure(
                    arrays, i * rows + cj, x, y, two, best, best_d, best_id
                )
        last = found[q] = _search(arrays, x, y, two, ci, cj, best, best_d, best_id)[0]
    return found


@njit(cache=True)
def _gap2(lo: float, at: float, span: float) -> float:
    """The squared yards from ``at`` to the nearer edge of the span ``lo .. lo + span``
    (0 inside it), less a hair: never more than the truth (the last square of a row or
    column takes those on its far edge, the hair those a rounding files a square over)."""
    gap = lo - at if lo > at else at - lo - span
    return (gap - _SLACK) * (gap - _SLACK) if gap > _SLACK else 0.0


_FILED = (np.zeros((1, 2)), *[np.zeros(1, np.int64)] * 3, np.zeros((1, 2)), np.zeros(1),
          np.zeros(1, np.bool_))  # fmt: skip
_typeof: Any = typeof  # (numba's types are untyped)
NEAR_TYPE = _typeof(_FILED)
"""The numba type of a side's filed arrays (:attr:`Nearest.arrays`) as the compiled loop of
a band's turn reads them (``kernels.wait_in_ranks``' ``near``)."""


def _nobody(cell: float) -> tuple[Any, ...]:
    """Arrays of the type of :attr:`Nearest.arrays` with nobody filed, its squares'
    side ``cell``: each search finds row -1."""
    none = np.zeros(0, np.int64)
    return (np.zeros((0, 2)), none, np.zeros(1, np.int64), none, np.zeros((0, 2)),
            np.array([0.0, 0.0, cell, 0.0, 0.0]), np.zeros(0, np.bool_))  # fmt: skip


NOBODY = _nobody(1.0)
"""The compiled loop's stand-in for foes of whom nobody fights (read, never written)."""
UNFILED = _nobody(-1.0)
"""The compiled loop's stand-in for foes not filed for it yet (a square's side of -1:
it asks for the filing before it searches)."""


_nearest_now = direct(_nearest_to, NEAR_TYPE, *[_typeof(2.0)] * 3)  # for __init__'s arrays
_each_now = direct(
    _nearest_each, _typeof(_FILED), _typeof(np.zeros(2)), _typeof(2.0), _typeof(True)
)
