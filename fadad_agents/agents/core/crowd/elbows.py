"""Who stands in a place, measured in compiled code as the ranks measure it in Python.

A place is taken when someone fighting stands within the elbow room of the one who would
stand there (``ranks._first_free``): measured here over the squares of the field in
arrays (:func:`~.kernels.file_all`), with every sum and product as Python makes it, and
where Python squares by ``**`` (the C library's ``pow``, which may differ from ``*`` in
the last bit) so does this code, within a hair of the limit only, with the exponent
``two`` passed in at run time: a constant 2 would be compiled into a product. Shared by
the compiled loop of a band's turn (:mod:`~.kernels`) and its searches (:mod:`~.searching`).
"""

from __future__ import annotations

import math
from typing import Any

from fadad_agents.agents.core.field import ELBOW_ROOM
from fadad_agents.agents.core.field.caching import njit

__all__ = ["Crowd"]

_HAIR = 1e-12  # relative: far wider than the few units in the last place * and ** differ
_FREE = -1  # nobody stands in a place
_BEYOND = -2  # a place beyond the squares of the index

Crowd = tuple[Any, Any, Any, Any, Any, Any]
"""Every fighter's x, y, radius, side, whether it fights and its version, by index."""

_AROUND = (0, 0, -1, -1, 0, 1, 1, -1, 1, 0)
"""Offsets of the nine squares round a place (read in overlapping pairs, own first)."""


@njit(cache=True)
def _taken(
    k: int,
    sx: float,
    sy: float,
    by_pow: bool,
    crowd: Crowd,
    grid: tuple[Any, Any, Any],
    measures: Any,
) -> int:
    """Someone fighting other than fighter ``k`` who stands within its elbow room of
    ``(sx, sy)`` (``ranks._first_free``; squares by ``**`` where ``by_pow``), or
    :data:`_FREE` if nobody does, :data:`_BEYOND` if the place lies beyond the squares
    of the index."""
    x, y, radius, _, fighting, _ = crowd
    squares, counts, box = grid
    i0, j0, width, height = box[0], box[1], box[2], box[3]
    cell, two = measures[0], measures[4]
    i, j = math.floor(sx / cell) - i0, math.floor(sy / cell) - j0
    if i < 1 or j < 1 or i >= width - 1 or j >= height - 1:
        return _BEYOND
    r = radius[k]
    for q in range(9):  # its own square first: whoever stands there most often blocks it
        s = (i + _AROUND[q]) * height + j + _AROUND[q + 1]
        for m in range(counts[s]):
            o = squares[s, m]
            if o == k or not fighting[o]:
                continue
            ox = x[o] - sx
            oy = y[o] - sy
            room = (r + radius[o]) * ELBOW_ROOM
            if by_pow:
                if _closer(ox, oy, room, two):
                    return int(o)
            elif ox * ox + oy * oy < room * room:
                return int(o)
    return _FREE


@njit(cache=True)
def _within(a: float, b: float, limit: float, two: float) -> bool:
    """``a ** 2 + b ** 2 <= limit`` as Python decides it. Python's squares (``pow``) and
    ``a * a + b * b`` differ by a few units in the last place at most, so ``pow`` (slow)
    is called only within a hair of the limit, where they might decide otherwise."""
    squares = a * a + b * b
    if abs(squares - limit) > _HAIR * limit:
        return squares <= limit
    return bool(a**two + b**two <= limit)


@njit(cache=True)
def _within_pow(a: float, b: float, r: float, plus: float, two: float) -> bool:
    """``a ** 2 + b ** 2 <= r ** 2 + plus`` as Python decides it (:func:`_within`), the
    limit's ``pow`` too made only within a hair of it: ``r * r`` and ``r ** 2`` part in
    the last bit at most, so a sum of squares twice the hair away from the one is as far
    from the other, and decided the same by either."""
    squares, limit = a * a + b * b, r * r + plus
    if abs(squares - limit) > 2 * _HAIR * limit:
        return squares <= limit
    return _within(a, b, r**two + plus, two)


@njit(cache=True)
def _closer(a: float, b: float, room: float, two: float) -> bool:
    """``a ** 2 + b ** 2 < room ** 2`` as Python decides it (``pow`` only within a hair,
    as :func:`_within`)."""
    squares, limit = a * a + b * b, room * room
    if abs(squares - limit) > _HAIR * limit:
        return squares < limit
    return bool(a**two + b**two < room**two)


@njit(cache=True)
def _clamp(v: float, most: float) -> float:
    """``Field.clamp`` of one axis (``most`` below 0: unbounded)."""
    if most < 0:
        return v
    return 0.0 if v < 0.0 else most if v > most else v
