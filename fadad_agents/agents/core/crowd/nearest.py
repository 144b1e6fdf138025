"""The nearest fighter of a side to every place where someone stands, found at once.

A round's targeting asks thousands of times for the foe nearest a fighter
(:meth:`~fadad_agents.agents.core.field.Field.nearest`); in a crowd the answers for every
place are found together in arrays, and read while the side they name stands as it did.
"""

from __future__ import annotations

from itertools import chain
from typing import Any

import numpy as np
from scipy.spatial import cKDTree

__all__ = ["nearest_to_all"]

_FEW = 4
"""Where two of the side tie for nearest, the tree names this many to choose among."""

_LEAF = 8
"""Points a leaf of the tree holds: built and asked once (unbalanced, uncompacted: the
fastest built), a tree of 10,000 fighters asked for 10,000 places far behind their front
costs a sixth less with leaves of 8 than with scipy's 16."""


def nearest_to_all(
    members: list[Any], askers: list[tuple[float, float]]
) -> tuple[dict[tuple[float, float], Any], dict[tuple[float, float], float]]:
    """The nearest of ``members`` to each place of ``askers`` (squared yards by ``**``,
    ties to the lower ``unique_id``, as ``Field.nearest`` measures), and the yards from
    each place to it: a k-d tree (scipy) names the two nearest, the few where they tie;
    those within a hair of the nearest are measured as ``Field.nearest`` measures, and
    where all the few are, the place is left out of the first (searched as asked)."""
    spots = _table([agent.position for agent in members])  # a tree asked once:
    tree = cKDTree(spots, leafsize=_LEAF, balanced_tree=False, compact_nodes=False)
    yards, rows = tree.query(places := _table(askers), k=2)
    found = dict(zip(askers, [members[k] for k in rows[:, 0].tolist()], strict=True))
    away = dict(zip(askers, yards[:, 0].tolist(), strict=True))
    tied = np.nonzero(yards[:, 1] <= yards[:, 0] * (1 + 1e-9) + 1e-9)[0]
    yards, rows = tree.query(places[tied], k=_FEW)  # the few nearest where two tie
    ties = (yards <= yards[:, :1] * (1 + 1e-9) + 1e-9).sum(axis=1).tolist()
    for i, count, near in zip(tied.tolist(), ties, rows.tolist(), strict=True):
        if count == _FEW:  # more may lie beyond the tree's few: searched as asked
            found.pop(askers[i], None)
            continue
        x, y = askers[i]
        found[askers[i]] = min(  # squares by ** and the lower unique_id, as nearest()
            (members[k] for k in near[:count]),
            key=lambda m: ((m.position[0] - x) ** 2 + (m.position[1] - y) ** 2, m.unique_id),
        )
    return found, away


def _table(points: list[tuple[float, float]]) -> Any:
    """``points`` as an n x 2 array of floats, read in one pass."""
    return np.fromiter(chain.from_iterable(points), np.float64, 2 * len(points)).reshape(-1, 2)
