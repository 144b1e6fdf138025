"""A band's turn as the compiled loop reads it (:func:`~.kernels.wait_in_ranks`): each
member's plan and way, in arrays (:mod:`~.waiting`).

A member's row says whose turn is the arrays' and whose Python's, its target and the
actions it planned; its way is the move it searches along (:func:`~fadad_agents.agents.
core.moving.current_way`, as its own turn would find it). Where the turn's declares
planned the moves together (``declaring._Moves``), their rows are read from there,
checked again only for what may change before the turn, and no fighter is read again.

Where a band's turn declares member by member (``declaring``), a member's new route
toward a target it closes in on is worked out in one call (:func:`new_route`), and the
targets of those whose moves are planned together read once (:func:`figures`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from itertools import chain
from operator import attrgetter
from typing import Any

import numpy as np

from fadad_agents.agents.core import moving
from fadad_agents.agents.core.moving import _ARRIVE, _PLANS
from fadad_agents.agents.core.ranks import ENGAGE_MARGIN, ring

__all__ = ["ROWS_COMPILED", "UNREAD", "figures", "new_route", "plan_turn"]

UNREAD = -3
"""In a turn's plan as its declares leave it: the member's row is read on its turn."""

ROWS_COMPILED = True
"""A turn's rows checked again, sorted and laid out for the compiled loop in compiled
code (:func:`~.planning.recheck`, :func:`~.planning.closing`, :func:`~.planning.fill_plan`;
a turn's declared rows put in place by :func:`~.planning.put_rows`), not by numpy's
indexing of rows by masks and lists (False; the tests compare both): the same integers,
at 10,000 rows a few ms a round less (numpy gathers rows of a 2-d array one item at a
time)."""


_TARGETS = attrgetter("unique_id", "placed", "engaged_round")
_FEW_TARGETS = 64
"""Fewer targets than this are read each (:func:`figures`), not sorted by identity."""


def plan_turn(crowd: Any, turn: Sequence[Any], arena: Any, kernels: Any) -> tuple[Any, Any]:
    """Each member's plan and way as :func:`kernels.wait_in_ranks` reads them: a
    member's way is row ``unique_id`` of the ``crowd``'s ``way``, written when the way
    :func:`moving.current_way` gives differs from the one written last (the same way
    object while neither it nor its target moved: most of a deep block's rows stay);
    the ways of those who close in (:class:`CloseIn`) worked out together in compiled
    code (:func:`~.planning.write_ways`), each row again only when it or its target
    moved or its actions changed."""
    from fadad_agents.agents.core.crowd import planning  # numba: crowds only

    size = len(crowd.x)
    # rows flat, no tuple a member to convert (a list: an array("q") parses each int)
    plans: list[int] = []
    no_turn, pythons = (kernels.NO_TURN, 0, 0, 0), (kernels.PYTHONS, 0, 0, 0)
    steady, looks, written, closes = crowd.steady, crowd.looks_in_reach, crowd.written, crowd.closes
    current_way = moving.current_way
    given, read = _declared(crowd, turn, arena, kernels)
    for member in map(turn.__getitem__, read) if read is not None else turn:
        if not member.fighting:
            plans.extend(no_turn)
            continue
        target, uid = member.target, member.unique_id
        if (
            target is None
            or member.conditions is not None
            or uid >= size
            or not steady[uid]
            or target.unique_id >= size
            or not target.placed
            or member.stepped
            or (member.attacks_planned and not looks)
        ):
            plans.extend(pythons)
            continue
        plans.extend((uid, target.unique_id, member.move_actions, member.attacks_planned))
        if closes[uid]:  # its way written in compiled code, below
            continue
        found = current_way(member, arena)
        if written[uid] is not found:
            written[uid] = found
            _write(crowd, member, found)
    made = np.fromiter(plans, np.int64, len(plans)).reshape(-1, 4)
    if read is None:
        given = made
    else:
        given[read] = made
    if ROWS_COMPILED:
        rows = planning.closing(given, crowd.most)
        if len(rows):
            _write_ways(planning, crowd, rows)
        return planning.fill_plan(given, crowd.reaches, crowd.version), crowd.way
    known = given[:, 0] >= 0
    rows = given[known]
    rows = np.ascontiguousarray(rows[crowd.most[rows[:, 0]] >= 0, :3])
    if len(rows):
        _write_ways(planning, crowd, rows)
    plan = np.zeros((len(given), 9), dtype=np.int64)
    plan[:, :4] = given
    uids = given[known, 0]
    plan[known, 4:6] = crowd.reaches[uids]
    plan[known, 6] = uids
    plan[known, 7] = crowd.version[uids]
    plan[known, 8] = crowd.version[given[known, 1]]
    return plan, crowd.way


def _write_ways(planning: Any, crowd: Any, rows: Any) -> None:
    """The ways of the fighters of ``rows`` who close in, written in compiled code
    (:func:`~.planning.write_ways`; a fighter closes in or not all battle: its rows are
    written one way)."""
    planning.write_ways(
        rows, crowd.x, crowd.y, crowd.radius, crowd.reach, crowd.stride, crowd.version,
        crowd.way_key, crowd.way, crowd.reaches, crowd.measures,
    )  # fmt: skip


def _declared(crowd: Any, turn: Sequence[Any], arena: Any, kernels: Any) -> tuple[Any, Any]:
    """``turn``'s plan as its declares left it this round (``declaring._Moves``), and
    which members' rows are yet to read (None: every one, nothing left). A row left
    there is checked again for what may change before the turn: whether it fights
    still; a crit since (conditions) is the arrays' to meet (:meth:`~.waiting._Crowd.
    played`)."""
    declared = crowd.declared_plans.pop(id(turn), None)
    if declared is None or declared[0] is not turn or declared[1] != arena.round:
        return None, None
    given = declared[2]
    if ROWS_COMPILED:
        from fadad_agents.agents.core.crowd import planning  # numba: crowds only

        planning.recheck(
            given, crowd.steady_at, crowd.fighting, crowd.looks_in_reach, kernels.PYTHONS,
            kernels.NO_TURN,
        )  # fmt: skip
        return given, np.flatnonzero(given[:, 0] == UNREAD).tolist()
    told = given[:, 0] >= 0
    rows = given[told]
    k = rows[:, 0].copy()
    rows[~crowd.steady_at[k] | ((rows[:, 3] > 0) & (not crowd.looks_in_reach))] = kernels.PYTHONS
    rows[~crowd.fighting[k]] = kernels.NO_TURN
    rows[rows[:, 0] < 0, 1:] = 0
    given[told] = rows
    return given, np.flatnonzero(given[:, 0] == UNREAD).tolist()


def _write(crowd: Any, member: Any, found: Any) -> None:
    """Write ``member``'s way ``found`` (:func:`moving.current_way`, None: it stands)
    in its rows of the ``crowd``'s ``way`` and ``reaches``."""
    uid = member.unique_id
    if found is None:
        crowd.way[uid] = (0.0, 0.0, 0.0, 0.0, 0.0, member.reach)
        crowd.reaches[uid] = (0, 0)
        return
    goal, gap, yards, allowance, _, reached = found
    crowd.way[uid] = (goal[0], goal[1], gap, yards, allowance, member.reach)
    crowd.reaches[uid] = (1, 0 if reached is None else ring(reached.radius, member.radius)[1])


def figures(targets: list[Any]) -> Any:
    """Each of ``targets``' ``unique_id``, whether it is placed (1) and the round a place
    round it was last claimed: read once a target (a band's thousands share a few hundred,
    those in its front ranks), the others found by identity (no fighter read)."""
    n = len(targets)
    if n < _FEW_TARGETS:
        return _read(targets)
    keys = np.fromiter(map(id, targets), np.int64, n)
    _, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
    return _read(list(map(targets.__getitem__, first.tolist())))[inverse]


def _read(targets: list[Any]) -> Any:
    """:func:`figures`, each target read."""
    n = len(targets)
    return np.fromiter(chain.from_iterable(map(_TARGETS, targets)), np.int64, 3 * n).reshape(n, 3)


def new_route(member: Any, target: Any, route: Any, budget: int, attacks: int) -> int:
    """:func:`~fadad_agents.agents.core.moving.plan_move` of ``member`` closing in on
    ``target`` (placed, its own already) on an unbounded field, no crit slowing it, its
    ``route`` (if any) no longer holding: ``_foreseen``'s new route, ``_destination``'s
    of :class:`~fadad_agents.policies.core.movement.CloseIn`, ``_plan``'s move and way
    and ``follow_plan``, in one call."""
    memory, here, at = member.memory, member.position, target.position
    if route is None:
        route = memory["route"] = moving.Route(here, target, at, True)
    else:
        route.here, route.target, route.at, route.placed = here, target, at, True
        route.way, route.actions = moving._UNSET, -1
    memory["attacks_wanted"] = attacks
    (ax, ay), (tx, ty) = here, at
    reach = member.radius + member.reach + target.radius
    dx, dy = ax - tx, ay - ty
    if dx**2 + dy**2 <= reach * reach + _ARRIVE:  # in reach already: it stands
        route.move, route.plan, route.budget = None, None, budget
        member.move_actions = 0
        return attacks
    goal = moving.on_ring(tx, ty, dx, dy, reach - ENGAGE_MARGIN)  # CloseIn's destination
    most = member.policies.movement.actions
    route.move = goal, most
    gx, gy = goal
    gap, pace = math.hypot(ax - gx, ay - gy), float(member.stride)
    spent, yards = moving.steps_for(gap, most if most < budget else budget, pace)
    reaches = yards >= gap - _ARRIVE and math.hypot(gx - tx, gy - ty) <= reach + _ARRIVE
    route.way = moving.open_way(goal, gap, spent, pace, target)
    route.actions, route.budget = spent, budget
    route.plan = _PLANS[spent, reaches]
    member.move_actions = spent
    if not reaches:
        return 0
    left = budget - spent
    return attacks if attacks < left else left
