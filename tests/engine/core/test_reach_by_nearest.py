"""A melee fighter out of everyone's reach is told so by its nearest foe, where the other
side is filed in arrays for its nearest (``engine.core.space.NEAREST_FIRST``): the same
foes in reach, the same nearest foe, the same battle as searching the squares round it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from benchmarks.bench_engine import _melee_yaml
from fadad_agents.agents.core import moving
from fadad_agents.agents.core.crowd.nearest import Nearest  # loads numba
from fadad_agents.agents.core.field import Field, ground
from fadad_agents.engine import build_battle, load
from fadad_agents.engine.core import space
from fadad_agents.engine.core.space import OnTheField
from tests.engine.core.test_reach_or_nearest import asked_apart

pytestmark = pytest.mark.usefixtures("python_melee")  # Python's shortcuts compared

_apart = pytest.fixture(autouse=True, scope="module")(asked_apart)  # test the calls apart


def _log_text(text: str, seed: int) -> str:
    battle = build_battle(load(text), seed, collect=False)
    battle.run_to_end()
    return battle.log.to_jsonl()


@pytest.mark.parametrize(("gap", "walled"), [(None, False), (12, False), (None, True)])
def test_foes_out_of_reach_told_by_the_nearest_play_the_same_battle(
    gap: int | None, walled: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two bands of 100 formed up in ranks (in contact, 12 yards apart, or on a yard whose
    edges cut their ranks short; numba loaded, so each side is filed for its nearest)
    play the same first 15 rounds, byte for byte in the log, whether a fighter's foes in
    reach are taken as none when its nearest foe lies beyond its reach, or the squares
    round it are always searched; and the nearest told it often. (Foes in reach found by
    ``Field.within``, counted here: not at once, ``space.TOUCHING_AT_ONCE``.)"""
    monkeypatch.setattr(space, "TOUCHING_AT_ONCE", False)
    text = _melee_yaml(100, bands=True, gap=gap).replace("max_rounds: 1000", "max_rounds: 15")
    if walled:
        text += "map: {kind: open, width: 14, height: 8}\n"
    told = 0
    within = Field.within

    def counted(field: Any, side: int, x: float, y: float, radius: float) -> Any:
        nonlocal told
        told -= 1  # every search of the squares is one the nearest did not tell
        return within(field, side, x, y, radius)

    asked = 0
    foes_in_reach = OnTheField.foes_in_reach

    def asking(arena: Any, actor: Any, *, nearest_next: bool = True) -> Any:
        nonlocal asked, told
        asked += 1
        told += 1
        return foes_in_reach(arena, actor, nearest_next=nearest_next)

    monkeypatch.setattr(Field, "within", counted)
    monkeypatch.setattr(OnTheField, "foes_in_reach", asking)
    first = _log_text(text, 1)
    assert told > 100, "the nearest told few fighters: the comparison proves little"
    monkeypatch.setattr(space, "NEAREST_FIRST", False)
    asked = told = 0
    assert _log_text(text, 1) == first
    assert told <= asked // 2, "the squares were not searched with the shortcut off"


class _Fighter:
    """A Scale 0 fighter with a 1-yard weapon, as the field and reach see it."""

    missile = None
    shoots = False
    placed = True
    fighting = True

    def __init__(self, uid: int, side: int, x: float, y: float, reach: float) -> None:
        self.unique_id, self.side, self.position = uid, side, (x, y)
        self.radius, self.reach = 0.5, reach

    def can_reach(self, other: Any) -> bool:
        return moving.touches(self, other)


class _Arena(OnTheField):
    def __init__(self, field: Field, fighters: list[_Fighter]) -> None:
        self.field, self.fighters = field, fighters

    def foes(self, side: int) -> Sequence[Any]:
        return [f for f in self.fighters if f.side != side and f.fighting]


GRID = st.lists(
    st.tuples(st.integers(0, 1), st.integers(-12, 12), st.integers(-12, 12)),
    min_size=70,
    max_size=120,
)


@given(GRID, st.sampled_from([1.0, 1.5, 2.5]), st.lists(st.integers(0, 119), max_size=8))
def test_the_foes_in_reach_told_by_the_nearest_are_those_searched(
    spots: list[tuple[int, int, int]], reach: float, leaving: list[int]
) -> None:
    """On fields of two sides of fighters on a grid of half yards (many at exactly their
    reach) and two far from the other side, with some gone, every fighter's foes in reach and
    then its nearest foe, each side filed in arrays for its nearest from the first
    look-up, are what the squares searched find (nobody told by the nearest), and the
    nearest told some."""
    field = Field(2)
    fighters = [_Fighter(u, s, x / 2, y / 2, reach) for u, (s, x, y) in enumerate(spots)]
    # one of side 1 far off, one of side 0 inside side 1's squares yet far from all of it
    fighters += [_Fighter(len(spots), 1, 20.0, 20.0, reach)]
    fighters += [_Fighter(len(spots) + 1, 0, 15.0, -5.0, reach)]
    for f in fighters:
        field.add(f)
    for pick in leaving:
        gone = fighters[pick % len(spots)]  # the two far off stay
        if gone.fighting:
            gone.fighting = False
            field.remove(gone)
    arena = _Arena(field, fighters)
    if min(len(arena.foes(0)), len(arena.foes(1))) <= space._SMALL:
        return  # the live list's foe by foe check, no squares searched
    standing = [f for f in fighters if f.fighting]
    saved = ground.NEAREST_AT_ONCE
    ground.NEAREST_AT_ONCE = 1
    try:
        told = [(arena.foes_in_reach(f), arena.nearest_foe(f)) for f in standing]
        assert any(isinstance(known, Nearest) for known in field._nearest)
    finally:
        ground.NEAREST_AT_ONCE = saved
    searched = _Arena(Field(2), fighters)
    for f in standing:
        searched.field.add(f)  # type: ignore[union-attr]
    space.NEAREST_FIRST = False
    try:
        want = [(searched.foes_in_reach(f), searched.nearest_foe(f)) for f in standing]
    finally:
        space.NEAREST_FIRST = True
    assert told == want
    assert arena._out_of_reach[0] is not None, "the nearest told nobody (two stand apart)"


def test_a_characters_reach_measured_inline_is_its_can_reach(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every fighter's foes in reach in a melee of bands of 100 (after 3 rounds, squares
    searched), measured inline for a character with a melee weapon, are those its own
    can_reach passes among the foes near it, in the same order; some have foes in reach
    and some none."""
    battle = build_battle(load(_melee_yaml(100, bands=True)), 1, collect=False)
    for _ in range(3):
        battle.play_round()
    monkeypatch.setattr(space, "NEAREST_FIRST", False)
    standing = [m for side in battle.sides for m in side.members if m.fighting]
    inline = [battle.foes_in_reach(m) for m in standing]
    monkeypatch.setattr(space, "Character", type("NotCharacter", (), {}))
    assert [battle.foes_in_reach(m) for m in standing] == inline
    assert any(inline)
    assert not all(inline)
