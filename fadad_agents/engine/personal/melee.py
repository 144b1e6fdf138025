"""Which battles the compiled plain melee plays, and the battle it leaves: log, fighters,
sides and clock, as the engine's Python leaves them.

A battle of plain characters (:func:`~fadad_agents.agents.core.plain.round.is_plain`:
nothing to decide but a new target: a random foe, the first, nearest, most or least
wounded, a duel's, or as a GM's targeting rules choose) on two sides, or on more where a
side out any way ends it (``stop.when_side``'s default), all in one melee (no map, or a
field where each touches every foe) or, on two sides, standing apart on open ground, each
closing in on a random foe in reach or its nearest foe (:mod:`~.onfield` says which: the
moves, the searches for a way through the crowd and the foes in reach are
:mod:`~.ground`'s), player characters with their protections (``pc_death.*``, Ité points
spent as the three shipped policies spend them) or none, shields or none, single fighters
or bands, initiative rolled or static, morale checked at losses (the shipped policies) or
not, either target mode, any wound model (FADAD's, or FUDGE's with Anna's options, weapon
groups too), weapon sizes compared or not, scale-piercing weapons, any crit policy, once
numba is loaded: :func:`play` plays it whole in :func:`~.kernel.play` (on open ground,
:func:`~.kernel.play_on_ground`) from its start to its end (``run``, sweeps; no round data
collected), :func:`play_round` round by round (``play_round``: :mod:`~.rounds`). Any
other battle, and every battle before numba is loaded, plays in Python, as before; such a
battle played whole in Python is counted toward loading numba (:func:`count`).

From the kernel's rows the log is written with the engine's own entries (:mod:`~.entries`:
a swing's :class:`~fadad_agents.rules.personal.combat.AttackResult`, its wound tracks made by
:func:`~fadad_agents.rules.core.wounds.record` from the same blows), the take-outs made by
the battle's own :meth:`~fadad_agents.engine.core.battle.Battle._deactivate`, and the
battle ended by its own checks: the same log, byte for byte, and the same result.
"""

from __future__ import annotations

import sys
from collections import OrderedDict
from contextlib import suppress
from copy import copy
from threading import get_ident
from typing import Any
from weakref import WeakKeyDictionary

import numpy as np

from fadad_agents.agents.core.character import PLAYER_PROTECTION, Character
from fadad_agents.agents.core.crowd import waiting
from fadad_agents.agents.core.field import compiled
from fadad_agents.agents.core.plain.round import mark_plain
from fadad_agents.engine.core.battle import Battle
from fadad_agents.engine.personal.entries import write_fighters, write_log, write_versions
from fadad_agents.engine.personal.onfield import Ground, on_open_ground
from fadad_agents.engine.personal.rounds import LAST, Arrays, Rounds, as_set_up, begin
from fadad_agents.engine.personal.tables import (
    CHOOSES,
    NEEDS_THE_FIELD,
    SPENDS,
    TemplateKey,
    arm_states,
    figure_row,
    morale_rows,
    nearest_in_order,
    pairs,
    place_rows,
    ruled_rows,
    rules_row,
    shield_sides,
    state_row,
    target_orders,
    template_key,
)
from fadad_agents.policies.core.defaults import (
    CasualtyMorale,
    NoMorale,
    TableMorale,
)
from fadad_agents.rules.core.wounds import _FOLD, Wound, WoundTrack
from fadad_agents.rules.personal.combat import NO_PROTECTION

__all__ = [
    "MELEE_COMPILED", "ROOM_FOR_EVENTS", "TEMPLATES", "count", "play", "play_round", "plays",
]  # fmt: skip

ROOM_FOR_EVENTS = 24
"""Events made room for a fighter at first (a battle that makes more is played again with
twice the room): a battle of two blocks in ranks makes about 12 a fighter, a small melee
more (its 4,096 more)."""

MELEE_COMPILED = True
"""Play a battle the compiled melee can play there, once numba is loaded (False: always in
Python; the tests compare both)."""

_EVERY_WAY_OUT = frozenset(("destroyed", "routed", "surrendered"))
"""``stop.when_side`` by default: a side out any way ends the battle, so the kernel ends
it at the first side out whatever the sides' number."""
_MORALE = (NoMorale, CasualtyMorale, TableMorale)
"""The morale policies the compiled melee plays (checks at losses, or none)."""

TEMPLATES = 8
"""Set-ups of the compiled melee kept for battles built again the same (a ``run()`` loop
over seeds, a benchmark): its arrays and tables are made once (a battle of 200 fighters
made its own in 2 ms, a sixth of its play)."""

_TEMPLATES: OrderedDict[TemplateKey, Melee] = OrderedDict()
"""The templates by their key (:func:`~.tables.template_key`), the last used last."""

_MELEE, _ROUNDS = "_compiled_melee", "_compiled_rounds"
"""The battle's own attributes its :class:`Melee` is kept in (None where the compiled
melee cannot play it) and, played round by round, its :class:`~.rounds.Rounds` (None once
Python plays its rounds): kept with the battle, they go with it (kept in a table of this
module's, they would keep every battle alive, each naming its fighters)."""
_ELIGIBLE: WeakKeyDictionary[Any, bool] = WeakKeyDictionary()
"""Whether the compiled melee could play each battle played in Python (:func:`count`)."""


def play(battle: Any) -> bool:
    """Play ``battle`` (at its start) whole in compiled code if it can be and numba is
    loaded (by a crowd, before its first round: :func:`_crowd_loads`): whether it was."""
    _crowd_loads(battle)
    if not _may(battle):
        return False
    melee = _melee_of(battle)
    return melee is not None and melee.play(battle)


def _melee_of(battle: Any) -> Melee | None:
    """``battle``'s :class:`Melee` (made at first asking), or None."""
    kept = battle.__dict__
    try:
        melee: Melee | None = kept[_MELEE]
    except KeyError:
        melee = kept[_MELEE] = _melee(battle)
    return melee


def play_round(battle: Any) -> bool:
    """Play ``battle``'s round just begun (``battle.round``) in compiled code if it can be
    and numba is loaded, from its first round on (:mod:`~.rounds`): whether it was. Round
    data may be collected: Python collects it from the battle the round leaves."""
    if battle.round == 1:
        _crowd_loads(battle)
    if "numba" not in sys.modules:  # (no round played in compiled code yet)
        return False
    kept = battle.__dict__
    if battle.round == 1:
        rounds = kept[_ROUNDS] = _rounds(battle) if MELEE_COMPILED else None
    else:
        rounds = kept.get(_ROUNDS)
    if rounds is None:
        return False
    if MELEE_COMPILED and rounds.play(battle):
        return True
    rounds.hand_back(battle)  # Python plays the rest
    kept[_ROUNDS] = None
    return False


def _crowd_loads(battle: Any) -> None:
    """Load numba before ``battle``'s first round where that round would load it anyway (a
    band's turn in the field's arrays: ``waiting.in_arrays``, 256 members or more on a
    field not all in one melee), so that the compiled melee plays the battle from its
    start. Loaded in its first round, it came too late: a first big battle of a process
    (``fadad run``'s, always) played on in Python at twice the cost (10,000 v 10,000:
    9.3 s against 4.6)."""
    field = battle.field
    if "numba" in sys.modules or not MELEE_COMPILED or field is None or field.all_touching:
        return  # (loaded, or no crowd in arrays: a sweep's small melee asks no band)
    if any(waiting.in_arrays(band.members, battle) for band in battle._bands.values()):
        compiled.load()


def _rounds(battle: Any) -> Rounds | None:
    """The :class:`~.rounds.Rounds` of ``battle``, its first round begun, or None where the
    compiled melee cannot play it."""
    if battle.log.raw or battle.ending is not None:
        return None
    melee = _melee_of(battle)
    if melee is None or not as_set_up(battle, melee.members):
        return None
    begun = begin(melee, battle)
    return None if begun is None else Rounds(melee, *begun)


def plays(battle: Any) -> bool:
    """Whether :func:`play` would play ``battle``, reset and about to start, in compiled
    code (its streams then need no seeding in Python)."""
    if not _may(battle):
        return False
    return battle.__dict__.get(_MELEE) is not None


def _may(battle: Any) -> bool:
    """Whether the compiled melee may play now: switched on, numba loaded, no round data
    collected."""
    return (
        MELEE_COMPILED
        and "numba" in sys.modules
        and battle.datacollector is None
        and battle._row_columns is None
    )


def count(battle: Any) -> None:
    """Count ``battle``'s agent-rounds, just played in Python, toward loading numba
    (:func:`~fadad_agents.agents.core.field.compiled.played_off_field`) when the compiled
    melee could have played it."""
    if not compiled.counting or not MELEE_COMPILED:
        return
    try:
        eligible = _ELIGIBLE[battle]
    except KeyError:
        eligible = _ELIGIBLE[battle] = _eligible(battle) is not None
    if eligible:
        compiled.played_off_field(battle.round * len(battle.agents))


def _melee(battle: Any) -> Melee | None:
    """The battle's :class:`Melee`, or None if the compiled melee cannot play it: made
    from the template of a battle built the same (:func:`~.tables.template_key`), else
    made and kept as a template (the last :data:`TEMPLATES`)."""
    found = _eligible(battle)
    if found is None:
        return None
    members, order = found
    key, kept = template_key(battle, members, order)
    template = _TEMPLATES.get(key)
    if template is not None:
        with suppress(KeyError):  # let go meanwhile by another thread (a Dask worker's)
            _TEMPLATES.move_to_end(key)
        return template.of(members)
    melee = Melee(battle, members, order)
    template = melee.of([])
    template.kept = kept
    _TEMPLATES[key] = template
    if len(_TEMPLATES) > TEMPLATES:
        _TEMPLATES.popitem(last=False)
    return melee


def _eligible(battle: Any) -> tuple[list[Any], Any] | None:
    """The battle's fighters and turn order if the compiled melee can play it, else None."""
    field = battle.field
    if type(battle) is not Battle or battle.held:
        return None
    sides = battle.sides
    many = len(sides) > 2  # a side out ends the battle only where stop.when_side says so
    if (
        len(sides) < 2
        or (many and battle.stop.when_side != _EVERY_WAY_OUT)
        or battle.streams.on_new is not None
    ):
        return None
    members = [m for side in sides for m in side.members]
    options = battle.options
    rules = battle.combat_rules
    if (
        options.fadad.initiative not in ("rolled", "static")
        or options.fadad.actions_per_round < 1
        or rules.crit_effects not in ("none", "non_lethal", "random")
        or not all(type(m) is Character for m in members)
    ):
        return None
    mark_plain([members], battle)  # as the first round marks them: each policy set asked once
    placed = field is not None  # a nearest foe needs the field (none: Python's own search)
    sizes = rules.weapon_size_comparison  # each size known, or none compared (blows.strike)
    if not all(_plain(m, placed) and (m.size_value is not None or not sizes) for m in members):
        return None
    if many and placed and not nearest_in_order(members):
        return None
    if not (field is None or field.all_touching or on_open_ground(battle, members)):
        return None
    order = battle._turn_order or battle._roll_call()
    if not all(type(m.policies.morale) in _MORALE for m in members):
        return None
    return members, order


class Melee:
    """What the compiled melee keeps of one battle for every play of it (a sweep resets
    the battle for each replicate): its fighters in arrays as set up, the tables the
    kernel reads, and room for a battle's events."""

    def __init__(self, battle: Any, members: list[Any], order: Any) -> None:
        from fadad_agents.engine.personal import kernel, swing, twister  # numba, when loaded

        self.kernel, self.twister = kernel, twister
        c = self.columns = swing
        n = len(members)
        at = {id(m): i for i, m in enumerate(members)}
        self.kept: list[Any] = []  # as a template: what its key's ids name (template_key)
        kinds: dict[tuple[int, Any, int | None], int] = {}  # (Scale, shield, cap): kind
        self.active = np.full((len(battle.sides), n), -1, dtype=np.int64)
        self.counts = np.zeros(len(battle.sides), dtype=np.int64)
        slots = {}
        for side in battle.sides:
            for slot, m in enumerate(side.members):
                self.active[side.index, slot] = at[id(m)]
                slots[id(m)] = slot
            self.counts[side.index] = len(side.members)
        # each distinct row made once (a band's members share their policies, figures and
        # start track), then every member's picked from them by index, in numpy
        rows: dict[tuple[int, ...], int] = {}  # a member's state row but its own columns
        pairs_of: dict[tuple[int, ...], int] = {}  # its figures, armed and bare, by their ids
        tracks_of: dict[int, int] = {}  # its start track, by its id
        picks = np.empty((n, 3), dtype=np.int64)  # each member's row, figures and track
        for i, m in enumerate(members):
            pol = m.policies
            key = (id(pol), m.player, m.start_ite_points if m.player else -1)
            picks[i, 0] = rows.setdefault(key, len(rows))
            kit = (id(m.armed), id(m.bare), m.size_value or 0)
            picks[i, 1] = pairs_of.setdefault(kit, len(pairs_of))
            picks[i, 2] = tracks_of.setdefault(id(m.start_track), len(tracks_of))
        firsts: dict[tuple[str, int], Any] = {}  # the first member of each row, kit, track
        for i, (r, f, k) in enumerate(picks.tolist()):
            firsts.setdefault(("row", r), members[i])
            firsts.setdefault(("figures", f), members[i])
            firsts.setdefault(("track", k), members[i])
        state = np.array([state_row(firsts["row", r], c) for r in range(len(rows))], np.int64)[
            picks[:, 0]
        ]
        state[:, c._SIDE] = [m.side for m in members]
        state[:, c._TRACK] = np.arange(1, n + 1)
        state[:, c._SLOT] = [slots[id(m)] for m in members]
        figured = [
            [figure_row(f, kinds, m.size_value) for f in (m.armed, m.bare)]
            for m in (firsts["figures", f] for f in range(len(pairs_of)))
        ]
        self.figures = np.array(figured, dtype=np.int64).reshape(-1, 2, c.FIGURES)[picks[:, 1]]
        tracks = [firsts["track", k].start_track for k in range(len(tracks_of))]
        self.boxes = np.array([t.boxes for t in tracks], np.int64).reshape(-1, 5)[picks[:, 2]]
        self.fold = np.array([_FOLD[t.kind] for t in tracks], np.int64).reshape(-1, 7)[picks[:, 2]]
        started = [(0, 0, 0, t.dead, *t.filled, Wound.DEAD) for t in tracks]
        self.starts = np.array(started, np.int64).reshape(-1, c.TRACK_COLUMNS)[picks[:, 2]]
        self.starts[:, 2] = np.arange(n)  # as set up: its owner
        field = battle.field
        moving = field is not None and not field.all_touching  # nearest found as they move
        self.near, state[:, c._REACH] = target_orders(members, moving)
        self.ruled, self.worth, state[:, c._RULES] = ruled_rows(members)
        self.state = state
        self.duels = bool((state[:, c._CHOOSES] == c.DUEL).any())
        options, rules = battle.options, battle.combat_rules
        self.rules = rules_row(battle)
        self.wounds = rules.wounds
        bands = [members_ for _, _, members_ in order._bands]
        self.room, self.places = place_rows(battle, members, bands, at)
        self.ground = None  # on open ground: its tables, and places read at each play
        ranks = len(members) + 3  # at most as many on a shield side as strike it, and 2
        if moving:
            self.ground = Ground(battle, members, sorted({m.radius for m in members}))
            state[:, c._WANTED] = 1
            state[:, c._MOST] = self.ground.most
            ranks = min(ranks, self.ground.most_on_one(self.room, n) + 3)
            self.shields = self.ground.shield_rows(n, ranks)
        else:
            self.shields = shield_sides(members)
        self.pairs = pairs(list(kinds), ranks, rules.shield_mode)
        self.arm_state = arm_states(options.location)
        self.bands = np.cumsum([0, *map(len, bands)]).astype(np.int64)
        self.band_members = np.array([at[id(m)] for band in bands for m in band], np.int64)
        self.keys = np.array([order._key(m) for m in members], dtype=np.int64)
        self.rolled = np.array(order._rolled, dtype=np.int64)
        self.mask = (1 << order._bits) - 1
        self.band_at = np.full(self.mask + 1, -1, dtype=np.int64)
        for k, band in enumerate(bands):
            for m in band:
                self.band_at[order._key(m) & self.mask] = k
        self.morale, self.levels, self.reasons = morale_rows(members, bands)
        self.checks = bool(self.morale[:, 0].any())
        self.uncrossed = np.zeros(len(bands), dtype=np.int64)  # no band's thresholds yet
        self._own(members)
        self._room(ROOM_FOR_EVENTS * n + 4096, 64 * n + 64)

    def _own(self, members: list[Any]) -> None:
        """What of this battle's own objects it keeps: its fighters, their names, verbs,
        indices, start tracks and bands (the rest is the same for every battle built from
        one scenario: :func:`_melee`'s templates)."""
        self.members = members
        self.names = [m.name for m in members]
        self.verbs = [m.verb for m in members]
        self.defence_verbs = [m.defence_verb for m in members]
        self.indices = [m.index for m in members]
        self.tracks_at_start = [None, *(m.start_track for m in members)]
        self.bands_of = [m.band for m in members]
        if self.ground is not None:
            self.ground = self.ground.of(members)

    def of(self, members: list[Any]) -> Melee:
        """This one (a template) for another battle built the same, of ``members``: its
        arrays and tables shared (read, or scratch a play fills and reads before the next,
        in the thread that made it: a play in another thread makes its own), its own
        objects its own."""
        melee = copy(self)
        melee._own(members)
        return melee

    def _room(self, events: int, tracks: int, make: Any = np.zeros) -> None:
        """Room for ``events`` events and ``tracks`` wound track versions a battle, and the
        play's streams (each fighter's, then morale, movement): scratch a play fills and
        reads (every cell written before it is read), kept for this thread's plays
        (:meth:`play`); ``make(shape, dtype)`` makes each array."""
        self.thread = get_ident()
        self.streams = make((len(self.indices) + 4, 625), np.uint32)
        self.events = make((events, self.columns.EVENT_COLUMNS), np.int64)
        self.moved = make((events if self.ground is not None else 1, 5), np.float64)
        self.effects = make((events, 8), np.int64)
        self.tracks = make((tracks, self.columns.TRACK_COLUMNS), np.int64)

    def play(self, battle: Any) -> bool:
        """Play ``battle`` whole, as set up (its first round not begun); False if it is not
        at its start."""
        if (
            battle.round
            or battle.log.raw
            or battle.ending is not None
            or not as_set_up(battle, self.members)
        ):
            return False
        if self.thread != get_ident():  # a template's scratch, the thread it was made in's
            self._room(len(self.events), len(self.tracks))  # (threads of a Dask worker)
        begun = begin(self, battle)
        if begun is None:  # no mirror of the field can be made
            return False
        while True:
            arrays = Arrays(self, self.streams, *begun)
            rounds = arrays.play(1, LAST)
            if rounds == self.kernel.GAVE_UP:
                return False
            if rounds != self.kernel.FULL:
                break
            self._room(2 * len(self.events), 2 * len(self.tracks))
        s, pos = arrays.s, arrays.field[0]
        self._leave(battle, s, rounds, None if self.ground is None else pos)
        if self.ground is not None:
            self.ground.leave(battle, pos)
        self._remember(s, arrays.crossed)
        return True

    def _remember(self, s: np.ndarray, crossed: np.ndarray) -> None:
        """What the fighters' policies remember: each duellist's opponent, where
        ``DuelTargeting`` keeps it; each band's morale thresholds crossed, where
        ``CasualtyMorale`` keeps them (the band's memory, or a lone fighter's own)."""
        if self.duels:
            for i in np.flatnonzero(s[:, self.columns._DUEL] >= 0).tolist():
                self.members[i].memory["duel"] = self.members[s[i, self.columns._DUEL]]
        if not self.checks:
            return
        for k in np.flatnonzero(crossed).tolist():
            first = int(self.band_members[self.bands[k]])
            lone = self.bands[k + 1] - self.bands[k] == 1
            view = self.members[first] if lone else self.bands_of[first]
            view.memory["morale_thresholds"] = int(crossed[k])

    def _leave(self, battle: Any, s: np.ndarray, rounds: int, pos: Any) -> None:
        """The battle as the kernel's rows leave it: tracks, log, take-outs, fighters (on
        open ground, ``pos``: their bearings too), the clock and the end."""
        versions = self.tracks_at_start.copy()
        write_versions(self, versions)
        secs = battle._round_length()
        write_log(self, battle, versions, secs)
        write_fighters(self, battle, s, versions, pos=pos)
        battle.round = rounds
        battle.env._now = rounds * secs
        if not battle._check_end():
            raise AssertionError("the compiled melee stopped a battle that goes on")
        battle._finish()


def _plain(member: Any, placed: bool) -> bool:
    """Whether the compiled melee can play ``member``: a plain character (no missile,
    first aid, spirit), a player character only with a shipped Ité policy, whose new
    target is a random foe, the first, the most or least wounded, as its targeting rules
    choose, or its nearest where all stand ``placed`` on a field, on a wound track."""
    pol = member.policies
    return (
        member.plain is True
        and member.protection is (PLAYER_PROTECTION if member.player else NO_PROTECTION)
        and (not member.player or type(pol.ite_points) in SPENDS)
        and (
            pol.random_in_reach
            or (type(pol.targeting) in CHOOSES and type(pol.targeting) not in NEEDS_THE_FIELD)
            or (placed and member.placed and type(pol.targeting) in NEEDS_THE_FIELD)
        )
        and type(member.start_track) is WoundTrack
        and member.start_track.kind in _FOLD
    )
