"""The places a fighter's search tries, worked out in compiled code (numba) once numba is
loaded anyway.

A fighter whose move ends where another stands tries the places round its target, then
spots short of its goal and to either side (:func:`~fadad_agents.agents.core.ranks.
way_forward`): a couple of dozen points, each a few products, a cosine or a ``**``, that
cost Python about a fifth of a move in the ranks. Here they are the same points, worked
out operation for operation as Python works them out (a sum, product or quotient of two
floats, ``cos``, ``sin`` and ``atan2`` are the same in compiled code; ``**`` is ``pow``,
its exponent given at run time so that it is not compiled into a product), in one call.

numba is never imported here for this alone: its import costs a small battle's worth of
rounds. :func:`~fadad_agents.agents.core.ranks.way_forward` calls this only when numba is
already loaded (a crowd's band turn, its nearest foes, a sweep or notebook that used
them); the battle is the same either way (a test plays both).
"""

from __future__ import annotations

import math
import threading
from typing import Any

import numpy as np

from fadad_agents.agents.core.field.caching import njit
from fadad_agents.agents.core.field.measures import SQUARES_HIGH, SQUARES_LOW

__all__ = ["MOST_SPOTS", "scratch", "spots_of"]

MOST_SPOTS = 256
"""The most places (``x, y`` pairs) a search is worked out here for: a longer one (a move
of hundreds of yards, a giant's ring) is worked out in Python."""

_TWO = np.float64(2.0)  # Python's squares are pow(x, 2.0): given at run time, never x * x


@njit(cache=True)
def _beyond(dx: float, dy: float, limit: float, two: float) -> bool:
    """``dx ** two + dy ** two > limit``, the squares taken by products unless their sum
    lies within a hair of ``limit`` (``pow`` costs several products; the two sums differ
    by a few units in the last place at most: as ``ranks`` measures)."""
    d = dx * dx + dy * dy
    if d < limit * SQUARES_LOW:
        return False
    if d > limit * SQUARES_HIGH:
        return True
    return bool(dx**two + dy**two > limit)


@njit(cache=True)
def _on_field(x: float, y: float, bounds: Any) -> tuple[float, float]:
    """``Field.clamp``: the nearest point on a field ``bounds[0]`` by ``bounds[1]`` yards
    (either below 0: unbounded that way)."""
    width, height = bounds[0], bounds[1]
    if width >= 0:
        x = 0.0 if x < 0.0 else width if x > width else x
    if height >= 0:
        y = 0.0 if y < 0.0 else height if y > height else y
    return x, y


@njit(cache=True)
def _spots(way: Any, turns: Any, bounds: Any, two: float, out: Any) -> tuple[int, int]:
    """``ranks.way_forward``'s places into ``out`` (``x, y`` flat), in the order tried:
    the end of the move, the places round the target (``_places_round``, one a turn of
    ``turns``; none if ``turns`` is empty), then ``_way_spots``. ``way``: the actor's
    ``x, y``, the goal's, the gap and yards to move, its allowance, its radius, the
    target's ``x, y``, the reach round it and its square by ``**`` with the margin back
    (``edge``), and the shortest shuffle forward; ``bounds``: the field's width and height
    (below 0: unbounded). How many places, and how many round the target (-1 places: more
    than ``out`` holds)."""
    hx, hy, gx, gy, gap, yards = way[0], way[1], way[2], way[3], way[4], way[5]
    limit, radius, tx, ty, reach = way[6], way[7], way[8], way[9], way[10]
    edge, shuffle = way[11], way[12]
    bounded = bounds[0] >= 0 or bounds[1] >= 0
    most_spots = len(out) // 2
    out[0] = hx + (gx - hx) * yards / gap
    out[1] = hy + (gy - hy) * yards / gap
    count = 1
    if len(turns):
        base = math.atan2(hy - ty, hx - tx)
        most = limit * limit
        for turn in turns:
            angle = base + turn
            x, y = tx + reach * math.cos(angle), ty + reach * math.sin(angle)
            if bounded:
                x, y = _on_field(x, y, bounds)
                if _beyond(x - tx, y - ty, edge, two):
                    continue
            # Python skips this test where no place can be so far (``far``): there it holds
            if _beyond(x - hx, y - hy, most, two):
                continue
            if count >= most_spots:
                return -1, 0
            out[2 * count], out[2 * count + 1] = x, y
            count += 1
    ring = count - 1
    dx, dy = (gx - hx) / gap, (gy - hy) / gap
    side = 2 * radius
    sx, sy = -dy * side, dx * side
    most = yards * yards
    step = yards
    short = 1.0
    while True:
        if count + 3 > most_spots:
            return -1, 0
        x, y = hx + dx * step, hy + dy * step
        out[2 * count], out[2 * count + 1] = x, y
        count += 1
        for sign in range(2):
            px, py = (x + sx, y + sy) if sign == 0 else (x - sx, y - sy)
            if bounded:
                px, py = _on_field(px, py, bounds)
            if not _beyond(px - hx, py - hy, most, two):
                out[2 * count], out[2 * count + 1] = px, py
                count += 1
        step, short = yards - short, 2 * short  # 1, 2, 4 ... yards short
        if step < shuffle:
            return count, ring


_THREAD = threading.local()
"""Each thread's room for a search's places (:func:`scratch`)."""


def scratch() -> np.ndarray:
    """This thread's room for the places of a search (:data:`MOST_SPOTS` of them): shared
    by a thread's searches, one after another, never by two threads (a Dask worker's
    threads search at once: one's places read while another's search fills them)."""
    try:
        out: np.ndarray = _THREAD.out
    except AttributeError:
        out = _THREAD.out = np.empty(2 * MOST_SPOTS)
    return out


def spots_of(
    way: tuple[float, ...], turns: Any, bounds: tuple[float, float]
) -> tuple[list[float], int] | None:
    """The places of a search (see :func:`_spots`) as a flat list of floats, and how many
    round the target; None if there are more than :data:`MOST_SPOTS`."""
    out = scratch()
    count, ring = _spots(way, turns, bounds, _TWO, out)
    if count < 0:
        return None
    spots: list[float] = out[: 2 * count].tolist()
    return spots, ring
