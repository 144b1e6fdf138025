"""A shooter whose Extreme range holds every square of the other side (a bow over an army)
is told that side's fighters at once (``Field.fighting_within``, kept until one of it
comes, moves or leaves), not each of them measured for every shot: the same foes in range,
in the same order, as ``Field.within`` finds them and ``shooting.in_range`` passes them,
and so the same battle."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from benchmarks.bench_engine import _melee_yaml
from fadad_agents.agents.core import shooting
from fadad_agents.agents.core.field import Field, compiled
from fadad_agents.engine import build_battle, load, run
from fadad_agents.engine.personal import melee

_SWORD = "skills: {Sword: Good}\n        attack_skill: Sword\n        weapon: weapons/broadsword"
_BOW = "skills: {Bow: Good}\n        attack_skill: Bow\n        weapon: weapons/bow"
_CROSSBOWS = """  - name: Green
    forces:
      - name: Green
        reaction_speed: Fair
        skills: {Crossbow: Good}
        attack_skill: Crossbow
        weapon: weapons/light-crossbow
        armour: armour/heavy-leather
        count: 40
stop:"""


def _archers(
    per_side: int, *, both: bool = False, gap: int | None = None, third: bool = False
) -> str:
    """Two bands in ranks (``gap`` yards apart), the first (``both``: each) with bows; with
    ``third``, a band of crossbowmen beside them."""
    text = _melee_yaml(per_side, bands=True, gap=gap).replace(_SWORD, _BOW, 2 if both else 1)
    return text.replace("stop:", _CROSSBOWS) if third else text


BATTLES = [
    (_archers(60), 1),  # bows over a band in contact: every shot's range holds it
    (_archers(60, both=True), 2),
    (_archers(40, both=True, gap=150), 3),  # out of range at first, then in it
    (_archers(40, third=True), 4),  # three sides
    (_archers(3), 5),  # a few: the live list measured foe by foe
]


class _Told:
    """``Field.fighting_within`` counted: how often it answered, how often not."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, answer: bool = True) -> None:
        self.answered = self.not_held = 0
        own = Field.fighting_within

        def counted(field: Field, *args: Any) -> Any:
            told = own(field, *args) if answer else None
            if told is None:
                self.not_held += 1
            else:
                self.answered += 1
            return told

        monkeypatch.setattr(Field, "fighting_within", counted)


def _played(text: str, seed: int, *, whole: bool) -> str:
    battle = build_battle(load(text), seed, collect=False)
    if whole:
        battle.run_to_end()
    else:
        while not battle.finished:
            battle.play_round()
    return battle.log.to_jsonl()


@pytest.mark.parametrize(("text", "seed"), BATTLES)
@pytest.mark.parametrize("whole", [True, False])
def test_shots_over_an_army_play_the_same_battle(
    monkeypatch: pytest.MonkeyPatch, text: str, seed: int, whole: bool
) -> None:
    """Archers against a band in ranks, against archers, from out of range, on three
    sides, and a few (each whole and round by round): the same log, byte for byte, with
    each side the range holds told at once or every foe measured for every shot; and the
    sides held whole are told at once (the two plays differ in what they ask)."""
    told = _Told(monkeypatch)
    first = _played(text, seed, whole=whole)
    answered = told.answered
    measured = _Told(monkeypatch, answer=False)
    assert _played(text, seed, whole=whole) == first
    assert measured.answered == 0
    if "count: 3\n" in text:  # the live list, foe by foe: the field is not asked
        assert answered == told.not_held == measured.not_held == 0
    else:
        assert answered > 0


def test_shots_over_an_army_with_numba_loaded(monkeypatch: pytest.MonkeyPatch) -> None:
    """With numba loaded (the crowd's waiting ranks in arrays, the compiled melee on where
    it may play), a battle of archers is the same told at once or measured."""
    compiled.load()
    text = _archers(150, both=True)
    told = _Told(monkeypatch)
    first = run(load(text), seed=6, collect=True)
    assert told.answered > 0
    _Told(monkeypatch, answer=False)
    again = run(load(text), seed=6, collect=True)
    assert again.log.to_jsonl() == first.log.to_jsonl()
    monkeypatch.setattr(melee, "MELEE_COMPILED", False)
    assert run(load(text), seed=6, collect=True).log.to_jsonl() == first.log.to_jsonl()


class _Fighter:
    """A fighter as the field sees it."""

    placed = True

    def __init__(self, uid: int, side: int, x: float, y: float) -> None:
        self.unique_id, self.side, self.position = uid, side, (x, y)
        self.radius, self.fighting = 0.5, True


class _Shooter(_Fighter):
    def __init__(self, x: float, y: float, extreme: float) -> None:
        super().__init__(-1, 0, x, y)
        self.missile = type("Missile", (), {"extreme": extreme})()


SPOTS = st.lists(
    st.tuples(st.integers(0, 1), st.integers(-40, 40), st.integers(-40, 40), st.booleans()),
    min_size=2,
    max_size=60,
    unique_by=lambda spot: (spot[1], spot[2]),
)


def _measured(field: Field, shooter: _Shooter) -> list[Any]:
    """``foes_in_reach``'s answer for a shooter as it was: every fighter of the other
    side ``Field.within`` finds, fighting and :func:`shooting.in_range`."""
    x, y = shooter.position
    near = field.within(1, x, y, shooter.missile.extreme)
    return [f for f in near if f.fighting and shooting.in_range(shooter, f)]


@given(SPOTS, st.integers(-60, 60), st.integers(-60, 60), st.sampled_from([5.0, 30.0, 80.0, 200.0]))
def test_a_side_told_at_once_is_the_side_measured(
    spots: list[tuple[int, int, int, bool]], sx: int, sy: int, extreme: float
) -> None:
    """Fighters of two sides on a field (some stood down), a shooter of side 0 with ranges
    from a few yards to more than the field: the foes in range are those measured, in the
    same order, whether its range holds the other side's squares or not; told again,
    the same list, kept; after a fighter of that side moves, and after one leaves, those
    measured then."""
    fighters = [_Fighter(u, side, x / 2, y / 2) for u, (side, x, y, _) in enumerate(spots)]
    field = Field(2)
    for f in fighters:
        field.add(f)
    for f, (*_, down) in zip(fighters, spots, strict=True):
        f.fighting = not down
    shooter = _Shooter(sx / 2, sy / 2, extreme)
    field.add(shooter)

    def check() -> None:
        told = shooting.foes_in_range(shooter, field)
        assert told == _measured(field, shooter)
        whole = field.fighting_within(1, *shooter.position, extreme)
        if whole is not None:  # kept: asked again, the same list
            assert field.fighting_within(1, *shooter.position, extreme) is whole
            assert all(math.dist(shooter.position, f.position) <= extreme for f in whole)

    check()
    theirs: Sequence[_Fighter] = [f for f in fighters if f.side == 1]
    if theirs:
        field.move(theirs[0], theirs[0].position[0] + 7.5, theirs[0].position[1] - 3.0)
        check()
        theirs[-1].fighting = False  # a fighter stops fighting as it leaves the field
        field.remove(theirs[-1])
        check()


def test_a_side_is_told_at_once_where_the_range_holds_its_squares() -> None:
    """A band of 100 in a 10 x 10 block: a bow's range over it all answers at once, one
    yard short of its farthest square's corner does not."""
    field = Field(2)
    for k in range(100):
        field.add(_Fighter(k, 1, 20.5 + k % 10, 0.5 + k // 10))
    shooter = _Shooter(0.0, 0.0, 0.0)
    field.add(shooter)
    _, _, bx1, by1 = field.filed(1)[1]
    corner = math.hypot((bx1 + 1) * field.cell, (by1 + 1) * field.cell)
    told = field.fighting_within(1, 0.0, 0.0, corner + 1.0)
    assert told is not None
    assert len(told) == 100
    assert told == _measured_at(field, corner + 1)
    assert field.fighting_within(1, 0.0, 0.0, corner - 1.0) is None


def _measured_at(field: Field, extreme: float) -> list[Any]:
    return _measured(field, _Shooter(0.0, 0.0, extreme))


def test_kept_answers_go_with_a_cleared_field() -> None:
    """A field cleared (a reset battle) keeps no side's answer."""
    field = Field(2)
    for k in range(20):
        field.add(_Fighter(k, 1, float(k), 0.0))
    kept = field.fighting_within(1, 0.0, 0.0, 500.0)
    assert kept is not None
    assert len(kept) == 20
    field.clear()
    assert field.fighting_within(1, 0.0, 0.0, 500.0) is None  # nobody filed now
    field.add(_Fighter(99, 1, 3.0, 4.0))
    assert [f.unique_id for f in field.fighting_within(1, 0.0, 0.0, 500.0) or ()] == [99]


@pytest.mark.parametrize("per_side", [40, 300])
def test_a_shot_measures_no_more_foes_in_a_bigger_army(
    monkeypatch: pytest.MonkeyPatch, per_side: int
) -> None:
    """The first 3 rounds of archers against a band in ranks: fewer foes measured in range
    (``shooting.in_range``) than shots taken and blows struck, whether the bands are of 40 or of
    300 (measured each for every shot, the foes a shot's choice measured would grow with
    the band: 300 for each shot in a band of 300)."""
    measured = 0
    own = shooting.in_range

    def counted(actor: Any, other: Any) -> bool:
        nonlocal measured
        measured += 1
        return own(actor, other)

    monkeypatch.setattr(shooting, "in_range", counted)
    battle = build_battle(load(_archers(per_side)), 1, collect=False)
    for _ in range(3):
        battle.play_round()
    struck = sum(1 for event in battle.log if event.action in ("shoot", "attack"))
    assert struck > per_side
    assert measured < struck
