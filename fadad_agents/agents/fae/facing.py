"""Fighters facing their nearest foes as a Fae battle begins, every one's nearest found
together.

Each fighter whose stat block gives no ``facing`` turns toward its nearest foe (ties: the
first in set-up order). Asked fighter by fighter, each measured every foe: a square of the
battle's size in calls (800 against 800 spent two seconds there before the first action).
Here each side's fighters are measured against their foes in numpy, a block of rows at a
time, and only the foes within a hair of a row's least are measured again as
``distance`` measures them: the same foe, the same heading.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import chain
from typing import Any

import numpy as np

from fadad_agents.agents.fae.character import position_xy

__all__ = ["face_nearest_foes", "nearest_foes"]

MEASURED_EACH = 16
"""Fewer foes than this, each fighter's are measured one by one (``min``): numpy's calls
cost more than so few measures."""

_ROWS = 256
"""Fighters measured against every foe at once (a block of 256 x 10,000 squares is 20 MB)."""

_CLOSE = 1 + 1e-9
"""Squared yards by products within this share of a row's least may be the least by
``math.dist`` (the two part in the last bits at most): measured again by ``distance``."""


def face_nearest_foes(acting: Sequence[Any], arena: Any) -> None:
    """Each of ``acting`` in turn, facing no way yet, faces its nearest foe fighting in
    ``arena`` (:meth:`~fadad_agents.agents.fae.character.FaeCharacter.face`; a rider and
    its mount turn together: whichever comes second keeps the way the first turned it),
    each one's nearest found with its side's (:func:`nearest_foes`)."""
    nearest: dict[int, Any] = {}
    unturned = [m for m in acting if m.heading is None]
    for side in dict.fromkeys(m.side for m in unturned):
        foes = [f for f in arena.foes(side) if f.fighting]
        if foes:
            askers = [m for m in unturned if m.side == side]
            nearest.update(zip(map(id, askers), nearest_foes(askers, foes), strict=True))
    for m in acting:
        if m.heading is None and id(m) in nearest:
            m.face(nearest[id(m)])


def nearest_foes(askers: Sequence[Any], foes: Sequence[Any]) -> list[Any]:
    """``min(foes, key=asker.distance)`` for each of ``askers``: the nearest foe by
    ``distance`` (yards, altitude included), ties to the first in ``foes``."""
    if len(foes) < MEASURED_EACH:
        return [min(foes, key=asker.distance) for asker in askers]
    flat = np.fromiter(chain.from_iterable(map(_place, foes)), np.float64, 3 * len(foes))
    spots = flat.reshape(-1, 3)
    firsts = np.sort(np.unique(spots, axis=0, return_index=True)[1])
    if len(firsts) < len(foes):  # foes sharing a place: only the first of them can be least
        foes, spots = [foes[k] for k in firsts.tolist()], spots[firsts]
    fx, fy, fz = spots[:, 0], spots[:, 1], spots[:, 2]
    found: list[Any] = []
    for start in range(0, len(askers), _ROWS):
        block = askers[start : start + _ROWS]
        here = np.array([_own_place(a) for a in block], dtype=np.float64)
        dx = here[:, 0:1] - fx
        dy = here[:, 1:2] - fy
        dz = here[:, 2:3] - fz
        squares = dx * dx + dy * dy + dz * dz
        least = squares.min(axis=1) * _CLOSE + 1e-300
        close = squares <= least[:, None]
        rows, columns = np.nonzero(close)
        if len(rows) == len(block):  # one foe a fighter within a hair of its least
            found += [foes[k] for k in columns.tolist()]
            continue
        for r, asker in enumerate(block):
            near = [foes[k] for k in np.flatnonzero(close[r]).tolist()]
            found.append(min(near, key=asker.distance))  # in their order: ties to the first
    return found


def _place(other: Any) -> tuple[float, float, float]:
    """Where ``distance`` measures ``other`` from: its (x, y) and altitude."""
    x, y = getattr(other, "xy", None) or position_xy(other)
    return float(x), float(y), float(getattr(other, "altitude", 0))


def _own_place(asker: Any) -> tuple[float, float, float]:
    """Where ``distance`` measures from: the asker's own (x, y) and altitude."""
    x, y = asker.xy
    return float(x), float(y), float(asker.altitude)
