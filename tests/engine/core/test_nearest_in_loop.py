"""One who waits in a band's turn while its target fell takes the nearest foe, found in the
compiled loop itself (``kernels.wait_in_ranks``' ``near``, :class:`~fadad_agents.agents.
core.crowd.runs.Foes`): each answer is the one the field gives (``OnTheField.
nearest_foes``, the Python path for more sides than two), and the foes are filed for the
loop only when it first asks, again once the crowd files them afresh."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from benchmarks.bench_engine import _melee_yaml
from fadad_agents.agents.core.crowd import kernels, runs, waiting
from tests.engine.core.test_ranks_in_arrays import WALLED

pytestmark = pytest.mark.usefixtures("python_melee")  # Python's shortcuts compared


@pytest.mark.parametrize("walls", ["", WALLED], ids=["open", "walled"])
def test_the_loops_nearest_foes_are_the_fields(walls: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two bands of 100 in ranks 12 yards apart, random crits, to the end: every nearest
    foe the loop found for one who lost its target is the field's own answer for where it
    stands (``Field.nearest_to_each``, not the crowd's filing: the fighter, or None), for
    hundreds of them."""
    from fadad_agents.engine import build_battle, load

    monkeypatch.setattr(waiting, "IN_ARRAYS_AT_LEAST", 8)  # bands of 100 in arrays
    text = _melee_yaml(100, bands=True, gap=12).replace(
        "rolled}", "rolled, fadad.crit_effects: random}"
    )
    text += walls
    nearest = runs._nearest_foes
    asked = [0]

    def checked(crowd: Any, turn: Any, lost: list[int], arena: Any, found: Any) -> Any:
        got = nearest(crowd, turn, lost, arena, found)
        assert found is not None  # two sides: found in the loop
        places = [turn[i].position for i in lost]
        want = arena.nearest_foes(turn[lost[0]].side, places, None)
        assert [got[i] for i in lost] == want
        asked[0] += len(lost)
        return got

    monkeypatch.setattr(runs, "_nearest_foes", checked)
    stops = [0]
    wait = kernels.wait_now

    def counted(*args: Any) -> Any:
        found = wait(*args)
        stops[0] += found[1] == kernels.NEAR
        return found

    monkeypatch.setattr(kernels, "wait_now", counted)
    for seed in (1, 2):
        battle = build_battle(load(text), seed, collect=False)
        battle.run_to_end()
    assert asked[0] > 100, "few lost their target in the arrays: the test proves little"
    assert 0 < stops[0] < asked[0]  # filed when first asked, not at every one


def test_a_filing_made_afresh_is_asked_for_again() -> None:
    """The loop's filing of the foes is dropped once the crowd's is not the one it holds
    (the crowd filed the side afresh: someone left, or the side moved)."""

    class Crowd:
        def __init__(self) -> None:
            self.nearest: list[Any] = [None, None]
            self.moves_of = [0, 0]
            self.filed_now = SimpleNamespace(arrays=("spots",))

        def filed(self, side: int) -> Any:
            self.nearest[side] = (self.moves_of[side], self.filed_now)
            return self.filed_now

    class Arena:
        field = SimpleNamespace(sides=2)

        @staticmethod
        def foes(side: int) -> list[Any]:
            return [object()]

    class Member:
        side = 0

    crowd = Crowd()
    foes = runs.Foes(crowd, [Member()], Arena(), 1)
    assert foes.arrays()[0][5][2] < 0  # not filed: the loop asks
    foes.file()
    assert foes.arrays()[0] == ("spots",)
    assert foes.found is not None
    assert foes.found[0] is crowd.filed_now
    crowd.moves_of[1] += 1  # the side moved: filed afresh when next asked
    assert foes.arrays()[0][5][2] < 0
    foes.file()
    assert foes.arrays()[0] == ("spots",)
    crowd.nearest[1] = None  # someone left: the crowd dropped its filing
    assert foes.arrays()[0][5][2] < 0
