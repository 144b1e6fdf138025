"""The field: where personal fighters stand, in yards, with a bucket index for look-ups.

Positions are continuous ``(x, y)`` yards on open ground. Look-ups (foes within a
distance, the nearest foe that passes a test) visit only the square buckets of
:data:`CELL_YARDS` round the point, per side, so their cost follows the crowd near the
fighter, never the size of the battle (no all-pairs scans).

Why not Mesa's space: Mesa 3.5's ``mesa.experimental.continuous_space.ContinuousSpace``
answers ``get_agents_in_radius`` by measuring the distance to every agent (scipy
``cdist`` over all positions, O(N) a query, O(N^2) a round) and is experimental;
``mesa.discrete_space`` grids make a ``Cell`` object per cell, too many for a field
measured in yards, and give no continuous positions; ``mesa.space`` goes in Mesa 4.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

__all__ = ["CELL_YARDS", "Field"]

CELL_YARDS = 3.0
"""Side of a bucket: a few men's widths, so a contact look-up visits nine small buckets."""


class Field:
    """Open ground: each side's fighters in buckets keyed by ``(x // cell, y // cell)``.

    Attributes:
        sides: how many sides fight on it.
        width, height: the field's size in yards (None: unbounded on that axis).
        max_attackers: the scenario's cap on melee attackers of one defender (doorway,
            corridor), or None.
    """

    __slots__ = (
        "_bounds",
        "_buckets",
        "cell",
        "height",
        "max_attackers",
        "sides",
        "widest",
        "width",
    )

    def __init__(
        self,
        sides: int,
        *,
        width: float | None = None,
        height: float | None = None,
        max_attackers: int | None = None,
        cell: float = CELL_YARDS,
    ) -> None:
        self.width = width
        self.height = height
        self.max_attackers = max_attackers
        self.cell = cell
        self.sides = sides
        self.widest = 0.0  # largest radius of a fighter ever placed (look-up margins)
        self._buckets: list[dict[tuple[int, int], list[Any]]] = [{} for _ in range(sides)]
        # Smallest and largest bucket keys ever used per side: ring searches stop there.
        self._bounds: list[list[int]] = [[0, 0, -1, -1] for _ in range(sides)]

    def _key(self, x: float, y: float) -> tuple[int, int]:
        cell = self.cell
        return int(x // cell), int(y // cell)

    def clamp(self, x: float, y: float) -> tuple[float, float]:
        """The nearest point on the field."""
        if self.width is not None:
            x = min(max(x, 0.0), float(self.width))
        if self.height is not None:
            y = min(max(y, 0.0), float(self.height))
        return x, y

    def clear(self) -> None:
        """Nobody on the field (a reset battle places everyone again)."""
        for buckets in self._buckets:
            buckets.clear()
        for bounds in self._bounds:
            bounds[:] = [0, 0, -1, -1]

    def add(self, agent: Any) -> None:
        """Put ``agent`` (its ``side`` and ``position`` set) in its bucket."""
        x, y = agent.position
        cell = self.cell
        i, j = int(x // cell), int(y // cell)
        if agent.radius > self.widest:
            self.widest = agent.radius
        bucket = self._buckets[agent.side].get((i, j))
        if bucket is None:
            self._buckets[agent.side][(i, j)] = [agent]
        else:
            bucket.append(agent)
        bounds = self._bounds[agent.side]
        if bounds[2] < bounds[0]:  # empty
            bounds[:] = [i, j, i, j]
            return
        if i < bounds[0]:
            bounds[0] = i
        elif i > bounds[2]:
            bounds[2] = i
        if j < bounds[1]:
            bounds[1] = j
        elif j > bounds[3]:
            bounds[3] = j

    def remove(self, agent: Any) -> None:
        """Take ``agent`` off the field (it left the fight)."""
        key = self._key(*agent.position)
        bucket = self._buckets[agent.side].get(key)
        if bucket is not None and agent in bucket:
            bucket.remove(agent)

    def move(self, agent: Any, x: float, y: float) -> None:
        """Move ``agent`` to ``(x, y)``, re-bucketing it if it crossed into another."""
        old = self._key(*agent.position)
        agent.position = (x, y)
        new = self._key(x, y)
        if new != old:
            bucket = self._buckets[agent.side].get(old)
            if bucket is not None and agent in bucket:
                bucket.remove(agent)
            self.add(agent)

    def within(self, side: int, x: float, y: float, radius: float) -> list[Any]:
        """Fighters of ``side`` whose centres lie within ``radius`` yards of ``(x, y)``,
        bucket by bucket (the order is deterministic: it follows the moves made)."""
        buckets = self._buckets[side]
        if not buckets:
            return []
        cell = self.cell
        x0, y0 = math.floor((x - radius) / cell), math.floor((y - radius) / cell)
        x1, y1 = math.floor((x + radius) / cell), math.floor((y + radius) / cell)
        r2 = radius * radius
        found = []
        for i in range(x0, x1 + 1):
            for j in range(y0, y1 + 1):
                bucket = buckets.get((i, j))
                if bucket:
                    for agent in bucket:
                        px, py = agent.position
                        if (px - x) ** 2 + (py - y) ** 2 <= r2:
                            found.append(agent)
        return found

    def nearest(
        self, side: int, x: float, y: float, accept: Callable[[Any], bool] | None = None
    ) -> Any | None:
        """The fighter of ``side`` nearest to ``(x, y)`` that ``accept`` passes (ties: the
        lower ``unique_id``), searching rings of buckets outward and stopping once no
        nearer bucket is left."""
        buckets = self._buckets[side]
        bx0, by0, bx1, by1 = self._bounds[side]
        if bx1 < bx0:
            return None
        cell = self.cell
        cx, cy = self._key(x, y)
        rings = max(abs(cx - bx0), abs(cx - bx1), abs(cy - by0), abs(cy - by1))
        best: Any | None = None
        best_key = (math.inf, 0)
        for k in range(rings + 1):
            if best is not None and best_key[0] <= ((k - 1) * cell) ** 2:
                break  # every bucket of ring k lies at least (k - 1) cells away
            for i in range(max(cx - k, bx0), min(cx + k, bx1) + 1):
                edge = i in (cx - k, cx + k)
                for j in (
                    range(max(cy - k, by0), min(cy + k, by1) + 1)
                    if edge
                    else ((cy - k, cy + k) if k else (cy,))
                ):
                    bucket = buckets.get((i, j))
                    if not bucket:
                        continue
                    for agent in bucket:
                        px, py = agent.position
                        key = ((px - x) ** 2 + (py - y) ** 2, agent.unique_id)
                        if key < best_key and (accept is None or accept(agent)):
                            best, best_key = agent, key
        return best
