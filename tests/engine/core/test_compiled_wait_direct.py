"""The compiled loop of a band's turn called without numba's dispatch is the same loop.

``crowd.kernels.wait_now`` is the code the dispatcher of ``kernels.wait_in_ranks``
compiles for the arguments a band's turn gives it, called directly
(``waiting.WAIT_DIRECT``): the dispatcher, given those arrays, picks that very code, and
battles play the same either way.
"""

from __future__ import annotations

from typing import Any

import pytest

from benchmarks.bench_engine import _melee_yaml
from fadad_agents.agents.core.crowd import kernels, waiting
from tests.engine.core.test_nearest_from_crowd import _played

pytestmark = pytest.mark.usefixtures("python_melee")  # Python's shortcuts compared


@pytest.mark.parametrize("gap", [None, 12])
def test_the_loop_called_directly_plays_the_same_battle(
    gap: int | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two bands of 100 played in arrays play the same battles, seeds 1-3, whether the
    compiled loop is called directly or by its dispatcher; and the dispatcher, given the
    arrays of those turns, typed them as the direct code takes them (one signature)."""
    monkeypatch.setattr(waiting, "IN_ARRAYS_AT_LEAST", 8)
    text = _melee_yaml(100, bands=True, gap=gap).replace("max_rounds: 1000", "max_rounds: 20")
    called = [0]
    wait_now = kernels.wait_now

    def counted(*args: Any) -> Any:
        called[0] += 1
        return wait_now(*args)

    monkeypatch.setattr(kernels, "wait_now", counted)
    for seed in range(1, 4):
        direct = _played(text, seed)
        monkeypatch.setattr(waiting, "WAIT_DIRECT", False)
        assert _played(text, seed) == direct, seed
        monkeypatch.setattr(waiting, "WAIT_DIRECT", True)
    assert called[0] > 100
    assert kernels.wait_in_ranks.signatures == [kernels.WAIT_TYPES]
