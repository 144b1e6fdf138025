"""The field's questions: foes within a distance, the nearest foe that passes a test, is
this spot taken? - answered from the square indexes of
:mod:`~fadad_agents.agents.core.field.squares`, visiting only the squares round the
point, so their cost follows the crowd near the fighter, never the size of the battle
(no all-pairs scans).

Since no two fighters ever stand closer than :data:`ELBOW_ROOM` of their radii together,
a square holds a bounded number of them, and so does every look-up near a point.

Why not Mesa's space: Mesa 3.5's ``mesa.experimental.continuous_space.ContinuousSpace``
answers ``get_agents_in_radius`` by measuring the distance to every agent (scipy
``cdist`` over all positions, O(N) a query, O(N^2) a round) and is experimental;
``mesa.discrete_space`` grids make a ``Cell`` object per cell, too many for a field
measured in yards, and give no continuous positions; ``mesa.space`` goes in Mesa 4.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable
from contextlib import suppress
from typing import Any

from fadad_agents.agents.core.field import compiled
from fadad_agents.agents.core.field.everyone import nearest_measured, nearest_together
from fadad_agents.agents.core.field.measures import SQUARES_HIGH, SQUARES_LOW
from fadad_agents.agents.core.field.squares import (
    CELL_YARDS,
    ELBOW_ROOM,
    HALO_SPAN,
    HALO_YARDS,
    SPOT_YARDS,
    Squares,
    halo_key,
    keys_in,
)

__all__ = ["NEAREST_AT_ONCE", "NEAREST_FROM_CROWD", "NEAREST_LOADED", "UNFILED", "Field"]

_NOBODY: list[Any] = []
"""No one: an empty square of the elbow-room index (never changed)."""


_SLACK = 1e-6
"""Yards taken off a bucket's distance before skipping it (floating point at its edges)."""

_HOLDS = 1 - 1e-9
"""A share of a circle's squared radius that its squares' farthest corner lies within
for :meth:`Field.fighting_within` (all inside by far more than :meth:`Field.within`'s and
``shooting.in_range``'s measures can differ: no one at the edge)."""

NEAREST_AT_ONCE = 128
"""After this many look-ups of the nearest fighter of a side while nobody of it came or
moved (a round's targeting), the side is filed in arrays and asked there, compiled
(:meth:`Field._filed_for_nearest`: filing 10,000 costs about 5 ms, an answer 1-2 µs);
a side smaller than this is searched as asked. The threshold was chosen for the k-d tree
the arrays replaced (at 128 two bands of 300 or 1,000 played their first rounds 4-7%
faster than at 256; at 64 bands of 100 built tables that did not pay)."""

NEAREST_LOADED = 8
"""Once numba is loaded (by anything: never imported for this), a side of at least
:data:`NEAREST_FEWEST` but fewer than :data:`NEAREST_AT_ONCE` fighters is filed in arrays
for its nearest after this many look-ups while nobody of it came or moved. Measured on
bands of 16 to 100 formed in ranks: filing one costs 20-25 µs, an answer there 1.5-2 µs
against 6-9 µs searched bucket by bucket, and a band of 100's turn behind its ranks asks
3 to 90 times while the other side stands still. A bigger side waits for
:data:`NEAREST_AT_ONCE` look-ups, as without numba (filing 10,000 costs 5 ms)."""

NEAREST_FEWEST = 16
"""The fewest fighters of a side filed in arrays for its nearest (:data:`NEAREST_LOADED`):
a smaller side has few squares to search."""

NEAREST_EACH_MEASURED = 8
"""A side of at most this many fighters on the field (filed in at most twice as many
squares, any it ever stood in: the count's cost) has each of them measured for
:meth:`Field.nearest` (:func:`~.everyone.nearest_measured`) rather than its squares searched
outward from the point: a few fighters far apart (three travellers among the goblins'
18) left the search walking the empty squares between, some 50 a look-up, while a
crowded side's search stops within a square or two."""

NEAREST_TOGETHER = 16
"""At least this many points asked at once (a band's declares) for the nearest of a side
too small to file in arrays (:data:`NEAREST_AT_ONCE`), and every fighter of the side is
measured to every point together in numpy (:func:`~.everyone.nearest_together`): one
measurement of a side of 100 costs less than a bucket search of one point."""

NEAREST_FROM_CROWD = True
""":meth:`Field.nearest` of a side answered from the field in arrays (a big band's
turn's, :meth:`~fadad_agents.agents.core.crowd.waiting._Crowd.filed_now`) while it holds
the side as the field does, when the field's own filing does not (False: the side
searched bucket by bucket till it is asked often enough to file; the tests compare). At
20,000 agents the bench's 3 rounds ask 330 times, at 50-65 us a search in buckets."""

UNFILED = object()
"""No answer from arrays: the side is not filed in them (:meth:`Field.nearest_filed`)."""

_SEARCH = object()
"""A side too small to file in arrays for its nearest (:meth:`Field.nearest`): searched as
asked."""


class Field(Squares):
    """Open ground: where personal fighters stand, in ``(x, y)`` yards, filed by square
    (:class:`~fadad_agents.agents.core.field.squares.Squares`), and the questions asked
    of it.

    Attributes:
        sides: how many sides fight on it.
        width, height: the field's size in yards (None: unbounded on that axis).
        max_attackers: the scenario's cap on melee attackers of one defender (doorway,
            corridor), or None.
    """

    __slots__ = (
        "_asked",
        "_nearest",
        "_whole",
        "all_touching",
        "height",
        "in_arrays",
        "looked_ahead",
        "max_attackers",
        "moved_of",
        "moves",
        "off_field",
        "start_touching",
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
        super().__init__(sides, cell)
        self.width = width
        self.height = height
        self.max_attackers = max_attackers
        self.off_field: list[Any] = []  # crews and units: in reach of everyone
        self.all_touching = False
        """Every fighter on the field touches every foe on it: the sides stood in one
        melee at set-up (:func:`~fadad_agents.engine.core.space.settle`) and nobody has
        come or moved since (a fall takes a fighter off, never further away): contact
        checks and path planning can be skipped, their answer known."""
        self.start_touching: bool | None = None  # all_touching at the start (settle)
        self.looked_ahead = 0  # the round whose searches the ranks measured ahead (ranks)
        self.moves = 0
        """How many times someone came or moved: the field in arrays (:attr:`in_arrays`)
        looks for moves it did not follow only when more were made than it followed."""
        self.moved_of = [0] * sides
        """:attr:`moves` side by side (one who came or moved of no side counted on each):
        the field in arrays answers for a side whose every move it followed."""
        self.in_arrays: Any = None
        """This play's field in arrays for a big band's waiting ranks (:mod:`~fadad_agents.
        agents.core.crowd.waiting`), made at its first such turn; None: not yet."""
        # Per side, its fighters filed in arrays to find the nearest of them (None: not
        # yet), and the look-ups of its nearest since one of it came or moved
        # (:meth:`nearest`).
        self._nearest: list[Any] = [None] * sides
        self._asked = [0] * sides
        self._whole: list[list[Any] | None] = [None] * sides
        """Per side, its fighters fighting in :meth:`within`'s order, kept for
        :meth:`fighting_within` until one of them comes or moves (None: not yet)."""

    def _changed(self, side: int | None = None) -> None:
        """Someone of ``side`` (None: of any) came or moved: not all touch as far as is
        known, and the nearest of that side found at once no longer hold (the nearest of
        another side to a place stay so)."""
        self.all_touching = False
        self.moves += 1
        moved, whole = self.moved_of, self._whole
        if side is None:
            for s in range(self.sides):
                moved[s] += 1
                whole[s] = None
        else:
            moved[side] += 1
            whole[side] = None
        asked = self._asked
        for s in range(self.sides) if side is None else (side,):
            if asked[s]:
                asked[s] = 0
                self._nearest[s] = None

    def _taken_off(self, agent: Any) -> None:
        """``agent`` left: its side filed in arrays still holds, the agent passed over
        there (:meth:`~fadad_agents.agents.core.crowd.nearest.Nearest.leave`)."""
        whole = self._whole[agent.side]
        if whole is not None:  # the others in their order, as in the squares
            with suppress(ValueError):  # (one who stopped fighting before is not in it)
                whole.remove(agent)
        known = self._nearest[agent.side]
        if known is not None and known is not _SEARCH:
            known.leave(agent)

    def clear(self) -> None:
        """Nobody on the field (a reset battle places everyone again)."""
        super().clear()
        self.looked_ahead = 0
        self.in_arrays = None

    def clamp(self, x: float, y: float) -> tuple[float, float]:
        """The nearest point on the field."""
        width, height = self.width, self.height
        if width is not None:
            x = 0.0 if x < 0.0 else float(width) if x > width else x
        if height is not None:
            y = 0.0 if y < 0.0 else float(height) if y > height else y
        return x, y

    def within(self, side: int, x: float, y: float, radius: float) -> list[Any]:
        """Fighters of ``side`` whose centres lie within ``radius`` yards of ``(x, y)``,
        bucket by bucket (the order is deterministic: it follows the moves made)."""
        if self._unfiled:
            self._file_unfiled()
        buckets = self._buckets[side]
        if not buckets:
            return []
        cell = self.cell
        bx0, by0, bx1, by1 = self._bounds[side]  # no bucket of the side lies outside
        x0, y0 = math.floor((x - radius) / cell), math.floor((y - radius) / cell)
        x1, y1 = math.floor((x + radius) / cell), math.floor((y + radius) / cell)
        if x0 < bx0:  # max and min, without their calls (every re-target asks)
            x0 = bx0
        if y0 < by0:
            y0 = by0
        if x1 > bx1:
            x1 = bx1
        if y1 > by1:
            y1 = by1
        if x1 < x0 or y1 < y0:  # the circle misses the side's squares (ranks behind)
            return []
        r2 = radius * radius
        low, high = r2 * SQUARES_LOW, r2 * SQUARES_HIGH  # ``**`` (pow) only within a hair of r2
        found = []
        if (x1 - x0 + 1) * (y1 - y0 + 1) <= len(buckets):  # keys_in's box, without a generator
            get = buckets.get
            for i in range(x0, x1 + 1):
                for j in range(y0, y1 + 1):
                    bucket = get((i, j))
                    if bucket:
                        for agent in bucket:
                            px, py = agent.position
                            px -= x
                            py -= y
                            d = px * px + py * py
                            if d < low or (d <= high and px**2 + py**2 <= r2):
                                found.append(agent)
            return found
        for key in keys_in(buckets, x0, x1, y0, y1):
            for agent in buckets[key]:
                px, py = agent.position
                px -= x
                py -= y
                d = px * px + py * py
                if d < low or (d <= high and px**2 + py**2 <= r2):
                    found.append(agent)
        return found

    def fighting_within(self, side: int, x: float, y: float, radius: float) -> list[Any] | None:
        """Those fighting of :meth:`within`'s answer, in its order, where the circle holds
        every square ``side`` is filed in (a bow's range over a whole army: every shot's
        question the same, asked once until one of the side comes or moves; one who leaves,
        as a fighter does as it stops fighting, taken off it); None where it may not hold
        them all (ask :meth:`within`). Not to be changed: it is kept."""
        if self._unfiled:
            self._file_unfiled()
        bx0, by0, bx1, by1 = self._bounds[side]
        if bx1 < bx0:  # nobody filed
            return None
        cell = self.cell  # the squares' farthest corner, a hair further out
        dx = max(abs(bx0 * cell - _SLACK - x), abs((bx1 + 1) * cell + _SLACK - x))
        dy = max(abs(by0 * cell - _SLACK - y), abs((by1 + 1) * cell + _SLACK - y))
        if dx * dx + dy * dy > radius * radius * _HOLDS:
            return None
        whole = self._whole[side]
        if whole is None:  # everyone within: its box the side's, the same for every such ask
            whole = self._whole[side] = [f for f in self.within(side, x, y, radius) if f.fighting]
        return whole

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
        occupied = self.occupied
        if occupied and r <= self.widest:  # the field in arrays, kept instead of the index
            found: Any | None = occupied.standing_at(agent, x, y)
            return found
        halo = self._halo_now()
        if halo is not None and r <= self.widest:  # neighbours(), inlined (hot)
            near = halo.get(x // HALO_YARDS * HALO_SPAN + y // HALO_YARDS, _NOBODY)  # halo_key
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

    def elbow_index(self, agent: Any) -> dict[float, list[Any]] | None:
        """The elbow-room index when it answers for ``agent`` (no one on the field wider):
        the fighters whose elbow room reaches into each :data:`HALO_YARDS` square, keyed
        by :func:`~fadad_agents.agents.core.field.squares.halo_key`; None: ask
        :meth:`neighbours`. Read only."""
        if self._unfiled:
            self._file_unfiled()
        halo = self._halo_now()
        return halo if halo is not None and agent.radius <= self.widest else None

    def neighbours(self, agent: Any, x: float, y: float) -> list[Any]:
        """Everyone (every side, maybe ``agent`` itself) who could stand in ``agent``'s
        elbow room at ``(x, y)``, and a few more: the fighters filed under the spot's
        elbow-room square, else those of the one to four occupancy squares its elbow room
        overlaps (more beside a giant). Do not change the list."""
        if self._unfiled:
            self._file_unfiled()
        halo = self._halo_now()
        if halo is not None and agent.radius <= self.widest:
            return halo.get(halo_key(x, y), _NOBODY)
        reach = (agent.radius + self.widest) * ELBOW_ROOM
        i0, i1 = int((x - reach) // SPOT_YARDS), int((x + reach) // SPOT_YARDS)
        j0, j1 = int((y - reach) // SPOT_YARDS), int((y + reach) // SPOT_YARDS)
        spots = self._spots
        return [other for key in keys_in(spots, i0, i1, j0, j1) for other in spots.get(key, ())]

    def _filed_for_nearest(self, side: int, asked: int) -> Any:
        """The fighters of ``side`` filed in arrays to be asked for the nearest to any
        point (:class:`~fadad_agents.agents.core.crowd.nearest.Nearest`), kept till one of
        it moves, now that ``asked`` look-ups were made: a side of at least
        :data:`NEAREST_AT_ONCE` once as many were, a smaller one of at least
        :data:`NEAREST_FEWEST` from :data:`NEAREST_LOADED` on once numba is loaded; else
        :data:`_SEARCH` (None: a big side not yet asked enough)."""
        buckets = self._buckets[side].values()
        count = sum(map(len, buckets))
        known: Any = _SEARCH
        if count >= NEAREST_AT_ONCE and asked < NEAREST_AT_ONCE:
            return None
        if count >= NEAREST_AT_ONCE or (count >= NEAREST_FEWEST and "numba" in sys.modules):
            from fadad_agents.agents.core.crowd import nearest  # numba: crowds, or loaded

            compiled.load()  # numba: its first compile on an install said so

            known = nearest.Nearest([agent for bucket in buckets for agent in bucket])
        self._nearest[side] = known
        return known

    def nearest_to_each(self, side: int, points: list[tuple[float, float]]) -> list[Any | None]:
        """:meth:`nearest` (every fighter passes) of ``side`` to each of ``points``: read
        together from the side filed in arrays when so many are asked (or were since it
        last moved: :meth:`_filed_for_nearest`); for a side not filed, measured together
        in numpy when many are asked (:data:`NEAREST_TOGETHER`); else one by one."""
        if self._unfiled:
            self._file_unfiled()
        known = self._nearest[side]
        asked = self._asked[side] + len(points)
        if known is None and (
            asked >= NEAREST_AT_ONCE or self._asked[side] < NEAREST_LOADED <= asked
        ):
            known = self._filed_for_nearest(side, asked)
        if known is None or known is _SEARCH:
            buckets = self._buckets[side].values()
            if len(points) < NEAREST_TOGETHER or sum(map(len, buckets)) >= NEAREST_AT_ONCE:
                return [self.nearest(side, x, y) for x, y in points]  # few, or to be filed
            self._asked[side] += len(points)  # counted as nearest counts its look-ups
            return nearest_together([agent for bucket in buckets for agent in bucket], points)
        self._asked[side] += len(points)
        found: list[Any | None] = known.to_each(points)
        return found

    def nearest_known(self, side: int, x: float, y: float) -> Any:
        """:meth:`nearest` (every fighter passes) of ``side`` to ``(x, y)`` when the side
        is filed in arrays for it already, else :data:`UNFILED`: not counted as a look-up
        (nor filing the side: a side of 10,000 costs 5 ms to file). Not asked of the
        field in arrays (:data:`NEAREST_FROM_CROWD`): every re-target asks, and most
        find their foes cheaply by :meth:`within` (none, behind the ranks)."""
        if self._unfiled:
            self._file_unfiled()
        known = self._nearest[side]
        if known is None or known is _SEARCH:
            return UNFILED
        return known.to(x, y)

    def nearest_filed(self, side: int, x: float, y: float) -> Any:
        """:meth:`nearest` (every fighter passes) of ``side`` to ``(x, y)`` when the side
        is filed in arrays for it (an answer costs 1-2 µs), or is filed now, this look-up
        counted; else :data:`UNFILED` (the side is searched as asked)."""
        if self._unfiled:
            self._file_unfiled()
        asked = self._asked
        asked[side] += 1
        known = self._nearest[side]
        if known is None and (asked[side] >= NEAREST_AT_ONCE or asked[side] == NEAREST_LOADED):
            known = self._filed_for_nearest(side, asked[side])
        if known is None or known is _SEARCH:
            return UNFILED
        return known.to(x, y)

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
        moved (:data:`NEAREST_LOADED` for a smaller side once numba is loaded), the side
        is filed in arrays and asked there instead (compiled): a move of
        another side changes no answer, and one of the side who left is passed over
        there."""
        if self._unfiled:
            self._file_unfiled()
        if accept is None:
            known, crowd = self._nearest[side], self.in_arrays
            if (known is None or known is _SEARCH) and crowd is not None and NEAREST_FROM_CROWD:
                known = crowd.filed_now(side)  # the side in arrays, every move followed
                if known is not None:
                    return known.to(x, y)
            found = self.nearest_filed(side, x, y)
            if found is not UNFILED:
                return found
        buckets = self._buckets[side]
        few = NEAREST_EACH_MEASURED
        if len(buckets) <= 2 * few and sum(map(len, buckets.values())) <= few:
            return nearest_measured(buckets.values(), x, y, accept)
        bx0, by0, bx1, by1 = self._bounds[side]
        if bx1 < bx0:
            return None
        cell = self.cell
        ci, cj = int(x // cell), int(y // cell)
        ci = bx0 if ci < bx0 else bx1 if ci > bx1 else ci
        cj = by0 if cj < by0 else by1 if cj > by1 else cj
        best: Any | None = None
        best_d = math.inf  # the best's squared distance and unique_id
        best_id = 0
        get = buckets.get
        for columns in (range(ci, bx1 + 1), range(ci - 1, bx0 - 1, -1)):
            for i in columns:
                lo = i * cell  # the squared gap to the column, less a hair (floating point)
                gap = lo - x if lo > x else x - lo - cell
                gx2 = (gap - _SLACK) ** 2 if gap > _SLACK else 0.0
                if gx2 > best_d:
                    break  # the whole column lies farther than the best, and those after it
                for rows in (range(cj, by1 + 1), range(cj - 1, by0 - 1, -1)):
                    for j in rows:
                        lo = j * cell
                        gap = lo - y if lo > y else y - lo - cell
                        if gx2 + ((gap - _SLACK) ** 2 if gap > _SLACK else 0.0) > best_d:
                            break
                        for agent in get((i, j), ()):
                            px, py = agent.position
                            px -= x
                            py -= y
                            d = px * px + py * py
                            if d > best_d * SQUARES_HIGH:
                                continue  # farther than the best by ``**`` too
                            d = px**2 + py**2
                            if (d < best_d or (d == best_d and agent.unique_id < best_id)) and (
                                accept is None or accept(agent)
                            ):
                                best, best_d, best_id = agent, d, agent.unique_id
        return best
