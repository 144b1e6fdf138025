"""Where everyone on the field stands, filed by square: the indexes the field's
questions read (:mod:`~fadad_agents.agents.core.field.ground`).

Two indexes of square buckets, each kept as fighters come, move and leave, touching
only the squares a fighter leaves and enters:

- per side, :data:`CELL_YARDS` squares keyed ``(x // cell, y // cell)``, with the
  side's smallest and largest keys (foes within a distance, the nearest foe);
- every side together, for "is this spot taken?": while nobody on the field is wider
  than :data:`HALO_MOST`, each fighter in every :data:`HALO_YARDS` square its elbow room
  reaches into, so that a spot's check is one look-up of the spot's own square (keyed by
  one float, :func:`halo_key`; kept in :mod:`~fadad_agents.agents.core.field.halo`);
  with anyone wider, each in its :data:`SPOT_YARDS` square (the squares round a spot
  looked in).

The order in which a square lists its fighters is part of no answer: a look-up asks
whether anyone stands there, never who is found first (a search remembers whom it found,
but only to measure that one first next time: :mod:`~fadad_agents.agents.core.ranks`).
An elbow-room square lists those who stand in it before those whose elbow room only
reaches into it (whoever stands in a spot's square most often blocks it, and a look-up
stops at the first fighter it finds there); other orders are whatever costs least.
Once numba is loaded the field is mirrored in arrays instead of the elbow-room index
(:data:`MIRRORED`).
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from typing import Any

from fadad_agents.agents.core.field.halo import (
    HALO_MOST,
    HALO_SPAN,
    HALO_YARDS,
    halo_key,
    ring_in,
    ring_out,
    ring_shift,
)
from fadad_agents.agents.core.field.measures import ELBOW_ROOM, SQUARES_HAIR

__all__ = [
    "CELL_YARDS",
    "ELBOW_ROOM",
    "HALO_MOST",
    "HALO_SPAN",
    "HALO_YARDS",
    "MIRRORED",
    "SPOT_YARDS",
    "SQUARES_HAIR",
    "Later",
    "Squares",
    "halo_key",
    "keys_in",
]

CELL_YARDS = 3.0
"""Side of a bucket: a few men's widths, so a contact look-up visits nine small buckets."""

SPOT_YARDS = 1.5
"""Side of a square of the occupancy index: wider than the elbow room round a man, so a
spot's check visits one to four squares."""

MIRRORED = True
"""A field placed once numba is loaded (by anything) keeps its mirror in arrays from the
first fighter placed on (:attr:`Squares.occupied`), never the elbow-room index (filing
each step there cost more than the search it served). False (tests only): the index is
kept till the first compiled search makes the mirror. The same battle either way."""

_mirror: Any = None  # crowd.occupied once imported (numba loaded)


class Later(list[tuple[Any, ...]]):
    """Moves and take-offs made elsewhere (the compiled melee's rounds,
    :mod:`~fadad_agents.engine.personal.rounds`), in order, made on the field when it is
    next looked up (:meth:`Squares.later`): ``(agent, x0, y0, x, y)`` a move from
    ``(x0, y0)`` to ``(x, y)``, ``(agent,)`` a take-off."""

    __slots__ = ()


class Squares:
    """The square indexes of a field (see the module): who stands in each square.

    Attributes:
        occupied: the field mirrored in arrays for compiled searches
            (:class:`~fadad_agents.agents.core.crowd.occupied.Occupied`), kept here as
            fighters come, move and leave: from the first placed on (:data:`MIRRORED`),
            else from the first search that asks (:meth:`keep`). None: not made; False:
            the field is spread too wide for it. While it is kept, the elbow-room index
            is not: spots are checked there (filing a step in the index cost more than
            the search it served).
        sides: how many sides stand on it.
        cell: the side of a bucket of the per-side index, in yards.
        widest: the largest radius of a fighter ever placed (look-up margins).
    """

    __slots__ = (
        "_bounds",
        "_buckets",
        "_halo",
        "_halo_reach",
        "_mirrored",
        "_paused",
        "_spots",
        "_unfiled",
        "cell",
        "occupied",
        "sides",
        "widest",
    )

    def __init__(self, sides: int, cell: float) -> None:
        self.sides = sides
        self.cell = cell
        self.widest = 0.0
        self._buckets: list[dict[tuple[int, int], list[Any]]] = [{} for _ in range(sides)]
        # Every side, SPOT_YARDS squares: kept only while the elbow-room index is not.
        self._spots: dict[tuple[int, int], list[Any]] = {}
        # Every side, HALO_YARDS squares, each fighter in all its elbow room reaches into
        # (the widest's elbow room round two of the widest); None: someone too wide.
        self._halo: dict[float, list[Any]] | None = {}
        self._halo_reach = 0.0
        # Smallest and largest bucket keys ever used per side: ring searches stop there.
        self._bounds: list[list[int]] = [[0, 0, -1, -1] for _ in range(sides)]
        self._unfiled: list[Any] = []  # on the field, not yet in the indexes (place_later)
        self.occupied: Any = None
        self._mirrored = False  # the mirror kept from placement on (MIRRORED)
        self._paused = False  # the elbow-room index not kept: the mirror answers
        self._mirror_from_now()

    def _mirror_from_now(self) -> None:
        """Keep the mirror from placement on, no elbow-room index (:data:`MIRRORED`)."""
        self._mirrored = self._paused = (
            MIRRORED and self._halo is not None and "numba" in sys.modules
        )

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
        self.occupied = None
        for buckets in self._buckets:
            buckets.clear()
        self._spots.clear()
        if self._halo is not None:
            self._halo.clear()
        for bounds in self._bounds:
            bounds[:] = [0, 0, -1, -1]
        self._mirror_from_now()

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
        self._mirror_put(agent, x, y)

    def _mirror_put(self, agent: Any, x: float, y: float) -> None:
        """``agent``, filed, stands at ``(x, y)`` in the mirror (made if to be kept)."""
        occupied = self.occupied
        if occupied:
            if not occupied.put(agent, x, y):
                self._unmirror()
        elif occupied is None and self._mirrored:
            self._make_mirror()

    def add_all(self, agents: list[Any]) -> None:
        """Put ``agents`` (positions set) on the empty field, as :meth:`add` puts each in
        turn, but the mirror made once, for all of them (a reset battle: adding each made
        it round the first, and again when one stood outside it or its slots ran out)."""
        if (
            self._unfiled
            or self.occupied is not None
            or any(agent.radius > self.widest for agent in agents)
        ):
            for agent in agents:
                self.add(agent)
            return
        for agent in agents:  # add's filing, each in turn
            self._changed(agent.side)
            x, y = agent.position
            self._file(agent, *self._key(x, y))
            self._occupy(agent, x, y)
        if self._mirrored and agents:
            self._make_mirror()

    def _make_mirror(self) -> None:
        """The mirror of everyone filed, kept from now on (:data:`MIRRORED`); if none can
        be made (the field is spread too wide), the elbow-room index for good."""
        global _mirror
        if _mirror is None:
            from fadad_agents.agents.core.crowd import occupied as module  # numba: loaded

            _mirror = module
        made = _mirror.Occupied.made(self.standing(), self.widest)
        if made:
            self.keep(made)
            return
        self._mirrored = False  # as a search that finds none made: not tried again
        if self._paused:
            self._refile_halo()
        self.occupied = False

    def keep(self, occupied: Any) -> None:
        """Keep ``occupied`` (:attr:`occupied`) up to date from now on, and stop keeping
        the elbow-room index while it is kept (False: none can be kept)."""
        self.occupied = occupied
        if occupied and self._halo is not None:
            self._paused = True
            self._halo = {}

    def occupancy(self) -> Any:
        """:attr:`occupied`, whoever came since filed in it (made if to be kept)."""
        if self._unfiled:
            self._file_unfiled()
        if self.occupied is None and self._mirrored:
            self._make_mirror()
        return self.occupied

    def mirrored(self) -> Any:
        """:attr:`occupied` if it is kept and holds everyone on the field now (nobody
        waits to be filed), else None: nothing made or filed here."""
        return self.occupied if self.occupied and not self._unfiled else None

    def _unmirror(self) -> None:
        """Give up the mirror (someone stepped outside it, or it has no slot left for one
        who came): kept from placement on, it is made again at once; else made again
        when next asked, and the elbow-room index made again meanwhile."""
        self.occupied = None
        if self._mirrored:
            self._make_mirror()
        elif self._paused:
            self._refile_halo()

    def _halo_now(self) -> dict[float, list[Any]] | None:
        """The elbow-room index, made again first if the mirror was answering instead
        (given up; kept from placement on, made again by the next who comes or moves, or
        :meth:`occupancy`): asked so only by a newcomer wider than anyone placed."""
        if self._paused:
            self.occupied = None
            self._paused = False
            for agent in self.standing():  # into the empty index, as wide as the widest's
                self._ring_in(agent, *agent.position)
        return self._halo

    def filed(self, side: int) -> tuple[dict[tuple[int, int], list[Any]], list[int]]:
        """The buckets of ``side`` and its least and greatest bucket keys ever used (no
        bucket of it lies outside them), whoever came since filed: read, never changed."""
        if self._unfiled:
            self._file_unfiled()
        return self._buckets[side], self._bounds[side]

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
        if type(self._unfiled) is Later:
            self._file_unfiled()
        self._unfiled.extend(agents)

    def later(self) -> Later:
        """The moves and take-offs made elsewhere (the compiled melee's rounds) and noted
        here in order, to be made on the field, as :meth:`move` and :meth:`remove` make
        them, when it is next looked up, moved on or taken from (:meth:`catch_up`); those
        :meth:`place_later` put on the field filed first."""
        unfiled = self._unfiled
        if type(unfiled) is Later:
            return unfiled
        if unfiled:
            self._file_unfiled()
        later = self._unfiled = Later()
        return later

    def catch_up(self) -> None:
        """The indexes as the moves and places noted for later leave them (:meth:`later`,
        :meth:`place_later`); every look-up catches up first."""
        if self._unfiled:
            self._file_unfiled()

    def _file_unfiled(self) -> None:
        """File the fighters :meth:`place_later` put on the field (as :meth:`add` would),
        or make the moves and take-offs noted for later (:meth:`later`)."""
        unfiled, self._unfiled = self._unfiled, []
        if type(unfiled) is Later:
            for entry in unfiled:
                agent = entry[0]
                if len(entry) == 1:
                    self.remove(agent)
                else:
                    agent.position = entry[1], entry[2]
                    self.move(agent, entry[3], entry[4])
            return
        for agent in unfiled:
            x, y = agent.position
            self._file(agent, *self._key(x, y))
            self._occupy(agent, x, y)
            if self.occupied:
                self._mirror_put(agent, x, y)
        if self.occupied is None and self._mirrored:  # made once, for everyone
            self._make_mirror()

    def _refile_halo(self) -> None:
        """The widest fighter grew: every elbow room reaches further (or, past
        :data:`HALO_MOST`, the elbow-room index is given up for the occupancy one)."""
        self.occupied = None  # its squares are as wide as the widest's elbow room
        self._paused = self._mirrored
        filed = self.standing()
        if self.widest > HALO_MOST:
            self._mirrored = self._paused = False
            if self._halo is not None:
                self._halo = None
                for agent in filed:
                    self._occupy(agent, *agent.position)
            return
        # A hair wider than any two fighters' elbow room: floating point at the edges.
        self._halo_reach = 2 * self.widest * ELBOW_ROOM * (1 + 1e-9) + 1e-9
        self._halo = {}
        if self._paused:  # the mirror, not the index, kept from placement on: made again
            return  # by the caller (squares as wide as the widest's elbow room)
        for agent in filed:
            self._ring_in(agent, *agent.position)

    def _ring_in(self, agent: Any, x: float, y: float) -> None:
        """File ``agent``, standing at ``(x, y)``, in the elbow-room index (if kept)."""
        halo = self._halo
        if halo is not None and not self._paused:
            ring_in(halo, self._halo_reach, agent, x, y)

    def _occupy(self, agent: Any, x: float, y: float) -> None:
        """File ``agent``, standing at ``(x, y)``, in the index of spots."""
        if self._halo is not None:
            self._ring_in(agent, x, y)
            return
        key = (int(x // SPOT_YARDS), int(y // SPOT_YARDS))
        spot = self._spots.get(key)
        if spot is None:
            self._spots[key] = [agent]
        else:
            spot.append(agent)

    def _vacate(self, agent: Any, x: float, y: float) -> None:
        """Take ``agent``, filed at ``(x, y)``, out of the index of spots."""
        if self._halo is not None:
            if not self._paused:
                ring_out(self._halo, self._halo_reach, agent, x, y)
        else:
            self._spots[(int(x // SPOT_YARDS), int(y // SPOT_YARDS))].remove(agent)

    def _spot_shift(self, agent: Any, ox: float, oy: float, x: float, y: float) -> None:
        """Move ``agent``, filed at ``(ox, oy)``, to ``(x, y)`` in the occupancy index (last
        in its square)."""
        spots = self._spots
        was = (int(ox // SPOT_YARDS), int(oy // SPOT_YARDS))
        now = (int(x // SPOT_YARDS), int(y // SPOT_YARDS))
        spot = spots[was]
        if now == was:
            if spot[-1] is not agent:
                spot.remove(agent)
                spot.append(agent)
            return
        spot.remove(agent)
        entered = spots.get(now)
        if entered is None:
            spots[now] = [agent]
        else:
            entered.append(agent)

    def remove(self, agent: Any) -> None:
        """Take ``agent`` off the field (it left the fight)."""
        self._taken_off(agent)
        if self._unfiled:
            if agent in self._unfiled:  # never filed: nothing else to undo
                self._unfiled.remove(agent)
                return
            self._file_unfiled()
        x, y = agent.position
        cell = self.cell
        bucket = self._buckets[agent.side].get((int(x // cell), int(y // cell)))
        if bucket is not None and agent in bucket:  # filed (one taken off is not)
            bucket.remove(agent)
            self._vacate(agent, x, y)
            if self.occupied:
                self.occupied.drop(agent)

    def move(self, agent: Any, x: float, y: float) -> None:
        """Move ``agent`` to ``(x, y)`` (a new position tuple: see
        :meth:`~fadad_agents.agents.core.field.ground.Field.blocker`), re-indexing it (one
        taken off is filed again)."""
        self._changed(agent.side)
        if self._unfiled:
            self._file_unfiled()
        ox, oy = agent.position
        agent.position = (x, y)
        cell = self.cell
        # The buckets' keys as floats: a float equal to an int finds the int's key (the
        # same hash), without int() each (every step); filed by ints.
        oi, oj, ni, nj = ox // cell, oy // cell, x // cell, y // cell
        bucket = self._buckets[agent.side].get((oi, oj))
        if bucket is None or agent not in bucket:  # not filed: filed where it now stands
            self._occupy(agent, x, y)
            self._file(agent, int(ni), int(nj))
        else:
            if self._halo is None:
                self._spot_shift(agent, ox, oy, x, y)
            elif not self._paused:  # paused: the mirror answers
                ring_shift(self._halo, self._halo_reach, agent, ox, oy, x, y)
            if ni != oi or nj != oj:
                bucket.remove(agent)
                self._file(agent, int(ni), int(nj))
        occupied = self.occupied
        if occupied and occupied.ahead is agent:  # its search moved it there in the mirror
            occupied.ahead = None
        else:
            self._mirror_put(agent, x, y)

    def _file(self, agent: Any, i: int, j: int) -> None:
        """Put ``agent`` in bucket ``(i, j)`` of its side, last, widening the side's bounds
        (and stamped so in the mirror, which tells foes in reach in the buckets' order)."""
        bucket = self._buckets[agent.side].get((i, j))
        if bucket is None:
            self._buckets[agent.side][(i, j)] = [agent]
        else:
            bucket.append(agent)
        if self.occupied:
            self.occupied.refiled(agent)
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
