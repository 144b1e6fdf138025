"""Who a fighter of the compiled plain melee (numba) takes for its new target, where every
foe touches: as its targeting policy chooses (``swing._CHOOSES``), a GM's targeting rules
evaluated as ``policies.core.rules`` evaluates them; and its foes as ``Battle.foes`` lists
them, of two sides or more. :mod:`~.kernel` plays the rounds.
"""

from __future__ import annotations

import numpy as np

from fadad_agents.agents.core.field.caching import njit
from fadad_agents.engine.personal.codes import (
    EQ,
    FOES,
    GE,
    GT,
    LE,
    LOSSES,
    NE,
    OUTNUMBERED,
    ROUND,
    SIDE,
    WOUND,
)
from fadad_agents.engine.personal.swing import (
    _CHOOSES,
    _DUEL,
    _FIGHTING,
    _REACH,
    _RULES,
    _SIDE,
    _TARGET,
    _TRACK,
    DUEL,
    FIRST,
    NEAREST,
    RANDOM,
    RULES,
    STAY_BACK,
    STICKY,
    WEAKEST,
    _level_of,
)
from fadad_agents.engine.personal.twister import random

__all__: list[str] = []


@njit(cache=True)
def _new_target(
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
    rnd: int,
) -> int:
    """A new target (-1: none left), as fighter ``i`` chooses it (``_CHOOSES``), where every
    foe touches: ``random_foe``'s, one of the other side's fighters drawn; the first of
    them (``FixedTargeting``, no draw); the nearest (``NearestTargeting``, no draw: the foe
    first in ``near[i]``, :func:`~.tables.target_orders`); the most or least wounded of
    those it weighs up (:func:`_weighed`); a duellist's opponent while it fights, else
    none (``DuelTargeting``: its nearest, once); none (``StayBack``); as its first rule
    that holds chooses (``RulesTargeting``: :func:`_ruled`; ``first`` and ``sticky``
    keep a target that fights)."""
    chooses = s[i, _CHOOSES]
    if chooses == RULES:
        chooses = _ruled(i, s, counts, start, rnd, ruled, worth, tracks)
        if chooses in (FIRST, STICKY):  # FixedTargeting's and StickyTargeting's own check
            t = s[i, _TARGET]
            if t >= 0 and s[t, _FIGHTING]:
                return int(t)
            if chooses == STICKY:
                chooses = RANDOM
    if chooses == DUEL and s[i, _DUEL] >= 0:
        duel = s[i, _DUEL]
        return int(duel) if s[duel, _FIGHTING] else -1
    side = s[i, _SIDE]
    n = _foes(side, counts)
    if n == 0 or chooses == STAY_BACK:
        return -1
    if chooses == RANDOM:
        return _foe(side, int(random(targeting) * n), active, counts)
    if chooses == FIRST:
        return _foe(side, 0, active, counts)
    if chooses in (NEAREST, DUEL):
        best = _foe(side, 0, active, counts)
        for k in range(1, n):
            foe = _foe(side, k, active, counts)
            if near[i, foe] < near[i, best]:
                best = foe
        if chooses == DUEL:
            s[i, _DUEL] = best
        return int(best)
    return _weighed(i, 1 if chooses == WEAKEST else -1, s, active, counts, n, targeting, tracks)


@njit(cache=True)
def _ruled(
    i: int,
    s: np.ndarray,
    counts: np.ndarray,
    start: np.ndarray,
    rnd: int,
    ruled: np.ndarray,
    worth: np.ndarray,
    tracks: np.ndarray,
) -> int:
    """``RulesTargeting``'s choice for fighter ``i`` now (``rules._first``): the code of
    the first rule whose comparisons all hold (:func:`~.tables.ruled_rows`), else
    ``STICKY``. The quantities as ``rules._QUANTITIES`` reads them: its wound level, the
    round, its side's share still fighting, its losses (none: a fighter is one and fights),
    its foes, its friends (itself among them), foes outnumbering friends."""
    p, side = s[i, _RULES], s[i, _SIDE]
    for r in range(ruled.shape[1]):
        choice = ruled[p, r, 0]
        if choice < 0:
            break
        holds = True
        for k in range(ruled[p, r, 1]):
            quantity, op = ruled[p, r, 2 + 2 * k], ruled[p, r, 3 + 2 * k]
            if quantity == OUTNUMBERED:
                holds = _foes(side, counts) > counts[side]
            else:
                if quantity == WOUND:
                    x = float(_level_of(tracks, s[i, _TRACK]))
                elif quantity == ROUND:
                    x = float(rnd)
                elif quantity == SIDE:  # SideRoster.fraction
                    x = counts[side] / start[side] if start[side] else 0.0
                elif quantity == LOSSES:
                    x = 0.0
                elif quantity == FOES:
                    x = float(_foes(side, counts))
                else:
                    x = float(counts[side])
                v = worth[p, r, k]
                if op == GE:
                    holds = x >= v
                elif op == LE:
                    holds = x <= v
                elif op == EQ:
                    holds = x == v
                elif op == NE:
                    holds = x != v
                elif op == GT:
                    holds = x > v
                else:
                    holds = x < v
            if not holds:
                break
        if holds:
            return int(choice)
    return STICKY


@njit(cache=True, inline="always")
def _foes(side: int, counts: np.ndarray) -> int:
    """How many foes ``side`` has: every other side's fighters (``Battle.foes``)."""
    if counts.shape[0] == 2:
        return int(counts[1 - side])
    n = 0
    for other in range(counts.shape[0]):
        if other != side:
            n += counts[other]
    return n


@njit(cache=True, inline="always")
def _foe(side: int, k: int, active: np.ndarray, counts: np.ndarray) -> int:
    """Foe ``k`` of ``side`` in ``Battle.foes``' order: the other sides' live lists one
    after another, in the sides' order."""
    if counts.shape[0] == 2:
        return int(active[1 - side, k])
    for other in range(counts.shape[0]):
        if other != side:
            if k < counts[other]:
                return int(active[other, k])
            k -= counts[other]
    return -1


@njit(cache=True)
def _weighed(
    i: int,
    sign: int,
    s: np.ndarray,
    active: np.ndarray,
    counts: np.ndarray,
    n: int,
    targeting: np.ndarray,
    tracks: np.ndarray,
) -> int:
    """``WeakestTargeting`` (``sign`` 1) or ``StrongestTargeting`` (-1) where every foe
    touches (``in_reach``): of the ``n`` foes, every one when at most its reach, else that
    many drawn (with replacement) with its target first where it fights and was not
    drawn; the most (least) wounded of them, the first on a tie."""
    side = s[i, _SIDE]
    reach = s[i, _REACH]
    best, most = -1, 0
    if n <= reach:
        for k in range(n):
            foe = _foe(side, k, active, counts)
            key = sign * _level_of(tracks, s[foe, _TRACK])
            if best < 0 or key > most:
                best, most = foe, key
        return int(best)
    drawn = np.empty(reach, dtype=np.int64)
    current = s[i, _TARGET]
    first = current >= 0 and s[current, _FIGHTING] != 0
    for k in range(reach):
        drawn[k] = _foe(side, int(random(targeting) * n), active, counts)
        first = first and drawn[k] != current
    if first:
        best, most = current, sign * _level_of(tracks, s[current, _TRACK])
    for foe in drawn:
        key = sign * _level_of(tracks, s[foe, _TRACK])
        if best < 0 or key > most:
            best, most = foe, key
    return int(best)
