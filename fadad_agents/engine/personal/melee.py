"""Which battles the compiled plain melee plays, and the battle it leaves: log, fighters,
sides and clock, as the engine's Python leaves them.

A battle of plain characters (:func:`~fadad_agents.agents.core.plain.round.is_plain`:
nothing to decide but a new target: a random foe, the first, nearest, most or least
wounded, a duel's, or as a GM's targeting rules choose) on two sides, or on more where a
side out any way ends it (``stop.when_side``'s default), all in one melee (no map, or a
field where each touches every foe), player characters with their protections
(``pc_death.*``, Ité points spent as the three shipped policies spend them) or none,
shields or none, single fighters or bands, initiative rolled or static, morale checked at
losses (the shipped policies) or not, no round data collected, either target mode, any
wound model (FADAD's, or FUDGE's with Anna's options, weapon groups too), weapon sizes
compared or not, scale-piercing weapons, any crit policy: :func:`play` plays it whole in
:func:`~.kernel.play` once numba is loaded, from its start to its end (``run``, sweeps;
never round by round). Any other battle, and every battle before numba is loaded, plays in
Python, as before; such a battle played whole in Python is counted toward loading numba
(:func:`count`).

From the kernel's rows the log is written with the engine's own entries (a swing's
:class:`~fadad_agents.rules.personal.combat.AttackResult`, its wound tracks made by
:func:`~fadad_agents.rules.core.wounds.record` from the same blows), the take-outs made by
the battle's own :meth:`~fadad_agents.engine.core.battle.Battle._deactivate`, and the
battle ended by its own checks: the same log, byte for byte, and the same result.
"""

from __future__ import annotations

import sys
from typing import Any
from weakref import WeakKeyDictionary

import numpy as np

from fadad_agents.agents.core.base import Status
from fadad_agents.agents.core.blows import attack_event
from fadad_agents.agents.core.character import PLAYER_PROTECTION, Character
from fadad_agents.agents.core.conditions import Conditions, _outcome
from fadad_agents.agents.core.field import compiled
from fadad_agents.agents.core.plain.round import mark_plain
from fadad_agents.engine.core.battle import Battle
from fadad_agents.engine.personal.codes import PIERCING
from fadad_agents.engine.personal.tables import (
    CHOOSES,
    NEEDS_THE_FIELD,
    arm_states,
    morale_rows,
    nearest_in_order,
    pairs,
    place_rows,
    ruled_rows,
    rules_row,
    shield_sides,
    target_orders,
)
from fadad_agents.policies.core.defaults import (
    CasualtyMorale,
    KeepPoints,
    NoMorale,
    SaveFromDeath,
    SaveFromDeathOnly,
    TableMorale,
)
from fadad_agents.rules.core.dice import TABLE_4DF
from fadad_agents.rules.core.ladder import FAIR
from fadad_agents.rules.core.wounds import _FOLD, Wound, WoundTrack, record
from fadad_agents.rules.personal.combat import NO_PROTECTION, AttackResult
from fadad_agents.rules.personal.criticals import CRIT_EFFECTS
from fadad_agents.rules.personal.damage import armour_group
from fadad_agents.rules.personal.melee import LOCATION_STATES

__all__ = ["MELEE_COMPILED", "count", "play", "plays", "swing_event"]

MELEE_COMPILED = True
"""Play a battle the compiled melee can play there, once numba is loaded (False: always in
Python; the tests compare both)."""

_WOUNDS = tuple(Wound)
_EFFECTS = {effect.d8: effect for effect in CRIT_EFFECTS}
_SUFFERED = {
    6: ("knocked down", "Knockdown"),
    5: ("disarmed", "Disarm"),
    7: ("staggered", "Stagger"),
}
_RECOVERED = ("gets up", "picks up the dropped weapon", "loses an action, staggered", "comes to")
_ONE = {total: (total,) for total in TABLE_4DF}
_SPENDS = {KeepPoints: 0, SaveFromDeath: 1, SaveFromDeathOnly: 2}
"""When each shipped Ité policy spends a point (``swing.NEVER``, ``ON_DEATHLY``,
``ON_DEAD``); a player character with another policy is played in Python."""
_TABLE = np.array(TABLE_4DF, dtype=np.int64)
_EVERY_WAY_OUT = frozenset(("destroyed", "routed", "surrendered"))
"""``stop.when_side`` by default: a side out any way ends the battle, so the kernel ends
it at the first side out whatever the sides' number."""
_MORALE = (NoMorale, CasualtyMorale, TableMorale)
"""The morale policies the compiled melee plays (checks at losses, or none)."""

_MELEES: WeakKeyDictionary[Any, Melee | None] = WeakKeyDictionary()
"""Each battle's :class:`Melee`, or None where the compiled melee cannot play it."""
_ELIGIBLE: WeakKeyDictionary[Any, bool] = WeakKeyDictionary()
"""Whether the compiled melee could play each battle played in Python (:func:`count`)."""


def play(battle: Any) -> bool:
    """Play ``battle`` (at its start) whole in compiled code if it can be and numba is
    loaded: whether it was."""
    if not _may(battle):
        return False
    try:
        melee = _MELEES[battle]
    except KeyError:
        melee = _MELEES[battle] = _melee(battle)
    return melee is not None and melee.play(battle)


def plays(battle: Any) -> bool:
    """Whether :func:`play` would play ``battle``, reset and about to start, in compiled
    code (its streams then need no seeding in Python)."""
    if not _may(battle):
        return False
    melee = _MELEES.get(battle, False)
    return melee is not False and melee is not None


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
    """The battle's :class:`Melee`, or None if the compiled melee cannot play it."""
    found = _eligible(battle)
    return None if found is None else Melee(battle, *found)


def _eligible(battle: Any) -> tuple[list[Any], Any] | None:
    """The battle's fighters and turn order if the compiled melee can play it, else None."""
    field = battle.field
    if type(battle) is not Battle or battle.held or not (field is None or field.all_touching):
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

        self.kernel, self.seed = kernel, twister.seed
        c = self.columns = swing
        self.members = members
        n = len(members)
        at = {id(m): i for i, m in enumerate(members)}
        self.names = [m.name for m in members]
        self.verbs = [m.verb for m in members]
        self.defence_verbs = [m.defence_verb for m in members]
        self.indices = [m.index for m in members]
        kinds: dict[tuple[int, Any, int | None], int] = {}  # (Scale, shield, cap): kind
        state = np.zeros((n, c.STATE_COLUMNS), dtype=np.int64)
        self.figures = np.zeros((n, 2, c.FIGURES), dtype=np.int64)
        self.boxes = np.zeros((n, 5), dtype=np.int64)
        self.fold = np.zeros((n, 7), dtype=np.int64)
        self.starts = np.zeros((n, c.TRACK_COLUMNS), dtype=np.int64)  # tracks as set up
        self.active = np.full((len(battle.sides), n), -1, dtype=np.int64)
        self.counts = np.zeros(len(battle.sides), dtype=np.int64)
        for side in battle.sides:
            for slot, m in enumerate(side.members):
                self.active[side.index, slot] = at[id(m)]
            self.counts[side.index] = len(side.members)
        self.near, state[:, c._REACH] = target_orders(members)
        self.ruled, self.worth, state[:, c._RULES] = ruled_rows(members)
        for i, m in enumerate(members):
            pol = m.policies
            state[i, c._SIDE] = m.side
            state[i, c._TARGET] = -1
            state[i, c._FIGHTING] = 1
            state[i, c._TRACK] = i + 1
            state[i, c._PENDING] = -1
            chooses = state[i, c._CHOOSES] = CHOOSES.get(type(pol.targeting), c.RANDOM)
            state[i, c._KEEPS] = chooses in (c.FIRST, c.NEAREST) or pol.keeps_target
            state[i, c._DUEL] = -1
            state[i, c._COUNT] = pol.attack_count
            state[i, c._SLOT] = battle.sides[m.side].members.index(m)
            if m.player:
                state[i, c._PLAYER] = 1
                state[i, c._ITE] = m.start_ite_points
                state[i, c._SPENDS] = _SPENDS[type(pol.ite_points)]
            for k, f in enumerate((m.armed, m.bare)):
                kind = kinds.setdefault((f.scale, f.shield, f.shield_cap), len(kinds))
                self.figures[i, k] = (
                    f.attack, f.defence, f.odm, f.ddm, f.scale, f.armour, kind,
                    f.shield is not None, -1 if f.weapon_group is None else f.weapon_group,
                    armour_group(f.armour) if f.armour_group is None else f.armour_group,
                    PIERCING.index(f.scale_piercing),
                    f.scale if f.mass_scale is None else f.mass_scale, m.size_value or 0,
                )  # fmt: skip
            track = m.start_track
            self.boxes[i] = track.boxes
            self.fold[i] = _FOLD[track.kind]
            self.starts[i] = (0, 0, i, track.dead, *track.filled, Wound.DEAD)
        self.state = state
        self.duels = bool((state[:, c._CHOOSES] == c.DUEL).any())
        self.tracks_at_start = [None, *(m.start_track for m in members)]
        options, rules = battle.options, battle.combat_rules
        self.rules = rules_row(battle)
        self.wounds = rules.wounds
        self.pairs = pairs(list(kinds), len(members) + 3, rules.shield_mode)
        self.shields = shield_sides(members)
        self.arm_state = arm_states(options.location)
        bands = [members_ for _, _, members_ in order._bands]
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
        self.bands_of = [m.band for m in members]
        self.streams = np.zeros((n + 3, 625), dtype=np.uint32)  # and the morale stream
        self.room, self.places = place_rows(battle, members, bands, at)
        self._room(256 * n, 64 * n + 64)

    def _room(self, events: int, tracks: int) -> None:
        """Room for ``events`` events and ``tracks`` wound track versions a battle."""
        self.events = np.zeros((events, self.columns.EVENT_COLUMNS), dtype=np.int64)
        self.effects = np.zeros((events, 8), dtype=np.int64)
        self.tracks = np.zeros((tracks, self.columns.TRACK_COLUMNS), dtype=np.int64)

    def play(self, battle: Any) -> bool:
        """Play ``battle`` whole, as set up (its first round not begun); False if it is not
        at its start."""
        if battle.round or battle.log.raw or battle.ending is not None:
            return False
        streams = battle.streams
        streams.get("initiative", on_use=True)  # the names a Python play asks for
        melee = streams.seed_of("melee") << 32
        seeds = [streams.seed_of("initiative"), streams.seed_of("targeting")]
        seeds += [melee | (index & 0xFFFFFFFF) for index in self.indices]
        if self.checks:
            seeds.append(streams.seed_of("morale"))
        kernel = self.kernel
        while True:
            self.seed(self.streams, seeds)  # as random.Random(seed) seeds each
            s = self.state.copy()
            events, tracks = self.events, self.tracks
            events[0, 0] = 1
            n = len(self.members)
            tracks[0, 0] = n + 1
            tracks[1 : n + 1] = self.starts
            streams_now = self.streams
            crossed = np.zeros_like(self.uncrossed) if self.checks else self.uncrossed
            rounds = kernel.play(
                s, self.figures, streams_now[2 : n + 2], streams_now[1], self.near, self.ruled,
                self.worth, streams_now[0],
                tracks, self.boxes, self.fold, self.rules, self.pairs, _TABLE, self.bands,
                self.band_members, self.keys, self.rolled, self.mask, self.band_at,
                self.active.copy(), self.counts.copy(), self.arm_state, events, self.effects,
                self.places.copy(), self.room, self.shields.copy(), self.morale, self.levels,
                crossed, self.counts, streams_now[n + 2],
            )  # fmt: skip
            if rounds != kernel.FULL:
                break
            self._room(2 * len(events), 2 * len(tracks))
        self._leave(battle, s, rounds)
        self._remember(s, crossed)
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

    def _leave(self, battle: Any, s: np.ndarray, rounds: int) -> None:
        """The battle as the kernel's rows leave it: tracks, log, take-outs, fighters, the
        clock and the end."""
        members, names = self.members, self.names
        w = self.wounds
        scratch_cap, overflow = w.scratch_cap, w.overflow_past_near_death
        used = int(self.tracks[0, 0])
        versions = self.tracks_at_start.copy()
        made = self.tracks[len(versions) : used]
        for (parent, wound), most in zip(made[:, :2].tolist(), made[:, 9].tolist(), strict=True):
            versions.append(record(versions[parent], wound, scratch_cap, overflow, most))
        secs = battle._round_length()
        log = battle.log
        raw, outs = log.raw, log.outs
        count = int(self.events[0, 0])
        rows = self.events[1:count].tolist()
        effects = self.effects
        verbs, defence_verbs = self.verbs, self.defence_verbs
        outcome: tuple[tuple[str, Any], ...]
        for e, row in enumerate(rows, 1):
            kind, rnd, i = row[0], row[1], row[2]
            now = rnd * secs
            if kind == 1:  # a swing, its event made when the log is read
                t = row[3]
                drawn = effects[e, : row[20]].tolist() if row[20] else ()
                raw.append((
                    now, rnd, swing_event, names[i], names[t], row, drawn, versions, verbs[i],
                    defence_verbs[t],
                ))  # fmt: skip
            elif kind == 2:  # a take-out
                member = members[i]
                battle._deactivate(member, Status.OUT).downed.append(member)
                outs.append(len(raw))
                why = "knocked out" if row[3] == 7 else _WOUNDS[row[3]].label  # KNOCKED_OUT
                raw.append((now, rnd, names[i], "out", None, (), (), (("result", why),)))
            elif kind == 3:  # a crit's effect
                face = row[3]
                if face == 8:
                    what = f"hit in the weapon arm ({LOCATION_STATES[row[4]]})"
                    outcome = _outcome(what, "Called Location")
                elif face == 3:  # aims.knock_out, for knockout_rounds
                    knocked = f"knocked out for {row[4]} rounds"
                    outcome = (("result", knocked), ("effect", "Knockout"))
                else:
                    outcome = _outcome(*_SUFFERED[face])
                raw.append((now, rnd, names[i], "crit_effect", None, (), (), outcome))
            elif kind == 6:  # a band's morale check (Character.end_round, record_morale)
                outcome = (
                    ("result", "holds" if row[5] else "breaks"),
                    ("check", self.reasons[i][row[6]]),
                    ("target", FAIR),
                )
                raw.append((
                    now, rnd, self.bands_of[i].name, "morale", None, (("4dF", row[3]),),
                    (("morale", row[4]),), outcome,
                ))  # fmt: skip
            elif kind == 7:  # a fighter leaves as its band breaks (Battle.leave)
                member = members[i]
                why = "morale broke: " + self.reasons[row[5]][row[4]]
                if row[3]:
                    status, action = Status.SURRENDERED, "surrender"
                else:
                    status, action = Status.WITHDRAWN, "withdraw"
                    battle.sides[member.side].routed += 1
                battle._deactivate(member, status)
                outcome = (("result", status.value), ("reason", why))
                raw.append((now, rnd, names[i], action, None, (), (), outcome))
            elif kind == 5:  # an Ité point spent (Character.spend_ite_point)
                outcome = (
                    ("result", _WOUNDS[row[3]].label),
                    ("instead_of", _WOUNDS[row[4]].label),
                    ("left", row[5]),
                )
                raw.append((now, rnd, names[i], "ite_point", None, (), (), outcome))
            else:  # a recovery
                raw.append(
                    (
                        now,
                        rnd,
                        names[i],
                        "crit_recovery",
                        None,
                        (),
                        (),
                        _outcome(_RECOVERED[row[3]]),
                    )
                )
        self._fighters(battle, s, versions)
        battle.round = rounds
        battle.env._now = rounds * secs
        if not battle._check_end():
            raise AssertionError("the compiled melee stopped a battle that goes on")
        battle._finish()

    def _fighters(self, battle: Any, s: np.ndarray, versions: list[Any]) -> None:
        """Each fighter's track, target, actions and conditions as the battle left them."""
        k = self.columns
        members = self.members
        knockdown = battle.options.fadad.knockdown_penalty
        for i, row in enumerate(s.tolist()):
            m = members[i]
            m.track = versions[row[k._TRACK]]
            m.pending = None
            if row[k._PLAYER]:
                m.ite_points = row[k._ITE]
            t = row[k._TARGET]
            m.target = members[t] if t >= 0 and m.fighting else None
            m.attacks_planned, m.defences_left = row[k._ATTACKS], row[k._DEFENCES]
            m.fighter = m.bare if row[k._BARE] else m.armed
            arm = row[k._ARM]
            m.conditions = None
            if row[k._CONDITIONS]:
                found = m.conditions = Conditions(knockdown)
                found.prone, found.disarmed = bool(row[k._PRONE]), bool(row[k._DISARMED])
                found.staggered, found.unconscious = row[k._STAGGERED], row[k._UNCONSCIOUS]
                if arm:
                    found.parts["arm"] = LOCATION_STATES[arm]


def swing_event(
    actor: str, target: str, row: list[int], drawn: Any, versions: list[Any], verb: str,
    defence_verb: str,
) -> tuple[str, str, str, Any, Any, Any]:  # fmt: skip
    """The log's event of a swing of the compiled melee (its kernel's ``row``, the crit
    effects ``drawn``, the wound tracks by version): ``attack_event`` of the
    :class:`~fadad_agents.rules.personal.combat.AttackResult` the Python swing made."""
    defended = bool(row[19])
    if row[10]:
        res = tuple.__new__(AttackResult, (
            row[4], row[6], row[5] if defended else None, row[7] if defended else None, row[8],
            row[9], True, row[11], tuple(_EFFECTS[f] for f in drawn), row[13],
            _ONE[row[14]] if row[21] == 1 else tuple(row[22:25]) if row[21] else (),
            _WOUNDS[row[15]], versions[row[16]],
        ))  # fmt: skip
    else:
        res = tuple.__new__(AttackResult, (
            row[4], row[6], row[5] if defended else None, row[7] if defended else None, row[8],
            row[9], False, 0, (), 0, (), Wound.UNDAMAGED, versions[row[16]],
        ))  # fmt: skip
    return attack_event(actor, target, res, row[17], row[18], defended, verb, defence_verb)


swing_event.aimed = True  # type: ignore[attr-defined]  # its args begin (actor, target):
# BattleLog.takedowns reads them without making the event, as attack_event's


def _plain(member: Any, placed: bool) -> bool:
    """Whether the compiled melee can play ``member``: a plain character (no missile,
    first aid, spirit), a player character only with a shipped Ité policy, whose new
    target is a random foe, the first, the most or least wounded, as its targeting rules
    choose, or its nearest where all stand ``placed`` on a field, on a wound track."""
    pol = member.policies
    return (
        member.plain is True
        and member.protection is (PLAYER_PROTECTION if member.player else NO_PROTECTION)
        and (not member.player or type(pol.ite_points) in _SPENDS)
        and (
            pol.random_in_reach
            or (type(pol.targeting) in CHOOSES and type(pol.targeting) not in NEEDS_THE_FIELD)
            or (placed and member.placed and type(pol.targeting) in NEEDS_THE_FIELD)
        )
        and type(member.start_track) is WoundTrack
        and member.start_track.kind in _FOLD
    )
