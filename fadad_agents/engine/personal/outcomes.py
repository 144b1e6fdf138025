"""What a blow leaves in the compiled plain melee (numba), and who may strike whom: an Ité
point spent, a take-out off its side's live list, a crit's conditions and their paying
off, a place round a defender (``room.admit``), a tied turn's held wounds and take-outs
settled. :mod:`~.choosing` draws new targets, :mod:`~.kernel` plays the rounds.
"""

from __future__ import annotations

import numpy as np

from fadad_agents.agents.core.field.caching import njit
from fadad_agents.engine.personal.choosing import _foe, _foes
from fadad_agents.engine.personal.swing import (
    _ARM,
    _ATTACKS,
    _BARE,
    _CALLED,
    _CONDITIONS,
    _DEFENCES,
    _DISARM,
    _DISARMED,
    _FIGHTING,
    _ITE,
    _KNOCKDOWN,
    _KNOCKOUT,
    _PENDING,
    _PLAYER,
    _PRONE,
    _SIDE,
    _SLOT,
    _SPENDS,
    _STAGGER,
    _STAGGERED,
    _TARGET,
    _TRACK,
    _UNCONSCIOUS,
    ITE,
    KNOCKED_OUT,
    NEVER,
    ON_DEAD,
    OUT,
    RECOVER,
    SUFFER,
    SWING,
    _event,
    _level_of,
    _most,
    _record,
)

__all__ = ["off_the_field", "settle"]


@njit(cache=True)
def _pay(i: int, actions: int, s: np.ndarray, rnd: int, events: np.ndarray) -> int:
    """``Conditions.pay``: up to ``actions`` spent rising, picking up, on staggers, each
    logged; the actions left (-1 when ``events`` is full)."""
    while actions and (s[i, _PRONE] or s[i, _DISARMED] or s[i, _STAGGERED]):
        actions -= 1
        e = _event(events, RECOVER, rnd, i)
        if e < 0:
            return -1
        if s[i, _PRONE]:
            s[i, _PRONE] = 0
            events[e, 3] = 0
        elif s[i, _DISARMED]:
            s[i, _DISARMED] = 0
            s[i, _BARE] = 0
            events[e, 3] = 1
        else:
            s[i, _STAGGERED] -= 1
            events[e, 3] = 2
    return actions


@njit(cache=True)
def _spend_ite(
    t: int,
    e: int,
    s: np.ndarray,
    tracks: np.ndarray,
    boxes: np.ndarray,
    fold: np.ndarray,
    rules: np.ndarray,
    rnd: int,
    events: np.ndarray,
    effects: np.ndarray,
) -> int:
    """``blows.land``'s Ité point: swing ``e``'s hit would leave player character ``t``
    Near Death or Dead; with a point left, ``pc_death.point_spend`` on, the blow on its
    body (not a Called Location's alone) and its policy willing, it spends one and takes
    the wound on the track it was struck on as Incapacitated at worst, logged. The track
    version it keeps (-1: an array is full)."""
    landed = events[e, 16]
    blow = _level_of(tracks, landed)
    if blow < 5 or not s[t, _ITE] or not rules[20]:
        return int(landed)
    if not rules[7]:  # conditions.spares_the_body: a Called Location takes the blow
        for k in range(events[e, 20]):
            if effects[e, k] == _CALLED:
                return int(landed)
    spends = s[t, _SPENDS]
    if spends == NEVER or (spends == ON_DEAD and blow < 6):
        return int(landed)
    s[t, _ITE] -= 1
    track = s[t, _PENDING] if s[t, _PENDING] >= 0 else s[t, _TRACK]  # as it was struck
    most = _most(t, track, True, s, tracks, rules)
    saved = _record(track, events[e, 15], tracks, boxes, fold, rules, most)
    x = _event(events, ITE, rnd, t)
    if saved < 0 or x < 0:
        return -1
    events[x, 3] = _level_of(tracks, saved)
    events[x, 4], events[x, 5] = blow, s[t, _ITE]
    return int(saved)


@njit(cache=True, inline="always")
def off_the_field(t: int, s: np.ndarray, active: np.ndarray, counts: np.ndarray) -> None:
    """``Battle._deactivate``: ``t`` off its side's live list (the last put in its slot),
    out of the fight, its target dropped."""
    side = s[t, _SIDE]
    slot = s[t, _SLOT]
    counts[side] -= 1
    last = active[side, counts[side]]
    if last != t:
        active[side, slot] = last
        s[last, _SLOT] = slot
    s[t, _FIGHTING] = 0
    s[t, _TARGET] = -1


@njit(cache=True)
def _take_out(
    t: int,
    level: int,
    s: np.ndarray,
    active: np.ndarray,
    counts: np.ndarray,
    rnd: int,
    events: np.ndarray,
) -> bool:
    """``Battle.take_out``: off its side's live list (the last put in its slot), logged
    with the wound ``level`` that took it out. False when ``events`` is full."""
    if not s[t, _FIGHTING]:
        return True
    off_the_field(t, s, active, counts)
    e = _event(events, OUT, rnd, t)
    if e < 0:
        return False
    events[e, 3] = level
    return True


@njit(cache=True)
def _suffer(
    t: int,
    e: int,
    s: np.ndarray,
    rnd: int,
    events: np.ndarray,
    effects: np.ndarray,
    arm_state: np.ndarray,
    held: np.ndarray,
    active: np.ndarray,
    counts: np.ndarray,
    rules: np.ndarray,
) -> bool:
    """``conditions.suffer``: swing ``e``'s crit effects on fighter ``t``, each logged.
    False when an array is full."""
    for k in range(events[e, 20]):
        if not s[t, _FIGHTING]:
            return True
        face = effects[e, k]
        if face == _DISARM and s[t, _BARE]:
            continue
        if face == _KNOCKOUT:  # aims.knock_out
            if rules[17] < 0:  # knockout_rounds unset: out of the fight for its rest
                if not _out(t, KNOCKED_OUT, s, held, active, counts, rnd, events):
                    return False
                continue
            s[t, _CONDITIONS] = 1
            s[t, _UNCONSCIOUS] = rules[17]
            s[t, _ATTACKS] = s[t, _DEFENCES] = 0
            x = _event(events, SUFFER, rnd, t)
            if x < 0:
                return False
            events[x, 3], events[x, 4] = face, rules[17]
            continue
        if face == _KNOCKDOWN:
            s[t, _PRONE] = 1
        elif face == _DISARM:
            s[t, _DISARMED] = 1
            s[t, _BARE] = 1
        elif face == _STAGGER:
            s[t, _STAGGERED] += 1
        elif face != _CALLED:
            continue
        s[t, _CONDITIONS] = 1  # conditions_now(): made on the first that lands
        x = _event(events, SUFFER, rnd, t)
        if x < 0:
            return False
        events[x, 3] = face
        if face == _CALLED:  # aims.part_state and hurt_part of the weapon arm
            rows, cols = arm_state.shape
            damage = min(max(events[e, 13] + 1, 0), rows - 1)  # below 0: the first row
            state = arm_state[damage, min(events[e, 9], cols - 1)]
            if state < s[t, _ARM]:
                state = s[t, _ARM]
            events[x, 4] = state
            if state != s[t, _ARM] and state != 0:
                s[t, _ARM] = state
                if state == 3:
                    s[t, _BARE] = 1
                    s[t, _DISARMED] = 0
    return True


@njit(cache=True)
def _wounded(
    t: int,
    v: int,
    s: np.ndarray,
    tracks: np.ndarray,
    held: np.ndarray,
    active: np.ndarray,
    counts: np.ndarray,
    rnd: int,
    events: np.ndarray,
) -> bool:
    """``Character._wounded``: track version ``v`` is ``t``'s now; out of the fight at
    Incapacitated or worse, at once or, in a tied turn (``held[0, 0]`` >= 0), at its end
    (``held``'s rows: the fighter and the level it fell at). False: an array is full."""
    s[t, _TRACK] = v
    level = _level_of(tracks, v)
    if level < 4 or not s[t, _FIGHTING]:
        return True
    return _out(t, level, s, held, active, counts, rnd, events)


@njit(cache=True)
def _out(
    t: int,
    why: int,
    s: np.ndarray,
    held: np.ndarray,
    active: np.ndarray,
    counts: np.ndarray,
    rnd: int,
    events: np.ndarray,
) -> bool:
    """``Battle.take_out`` of ``t`` for ``why`` (a wound level, or :data:`~.swing.
    KNOCKED_OUT`): at once or, in a tied turn (``held[0, 0]`` >= 0), at its end (``held``'s
    rows: the fighter and why). False: an array is full."""
    if held[0, 0] >= 0:
        n = held[0, 0] + 1
        if n >= held.shape[0]:
            return False
        held[0, 0] = n
        held[n, 0], held[n, 1] = t, why
        return True
    return _take_out(t, why, s, active, counts, rnd, events)


# a defender's places, a row of ``places``: whether it is never crowded, its size (a row
# and column of ``room``), its band, the round its places count, how many are taken, and
# who took them
_ROOMY, _SIZE, _BAND, _ROUND, _TAKEN = 0, 1, 2, 3, 4


@njit(cache=True)
def _place(
    t: int,
    i: int,
    places: np.ndarray,
    room: np.ndarray,
    bands: np.ndarray,
    rules: np.ndarray,
    rnd: int,
) -> int:
    """``room.has_room``'s answer for ``i`` round ``t`` this round, and why: 0 no place
    left (at most ``room`` of its size, at most ``engine.max_on_one`` of one band of
    several); 1 it holds one; 2 none is taken yet this round (the first always finds
    one); 3 one is free to take."""
    row = places[t]
    if row[_ROUND] != rnd:
        return 2
    taken = row[_TAKEN]
    for k in range(taken):
        if row[_TAKEN + 1 + k] == i:
            return 1
    if taken >= room[row[_SIZE], places[i, _SIZE]]:
        return 0
    band = places[i, _BAND]
    if bands[band + 1] - bands[band] > 1:
        same = 0
        for k in range(taken):
            same += places[row[_TAKEN + 1 + k], _BAND] == band
        if same >= rules[15]:
            return 0
    return 3


@njit(cache=True)
def _has_room(
    t: int,
    i: int,
    places: np.ndarray,
    room: np.ndarray,
    bands: np.ndarray,
    rules: np.ndarray,
    rnd: int,
) -> bool:
    """``room.has_room``: whether ``i`` holds or can take a place round ``t`` this round
    (:func:`_place`)."""
    return _place(t, i, places, room, bands, rules, rnd) != 0


@njit(cache=True)
def _admit(
    t: int,
    i: int,
    places: np.ndarray,
    room: np.ndarray,
    bands: np.ndarray,
    rules: np.ndarray,
    rnd: int,
) -> bool:
    """``room.admit``: whether ``i`` may strike ``t`` this round (:func:`_place`), taking a
    place round it if it has none yet."""
    found = _place(t, i, places, room, bands, rules, rnd)
    row = places[t]
    if found == 2:
        row[_ROUND], row[_TAKEN], row[_TAKEN + 1] = rnd, 1, i
    elif found == 3:
        taken = row[_TAKEN]
        row[_TAKEN + 1 + taken] = i
        row[_TAKEN] = taken + 1
    return found != 0


@njit(cache=True)
def _another(
    i: int,
    s: np.ndarray,
    active: np.ndarray,
    counts: np.ndarray,
    places: np.ndarray,
    room: np.ndarray,
    bands: np.ndarray,
    rules: np.ndarray,
    rnd: int,
) -> int:
    """``room.another_in_reach``: the first foe in the live lists that admits ``i``, now its
    target (-1: none)."""
    side = s[i, _SIDE]
    for k in range(_foes(side, counts)):
        foe = _foe(side, k, active, counts)
        if places[foe, _ROOMY] or _admit(foe, i, places, room, bands, rules, rnd):
            s[i, _TARGET] = foe
            return int(foe)
    return -1


@njit(cache=True)
def _shield_rank(t: int, i: int, s: np.ndarray, shields: np.ndarray, rnd: int) -> int:
    """``shields.shield_rank`` of attacker ``i`` on defender ``t``, which carries a shield
    and faces another: 0 off the side its shield faces (``shields[t, i]``), else its place
    among this round's attackers on that side, from 2 (from 1 for one facing nobody)."""
    n = s.shape[0]
    if not shields[t, i]:
        return 0
    row = shields[t]
    if row[n] != rnd:
        row[n], row[n + 1] = rnd, 0
    first = 1 if s[t, _TARGET] < 0 else 2
    seen = int(row[n + 1])
    for k in range(seen):
        if row[n + 2 + k] == i:
            return k + first
    row[n + 2 + seen] = i
    row[n + 1] = seen + 1
    return seen + first


@njit(cache=True)
def _absorb(
    t: int,
    e: int,
    s: np.ndarray,
    tracks: np.ndarray,
    boxes: np.ndarray,
    fold: np.ndarray,
    held: np.ndarray,
    active: np.ndarray,
    counts: np.ndarray,
    rnd: int,
    events: np.ndarray,
    effects: np.ndarray,
    arm_state: np.ndarray,
    rules: np.ndarray,
) -> bool:
    """A hit (swing ``e``) lands on ``t``: ``_act``'s landing (``blows.land``: a player
    character may spend an Ité point first) and ``Character.absorb``, a tied turn's
    member's wound held on its pending track. False: an array is full."""
    v = events[e, 16]
    if s[t, _PLAYER]:
        v = _spend_ite(t, e, s, tracks, boxes, fold, rules, rnd, events, effects)
        if v < 0:
            return False
    if events[e, 20] == 0:
        if s[t, _PENDING] >= 0:
            s[t, _PENDING] = v
            return True
        return _wounded(t, v, s, tracks, held, active, counts, rnd, events)
    if not rules[7]:  # a Called Location spares the body (location.also_general_wound off)
        for k in range(events[e, 20]):
            if effects[e, k] == _CALLED:
                v = s[t, _PENDING] if s[t, _PENDING] >= 0 else s[t, _TRACK]
                break
    if s[t, _PENDING] >= 0:  # its crits wait for the turn's end too (pending_crits)
        s[t, _PENDING] = v
        return True
    if not _wounded(t, v, s, tracks, held, active, counts, rnd, events):
        return False
    return _suffer(t, e, s, rnd, events, effects, arm_state, held, active, counts, rules)


@njit(cache=True)
def settle(
    turn: np.ndarray,
    begun: int,
    s: np.ndarray,
    tracks: np.ndarray,
    rules: np.ndarray,
    rnd: int,
    events: np.ndarray,
    effects: np.ndarray,
    arm_state: np.ndarray,
    held: np.ndarray,
    active: np.ndarray,
    counts: np.ndarray,
) -> bool:
    """The end of a tied turn (``_play_together``) whose members have acted, their wounds
    waiting on each one's pending track and take-outs held since event ``begun``: each
    member's wounds apply, then its crits in the order they came, then the held take-outs,
    in order. False: an array is full."""
    count = held[0, 0]
    held[0, 0] = -1
    ended = events[0, 0]
    hits = np.empty(ended - begun, dtype=np.int64)  # the turn's hits with crits, in order
    many = 0
    for e in range(begun, ended):
        if events[e, 0] == SWING and events[e, 10] and events[e, 20]:
            hits[many] = e
            many += 1
    hits = hits[:many]
    # by whom each struck, in the order they came (stable): a member's found by halving,
    # not by reading every crit of the turn (tied bands of thousands: members x crits)
    struck = np.empty(many, dtype=np.int64)
    for k in range(many):
        struck[k] = events[hits[k], 3]
    by_whom = np.argsort(struck, kind="mergesort")
    struck = struck[by_whom]
    for i in turn:
        pending = s[i, _PENDING]
        s[i, _PENDING] = -1
        if pending != s[i, _TRACK] and not _wounded(i, pending, s, tracks, held, active,
                                                    counts, rnd, events):  # fmt: skip
            return False
        k = np.searchsorted(struck, i)
        while k < many and struck[k] == i:  # its crits, in the order they came
            e = hits[by_whom[k]]
            if not _suffer(i, e, s, rnd, events, effects, arm_state, held, active, counts, rules):
                return False
            k += 1
    for h in range(1, count + 1):
        if not _take_out(held[h, 0], held[h, 1], s, active, counts, rnd, events):
            return False
    return True
