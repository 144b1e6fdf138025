"""One swing of the compiled plain melee (numba): ``resolve_attack`` without table dice
(its Target and shield modifier by the pair, a table ``exchange`` fills), its dice drawn
from the attacker's own stream (:mod:`~.twister`), and the wound track it leaves, within a
player character's protections (``pc_death``): either target mode, every wound model, with
weapon groups or without (a FUDGE model's damage, and groups', in :mod:`~.damage`).

A fighter is a row of integers (its state, :data:`STATE_COLUMNS`; its figures armed and
bare), a wound track a version in a table of them (its parent, the wound recorded on it,
whose it is, dead, the boxes filled: :func:`_record` is ``wounds.record``), a swing a row
of the battle's events (:func:`_swing`). :mod:`~.kernel` plays the rounds.
"""

from __future__ import annotations

import numpy as np

from fadad_agents.agents.core.field.caching import njit
from fadad_agents.engine.personal.codes import DAMAGE, FADAD, GATE, GROUPS, HALVE, PIERCE_RD, SIZES
from fadad_agents.engine.personal.damage import dice_kind, hit, roll
from fadad_agents.engine.personal.twister import random, roll_4df, seed_block
from fadad_agents.rules.personal.criticals import CRIT_EFFECTS

__all__ = [
    "DUEL", "EVENT_COLUMNS", "FIGURES", "FIRST", "FULL", "ITE", "KNOCKED_OUT", "NEAREST",
    "NEVER", "ON_DEAD", "ON_DEATHLY", "OUT", "RANDOM", "RECOVER", "RULES", "STATE_COLUMNS",
    "STAY_BACK", "STICKY", "STRONGEST", "SUFFER", "SWING", "TRACK_COLUMNS", "WEAKEST",
]  # fmt: skip

KNOCKED_OUT = 7
"""A take-out's row: taken out knocked out, not by a wound level (0 to 6)."""


SWING, OUT, SUFFER, RECOVER, ITE = 1, 2, 3, 4, 5
"""Event kinds: a swing (attack), a take-out, a crit's effect, a recovery, an Ité point
spent."""

NEVER, ON_DEATHLY, ON_DEAD = 0, 1, 2
"""When a player character spends an Ité point (``_SPENDS``): never (``keep``), on a blow
that would leave it Near Death or Dead (``save_from_death``), on one that would kill
(``save_from_death_only``)."""

RANDOM, FIRST, NEAREST, WEAKEST, STRONGEST, DUEL, STAY_BACK, RULES = 0, 1, 2, 3, 4, 5, 6, 7
"""How a fighter takes a new target (``_CHOOSES``): a random foe (``random_foe`` where all
touch), the first of the other side's live list (``FixedTargeting``), its nearest
(``NearestTargeting``), the most or least wounded of those it weighs up
(``WeakestTargeting``, ``StrongestTargeting``), its nearest once and then no other
(``DuelTargeting``), none (``StayBack``), as its first rule that holds says
(``RulesTargeting``)."""
STICKY = 8
"""A rule's choice (``RulesTargeting``'s ``sticky``, and its choice when no rule holds):
the current target while it fights, else a random foe."""

EVENT_COLUMNS = 25
"""Integers an event: kind, round, actor, then the kind's own (see :func:`_swing`)."""

TRACK_COLUMNS = 10
"""Integers a wound track version: parent, wound, owner, dead, five boxes filled, the worst
level the blow could leave (:func:`_record`)."""

FULL = -1
""":func:`play`'s answer when its event or track arrays filled before the battle ended."""

NONE = -99
"""An undefended swing's defence dice, a miss's damage die."""

# crit effects by their d8 face (rules.personal.criticals)
_WEAK_SPOT, _VITALS, _KNOCKOUT, _EXTRA = 1, 2, 3, 4
_DISARM, _KNOCKDOWN, _STAGGER, _CALLED = 5, 6, 7, 8
_REPEATS = np.array([False, *(effect.repeatable for effect in CRIT_EFFECTS)])
"""Whether an effect may be drawn twice for one hit, by its d8 face (``CritEffect``)."""
_PENALTY = np.array([0, 0, -1, -2, -2, -2, -2], dtype=np.int64)  # by wound level


@njit(cache=True)
def _level(filled: np.ndarray, dead: bool) -> int:
    """A track's wound level (``wounds._level``)."""
    if dead:
        return 6
    for level in (5, 4, 3, 2):
        if filled[level - 1]:
            return level
    return 1 if filled[0] else 0


@njit(cache=True, inline="always")
def _level_of(tracks: np.ndarray, v: int) -> int:
    """The wound level of track version ``v``."""
    return _level(tracks[v, 4:9], tracks[v, 3] != 0)


@njit(cache=True)
def _record(
    v: int,
    wound: int,
    tracks: np.ndarray,
    boxes: np.ndarray,
    fold: np.ndarray,
    rules: np.ndarray,
    most: int,
) -> int:
    """``wounds.record`` of ``wound`` on track version ``v``, leaving it at level ``most``
    at worst (its ``max_level``: 6 but for a player character's protections): the version
    it leaves (``v`` itself when nothing lands), a new one written in ``tracks`` (row:
    parent, wound, owner, dead, five boxes filled, ``most``; ``tracks[0, 0]`` counts the
    rows used), or -1 when ``tracks`` is full."""
    if wound <= 0 or tracks[v, 3]:
        return v
    owner = tracks[v, 2]
    start = fold[owner, min(wound, 6)]
    if start == 0:
        return v
    filled = tracks[v, 4:9]
    lvl = 6
    if start < 6:
        lvl = start
        while lvl <= 5 and filled[lvl - 1] >= boxes[owner, lvl - 1]:
            lvl += 1
    if lvl == 6 and start < 6 and rules[3]:  # overflow past Near Death: stay there
        return v
    cap = most
    if rules[2] and wound == 1 and cap > 3:  # scratch_cap
        cap = 3
    if lvl > cap:
        if 1 <= cap <= 5 and filled[cap - 1] < boxes[owner, cap - 1]:
            lvl = cap
        else:
            return v
    n = tracks[0, 0]
    if n >= tracks.shape[0]:
        return -1
    tracks[0, 0] = n + 1
    tracks[n, 0], tracks[n, 1], tracks[n, 2] = v, wound, owner
    tracks[n, 3] = lvl == 6
    tracks[n, 4:9] = filled
    tracks[n, 9] = most
    if lvl < 6:
        tracks[n, 3 + lvl] += 1
    return int(n)


@njit(cache=True, inline="always")
def _most(t: int, v: int, spent: bool, s: np.ndarray, tracks: np.ndarray, rules: np.ndarray) -> int:
    """The worst level a blow may leave player character ``t``'s track version ``v`` at
    (``wounds.pc_death_cap``), its Ité point ``spent`` or not (anyone else's: 6, Dead)."""
    level = _level_of(tracks, v)
    cap = 6
    if rules[18]:  # pc_death.max_three_levels
        cap = min(cap, level + 3)
    if rules[19] or spent:  # pc_death.no_near_death_unless_incap (never begun so), a point
        cap = min(cap, max(4, level))
    return cap


@njit(cache=True)
def _event(events: np.ndarray, kind: int, rnd: int, actor: int) -> int:
    """A new event row (its index; -1 when ``events`` is full); ``events[0, 0]`` counts the
    rows used."""
    n = events[0, 0]
    if n >= events.shape[0]:
        return -1
    events[0, 0] = n + 1
    events[n, 0], events[n, 1], events[n, 2] = kind, rnd, actor
    return int(n)


@njit(cache=True)
def _penalty(i: int, s: np.ndarray, tracks: np.ndarray, rules: np.ndarray) -> int:
    """Fighter ``i``'s penalty to every roll (``Character.penalty``): its body track's,
    prone (``fadad.knockdown_penalty``), its weapon arm's state."""
    v = s[i, _TRACK]
    pen = _PENALTY[_level_of(tracks, v)]
    if s[i, _PRONE]:
        pen -= rules[4]
    return int(pen + rules[8 + s[i, _ARM]])


# a fighter's state, a row of ``state`` (int64)
_SIDE, _TARGET, _ATTACKS, _DEFENCES, _FIGHTING, _TRACK, _PENDING = 0, 1, 2, 3, 4, 5, 6
_PRONE, _DISARMED, _STAGGERED, _ARM, _BARE, _KEEPS, _COUNT, _SLOT = 7, 8, 9, 10, 11, 12, 13, 14
_CONDITIONS = 15  # its Conditions made (by a crit) and not yet cleared (at a declare)
_UNCONSCIOUS = 16  # rounds still to lie unconscious (a Knockout with knockout_rounds)
_PLAYER, _ITE, _SPENDS = 17, 18, 19  # a player character, its Ité points, when it spends
_CHOOSES = 20  # how it takes a new target: RANDOM, FIRST, NEAREST, WEAKEST or STRONGEST
_REACH = 21  # how many foes it weighs up for the most or least wounded (its policy's reach)
_DUEL = 22  # the foe it fights a duel with, once chosen (DuelTargeting's memory; -1: none)
_RULES = 23  # its RulesTargeting's rules (their row in tables.ruled_rows'; -1: none)
# on open ground (engine.personal.ground): its movement actions, the attacks it wanted
# (memory["attacks_wanted"]), its gait (0 none, 1 walk, 2 jog, 3 run), whether it moved
# first in a tied turn, the most actions its CloseIn spends moving
_MOVES, _WANTED, _GAIT, _STEPPED, _MOST = 24, 25, 26, 27, 28
# its stream's key (six words, then how many are used), seeded as its block first draws
_KEY = 29
STATE_COLUMNS = 36

# a fighter's figures, ``figures[i, armed or bare]``: attack, defence, odm, ddm, scale
_ATTACK, _DEFENCE, _ODM, _DDM, _SCALE, _ARMOUR, _KIND, _SHIELDED = 0, 1, 2, 3, 4, 5, 6, 7
_GROUP, _ARMOUR_GROUP, _PIERCE, _MASS, _SIZE = 8, 9, 10, 11, 12
FIGURES = 13
"""Figures a fighter's row holds, armed and bare: attack, defence, ODM, DDM, Scale, the
armour in its DDM (a Weak Spot ignores it), its kind for the pairs' Target and shield
modifier (its Scale, shield and shield cap), whether it carries a shield, its weapon's
group and its armour's (Anna's ``fudge.weapon_groups``; -1: a weapon of no group), how
its weapon pierces Scale (``codes.PIERCING``), its Mass Scale (what a piercing weapon
halves or ignores) and its weapon and shield size (``fadad.weapon_size_comparison``)."""


@njit(cache=True)
def _swing(
    i: int,
    t: int,
    a_pen: int,
    rank: int,
    target_bonus: int,
    s: np.ndarray,
    figures: np.ndarray,
    melee: np.ndarray,
    tracks: np.ndarray,
    boxes: np.ndarray,
    fold: np.ndarray,
    rules: np.ndarray,
    pairs: np.ndarray,
    table: np.ndarray,
    rnd: int,
    events: np.ndarray,
    effects: np.ndarray,
) -> int:
    """Fighter ``i`` swings at ``t``, on the ``rank`` of ``t``'s shield side (1 where its
    shield makes no difference), ``target_bonus`` added to its Target (it moves fast), as
    ``resolve_attack`` resolves it (its dice from ``i``'s own stream, ``melee[i]``), logged
    as an event row: kind, round, attacker, then target, attack dice, defence dice
    (:data:`NONE` undefended), attack and defence rolled, the Target, RD, hit, crits,
    damage number, first damage die (:data:`NONE` on a miss or none rolled), wound, the
    track version the blow leaves, both penalties, defended, effects drawn (their faces in
    ``effects``' row), damage dice rolled (0, 1 or 3 for a FUDGE model's 3d6) and a FUDGE
    model's dice. The row's index (-1: an array full)."""
    stream = melee[i]
    if stream[624] == 0:  # not seeded yet: its block now (twister.seed_block)
        seed_block(melee, s[:, _KEY:], i)
    defended = s[t, _DEFENCES] > 0
    if defended:
        s[t, _DEFENCES] -= 1
    d_pen = _penalty(t, s, tracks, rules)
    track = s[t, _PENDING] if s[t, _PENDING] >= 0 else s[t, _TRACK]
    mine, theirs = figures[i, s[i, _BARE]], figures[t, s[t, _BARE]]
    attack = roll_4df(stream, table)
    defence = roll_4df(stream, table) if defended else NONE
    pair = pairs[mine[_KIND], theirs[_KIND], min(rank, pairs.shape[2] - 1)]
    target = pair[0] + target_bonus  # exchange: the Target by Scales and shield, the
    # shield's modifier
    modifier = pair[1] + a_pen
    if rules[SIZES]:  # size_comparison_modifier both ways: -1 to the one outsized by 2+
        if theirs[_SIZE] - mine[_SIZE] >= 2:
            modifier -= 1
        elif mine[_SIZE] - theirs[_SIZE] >= 2:
            d_pen -= 1
    a_rolled = mine[_ATTACK] + modifier + attack
    d_rolled = NONE
    gate = rules[GATE] != 0  # target_gate_gte (else effective opposition): exchange's hit
    if defended:
        d_rolled = theirs[_DEFENCE] + d_pen + defence
        if gate:
            rd = a_rolled - d_rolled
            struck = rd >= 1 and a_rolled >= target
        else:
            rd = a_rolled - (d_rolled if d_rolled > target else target)
            struck = rd >= 1
    else:
        rd = a_rolled - target
        struck = rd >= 1 or (gate and rd >= 0)
    e = _event(events, SWING, rnd, i)
    if e < 0:
        return -1
    row = events[e]
    row[3], row[4], row[5], row[6], row[7], row[8], row[9] = (
        t, attack, defence, a_rolled, d_rolled, target, rd,
    )  # fmt: skip
    row[17], row[18], row[19], row[20], row[21] = a_pen, d_pen, defended, 0, 0
    row[16] = track
    if not struck:
        row[10], row[11], row[12], row[13], row[14], row[15] = 0, 0, 0, 0, NONE, 0
        return e
    crits = rd // 4 if rd >= 4 else 0
    if attack == 4 and crits < 1 and rd > 0:
        crits = 1
    bonus = vitals = 0
    factor = mine[_ODM] - theirs[_DDM]
    mass = theirs[_MASS]
    if mine[_PIERCE] and rd >= rules[PIERCE_RD] and mass > 0:  # _factor's pierced Scale
        factor += mass - (mass // 2 if mine[_PIERCE] == HALVE else 0)
    plain_factor = factor
    if crits and rules[0]:  # roll_crits: one face a crit, a non-repeatable never twice
        pool = rules[1]  # 8 faces, or the 5 non-lethal ones (4 to 8)
        first = 9 - pool
        for k in range(crits):
            left = 0
            for face in range(first, 9):
                if _REPEATS[face] or not _taken(effects[e], k, face):
                    left += 1
            pick = int(random(stream) * left)
            for face in range(first, 9):
                if _REPEATS[face] or not _taken(effects[e], k, face):
                    if pick == 0:
                        effects[e, k] = face
                        if face == _EXTRA:
                            bonus += 2
                        elif face == _VITALS:
                            vitals += 1
                        elif face == _WEAK_SPOT:  # the armour left out of the DDM
                            factor += theirs[_ARMOUR]
                        break
                    pick -= 1
        row[20] = crits
    if rules[DAMAGE] == FADAD and not rules[GROUPS]:  # the FADAD hit (wound_from_dice's)
        die = roll_4df(stream, table)
        row[21] = 1
        base = rd + factor
        number = base + die
        if base < 0 and number > 1:
            number = 1
        if number < 0:
            number = 0
        if bonus:  # wound_from_dice with Extra Damage: read again, with kill_above_9
            if number > 0:
                number += bonus
            wound = 6 if rules[5] and number > 9 else _wound_for(number)
        else:
            wound = _wound_for(number)
    else:  # a FUDGE model or groups: the dice chosen by the factor before a Weak Spot
        dice = row[22:25]
        advantage = mine[_SCALE] - theirs[_SCALE]
        kind = dice_kind(rules, rd, plain_factor, advantage)
        rolled = row[21] = roll(kind, stream, table, dice)
        die = dice[0] if rolled else NONE
        odd = defence if defended else 1  # parity reads an undefended swing's as odd
        # a Weak Spot leaves the armour's group out too, but a hit with crits does full
        # damage whatever the groups: the armour's group read as it is
        wound, number = hit(
            rules, rd, factor, advantage, dice, rolled, attack, odd, bonus, mine[_GROUP],
            theirs[_ARMOUR_GROUP], crits > 0,
        )  # fmt: skip
    most = _most(t, track, False, s, tracks, rules) if s[t, _PLAYER] else 6
    landed = _record(track, wound, tracks, boxes, fold, rules, most)
    if wound:  # Vitals: one wound level more, recorded after, a crit each
        for _ in range(vitals):
            if landed < 0:
                break
            level = _level_of(tracks, landed)
            landed = _record(landed, min(level + 1, 6), tracks, boxes, fold, rules, most)
    if landed < 0:
        return -1
    row[10], row[11], row[12], row[13], row[14], row[15], row[16] = (
        1, crits, 0, number, die, wound, landed,
    )  # fmt: skip
    return e


@njit(cache=True)
def _taken(faces: np.ndarray, k: int, face: int) -> bool:
    """Whether ``face`` is among the first ``k`` of ``faces``."""
    for j in range(k):  # noqa: SIM110  # numba compiles no generator for any()
        if faces[j] == face:
            return True
    return False


@njit(cache=True)
def _wound_for(number: int) -> int:
    """``wound_for_damage`` on the standard thresholds (1, 3, 5, 7, 9)."""
    if number < 1:
        return 0
    if number < 3:
        return 1
    if number < 5:
        return 2
    if number < 7:
        return 3
    return 4 if number < 9 else 5


@njit(cache=True)
def changed_rows(
    s: np.ndarray,
    written: np.ndarray,
    things: np.ndarray,
    values: np.ndarray,
    pos: np.ndarray,
    bearings: np.ndarray,
    rows: np.ndarray,
    found: np.ndarray,
    counts: np.ndarray,
) -> None:
    """What a round changed of each fighter that a user sees: thing ``k`` of a fighter
    (``things``: each column's thing, -1 none) changed where a column of it differs from
    ``written`` (the fighter's columns as last written to it), its bearing (the last
    thing, ``pos[:, 2]``; none where ``pos`` is empty) where it is not ``bearings`` (its
    last written, to the bit). For each thing ``k``, the fighters whose changed into
    ``rows[k]``, their value (column ``values[k]`` of their row) into ``found[k]``, how
    many into ``counts[k]``; ``written`` and ``bearings`` brought up to date."""
    n, seen, bearing = len(s), len(things), len(values)
    placed = len(pos) > 0
    counts[:] = 0
    for i in range(n):
        changed = 0
        for k in range(seen):
            thing = things[k]
            if thing >= 0 and s[i, k] != written[i, k]:
                changed |= 1 << thing
                written[i, k] = s[i, k]
        if placed:
            now, then = pos[i, 2], bearings[i]
            if now != then or (now == 0.0 and np.copysign(1.0, now) != np.copysign(1.0, then)):
                changed |= 1 << bearing
                bearings[i] = now
        if not changed:
            continue
        for k in range(bearing + 1):
            if changed >> k & 1:
                rows[k, counts[k]] = i
                found[k, counts[k]] = s[i, values[k]] if k < bearing else 0
                counts[k] += 1
