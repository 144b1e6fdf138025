"""The field: where personal fighters stand, in yards, with a bucket index for look-ups.

Positions are continuous ``(x, y)`` yards on open ground. Look-ups (foes within a
distance, the nearest foe that passes a test) visit only the square buckets of
:data:`CELL_YARDS` round the point, per side, so their cost follows the crowd near the
fighter, never the size of the battle (no all-pairs scans).

No two fighters stand in one place: a second, finer index of :data:`SPOT_YARDS` squares
(every side together) answers "is this spot taken?" from the few squares round it. Since
no two fighters ever stand closer than :data:`ELBOW_ROOM` of their radii together, a
square holds a bounded number of them, and so does every look-up near a point. While
nobody on the field is wider than :data:`HALO_MOST`, a third index files each fighter
in every :data:`HALO_YARDS` square its elbow room reaches into, so "is this spot taken?"
is one look-up of the spot's own square (men waiting in ranks ask it a dozen times a
round each).

Why not Mesa's space: Mesa 3.5's ``mesa.experimental.continuous_space.ContinuousSpace``
answers ``get_agents_in_radius`` by measuring the distance to every agent (scipy
``cdist`` over all positions, O(N) a query, O(N^2) a round) and is experimental;
``mesa.discrete_space`` grids make a ``Cell`` object per cell, too many for a field
measured in yards, and give no continuous positions; ``mesa.space`` goes in Mesa 4.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from typing import Any

from fadad_agents.agents.core.crowd.nearest import nearest_to_all

__all__ = ["CELL_YARDS", "ELBOW_ROOM", "HALO_MOST", "HALO_YARDS", "SPOT_YARDS", "Field"]

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

_NOBODY: list[Any] = []
"""No one: an empty square of the elbow-room index (never changed)."""


_SLACK = 1e-6
"""Yards taken off a bucket's distance before skipping it (floating point at its edges)."""

NEAREST_AT_ONCE = 256
"""After this many look-ups of the nearest fighter of a side while nobody of it came or
moved (a round's targeting), its nearest to everyone on the field are found at once
(:meth:`Field._nearest_to_all`); a side smaller than this is searched as asked."""

_UNKNOWN = object()  # not found at once: search as asked


class Field:
    """Open ground: each side's fighters in buckets keyed by ``(x // cell, y // cell)``.

    Attributes:
        sides: how many sides fight on it.
        width, height: the field's size in yards (None: unbounded on that axis).
        max_attackers: the scenario's cap on melee attackers of one defender (doorway,
            corridor), or None.
    """

    __slots__ = (
        "_asked",
        "_away",
        "_bounds",
        "_buckets",
        "_gone",
        "_halo",
        "_halo_reach",
        "_nearest",
        "_spots",
        "_unfiled",
        "all_touching",
        "cell",
        "height",
        "looked_ahead",
        "max_attackers",
        "off_field",
        "sides",
        "start_touching",
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
        self.off_field: list[Any] = []  # crews and units: in reach of everyone
        self.all_touching = False
        """Every fighter on the field touches every foe on it: the sides stood in one
        melee at set-up (:func:`~fadad_agents.engine.core.space.settle`) and nobody has
        moved since (a fall takes a fighter off, never further away): contact checks
        and path planning can be skipped, their answer known."""
        self.start_touching: bool | None = None  # all_touching at the start (settle)
        self.looked_ahead = 0  # the round whose searches the ranks measured ahead (ranks)
        self._buckets: list[dict[tuple[int, int], list[Any]]] = [{} for _ in range(sides)]
        self._spots: dict[tuple[int, int], list[Any]] = {}  # every side, SPOT_YARDS squares
        # Every side, HALO_YARDS squares, each fighter in all its elbow room reaches into
        # (the widest's elbow room round two of the widest); None: someone too wide.
        self._halo: dict[tuple[int, int], list[Any]] | None = {}
        self._halo_reach = 0.0
        # Smallest and largest bucket keys ever used per side: ring searches stop there.
        self._bounds: list[list[int]] = [[0, 0, -1, -1] for _ in range(sides)]
        self._unfiled: list[Any] = []  # on the field, not yet in the indexes (place_later)
        # Per side, the nearest of it to each point where someone stands, found at once
        # (None: not yet) with the yards to it, those of it who left since, and the
        # look-ups of its nearest since one of it came or moved (:meth:`nearest`).
        self._nearest: list[dict[tuple[float, float], Any] | None] = [None] * sides
        self._away: list[dict[tuple[float, float], float]] = [{} for _ in range(sides)]
        self._gone: list[set[Any]] = [set() for _ in range(sides)]
        self._asked = [0] * sides

    def _changed(self, side: int | None = None) -> None:
        """Someone of ``side`` (None: of any) came or moved: the nearest of that side
        found at once no longer hold (the nearest of another side to a place stay so)."""
        asked = self._asked
        for s in range(self.sides) if side is None else (side,):
            if asked[s]:
                asked[s] = 0
                self._nearest[s] = None

    def _key(self, x: float, y: float) -> tuple[int, int]:
        cell = self.cell
        return int(x // cell), int(y // cell)

    def clamp(self, x: float, y: float) -> tuple[float, float]:
        """The nearest point on the field."""
        width, height = self.width, self.height
        if width is not None:
            x = 0.0 if x < 0.0 else float(width) if x > width else x
        if height is not None:
            y = 0.0 if y < 0.0 else float(height) if y > height else y
        return x, y

    def clear(self) -> None:
        """Nobody on the field (a reset battle places everyone again)."""
        self._changed()
        self.looked_ahead = 0
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
        self.all_touching = False  # until settle finds otherwise
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
        them in the look-up indexes only when a look-up, move or removal first needs them:
        a reset battle standing in one melee (:attr:`all_touching`) asks none of them,
        and filing a fighter costs more than one of its blows."""
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

    def _halo_keys(self, x: float, y: float) -> list[tuple[int, int]]:
        reach = self._halo_reach
        i0, i1 = int((x - reach) // HALO_YARDS), int((x + reach) // HALO_YARDS)
        j0, j1 = int((y - reach) // HALO_YARDS), int((y + reach) // HALO_YARDS)
        return [(i, j) for i in range(i0, i1 + 1) for j in range(j0, j1 + 1)]

    def _ring_in(self, agent: Any, x: float, y: float) -> None:
        """File ``agent`` in every elbow-room square its elbow room reaches into: first in
        the square it stands in (whoever stands in a spot's own square most often blocks
        it, so a look-up stops at the first fighter it measures), last in the others."""
        halo = self._halo
        if halo is not None:
            own = (int(x // HALO_YARDS), int(y // HALO_YARDS))
            for key in self._halo_keys(x, y):
                found = halo.get(key)
                if found is None:
                    halo[key] = [agent]
                elif key == own:
                    found.insert(0, agent)
                else:
                    found.append(agent)

    def _occupy(self, agent: Any, x: float, y: float) -> None:
        spot = self._spots.get((int(x // SPOT_YARDS), int(y // SPOT_YARDS)))
        if spot is None:
            self._spots[(int(x // SPOT_YARDS), int(y // SPOT_YARDS))] = [agent]
        else:
            spot.append(agent)
        self._ring_in(agent, x, y)

    def _vacate(self, agent: Any, x: float, y: float) -> None:
        spot = self._spots.get((int(x // SPOT_YARDS), int(y // SPOT_YARDS)))
        if spot is not None and agent in spot:
            spot.remove(agent)
            halo = self._halo
            if halo is not None:
                for key in self._halo_keys(x, y):
                    found = halo.get(key)
                    if found is not None and agent in found:
                        found.remove(agent)

    def remove(self, agent: Any) -> None:
        """Take ``agent`` off the field (it left the fight): the nearest of its side found
        at once hold for every place but those where it was the nearest (:meth:`nearest`
        searches those again)."""
        if self._nearest[agent.side] is not None:
            self._gone[agent.side].add(agent)
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
        """Move ``agent`` to ``(x, y)`` (a new position tuple: see :meth:`blocker`),
        re-indexing it."""
        self._changed(agent.side)
        if self._unfiled:
            self._file_unfiled()
        ox, oy = agent.position
        agent.position = (x, y)
        self.all_touching = False
        self._vacate(agent, ox, oy)
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

    def within(self, side: int, x: float, y: float, radius: float) -> list[Any]:
        """Fighters of ``side`` whose centres lie within ``radius`` yards of ``(x, y)``,
        bucket by bucket (the order is deterministic: it follows the moves made); none,
        unlooked, where the side's nearest found at once (:meth:`nearest`) is farther."""
        if self._unfiled:
            self._file_unfiled()
        buckets = self._buckets[side]
        if not buckets:
            return []
        if self._nearest[side] is not None:  # (its yards by the tree: a hair's margin)
            away = self._away[side].get((x, y))
            if away is not None and away > radius * (1 + 1e-9) + 1e-9:
                return []
        cell = self.cell
        bx0, by0, bx1, by1 = self._bounds[side]  # no bucket of the side lies outside
        x0, y0 = (
            max(math.floor((x - radius) / cell), bx0),
            max(math.floor((y - radius) / cell), by0),
        )
        x1, y1 = (
            min(math.floor((x + radius) / cell), bx1),
            min(math.floor((y + radius) / cell), by1),
        )
        if x1 < x0 or y1 < y0:  # the circle misses the side's squares (ranks behind)
            return []
        r2 = radius * radius
        found = []
        for key in _keys_in(buckets, x0, x1, y0, y1):
            bucket = buckets.get(key)
            if bucket:
                for agent in bucket:
                    px, py = agent.position
                    if (px - x) ** 2 + (py - y) ** 2 <= r2:
                        found.append(agent)
        return found

    def crowded(self, agent: Any, x: float, y: float) -> bool:
        """Whether another fighter already stands where ``agent`` would stand at ``(x, y)``
        (closer than :data:`ELBOW_ROOM` of their radii together)."""
        return self.blocker(agent, x, y) is not None

    def blocker(self, agent: Any, x: float, y: float) -> Any | None:
        """A fighter standing where ``agent`` would stand at ``(x, y)`` (see
        :meth:`crowded`), or None, stopping at the first it finds.

        Crowding only grows with the fighters present: while the fighter returned stays
        where it stands, the spot stays crowded (``agents.core.moving`` relies on it to
        remember where a fighter is blocked)."""
        if self._unfiled:
            self._file_unfiled()
        r = agent.radius
        halo = self._halo
        if halo is not None and r <= self.widest:  # neighbours(), inlined (hot)
            near = halo.get((int(x // HALO_YARDS), int(y // HALO_YARDS)), _NOBODY)
        else:
            near = self.neighbours(agent, x, y)
        for other in near:
            if other is not agent:
                px, py = other.position
                px -= x
                py -= y
                room = (r + other.radius) * ELBOW_ROOM
                if px * px + py * py < room * room:
                    return other
        return None

    def elbow_index(self, agent: Any) -> dict[tuple[int, int], list[Any]] | None:
        """The elbow-room index when it answers for ``agent`` (no one on the field wider):
        the fighters whose elbow room reaches into each :data:`HALO_YARDS` square, keyed
        ``(x // HALO_YARDS, y // HALO_YARDS)``; None: ask :meth:`neighbours`. Read only."""
        if self._unfiled:
            self._file_unfiled()
        halo = self._halo
        return halo if halo is not None and agent.radius <= self.widest else None

    def neighbours(self, agent: Any, x: float, y: float) -> list[Any]:
        """Everyone (every side, maybe ``agent`` itself) who could stand in ``agent``'s
        elbow room at ``(x, y)``, and a few more: the fighters filed under the spot's
        elbow-room square, else those of the one to four occupancy squares its elbow room
        overlaps (more beside a giant). Do not change the list."""
        if self._unfiled:
            self._file_unfiled()
        halo = self._halo
        if halo is not None and agent.radius <= self.widest:
            return halo.get((int(x // HALO_YARDS), int(y // HALO_YARDS)), _NOBODY)
        reach = (agent.radius + self.widest) * ELBOW_ROOM
        i0, i1 = int((x - reach) // SPOT_YARDS), int((x + reach) // SPOT_YARDS)
        j0, j1 = int((y - reach) // SPOT_YARDS), int((y + reach) // SPOT_YARDS)
        spots = self._spots
        return [other for key in _keys_in(spots, i0, i1, j0, j1) for other in spots.get(key, ())]

    def _nearest_to_all(self, side: int) -> dict[tuple[float, float], Any]:
        """The nearest of ``side`` to each place where someone of another side stands,
        found at once (:func:`~fadad_agents.agents.core.crowd.nearest.nearest_to_all`;
        empty for a side smaller than :data:`NEAREST_AT_ONCE`), kept till it moves."""
        members = [agent for bucket in self._buckets[side].values() for agent in bucket]
        askers = [agent.position for agent in self.standing() if agent.side != side]
        found: dict[tuple[float, float], Any] = {}
        away: dict[tuple[float, float], float] = {}
        if len(members) >= NEAREST_AT_ONCE and askers:
            found, away = nearest_to_all(members, askers)
        self._nearest[side], self._away[side] = found, away
        self._gone[side].clear()
        return found

    def nearest(
        self, side: int, x: float, y: float, accept: Callable[[Any], bool] | None = None
    ) -> Any | None:
        """The fighter of ``side`` nearest to ``(x, y)`` that ``accept`` passes (ties: the
        lower ``unique_id``).

        The side's buckets are searched a column at a time outward from the one nearest
        the point, each column's rows outward from the row nearest it, and a run stops at
        the first bucket wholly farther than the best found (those beyond are farther
        still): a fighter behind its ranks measures the enemy's front and few empty
        buckets. Past :data:`NEAREST_AT_ONCE` look-ups while nobody of the side came or
        moved, the answers found at once for every place where someone stands are read
        instead: a move of another side changes none of them (the answer for a place is
        the place's), and one of the side leaving only those where it was the nearest."""
        if self._unfiled:
            self._file_unfiled()
        if accept is None:
            asked = self._asked
            asked[side] += 1
            known = self._nearest[side]
            if known is None and asked[side] >= NEAREST_AT_ONCE:
                known = self._nearest_to_all(side)
            if known is not None:
                found = known.get((x, y), _UNKNOWN)
                if found is not _UNKNOWN and found not in self._gone[side]:
                    return found
        buckets = self._buckets[side]
        bx0, by0, bx1, by1 = self._bounds[side]
        if bx1 < bx0:
            return None
        cell = self.cell
        cx, cy = self._key(x, y)
        ci, cj = min(max(cx, bx0), bx1), min(max(cy, by0), by1)
        best: Any | None = None
        best_d = math.inf  # the best's squared distance and unique_id
        best_id = 0
        get = buckets.get
        for columns in (range(ci, bx1 + 1), range(ci - 1, bx0 - 1, -1)):
            for i in columns:
                gx2 = _gap2(i * cell, x, cell)
                if gx2 > best_d:
                    break  # the whole column lies farther than the best, and those after it
                for rows in (range(cj, by1 + 1), range(cj - 1, by0 - 1, -1)):
                    for j in rows:
                        if gx2 + _gap2(j * cell, y, cell) > best_d:
                            break
                        for agent in get((i, j), ()):
                            px, py = agent.position
                            d = (px - x) ** 2 + (py - y) ** 2
                            if (d < best_d or (d == best_d and agent.unique_id < best_id)) and (
                                accept is None or accept(agent)
                            ):
                                best, best_d, best_id = agent, d, agent.unique_id
        return best


def _gap2(lo: float, at: float, cell: float) -> float:
    """The squared yards from ``at`` to the nearer edge of the span ``lo .. lo + cell``
    (0 inside it), less a hair (floating point at the edges: never more than the truth)."""
    gap = lo - at if lo > at else at - lo - cell
    return (gap - _SLACK) ** 2 if gap > _SLACK else 0.0


def _keys_in(
    table: dict[tuple[int, int], Any], i0: int, i1: int, j0: int, j1: int
) -> Iterable[tuple[int, int]]:
    """The squares ``i0..i1`` by ``j0..j1`` to look in, in that order (``i``, then ``j``):
    every square of the box while it is smaller than ``table``, else only the filled ones
    inside it, sorted the same way - a giant's reach (Scale +60 is miles wide) would
    otherwise make a look-up visit millions of empty squares for a handful of fighters."""
    if (i1 - i0 + 1) * (j1 - j0 + 1) <= len(table):
        return ((i, j) for i in range(i0, i1 + 1) for j in range(j0, j1 + 1))
    return sorted(k for k in table if i0 <= k[0] <= i1 and j0 <= k[1] <= j1)
