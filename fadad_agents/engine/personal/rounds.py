"""A play's arrays, and battles played round by round in the compiled plain melee.

:class:`Arrays` holds what one play of a battle fills as the kernel plays it (the
fighters' rows, wound track versions, events, streams, sides, places, shields, morale
thresholds crossed and, on open ground, the field's mirror) and calls the kernel on them:
:meth:`~.melee.Melee.play` for a battle played whole (``run``, sweeps), :class:`Rounds`
for one played round by round (``play_round``: a game master's table, the dashboard).

A battle played round by round keeps its :class:`Rounds` from its first round (one as set
up on its own streams: :func:`as_set_up`): each round the kernel plays one more round on
the arrays the last one left, and the battle is then written as the engine's Python
leaves it after a round: the round's log, take-outs and departures
(:func:`~.entries.write_log`), each mover at its new place and its move noted for the
field, in order, made on it as Python's moves make them when the field is next looked up
(:meth:`~fadad_agents.agents.core.field.squares.Squares.later`), the tracks, targets,
conditions, weapons, Ité points, bearings and gaits of the fighters a round changed, and
what their policies remember; their plans for the round (actions, moves) are written when
Python plays on or the battle ends. The dice stay in the kernel's streams, each
fighter's seeded as its block of them first draws; a battle Python must go on with (one
changed between rounds: a track that is not the one its last round left, a log entry
added; the compiled melee switched off; a round the kernel gives up on) gets them back
(:meth:`Rounds.hand_back`: each stream drawn from, its 624 words and index into its
``random.Random``) and Python plays that round and the rest: the same battle, byte for
byte, whichever plays each round. A big battle's arrays go, with it, to the next one's
(:func:`_spare`).
"""

from __future__ import annotations

import math
import random
from contextlib import suppress
from copy import copy
from operator import is_
from typing import Any

import numpy as np

from fadad_agents.engine.core.streams import _SeededOnUse
from fadad_agents.engine.personal.entries import (
    BEARING,
    CONDITIONS,
    GAIT,
    ITE,
    TARGET,
    TRACK,
    WEAPON,
    conditions_columns,
    write_changes,
    write_fighters,
    write_log,
    write_plans,
    write_versions,
)
from fadad_agents.engine.personal.onfield import NO_RINGS, NOWHERE
from fadad_agents.rules.core.dice import TABLE_4DF

__all__ = ["LAST", "ROOM_A_ROUND", "ROOM_BESIDES", "Arrays", "Rounds", "as_set_up", "begin"]

LAST = 1 << 62
"""The last round of a battle played whole: none (it plays to its end)."""

ROOM_A_ROUND = 6
"""Events made room for a fighter a round at first, round by round (each round's are
written before the next; a round that makes more is played again with twice the room),
and :data:`ROOM_BESIDES` more."""
ROOM_BESIDES = 256

_TABLE = np.array(TABLE_4DF, dtype=np.int64)
_STREAMS = (random.Random, _SeededOnUse)  # a battle's own streams, seeded or to be
_UNWRITTEN = -(1 << 62)  # in no column of a fighter's row
_NO_PLACES = np.zeros((0, 6))  # a battle off the field's places (none)


def as_set_up(battle: Any, members: list[Any]) -> bool:
    """Whether ``battle``'s ``members`` stand as set up, on the battle's own streams: each
    on its start track, unhurt by any crit, armed, its Ité points and no target yet, its
    dice and the battle's initiative plain ``random.Random`` streams (not dice a test or a
    table scripts, which only Python's rounds roll)."""
    initiative = battle.__dict__.get("_init_rng")  # read once asked (NamedStream)
    return (initiative is None or type(initiative) in _STREAMS) and all(
        type(m.rng) in _STREAMS
        and type(m.targeting_rng) in _STREAMS
        and m.track is m.start_track
        and m.conditions is None
        and m.fighter is m.armed
        and m.target is None
        and m.ite_points == m.start_ite_points
        for m in members
    )


def begin(melee: Any, battle: Any) -> tuple[list[int], int, tuple[Any, ...]] | None:
    """The seeds of ``battle``'s named streams as the kernel draws on them (the battle's
    initiative and targeting, its morale where anyone checks it, its movement on open
    ground), each fighter's ``melee`` stream's seed but its index (``Streams.for_index``'s),
    and its field as it begins (:meth:`~.onfield.Ground.now`); None if no mirror of the
    field can be made."""
    streams = battle.streams
    streams.get("initiative", on_use=True)  # the names a Python play asks for
    named = [streams.seed_of("initiative"), streams.seed_of("targeting")]
    if melee.checks:
        named.append(streams.seed_of("morale"))
    ground = melee.ground
    found = NOWHERE if ground is None else ground.now(battle)
    if found is None:
        return None
    if ground is not None:
        named.append(streams.seed_of("movement"))
    return named, streams.seed_of("melee") << 32, found


_SPARE: dict[tuple[tuple[int, ...], str], list[np.ndarray]] = {}
"""Arrays of battles played round by round and gone, by shape and type, kept for the next
battle's (:func:`_spare`): a big battle's come to tens of megabytes, every page of which
a new array is handed afresh as it is first written (about 4 us a page on these hosts:
20,000 fighters' streams, 50 MB, took 55 ms to seed in arrays of their own and 120 in new
ones)."""
_SPARES = 2
"""The most arrays of one shape and type kept."""


_SPARE_AT_LEAST = 1 << 18
"""Elements in an array worth keeping (a smaller one is made afresh as fast)."""


def _spare(shape: tuple[int, ...], dtype: Any) -> np.ndarray:
    """An array of ``shape`` and ``dtype`` an earlier battle let go, holding what that one's
    play left there (as a template's scratch holds its last play's: every cell a play reads
    it writes first), or a new one as it comes (``numpy.empty``: a page of it is touched only
    as a play first writes there; zeros cost a 200-agent battle's set-up some 160 page
    faults of memory it never reads)."""
    if math.prod(shape) >= _SPARE_AT_LEAST:
        kept = _SPARE.get((shape, np.dtype(dtype).str))
        if kept:
            with suppress(IndexError):  # taken meanwhile by another thread
                return kept.pop()
    return np.empty(shape, dtype)


def _copied(a: np.ndarray) -> np.ndarray:
    """``a`` copied into a :func:`_spare` array."""
    if a.size < _SPARE_AT_LEAST:
        return a.copy()
    copy = _spare(a.shape, a.dtype)
    np.copyto(copy, a)
    return copy


def _let_go(arrays: list[np.ndarray]) -> None:
    """``arrays`` kept for a later battle's (:func:`_spare`), at most :data:`_SPARES` of a
    shape and type."""
    for a in arrays:
        if a.size < _SPARE_AT_LEAST:
            continue
        kept = _SPARE.setdefault((a.shape, a.dtype.str), [])
        if len(kept) < _SPARES:
            kept.append(a)


class Arrays:
    """What one play of ``melee``'s battle fills, as its kernel takes them: the fighters'
    rows, sides and places as set up, the streams seeded (the battle's ``named`` ones,
    each fighter's from ``base``), events, effects, wound tracks and moves given, and the
    field's mirror as ``found`` (on open ground: :meth:`~.onfield.Ground.now`), each
    ``copied`` (:func:`numpy.copy`, or into an array let go by an earlier battle)."""

    __slots__ = (
        "active", "counts", "crossed", "field", "melee", "movement", "places", "play_kernel",
        "s", "shields", "streams",
    )  # fmt: skip

    def __init__(
        self,
        melee: Any,
        streams: np.ndarray,
        named: list[int],
        base: int,
        found: tuple[Any, ...],
        copied: Any = np.copy,
    ) -> None:
        self.melee = melee
        self.streams = streams
        n = len(melee.members)
        twister = melee.twister
        twister.seed(streams, named, [0, 1, *range(n + 2, n + len(named))])  # as Random(seed)
        self.movement = n + len(named) - 1
        streams[2 : n + 2, twister.N] = 0  # a fighter's seeded as its block first draws
        s = self.s = copied(melee.state)
        words, length = twister.key_words(base)
        c = melee.columns
        s[:, c._KEY] = np.asarray(melee.indices, dtype=np.int64) & 0xFFFFFFFF
        s[:, c._KEY + 1 : c._KEY + 6] = words
        s[:, c._KEY + 6] = length
        melee.events[0, 0] = 1
        melee.tracks[0, 0] = n + 1
        melee.tracks[1 : n + 1] = melee.starts
        self.active, self.counts = copied(melee.active), copied(melee.counts)
        self.places, self.shields = copied(melee.places), copied(melee.shields)
        self.crossed = np.zeros_like(melee.uncrossed) if melee.checks else melee.uncrossed
        placed = melee.ground is not None  # else none of these read (of the kernel's types)
        self.field = tuple(map(copied, found)) if placed else found
        kernel = melee.kernel
        self.play_kernel = kernel.play_on_ground if placed else kernel.play

    def play(self, first: int, last: int) -> int:
        """The kernel's rounds ``first`` to ``last`` (or the battle's end): the last round
        played, ``FULL`` or ``GAVE_UP``."""
        m, st = self.melee, self.streams
        n = len(m.members)
        pos, floats, ints, filing, bounds, counters = self.field
        ground = m.ground
        geo, rings = (NOWHERE[1], NO_RINGS) if ground is None else (ground.geo, ground.rings)
        played = self.play_kernel(
            self.s, m.figures, st[2 : n + 2], st[1], m.near, m.ruled, m.worth, st[0], m.tracks,
            m.boxes, m.fold, m.rules, m.pairs, _TABLE, m.bands, m.band_members, m.keys,
            m.rolled, m.mask, m.band_at, self.active, self.counts, m.arm_state, m.events,
            m.effects, self.places, m.room, self.shields, m.morale, m.levels, self.crossed,
            m.counts, st[n + 2], pos, geo, floats, ints, filing, bounds, counters, rings,
            m.moved, st[self.movement], first, last,
        )  # fmt: skip
        return int(played)


class Rounds:
    """A battle played round by round in compiled code, from its first round: ``melee``
    its own copy, with room of its own (:meth:`~.melee.Melee.of`), ``named``, ``base`` and
    ``found`` as :func:`begin` gives them."""

    def __init__(self, melee: Any, named: list[int], base: int, found: tuple[Any, ...]) -> None:
        self.melee = melee = copy(melee)
        n = len(melee.members)
        melee._room(ROOM_A_ROUND * n + ROOM_BESIDES, 64 * n + 64, _spare)
        self.named, self.base, self.found = named, base, found
        self.arrays = self._begin()
        self.versions = melee.tracks_at_start.copy()
        self.played = self.logged = 0
        self.left = [m.track for m in melee.members]
        c = melee.columns
        things = (
            (TRACK, [c._TRACK]), (TARGET, [c._TARGET, c._FIGHTING]), (ITE, [c._ITE]),
            (WEAPON, [c._BARE]), (GAIT, [c._GAIT]), (CONDITIONS, conditions_columns(c)),
        )  # fmt: skip
        self.things = np.full(c._KEY, -1, dtype=np.int64)
        """Each column of a fighter's row a user sees written after each round, by what it
        shows (:data:`~.entries.TRACK` ...: :func:`~.entries.write_changes`); the rest (-1),
        its plans for the round, are written when Python asks for them (:meth:`hand_back`)
        or the battle ends."""
        self.values = np.zeros(len(things), dtype=np.int64)
        """The column of each thing that holds its value (its first)."""
        for thing, columns in things:
            self.things[columns] = thing
            self.values[thing] = columns[0]
        n = len(melee.members)
        self.written = _spare((n, c._KEY), np.int64)
        np.copyto(self.written, self.arrays.s[:, : c._KEY])
        if melee.ground is not None:  # (off it, no gait: a Python round writes none)
            self.written[:, c._GAIT] = _UNWRITTEN
        """Each fighter's columns as last written to it: as set up (:func:`as_set_up`: its
        start track, no target, its Ité points, armed, no conditions), but, on open ground,
        its gait (the first round writes every fighter's)."""
        self.bearings = np.full(n if melee.ground is not None else 0, np.nan)
        """Each fighter's bearing as last written (none yet: the first round writes each)."""
        self.changed = (
            np.empty((BEARING + 1, n), dtype=np.int64),
            np.empty((BEARING + 1, n), dtype=np.int64),
            np.zeros(BEARING + 1, dtype=np.int64),
        )
        """The fighters a round changed, by what changed, their value and how many
        (:meth:`_write`)."""

    def _begin(self) -> Arrays:
        """The battle's arrays as it begins, its streams seeded."""
        melee = self.melee
        return Arrays(melee, melee.streams, self.named, self.base, self.found, _copied)

    def __del__(self) -> None:
        """Its arrays let go for the next battle played round by round (:data:`_SPARE`)."""
        if not hasattr(self, "written"):  # never made whole
            return
        melee, arrays = self.melee, self.arrays
        mine = [melee.streams, melee.events, melee.moved, melee.effects, melee.tracks]
        mine += [arrays.s, arrays.active, arrays.counts, arrays.places, arrays.shields]
        if melee.ground is not None:
            mine += arrays.field
        _let_go([*mine, self.written])

    def _round(self, rnd: int) -> int:
        """The kernel's round ``rnd`` on the arrays the last round left (its events from the
        first row: the last round's are written): the round, ``FULL`` or ``GAVE_UP``."""
        arrays = self.arrays
        melee = self.melee
        melee.events[0, 0] = 1
        if melee.ground is not None:
            arrays.field[5][0] = 1  # counters: no event of the round taken off the field yet
        return arrays.play(rnd, rnd)

    def _again(self, rounds: int) -> None:
        """The arrays as the first ``rounds`` rounds leave them, played again from the
        battle's start (a round filled its room, or gave up)."""
        while True:
            self.arrays = self._begin()
            done = next((r for r in range(1, rounds + 1) if self._round(r) <= 0), None)
            if done is None:
                return
            self._grow()

    def _grow(self) -> None:
        """Twice the room for a round's events and the battle's wound tracks."""
        melee = self.melee
        melee._room(2 * len(melee.events), 2 * len(melee.tracks))

    def play(self, battle: Any) -> bool:
        """Play ``battle``'s round just begun (``battle.round``), if the battle is as the last
        round left it and the kernel plays it through: whether it did (else its arrays as
        the last round left them, for :meth:`hand_back`)."""
        rnd = battle.round
        if not self._as_left(battle):
            return False
        kernel = self.melee.kernel
        while True:
            done = self._round(rnd)
            if done == kernel.GAVE_UP:
                self._again(rnd - 1)
                return False
            if done != kernel.FULL:
                break
            self._grow()
            self._again(rnd - 1)
        self._write(battle)
        self.played = rnd
        return True

    def _as_left(self, battle: Any) -> bool:
        """Whether ``battle`` is as the last round left it: its next round, nothing logged
        since, each fighter on the track it left."""
        members = self.melee.members
        return (
            battle.round == self.played + 1
            and len(battle.log.raw) == self.logged
            and all(map(is_, [m.track for m in members], self.left))
        )

    def _write(self, battle: Any) -> None:
        """The battle as the round just played leaves it: wound tracks, log (moves made on
        the field in order), fighters, places and memories."""
        melee, arrays = self.melee, self.arrays
        versions = self.versions
        write_versions(melee, versions)
        ground = melee.ground
        journal = None if ground is None else battle.field.later()
        write_log(melee, battle, versions, battle._round_length(), journal)
        s = arrays.s
        pos = None if ground is None else arrays.field[0]
        rules, rnd = melee.rules, battle.round
        if 0 in arrays.counts.tolist() or rnd >= rules[12] or rnd * rules[14] >= rules[13]:
            # the battle ends (the kernel's test, Python's verdict): everyone, plans too
            write_fighters(melee, battle, s, versions, pos)
            self.left[:] = [m.track for m in melee.members]
        else:  # what a user sees that changed, by what it is (plans when Python asks)
            changed = self.changed
            melee.columns.changed_rows(
                s, self.written, self.things, self.values, _NO_PLACES if pos is None else pos,
                self.bearings, *changed,
            )  # fmt: skip
            write_changes(melee, battle, s, versions, changed, pos, self.left)
        melee._remember(s, arrays.crossed)
        self.logged = len(battle.log.raw)

    def hand_back(self, battle: Any) -> None:
        """Each stream's state back into the ``random.Random`` Python draws it from (the
        battle's ``initiative`` and ``targeting``, each fighter's ``melee``, the battle's
        ``morale`` and ``movement``), as the last round left them: a fighter's never seeded
        (never drawn from) is as Python seeded it."""
        melee = self.melee
        write_plans(melee, self.arrays.s, melee.ground is not None)  # (the rest written)
        if melee.ground is not None:
            battle.field.catch_up()  # the rounds' moves made on it, in order
        streams = battle.streams
        into = [streams.get("initiative"), streams.get("targeting")]
        rows = [0, 1]
        if melee.checks:
            into.append(streams.get("morale"))
        if melee.ground is not None:
            into.append(streams.get("movement"))
        n = len(melee.members)
        rows += range(n + 2, n + len(into))
        drawn = np.flatnonzero(melee.streams[2 : n + 2, melee.twister.N]).tolist()
        into += [melee.members[i].rng for i in drawn]  # (the rest as Python seeded them)
        rows += [i + 2 for i in drawn]
        words = melee.streams[rows].tolist()
        for stream, state in zip(into, words, strict=True):
            stream.setstate((3, tuple(state), None))
