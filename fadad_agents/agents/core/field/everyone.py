"""A side's nearest fighter found by measuring every one of its fighters, as
:meth:`~fadad_agents.agents.core.field.ground.Field.nearest` measures those its search of
the squares reaches: for a side of a few (one point asked), or many points asked at once."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from itertools import chain
from typing import Any

import numpy as np

__all__ = ["nearest_measured", "nearest_together"]

_CLOSE = 1 + 1e-9
"""Squared yards by products within this share of a point's least may be the least by
``pow`` (the two part in the last bit or two at most): measured again as
:meth:`~.ground.Field.nearest` measures."""


def nearest_measured(
    buckets: Iterable[list[Any]], x: float, y: float, accept: Callable[[Any], bool] | None
) -> Any | None:
    """:meth:`~.ground.Field.nearest` of a side of a few fighters (in ``buckets``): each
    measured as the search measures the ones it reaches (``**``, ties to the lower
    ``unique_id``, the first improvement ``accept`` passes): the same answer, without
    the search's walk over the empty squares between (a few fighters far apart)."""
    best: Any | None = None
    best_d = math.inf
    best_id = 0
    for bucket in buckets:
        for agent in bucket:
            px, py = agent.position
            px -= x
            py -= y
            d = px**2 + py**2
            if (d < best_d or (d == best_d and agent.unique_id < best_id)) and (
                accept is None or accept(agent)
            ):
                best, best_d, best_id = agent, d, agent.unique_id
    return best


def nearest_together(members: list[Any], points: list[tuple[float, float]]) -> list[Any]:
    """:meth:`~.ground.Field.nearest` (every fighter passes) among ``members`` to each of
    ``points``: every squared distance by products in numpy, then, for each point, the
    members within a hair (:data:`_CLOSE`) of its least measured again as ``nearest``
    measures them (``**``, ties to the lower ``unique_id``) - the same answers. (Each
    point has at least one such member, its least; where every point has just one, it is
    the nearest by ``**`` too: nothing to measure again.)"""
    if not members:
        return [None] * len(points)
    n, m = len(members), len(points)
    spots = np.fromiter(chain.from_iterable([a.position for a in members]), np.float64, 2 * n)
    asked = np.fromiter(chain.from_iterable(points), np.float64, 2 * m).reshape(m, 2)
    dx = asked[:, :1] - spots[0::2]
    dy = asked[:, 1:] - spots[1::2]
    squares = dx * dx + dy * dy
    least = squares.min(axis=1) * _CLOSE + 1e-300
    rows, columns = np.nonzero(squares <= least[:, None])
    if len(rows) == m:  # one member a point within a hair of its least: that one
        return [members[k] for k in columns.tolist()]
    found: list[Any] = [None] * m
    best_d = [math.inf] * m
    for p, k in zip(rows.tolist(), columns.tolist(), strict=True):
        agent = members[k]
        (px, py), (x, y) = agent.position, points[p]
        d = (px - x) ** 2 + (py - y) ** 2
        if d < best_d[p] or (d == best_d[p] and agent.unique_id < found[p].unique_id):
            found[p], best_d[p] = agent, d
    return found
