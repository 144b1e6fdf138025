"""The battle map as an SVG string: flat-topped hexes, combatant markers, ships with facing.

DESIGN.md (Interfaces): the map is redrawn every step without a matplotlib figure; the
dashboard puts the string into an ``ipywidgets.HTML``. Whatever has a position is drawn,
read generically from the agents (``position``, and ``facing``, ``fires``, ``grappled``
when an agent has them), so ships appear as soon as the engine plays them; until then the
scenario's ships are drawn where the scenario puts them. Fighters aboard a ship stand in
its hex.

Hex maps use the positions as axial ``(q, r)``. Open maps use yards ``(x, y)``, binned so
that the longer side spans at most :data:`MAX_CELLS` hexes (odd-q offset cells).

Each ship and fighter is labelled with its name; a legend gives the sides' colours and the
wound colours of the rings; ships and lone fighters leave a dotted trail of the hexes they
have stood in, round by round; the firing arcs of a selected ship are shaded out to each
weapon's range. The drawing keeps one size in pixels from frame to frame (the view inside
it may zoom out as ships spread), so the dashboard around it never jumps.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from html import escape
from typing import Any

from fadad_agents.agents.core.base import Status
from fadad_agents.engine.core.log import clock
from fadad_agents.hexmap import (
    ORIGIN,
    Hex,
    distance,
    from_offset,
    svg_points,
    to_offset,
    to_pixel,
    within,
)
from fadad_agents.hexmap.arcs import arc_hexes
from fadad_agents.rules.core.wounds import Wound
from fadad_agents.schema import forces as schema_forces
from fadad_agents.schema.scenario import Scenario

__all__ = ["MAX_CELLS", "SIDE_COLOURS", "MapView", "Marker", "markers"]

MAX_CELLS = 30
"""Hexes along the longer side of an open map (larger maps are binned)."""

SIDE_COLOURS = ("#1f5fbf", "#c0392b", "#2e8b57", "#8e44ad", "#d68910", "#17808a")
WOUND_COLOURS = ("#2ecc71", "#a3d977", "#f1c40f", "#e67e22", "#c0392b", "#7b241c", "#111111")
FOCUS = 2
"""Hex maps are drawn this many hexes around everything on them (not the whole map)."""
MAX_GRID = 2500
"""Most background hexes drawn (beyond it only the hexes near each marker)."""
MAX_HEX_PIXELS = 90.0
"""Largest hex radius drawn, in pixels."""
MAP_PIXELS = 640.0
"""Width of the drawing in pixels."""
MAP_HEIGHT = 560.0
"""Height of the drawing in pixels (fixed: the widget never resizes between frames)."""


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


def _cells(value: Any) -> tuple[str, ...]:
    if not value:
        return ()
    if isinstance(value, str):
        return (value,)
    if isinstance(value, Iterable):
        return tuple(getattr(v, "name", str(v)) for v in value)
    return (getattr(value, "name", str(value)),)


class MapView:
    """Projection, background grid (drawn once) and per-step markers of one scenario."""

    def __init__(self, scenario: Scenario, *, pixels: float = MAP_PIXELS) -> None:
        self.scenario = scenario
        self.pixels = pixels
        spec = scenario.map
        self.hex_map = spec.kind == "hex"
        longest = max(spec.width or 1, spec.height or 1)
        self.bin = 1 if self.hex_map else max(1, math.ceil(longest / MAX_CELLS))
        self._ships = self._scenario_ships()
        self._aboard = self._aboard_positions()
        self._grid_key: frozenset[Hex] | None = None
        self._seen: frozenset[Hex] = frozenset()
        self._grid: tuple[str, tuple[float, float, float, float], float] = ("", (0, 0, 1, 1), 1)
        self._trails: dict[str, dict[int, Hex]] = {}

    # --- positions ------------------------------------------------------------------------

    def to_hex(self, position: Sequence[int] | None) -> Hex | None:
        """The hex of a scenario position (axial on hex maps, binned yards on open maps)."""
        if position is None:
            return None
        a, b = int(position[0]), int(position[1])
        if self.hex_map:
            return Hex(a, b)
        return from_offset(a // self.bin, b // self.bin)

    def ships(self) -> list[tuple[str, int]]:
        """The scenario's ships with their side index, in file order."""
        return [(name, side) for name, (side, _) in self._ships.items()]

    def _scenario_ships(self) -> dict[str, tuple[int, Any]]:
        return {
            f.name: (si, f)
            for si, side in enumerate(self.scenario.sides)
            for f in side.forces
            if isinstance(f, schema_forces.Ship)
        }

    def _aboard_positions(self) -> dict[tuple[int, str], Sequence[int] | None]:
        """Scenario position of each force (or of the ship it is aboard), by side and name."""
        out: dict[tuple[int, str], Sequence[int] | None] = {}
        for si, side in enumerate(self.scenario.sides):
            for f in side.forces:
                pos = f.position
                ship = getattr(f, "aboard", None)
                if pos is None and ship in self._ships:
                    pos = self._ships[ship][1].position
                out[(si, f.name)] = pos
        return out

    def _agent_hex(self, agent: Any) -> Hex | None:
        pos = getattr(agent, "position", None)
        if pos is None:
            band = getattr(agent, "band", None)
            key = getattr(band, "name", agent.name)
            pos = self._aboard.get((agent.side, key), self._aboard.get((agent.side, agent.name)))
        return self.to_hex(pos)

    # --- markers ----------------------------------------------------------------------------

    def markers(self, battle: Any) -> list[Marker]:
        """Markers of every agent with a place, bands merged per hex, plus scenario ships."""
        groups: dict[tuple[Hex, int, str], list[Any]] = {}
        ships: list[Marker] = []
        seen: set[str] = set()
        for roster in battle.sides:
            for agent in roster.members:
                h = self._agent_hex(agent)
                if h is None:
                    continue
                if getattr(agent, "kind", "") == "ship":
                    ships.append(self._ship_marker(agent, h))
                    seen.add(agent.name)
                    continue
                band = getattr(agent, "band", None)
                key = (h, int(agent.side), getattr(band, "name", agent.name))
                groups.setdefault(key, []).append(agent)
        out = [self._band_marker(k, members) for k, members in groups.items()]
        for name, (si, f) in self._ships.items():
            h = self.to_hex(f.position)
            if name not in seen and h is not None:
                ships.append(Marker(name, si, h, 1, 1, 0, "fighting", True, f.facing))
        return ships + out

    def _ship_marker(self, agent: Any, h: Hex) -> Marker:
        return Marker(
            agent.name,
            int(agent.side),
            h,
            int(agent.headcount),
            int(agent.initial_headcount),
            int(agent.wound),
            str(agent.status),
            True,
            getattr(agent, "facing", None),
            int(getattr(agent, "fires", 0) or 0),
            _cells(getattr(agent, "grappled", None)),
        )

    @staticmethod
    def _band_marker(key: tuple[Hex, int, str], members: list[Any]) -> Marker:
        h, side, name = key
        fighting = [m for m in members if m.status is Status.FIGHTING]
        status = "fighting" if fighting else str(members[-1].status)
        worst = max((int(m.wound) for m in fighting), default=int(Wound.INCAPACITATED))
        return Marker(
            name,
            side,
            h,
            sum(int(m.headcount) for m in members),
            sum(int(m.initial_headcount) for m in members),
            worst,
            status,
        )

    # --- drawing ----------------------------------------------------------------------------

    def _region(self, hexes: Iterable[Hex]) -> list[Hex]:
        """Open maps: the whole (binned) field. Hex maps: the rectangle (offset columns and
        rows) around everything on them, :data:`FOCUS` hexes wider, inside the map."""
        spec = self.scenario.map
        if not self.hex_map and spec.width and spec.height:
            cols = math.ceil(spec.width / self.bin) + 1
            rows = math.ceil(spec.height / self.bin) + 1
            return [from_offset(c, r) for c in range(cols) for r in range(rows)]
        cells = [to_offset(h) for h in hexes] or [(0, 0)]
        c0, c1 = min(c for c, _ in cells) - FOCUS, max(c for c, _ in cells) + FOCUS
        r0, r1 = min(r for _, r in cells) - FOCUS, max(r for _, r in cells) + FOCUS
        if (c1 - c0 + 1) * (r1 - r0 + 1) > MAX_GRID:
            region = {n for h in hexes for n in within(h, FOCUS)}  # far apart: islands
        else:
            region = {from_offset(c, r) for c in range(c0, c1 + 1) for r in range(r0, r1 + 1)}
        if self.hex_map and spec.radius is not None:
            region = {h for h in region if distance(ORIGIN, h) <= spec.radius}
        return sorted(region) or within(ORIGIN, FOCUS)

    def _background(self, hexes: frozenset[Hex]) -> tuple[str, tuple[float, ...], float]:
        if self._grid_key is not None and hexes <= self._grid_key:
            return self._grid
        self._seen |= hexes
        region = self._region(self._seen)  # the view only grows: moving ships never jump
        cover = frozenset(region) | hexes
        centres = [to_pixel(h, 1.0) for h in cover]
        xs, ys = [c[0] for c in centres], [c[1] for c in centres]
        span = max(max(xs) - min(xs) + 2.0, (max(ys) - min(ys) + 2.0) * 1.2)
        size = max(6.0, min(MAX_HEX_PIXELS, self.pixels / span))
        x0, y0 = min(xs) * size - size * 1.2, min(ys) * size - size * 1.2
        box = (
            x0,
            y0,
            (max(xs) - min(xs)) * size + 2.4 * size,
            (max(ys) - min(ys)) * size + 2.4 * size,
        )
        cells = "".join(f'<polygon points="{svg_points(h, size)}"/>' for h in sorted(cover))
        grid = f'<g class="grid" fill="#f7f3e8" stroke="#c9bfa5" stroke-width="0.6">{cells}</g>'
        self._grid_key, self._grid = cover, (grid, box, size)
        return self._grid

    def _trail(self, battle: Any, found: list[Marker]) -> dict[str, list[Hex]]:
        """Hexes each ship and lone fighter stood in, round by round up to now (a step
        back forgets the rounds after it)."""
        now = int(battle.round)
        out: dict[str, list[Hex]] = {}
        for m in found:
            if not (m.ship or m.start == 1):
                continue
            rounds = self._trails.setdefault(m.name, {})
            rounds[now] = m.hex
            path = [rounds[r] for r in sorted(rounds) if r <= now]
            out[m.name] = [h for i, h in enumerate(path) if i == 0 or path[i - 1] != h]
        return out

    def _arcs(self, battle: Any, selected: str | None, size: float) -> list[str]:
        """The hexes each working weapon of the ``selected`` ship bears on, shaded."""
        ship = next(
            (
                a
                for roster in battle.sides
                for a in roster.members
                if a.name == selected and getattr(a, "kind", "") == "ship"
            ),
            None,
        )
        if ship is None or getattr(ship, "position", None) is None:
            return []
        origin, facing = self.to_hex(ship.position), int(getattr(ship, "facing", 0) or 0)
        colour = SIDE_COLOURS[int(ship.side) % len(SIDE_COLOURS)]
        covered: set[Hex] = set()
        for team in getattr(ship, "teams", ()):
            weapon = team.weapon
            if getattr(team, "disabled", False) or origin is None:
                continue
            arc = "all" if weapon.arc == "any" else weapon.arc  # the gunnery reading
            covered.update(arc_hexes(origin, facing, arc, int(weapon.max_range)))
        cells = "".join(f'<polygon points="{svg_points(h, size)}"/>' for h in sorted(covered))
        return [f'<g class="arc" fill="{colour}" fill-opacity="0.16" stroke="none">{cells}</g>']

    def _legend(self, x0: float, y: float, w: float) -> str:
        """Side colours with their names, then the wound colours of the rings."""
        step, font = w / 45, w / 60
        parts, x = [], x0 + 4
        for i, side in enumerate(self.scenario.sides):
            colour = SIDE_COLOURS[i % len(SIDE_COLOURS)]
            parts.append(
                f'<rect x="{x:.1f}" y="{y - font:.1f}" width="{font:.1f}" height="{font:.1f}" '
                f'fill="{colour}"/><text x="{x + font * 1.4:.1f}" y="{y:.1f}" '
                f'font-size="{font:.1f}">{escape(side.name)}</text>'
            )
            x += font * 2.2 + len(side.name) * font * 0.55
        x += step
        for k in (0, 2, 3, 4, 6):
            parts.append(
                f'<circle cx="{x + font / 2:.1f}" cy="{y - font / 3:.1f}" r="{font / 2:.1f}" '
                f'fill="none" stroke="{WOUND_COLOURS[k]}" stroke-width="{font / 4:.1f}"/>'
                f'<text x="{x + font * 1.3:.1f}" y="{y:.1f}" font-size="{font * 0.85:.1f}">'
                f"{Wound(k).label}</text>"
            )
            x += font * 2 + len(Wound(k).label) * font * 0.5
        return f'<g class="legend">{"".join(parts)}</g>'

    def svg(self, battle: Any, selected: str | None = None) -> str:
        """The whole map for the battle's current state (changes every round), with the
        firing arcs of the ship named ``selected``."""
        found = self.markers(battle)
        grid, box, size = self._background(frozenset(m.hex for m in found))
        x0, y0, w, h = box
        by_hex: dict[Hex, list[Marker]] = {}
        for m in found:
            by_hex.setdefault(m.hex, []).append(m)
        centres = {m.name: to_pixel(m.hex, size) for m in found if m.ship}
        parts = [grid, *self._arcs(battle, selected, size)]
        parts.extend(_trail_lines(self._trail(battle, found), found, size))
        parts.extend(_grapple_lines(found, centres))
        least = w / 90  # markers stay legible on large maps of small hexes
        for hx, here in by_hex.items():
            parts.extend(_draw_hex_markers(hx, here, size, least))
        foot = w / 12  # caption and legend under the map
        head = (
            f'<svg xmlns="http://www.w3.org/2000/svg" class="fadad-map" '
            f'data-round="{battle.round}" viewBox="{x0:.1f} {y0:.1f} {w:.1f} {h + foot:.1f}" '
            f'width="{self.pixels:.0f}" height="{MAP_HEIGHT * self.pixels / MAP_PIXELS:.0f}" '
            f'preserveAspectRatio="xMidYMin meet" style="max-width:100%;font-family:sans-serif">'
        )
        caption = (
            f'<text x="{x0 + 4:.1f}" y="{y0 + h + w / 40:.1f}" font-size="{w / 45:.1f}">'
            f"{escape(self.scenario.name)} - round {battle.round} ({clock(int(battle.env.now))})"
            f"{' - ended' if battle.finished else ''}</text>"
        )
        legend = self._legend(x0, y0 + h + w / 14, w)
        return head + "".join(parts) + caption + legend + "</svg>"


def _trail_lines(trails: dict[str, list[Hex]], found: list[Marker], size: float) -> list[str]:
    sides = {m.name: m.side for m in found}
    out = []
    for name, path in trails.items():
        if len(path) < 2:
            continue
        colour = SIDE_COLOURS[sides[name] % len(SIDE_COLOURS)]
        points = " ".join(f"{x:.1f},{y:.1f}" for x, y in (to_pixel(h, size) for h in path))
        out.append(
            f'<polyline class="trail" data-name="{escape(name)}" points="{points}" fill="none" '
            f'stroke="{colour}" stroke-opacity="0.6" stroke-width="1.5" stroke-dasharray="2 3"/>'
        )
    return out


def _grapple_lines(found: list[Marker], centres: dict[str, tuple[float, float]]) -> list[str]:
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


def _slots(n: int, size: float, *, centre: bool = True) -> list[tuple[float, float]]:
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


def _draw_hex_markers(hx: Hex, here: list[Marker], size: float, least: float) -> list[str]:
    cx, cy = to_pixel(hx, size)
    ships = [m for m in here if m.ship]
    others = [m for m in here if not m.ship]
    scale = 1.0 if len(others) <= 1 else max(0.5, 1.9 / math.sqrt(len(others)))
    if ships:
        scale *= 0.7  # crews aboard are badges around their hull
    r = max(least, size * 0.32 * scale)
    spread = max(size, r * 2.2) if len(others) > 1 or not ships else size * 1.1
    out = [
        _draw_marker(m, cx + dx, cy + dy, r)
        for (dx, dy), m in zip(_slots(len(others), spread, centre=not ships), others, strict=True)
    ]
    # Hulls go on top (translucent), so a ship stays visible under the crews aboard.
    out.extend(_draw_ship(m, cx, cy, size, i, len(ships)) for i, m in enumerate(ships))
    return out


def _label(m: Marker) -> str:
    if m.start > 1:
        return str(m.heads)
    return "".join(w[0] for w in m.name.split()[:2]).upper()


def _draw_marker(m: Marker, x: float, y: float, r: float) -> str:
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
        f'text-anchor="middle" fill="#fff">{escape(_label(m))}</text>{cross}'
        f'<text class="name" x="{x:.1f}" y="{y + r * 1.75:.1f}" font-size="{r * 0.6:.1f}" '
        f'text-anchor="middle" fill="#333">{escape(m.name)}</text></g>'
    )


def _draw_ship(m: Marker, cx: float, cy: float, size: float, i: int, n: int) -> str:
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


def markers(scenario: Scenario, battle: Any) -> list[Marker]:
    """Markers of ``battle`` projected on ``scenario``'s map (a one-off :class:`MapView`)."""
    return MapView(scenario).markers(battle)
