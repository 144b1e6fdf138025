"""A melee character's foes in reach found in one pass over the other side's squares
round it, none at once where those squares hold none of that side
(``engine.core.space.TOUCHING_AT_ONCE``), are those ``Field.within`` finds and its reach
touches, in the same order: the same nearest foe after, the same battle."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from benchmarks.bench_engine import _melee_yaml
from fadad_agents.agents.core import moving
from fadad_agents.agents.core.field import Field, ground
from fadad_agents.engine import build_battle, load
from fadad_agents.engine.core import space
from fadad_agents.engine.core.space import OnTheField


class _Fighter:
    """A fighter as the field and reach see it, of any size and reach."""

    missile = None
    shoots = False
    placed = True

    def __init__(self, uid: int, side: int, x: float, y: float, radius: float) -> None:
        self.unique_id, self.side, self.position = uid, side, (x, y)
        self.radius, self.reach, self.fighting = radius, 1.0, True

    def can_reach(self, other: Any) -> bool:
        return moving.touches(self, other)


class _Arena(OnTheField):
    def __init__(self, field: Field, fighters: list[_Fighter]) -> None:
        self.field, self.fighters = field, fighters

    def foes(self, side: int) -> Sequence[Any]:
        return [f for f in self.fighters if f.side != side and f.fighting]


def _answers(arena: _Arena, standing: list[_Fighter]) -> list[tuple[Any, Any]]:
    return [(arena.foes_in_reach(f), arena.nearest_foe(f)) for f in standing]


FIELD = st.lists(
    st.tuples(
        st.integers(0, 1),
        st.integers(-14, 14),
        st.integers(-10, 10),
        st.sampled_from([0.3, 0.5, 0.5, 0.8]),
        st.sampled_from([0.5, 1.0, 1.0, 1.5, 2.5]),
        st.integers(0, 9),
    ),
    min_size=70,
    max_size=120,
)


@given(FIELD, st.booleans(), st.booleans())
def test_the_foes_touched_at_once_are_those_within_that_reach_touches(
    spots: list[tuple[int, int, int, float, float, int]], nearest_first: bool, filed: bool
) -> None:
    """On fields of two sides of fighters of several sizes and reaches on a grid of half
    yards (many at exactly their reach, a tenth stood down but still filed), and two far
    from the other side: every fighter's foes in reach, then its nearest foe, are the same
    found at once as by ``Field.within`` and measured each, and as each one's own
    ``can_reach`` passes them; with the nearest told first or not, each side filed in
    arrays for its nearest or not."""
    fighters = [
        _Fighter(u, side, x / 2, y / 2, radius)
        for u, (side, x, y, radius, _, _) in enumerate(spots)
    ]
    for f, (*_, reach, down) in zip(fighters, spots, strict=True):
        f.reach, f.fighting = reach, down != 0
    fighters += [
        _Fighter(len(spots), 1, 30.0, 30.0, 0.5),
        _Fighter(len(spots) + 1, 0, 9.0, -30.0, 0.5),
    ]
    field = Field(2)
    for f in fighters:
        field.add(f)
    arena = _Arena(field, fighters)
    if min(len(arena.foes(0)), len(arena.foes(1))) <= space._SMALL:
        return  # the live list's foe by foe check, no squares searched
    standing = [f for f in fighters if f.fighting]
    saved = space.Character, space.NEAREST_FIRST, ground.NEAREST_AT_ONCE
    space.NEAREST_FIRST = nearest_first
    ground.NEAREST_AT_ONCE = 1 if filed else 10**9
    try:
        space.Character = _Fighter  # type: ignore[misc]  # measured as a character's reach
        at_once = _answers(arena, standing)
        space.TOUCHING_AT_ONCE = False
        within = _answers(arena, standing)
        space.Character = object  # type: ignore[misc]  # each one's can_reach
        own = _answers(arena, standing)
    finally:
        space.Character, space.NEAREST_FIRST, ground.NEAREST_AT_ONCE = saved
        space.TOUCHING_AT_ONCE = True
    assert at_once == within == own
    assert any(found for found, _ in at_once)
    assert not all(found for found, _ in at_once)


def test_foes_touched_at_once_play_the_same_battle(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two bands of 100 formed up in ranks play the same first 12 rounds, byte for byte
    in the log, with a character's foes in reach found at once or by ``Field.within``."""
    text = _melee_yaml(100, bands=True).replace("max_rounds: 1000", "max_rounds: 12")

    def log() -> str:
        battle = build_battle(load(text), 2, collect=False)
        battle.run_to_end()
        return battle.log.to_jsonl()

    first = log()
    monkeypatch.setattr(space, "TOUCHING_AT_ONCE", False)
    assert log() == first
