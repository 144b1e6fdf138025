"""A round's turns in the compiled plain melee (numba): initiative drawn band by band and
sorted as :class:`~fadad_agents.engine.core.turns.TurnOrder` rolls it, tied bands one turn
together. :mod:`~.kernel` plays the rounds.
"""

from __future__ import annotations

import numpy as np

from fadad_agents.agents.core.field.caching import njit
from fadad_agents.engine.personal.swing import _FIGHTING
from fadad_agents.engine.personal.twister import random

__all__: list[str] = []


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
