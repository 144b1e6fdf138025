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
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from fadad_agents.agents.core import moving
from fadad_agents.policies.core.defaults import random_foe

__all__ = ["DECLARE_TOGETHER", "declare_turn"]

DECLARE_TOGETHER = True
"""Declare a turn's plain fighters on a field here (False: each by its own method; the
tests compare both)."""


def declare_turn(
    turn: Sequence[Any], arena: Any, actions: int, off_field: Callable[[Any, Any, int], None]
) -> None:
    """Declare every fighting member of ``turn`` in order (on a field not all in one
    melee): a plain one on the field without conditions here, with the round's
    ``actions``; a plain one off it by ``off_field``; any other by its own method."""
    rnd = arena.round
    for member in turn:
        if not member.fighting:
            continue
        if member.plain is not True or member.conditions is not None:
            member.declare(arena)
        elif not member.placed:
            off_field(member, arena, actions)
        else:
            _declare_placed(member, arena, actions, rnd)


def _declare_placed(member: Any, arena: Any, budget: int, rnd: int) -> None:
    """:meth:`Character.declare` of a plain fighter without conditions on the field."""
    member.attacks_planned, member.defences_left = 0, budget  # Character.round_budget
    member.move_actions = 0
    member.all_out = False
    if not budget:
        return
    pol = member.policies
    target = member.target
    if not (pol.keeps_target and target is not None and target.fighting):
        if pol.random_in_reach:
            target = random_foe(member, arena, member.targeting_rng)
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
