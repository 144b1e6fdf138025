"""A new target for each of many plain fighters whose target fell, as ``random_foe`` gives it.

A fighter whose target fell takes a random foe in reach, else the nearest foe
(:func:`~fadad_agents.policies.core.defaults.random_foe`): behind the ranks, thousands a
round (:mod:`~.declaring`). Their nearest foes are found together, side by side; one
whose nearest foe stands beyond the reach of the widest fighter takes it without looking
for foes in reach (none can be), any other calls :func:`random_foe`, in turn order (it
may draw). For a crowd in arrays (:func:`new_targets`) all of it is worked out there.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from fadad_agents.agents.core.moving import _ARRIVE
from fadad_agents.policies.core.defaults import random_foe

__all__ = ["nearest_foes", "new_target", "new_targets"]

_OUT_OF_REACH = 1 + 1e-9
"""How many times the squared reach of the widest a nearest foe must stand beyond for no
foe to be in reach (floating point: the nearest of another side is compared by
``math.dist``)."""


def nearest_foes(members: list[Any], arena: Any, each: Any) -> dict[Any, Any]:
    """The nearest foe of each of ``members``, found together side by side (``each``: as
    :meth:`~fadad_agents.engine.core.space.OnTheField.nearest_foes` takes it)."""
    by_side: dict[int, list[Any]] = {}
    for member in members:
        by_side.setdefault(member.side, []).append(member)
    nearest: dict[Any, Any] = {}
    for side, of_side in by_side.items():
        places = [member.position for member in of_side]
        nearest.update(zip(of_side, arena.nearest_foes(side, places, each), strict=True))
    return nearest


def new_target(member: Any, arena: Any, near: Any) -> Any:
    """:func:`random_foe`'s new target for ``member``, ``near`` its nearest foe found
    before (or None): that one, without looking for foes in reach, when it still fights
    and stands beyond the reach of the widest fighter (and no foe stands off the field,
    in reach of everyone), so that none can be in reach."""
    if near is not None and near.fighting:
        field = arena.field
        (x, y), (fx, fy) = member.position, near.position
        limit = member.radius + member.reach + field.widest
        if not field.off_field and (fx - x) ** 2 + (fy - y) ** 2 > _OUT_OF_REACH * (
            limit * limit + _ARRIVE
        ):
            return near
    return random_foe(member, arena, member.targeting_rng)


def new_targets(crowd: Any, members: list[Any], uids: Any, arena: Any) -> list[Any]:
    """:func:`new_target` of each of ``members`` (of a turn's ``choosing``, their
    ``uids``), as ``declaring._choose`` finds it, in arrays over the ``crowd``
    (``waiting._Crowd``): each one's nearest foe (:meth:`~.waiting._Crowd.filed`),
    whether it stands beyond the reach of the widest (:func:`~.planning.beyond_reach`),
    and :func:`random_foe` called, in order, for each of the others (it may draw). On a
    field of more than two sides, or with anyone off it, or a member not in the arrays,
    as ``declaring._choose`` finds them."""
    from fadad_agents.agents.core.crowd import planning  # numba: crowds only

    field = arena.field
    n, size = len(members), len(crowd.x)
    if (
        field.sides != 2
        or field.off_field
        or int(uids.max()) >= size
        or not crowd.on_field[uids].all()
    ):
        nearest = nearest_foes(members, arena, crowd.nearest_to_each)
        return [new_target(member, arena, nearest[member]) for member in members]
    sides = crowd.side[uids]
    tids = np.full(n, -1, dtype=np.int64)  # each one's nearest foe still fighting
    targets: list[Any] = [None] * n
    for side in np.unique(sides).tolist():
        filed = crowd.filed(1 - side) if arena.foes(side) else None
        if filed is None:
            continue  # no foe: random_foe's answer
        mine = np.flatnonzero(sides == side)
        places = np.empty(2 * len(mine))
        places[0::2], places[1::2] = crowd.x[uids[mine]], crowd.y[uids[mine]]
        rows = filed.rows_to_each(places)
        # whether each is fighting (one who left while the turn declares is yet filed)
        fights = np.zeros(len(filed.picks), dtype=np.bool_)  # the last: none
        near = np.unique(rows[rows >= 0])
        fights[near] = [foe.fighting for foe in filed.at(near)]
        found = fights[rows]
        tids[mine[found]] = filed.arrays[1][rows[found]]
        picked = filed.at(rows)
        if len(mine) == n:  # a band's members: of one side
            targets = picked
            continue
        for i, foe in zip(mine.tolist(), picked, strict=True):
            targets[i] = foe
    beyond = planning.beyond_reach(
        uids, tids, crowd.x, crowd.y, crowd.radius, crowd.reach, field.widest,
        _OUT_OF_REACH, 2.0,
    )  # fmt: skip
    for i in np.flatnonzero(~beyond).tolist():  # in order: it may draw
        member = members[i]
        targets[i] = random_foe(member, arena, member.targeting_rng)
    return targets
