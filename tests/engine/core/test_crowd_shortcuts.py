"""The field's shortcuts in a crowd play the same battle as the plain searches.

A fighter blocked in the ranks remembers who blocked it and skips its search while none
of them has moved (``agents.core.ranks.REMEMBER_BLOCKED``); the nearest-foe search skips
buckets wholly farther than the best found. Both must change nothing a battle shows.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from benchmarks.bench_engine import _melee_yaml
from fadad_agents.agents.core import ranks
from fadad_agents.agents.core.field import Field
from fadad_agents.engine import build_battle, load


def _played(text: str, seed: int) -> list[Any]:
    battle = build_battle(load(text), seed, collect=False)
    battle.run_to_end()
    return [tuple(e) for e in battle.log]


@pytest.mark.parametrize(("gap", "walled"), [(None, False), (12, False), (None, True)])
@pytest.mark.parametrize("seed", [1, 2])
def test_a_blocked_rank_remembering_its_blockers_plays_the_same_battle(
    gap: int | None, walled: bool, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two bands of 100 formed up in ranks (in contact, or 12 yards apart, or in contact
    on a field whose edges cut their ranks and sidesteps short) play the same first 15
    rounds, event for event, whether blocked fighters remember their blockers (measuring
    again only the places whose blocker moved, trying them first when the way changed)
    or search afresh every round; and the remembered blocks were used."""
    text = _melee_yaml(100, bands=True, gap=gap).replace("max_rounds: 1000", "max_rounds: 15")
    if walled:  # a 14 x 8 yard yard: the ranks (10 wide) reach past its long edges
        text += "map: {kind: open, width: 14, height: 8}\n"
    used = 0
    still_there = ranks.Blocked.still_there

    def counted(memo: Any) -> bool:
        nonlocal used
        found = still_there(memo)
        used += found
        return found

    monkeypatch.setattr(ranks.Blocked, "still_there", counted)
    remembered = _played(text, seed)
    assert used > 0, "no fighter skipped a search: the comparison would prove nothing"
    monkeypatch.setattr(ranks, "REMEMBER_BLOCKED", False)
    assert _played(text, seed) == remembered


class _Fighter:
    def __init__(self, uid: int, side: int, x: float, y: float) -> None:
        self.unique_id, self.side, self.position, self.radius = uid, side, (x, y), 0.5


SPOTS = st.lists(st.tuples(st.integers(0, 1), st.floats(-40, 40), st.floats(-40, 40)), max_size=60)


@given(SPOTS, st.floats(-60, 60), st.floats(-60, 60), st.integers(0, 4))
def test_the_nearest_is_the_nearest_of_all(
    spots: list[tuple[int, float, float]], x: float, y: float, every: int
) -> None:
    """Field.nearest returns the fighter of the side nearest the point that the test
    passes, the lower unique_id on a tie: what measuring every fighter finds."""
    field = Field(2)
    fighters = [_Fighter(uid, side, fx, fy) for uid, (side, fx, fy) in enumerate(spots)]
    for f in fighters:
        field.add(f)
    accept = None if every == 0 else (lambda f: f.unique_id % every == 0)
    for side in (0, 1):
        passed = [f for f in fighters if f.side == side and (accept is None or accept(f))]
        want = min(
            passed,
            key=lambda f: ((f.position[0] - x) ** 2 + (f.position[1] - y) ** 2, f.unique_id),
            default=None,
        )
        assert field.nearest(side, x, y, accept) is want
