"""The ship map: axial hex coordinates, facing and firing arcs, drawing (DESIGN.md "Space").

Mesa's ``HexGrid`` is not used (its positions and links disagree in Mesa 3.5.1). Hexes
are ``Hex(q, r)`` in axial coordinates, drawn flat-topped with direction 0 = north (up)
and directions numbered clockwise.

* :mod:`~fadad_agents.hexmap.coords`: :class:`Hex`, distance, neighbours, rings, lines,
  rotation.
* :mod:`~fadad_agents.hexmap.arcs`: facing, turning, bearings and firing arcs.
* :mod:`~fadad_agents.hexmap.pixel`: pixel and offset coordinates for SVG maps.
"""

from fadad_agents.hexmap.arcs import (
    ALL_SECTORS,
    ARCS,
    FACINGS,
    SECTOR_NAMES,
    ArcError,
    arc_hexes,
    arc_sectors,
    dead_ahead,
    direction_to,
    in_arc,
    in_bow_cone,
    relative_bearing,
    sector,
    sectors,
    turn,
    turn_toward,
)
from fadad_agents.hexmap.coords import (
    DIRECTION_NAMES,
    DIRECTIONS,
    ORIGIN,
    Hex,
    HexError,
    distance,
    line,
    neighbour,
    neighbours,
    ring,
    rotate,
    spiral,
    within,
)
from fadad_agents.hexmap.pixel import (
    corners,
    from_offset,
    from_pixel,
    hex_round,
    svg_points,
    to_offset,
    to_pixel,
)

__all__ = [
    "ALL_SECTORS",
    "ARCS",
    "DIRECTIONS",
    "DIRECTION_NAMES",
    "FACINGS",
    "ORIGIN",
    "SECTOR_NAMES",
    "ArcError",
    "Hex",
    "HexError",
    "arc_hexes",
    "arc_sectors",
    "corners",
    "dead_ahead",
    "direction_to",
    "distance",
    "from_offset",
    "from_pixel",
    "hex_round",
    "in_arc",
    "in_bow_cone",
    "line",
    "neighbour",
    "neighbours",
    "relative_bearing",
    "ring",
    "rotate",
    "sector",
    "sectors",
    "spiral",
    "svg_points",
    "to_offset",
    "to_pixel",
    "turn",
    "turn_toward",
    "within",
]
