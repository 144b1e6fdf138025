"""The battle map as an SVG string: flat-topped hexes, combatant markers, ships with facing.

DESIGN.md (Interfaces): the map is redrawn every step without a matplotlib figure; the
dashboard puts the string into an ``ipywidgets.HTML``. Whatever has a position is drawn,
read generically from the agents (``position``, and ``facing``, ``fires``, ``grappled``
when an agent has them), so ships appear as soon as the engine plays them; until then the
scenario's ships are drawn where the scenario puts them. Fighters aboard a ship stand in
its hex.

Hex maps use the positions as axial ``(q, r)``. Open maps use yards ``(x, y)``: the
background hexes are bins of yards (the longer side spans at most :data:`MAX_CELLS`
columns), and fighters, bands and units are drawn where they stand in yards, on one
scale across and down (:func:`~fadad_agents.dashboard.mapdraw.yards_to_pixel`), so the
map shows the distances the log narrates.

Each ship and fighter is labelled with its name; a legend gives the sides' colours and the
wound colours of the rings; ships and lone fighters leave a dotted trail of the hexes they
have stood in, round by round; the firing arcs of a selected ship are shaded out to each
weapon's range. The drawing keeps one size in pixels from frame to frame (the view inside
it may zoom out as ships spread), so the dashboard around it never jumps.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from html import escape
from typing import Any

from fadad_agents.agents.core.base import Status
from fadad_agents.dashboard.mapdraw import (
    SIDE_COLOURS,
    WOUND_COLOURS,
    Marker,
    draw_at,
    draw_hex_markers,
    grapple_lines,
    trail_lines,
)
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
from fadad_agents.hexmap.pixel import SQRT3
from fadad_agents.rules.core.wounds import Wound
from fadad_agents.schema import forces as schema_forces
from fadad_agents.schema.scenario import Scenario

__all__ = ["MAX_CELLS", "SIDE_COLOURS", "MapView", "Marker", "markers"]

MAX_CELLS = 30
"""Hexes along the longer side of an open map (larger maps are binned)."""

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
        self._trails: dict[str, dict[int, Any]] = {}

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
        out = [self._band_marker(k, members, not self.hex_map) for k, members in groups.items()]
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
    def _band_marker(key: tuple[Hex, int, str], members: list[Any], in_yards: bool) -> Marker:
        h, side, name = key
        fighting = [m for m in members if m.status is Status.FIGHTING]
        status = "fighting" if fighting else str(members[-1].status)
        worst = max((int(m.wound) for m in fighting), default=int(Wound.INCAPACITATED))
        places = [m.position for m in members if getattr(m, "position", None) is not None]
        at = None
        if in_yards and places:  # the middle of the band's members in this hex
            at = (sum(p[0] for p in places) / len(places), sum(p[1] for p in places) / len(places))
        return Marker(
            name,
            side,
            h,
            sum(int(m.headcount) for m in members),
            sum(int(m.initial_headcount) for m in members),
            worst,
            status,
            at=at,
        )

    # --- drawing ----------------------------------------------------------------------------

    def _region(self, hexes: Iterable[Hex]) -> list[Hex]:
        """Open maps: the whole (binned) field. Hex maps: the rectangle (offset columns and
        rows) around everything on them, :data:`FOCUS` hexes wider, inside the map."""
        spec = self.scenario.map
        if not self.hex_map and spec.width and spec.height:  # mapdraw.yards_to_pixel's scale
            cols = math.ceil(spec.width / self.bin) + 1
            rows = math.ceil(spec.height * 1.5 / SQRT3 / self.bin) + 1
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

    def _trail(self, battle: Any, found: list[Marker]) -> dict[str, list[Any]]:
        """Hexes (yards on an open map) each ship and lone fighter stood in, round by round
        up to now (a step back forgets the rounds after it)."""
        now = int(battle.round)
        out: dict[str, list[Any]] = {}
        for m in found:
            if not (m.ship or m.start == 1):
                continue
            rounds = self._trails.setdefault(m.name, {})
            rounds[now] = m.hex if m.at is None else m.at
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
        grid, box, size = self._background(frozenset(m.hex for m in found if m.at is None))
        x0, y0, w, h = box
        by_hex: dict[Hex, list[Marker]] = {}
        for m in found:
            by_hex.setdefault(m.hex, []).append(m)
        centres = {m.name: to_pixel(m.hex, size) for m in found if m.ship}
        parts = [grid, *self._arcs(battle, selected, size)]
        parts.extend(trail_lines(self._trail(battle, found), found, size, self.bin))
        parts.extend(grapple_lines(found, centres))
        least = w / 90  # markers stay legible on large maps of small hexes
        for hx, here in by_hex.items():
            in_hex = [m for m in here if m.at is None]
            parts.extend(draw_hex_markers(hx, in_hex, size, least) if in_hex else ())
            parts.extend(draw_at(m, self.bin, size, least) for m in here if m.at is not None)
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


def markers(scenario: Scenario, battle: Any) -> list[Marker]:
    """Markers of ``battle`` projected on ``scenario``'s map (a one-off :class:`MapView`)."""
    return MapView(scenario).markers(battle)
