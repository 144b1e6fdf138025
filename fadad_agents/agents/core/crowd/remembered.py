"""A blocked search remembered in the field's mirror in arrays, and measured again there.

A fighter whose every place was taken remembers who blocked each and where that one stood
(:class:`~fadad_agents.agents.core.ranks.Blocked`), and next time measures again only the
places whose blocker moved or left: a place stays taken while whoever took it stands
there. Where the search was made in compiled code (:func:`~fadad_agents.agents.core.crowd.
occupied.first_free`), the memo is one array kept with the mirror it was measured in
(:data:`~fadad_agents.agents.core.crowd.occupied.REMEMBERED`): the places (``x, y`` flat),
then each place's blocker's slot there and where it stood; ``Blocked.spots`` are its
places, ``Blocked.tried`` is None and ``Blocked.stood`` the pair. Measuring them again is
one compiled call (:func:`recheck`): a blocker still in the mirror where it stood is
still there (a slot leaves the mirror as its fighter leaves the field, and is never
another's); the first free place in order is the one Python's memo would find.
"""

from __future__ import annotations

from typing import Any

from numba import njit, types

from fadad_agents.agents.core.crowd.occupied import (
    _FLOATS,
    _INTS,
    _TWO,
    _standing_at,
    _views,
    direct,
)

__all__ = ["AFRESH", "blockers", "recheck"]

AFRESH = object()
""":func:`recheck`'s answer where the memo's mirror is gone (made again since, or given
up): its slots name no one now, and every place is to be measured afresh."""


@njit(cache=True)
def _recheck(
    kept: Any, ring: int, me: int, r: float, floats: Any, ints: Any, two: float
) -> tuple[int, float, float]:
    """The first of the places in ``kept`` (``x, y`` flat, then each one's blocker's slot
    and where it stood) free of anyone within the elbow room of the fighter in slot
    ``me`` (radius ``r``; squares by ``**`` within a hair round the target, places 1 to
    ``ring``, as the search measured them), measuring only those whose blocker left the
    mirror or stands elsewhere: its index and ``x, y``; -1 if all are taken, each blocker
    found now written in its stead."""
    grid, spots, links, head, _, _ = _views(floats, ints)
    count = len(kept) // 5
    for k in range(count):
        e = 2 * count + 3 * k
        s = int(kept[e])
        if links[s, 2] >= 0 and spots[s, 0] == kept[e + 1] and spots[s, 1] == kept[e + 2]:
            continue  # it stands where it stood: the place is taken still
        x, y = kept[2 * k], kept[2 * k + 1]
        found = _standing_at(x, y, 0 < k <= ring, me, r, spots, links, head, grid, two)
        if found < 0:
            return k, x, y
        kept[e], kept[e + 1], kept[e + 2] = found, spots[found, 0], spots[found, 1]
    return -1, 0.0, 0.0


_F8, _I8 = types.float64, types.int64
_recheck_now = direct(_recheck, _FLOATS, _I8, _I8, _F8, _FLOATS, _INTS, _F8)


def recheck(memo: Any, actor: Any, field: Any) -> Any:
    """``memo.retry`` of a memo kept in the mirror (see the module): the first free place
    in order, or None (the memo brought up to date); :data:`AFRESH` if the field's mirror
    is no longer the one it was measured in."""
    mirror, kept = memo.stood
    if field.occupancy() is not mirror:
        return AFRESH
    me = mirror.slots.get(actor, -1)
    k, x, y = _recheck_now(kept, memo.ring, me, actor.radius, mirror.floats, mirror.ints, _TWO)
    return None if k < 0 else (x, y)


def blockers(memo: Any) -> list[Any]:
    """Who blocked each place of ``memo`` (its ``tried``, or read from its mirror)."""
    if memo.tried is not None:
        return list(memo.tried)
    mirror, kept = memo.stood
    count = len(kept) // 5
    return [mirror.agents[int(s)] for s in kept[2 * count :: 3].tolist()]
