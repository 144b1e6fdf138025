"""A melee fighter's re-targeting asked of the field's mirror in one compiled call
(``engine.core.space.REACH_OR_NEAREST``, ``NEAREST_IN_MIRROR``: ``crowd.remembered``):
the same foes in reach, the same nearest foe as ``Field.nearest`` (ties to the lower
``unique_id``, None for a side with nobody on the field), the same battle."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from benchmarks.bench_engine import _melee_yaml
from fadad_agents.agents.core.crowd import remembered
from fadad_agents.agents.core.field import Field
from fadad_agents.engine import build_battle, load
from fadad_agents.engine.core import space
from tests.engine.core.test_touching_at_once import _Arena, _Fighter

pytestmark = pytest.mark.usefixtures("python_melee")  # Python's shortcuts compared

_ASKED = ("foes_or_nearest", "nearest_foe", "nearest_to_each")


def twelve_rounds(gap: int | None) -> str:
    """The log of the first 12 rounds (seed 2) of two bands of 100 formed up in ranks,
    in contact (``gap`` None) or ``gap`` yards apart."""
    text = _melee_yaml(100, bands=True, gap=gap).replace("max_rounds: 1000", "max_rounds: 12")
    battle = build_battle(load(text), 2, collect=False)
    battle.run_to_end()
    return battle.log.to_jsonl()


def asked_apart() -> Iterator[None]:
    """A module fixture for tests of the questions these flags fold into one compiled
    call (the mirror's ``touching``, the nearest told first, ``Field.nearest``): both
    flags off while they run."""
    was = space.REACH_OR_NEAREST, space.NEAREST_IN_MIRROR
    space.REACH_OR_NEAREST = space.NEAREST_IN_MIRROR = False
    yield
    space.REACH_OR_NEAREST, space.NEAREST_IN_MIRROR = was


def _count_asked(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """How many times each of the mirror's compiled questions is asked from now on."""
    told = dict.fromkeys(_ASKED, 0)
    for name in _ASKED:
        asked = getattr(remembered, name)

        def counted(*args: Any, _asked: Any = asked, _name: str = name) -> Any:
            told[_name] += 1
            return _asked(*args)

        monkeypatch.setattr(remembered, name, counted)
    return told


def _nearest_in_mirror(field: Field, side: int, x: float, y: float) -> Any:
    mirror = field.mirrored()
    assert mirror is not None
    return remembered.nearest_foe(mirror, (x, y, side, field.cell, *field.filed(side)[1]))


@pytest.mark.parametrize("seed", range(4))
def test_the_mirror_finds_the_nearest_as_the_field_does(seed: int) -> None:
    """Fighters on the buckets' edges and in pairs the same distance from the points
    asked (mirror images across them): the nearest found in the mirror, one point at a
    time or all together, is ``Field.nearest``'s, the lower ``unique_id`` on a tie;
    after moves and leavings too; None once a side has nobody left."""
    rng = random.Random(seed)
    uids = rng.sample(range(1000), 120)
    fighters = []
    for k in range(0, 120, 2):  # each pair mirrored across the point (3k, 0)
        dx, dy = rng.randrange(-9, 10) / 2, rng.randrange(-9, 10) / 2
        fighters.append(_Fighter(uids[k], 1, 3.0 * (k % 6) + dx, dy, 0.5))
        fighters.append(_Fighter(uids[k + 1], 1, 3.0 * (k % 6) - dx, -dy, 0.5))
    fighters += [
        _Fighter(2000 + u, 0, rng.uniform(-20, 20), rng.uniform(-20, 20), 0.5) for u in range(30)
    ]
    field = Field(2)
    for f in fighters:
        field.add(f)
    points = [(3.0 * i, 0.0) for i in range(6)] + [
        (rng.uniform(-30, 30), rng.uniform(-30, 30)) for _ in range(40)
    ]
    ties = 0
    for _ in range(4):
        for side in (0, 1):
            expected = [field.nearest(side, x, y) for x, y in points]
            assert [_nearest_in_mirror(field, side, x, y) for x, y in points] == expected
            mirror = field.mirrored()
            assert mirror is not None
            asked = (side, field.cell, *field.filed(side)[1])
            assert remembered.nearest_to_each(mirror, asked, points) == expected
        for x, y in points[:6]:  # a tie: the lower unique_id
            near = field.nearest(1, x, y)
            d = (near.position[0] - x) ** 2 + (near.position[1] - y) ** 2
            same = [
                f
                for f in field.standing()
                if f.side == 1 and (f.position[0] - x) ** 2 + (f.position[1] - y) ** 2 == d
            ]
            if len(same) > 1:
                ties += 1
                assert near.unique_id == min(f.unique_id for f in same)
        for f in rng.sample([f for f in fighters if f in field.standing()], 15):
            field.move(f, f.position[0] + rng.choice([-3.0, -1.5, 0.0, 1.5, 3.0]), f.position[1])
        for f in rng.sample(field.standing(), 5):
            field.remove(f)
    assert ties > 0
    for f in [f for f in field.standing() if f.side == 0]:  # a side emptied
        field.remove(f)
    assert field.nearest(0, 0.0, 0.0) is None
    assert _nearest_in_mirror(field, 0, 0.0, 0.0) is None
    assert _nearest_in_mirror(field, 1, 0.0, 0.0) is field.nearest(1, 0.0, 0.0) is not None


def test_a_side_never_on_the_field_has_no_nearest() -> None:
    field = Field(2)
    field.add(_Fighter(1, 0, 0.0, 0.0, 0.5))
    assert field.nearest(1, 0.0, 0.0) is None
    assert _nearest_in_mirror(field, 1, 5.0, 5.0) is None


@pytest.mark.parametrize("seed", range(4))
def test_foes_in_reach_and_nearest_told_at_once_are_python_s(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two sides of fighters of several sizes and reaches, some in reach of foes and
    most not: every fighter's foes in reach and nearest foe told in one compiled call are
    those told with the flags off, round after round of moves; the call was made."""
    monkeypatch.setattr(space, "Character", _Fighter)  # measured as a character's reach
    rng = random.Random(seed)
    fighters = [
        _Fighter(u, u % 2, rng.uniform(-15, 15) + (8 if u % 2 else -8), rng.uniform(-12, 12), r)
        for u, r in enumerate(rng.choice([0.3, 0.5, 0.5, 0.8]) for _ in range(100))
    ]
    for f in fighters:
        f.reach = rng.choice([0.5, 1.0, 1.5, 2.5])
    field = Field(2)
    for f in fighters:
        field.add(f)
    arena = _Arena(field, fighters)
    told = _count_asked(monkeypatch)

    def answers() -> list[tuple[Any, Any]]:
        arena._out_of_reach = (None, None, -1, None, 0.0)
        return [(arena.foes_in_reach(f), arena.nearest_foe(f)) for f in fighters]

    for _ in range(6):
        monkeypatch.setattr(space, "REACH_OR_NEAREST", True)
        monkeypatch.setattr(space, "NEAREST_IN_MIRROR", True)
        at_once = answers()
        monkeypatch.setattr(space, "REACH_OR_NEAREST", False)
        monkeypatch.setattr(space, "NEAREST_IN_MIRROR", False)
        before = dict(told)
        assert answers() == at_once
        assert told == before  # none asked with the flags off
        assert any(near for near, _ in at_once)
        assert any(not near for near, _ in at_once)
        for f in rng.sample(fighters, 30):
            x, y = f.position
            field.move(f, x + (1.5 if f.side == 0 else -1.5), y + rng.uniform(-1, 1))
    assert told["foes_or_nearest"] > 300


@pytest.mark.parametrize("flag", ["REACH_OR_NEAREST", "NEAREST_IN_MIRROR"])
def test_re_targeting_in_the_mirror_plays_the_same_battle(
    flag: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two bands of 100 (in contact, or 12 yards apart) play the same first 12 rounds,
    byte for byte in the log, with the flag on or off; on, its compiled call was made."""
    told = _count_asked(monkeypatch)
    calls = {"REACH_OR_NEAREST": ("foes_or_nearest",), "NEAREST_IN_MIRROR": _ASKED[1:]}[flag]
    for gap in (None, 12):
        monkeypatch.setattr(space, flag, True)
        first = twelve_rounds(gap)
        assert sum(told[name] for name in calls) > 50
        monkeypatch.setattr(space, flag, False)
        for name in calls:
            told[name] = 0
        assert twelve_rounds(gap) == first
        assert sum(told[name] for name in calls) == 0


@pytest.mark.parametrize("seed", range(2))
def test_a_look_for_another_foe_in_reach_tells_the_same_foes_and_no_nearest(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A fighter looking for another foe in reach of its blow, and no further
    (``another_in_reach``: ``nearest_next=False``), is told the foes in reach the one
    compiled call tells, in the same order, without its nearest being looked for."""
    monkeypatch.setattr(space, "Character", _Fighter)
    rng = random.Random(seed)
    fighters = [
        _Fighter(u, u % 2, rng.uniform(-15, 15) + (8 if u % 2 else -8), rng.uniform(-12, 12), 0.5)
        for u in range(100)
    ]
    field = Field(2)
    for f in fighters:
        field.add(f)
    arena = _Arena(field, fighters)
    told = _count_asked(monkeypatch)
    reaching = 0
    for f in fighters:
        arena._out_of_reach = (None, None, -1, None, 0.0)
        both = list(arena.foes_in_reach(f))
        reaching += bool(both)
        asked = told["foes_or_nearest"]
        arena._out_of_reach = (None, None, -1, None, 0.0)
        assert list(arena.foes_in_reach(f, nearest_next=False)) == both
        assert told["foes_or_nearest"] == asked  # the nearest never looked for
    assert told["foes_or_nearest"] > 30
    assert 10 < reaching < 90  # foes in reach of some, of others none


def test_blows_that_look_for_no_nearest_play_the_same_battle(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Two bands of 100 play the same first 12 rounds, byte for byte, whether a fighter
    looking for another foe in reach of its blow has its nearest foe looked for beside
    (as ``random_foe`` does) or not."""
    asks = space.OnTheField.foes_in_reach

    def always(self: Any, actor: Any, *, nearest_next: bool = True) -> Any:
        return asks(self, actor)

    for gap in (None, 12):
        first = twelve_rounds(gap)
        monkeypatch.setattr(space.OnTheField, "foes_in_reach", always)
        assert twelve_rounds(gap) == first
        monkeypatch.undo()
