"""A turn's declares on a field where not everyone touches: plain fighters in one loop.

On a field whose sides do not stand in one melee (a big band formed in ranks), every
fighter declares through :meth:`~fadad_agents.agents.core.character.Character.declare`:
a call, its budget, its policies' constant answers, a contact check, a plan of its move
(:func:`~fadad_agents.agents.core.moving.plan_move`), thousands of times a round. For a
**plain** fighter (:func:`~fadad_agents.agents.core.plain.round.is_plain`: nothing to
decide but a new target) without crit conditions, that declare is a few assignments, a
target kept or drawn, and, out of reach, the move it planned last time when nothing it
depends on changed (its :class:`~fadad_agents.agents.core.moving.Route`): here, inlined,
in the turn's order, so the same targets are drawn from the same stream in the same order.
Every other member declares by its own method in its place in the turn.

A fighter whose target fell takes a random foe in reach, else the nearest foe
(:func:`~fadad_agents.policies.core.defaults.random_foe`): behind the ranks, thousands a
round. Their nearest foes are found together before the turn declares (in arrays, one
compiled call a side); one that stands beyond the reach of the widest fighter is taken
without looking for foes in reach, as none can be.

In a turn big enough to be played in arrays (:func:`~.waiting.in_arrays`), the moves of
those who close in (:class:`~fadad_agents.policies.core.movement.CloseIn`) are planned
together once the turn has declared, in compiled code (:func:`~.planning.plan_moves`),
each as :func:`~fadad_agents.agents.core.moving.plan_move` plans it: nothing drawn depends
on a plan, and nobody reads another's planned actions while declaring.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from fadad_agents.agents.core import moving
from fadad_agents.agents.core.crowd import waiting
from fadad_agents.agents.core.moving import _ARRIVE
from fadad_agents.policies.core.defaults import random_foe

__all__ = ["DECLARE_TOGETHER", "PLAN_TOGETHER", "declare_turn"]

_OUT_OF_REACH = 1 + 1e-9
"""How many times the squared reach of the widest a nearest foe must stand beyond for no
foe to be in reach (floating point: the nearest of another side is compared by
``math.dist``)."""

DECLARE_TOGETHER = True
"""Declare a turn's plain fighters on a field here (False: each by its own method; the
tests compare both)."""

PLAN_TOGETHER = True
"""Plan the moves of a turn played in arrays together, compiled (False: each as it
declares; the tests compare both)."""


def declare_turn(
    turn: Sequence[Any], arena: Any, actions: int, off_field: Callable[[Any, Any, int], None]
) -> None:
    """Declare every fighting member of ``turn`` in order (on a field not all in one
    melee): a plain one on the field without conditions here, with the round's
    ``actions``; a plain one off it by ``off_field``; any other by its own method."""
    rnd = arena.round
    nearest = _nearest_foes(turn, arena)
    moves = _Moves(arena) if PLAN_TOGETHER and waiting.in_arrays(turn, arena) else None
    for member in turn:
        if not member.fighting:
            continue
        if member.plain is not True or member.conditions is not None:
            member.declare(arena)
        elif not member.placed:
            off_field(member, arena, actions)
        else:
            _declare_placed(member, arena, actions, rnd, nearest, moves)
    if moves is not None:
        moves.make()


def _nearest_foes(turn: Sequence[Any], arena: Any) -> dict[Any, Any]:
    """The nearest foe of each plain fighter of ``turn`` on the field without conditions
    that chooses a new target by :func:`random_foe` (its target fell, or it has none),
    found together, side by side (:meth:`~fadad_agents.engine.core.space.OnTheField.
    nearest_foes`): what it takes when no foe is in reach (nobody moves while declaring)."""
    choosing: dict[int, list[Any]] = {}
    for member in turn:
        target = member.target
        if (target is None or not target.fighting or not member.policies.keeps_target) and (
            member.fighting
            and member.plain is True
            and member.conditions is None
            and member.placed
            and member.policies.random_in_reach
        ):
            choosing.setdefault(member.side, []).append(member)
    nearest: dict[Any, Any] = {}
    for side, members in choosing.items():
        places = [member.position for member in members]
        nearest.update(zip(members, arena.nearest_foes(side, places), strict=True))
    return nearest


def _new_target(member: Any, arena: Any, near: Any) -> Any:
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


def _declare_placed(
    member: Any, arena: Any, budget: int, rnd: int, nearest: dict[Any, Any], moves: _Moves | None
) -> None:
    """:meth:`Character.declare` of a plain fighter without conditions on the field
    (``nearest``: the nearest foe of those that choose a new target, :func:`_nearest_foes`;
    its move planned with the turn's other ``moves`` when it closes in on a target there)."""
    member.attacks_planned, member.defences_left = 0, budget  # Character.round_budget
    member.move_actions = 0
    member.all_out = False
    if not budget:
        return
    pol = member.policies
    target = member.target
    if not (pol.keeps_target and target is not None and target.fighting):
        if pol.random_in_reach:
            target = _new_target(member, arena, nearest.get(member))
        else:
            target = pol.targeting.choose_target(member, arena, member.targeting_rng)
    if target is not None and target.engaged_round == rnd:  # places claimed already
        target = member.with_room(target, arena)
    member.target = target
    if target is None:
        return
    member.aim = None
    n = pol.attack_count  # at least 1: it is plain
    if n > budget:
        n = budget
    if moves is not None and moves.add(member, target, budget, n):
        return
    here: Any = member.position
    (ax, ay), there = here, target.position
    reach = member.radius + member.reach + target.radius
    if not (there is None or (ax - there[0]) ** 2 + (ay - there[1]) ** 2 <= reach**2):
        n = _plan_move(member, target, arena, budget, n)
    member.attacks_planned, member.defences_left = n, budget - n - member.move_actions


def _plan_move(member: Any, target: Any, arena: Any, budget: int, attacks: int) -> int:
    """:func:`~fadad_agents.agents.core.moving.plan_move`, its remembered move read here
    when the member's :class:`~fadad_agents.agents.core.moving.Route` still holds (it and
    its target stand where they stood, the same budget), else worked out there."""
    memory = member.memory
    route = memory.get("route")
    if (
        route is None
        or route.budget != budget
        or route.target is not target
        or route.here != member.position
        or route.at != target.position
        or route.placed != target.placed
        or not getattr(member.policies.movement, "foreseeable", False)
    ):
        return moving.plan_move(member, target, arena, budget, attacks)
    return moving.follow_plan(member, route.plan, budget, attacks)


class _Moves:
    """The plans of a turn's plain fighters who close in on targets on the field, made
    together once the turn has declared (:meth:`make`), in compiled code over the field
    in arrays (:mod:`~.waiting`): whether each target is in reach, and each move as
    :func:`~fadad_agents.agents.core.moving.plan_move` plans it (its
    :class:`~fadad_agents.agents.core.moving.Route` is not kept: a fighter whose turn is
    played in Python works its way out there)."""

    __slots__ = ("crowd", "members", "rows")

    def __init__(self, arena: Any) -> None:
        from fadad_agents.agents.core.crowd import kernels  # numba: crowds only

        self.crowd = waiting.crowd_now(arena, kernels)
        self.members: list[tuple[Any, int, int]] = []
        self.rows = array("q")

    def add(self, member: Any, target: Any, budget: int, attacks: int) -> bool:
        """Plan ``member``'s move toward ``target`` with ``budget`` actions, ``attacks``
        wanted, when the plans are made, if it may be planned so (it closes in, and its
        target stands on the field in the arrays)."""
        crowd = self.crowd
        uid = member.unique_id
        if not (crowd.closes[uid] and target.placed and target.unique_id in crowd.slot):
            return False
        self.members.append((member, budget, attacks))
        self.rows.extend((uid, target.unique_id, budget))
        return True

    def make(self) -> None:
        """Each member's plan: its movement actions, attacks and defences (as
        ``_declare_placed`` and :func:`~fadad_agents.agents.core.moving.follow_plan` set
        them)."""
        if not self.members:
            return
        from fadad_agents.agents.core.crowd import planning  # numba: crowds only

        crowd = self.crowd
        rows = np.frombuffer(self.rows, dtype=np.int64).reshape(-1, 3)
        found = planning.plan_moves(
            rows, crowd.x, crowd.y, crowd.radius, crowd.reach, crowd.stride, crowd.most, 2.0
        ).tolist()
        in_reach, stands = planning.IN_REACH, planning.STANDS
        for (member, budget, n), (spent, reaches) in zip(self.members, found, strict=True):
            if spent != in_reach:  # out of reach: moving.plan_move's end with this plan
                plan = None if spent == stands else (spent, bool(reaches))
                n = moving.follow_plan(member, plan, budget, n)
            member.attacks_planned, member.defences_left = n, budget - n - member.move_actions
