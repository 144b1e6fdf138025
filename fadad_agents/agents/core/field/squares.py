"""Where everyone on the field stands, filed by square: the indexes the field's
questions read (:mod:`~fadad_agents.agents.core.field.ground`).

Three indexes of square buckets, each kept as fighters come, move and leave, touching
only the squares a fighter leaves and enters:

- per side, :data:`CELL_YARDS` squares keyed ``(x // cell, y // cell)``, with the
  side's smallest and largest keys (foes within a distance, the nearest foe);
- every side together, :data:`SPOT_YARDS` squares (is this spot taken?);
- while nobody on the field is wider than :data:`HALO_MOST`, every side together,
  each fighter in every :data:`HALO_YARDS` square its elbow room reaches into, so "is
  this spot taken?" is one look-up of the spot's own square.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

__all__ = [
    "CELL_YARDS",
    "ELBOW_ROOM",
    "HALO_MOST",
    "HALO_YARDS",
    "SPOT_YARDS",
    "Squares",
    "keys_in",
]

CELL_YARDS = 3.0
"""Side of a bucket: a few men's widths, so a contact look-up visits nine small buckets."""

SPOT_YARDS = 1.5
"""Side of a square of the occupancy index: wider than the elbow room round a man, so a
spot's check visits one to four squares."""

ELBOW_ROOM = 2 / 3
"""PROPOSED: two fighters stand no closer than this share of their radii together (men
two-thirds of a yard apart, shoulder to shoulder in a press)."""

HALO_YARDS = 0.75
"""Side of a square of the elbow-room index: a man's elbow room reaches into four to nine."""

HALO_MOST = 1.0
"""Yards: with anyone wider on the field (a giant's elbow room would fill thousands of
squares) spots are checked in the occupancy index alone."""


class Squares:
    """The square indexes of a field (see the module): who stands in each square.

    Attributes:
        sides: how many sides stand on it.
        cell: the side of a bucket of the per-side index, in yards.
        widest: the largest radius of a fighter ever placed (look-up margins).
    """

    __slots__ = (
        "_bounds",
        "_buckets",
        "_halo",
        "_halo_reach",
        "_spots",
        "_unfiled",
        "cell",
        "sides",
        "widest",
    )

    def __init__(self, sides: int, cell: float) -> None:
        self.sides = sides
        self.cell = cell
        self.widest = 0.0
        self._buckets: list[dict[tuple[int, int], list[Any]]] = [{} for _ in range(sides)]
        self._spots: dict[tuple[int, int], list[Any]] = {}  # every side, SPOT_YARDS squares
        # Every side, HALO_YARDS squares, each fighter in all its elbow room reaches into
        # (the widest's elbow room round two of the widest); None: someone too wide.
        self._halo: dict[tuple[int, int], list[Any]] | None = {}
        self._halo_reach = 0.0
        # Smallest and largest bucket keys ever used per side: ring searches stop there.
        self._bounds: list[list[int]] = [[0, 0, -1, -1] for _ in range(sides)]
        self._unfiled: list[Any] = []  # on the field, not yet in the indexes (place_later)

    def _changed(self, side: int | None = None) -> None:
        """Someone of ``side`` (None: of any) came or moved (the questions' answers kept
        since may no longer hold: :class:`~fadad_agents.agents.core.field.ground.Field`)."""

    def _taken_off(self, agent: Any) -> None:
        """``agent`` left the field (as :meth:`_changed`, for one who left)."""

    def _key(self, x: float, y: float) -> tuple[int, int]:
        cell = self.cell
        return int(x // cell), int(y // cell)

    def clear(self) -> None:
        """Nobody on the field (a reset battle places everyone again)."""
        self._changed()
        self._unfiled = []
        for buckets in self._buckets:
            buckets.clear()
        self._spots.clear()
        if self._halo is not None:
            self._halo.clear()
        for bounds in self._bounds:
            bounds[:] = [0, 0, -1, -1]

    def add(self, agent: Any) -> None:
        """Put ``agent`` (its ``side`` and ``position`` set) on the field."""
        self._changed(agent.side)
        if self._unfiled:
            self._file_unfiled()
        x, y = agent.position
        if agent.radius > self.widest:
            self.widest = agent.radius
            self._refile_halo()
        self._file(agent, *self._key(x, y))
        self._occupy(agent, x, y)

    def standing(self) -> list[Any]:
        """Everyone on the field (every side; in no particular order)."""
        if self._unfiled:
            self._file_unfiled()
        return [
            agent for buckets in self._buckets for bucket in buckets.values() for agent in bucket
        ]

    def place_later(self, agents: list[Any]) -> None:
        """Put ``agents`` (positions set, none wider than :attr:`widest`) on the field, filing
        them in the indexes only when a look-up, move or removal first needs them: a reset
        battle standing in one melee asks none of them, and filing a fighter costs more
        than one of its blows."""
        self._changed()
        self._unfiled.extend(agents)

    def _file_unfiled(self) -> None:
        """File the fighters :meth:`place_later` put on the field (as :meth:`add` would)."""
        unfiled, self._unfiled = self._unfiled, []
        for agent in unfiled:
            x, y = agent.position
            self._file(agent, *self._key(x, y))
            self._occupy(agent, x, y)

    def _refile_halo(self) -> None:
        """The widest fighter grew: every elbow room reaches further (or, past
        :data:`HALO_MOST`, the elbow-room index is given up)."""
        if self.widest > HALO_MOST:
            self._halo = None
            return
        # A hair wider than any two fighters' elbow room: floating point at the edges.
        self._halo_reach = 2 * self.widest * ELBOW_ROOM * (1 + 1e-9) + 1e-9
        self._halo = {}
        for spot in self._spots.values():
            for other in spot:
                self._ring_in(other, *other.position)

    def _halo_box(self, x: float, y: float) -> tuple[range, range]:
        """The columns and rows of the elbow-room squares round ``(x, y)``."""
        reach = self._halo_reach
        return (
            range(int((x - reach) // HALO_YARDS), int((x + reach) // HALO_YARDS) + 1),
            range(int((y - reach) // HALO_YARDS), int((y + reach) // HALO_YARDS) + 1),
        )

    def _ring_in(self, agent: Any, x: float, y: float) -> None:
        """File ``agent`` in every elbow-room square its elbow room reaches into: first in
        the square it stands in (whoever stands in a spot's own square most often blocks
        it, so a look-up stops at the first fighter it measures), last in the others."""
        halo = self._halo
        if halo is not None:
            oi, oj = int(x // HALO_YARDS), int(y // HALO_YARDS)
            columns, rows = self._halo_box(x, y)
            for i in columns:
                for j in rows:
                    found = halo.get((i, j))
                    if found is None:
                        halo[i, j] = [agent]
                    elif i == oi and j == oj:
                        found.insert(0, agent)
                    else:
                        found.append(agent)

    def _ring_out(self, agent: Any, x: float, y: float) -> None:
        """Take ``agent``, filed at ``(x, y)``, out of the elbow-room index."""
        halo = self._halo
        if halo is not None:
            columns, rows = self._halo_box(x, y)
            for i in columns:
                for j in rows:
                    halo[i, j].remove(agent)  # filed in every square round it

    def _ring_shift(self, agent: Any, ox: float, oy: float, x: float, y: float) -> None:
        """Move ``agent``, filed at ``(ox, oy)``, to ``(x, y)`` in the elbow-room index,
        each square listing it as :meth:`_ring_out` then :meth:`_ring_in` would (first in
        the square it now stands in, last in the others) but touching only the squares
        that change: a step in the ranks is shorter than a square, and most of the squares
        its elbow room reaches stay the same."""
        halo = self._halo
        if halo is None:
            return
        reach = self._halo_reach
        oi0, oi1 = int((ox - reach) // HALO_YARDS), int((ox + reach) // HALO_YARDS)
        oj0, oj1 = int((oy - reach) // HALO_YARDS), int((oy + reach) // HALO_YARDS)
        ni0, ni1 = int((x - reach) // HALO_YARDS), int((x + reach) // HALO_YARDS)
        nj0, nj1 = int((y - reach) // HALO_YARDS), int((y + reach) // HALO_YARDS)
        for i in range(oi0, oi1 + 1):
            stays = ni0 <= i <= ni1
            for j in range(oj0, oj1 + 1):
                if not (stays and nj0 <= j <= nj1):
                    halo[i, j].remove(agent)
        ni, nj = int(x // HALO_YARDS), int(y // HALO_YARDS)
        for i in range(ni0, ni1 + 1):
            kept = oi0 <= i <= oi1
            for j in range(nj0, nj1 + 1):
                if kept and oj0 <= j <= oj1:  # listed there already: moved to its end
                    found = halo[i, j]
                    if i == ni and j == nj:
                        if found[0] is not agent:
                            found.remove(agent)
                            found.insert(0, agent)
                    elif found[-1] is not agent:
                        found.remove(agent)
                        found.append(agent)
                    continue
                listed = halo.get((i, j))
                if listed is None:
                    halo[i, j] = [agent]
                elif i == ni and j == nj:
                    listed.insert(0, agent)
                else:
                    listed.append(agent)

    def _occupy(self, agent: Any, x: float, y: float) -> None:
        spot = self._spots.get((int(x // SPOT_YARDS), int(y // SPOT_YARDS)))
        if spot is None:
            self._spots[(int(x // SPOT_YARDS), int(y // SPOT_YARDS))] = [agent]
        else:
            spot.append(agent)
        self._ring_in(agent, x, y)

    def _vacate(self, agent: Any, x: float, y: float) -> None:
        spot = self._spots.get((int(x // SPOT_YARDS), int(y // SPOT_YARDS)))
        if spot is not None and agent in spot:  # filed (one taken off is not)
            spot.remove(agent)
            self._ring_out(agent, x, y)

    def remove(self, agent: Any) -> None:
        """Take ``agent`` off the field (it left the fight)."""
        self._taken_off(agent)
        if self._unfiled:
            if agent in self._unfiled:  # never filed: nothing else to undo
                self._unfiled.remove(agent)
                return
            self._file_unfiled()
        key = self._key(*agent.position)
        bucket = self._buckets[agent.side].get(key)
        if bucket is not None and agent in bucket:
            bucket.remove(agent)
            self._vacate(agent, *agent.position)

    def move(self, agent: Any, x: float, y: float) -> None:
        """Move ``agent`` to ``(x, y)`` (a new position tuple: see
        :meth:`~fadad_agents.agents.core.field.ground.Field.blocker`), re-indexing it."""
        self._changed(agent.side)
        if self._unfiled:
            self._file_unfiled()
        ox, oy = agent.position
        agent.position = (x, y)
        spots = self._spots
        was = (int(ox // SPOT_YARDS), int(oy // SPOT_YARDS))
        spot = spots.get(was)
        if spot is not None and agent in spot:  # filed: _vacate and _occupy, the same lists
            now = (int(x // SPOT_YARDS), int(y // SPOT_YARDS))
            if now == was:
                if spot[-1] is not agent:  # last in its square
                    spot.remove(agent)
                    spot.append(agent)
            else:
                spot.remove(agent)
                spot = spots.get(now)
                if spot is None:
                    spots[now] = [agent]
                else:
                    spot.append(agent)
            self._ring_shift(agent, ox, oy, x, y)
        else:
            self._occupy(agent, x, y)
        old, new = self._key(ox, oy), self._key(x, y)
        if new != old:
            bucket = self._buckets[agent.side].get(old)
            if bucket is not None and agent in bucket:
                bucket.remove(agent)
            self._file(agent, *new)

    def _file(self, agent: Any, i: int, j: int) -> None:
        """Put ``agent`` in bucket ``(i, j)`` of its side, widening the side's bounds."""
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


def keys_in(
    table: dict[tuple[int, int], Any], i0: int, i1: int, j0: int, j1: int
) -> Iterable[tuple[int, int]]:
    """The squares ``i0..i1`` by ``j0..j1`` to look in, in that order (``i``, then ``j``):
    every square of the box while it is smaller than ``table``, else only the filled ones
    inside it, sorted the same way - a giant's reach (Scale +60 is miles wide) would
    otherwise make a look-up visit millions of empty squares for a handful of fighters."""
    if (i1 - i0 + 1) * (j1 - j0 + 1) <= len(table):
        return ((i, j) for i in range(i0, i1 + 1) for j in range(j0, j1 + 1))
    return sorted(k for k in table if i0 <= k[0] <= i1 and j0 <= k[1] <= j1)
