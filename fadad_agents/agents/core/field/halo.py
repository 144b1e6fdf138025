"""The field's elbow-room index (:mod:`~fadad_agents.agents.core.field.squares`): each
fighter filed in every :data:`HALO_YARDS` square its elbow room reaches into, so that
"is this spot taken?" is one look-up of the spot's own square (keyed by one float,
:func:`halo_key`). Kept while nobody on the field is wider than :data:`HALO_MOST` and
the field is not mirrored in arrays instead.

An elbow-room square lists those who stand in it before those whose elbow room only
reaches into it (whoever stands in a spot's square most often blocks it, and a look-up
stops at the first fighter it finds there); other orders are whatever costs least.
"""

from __future__ import annotations

from typing import Any

__all__ = ["HALO_MOST", "HALO_SPAN", "HALO_YARDS", "halo_key", "ring_in", "ring_out", "ring_shift"]

HALO_YARDS = 0.75
"""Side of a square of the elbow-room index: a man's elbow room reaches into four to nine."""

HALO_MOST = 1.0
"""Yards: with anyone wider on the field (a giant's elbow room would fill thousands of
squares) spots are checked in the occupancy index alone."""

HALO_SPAN = 2.0**26 + 40_503
"""Rows to a column in an elbow-room square's key (:func:`halo_key`): keys are distinct
within 2**25 rows (25 million yards) of the centre; farther out two squares may share
a key, which only gives a look-up more fighters to measure. Not 2**26 alone: a dict
places a key by its low bits, which a power of two leaves the same for every square of
a row (5 slots probed a look-up, not 1.2, on 20,000 fighters' field); 40,503, odd,
about 0.618 of 2**16, spreads the columns over them."""


def halo_key(x: float, y: float) -> float:
    """The key of the elbow-room square holding ``(x, y)``: its column times
    :data:`HALO_SPAN` plus its row, one float (a search looks up a dozen squares a turn,
    and a tuple of two ints costs two ``int`` calls, a tuple and its hash). Filing and
    look-up compute it alike, column and row exact integers in floats (the hot look-ups
    of a search's places and of ``Field.blocker`` write it out)."""
    return x // HALO_YARDS * HALO_SPAN + y // HALO_YARDS


def _box(reach: float, x: float, y: float) -> tuple[int, int, int, int]:
    """The first and last columns and rows of the elbow-room squares within ``reach``
    of ``(x, y)``."""
    return (int((x - reach) // HALO_YARDS), int((x + reach) // HALO_YARDS),
            int((y - reach) // HALO_YARDS), int((y + reach) // HALO_YARDS))  # fmt: skip


def ring_in(halo: dict[float, list[Any]], reach: float, agent: Any, x: float, y: float) -> None:
    """File ``agent`` in every elbow-room square within ``reach`` of ``(x, y)``: first in
    the square it stands in (whoever stands in a spot's own square most often blocks it,
    so a look-up stops at the first fighter it measures), last in the others."""
    i0, i1, j0, j1 = _box(reach, x, y)
    for i in range(i0, i1 + 1):
        column = i * HALO_SPAN
        for j in range(j0, j1 + 1):
            found = halo.get(column + j)
            if found is None:
                halo[column + j] = [agent]
            else:
                found.append(agent)
    _first_in(halo[halo_key(x, y)], agent)


def ring_out(halo: dict[float, list[Any]], reach: float, agent: Any, x: float, y: float) -> None:
    """Take ``agent``, filed at ``(x, y)`` (:func:`ring_in`), out of the index."""
    i0, i1, j0, j1 = _box(reach, x, y)
    for i in range(i0, i1 + 1):
        column = i * HALO_SPAN
        for j in range(j0, j1 + 1):
            halo[column + j].remove(agent)  # filed in every square round it


def ring_shift(
    halo: dict[float, list[Any]], reach: float, agent: Any, ox: float, oy: float, x: float, y: float
) -> None:
    """Move ``agent``, filed at ``(ox, oy)``, to ``(x, y)`` in the index, touching only
    the squares it leaves and enters (a step in the ranks is shorter than a square, and
    most of the squares its elbow room reaches stay the same): first in the square it now
    stands in, after the others in the one it left."""
    oi0, oi1 = int((ox - reach) // HALO_YARDS), int((ox + reach) // HALO_YARDS)  # _box, inlined
    oj0, oj1 = int((oy - reach) // HALO_YARDS), int((oy + reach) // HALO_YARDS)  # (every step)
    ni0, ni1 = int((x - reach) // HALO_YARDS), int((x + reach) // HALO_YARDS)
    nj0, nj1 = int((y - reach) // HALO_YARDS), int((y + reach) // HALO_YARDS)
    if oi0 != ni0 or oi1 != ni1 or oj0 != nj0 or oj1 != nj1:  # else the same squares
        for i in range(oi0, oi1 + 1):
            column = i * HALO_SPAN
            if ni0 <= i <= ni1:
                for j in range(oj0, oj1 + 1):
                    if not nj0 <= j <= nj1:
                        halo[column + j].remove(agent)
            else:
                for j in range(oj0, oj1 + 1):
                    halo[column + j].remove(agent)
        for i in range(ni0, ni1 + 1):
            column = i * HALO_SPAN
            kept = oi0 <= i <= oi1
            for j in range(nj0, nj1 + 1):
                if kept and oj0 <= j <= oj1:  # listed there already
                    continue
                found = halo.get(column + j)
                if found is None:
                    halo[column + j] = [agent]
                else:
                    found.append(agent)
    now, was = halo_key(x, y), halo_key(ox, oy)
    if now != was:  # it stands in the square it left no more: after those who do
        left = halo.get(was)
        if left and left[-1] is not agent and agent in left:
            left.remove(agent)
            left.append(agent)
    square = halo[now]  # _first_in, inlined
    if square[0] is not agent:
        square.remove(agent)
        square.insert(0, agent)


def _first_in(square: list[Any], agent: Any) -> None:
    """Put ``agent``, listed in ``square``, first there."""
    if square[0] is not agent:
        square.remove(agent)
        square.insert(0, agent)
