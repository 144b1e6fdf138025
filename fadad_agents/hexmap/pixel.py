"""Drawing the hex map: pixel and offset coordinates (flat-topped hexes).

The map is drawn **flat-topped**: each hex has a flat edge at top and bottom, so the
direction 0 (north) neighbour lies straight up the screen and a ship with facing 0 points
up. Screen coordinates follow SVG: x to the right, y **down**. ``size`` is the distance
from a hex's centre to a corner (its outer radius); a hex is ``2 * size`` wide and
``sqrt(3) * size`` tall, and columns are ``1.5 * size`` apart.

Offset coordinates are (column, row) for printed hex sheets: columns are ``q``; every
other column is shifted half a hex down. ``"odd"`` ("odd-q", the default) shifts the odd
columns, ``"even"`` the even ones.

>>> from fadad_agents.hexmap.coords import Hex
>>> x, y = to_pixel(Hex(0, -1), 10.0)  # north neighbour: straight up
>>> x, round(y, 3)
(0.0, -17.321)
>>> from_pixel(*to_pixel(Hex(3, -5), 7.0), 7.0)
Hex(q=3, r=-5)
>>> to_offset(Hex(1, 0)), from_offset(1, 0)
((1, 0), Hex(q=1, r=0))
"""

from __future__ import annotations

import math
from typing import Literal

from fadad_agents.hexmap.coords import Hex, HexError

__all__ = [
    "SQRT3",
    "Parity",
    "corners",
    "from_offset",
    "from_pixel",
    "hex_round",
    "svg_points",
    "to_offset",
    "to_pixel",
]

SQRT3 = math.sqrt(3.0)

type Parity = Literal["odd", "even"]


def _check_size(size: float) -> float:
    if not size > 0:
        raise HexError(f"hex size {size} must be a positive number of pixels")
    return size


def to_pixel(h: Hex, size: float, origin: tuple[float, float] = (0.0, 0.0)) -> tuple[float, float]:
    """Centre of ``h`` on the screen (x right, y down) for hexes of outer radius ``size``."""
    s = _check_size(size)
    x = s * 1.5 * h.q
    y = s * SQRT3 * (h.r + h.q / 2)
    return origin[0] + x, origin[1] + y


def hex_round(q: float, r: float) -> Hex:
    """The hex containing the fractional axial point (q, r): round the cube, fix one axis."""
    s = -q - r
    rq, rr, rs = round(q), round(r), round(s)
    dq, dr, ds = abs(rq - q), abs(rr - r), abs(rs - s)
    if dq > dr and dq > ds:
        rq = -rr - rs
    elif dr > ds:
        rr = -rq - rs
    return Hex(int(rq), int(rr))


def from_pixel(x: float, y: float, size: float, origin: tuple[float, float] = (0.0, 0.0)) -> Hex:
    """The hex under the screen point (x, y); inverse of :func:`to_pixel`."""
    s = _check_size(size)
    px, py = (x - origin[0]) / s, (y - origin[1]) / s
    q = px * 2 / 3
    r = py / SQRT3 - px / 3
    return hex_round(q, r)


def corners(
    h: Hex, size: float, origin: tuple[float, float] = (0.0, 0.0)
) -> list[tuple[float, float]]:
    """The six corners of ``h``, starting due east and going clockwise on the screen."""
    cx, cy = to_pixel(h, size, origin)
    out = []
    for i in range(6):
        angle = math.radians(60 * i)
        out.append((cx + size * math.cos(angle), cy + size * math.sin(angle)))
    return out


def svg_points(h: Hex, size: float, origin: tuple[float, float] = (0.0, 0.0)) -> str:
    """The ``points`` attribute of an SVG ``<polygon>`` outlining ``h``."""
    return " ".join(f"{x:.2f},{y:.2f}" for x, y in corners(h, size, origin))


def _check_parity(parity: str) -> int:
    if parity == "odd":
        return 1
    if parity == "even":
        return -1
    raise HexError(f"offset parity {parity!r} is unknown; use 'odd' or 'even'")


def to_offset(h: Hex, parity: Parity = "odd") -> tuple[int, int]:
    """(column, row) of ``h`` in odd-q (or even-q) offset coordinates."""
    sign = _check_parity(parity)
    col = h.q
    row = h.r + (h.q - sign * (h.q & 1)) // 2
    return col, row


def from_offset(col: int, row: int, parity: Parity = "odd") -> Hex:
    """The hex at (column, row) in odd-q (or even-q) offset coordinates."""
    sign = _check_parity(parity)
    q = col
    r = row - (col - sign * (col & 1)) // 2
    return Hex(q, r)
