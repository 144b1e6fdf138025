"""A shared turn's movers in a crowd move in arrays, as a band's turn does.

Bands tied on initiative and trait share a turn: its movers move first, in an order
drawn by lot (``moving.movers_first``), then everyone strikes. When they are many
(``waiting.in_arrays``), those who wait in the ranks or only step are played in
compiled code (``waiting.move_first``), the two sides together; nobody takes a new
target there, as nobody does on a move in Python. The same battle, byte for byte, either
way.
"""

from __future__ import annotations

from typing import Any

import pytest

from benchmarks.bench_engine import _melee_yaml
from fadad_agents.agents.core import moving
from fadad_agents.agents.core.crowd import waiting

from .test_ranks_in_arrays import _played  # the battle's log, events and final states

pytestmark = pytest.mark.usefixtures("python_melee")  # Python's shortcuts compared


def _shared_runs(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """Count the shared turns whose moves were played in arrays and their movers, with
    the threshold lowered so that bands of 100 are crowds."""
    monkeypatch.setattr(waiting, "IN_ARRAYS_AT_LEAST", 8)
    counts = {"turns": 0, "movers": 0}
    play_band_turn = waiting.play_band_turn

    def counted(turn: Any, arena: Any, act: Any, *, retargets: bool = True) -> None:
        if not retargets:
            counts["turns"] += 1
            counts["movers"] += len(turn)
        play_band_turn(turn, arena, act, retargets=retargets)

    monkeypatch.setattr(waiting, "play_band_turn", counted)
    return counts


@pytest.mark.parametrize("gap", [None, 12])
def test_a_tied_round_in_arrays_plays_the_same_battle(
    gap: int | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two bands of 100 (in contact, or 12 yards apart), random crits, to the end: the
    tied rounds' movers were played in arrays, and the log and final states are those
    of every mover moving by its own search."""
    text = _melee_yaml(100, bands=True, gap=gap).replace(
        "rolled}", "rolled, fadad.crit_effects: random}"
    )
    counts = _shared_runs(monkeypatch)
    seeds = (1, 2, 3)
    in_arrays = [_played(text, seed) for seed in seeds]
    assert counts["turns"] >= 3, "few tied rounds: the shared turns are barely tested"
    assert counts["movers"] >= 150
    monkeypatch.setattr(waiting, "RANKS_IN_ARRAYS", False)
    for seed, played in zip(seeds, in_arrays, strict=True):
        assert played == _played(text, seed), f"seed {seed}: the battles differ"


def test_a_shared_turns_mover_keeps_a_fallen_target_till_it_acts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A mover of a shared turn whose target fell before it (here taken out by hand just
    before the moves) waits in the arrays like any other, but keeps that target: it takes
    a new one when it acts, after everyone's move, as in Python, where a move never
    chooses a target. Each such mover stands, and plans, as in Python after the moves."""
    text = _melee_yaml(100, bands=True).replace("max_rounds: 1000", "max_rounds: 12")
    counts = _shared_runs(monkeypatch)
    movers_first, move_first = moving.movers_first, waiting.move_first
    kept: list[bool] = []
    fallen: dict[Any, Any] = {}
    after: list[Any] = []

    def felling(turn: Any, arena: Any) -> list[Any]:
        movers = movers_first(turn, arena)
        chosen = [m for m in movers if m.attacks_planned and m.target.fighting][-6:]
        fallen.update({m: m.target for m in chosen})
        for target in dict.fromkeys(fallen.values()):  # in order: the log lists them
            if target.fighting:
                arena.take_out(target, "Incapacitated")
        return movers

    def moving_first(turn: Any, arena: Any) -> None:
        fallen.clear()
        move_first(turn, arena)
        kept.extend(m.target is target for m, target in fallen.items())
        after.append(
            [(m.position, m.target and m.target.name, m.defences_left, m.attacks_planned)
             for m in turn]
        )  # fmt: skip

    monkeypatch.setattr(moving, "movers_first", felling)
    monkeypatch.setattr(waiting, "move_first", moving_first)
    in_arrays = _played(text, 1)
    assert counts["turns"] >= 2, "few tied rounds in arrays: nothing is shown"
    moves_in_arrays, counts["turns"] = after, 0
    assert kept, "no mover had its target fall: nothing is shown"
    assert all(kept), "a mover took a new target in the arrays"
    after = []
    monkeypatch.setattr(waiting, "RANKS_IN_ARRAYS", False)
    assert _played(text, 1) == in_arrays
    assert after == moves_in_arrays
    assert counts["turns"] == 0
