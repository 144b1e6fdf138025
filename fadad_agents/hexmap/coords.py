"""Axial hex coordinates: the ship map's hexes, distance, neighbours, rings and lines.

Implements the map DESIGN.md section "Space" asks for (Mesa's ``HexGrid`` is not used).
A hex is ``Hex(q, r)`` in axial coordinates; the third cube coordinate ``s = -q - r`` is
derived. The map is drawn **flat-topped** (see :mod:`fadad_agents.hexmap.pixel`), so the
six neighbours lie straight up, straight down and on the four diagonals. Directions are
numbered clockwise from north (up on the screen)::

    0 N (0, -1)   1 NE (+1, -1)   2 SE (+1, 0)   3 S (0, +1)   4 SW (-1, +1)   5 NW (-1, 0)

A ship's facing is one of these six numbers (:mod:`fadad_agents.hexmap.arcs`).

>>> a, b = Hex(0, 0), Hex(3, -1)
>>> distance(a, b), a.neighbour(0), b.s
(3, Hex(q=0, r=-1), -2)
>>> [h for h in line(Hex(0, 0), Hex(2, -2))]
[Hex(q=0, r=0), Hex(q=1, r=-1), Hex(q=2, r=-2)]
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

__all__ = [
    "DIRECTIONS",
    "DIRECTION_NAMES",
    "ORIGIN",
    "Hex",
    "HexError",
    "distance",
    "line",
    "neighbour",
    "neighbours",
    "ring",
    "rotate",
    "spiral",
    "within",
]


class HexError(ValueError):
    """A hex-map argument is out of range (negative radius, unknown direction ...)."""


@dataclass(frozen=True, slots=True, order=True)
class Hex:
    """One hex in axial coordinates; ``s`` is derived so that ``q + r + s == 0``.

    Hexes add, subtract and scale like vectors: ``Hex(1, -1) * 3 == Hex(3, -3)``.
    Ordering (by ``q`` then ``r``) exists only to make sorted output deterministic.
    """

    q: int
    r: int

    @property
    def s(self) -> int:
        """The third cube coordinate, ``-q - r``."""
        return -self.q - self.r

    def __add__(self, other: Hex) -> Hex:
        return Hex(self.q + other.q, self.r + other.r)

    def __sub__(self, other: Hex) -> Hex:
        return Hex(self.q - other.q, self.r - other.r)

    def __neg__(self) -> Hex:
        return Hex(-self.q, -self.r)

    def __mul__(self, k: int) -> Hex:
        return Hex(self.q * k, self.r * k)

    __rmul__ = __mul__

    def length(self) -> int:
        """Distance from the origin in hexes."""
        q, r = self.q, self.r
        return (abs(q) + abs(r) + abs(q + r)) // 2

    def neighbour(self, direction: int) -> Hex:
        """The adjacent hex in ``direction`` (0 N, 1 NE, 2 SE, 3 S, 4 SW, 5 NW)."""
        return self + DIRECTIONS[_check_direction(direction)]


ORIGIN = Hex(0, 0)
"""The hex (0, 0)."""

DIRECTIONS: tuple[Hex, ...] = (
    Hex(0, -1),
    Hex(1, -1),
    Hex(1, 0),
    Hex(0, 1),
    Hex(-1, 1),
    Hex(-1, 0),
)
"""Unit steps to the six neighbours, clockwise from north (flat-topped drawing)."""

DIRECTION_NAMES: tuple[str, ...] = ("N", "NE", "SE", "S", "SW", "NW")
"""Compass names of :data:`DIRECTIONS` as drawn by :mod:`fadad_agents.hexmap.pixel`."""


def _check_direction(direction: int) -> int:
    if not 0 <= direction <= 5:
        raise HexError(f"direction {direction} is not a hex direction; use 0..5 (0 = N)")
    return direction


def _check_radius(radius: int) -> int:
    if radius < 0:
        raise HexError(f"radius {radius} is negative; use 0 or more hexes")
    return radius


def distance(a: Hex, b: Hex) -> int:
    """Number of hex steps between ``a`` and ``b``."""
    q, r = a.q - b.q, a.r - b.r  # no Hex made: ship policies measure thousands a battle
    return (abs(q) + abs(r) + abs(q + r)) // 2


def neighbour(h: Hex, direction: int) -> Hex:
    """The hex next to ``h`` in ``direction`` (0..5, clockwise from north)."""
    return h.neighbour(direction)


def neighbours(h: Hex) -> tuple[Hex, ...]:
    """The six hexes next to ``h``, in direction order 0 (N) .. 5 (NW)."""
    return tuple(h + d for d in DIRECTIONS)


def rotate(h: Hex, steps: int, center: Hex = ORIGIN) -> Hex:
    """Turn ``h`` about ``center`` by ``steps`` sixths of a circle, clockwise if positive.

    One clockwise step maps cube (q, r, s) to (-r, -s, -q): north goes to north-east.
    """
    v = h - center
    q, r, s = v.q, v.r, v.s
    for _ in range(steps % 6):
        q, r, s = -r, -s, -q
    return center + Hex(q, r)


def ring(center: Hex, radius: int) -> list[Hex]:
    """The hexes exactly ``radius`` steps from ``center``, clockwise from due north.

    ``ring(c, 0) == [c]``; otherwise ``6 * radius`` hexes, the first one
    ``center + radius * DIRECTIONS[0]``.
    """
    if _check_radius(radius) == 0:
        return [center]
    out: list[Hex] = []
    h = center + DIRECTIONS[0] * radius
    # From the north corner the ring's sides run SE, S, SW, NW, N, NE.
    for side in range(6):
        step = DIRECTIONS[(side + 2) % 6]
        for _ in range(radius):
            out.append(h)
            h = h + step
    return out


def spiral(center: Hex, radius: int) -> Iterator[Hex]:
    """Every hex within ``radius`` of ``center``, ring by ring from the centre outwards."""
    for k in range(_check_radius(radius) + 1):
        yield from ring(center, k)


def within(center: Hex, radius: int) -> list[Hex]:
    """The ``3 * radius * (radius + 1) + 1`` hexes within ``radius`` of ``center``, sorted."""
    n = _check_radius(radius)
    return [
        center + Hex(dq, dr)
        for dq in range(-n, n + 1)
        for dr in range(max(-n, -dq - n), min(n, -dq + n) + 1)
    ]


# Infinitesimal nudges of the classic cube lerp (q +1e-6, r +2e-6, s -3e-6): they keep a
# line that runs exactly along a hex edge from flipping between the two hexes. We carry
# them symbolically instead of as floats, so the result is exact on every platform.
_NUDGE = (1, 2, -3)


def _round_nudged(num: int, den: int, nudge: int) -> int:
    """Round ``num/den + nudge*eps`` (eps infinitesimal, den > 0) to the nearest int."""
    lo, rem = divmod(num, den)
    twice = 2 * rem
    if twice > den or (twice == den and nudge > 0):
        return lo + 1
    return lo


def _error(rounded: int, num: int, den: int, nudge: int) -> tuple[int, int]:
    """|rounded - (num/den + nudge*eps)| as (numerator over den, eps coefficient)."""
    d = rounded * den - num
    if d > 0:
        return d, -nudge
    if d < 0:
        return -d, nudge
    return 0, abs(nudge)


def _cube_round(nums: tuple[int, int, int], den: int) -> Hex:
    """Round the cube point ``nums/den`` (+ nudge) to a hex, fixing the worst-rounded axis."""
    rq, rr, rs = (_round_nudged(n, den, e) for n, e in zip(nums, _NUDGE, strict=True))
    eq, er, es = (_error(x, n, den, e) for x, n, e in zip((rq, rr, rs), nums, _NUDGE, strict=True))
    if eq > er and eq > es:
        rq = -rr - rs
    elif er > es:
        rr = -rq - rs
    return Hex(rq, rr)


def line(a: Hex, b: Hex) -> list[Hex]:
    """The hexes a straight line from the centre of ``a`` to the centre of ``b`` crosses.

    Cube linear interpolation at ``distance(a, b) + 1`` evenly spaced points, each rounded
    to the nearest hex, with the customary tiny nudge (+1e-6, +2e-6, -3e-6) breaking ties
    where the line runs along hex edges. The arithmetic is exact integers, so the result
    is deterministic. ``line(b, a)`` need not be ``line(a, b)`` reversed on edge-running
    lines; both have ``distance + 1`` hexes, each a neighbour of the previous one.
    """
    n = distance(a, b)
    if n == 0:
        return [a]
    out = []
    for i in range(n + 1):
        j = n - i
        nums = (a.q * j + b.q * i, a.r * j + b.r * i, a.s * j + b.s * i)
        out.append(_cube_round(nums, n))
    return out
