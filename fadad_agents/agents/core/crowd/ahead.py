"""The searches of many fighters in the ranks, made together in arrays before a round's
first move.

In a deep block thousands of fighters find their way changed each round (their target
fell or stepped): each must measure a dozen places for whoever stands there
(:func:`~fadad_agents.agents.core.ranks.way_forward`). Measured one by one in Python
that is most of a round; measured together in numpy it is a small share. Each fighter is
left the memo its own search would have left (:class:`~fadad_agents.agents.core.ranks.
Blocked`), and its turn checks only whether those blockers still stand there: the same
battle either way (:data:`LOOK_AHEAD` off plays it search by search).
"""

from __future__ import annotations

from array import array
from itertools import chain
from typing import Any

import numpy as np

from fadad_agents.agents.core.field import ELBOW_ROOM, HALO_MOST, HALO_YARDS
from fadad_agents.agents.core.ranks import _SHUFFLE, FIGHTING, Blocked, _memo, _places_round

__all__ = ["AHEAD_AT_LEAST", "LOOK_AHEAD", "measure_ahead"]

LOOK_AHEAD = True
"""Before the first move of a round, the searches of fighters whose way changed are
measured together (:func:`measure_ahead`). Off (tests only), each fighter searches on its
own turn: the same battle, slower in a crowd."""

AHEAD_AT_LEAST = 256
"""Fewer searches to make than this (or fewer on the field), and each is made on its
fighter's turn: arrays pay off only in a crowd. Measured (callgrind, a band a side formed
up in ranks, first 3 rounds, searches measuring the fighters of a place's elbow-room
square): at 200 on the field the arrays cost 3% of a round more than the searches they
save; at 500 they break even."""


def measure_ahead(field: Any, everyone: list[Any], chasers: list[tuple[Any, ...]]) -> None:
    """Make, in arrays, the searches of ``chasers`` - ``(actor, index, goal, gap, yards,
    allowance, target, way)``, ``index`` its place in ``everyone`` (:meth:`Field.standing`),
    ``target`` the one its move reaches (its places round it are tried after the move's
    end) or None, ``way`` the remembered way these come from - as :func:`way_forward`
    would make them now, and leave each actor the memo its search would have left
    (:class:`Blocked`; blockers up to the first place found free). Its turn then
    measures only what changed meanwhile: the same answers.
    Nothing is done for fewer than :data:`AHEAD_AT_LEAST` searches.

    The places are worked out with the arithmetic of :func:`_way_spots`, operation for
    operation (a sum, product or quotient of two floats is the same in numpy), those
    round a target by :func:`_places_round` itself; the ``**`` tests are decided in
    Python wherever the array's ``*`` might decide them otherwise. A place counts as
    taken only where a fighter's elbow room is measured as in :func:`_first_free`; a
    blocker the arrays miss leaves the place to be measured then."""
    if len(chasers) < AHEAD_AT_LEAST or field.widest > HALO_MOST:
        return  # few, or a giant on the field: squares of a man's size would not do
    rings: list[list[float]] = []
    for actor, _, _, _, _, allowance, target, _ in chasers:
        spots: list[float] = []
        if target is not None:
            _places_round(actor, target, field, allowance, spots)
        rings.append(spots)
    xs, ys, by_pow, counts = _spots_ahead(field, chasers, rings)
    where = [other.position for other in everyone]  # each a tuple, kept whole
    blockers = _blockers_ahead(field, everyone, where, chasers, xs, ys, by_pow, counts)
    starts = np.cumsum(counts) - counts
    # Each chaser's blockers up to its first place found free (-1): objects in one pass.
    free = np.where(blockers < 0, np.arange(len(blockers)), len(blockers))
    ends = np.minimum(np.minimum.reduceat(free, starts), starts + counts).tolist()
    # Each place's blocker and where it stands, in one pass each (None: free, never read).
    n = len(everyone) + 1
    found = np.fromiter([*everyone, None], dtype=object, count=n)[blockers].tolist()
    stood = np.fromiter([*where, None], dtype=object, count=n)[blockers].tolist()
    # The places as floats in one C array: a memo's slice of it reads back Python floats.
    flat = array("d", np.stack((xs, ys), axis=1).tobytes())
    for (actor, _, goal, _, _, allowance, target, way), ring_spots, start, count, end in zip(
        chasers, rings, starts.tolist(), counts.tolist(), ends, strict=True
    ):
        chased = actor.target  # a chaser has one
        at = None if target is None else target.position
        actor.memory["blocked"] = _memo(  # Blocked.of, without its calls (thousands)
            Blocked,
            (
                actor.position, goal, allowance, target, at,
                flat[2 * start : 2 * (start + count)], len(ring_spots) // 2, found[start:end],
                stood[start:end], chased, chased.position, way,
            ),
        )  # fmt: skip


def _spots_ahead(
    field: Any, chasers: list[tuple[Any, ...]], rings: list[list[float]]
) -> tuple[Any, Any, Any, Any]:
    """Every chaser's places in the order tried (:func:`way_forward`: the end of its move,
    the places round its target, ``rings``, then :func:`_way_spots`), flat; whether each
    is measured with squares by ``**`` (those round a target); and how many each has."""
    table = np.fromiter(
        chain.from_iterable(
            (*a.position, *g, gap, yards, a.radius) for a, _, g, gap, yards, _, _, _ in chasers
        ),
        dtype=np.float64,
        count=7 * len(chasers),
    )
    hx, hy, gx, gy, gap, yards, radius = table.reshape(-1, 7).T
    every = np.ones(len(chasers), dtype=bool)
    no = np.zeros(len(chasers), dtype=bool)
    columns = [(hx + (gx - hx) * yards / gap, hy + (gy - hy) * yards / gap, every, no)]
    widest = max(len(r) for r in rings) // 2
    if widest:  # the places round the targets, padded to the most any chaser has
        sizes = np.array([len(r) // 2 for r in rings])
        padded = np.zeros((len(chasers), 2 * widest))
        for i, ring_spots in enumerate(rings):
            if ring_spots:
                padded[i, : len(ring_spots)] = ring_spots
        for k in range(widest):
            columns.append((padded[:, 2 * k], padded[:, 2 * k + 1], sizes > k, every))
    dx, dy = (gx - hx) / gap, (gy - hy) / gap
    side = 2 * radius
    sx, sy = -dy * side, dx * side
    bounded = field.width is not None or field.height is not None
    step, short, alive = yards, 1.0, every
    while alive.any():
        x, y = hx + dx * step, hy + dy * step
        columns.append((x, y, alive, no))
        for px, py in ((x + sx, y + sy), (x - sx, y - sy)):
            if bounded:
                px, py = _clamped(field, px), _clamped(field, py, across=False)
            columns.append((px, py, alive & _within(px - hx, py - hy, yards), no))
        step = yards - short
        alive = alive & (step >= _SHUFFLE)
        short *= 2
    xs, ys, used, by_pow = (np.stack([c[i] for c in columns], axis=1) for i in range(4))
    return xs[used], ys[used], by_pow[used], used.sum(axis=1)


def _clamped(field: Any, v: Any, across: bool = True) -> Any:
    """``Field.clamp`` of x (``across``) or y, value for value."""
    most = field.width if across else field.height
    if most is None:
        return v
    return np.where(v < 0.0, 0.0, np.where(v > most, float(most), v))


def _within(ox: Any, oy: Any, yards: Any) -> Any:
    """``ox ** 2 + oy ** 2 <= yards * yards``, as Python decides it: Python's ``**``
    may differ from ``*`` in the last bit, so values within a hair of the limit are
    decided again in Python."""
    limit = yards * yards
    squares = ox * ox + oy * oy
    inside = squares <= limit
    for i in np.nonzero(np.abs(squares - limit) <= 1e-9 * limit)[0].tolist():
        a, b, c = float(ox[i]), float(oy[i]), float(yards[i])
        inside[i] = a**2 + b**2 <= c * c
    return inside


def _blockers_ahead(
    field: Any,
    everyone: list[Any],
    where: list[tuple[float, float]],
    chasers: list[tuple[Any, ...]],
    xs: Any,
    ys: Any,
    by_pow: Any,
    counts: Any,
) -> Any:
    """For each place, the index in ``everyone`` (standing at ``where``) of a fighter
    standing within the chaser's elbow room of it (``(r + other's) * ELBOW_ROOM``,
    squares by ``*``), or -1: each fighter filed under every :data:`HALO_YARDS` square
    its elbow room with the widest could reach, each place measured against those filed
    under its own square. Where the search squares by ``**`` (``by_pow``), a fighter
    within a hair of the edge of the elbow room is not taken (``**`` may decide it
    otherwise): the place is measured then."""
    n = len(everyone)
    px, py = np.fromiter(chain.from_iterable(where), np.float64, 2 * n).reshape(n, 2).T
    radius = np.fromiter((other.radius for other in everyone), np.float64, n)
    fighting = np.fromiter((other.status is FIGHTING for other in everyone), bool, n)
    who = np.repeat(np.array([c[1] for c in chasers]), counts)  # whose place each is
    own_r = radius[who]
    reach = 2 * field.widest * ELBOW_ROOM * (1 + 1e-9) + 1e-9
    i0, i1 = _square(px - reach), _square(px + reach)
    j0, j1 = _square(py - reach), _square(py + reach)
    span = int(max((i1 - i0).max(), (j1 - j0).max())) + 1
    own_i, own_j = _square(px), _square(py)
    rows, columns, filed, away = [], [], [], []
    for di in range(span):
        for dj in range(span):
            ok = (i0 + di <= i1) & (j0 + dj <= j1)
            rows.append(i0[ok] + di)
            columns.append(j0[ok] + dj)
            filed.append(np.nonzero(ok)[0])
            away.append((i0[ok] + di != own_i[ok]) | (j0[ok] + dj != own_j[ok]))
    lo, hi, filed_in = _by_square(
        np.concatenate(rows), np.concatenate(columns), np.concatenate(filed),
        np.concatenate(away), _square(xs), _square(ys),
    )  # fmt: skip
    found = np.full(len(xs), -1, dtype=np.int64)
    places = np.nonzero(lo < hi)[0]
    k = 0
    while len(places):
        other = filed_in[lo[places] + k]
        ox, oy = px[other] - xs[places], py[other] - ys[places]
        room = (own_r[places] + radius[other]) * ELBOW_ROOM
        squares, limit = ox * ox + oy * oy, room * room
        hit = (squares < limit) & fighting[other] & (other != who[places])
        hit &= ~by_pow[places] | (squares < limit * (1 - 1e-9))
        found[places[hit]] = other[hit]
        k += 1
        places = places[~hit & (lo[places] + k < hi[places])]  # not found, more to measure
    return found


def _by_square(
    rows: Any, columns: Any, filed: Any, away: Any, spot_rows: Any, spot_columns: Any
) -> tuple[Any, Any, Any]:
    """The fighters ``filed`` under squares ``rows, columns`` sorted by square, whoever
    stands in it first (not ``away``: it most often blocks a place there); and for each
    place's square ``spot_rows, spot_columns`` where its fighters begin and end in that
    order. Squares are counted in a table over the filed ones while it stays small (as
    many squares as entries), else looked up by sorted keys."""
    r0, c0 = int(rows.min()), int(columns.min())
    height, width = int(rows.max()) - r0 + 1, int(columns.max()) - c0 + 1
    if height * width > len(rows) + 4096:  # spread far: sorted keys
        key = _key(rows, columns)
        order = np.lexsort((away, key))
        key, spot_key = key[order], _key(spot_rows, spot_columns)
        lo, hi = np.searchsorted(key, spot_key, "left"), np.searchsorted(key, spot_key, "right")
        return lo, hi, filed[order]
    cell = (rows - r0) * width + (columns - c0)
    order = np.argsort(2 * cell + away, kind="stable")
    starts = np.zeros(height * width + 1, dtype=np.int64)
    np.cumsum(np.bincount(cell, minlength=height * width), out=starts[1:])
    sr, sc = spot_rows - r0, spot_columns - c0
    inside = (sr >= 0) & (sr < height) & (sc >= 0) & (sc < width)
    at = np.where(inside, sr * width + sc, 0)
    lo, hi = np.where(inside, starts[at], 0), np.where(inside, starts[at + 1], 0)
    return lo, hi, filed[order]


def _square(v: Any) -> Any:
    """The :data:`HALO_YARDS` square index of each value."""
    return np.floor_divide(v, HALO_YARDS).astype(np.int64)


def _key(i: Any, j: Any) -> Any:
    """One int64 per square (indices well inside +-2**31 on any field men walk)."""
    return (i << 32) + (j & 0xFFFFFFFF)
