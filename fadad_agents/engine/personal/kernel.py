"""The compiled plain melee: a whole battle of plain fighters, in numba.

:func:`play` plays, round after round, what the engine's plain round plays in Python for a
battle all in one melee whose fighters are all plain characters; :func:`play_on_ground`, one
on open ground where they close in (their declares and turns as :mod:`~.placed` and
:mod:`~.ground` play them; :mod:`~.melee` says which battles): initiative band by band
(:class:`~fadad_agents.engine.core.turns.TurnOrder`), declares (a target kept or drawn,
the budget split, what a crit took paid first), the acts in turn order, tied turns played
together (wounds and take-outs held to the turn's end), places round a defender counted
and ranks on its shield side (:mod:`~.outcomes`), each swing as
:func:`~fadad_agents.rules.personal.combat.resolve_attack` resolves it (:mod:`~.swing`),
the crits' conditions as :mod:`~fadad_agents.agents.core.conditions` leaves them, the
bands' morale at each round's end (:mod:`~.morale`). Every die is drawn from the same
Mersenne Twister stream Python draws it from, at the same place (:mod:`~.twister`).

Nothing here makes a Python object: the battle is written as rows of
:data:`~.swing.EVENT_COLUMNS` integers, one an event of the log (a swing, a take-out, a
crit's effect, a recovery), and wound tracks as versions (a version's parent and the wound
recorded on it), from which :mod:`~.melee` makes the log's entries and the fighters'
tracks with the kernel's own functions, so the log reads byte for byte as the Python
engine's.

Each function takes the arrays it reads one by one, not the battle's arrays in one named
tuple: numba counts a reference to every array of a tuple at every call that is not
inlined, and a swing makes several: with one, the kernel took 65 us a 5 v 5 battle, not 30
(2026-12-06). The signatures are long for that. A call that is not inlined costs about
10 ns an array it is given (measured: 360 ns a call of 30 arrays, 51 of 3), so each act
is given only the arrays it reads, and the act and declare on open ground are inlined
(``inline="always"``: numba inlines a call of at most 30 arguments; CPython passes more
as ``*args``, which numba's inliner refuses).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from fadad_agents.agents.core.crowd.elbows import _within_pow
from fadad_agents.agents.core.field.borrowed import borrowed as _b
from fadad_agents.agents.core.field.caching import njit
from fadad_agents.engine.personal.morale import end_round
from fadad_agents.engine.personal.swing import (
    _ARM,
    _ATTACKS,
    _BARE,
    _CONDITIONS,
    _COUNT,
    _DEFENCES,
    _DISARMED,
    _FIGHTING,
    _KEEPS,
    _MOVES,
    _PENDING,
    _PRONE,
    _SHIELDED,
    _STAGGERED,
    _TARGET,
    _TRACK,
    _UNCONSCIOUS,
    FULL,
    RECOVER,
    _event,
    _penalty,
    _swing,
)

__all__ = ["FULL", "GAVE_UP", "play", "play_on_ground"]
from fadad_agents.engine.personal.choosing import _new_target
from fadad_agents.engine.personal.ground import (
    GAVE_UP,
    another_in_reach,
    plan_move,
    taken_off,
)
from fadad_agents.engine.personal.outcomes import (
    _absorb,
    _admit,
    _another,
    _has_room,
    _pay,
    _shield_rank,
    settle,
)
from fadad_agents.engine.personal.placed import foe_chosen, turn_on_ground
from fadad_agents.engine.personal.twister import random


@njit(cache=True)
def _turns(
    s: np.ndarray,
    bands: np.ndarray,
    members: np.ndarray,
    keys: np.ndarray,
    rolled: np.ndarray,
    mask: int,
    band_at: np.ndarray,
    initiative: np.ndarray,
    drawn: np.ndarray,
    order: np.ndarray,
    starts: np.ndarray,
    shared: np.ndarray,
    roll: bool,
) -> int:
    """``TurnOrder.roll``: a draw for each band with someone fighting, in the bands' order,
    led by its first fighting member; the keys sorted; a band's fighting members a turn,
    bands tied on roll and trait one turn together. The turns (``order`` from
    ``starts``), their count."""
    m = 0
    for k in range(bands.shape[0] - 1):
        for j in range(bands[k], bands[k + 1]):
            lead = members[j]
            if s[lead, _FIGHTING]:  # rolled, else static (the trait alone, no draw)
                drawn[m] = (
                    keys[lead] - rolled[int(random(initiative) * 81.0)] if roll else keys[lead]
                )
                m += 1
                break
    ranked = np.sort(drawn[:m])
    turns, at = 0, 0
    limit = ranked[0]
    for key in ranked:
        k = band_at[key & mask]
        if key >= limit:
            starts[turns] = at
            shared[turns] = False
            turns += 1
            limit = (key | mask) + 1
        else:
            shared[turns - 1] = True
        for j in range(bands[k], bands[k + 1]):  # the band's members fighting now
            if s[members[j], _FIGHTING]:
                order[at] = members[j]
                at += 1
    starts[turns] = at
    return turns


@njit(cache=True)
def _act(
    i: int,
    s: np.ndarray,
    figures: np.ndarray,
    melee: np.ndarray,
    targeting: np.ndarray,
    near: np.ndarray,
    ruled: np.ndarray,
    worth: np.ndarray,
    start: np.ndarray,
    tracks: np.ndarray,
    boxes: np.ndarray,
    fold: np.ndarray,
    rules: np.ndarray,
    pairs: np.ndarray,
    table: np.ndarray,
    rnd: int,
    events: np.ndarray,
    effects: np.ndarray,
    arm_state: np.ndarray,
    held: np.ndarray,
    active: np.ndarray,
    counts: np.ndarray,
    places: np.ndarray,
    room: np.ndarray,
    bands: np.ndarray,
    shields: np.ndarray,
) -> int:
    """The plain round's ``_act`` of fighter ``i``: what a crit took since it declared
    paid from its attacks, then each attack on its target, or a new one drawn where it
    fell, or the first foe with a place left round it where its own has none. False: an
    array is full (on open ground, :func:`~.placed.act_placed` acts instead)."""
    if s[i, _TARGET] < 0 or s[i, _UNCONSCIOUS]:  # Character.ready: not while unconscious
        return 1
    left = _pay(i, s[i, _ATTACKS], s, rnd, events)
    if left < 0:
        return 0
    s[i, _ATTACKS] = left
    a_pen = _penalty(i, s, tracks, rules)
    while left:
        left -= 1
        t = s[i, _TARGET]
        if t < 0 or not s[t, _FIGHTING]:
            t = s[i, _TARGET] = _new_target(
                i, s, active, counts, targeting, near, ruled, worth, start, tracks, rnd
            )
            if t < 0:
                return 1
        if not places[t, 0] and not _admit(t, i, places, room, bands, rules, rnd):
            t = _another(i, s, active, counts, places, room, bands, rules, rnd)
            if t < 0:
                return 1
        rank = 1  # shields.shield_rank: the attacker's place on its target's shield side
        if s[t, _TARGET] != i and figures[t, s[t, _BARE], _SHIELDED]:
            rank = _shield_rank(t, i, s, shields, rnd)
        e = _swing(i, t, a_pen, rank, 0, s, figures, melee, tracks, boxes, fold, rules, pairs,
                   table, rnd, events, effects)  # fmt: skip
        if e < 0:
            return 0
        if not events[e, 10]:
            continue
        if not _absorb(t, e, s, tracks, boxes, fold, held, active, counts, rnd, events,
                       effects, arm_state, rules):  # fmt: skip
            return 0
        if not s[i, _FIGHTING]:
            return 1
    return 1


@njit(cache=True, inline="always")
def _declare(
    i: int,
    s: np.ndarray,
    active: np.ndarray,
    counts: np.ndarray,
    targeting: np.ndarray,
    near: np.ndarray,
    ruled: np.ndarray,
    worth: np.ndarray,
    start: np.ndarray,
    tracks: np.ndarray,
    rules: np.ndarray,
    rnd: int,
    events: np.ndarray,
    places: np.ndarray,
    room: np.ndarray,
    bands: np.ndarray,
    placed: bool,
    pos: np.ndarray,
    geo: np.ndarray,
    floats: np.ndarray,
    ints: np.ndarray,
    filing: np.ndarray,
    bounds: np.ndarray,
    counters: np.ndarray,
) -> int:
    """The plain round's ``_declare`` of fighter ``i``: what its conditions owe paid
    from the round's actions, its target kept or drawn, the rest split between one
    attack a time it plans and defences; on open ground (``placed``: ``Character.declare``)
    the target a random foe in reach or the nearest (:func:`~.placed.foe_chosen`), one
    whose places are taken traded for a foe in reach with one (``Character.with_room``),
    and a move toward a target beyond reach planned. 1; 0: an array is full;
    :data:`~.ground.GAVE_UP`."""
    if s[i, _UNCONSCIOUS]:  # Conditions.start_round: it comes to when its rounds are up
        s[i, _UNCONSCIOUS] -= 1
        if s[i, _UNCONSCIOUS]:
            s[i, _ATTACKS], s[i, _DEFENCES] = 0, 0
            return 1
        e = _event(events, RECOVER, rnd, i)
        if e < 0:
            return 0
        events[e, 3] = 3  # comes to
    budget = _pay(i, rules[6], s, rnd, events)
    if budget < 0:
        return 0
    if not (s[i, _PRONE] or s[i, _DISARMED] or s[i, _STAGGERED] or s[i, _ARM]):
        s[i, _CONDITIONS] = 0  # Conditions.start_round: cleared, dropped
    s[i, _ATTACKS], s[i, _DEFENCES] = 0, budget
    s[i, _MOVES] = 0
    if not budget:
        return 1
    t = s[i, _TARGET]
    if not (s[i, _KEEPS] and t >= 0 and s[t, _FIGHTING]):
        if placed:
            t, _ = foe_chosen(i, s, pos, geo, active, counts, floats, ints, filing, bounds,
                              counters, targeting)  # fmt: skip
            if t == -2:
                return GAVE_UP
        else:
            t = _new_target(i, s, active, counts, targeting, near, ruled, worth, start, tracks,
                            rnd)  # fmt: skip
        s[i, _TARGET] = t
    if placed and t >= 0 and places[t, 3] == rnd and not _has_room(t, i, places, room, bands,
                                                                  rules, rnd):  # fmt: skip
        other = another_in_reach(i, s, pos, geo, active, counts, floats, ints, filing, bounds,
                                 places, room, bands, rules, rnd, False)  # fmt: skip
        if other == -2:
            return GAVE_UP
        if other >= 0:
            t = s[i, _TARGET] = other
    if t < 0:
        return 1
    n = min(s[i, _COUNT], budget)
    if placed:
        full = pos[i, 3] + pos[i, 4] + pos[t, 3]  # radius, reach: the declare's measure
        if not _within_pow(pos[i, 0] - pos[t, 0], pos[i, 1] - pos[t, 1], full, 0.0, geo[7]):
            n = plan_move(i, t, budget, n, s, pos, geo)
    s[i, _ATTACKS], s[i, _DEFENCES] = n, budget - n - s[i, _MOVES]
    return 1


def _player(placed: bool) -> Any:
    """:func:`play` compiled for battles in one melee, or on open ground (``placed``): each
    branch on ``placed`` pruned before numba types it (a free variable is a constant to
    numba, a bool argument is not: compiled for both, a first melee waited 78 s, not 33-37,
    on 2026-12-06), so that a battle compiles only what its kind plays."""

    def play(
        s: np.ndarray,
        figures: np.ndarray,
        melee: np.ndarray,
        targeting: np.ndarray,
        near: np.ndarray,
        ruled: np.ndarray,
        worth: np.ndarray,
        initiative: np.ndarray,
        tracks: np.ndarray,
        boxes: np.ndarray,
        fold: np.ndarray,
        rules: np.ndarray,
        pairs: np.ndarray,
        table: np.ndarray,
        bands: np.ndarray,
        members: np.ndarray,
        keys: np.ndarray,
        rolled: np.ndarray,
        mask: int,
        band_at: np.ndarray,
        active: np.ndarray,
        counts: np.ndarray,
        arm_state: np.ndarray,
        events: np.ndarray,
        effects: np.ndarray,
        places: np.ndarray,
        room: np.ndarray,
        shields: np.ndarray,
        morale: np.ndarray,
        levels: np.ndarray,
        crossed: np.ndarray,
        start: np.ndarray,
        morale_stream: np.ndarray,
        pos: np.ndarray,
        geo: np.ndarray,
        floats: np.ndarray,
        ints: np.ndarray,
        filing: np.ndarray,
        bounds: np.ndarray,
        counters: np.ndarray,
        rings: np.ndarray,
        moved: np.ndarray,
        movement: np.ndarray,
        first: int,
        last: int,
    ) -> int:
        """Play the battle's rounds from round ``first`` to its end or to round ``last``
        (round by round: :mod:`~.rounds`), whichever comes first: the last round played,
        or :data:`FULL` when ``events`` or ``tracks`` filled first (the caller plays it
        again with larger ones, its streams seeded again). ``near[i, j]``: where foe ``j``
        stands in the order fighter ``i`` targeting the nearest takes its foes
        (:func:`~.choosing._new_target`); ``ruled``, ``worth``: the rules of each
        ``RulesTargeting`` (:func:`~.tables.ruled_rows`). ``rules``
        (:func:`~.tables.rules_row`): crits drawn, their pool, scratch cap, overflow kept at
        Near Death, knockdown penalty, kill above 9, actions a round, a Called Location
        wounds the body too, the weapon arm's penalty by state (4), the most
        rounds, the most seconds, the round's seconds, ``engine.max_on_one``, initiative rolled,
        ``knockout_rounds`` (-1: unset), then the player characters' protections
        (``pc_death.max_three_levels``, ``no_near_death_unless_incap``, ``point_spend``), the
        level a morale check must reach (Fair), whether anyone checks morale. Band
        ``k``'s members are ``members[bands[k]:bands[k + 1]]``; ``keys`` each fighter's
        initiative key at a roll of 0, ``band_at`` the band of each key's low ``mask`` bits
        (:class:`~fadad_agents.engine.core.turns.TurnOrder`). ``places``: each defender's room
        this round (:func:`_admit`), ``room`` how many of a size fit round one of a size;
        ``shields``, for each defender, who stands on its shield side (a column a fighter), then
        this round's list of them (the round, how many, who: ``shields.shield_rank``);
        ``morale``, ``levels``: each fighter's morale and its policy's thresholds, ``crossed``
        the thresholds each band has crossed, ``start`` each side's fighters at the start, and
        the battle's ``morale_stream`` (:func:`~.morale.end_round`). Each array is
        borrowed for the call (:func:`~fadad_agents.agents.core.field.borrowed.borrowed`:
        no view of one outlives it), so that the views the round makes cost no count."""
        s, figures, melee, targeting = _b(s), _b(figures), _b(melee), _b(targeting)
        near, ruled, worth, initiative = _b(near), _b(ruled), _b(worth), _b(initiative)
        tracks, boxes, fold, rules, pairs = _b(tracks), _b(boxes), _b(fold), _b(rules), _b(pairs)
        table, bands, members, keys = _b(table), _b(bands), _b(members), _b(keys)
        rolled, band_at, active, counts = _b(rolled), _b(band_at), _b(active), _b(counts)
        arm_state, events, effects, places = _b(arm_state), _b(events), _b(effects), _b(places)
        room, shields, morale, levels = _b(room), _b(shields), _b(morale), _b(levels)
        crossed, start, morale_stream = _b(crossed), _b(start), _b(morale_stream)
        pos, geo, floats, ints, filing = _b(pos), _b(geo), _b(floats), _b(ints), _b(filing)
        bounds, counters, rings = _b(bounds), _b(counters), _b(rings)
        moved, movement = _b(moved), _b(movement)
        n = s.shape[0]
        held = np.full((n * max(rules[6], 1) + 2, 2), -1, dtype=np.int64)
        drawn = np.empty(bands.shape[0] - 1, dtype=np.int64)
        order = np.empty(n, dtype=np.int64)  # the round's fighters, turn by turn
        starts = np.empty(n + 1, dtype=np.int64)  # where each turn begins in order
        shared = np.zeros(n, dtype=np.bool_)  # whether each turn is bands tied
        rnd = first - 1
        while True:
            rnd += 1
            turns = _turns(s, bands, members, keys, rolled, mask, band_at, initiative, drawn,
                           order, starts, shared, rules[16] != 0)  # fmt: skip
            for j in range(starts[turns]):
                i = order[j]
                if s[i, _FIGHTING]:
                    done = _declare(i, s, active, counts, targeting, near, ruled, worth, start,
                                    tracks, rules, rnd, events, places, room, bands, placed, pos,
                                    geo, floats, ints, filing, bounds, counters)  # fmt: skip
                    if done != 1:
                        return FULL if done == 0 else done
            for k in range(turns):
                turn = order[starts[k] : starts[k + 1]]
                if placed:
                    done = turn_on_ground(
                        turn, shared[k], s, figures, melee, targeting, tracks, boxes, fold, rules,
                        pairs, rnd, events, effects, arm_state, held, active, counts, places, room,
                        bands, shields, pos, geo, floats, ints, filing, bounds, counters, rings,
                        moved, movement,
                    )  # fmt: skip
                elif shared[k]:
                    done = _together(turn, s, figures, melee, targeting, near, ruled, worth, start,
                                     tracks, boxes, fold, rules, pairs, table, rnd, events, effects,
                                     arm_state, held, active, counts, places, room, bands,
                                     shields)  # fmt: skip
                else:
                    done = 1
                    for i in turn:  # one band's members, one after another
                        if s[i, _FIGHTING]:
                            done = _act(
                                i, s, figures, melee, targeting, near, ruled, worth, start, tracks,
                                boxes, fold, rules, pairs, table, rnd, events, effects, arm_state,
                                held, active, counts, places, room, bands, shields,
                            )  # fmt: skip
                            if done != 1:
                                break
                if done != 1:
                    return FULL if done == 0 else done
            if rules[22] and not end_round(
                order[: starts[turns]], s, morale, levels, crossed, bands, members, active, counts,
                start, morale_stream, table, rules[21], rnd, events,
            ):  # fmt: skip
                return FULL
            if placed:
                taken_off(events, counters, floats, ints, filing)
            if (
                counts.min() == 0  # a side out ends it (more than two: melee._eligible)
                or rnd >= rules[12]  # or the rule
                or rnd * rules[14] >= rules[13]
                or rnd >= last
            ):
                return rnd

    play.__name__ = play.__qualname__ = "play_on_ground" if placed else "play"
    return njit(cache=True)(play)


play = _player(False)
play_on_ground = _player(True)


@njit(cache=True)
def _together(
    turn: np.ndarray,
    s: np.ndarray,
    figures: np.ndarray,
    melee: np.ndarray,
    targeting: np.ndarray,
    near: np.ndarray,
    ruled: np.ndarray,
    worth: np.ndarray,
    start: np.ndarray,
    tracks: np.ndarray,
    boxes: np.ndarray,
    fold: np.ndarray,
    rules: np.ndarray,
    pairs: np.ndarray,
    table: np.ndarray,
    rnd: int,
    events: np.ndarray,
    effects: np.ndarray,
    arm_state: np.ndarray,
    held: np.ndarray,
    active: np.ndarray,
    counts: np.ndarray,
    places: np.ndarray,
    room: np.ndarray,
    bands: np.ndarray,
    shields: np.ndarray,
) -> int:
    """A tied turn in one melee (``_play_together``): each member's wounds wait on its
    pending track, take-outs are held, to the turn's end (:func:`~.outcomes.settle`).
    False: an array is full. (On open ground, :func:`~.placed.turn_on_ground`.)"""
    begun = events[0, 0]
    for i in turn:
        s[i, _PENDING] = s[i, _TRACK]
    held[0, 0] = 0
    for i in turn:
        if s[i, _FIGHTING] and not _act(
            i, s, figures, melee, targeting, near, ruled, worth, start, tracks, boxes, fold,
            rules, pairs, table, rnd, events, effects, arm_state, held, active, counts, places,
            room, bands, shields,
        ):  # fmt: skip
            held[0, 0] = -1
            return 0
    settled = settle(turn, begun, s, tracks, rules, rnd, events, effects, arm_state, held,
                     active, counts)  # fmt: skip
    return 1 if settled else 0
