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
from fadad_agents.agents.core.crowd import choosing, declaring, waiting
from fadad_agents.engine import build_battle, load


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
    figures = declaring._figures

    def unsure(targets: list[Any]) -> Any:  # every third target taken for one not placed
        found = figures(targets)
        found[::3, 1] = 0
        return found

    monkeypatch.setattr(declaring, "_figures", unsure)
    assert _log_text(text, seed) == together
    monkeypatch.setattr(declaring, "_figures", figures)
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
