"""A mover's shortcuts in :mod:`~fadad_agents.agents.core.moving` work out what the long
way does, to the last bit (issue 19: a turn that moves, cheaper in Python).

A ``CloseIn`` fighter's destination is read without asking the policy and the arena
(``moving._destination``, inlined), and the way of a move is worked out with its plan at
the declare, kept in the fighter's route for its turn, instead of on its turn. Whole
battles played with and without remembering routes are compared in
``test_crowd_shortcuts``; here each answer is compared with the long way's.
"""

from __future__ import annotations

from typing import Any

import pytest

from fadad_agents.agents.core import moving
from fadad_agents.agents.core.field import Field
from tests.engine.core.test_planning import _Arena, _pairs_of_fighters

_FIELDS = {"open": (None, None), "walled": (30.0, 20.0)}


@pytest.mark.parametrize("size", _FIELDS.values(), ids=_FIELDS.keys())
def test_a_close_in_destination_is_the_policys(size: tuple[float | None, float | None]) -> None:
    """moving._destination of a CloseIn fighter is CloseIn.destination through the
    arena's engage_point, to the last bit: every size, reach and gait, anywhere, on top
    of its target or at the edge of its reach; None without a target."""
    arena = _Arena(Field(2, width=size[0], height=size[1]))
    touching = 0
    for actor, target in _pairs_of_fighters(20_000):
        want = actor.policies.movement.destination(actor, target, arena)
        assert moving._destination(actor, target, arena, None) == want
        touching += want is None
        assert moving._destination(actor, None, arena, None) is None
    assert touching > 100, "few fighters touched their targets: that branch is barely tested"


@pytest.mark.parametrize("size", _FIELDS.values(), ids=_FIELDS.keys())
def test_a_planned_move_keeps_the_way_its_turn_works_out(
    size: tuple[float | None, float | None],
) -> None:
    """The way moving._plan keeps in a fighter's route with the actions it plans is the
    one its turn works out afresh with those actions (moving._way_now, no route: as a
    turn whose place the arrays found reads it), to the last bit; and current_way reads it
    from the route while both stand where they did."""
    arena: Any = _Arena(Field(2, width=size[0], height=size[1]))
    kept = 0
    for budget, (actor, target) in enumerate(_pairs_of_fighters(20_000)):
        actor.memory = {}
        route = moving._foreseen(actor, target)
        plan = moving._plan(actor, target, arena, budget % 3, route)
        if plan is None:
            assert route.way is moving._UNSET
            continue
        actor.move_actions = plan[0]
        assert route.actions == plan[0]
        assert route.way == moving._way_now(actor, arena, None)
        assert moving.current_way(actor, arena) is route.way
        kept += route.way is not None
    assert kept > 1000


def test_a_route_kept_in_its_object_starts_afresh() -> None:
    """A fighter's route, once it or its target stepped, is a new route in the same
    object: nothing worked out before is read again."""
    arena: Any = _Arena(Field(2))
    actor, target = next((a, t) for a, t in _pairs_of_fighters(200) if a.move_actions)
    actor.memory = {}
    route = moving._foreseen(actor, target)
    moving._plan(actor, target, arena, 2, route)
    assert route.way is not moving._UNSET
    target.position = (target.position[0] + 3.0, target.position[1])
    again = moving._foreseen(actor, target)
    assert again is route
    assert (route.at, route.move, route.plan, route.way) == (
        target.position,
        moving._UNSET,
        moving._UNSET,
        moving._UNSET,
    )
    assert (route.budget, route.actions) == (-1, -1)


def test_steps_for_is_the_rules_move_plan() -> None:
    """moving.steps_for (every plan of a mover: its allowances from a table) spends the
    actions and covers the yards ``rules.personal.movement.move_plan`` does, to the last
    bit: gaps on, a hair either side of and between each allowance, every action count
    from -1 to past the most, at whole, short-legged and odd strides."""
    from fadad_agents.rules.personal.movement import (
        MAX_MOVE_ACTIONS,
        move_plan,
        movement_allowance,
    )

    edges = [movement_allowance(a) for a in range(MAX_MOVE_ACTIONS + 1)]
    checked = 0
    for pace in (1.0, 0.75, 2 / 3, 1.25):
        gaps = [-1.0, 0.0, 0.5] + [e * pace + d for e in edges for d in (-1e-9, 0.0, 1e-9, 3.5)]
        for gap in gaps:
            for most in range(-1, MAX_MOVE_ACTIONS + 2):
                assert moving.steps_for(gap, most, pace) == move_plan(gap, most, pace)
                checked += 1
    assert checked > 200
