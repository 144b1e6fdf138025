"""Morale at the end of a round of the compiled plain melee (numba): each band's lead, in
the round's order of action, checks when its losses cross a threshold of its morale policy
(``CasualtyMorale``), rolls the FADAD unit morale check (its morale trait and 4dF against
Fair) from the battle's morale stream, and on a failure the band leaves the fight,
withdrawing or surrendering (``Character.end_round``, ``Battle.leave``).

A fighter's morale is a row of ``morale`` (int64, :data:`MORALE_COLUMNS`): whether it
checks (a plain character of a casualty policy; a player character never does), its band,
its morale trait, what it does when its band breaks, how many thresholds its policy has;
the thresholds are its row of ``levels`` (float64, the policy's own fractions).
"""

from __future__ import annotations

import numpy as np

from fadad_agents.agents.core.field.caching import njit
from fadad_agents.engine.personal.outcomes import off_the_field
from fadad_agents.engine.personal.swing import _FIGHTING, _SIDE, _event
from fadad_agents.engine.personal.twister import roll_4df

__all__ = ["LEAVE", "MORALE", "MORALE_COLUMNS"]

MORALE, LEAVE = 6, 7
"""Event kinds: a morale check (the roll, the trait, passed, the threshold crossed), a
fighter leaving the fight (surrendered or not, the threshold, whose check broke)."""

_CHECKS, _BAND, _TRAIT, _SURRENDERS, _LEVELS = 0, 1, 2, 3, 4
MORALE_COLUMNS = 5


@njit(cache=True)
def end_round(
    order: np.ndarray,
    s: np.ndarray,
    morale: np.ndarray,
    levels: np.ndarray,
    crossed: np.ndarray,
    bands: np.ndarray,
    members: np.ndarray,
    active: np.ndarray,
    counts: np.ndarray,
    start: np.ndarray,
    stream: np.ndarray,
    table: np.ndarray,
    fair: int,
    rnd: int,
    events: np.ndarray,
) -> bool:
    """The round's morale checks, in its order of action (``order``: who fought as it
    began): each checking fighter still in the fight that leads its band (its first member
    still fighting, ``Band.lead``). ``crossed`` holds the thresholds each band has crossed
    (its ``memory``), ``start`` each side's fighters at the start. False: ``events`` is
    full."""
    for i in order:
        if not morale[i, _CHECKS] or not s[i, _FIGHTING]:
            continue
        band = morale[i, _BAND]
        first, end = bands[band], bands[band + 1]
        lead = -1
        for j in range(first, end):
            if s[members[j], _FIGHTING]:
                lead = members[j]
                break
        if lead != i:
            continue
        size = end - first
        if size > 1:  # a band weighs its own losses, a lone fighter its side's
            standing = 0
            for j in range(first, end):
                standing += s[members[j], _FIGHTING]
            lost = 1.0 - standing / size
        else:
            side = s[i, _SIDE]
            lost = 1.0 - counts[side] / start[side] if start[side] else 1.0
        now = 0
        for k in range(morale[i, _LEVELS]):
            now += lost >= levels[i, k]
        if now <= crossed[band]:
            continue
        crossed[band] = now
        roll = roll_4df(stream, table)
        passed = morale[i, _TRAIT] + roll >= fair
        e = _event(events, MORALE, rnd, i)
        if e < 0:
            return False
        events[e, 3], events[e, 4], events[e, 5], events[e, 6] = (
            roll, morale[i, _TRAIT], passed, now - 1,
        )  # fmt: skip
        if passed:
            continue
        for j in range(first, end):  # as the lead's policy says: withdraw or surrender
            m = members[j]
            if s[m, _FIGHTING] and not _leave(m, i, morale[i, _SURRENDERS], now - 1, s,
                                             active, counts, rnd, events):  # fmt: skip
                return False
    return True


@njit(cache=True)
def _leave(
    m: int,
    i: int,
    surrenders: int,
    why: int,
    s: np.ndarray,
    active: np.ndarray,
    counts: np.ndarray,
    rnd: int,
    events: np.ndarray,
) -> bool:
    """``Battle.leave``: ``m`` off the field, withdrawn or, ``surrenders``, surrendered,
    logged with the threshold ``why`` of ``i``'s check. False: ``events`` is full."""
    off_the_field(m, s, active, counts)
    e = _event(events, LEAVE, rnd, m)
    if e < 0:
        return False
    events[e, 3], events[e, 4], events[e, 5] = surrenders, why, i
    return True
