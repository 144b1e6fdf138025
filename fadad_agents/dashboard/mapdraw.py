"""The pieces of the battle map's SVG: fighters' and groups' markers, ships, trails, grapples.

:class:`~fadad_agents.dashboard.hexview.MapView` lays them out. On a hex map everything
stands in its hex (markers sharing one are spread round its centre); on an open map
fighters, bands and units stand where they are in yards (:func:`yards_to_pixel`: one
scale for both axes, a hex column ``bin`` yards wide), so the map shows the distances the
log narrates.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from html import escape
from typing import Any

from fadad_agents.hexmap import Hex, to_pixel
from fadad_agents.rules.core.wounds import Wound

__all__ = [
    "SIDE_COLOURS",
    "WOUND_COLOURS",
    "Marker",
    "draw_at",
    "draw_hex_markers",
    "draw_marker",
    "draw_ship",
    "grapple_lines",
    "trail_lines",
    "yards_to_pixel",
]

SIDE_COLOURS = ("#1f5fbf", "#c0392b", "#2e8b57", "#8e44ad", "#d68910", "#17808a")
WOUND_COLOURS = ("#2ecc71", "#a3d977", "#f1c40f", "#e67e22", "#c0392b", "#7b241c", "#111111")


@dataclass(frozen=True, slots=True)
class Marker:
    """One thing drawn on the map: a band of fighters, a group, or a ship.

    Attributes:
        name: band, group or ship name.
        side: side index.
        hex: where it stands.
        heads: head count still fighting.
        start: head count at the start.
        wound: worst wound among those still fighting (``rules.wounds.Wound``).
        status: ``fighting`` unless every member is out (then the last member's status).
        ship: drawn as a hull.
        facing: hex side faced (ships), else None.
        fires: fires burning aboard.
        grappled: names of ships it is grappled with.
        at: where it stands in yards on an open map (a band: the middle of its members
            in the hex), drawn there exactly; None on hex maps (drawn in its hex).
    """

    name: str
    side: int
    hex: Hex
    heads: int
    start: int
    wound: int
    status: str
    ship: bool = False
    facing: int | None = None
    fires: int = 0
    grappled: tuple[str, ...] = ()
    at: tuple[float, float] | None = None


def trail_lines(
    trails: dict[str, list[Any]], found: list[Marker], size: float, bin_yards: int
) -> list[str]:
    """Dotted lines through the places each ship and lone fighter stood in (hexes, or
    yards on an open map)."""
    sides = {m.name: m.side for m in found}
    out = []
    for name, path in trails.items():
        if len(path) < 2:
            continue
        colour = SIDE_COLOURS[sides[name] % len(SIDE_COLOURS)]
        at = [
            to_pixel(p, size) if isinstance(p, Hex) else yards_to_pixel(p, bin_yards, size)
            for p in path
        ]
        points = " ".join(f"{x:.1f},{y:.1f}" for x, y in at)
        out.append(
            f'<polyline class="trail" data-name="{escape(name)}" points="{points}" fill="none" '
            f'stroke="{colour}" stroke-opacity="0.6" stroke-width="1.5" stroke-dasharray="2 3"/>'
        )
    return out


def grapple_lines(found: list[Marker], centres: dict[str, tuple[float, float]]) -> list[str]:
    out = []
    for m in found:
        for other in m.grappled:
            if m.name < other and other in centres and m.name in centres:
                (x1, y1), (x2, y2) = centres[m.name], centres[other]
                out.append(
                    f'<line class="grapple" x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" '
                    f'y2="{y2:.1f}" stroke="#5d4037" stroke-width="2" stroke-dasharray="4 3"/>'
                )
    return out


def spots(n: int, size: float, *, centre: bool = True) -> list[tuple[float, float]]:
    """Offsets that spread ``n`` markers sharing a hex around its centre (a lone marker
    sits on the centre unless ``centre`` is False, e.g. beside a ship's hull)."""
    if n == 1 and centre:
        return [(0.0, 0.0)]
    radius = size * 0.56
    return [
        (
            radius * math.cos(2 * math.pi * i / n - math.pi / 2),
            radius * math.sin(2 * math.pi * i / n - math.pi / 2),
        )
        for i in range(n)
    ]


def draw_hex_markers(hx: Hex, here: list[Marker], size: float, least: float) -> list[str]:
    cx, cy = to_pixel(hx, size)
    ships = [m for m in here if m.ship]
    others = [m for m in here if not m.ship]
    scale = 1.0 if len(others) <= 1 else max(0.5, 1.9 / math.sqrt(len(others)))
    if ships:
        scale *= 0.7  # crews aboard are badges around their hull
    r = max(least, size * 0.32 * scale)
    spread = max(size, r * 2.2) if len(others) > 1 or not ships else size * 1.1
    out = [
        draw_marker(m, cx + dx, cy + dy, r)
        for (dx, dy), m in zip(spots(len(others), spread, centre=not ships), others, strict=True)
    ]
    # Hulls go on top (translucent), so a ship stays visible under the crews aboard.
    out.extend(draw_ship(m, cx, cy, size, i, len(ships)) for i, m in enumerate(ships))
    return out


def marker_label(m: Marker) -> str:
    if m.start > 1:
        return str(m.heads)
    return "".join(w[0] for w in m.name.split()[:2]).upper()


def draw_marker(m: Marker, x: float, y: float, r: float) -> str:
    colour = SIDE_COLOURS[m.side % len(SIDE_COLOURS)]
    out = m.status != "fighting"
    fill = "#9e9e9e" if out else colour
    opacity = 0.35 + 0.65 * (m.heads / m.start if m.start else 0.0)
    ring = WOUND_COLOURS[min(max(m.wound, 0), len(WOUND_COLOURS) - 1)]
    title = f"{m.name}: {m.heads}/{m.start} {m.status}, worst wound {Wound(min(m.wound, 6)).label}"
    cross = ""
    if out:
        d = r * 0.7
        cross = (
            f'<path d="M{x - d:.1f},{y - d:.1f}L{x + d:.1f},{y + d:.1f}M{x - d:.1f},{y + d:.1f}'
            f'L{x + d:.1f},{y - d:.1f}" stroke="#212121" stroke-width="{r * 0.18:.1f}"/>'
        )
    return (
        f'<g class="marker side-{m.side}" data-status="{m.status}"><title>{escape(title)}</title>'
        f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r:.1f}" fill="{fill}" fill-opacity="{opacity:.2f}" '
        f'stroke="{ring}" stroke-width="{max(1.0, r * 0.22):.1f}"/>'
        f'<text x="{x:.1f}" y="{y + r * 0.35:.1f}" font-size="{r * 0.95:.1f}" '
        f'text-anchor="middle" fill="#fff">{escape(marker_label(m))}</text>{cross}'
        f'<text class="name" x="{x:.1f}" y="{y + r * 1.75:.1f}" font-size="{r * 0.6:.1f}" '
        f'text-anchor="middle" fill="#333">{escape(m.name)}</text></g>'
    )


def draw_ship(m: Marker, cx: float, cy: float, size: float, i: int, n: int) -> str:
    """A hull pointing along its facing (0 = up, clockwise), fires as orange dots."""
    colour = SIDE_COLOURS[m.side % len(SIDE_COLOURS)]
    angle = math.radians(-90 + 60 * (m.facing or 0))
    shift = (i - (n - 1) / 2) * size * 0.35  # ships sharing a hex lie side by side
    px, py = -math.sin(angle), math.cos(angle)
    cx, cy = cx + px * shift, cy + py * shift
    length, beam = size * 1.5, size * 0.3
    ux, uy = math.cos(angle), math.sin(angle)
    pts = [
        (cx + ux * length / 2, cy + uy * length / 2),
        (cx + ux * length / 4 + px * beam, cy + uy * length / 4 + py * beam),
        (cx - ux * length / 2 + px * beam, cy - uy * length / 2 + py * beam),
        (cx - ux * length / 2 - px * beam, cy - uy * length / 2 - py * beam),
        (cx + ux * length / 4 - px * beam, cy + uy * length / 4 - py * beam),
    ]
    points = " ".join(f"{x:.1f},{y:.1f}" for x, y in pts)
    fires = "".join(
        f'<circle class="fire" cx="{cx + (k - 1) * beam:.1f}" cy="{cy:.1f}" r="{beam * 0.5:.1f}" '
        f'fill="#ff6f00"/>'
        for k in range(min(m.fires, 3))
    )
    title = f"{m.name} (ship), facing {m.facing}" + (f", {m.fires} fires" if m.fires else "")
    label_y = cy - size * (0.62 + 0.34 * i)  # ships sharing a hex: names one above another
    return (
        f'<g class="ship side-{m.side}" data-facing="{m.facing}"><title>{escape(title)}</title>'
        f'<polygon points="{points}" fill="{colour}" fill-opacity="0.25" stroke="{colour}" '
        f'stroke-width="1.5"/>{fires}'
        f'<text class="name" x="{cx:.1f}" y="{label_y:.1f}" font-size="{size * 0.3:.1f}" '
        f'text-anchor="middle" font-weight="bold" fill="{colour}">{escape(m.name)}</text></g>'
    )


def yards_to_pixel(at: tuple[float, float], bin_yards: int, size: float) -> tuple[float, float]:
    """Where a point ``at`` (x, y) yards on an open map is drawn: yard (0, 0) on the centre
    of hex (0, 0), ``1.5 * size / bin_yards`` pixels a yard across and down alike (a hex
    column is ``bin_yards`` wide), so distances on the map are true."""
    k = 1.5 * size / bin_yards
    return at[0] * k, at[1] * k


def draw_at(m: Marker, bin_yards: int, size: float, least: float) -> str:
    """A marker at its place in yards (:attr:`Marker.at`), a man's width across at least."""
    assert m.at is not None  # only placed markers are drawn here
    x, y = yards_to_pixel(m.at, bin_yards, size)
    return draw_marker(m, x, y, max(least, min(size * 0.32, 0.75 * size / bin_yards)))
