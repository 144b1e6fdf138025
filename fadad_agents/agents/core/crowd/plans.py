"""A band's turn as the compiled loop reads it (:func:`~.kernels.wait_in_ranks`): each
member's plan and way, in arrays (:mod:`~.waiting`).

A member's row says whose turn is the arrays' and whose Python's, its target and the
actions it planned; its way is the move it searches along (:func:`~fadad_agents.agents.
core.moving.current_way`, as its own turn would find it). Where the turn's declares
planned the moves together (``declaring._Moves``), their rows are read from there,
checked again only for what may change before the turn, and no fighter is read again.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from fadad_agents.agents.core import moving
from fadad_agents.agents.core.ranks import ring

__all__ = ["ROWS_COMPILED", "UNREAD", "plan_turn"]

UNREAD = -3
"""In a turn's plan as its declares leave it: the member's row is read on its turn."""

ROWS_COMPILED = True
"""A turn's rows checked again, sorted and laid out for the compiled loop in compiled
code (:func:`~.planning.recheck`, :func:`~.planning.closing`, :func:`~.planning.fill_plan`;
a turn's declared rows put in place by :func:`~.planning.put_rows`), not by numpy's
indexing of rows by masks and lists (False; the tests compare both): the same integers,
at 10,000 rows a few ms a round less (numpy gathers rows of a 2-d array one item at a
time)."""


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
