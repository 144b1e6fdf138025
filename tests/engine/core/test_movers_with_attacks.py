"""A band's member with attacks planned whose move ends out of its target's reach, with no
foe in its reach there, moves in arrays (:data:`~fadad_agents.agents.core.crowd.waiting.
MOVERS_WITH_ATTACKS`): its act's blows would find nobody, so its turn is the move alone,
played as the arrays' other movers' are (``runs._move``). The same battle as with such a
turn played in Python."""

from __future__ import annotations

from typing import Any

import pytest

from benchmarks.bench_engine import _melee_yaml
from fadad_agents.agents.core.crowd import runs, waiting
from tests.engine.core.test_ranks_in_arrays import WALLED, _played

pytestmark = pytest.mark.usefixtures("python_melee")  # Python's shortcuts compared


@pytest.mark.parametrize("walls", ["", WALLED], ids=["open", "walled"])
def test_movers_with_attacks_in_arrays_play_the_same_battle(
    walls: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two bands of 100 in ranks 12 yards apart, random crits, to the end: the same log,
    events and final states with such movers moved in arrays and in Python; and many
    were."""
    monkeypatch.setattr(waiting, "IN_ARRAYS_AT_LEAST", 8)  # bands of 100 in arrays
    text = _melee_yaml(100, bands=True, gap=12).replace(
        "rolled}", "rolled, fadad.crit_effects: random}"
    )
    text += walls
    moved = [0]
    move = runs._move

    def counted(crowd: Any, member: Any, place: Any, arena: Any) -> bool:
        planned = member.attacks_planned
        done = move(crowd, member, place, arena)
        moved[0] += bool(done and planned)
        return done

    monkeypatch.setattr(runs, "_move", counted)
    seeds = (1, 2)
    in_arrays = [_played(text, seed) for seed in seeds]
    assert moved[0] > 20, "few movers with attacks moved in arrays: the test proves little"
    monkeypatch.setattr(waiting, "MOVERS_WITH_ATTACKS", False)
    moved[0] = 0
    for seed, found in zip(seeds, in_arrays, strict=True):
        assert _played(text, seed) == found, f"seed {seed}: the battle went otherwise"
    assert moved[0] == 0
