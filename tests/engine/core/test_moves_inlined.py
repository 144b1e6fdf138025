"""A mover's turn after the arrays moved it, played inline, is the turn its act plays.

In a band's turn played in arrays (``agents.core.crowd.waiting``) the compiled loop moves
those whose turn is a move alone; each such turn is then played in Python with the place
found. ``crowd.runs._move`` plays it without the fighter's act (``runs.MOVES_INLINED``):
the steps ``Character.act`` and ``moving.advance`` take for it, inlined. Whether inlined
or by its act, the dice, the log byte for byte, and every fighter's state (where it
stands, faces, its gait and spare actions) are the same: the same seeds played both ways,
the threshold lowered so that bands of 150 are played in arrays, ties on initiative
included (a shared turn's movers first, ``waiting.move_first``).
"""

from __future__ import annotations

from typing import Any

import pytest

from benchmarks.bench_engine import _melee_yaml
from fadad_agents.agents.core.crowd import runs, waiting
from fadad_agents.engine import build_battle, load

pytestmark = pytest.mark.usefixtures("python_melee")  # Python's shortcuts compared


def _played(text: str, seed: int) -> tuple[str, list[Any]]:
    """A battle to its end: its log as read, and each fighter's final state."""
    battle = build_battle(load(text), seed, collect=False)
    battle.run_to_end()
    states = [
        (
            m.name,
            m.status,
            m.position,
            m.bearing,
            m.gait,
            m.track,
            m.conditions,
            m.move_actions,
            m.attacks_planned,
            m.defences_left,
            m.target and m.target.name,
        )
        for side in battle.sides
        for m in side.members
    ]
    return battle.log.to_jsonl(), states


@pytest.mark.parametrize("gap", [None, 12, 40])
def test_a_mover_played_inline_plays_the_same_battle(
    gap: int | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two bands of 150 played in arrays (in contact, 12 or 40 yards apart), seeds 1-3,
    play their first 25 rounds the same whether the movers' turns are played inline or
    by their acts; and many were inlined, some in a shared turn's moves."""
    monkeypatch.setattr(waiting, "IN_ARRAYS_AT_LEAST", 8)
    text = _melee_yaml(150, bands=True, gap=gap).replace("max_rounds: 1000", "max_rounds: 25")
    inlined = {False: 0, True: 0}  # by whether in a shared turn's moves
    shared = [False]
    move, move_first = runs._move, waiting.move_first

    def counted(*args: Any) -> bool:
        done = move(*args)
        inlined[shared[0]] += done
        return done

    def first(*args: Any) -> None:
        shared[0] = True
        try:
            move_first(*args)
        finally:
            shared[0] = False

    monkeypatch.setattr(runs, "_move", counted)
    monkeypatch.setattr(waiting, "move_first", first)
    for seed in range(1, 4):
        fast = _played(text, seed)
        monkeypatch.setattr(runs, "MOVES_INLINED", False)
        assert _played(text, seed) == fast, seed
        monkeypatch.setattr(runs, "MOVES_INLINED", True)
    if gap is not None:  # in contact the few moves are found by Python (a blow planned)
        assert inlined[False] > 100, "few movers inlined: the comparison proves little"
        assert inlined[True] > 0  # ties on initiative among these seeds' rounds
