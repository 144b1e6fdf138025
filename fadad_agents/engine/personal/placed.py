"""A plain fighter's turn on open ground in the compiled plain melee (numba): its act as
:meth:`~fadad_agents.agents.core.character.Character.act` plays it where not all touch
(the move first, then each attack on a target its reach touches with a place round it,
another found where not), a new target as its policy takes it (:func:`foe_chosen`), a
band's turn or a tied turn, its movers moving first
(:func:`~fadad_agents.agents.core.moving.movers_first`). The field's questions are
:mod:`~.ground`'s; :mod:`~.kernel` plays the rounds.
"""

from __future__ import annotations

import math

import numpy as np

from fadad_agents.agents.core.field.caching import njit
from fadad_agents.engine.personal.choosing import _foes
from fadad_agents.engine.personal.ground import (
    _BEARING,
    _BONUS,
    _ROOMY,
    _X,
    _Y,
    GAVE_UP,
    advance,
    another_in_reach,
    nearest,
    random_foe,
    taken_off,
    touches,
)
from fadad_agents.engine.personal.outcomes import _absorb, _admit, _pay, settle
from fadad_agents.engine.personal.swing import (
    _ATTACKS,
    _BARE,
    _CHOOSES,
    _DUEL,
    _FIGHTING,
    _GAIT,
    _MOVES,
    _PENDING,
    _SHIELDED,
    _SIDE,
    _STEPPED,
    _TARGET,
    _TRACK,
    _UNCONSCIOUS,
    DUEL,
    NEAREST,
    _penalty,
    _swing,
)
from fadad_agents.engine.personal.twister import random
from fadad_agents.rules.core.dice import TABLE_4DF

__all__ = [
    "act_placed", "foe_chosen", "movers_first", "nearest_foe", "shield_rank", "turn_on_ground",
]  # fmt: skip

_TABLE = np.array(TABLE_4DF, dtype=np.int64)
"""The 4dF table (``rules.core.dice``), a constant of the compiled code (one argument fewer:
an act of 30 arguments or fewer is inlined where it is called)."""


@njit(cache=True, inline="always")
def act_placed(
    i: int,
    s: np.ndarray,
    figures: np.ndarray,
    melee: np.ndarray,
    targeting: np.ndarray,
    tracks: np.ndarray,
    boxes: np.ndarray,
    fold: np.ndarray,
    rules: np.ndarray,
    pairs: np.ndarray,
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
    pos: np.ndarray,
    geo: np.ndarray,
    floats: np.ndarray,
    ints: np.ndarray,
    filing: np.ndarray,
    bounds: np.ndarray,
    counters: np.ndarray,
    rings: np.ndarray,
    moved: np.ndarray,
) -> int:
    """``Character.act`` of plain fighter ``i`` on open ground: what a crit took since it
    declared paid, its move (unless it moved first in a tied turn, or its target is in
    reach and it planned none), then each planned attack: a new target drawn where its
    own fell (``random_foe_told``), another foe in reach with a place round it where its
    target stands beyond its reach or has none; none found after a draw that found none
    in reach, it stops. 1 done, 0 an array full, :data:`~.ground.GAVE_UP`."""
    if s[i, _UNCONSCIOUS]:  # Character.ready: not while unconscious
        return 1
    left = _pay(i, s[i, _ATTACKS], s, rnd, events)
    if left < 0:
        return 0
    s[i, _ATTACKS] = left
    t = s[i, _TARGET]
    if s[i, _STEPPED]:
        s[i, _STEPPED] = 0
    else:
        s[i, _GAIT] = 0
        if s[i, _MOVES] or t < 0 or not touches(i, t, pos, geo):
            done = advance(i, s, pos, geo, floats, ints, filing, bounds, counters, rings,
                           places, rnd, events, moved)  # fmt: skip
            if done != 1:
                return done
    left = s[i, _ATTACKS]
    while left:
        left -= 1
        t = s[i, _TARGET]
        in_reach = True
        if t < 0 or not s[t, _FIGHTING]:
            t, in_reach = foe_chosen(i, s, pos, geo, active, counts, floats, ints, filing,
                                     bounds, counters, targeting)  # fmt: skip
            if t == -2:
                return GAVE_UP
            s[i, _TARGET] = t
            if t < 0:
                return 1
        if not touches(i, t, pos, geo) or not (
            places[t, _ROOMY] or _admit(t, i, places, room, bands, rules, rnd)
        ):
            if not in_reach:  # none was a moment ago, and nobody moved since
                return 1
            t = another_in_reach(i, s, pos, geo, active, counts, floats, ints, filing, bounds,
                                 places, room, bands, rules, rnd, True)  # fmt: skip
            if t == -2:
                return GAVE_UP
            if t < 0:
                return 1
        rank = 1  # shields.shield_rank: the attacker's place on its target's shield side
        if s[t, _TARGET] != i and figures[t, s[t, _BARE], _SHIELDED]:
            rank = shield_rank(t, i, s, pos, shields, rnd)
        a_pen = _penalty(i, s, tracks, rules)  # strike's, at every blow
        gait = s[t, _GAIT]  # moving_target_bonus: jogging, running
        bonus = int(geo[_BONUS + gait - 2]) if gait >= 2 else 0
        e = _swing(i, t, a_pen, rank, bonus, s, figures, melee, tracks, boxes, fold, rules,
                   pairs, _TABLE, rnd, events, effects)  # fmt: skip
        if e < 0:
            return 0
        if not events[e, 10]:
            continue
        if not _absorb(t, e, s, tracks, boxes, fold, held, active, counts, rnd, events,
                       effects, arm_state, rules):  # fmt: skip
            return 0
        taken_off(events, counters, floats, ints, filing)
        if not s[i, _FIGHTING]:
            return 1
    return 1


@njit(cache=True, inline="always")
def foe_chosen(
    i: int,
    s: np.ndarray,
    pos: np.ndarray,
    geo: np.ndarray,
    active: np.ndarray,
    counts: np.ndarray,
    floats: np.ndarray,
    ints: np.ndarray,
    filing: np.ndarray,
    bounds: np.ndarray,
    counters: np.ndarray,
    targeting: np.ndarray,
) -> tuple[int, bool]:
    """A new target on open ground as fighter ``i``'s policy takes it, and whether a foe
    may be in reach: :func:`nearest_foe`'s (no draw: none was told out of reach), else
    ``random_foe_told``'s (:func:`~.ground.random_foe`). -1 none, -2 given up."""
    if s[i, _CHOOSES] == NEAREST or s[i, _CHOOSES] == DUEL:
        return nearest_foe(i, s, pos, geo, counts, floats, ints, filing, bounds, counters), True
    return random_foe(i, s, pos, geo, active, counts, floats, ints, filing, bounds, counters,
                      targeting)  # fmt: skip


@njit(cache=True, inline="always")
def nearest_foe(
    i: int,
    s: np.ndarray,
    pos: np.ndarray,
    geo: np.ndarray,
    counts: np.ndarray,
    floats: np.ndarray,
    ints: np.ndarray,
    filing: np.ndarray,
    bounds: np.ndarray,
    counters: np.ndarray,
) -> int:
    """The target of a fighter that takes its nearest foe, as its policy chooses it (no
    draw): ``NearestTargeting``'s (a target that fights kept, else ``Battle.nearest_foe``:
    every foe left stands on open ground, so one is found) or ``DuelTargeting``'s (its
    opponent while it fights, none once it is out; before it has one, the nearest,
    kept as its opponent). -1: none; -2 where none is found all the same (Python's own
    search)."""
    duel = s[i, _CHOOSES] == DUEL
    if duel and s[i, _DUEL] >= 0:
        opponent = s[i, _DUEL]
        return int(opponent) if s[opponent, _FIGHTING] else -1
    t = s[i, _TARGET]
    if t >= 0 and s[t, _FIGHTING]:
        return int(t)
    mine = s[i, _SIDE]
    if _foes(mine, counts) == 0:
        return -1
    near = nearest(pos[i, _X], pos[i, _Y], 1 - mine, geo, floats, ints, filing, bounds, counters,
                   -1)  # fmt: skip  # (no hint: its target, if any, is out of the fight)
    if near < 0:
        return -2
    if duel:
        s[i, _DUEL] = near
    return int(near)


@njit(cache=True, inline="always")
def shield_rank(
    t: int, i: int, s: np.ndarray, pos: np.ndarray, shields: np.ndarray, rnd: int
) -> int:
    """``shields.shield_rank`` of attacker ``i`` on defender ``t``, which carries a shield
    and faces another: 0 off the side it faces (``moving.shield_rank``, by its bearing),
    else its place among this round's attackers on that side (``shields[t]``: the round,
    how many, who), from 2 (from 1 for one facing nobody)."""
    bearing = pos[t, _BEARING]
    dx, dy = pos[i, _X] - pos[t, _X], pos[i, _Y] - pos[t, _Y]
    if not dx * math.cos(bearing) + dy * math.sin(bearing) >= 0:
        return 0
    row = shields[t]
    if row[0] != rnd:
        row[0], row[1] = rnd, 0
    first = 1 if s[t, _TARGET] < 0 else 2
    seen = int(row[1])
    for k in range(seen):
        if row[2 + k] == i:
            return k + first
    row[2 + seen] = i
    row[1] = seen + 1
    return seen + first


@njit(cache=True)
def movers_first(
    turn: np.ndarray,
    s: np.ndarray,
    pos: np.ndarray,
    geo: np.ndarray,
    floats: np.ndarray,
    ints: np.ndarray,
    filing: np.ndarray,
    bounds: np.ndarray,
    counters: np.ndarray,
    rings: np.ndarray,
    places: np.ndarray,
    rnd: int,
    events: np.ndarray,
    moved: np.ndarray,
    movement: np.ndarray,
) -> int:
    """``waiting.move_first`` of a tied turn: those who must move (planned movement
    actions, or a target beyond reach or none), in an order drawn on the battle's
    ``movement`` stream when two or more do (Fisher-Yates), each move before anyone
    strikes, then act without moving again. 1, 0 or :data:`~.ground.GAVE_UP` as
    :func:`~.ground.advance`."""
    movers = np.empty(len(turn), dtype=np.int64)
    count = 0
    for i in turn:
        t = s[i, _TARGET]
        if s[i, _FIGHTING] and (s[i, _MOVES] or t < 0 or not touches(i, t, pos, geo)):
            movers[count] = i
            count += 1
    if count > 1:
        for k in range(count - 1, 0, -1):
            j = int(random(movement) * (k + 1))
            movers[k], movers[j] = movers[j], movers[k]
    for k in range(count):
        s[movers[k], _GAIT] = 0
    for k in range(count):
        done = advance(movers[k], s, pos, geo, floats, ints, filing, bounds, counters, rings,
                       places, rnd, events, moved)  # fmt: skip
        if done != 1:
            return done
    for k in range(count):
        s[movers[k], _STEPPED] = 1
    return 1


@njit(cache=True)
def turn_on_ground(
    turn: np.ndarray,
    tied: bool,
    s: np.ndarray,
    figures: np.ndarray,
    melee: np.ndarray,
    targeting: np.ndarray,
    tracks: np.ndarray,
    boxes: np.ndarray,
    fold: np.ndarray,
    rules: np.ndarray,
    pairs: np.ndarray,
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
) -> int:
    """A turn on open ground: a band's fighters acting one after another, or a tied turn
    (``tied``: ``_play_together``), its movers moving first (:func:`movers_first`), each
    member's wounds waiting on its pending track and take-outs held to the turn's end
    (:func:`~.outcomes.settle`). Every turn of a battle on open ground is played here, so
    that the act, inlined, is compiled once (twice, it took 23 s more: 2026-12-06). 1
    done, 0 an array full, :data:`~.ground.GAVE_UP`."""
    begun = 0
    if tied:
        done = movers_first(turn, s, pos, geo, floats, ints, filing, bounds, counters, rings,
                            places, rnd, events, moved, movement)  # fmt: skip
        if done != 1:
            return done
        begun = events[0, 0]
        for i in turn:
            s[i, _PENDING] = s[i, _TRACK]
        held[0, 0] = 0
    for i in turn:
        if s[i, _FIGHTING]:
            done = act_placed(
                i, s, figures, melee, targeting, tracks, boxes, fold, rules, pairs, rnd, events,
                effects, arm_state, held, active, counts, places, room, bands, shields, pos, geo,
                floats, ints, filing, bounds, counters, rings, moved,
            )  # fmt: skip
            if done != 1:
                held[0, 0] = -1
                return done
    if not tied:
        return 1
    if not settle(turn, begun, s, tracks, rules, rnd, events, effects, arm_state, held, active,
                  counts):  # fmt: skip
        return 0
    taken_off(events, counters, floats, ints, filing)
    return 1
