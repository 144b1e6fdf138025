"""Facing, bearings and firing arcs on the hex map.

Implements the facing and fields-of-fire support the ship rules need (``ships-fadad.md``,
``ships-spelljammer.md`` section 7.4; issue 5 "fields of fire with arcs").

A ship faces one of the six hex sides, numbered as :data:`~.coords.DIRECTIONS` (0 N,
clockwise). Around a hex the plane splits into six 60-degree **sectors**, one centred on
each hex side. Their boundaries are the three lines through the hex's corners; in cube
coordinates of ``target - origin`` these are exactly the hexes with two equal coordinates
(``q == r``, ``r == s`` or ``s == q``). A target's sector is therefore read from the
order of its cube coordinates, with integer comparisons only.

Sectors are numbered **relative to the facing**: 0 fore, 1 forward-starboard,
2 aft-starboard, 3 aft, 4 aft-port, 5 forward-port (starboard is to the right of a ship
looking along its facing, i.e. clockwise).

Boundary hexes: a hex lying exactly on a boundary line touches two sectors. With
``inclusive=True`` (the default, the common tabletop reading "a target on the line is in
both arcs") it counts as in both; with ``inclusive=False`` it counts only in the one nearer
the bow, which makes the four quarters (fore, starboard, aft, port) an exact partition.
A target in the origin hex itself is in every arc.

>>> from fadad_agents.hexmap.coords import Hex
>>> in_arc(Hex(0, 0), 0, Hex(0, -3), "fore"), in_arc(Hex(0, 0), 0, Hex(2, 0), "starboard")
(True, True)
>>> sorted(sectors(Hex(0, 0), 0, Hex(1, -2)))  # on the fore/forward-starboard line
[0, 1]
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from types import MappingProxyType

from fadad_agents.hexmap.coords import DIRECTIONS, Hex, HexError, rotate, spiral

__all__ = [
    "ALL_SECTORS",
    "ARCS",
    "FACINGS",
    "SECTOR_NAMES",
    "ArcError",
    "arc_hexes",
    "arc_sectors",
    "dead_ahead",
    "direction_to",
    "in_arc",
    "in_bow_cone",
    "relative_bearing",
    "sector",
    "sectors",
    "turn",
    "turn_toward",
]

FACINGS: tuple[int, ...] = (0, 1, 2, 3, 4, 5)
"""The six facings, clockwise from north."""

SECTOR_NAMES: tuple[str, ...] = (
    "fore",
    "forward-starboard",
    "aft-starboard",
    "aft",
    "aft-port",
    "forward-port",
)
"""Names of the relative sectors 0..5."""

ALL_SECTORS: frozenset[int] = frozenset(range(6))

ARCS: MappingProxyType[str, frozenset[int]] = MappingProxyType(
    {
        # the four quarters: fore and aft 60 degrees, each broadside 120 degrees
        "fore": frozenset({0}),
        "starboard": frozenset({1, 2}),
        "aft": frozenset({3}),
        "port": frozenset({4, 5}),
        # the six single sectors
        "forward-starboard": frozenset({1}),
        "aft-starboard": frozenset({2}),
        "aft-port": frozenset({4}),
        "forward-port": frozenset({5}),
        # halves: bow = the 180 degrees through the three frontal hexes, stern the rest
        "bow": frozenset({5, 0, 1}),
        "stern": frozenset({2, 3, 4}),
        "all": ALL_SECTORS,
    }
)
"""Named firing arcs as sets of relative sectors."""


class ArcError(HexError):
    """An arc is neither a known name nor a set of sectors 0..5."""


def _check_facing(facing: int) -> int:
    if not 0 <= facing <= 5:
        raise HexError(f"facing {facing} is not a hex facing; use 0..5 (0 = N, clockwise)")
    return facing


def turn(facing: int, steps: int) -> int:
    """The facing after turning ``steps`` hex sides, clockwise if positive."""
    return (_check_facing(facing) + steps) % 6


def turn_toward(facing: int, wanted: int) -> int:
    """Fewest signed steps (-2..+3) from ``facing`` to ``wanted``; +3 for a half turn."""
    diff = (_check_facing(wanted) - _check_facing(facing)) % 6
    return diff - 6 if diff > 3 else diff


def _weakly_ordered(v: tuple[int, int, int], order: tuple[int, int, int]) -> bool:
    a, b, c = order
    return v[a] >= v[b] >= v[c]


def _order_of(d: Hex) -> tuple[int, int, int]:
    """Indices of d's cube coordinates from largest to smallest (distinct for a direction)."""
    cube = (d.q, d.r, d.s)
    a, b, c = sorted(range(3), key=lambda i: -cube[i])
    return a, b, c


# For each absolute direction, the cube-coordinate order of the hexes in its sector.
_SECTOR_ORDERS: tuple[tuple[int, int, int], ...] = tuple(_order_of(d) for d in DIRECTIONS)


def _absolute_sectors(origin: Hex, target: Hex) -> frozenset[int]:
    """Absolute directions whose closed sector holds ``target`` (1 or 2; all 6 if same hex)."""
    return _absolute_of(target.q - origin.q, target.r - origin.r)


# Bearings are pure functions of the offset (and facing): ship policies ask for thousands
# a battle, mostly the same few, so they are kept (a few MB at most on the largest maps).
_BEARINGS_KEPT = 1 << 16


@lru_cache(maxsize=_BEARINGS_KEPT)
def _absolute_of(q: int, r: int) -> frozenset[int]:
    if q == 0 and r == 0:
        return ALL_SECTORS
    v = (q, r, -q - r)
    return frozenset(i for i, o in enumerate(_SECTOR_ORDERS) if _weakly_ordered(v, o))


@lru_cache(maxsize=_BEARINGS_KEPT)
def _relative_of(q: int, r: int, facing: int) -> frozenset[int]:
    f = _check_facing(facing)
    return frozenset((k - f) % 6 for k in _absolute_of(q, r))


def sectors(origin: Hex, facing: int, target: Hex) -> frozenset[int]:
    """Relative sectors (0 fore .. 5 forward-port) holding ``target``; two on a boundary."""
    return _relative_of(target.q - origin.q, target.r - origin.r, facing)


def _bow_distance(k: int) -> int:
    return min(k, 6 - k)


@lru_cache(maxsize=_BEARINGS_KEPT)
def _sector_of(q: int, r: int, facing: int) -> int:
    return min(_relative_of(q, r, facing), key=_bow_distance)


def sector(origin: Hex, facing: int, target: Hex) -> int:
    """The one relative sector of ``target``; a boundary hex goes to the sector nearer the bow.

    Adjacent sectors always differ in distance from the bow, so this is unambiguous.
    A target in the origin hex is in sector 0 (fore).
    """
    return _sector_of(target.q - origin.q, target.r - origin.r, facing)


def arc_sectors(arc: str | Iterable[int]) -> frozenset[int]:
    """The relative sectors of a named arc (see :data:`ARCS`) or of an explicit sector set."""
    if isinstance(arc, str):
        try:
            return ARCS[arc]
        except KeyError:
            names = ", ".join(ARCS)
            raise ArcError(f"unknown firing arc {arc!r}; use one of: {names}") from None
    out = frozenset(arc)
    if not out <= ALL_SECTORS:
        raise ArcError(f"arc sectors {sorted(out)} must lie in 0..5 (0 fore, clockwise)")
    return out


def in_arc(
    origin: Hex,
    facing: int,
    target: Hex,
    arc: str | Iterable[int],
    *,
    inclusive: bool = True,
) -> bool:
    """Whether a weapon at ``origin`` on a ship facing ``facing`` bears on ``target``.

    ``inclusive=True``: a hex on a sector boundary is in the arcs of both sectors it
    touches. ``inclusive=False``: only in the one nearer the bow (see :func:`sector`).
    """
    wanted = arc_sectors(arc)
    if inclusive:
        return not sectors(origin, facing, target).isdisjoint(wanted)
    return sector(origin, facing, target) in wanted


def direction_to(origin: Hex, target: Hex) -> int:
    """The absolute direction (0..5) whose sector holds ``target``.

    On a boundary between two sectors the lower-numbered direction wins (N over NE,
    N over NW). Raises :class:`HexError` if the hexes are the same.
    """
    if origin == target:
        raise HexError(f"no direction from {origin} to itself; the hexes must differ")
    return min(_absolute_sectors(origin, target))


def dead_ahead(origin: Hex, facing: int, target: Hex) -> bool:
    """Whether ``target`` lies on the hex row straight out along ``facing`` (not the origin).

    For the Spelljammer +2 against targets directly ahead (or, with the facing turned
    half round, directly astern).
    """
    d = target - origin
    step = DIRECTIONS[_check_facing(facing)]
    k = d.length()
    return k > 0 and d == step * k


def in_bow_cone(origin: Hex, facing: int, target: Hex) -> bool:
    """Whether ``target`` is within the lines of the three frontal hexes.

    The 120-degree cone bounded by the hex rows through the two forward-diagonal
    neighbours (``facing - 1`` and ``facing + 1``), rows included: the field of fire of a
    fixed bow weapon (``ships-spelljammer.md`` 7.4). Turn the facing by 3 for the stern.
    A target in the origin hex is inside.
    """
    return _in_bow_cone_of(target.q - origin.q, target.r - origin.r, facing)


@lru_cache(maxsize=_BEARINGS_KEPT)
def _in_bow_cone_of(q: int, r: int, facing: int) -> bool:
    f = _check_facing(facing)
    # Rotate the offset so the ship faces north; the cone spanned by NW and NE is then
    # exactly r <= 0 and s >= 0.
    d = rotate(Hex(q, r), -f)
    return d.r <= 0 <= d.s


def arc_hexes(
    origin: Hex,
    facing: int,
    arc: str | Iterable[int],
    radius: int,
    *,
    inclusive: bool = True,
) -> list[Hex]:
    """Every hex within ``radius`` of ``origin`` that a weapon with ``arc`` bears on."""
    wanted = arc_sectors(arc)
    return [
        h
        for h in spiral(origin, radius)
        if h != origin and in_arc(origin, facing, h, wanted, inclusive=inclusive)
    ]


def relative_bearing(origin: Hex, facing: int, target: Hex) -> int:
    """Signed hex sides to turn from ``facing`` to face ``target`` (-2..+3)."""
    return turn_toward(facing, direction_to(origin, target))
