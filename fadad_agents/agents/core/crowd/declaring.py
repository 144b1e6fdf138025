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
round. They wait in the loop for the turn's next draw from the battle's streams, and
their nearest foes are found together then (in arrays, one compiled call a side; in a
turn played in arrays, from the field in arrays, :meth:`~.waiting._Crowd.
nearest_to_each`); one that stands beyond the reach of the widest fighter is taken
without looking for foes in reach, as none can be.

In a turn big enough to be played in arrays (:func:`~.waiting.in_arrays`), the moves of
those who close in (:class:`~fadad_agents.policies.core.movement.CloseIn`) are planned
together once the turn has declared, in compiled code (:func:`~.planning.plan_moves`),
each as :func:`~fadad_agents.agents.core.moving.plan_move` plans it: nothing drawn depends
on a plan, and nobody reads another's planned actions while declaring.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from fadad_agents.agents.core import moving
from fadad_agents.agents.core.crowd import choosing as choosing_
from fadad_agents.agents.core.crowd import plans, waiting
from fadad_agents.policies.core.movement import CloseIn

__all__ = [
    "DECLARE_TOGETHER", "PLAN_TOGETHER", "SETTLE_TOGETHER", "TARGETS_WITH_PLANS", "declare_turn",
]  # fmt: skip

DECLARE_TOGETHER = True
"""Declare a turn's plain fighters on a field here (False: each by its own method; the
tests compare both)."""

PLAN_TOGETHER = True
"""Plan the moves of a turn played in arrays together, compiled (False: each as it
declares; the tests compare both)."""

SETTLE_TOGETHER = True
"""In a turn whose moves are planned together, settle its plain fighters' targets in
arrays, a run of them at a time (:meth:`_Moves.settle`; False: each in the loop, as
with the moves planned one by one; the tests compare both)."""

SETTLE_AT_END = True
"""Settle those waiting once, at the turn's end; before a member between who declares by
its own method, off the field or by its policy's choice, only give those waiting for a new
target theirs (:meth:`_Moves.pause`), where its declare may draw too (False: settle every
one there; the tests compare both). A settle in arrays costs some 50 numpy calls however
few it settles, and crits leave a turn of thousands with dozens of such members."""

ROUTES_INLINED = True
"""A plain fighter's new route toward a target it closes in on worked out here, in one
call (:func:`_plan_move`; False: by :func:`~fadad_agents.agents.core.moving.plan_move`;
the tests compare both)."""

TARGETS_WITH_PLANS = True
"""The new targets of those settled together given with the rest of their plans
(:meth:`_Moves.make`: one pass over the turn's fighters, each read and written once
more), not as they are settled (False; the tests compare both): nobody reads another's
target while declaring."""

_FEW_SETTLED = 64
"""Fewer members to settle together than this (a turn's few between two who declare by
their own methods), and :meth:`_Moves.settle` reads them one by one, not in arrays."""


def declare_turn(
    turn: Sequence[Any], arena: Any, actions: int, off_field: Callable[[Any, Any, int], None]
) -> None:
    """Declare every fighting member of ``turn`` in order (on a field not all in one
    melee): a plain one on the field without conditions here, with the round's
    ``actions``; a plain one off it by ``off_field``; any other by its own method.

    Those here who take :func:`random_foe`'s new target wait for it (``choosing``) until
    a member who may draw declares, or the turn's end: their nearest foes found together
    (:func:`_choose`), then their draws made in order. Nothing between depends on them
    (nobody moves while declaring, the others here draw nothing): the same draws."""
    rnd = arena.round
    moves = _Moves(arena) if PLAN_TOGETHER and waiting.in_arrays(turn, arena) else None
    if moves is not None and actions and SETTLE_TOGETHER:
        _declare_band(turn, arena, actions, off_field, moves)
        moves.make(turn, rnd)
        return
    choosing: list[tuple[int, Any]] = []
    for at, member in enumerate(turn):
        if not member.fighting:
            continue
        if member.plain is not True or member.conditions is not None:
            if choosing:
                _choose(choosing, arena, actions, rnd, moves)
            member.declare(arena)
        elif not member.placed:
            if choosing:
                _choose(choosing, arena, actions, rnd, moves)
            off_field(member, arena, actions)
        else:
            member.attacks_planned, member.defences_left = 0, actions  # Character.round_budget
            member.move_actions = 0
            member.all_out = False
            if not actions:
                continue
            pol = member.policies
            target = member.target
            if not (pol.keeps_target and target is not None and target.fighting):
                if pol.random_in_reach:
                    choosing.append((at, member))
                    continue
                if choosing:  # a policy's own choice may draw
                    _choose(choosing, arena, actions, rnd, moves)
                target = pol.targeting.choose_target(member, arena, member.targeting_rng)
            _declare_placed(member, target, arena, actions, rnd, moves, at)
    if choosing:
        _choose(choosing, arena, actions, rnd, moves)
    if moves is not None:
        moves.make(turn, rnd)


def _declare_band(
    turn: Sequence[Any], arena: Any, actions: int, off_field: Callable[[Any, Any, int], None],
    moves: _Moves,
) -> None:  # fmt: skip
    """:func:`declare_turn` of a turn whose moves are planned together (``moves``), with
    ``actions`` to spend: a plain fighter on the field without conditions who keeps its
    target, or takes :func:`random_foe`'s, waits (``kept``, ``choosing``: its place in the
    turn) until a member who may draw from the battle's streams declares, or the turn's
    end; then those waiting are settled together (:meth:`_Moves.settle`). Nothing between
    depends on them: nobody moves, claims a place or reads another's target or actions
    while declaring, and the others here draw nothing."""
    # those waiting, by their places in the turn; their unique_ids; the targets kept
    kept: list[int] = []
    choosing: list[int] = []
    kept_ids: list[int] = []
    kept_targets: list[Any] = []
    chosen_ids: list[int] = []
    waits = (kept, kept_ids, kept_targets, choosing, chosen_ids)
    for at, member in enumerate(turn):
        if not member.fighting:
            continue
        plain = member.plain is True
        if not plain or member.conditions is not None:
            if kept or choosing:  # (not plain: one of its own policies may take it off)
                moves.pause(turn, waits, arena, actions, member, plain)
            member.declare(arena)
        elif not member.placed:
            if kept or choosing:
                moves.pause(turn, waits, arena, actions, member, True)
            off_field(member, arena, actions)
        else:
            pol = member.policies
            target = member.target
            if pol.keeps_target and target is not None and target.fighting:
                kept.append(at)
                kept_ids.append(member.unique_id)
                kept_targets.append(target)
            elif pol.random_in_reach:
                choosing.append(at)
                chosen_ids.append(member.unique_id)
            else:  # a policy's own choice may draw
                if kept or choosing:
                    moves.pause(turn, waits, arena, actions, None, True)
                _budget(member, actions)
                target = pol.targeting.choose_target(member, arena, member.targeting_rng)
                _declare_placed(member, target, arena, actions, arena.round, moves, at)
    if kept or choosing:
        moves.settle(turn, waits, arena, actions)


def _draws_none(member: Any) -> bool:
    """Whether ``member``'s own declare draws nothing: plain but for its crit conditions
    (which draw nothing), it keeps a target that still fights."""
    target = member.target
    keeps = member.policies.keeps_target and target is not None and target.fighting
    return bool(member.plain is True and keeps)


def _budget(member: Any, actions: int) -> None:
    """A plain fighter's budget of ``actions`` as it begins to declare (``round_budget``)."""
    member.attacks_planned, member.defences_left = 0, actions
    member.move_actions = 0
    member.all_out = False


def _choose(
    choosing: list[tuple[int, Any]], arena: Any, budget: int, rnd: int, moves: _Moves | None
) -> None:
    """Give each of ``choosing`` (plain fighters on the field without conditions, in
    order, with their places in the turn, whose new target is :func:`random_foe`'s) its
    new target and declare the rest of it (:func:`_declare_placed`); their nearest foes
    found together first, side by side (:meth:`~fadad_agents.engine.core.space.
    OnTheField.nearest_foes`; from the field in arrays, :meth:`~.waiting._Crowd.
    nearest_to_each`, where the turn's moves are planned there): what one takes when no
    foe is in reach. Empties ``choosing``."""
    each = None if moves is None else moves.crowd.nearest_to_each
    nearest = choosing_.nearest_foes([member for _, member in choosing], arena, each)
    for at, member in choosing:
        target = choosing_.new_target(member, arena, nearest[member])
        _declare_placed(member, target, arena, budget, rnd, moves, at)
    choosing.clear()


def _declare_placed(
    member: Any, target: Any, arena: Any, budget: int, rnd: int, moves: _Moves | None, at: int
) -> None:
    """The rest of :meth:`Character.declare` of a plain fighter without conditions on the
    field with ``budget`` actions (some left), once it has chosen ``target``: its move
    planned with the turn's other ``moves`` when it closes in on a target there (``at``:
    its place in the turn)."""
    if target is not None and target.engaged_round == rnd:  # places claimed already
        target = member.with_room(target, arena)
    member.target = target
    if target is None:
        return
    member.aim = None
    n = member.policies.attack_count  # at least 1: it is plain
    if n > budget:
        n = budget
    if moves is not None:  # _Moves.add, inlined: thousands a turn
        crowd = moves.crowd
        uid, tid = member.unique_id, target.unique_id
        slot = crowd.slot
        if crowd.closes[uid] and target.placed and tid < len(slot) and slot[tid] >= 0:
            moves.members.append(member)
            moves.targets.append(target)
            moves.rows.extend((uid, tid, budget, n, at))
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
    its target stand where they stood, the same budget), a new one toward a target it
    closes in on (:class:`CloseIn`) worked out in one call (:func:`~.plans.new_route`,
    :data:`ROUTES_INLINED`), else there."""
    memory, movement, field = member.memory, member.policies.movement, arena.field
    route = memory.get("route")
    here, at = member.position, target.position
    held = (
        route is not None
        and route.target is target
        and route.here == here
        and route.at == at
        and route.placed == target.placed
    )
    if held:
        if route.budget == budget and getattr(movement, "foreseeable", False):
            return moving.follow_plan(member, route.plan, budget, attacks)
    elif (
        ROUTES_INLINED
        and type(movement) is CloseIn
        and target.placed
        and member.target is target
        and member.conditions is None
        and field.width is None
        and field.height is None
    ):
        return plans.new_route(member, target, route, budget, attacks)
    return moving.plan_move(member, target, arena, budget, attacks)


class _Moves:
    """The plans of a turn's plain fighters who close in on targets on the field, made
    together once the turn has declared (:meth:`make`), compiled, over the field in
    arrays (:mod:`~.waiting`): whether each target is in reach, and each move as
    :func:`~fadad_agents.agents.core.moving.plan_move` plans it (its ``Route`` not kept:
    one whose turn is Python's works it out there). The turn's plan in arrays is left for
    its play (:func:`~.plans.plan_turn`): no fighter of these rows read again."""

    __slots__ = ("crowd", "members", "rows", "settled", "targets")

    def __init__(self, arena: Any) -> None:
        from fadad_agents.agents.core.crowd import kernels  # numba: crowds only

        self.crowd = waiting.crowd_now(arena, kernels)
        self.members: list[Any] = []
        self.targets: list[Any] = []  # theirs
        # each member's index, its target's, its actions, the attacks it wants and its
        # place in the turn, flat (a list: an array("q") parses each int it is given)
        self.rows: list[int] = []
        # members settled together (:meth:`settle`), targets and rows (arrays), a run each
        self.settled: list[tuple[list[Any], list[Any], Any]] = []

    def pause(
        self, turn: Sequence[Any], waits: tuple[list[Any], ...], arena: Any, budget: int,
        member: Any, passed: bool,
    ) -> None:  # fmt: skip
        """Before ``member`` declares by its own method (None: by its policy's choice)
        amid ``waits``: with :data:`SETTLE_AT_END`, where they may wait past it
        (``passed``), those who take :func:`random_foe`'s target given it (:meth:`choose`)
        unless its declare draws nothing (:func:`_draws_none`); else all settled. The
        rest of a settle draws nothing and reads nothing such a member changes (where
        anyone stands, targets' figures, one's own state), unless it may leave, or tend
        another (``passed`` False: not plain, its policies or kit may)."""
        if not (SETTLE_AT_END and passed):
            self.settle(turn, waits, arena, budget)
        elif waits[3] and (member is None or not _draws_none(member)):
            self.choose(turn, waits, arena)

    def choose(self, turn: Sequence[Any], waits: tuple[list[Any], ...], arena: Any) -> None:
        """:meth:`pause`'s new targets (:meth:`_new_targets`), before a member who may
        draw."""
        self._new_targets(turn, waits, arena)

    def _new_targets(self, turn: Sequence[Any], waits: tuple[list[Any], ...], arena: Any) -> None:
        """Give those of ``waits`` who take :func:`random_foe`'s new target theirs, in turn
        order (in arrays, :func:`~.choosing.new_targets`, or, fewer than
        :data:`_FEW_SETTLED`, one by one); each then waits as one who keeps its target
        (given it with its plan: :data:`TARGETS_WITH_PLANS`)."""
        kept, kept_ids, targets, choosing, chosen_ids = waits
        chosen = list(map(turn.__getitem__, choosing))
        if len(chosen) < _FEW_SETTLED:
            nearest = choosing_.nearest_foes(chosen, arena, self.crowd.nearest_to_each)
            found = [choosing_.new_target(member, arena, nearest[member]) for member in chosen]
        else:
            uids = np.array(chosen_ids, dtype=np.int64)
            found = choosing_.new_targets(self.crowd, chosen, uids, arena)
        if not TARGETS_WITH_PLANS:  # as settle gives them
            for member, target in zip(chosen, found, strict=True):
                member.target = target
        kept += choosing
        kept_ids += chosen_ids
        targets += found
        choosing.clear()
        chosen_ids.clear()

    def settle(
        self, turn: Sequence[Any], waits: tuple[list[Any], ...], arena: Any, budget: int
    ) -> None:
        """Declare the rest of ``turn``'s members who wait (``waits``: places in the
        turn, ids and targets of those who keep theirs; places and ids of those who take
        :func:`random_foe`'s, given theirs first by :meth:`_new_targets`), with ``budget``
        actions, as :func:`_declare_placed` would: each whose target the arrays plan a
        move toward (it closes in; placed, filed, no place claimed this round) left to
        :meth:`make`, budget too; any other the loop's way, in turn order. Empties
        ``waits``."""
        if waits[3]:
            self._new_targets(turn, waits, arena)  # all now wait as those who keep theirs
        crowd, rnd = self.crowd, arena.round
        ats, ids, targets = waits[0].copy(), waits[1].copy(), waits[2].copy()
        for done in waits:
            done.clear()
        if len(ats) < _FEW_SETTLED:
            self._settle_few(turn, ats, ids, targets, arena, budget)
            return
        members = list(map(turn.__getitem__, ats))
        uids = np.array(ids, dtype=np.int64)
        n, size = len(members), len(crowd.x)
        if None in targets:
            found = np.array([t is not None for t in targets])
            figures = np.full((n, 3), -1, dtype=np.int64)
            figures[found] = plans.figures([t for t in targets if t is not None])
        else:
            figures = plans.figures(targets)
        tids = figures[:, 0]
        filed = (tids >= 0) & (tids < size)
        ready = filed & (figures[:, 1] == 1) & (figures[:, 2] != rnd)  # placed, unclaimed
        ready &= crowd.on_field[np.where(filed, tids, 0)]  # ``crowd.slot[tid] >= 0``
        if int(uids.max()) < size:
            ready &= crowd.most[uids] >= 0  # ``crowd.closes``
        else:
            ready[:] = False
        for i in sorted(np.flatnonzero(~ready).tolist(), key=ats.__getitem__):
            member = members[i]
            _budget(member, budget)
            _declare_placed(member, targets[i], arena, budget, rnd, self, ats[i])
        fast = np.flatnonzero(ready)
        if not len(fast):
            return
        if len(fast) != n:
            picked = fast.tolist()
            members, targets = [members[i] for i in picked], [targets[i] for i in picked]
        uids = uids[fast]
        rows = np.column_stack(
            (
                uids, tids[fast], np.full(len(fast), budget, dtype=np.int64),
                np.minimum(crowd.wanted[uids], budget), np.array(ats, dtype=np.int64)[fast],
            )
        )  # fmt: skip
        self.settled.append((members, targets, rows))

    def _settle_few(
        self, turn: Sequence[Any], ats: list[int], uids: list[int], targets: list[Any],
        arena: Any, budget: int,
    ) -> None:  # fmt: skip
        """:meth:`settle` of a few (at their places ``ats`` in ``turn``, with their
        ``uids`` and ``targets``), member by member (a few dozen numpy calls cost more
        than their work): each one's target read and checked as :meth:`settle` checks it
        in arrays."""
        crowd, rnd = self.crowd, arena.round
        members = list(map(turn.__getitem__, ats))
        slot, closes, wanted = crowd.slot, crowd.closes, crowd.wanted
        size = len(slot)
        closing = max(uids) < size
        ready: list[int] = []  # as settle's: the rest first, in turn order, then these
        for i in sorted(range(len(members)), key=ats.__getitem__):
            target = targets[i]
            if (
                closing
                and target is not None
                and 0 <= target.unique_id < size
                and target.placed
                and target.engaged_round != rnd  # no place claimed round it
                and slot[target.unique_id] >= 0
                and closes[uids[i]]
            ):
                ready.append(i)
                continue
            _budget(members[i], budget)
            _declare_placed(members[i], target, arena, budget, rnd, self, ats[i])
        if not ready:
            return
        ready.sort()
        rows: list[int] = []
        for i in ready:
            uid, tid = uids[i], targets[i].unique_id
            rows += (uid, tid, budget, min(int(wanted[uid]), budget), ats[i])
        rows_in = np.array(rows, dtype=np.int64).reshape(-1, 5)
        self.settled.append(([members[i] for i in ready], [targets[i] for i in ready], rows_in))

    def make(self, turn: Sequence[Any], rnd: int) -> None:
        """Each member's plan: its movement actions, attacks and defences (as
        ``_declare_placed`` and :func:`~fadad_agents.agents.core.moving.follow_plan` set
        them, worked out together in arrays); and ``turn``'s plan in round ``rnd`` as
        :func:`~.plans.plan_turn` reads it, the other members' rows left to read."""
        plan = np.full((len(turn), 4), plans.UNREAD, dtype=np.int64)
        self.crowd.declared_plans[id(turn)] = (turn, rnd, plan)
        rows = np.fromiter(self.rows, np.int64, len(self.rows)).reshape(-1, 5)
        if self.settled:
            rows = np.concatenate([rows, *(settled for _, _, settled in self.settled)])
            for members, targets, _ in self.settled:
                self.members += members
                self.targets += targets
        if not self.members:
            return
        from fadad_agents.agents.core.crowd import planning  # numba: crowds only

        crowd = self.crowd
        found = planning.plan_moves(
            rows[:, :3], crowd.x, crowd.y, crowd.radius, crowd.reach, crowd.stride,
            crowd.most, 2.0,
        )  # fmt: skip
        spent, budget, wanted = found[:, 0], rows[:, 2], rows[:, 3]
        # moving.follow_plan's end: in reach, or standing, the attacks wanted; else the
        # actions spent moving, and attacks only if the move ends in reach
        out = spent != planning.IN_REACH
        stands = spent == planning.STANDS
        moves = np.where(out & ~stands, spent, 0)
        attacks = np.where(
            out & ~stands, np.where(found[:, 1] > 0, np.minimum(wanted, budget - moves), 0), wanted
        )
        if plans.ROWS_COMPILED:
            planning.put_rows(plan, rows, moves, attacks)
        else:
            plan[rows[:, 4]] = np.column_stack((rows[:, 0], rows[:, 1], moves, attacks))
        for member, target, far, n, a, d, m in zip(
            self.members, self.targets, out.tolist(), wanted.tolist(), attacks.tolist(),
            (budget - attacks - moves).tolist(), moves.tolist(), strict=True,
        ):  # fmt: skip
            member.target = target  # (its own already, unless settled new: TARGETS_WITH_PLANS)
            if far:
                member.memory["attacks_wanted"] = n
            # the rest of the budget (_budget: those settled together had none yet)
            member.move_actions, member.all_out, member.aim = m, False, None
            member.attacks_planned, member.defences_left = a, d
