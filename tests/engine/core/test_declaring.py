"""A turn's plain fighters on a field declare in one loop as each would by its own method.

Where the sides do not stand in one melee, the plain fighters of a turn declare in
``agents.core.crowd.declaring``: their budget, a target kept or drawn, and the move they
planned before when nothing it depends on changed. Bands formed in ranks (in contact, and
closing in from 12 yards; with crits that leave conditions, whose fighters declare by
their own method) play the same battle, byte for byte in the log, with it on and off.
"""

from __future__ import annotations

from typing import Any

import pytest

from benchmarks.bench_engine import _melee_yaml
from fadad_agents.agents.core import moving
from fadad_agents.agents.core.crowd import choosing, declaring, plans, waiting
from fadad_agents.engine import build_battle, load

pytestmark = pytest.mark.usefixtures("python_melee")  # Python's shortcuts compared


def _log_text(text: str, seed: int) -> str:
    battle = build_battle(load(text), seed, collect=False)
    battle.run_to_end()
    return str(battle.log.to_jsonl())


@pytest.mark.parametrize("gap", [None, 12])
@pytest.mark.parametrize("seed", [1, 2])
def test_a_turn_declared_together_plays_the_same_battle(
    gap: int | None, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two bands of 150 formed in ranks play the same first 12 rounds with the turn's
    declares in one loop and by each fighter's own method; and the loop declared most of
    them itself, reading a remembered move for some."""
    text = _melee_yaml(150, bands=True, gap=gap).replace("max_rounds: 1000", "max_rounds: 12")
    text = text.replace("rolled}", "rolled, fadad.crit_effects: random}")
    counts = {"here": 0, "remembered": 0}
    placed, planned = declaring._declare_placed, declaring._plan_move

    def counted_placed(*args: Any) -> None:
        counts["here"] += 1
        placed(*args)

    def counted_plan(member: Any, *args: Any) -> int:
        route = member.memory.get("route")
        moves = planned(member, *args)
        counts["remembered"] += route is not None and member.memory.get("route") is route
        return moves

    monkeypatch.setattr(declaring, "_declare_placed", counted_placed)
    monkeypatch.setattr(declaring, "_plan_move", counted_plan)
    together = _log_text(text, seed)
    assert counts["here"] > 1000
    assert counts["remembered"] > 100
    monkeypatch.setattr(declaring, "DECLARE_TOGETHER", False)
    assert _log_text(text, seed) == together


_WALLED = "map: {kind: open, width: 14, height: 8}\n"
"""A yard narrower than the ranks: its members' new routes are worked out by
``moving.plan_move`` (a way clamped to the field)."""


@pytest.mark.parametrize(("gap", "walls"), [(None, ""), (12, ""), (12, _WALLED)])
@pytest.mark.parametrize("seed", [1, 2])
def test_new_routes_inlined_play_the_same_battle(
    gap: int | None, walls: str, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two bands of 150 formed in ranks (crits leave conditions), declared member by
    member: the same first 12 rounds with a new route toward a target closed in on worked
    out in one call (``plans.new_route``) and by ``moving.plan_move``; and the one call
    worked out many on an open field, none in a walled yard."""
    text = _melee_yaml(150, bands=True, gap=gap).replace("max_rounds: 1000", "max_rounds: 12")
    text = text.replace("rolled}", "rolled, fadad.crit_effects: random}") + walls
    inlined = 0
    new_route = plans.new_route

    def counted(*args: Any) -> int:
        nonlocal inlined
        inlined += 1
        return new_route(*args)

    monkeypatch.setattr(plans, "new_route", counted)
    one_call = _log_text(text, seed)
    assert inlined > 1000 if not walls else inlined == 0
    monkeypatch.setattr(declaring, "ROUTES_INLINED", False)
    assert _log_text(text, seed) == one_call


_ROUTE = ("here", "target", "at", "placed", "move", "plan", "way", "budget", "actions")


def _planned(member: Any, attacks: int) -> tuple[Any, ...]:
    """What a member's plan leaves: the attacks it may make, its movement actions, the
    attacks it wants and its route's every part."""
    route = member.memory["route"]
    parts = tuple(getattr(route, part) for part in _ROUTE)
    return attacks, member.move_actions, member.memory["attacks_wanted"], parts


_new_route = plans.new_route


def _both_ways(member: Any, target: Any, arena: Any, budget: int, attacks: int) -> Any:
    """What ``plans.new_route`` leaves ``member`` (:func:`_planned`), checked against what
    ``moving.plan_move`` leaves it from the same route it had (or none), which it keeps."""
    route = member.memory.get("route")
    was = None if route is None else tuple(getattr(route, part) for part in _ROUTE)
    found = _planned(member, _new_route(member, target, route, budget, attacks))
    if route is None:
        del member.memory["route"]
    else:
        for part, value in zip(_ROUTE, was, strict=True):
            setattr(route, part, value)
    del member.memory["attacks_wanted"]
    member.move_actions = -1
    again = moving.plan_move(member, target, arena, budget, attacks)
    assert _planned(member, again) == found
    return found


@pytest.mark.parametrize("gap", [None, 40])
def test_a_new_route_is_the_one_plan_move_works_out(
    gap: int | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each new route worked out in one call (``plans.new_route``) in two bands of 150
    formed in ranks (in contact, 40 yards apart) leaves the member what
    ``moving.plan_move`` leaves it: the same attacks, movement actions, attacks wanted and
    every part of the route; many reach their target, or (40 yards apart) fall short."""
    text = _melee_yaml(150, bands=True, gap=gap).replace("max_rounds: 1000", "max_rounds: 8")
    kinds = {"reaches": 0, "short": 0}

    def compared(member: Any, target: Any, route: Any, budget: int, attacks: int) -> int:
        assert member.memory.get("route") is route
        found = _both_ways(member, target, battle, budget, attacks)
        kinds["reaches" if found[3][5][1] else "short"] += 1
        return int(found[0])

    monkeypatch.setattr(plans, "new_route", compared)
    battle = build_battle(load(text), 1, collect=False)
    for _ in range(8):
        battle.play_round()
    assert kinds["reaches" if gap is None else "short"] > 200


def test_a_route_in_reach_is_the_one_plan_move_works_out() -> None:
    """A member without conditions already in reach of its target (a front rank's, in
    contact), its route gone, is given by ``plans.new_route`` what ``moving.plan_move``
    gives it: no move, every attack wanted, a route that stands (``plan`` None)."""
    text = _melee_yaml(150, bands=True).replace("max_rounds: 1000", "max_rounds: 1")
    battle = build_battle(load(text), 1, collect=False)
    battle.play_round()
    stood = 0
    for side in battle.sides:
        for member in side.members:
            target = member.target
            if member.conditions is None and moving.in_contact(member, target, battle):
                del member.memory["route"]  # a new one, as where it moved or its target did
                found = _both_ways(member, target, battle, 2, 1)
                assert found[:3] == (1, 0, 1)
                assert found[3][5] is None
                stood += 1
    assert stood > 10


@pytest.mark.parametrize("gap", [None, 12])
@pytest.mark.parametrize("seed", [1, 2])
def test_moves_planned_together_play_the_same_battle(
    gap: int | None, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two bands of 150 formed in ranks (crits leave conditions: some declare by their own
    method amid a turn), played in arrays (the threshold lowered): the same first 12
    rounds with a turn's moves toward contact planned together, compiled, and each as its
    fighter declares; and many were planned together."""
    text = _melee_yaml(150, bands=True, gap=gap).replace("max_rounds: 1000", "max_rounds: 12")
    text = text.replace("rolled}", "rolled, fadad.crit_effects: random}")
    made = 0
    make = declaring._Moves.make

    def counted(moves: Any, *args: Any) -> None:
        nonlocal made
        made += len(moves.members) + sum(len(members) for members, _, _ in moves.settled)
        make(moves, *args)

    monkeypatch.setattr(declaring._Moves, "make", counted)
    monkeypatch.setattr(waiting, "IN_ARRAYS_AT_LEAST", 8)
    together = _log_text(text, seed)
    assert made > 1000
    monkeypatch.setattr(declaring, "PLAN_TOGETHER", False)
    assert _log_text(text, seed) == together


@pytest.mark.parametrize("gap", [None, 12])
@pytest.mark.parametrize("seed", [1, 2])
def test_targets_settled_together_play_the_same_battle(
    gap: int | None, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two bands of 150 formed in ranks (crits leave conditions: some declare by their own
    method amid a turn), played in arrays (the threshold lowered): the same first 12
    rounds with a turn's targets settled together in arrays (new ones found there, some
    drawn), with every third left to the loop's way (its target taken for one not placed),
    and with each settled in the loop; and many were settled together."""
    text = _melee_yaml(150, bands=True, gap=gap).replace("max_rounds: 1000", "max_rounds: 12")
    text = text.replace("rolled}", "rolled, fadad.crit_effects: random}")
    counts = {"settled": 0, "drawn": 0}
    make, drawn = declaring._Moves.make, choosing.random_foe

    def counted(moves: Any, *args: Any) -> None:
        counts["settled"] += sum(len(members) for members, _, _ in moves.settled)
        make(moves, *args)

    def counted_draw(*args: Any) -> Any:
        counts["drawn"] += 1
        return drawn(*args)

    monkeypatch.setattr(declaring._Moves, "make", counted)
    monkeypatch.setattr(choosing, "random_foe", counted_draw)
    monkeypatch.setattr(waiting, "IN_ARRAYS_AT_LEAST", 8)
    together = _log_text(text, seed)
    assert counts["settled"] > 1000
    assert counts["drawn"] > 50
    figures = plans.figures

    def unsure(targets: list[Any]) -> Any:  # every third target taken for one not placed
        found = figures(targets)
        found[::3, 1] = 0
        return found

    monkeypatch.setattr(plans, "figures", unsure)
    assert _log_text(text, seed) == together
    monkeypatch.setattr(plans, "figures", figures)
    monkeypatch.setattr(declaring, "SETTLE_TOGETHER", False)
    assert _log_text(text, seed) == together


@pytest.mark.parametrize("seed", [1, 2])
def test_a_few_settled_one_by_one_play_the_same_battle(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two bands of 150 formed in ranks, random crits (those with conditions declare by
    their own methods amid a turn, leaving a few to settle between them), played in
    arrays (the threshold lowered): the same first 12 rounds with every run of waiting
    members settled in arrays, and with those of fewer than 64 read one by one; and
    many runs were that few."""
    text = _melee_yaml(150, bands=True, gap=12).replace("max_rounds: 1000", "max_rounds: 12")
    text = text.replace("rolled}", "rolled, fadad.crit_effects: random}")
    few = 0
    settle_few = declaring._Moves._settle_few

    def counted(moves: Any, *args: Any) -> None:
        nonlocal few
        few += 1
        settle_few(moves, *args)

    monkeypatch.setattr(declaring._Moves, "_settle_few", counted)
    monkeypatch.setattr(waiting, "IN_ARRAYS_AT_LEAST", 8)
    monkeypatch.setattr(declaring, "SETTLE_AT_END", False)  # a few between each two
    one_by_one = _log_text(text, seed)
    assert few > 20
    monkeypatch.setattr(declaring, "_FEW_SETTLED", 0)
    assert _log_text(text, seed) == one_by_one


@pytest.mark.parametrize("gap", [None, 12])
@pytest.mark.parametrize("seed", [1, 2])
def test_new_targets_given_with_plans_play_the_same_battle(
    gap: int | None, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two bands of 150 formed in ranks (crits leave conditions: some declare by their own
    method amid a turn, between runs settled together), played in arrays (the threshold
    lowered): the same first 12 rounds with the new targets of those settled together
    given with the rest of their plans (``TARGETS_WITH_PLANS``) and as each run is
    settled; and many a new target was given with its plan, none as settled."""
    text = _melee_yaml(150, bands=True, gap=gap).replace("max_rounds: 1000", "max_rounds: 12")
    text = text.replace("rolled}", "rolled, fadad.crit_effects: random}")
    given = 0
    make = declaring._Moves.make

    def counted_make(moves: Any, *args: Any) -> None:
        nonlocal given
        given += sum(
            member.target is not target
            for members, targets, _ in moves.settled
            for member, target in zip(members, targets, strict=True)
        )
        make(moves, *args)

    monkeypatch.setattr(declaring._Moves, "make", counted_make)
    monkeypatch.setattr(waiting, "IN_ARRAYS_AT_LEAST", 8)
    with_plans = _log_text(text, seed)
    assert given > 300
    monkeypatch.setattr(declaring, "TARGETS_WITH_PLANS", False)
    given = 0
    assert _log_text(text, seed) == with_plans
    assert given == 0  # each given its new target as it was settled


_RETREATS = "        policies: {retreat: {name: at_wound_level, params: {level: hurt}}}\n"
"""Fighters who leave once Hurt, as they declare: not plain (their policies may take them
off)."""


@pytest.mark.parametrize(("gap", "retreats"), [(None, False), (12, False), (12, True)])
@pytest.mark.parametrize("seed", [1, 2])
def test_those_waiting_past_own_declares_play_the_same_battle(
    gap: int | None, retreats: bool, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two bands of 150 formed in ranks (crits leave conditions: some declare by their own
    method amid a turn; tied rounds share a turn between both sides), played in arrays
    (the threshold lowered): the same first 12 rounds with those waiting settled at the
    turn's end (``SETTLE_AT_END``: before one who declares by its own method only the new
    targets given, none before one whose declare draws nothing) and settled before each;
    and many such declares were passed with nothing settled, some with targets given
    first. Where Blue's fighters may leave as they declare (initiative static: every
    round one turn shared by both sides, Red's first), each of them has all those
    waiting settled before it."""
    text = _melee_yaml(150, bands=True, gap=gap).replace("max_rounds: 1000", "max_rounds: 12")
    text = text.replace("rolled}", "rolled, fadad.crit_effects: random}")
    if retreats:
        red, count, blue = text.rpartition("count: 150\n")  # Blue's, the last
        text = red + count + _RETREATS + blue
        text = text.replace("initiative: rolled", "initiative: static")
    counts = {"paused": 0, "not passed": 0, "chosen": 0}
    pause, choose = declaring._Moves.pause, declaring._Moves.choose

    def counted_pause(moves: Any, *args: Any) -> None:
        counts["paused"] += 1
        counts["not passed"] += not args[-1]
        pause(moves, *args)

    def counted_choose(moves: Any, *args: Any) -> None:
        counts["chosen"] += 1
        choose(moves, *args)

    monkeypatch.setattr(declaring._Moves, "pause", counted_pause)
    monkeypatch.setattr(declaring._Moves, "choose", counted_choose)
    monkeypatch.setattr(waiting, "IN_ARRAYS_AT_LEAST", 8)
    at_end = _log_text(text, seed)
    assert counts["paused"] - counts["chosen"] - counts["not passed"] > 10  # nothing done
    assert counts["chosen"] > 5
    assert (counts["not passed"] > 0) == retreats
    monkeypatch.setattr(declaring, "SETTLE_AT_END", False)
    assert _log_text(text, seed) == at_end
