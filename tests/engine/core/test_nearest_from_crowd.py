"""The nearest of a side read from the field in arrays is the field's own answer.

Where a big band's turn keeps the field in arrays (``agents.core.crowd.waiting``), a
striker looking for a new target with no foe in reach asks the field for the nearest foe
(``Field.nearest``): while the arrays hold the foe's side as the field does (every move
of it followed, no move made there ahead of the field's, nobody gone since they last
looked), the side filed there answers (``field.ground.NEAREST_FROM_CROWD``), not a
search bucket by bucket. Nothing a battle shows may change.
"""

from __future__ import annotations

from typing import Any

import pytest

from benchmarks.bench_engine import _melee_yaml
from fadad_agents.agents.core.crowd import kernels, waiting
from fadad_agents.agents.core.field import Field, ground
from fadad_agents.engine import build_battle, load

pytestmark = pytest.mark.usefixtures("python_melee")  # Python's shortcuts compared

WALLED = "map: {kind: open, width: 14, height: 8}\n"


def _played(text: str, seed: int) -> tuple[str, list[Any]]:
    """A battle to its end: its log as read and each fighter's final state."""
    battle = build_battle(load(text), seed, collect=False)
    battle.run_to_end()
    states = [
        (m.name, m.status, m.position, m.track, m.conditions, m.target and m.target.name)
        for side in battle.sides
        for m in side.members
    ]
    return battle.log.to_jsonl(), states


SINGLES = """
      - name: {side} single {i}
        reaction_speed: Fair
        skills: {{Sword: Good}}
        attack_skill: Sword
        weapon: weapons/broadsword
        armour: armour/heavy-leather
        position: [{x}, {y}]
"""
"""A fighter on its own (a band of one: its turns never played in arrays) placed beside
its side's band: its moves are the field's alone until a band's turn follows them."""


def _text(gap: int | None, walled: bool, singles: bool = False) -> str:
    text = _melee_yaml(100, bands=True, gap=gap).replace("max_rounds: 1000", "max_rounds: 25")
    if singles:  # four a side, behind and beside its band
        far = gap or 0
        for side, x, ahead in (("Red", -15, "    forces:"), ("Blue", far + 15, "  - name: Blue")):
            entries = "".join(
                SINGLES.format(side=side, i=i, x=x, y=y) for i, y in enumerate((-9, -3, 3, 9))
            )
            head = text.index(ahead)
            cut = text.index("\n\n", head)  # the end of the side's forces
            text = text[:cut] + entries.rstrip("\n") + text[cut:]
    return text + WALLED if walled else text


def _answered(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Count the answers the arrays gave (a list of one count), with the threshold
    lowered so that bands of 100 are played in arrays."""
    monkeypatch.setattr(waiting, "IN_ARRAYS_AT_LEAST", 8)
    count = [0]
    filed_now = waiting._Crowd.filed_now

    def counted(crowd: Any, side: int) -> Any:
        found = filed_now(crowd, side)
        count[0] += found is not None
        return found

    monkeypatch.setattr(waiting._Crowd, "filed_now", counted)
    return count


@pytest.mark.parametrize(
    ("gap", "walled", "singles"),
    [(None, False, False), (12, False, False), (None, True, False), (12, False, True)],
)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_nearest_read_from_the_crowd_plays_the_same_battle(
    gap: int | None, walled: bool, singles: bool, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two bands of 100 played in arrays (in contact, 12 yards apart, or on a yard whose
    edges cut their ranks short; with a few fighters on their own beside them, whose
    turns are Python's) play the same battle, byte for byte in the log, and leave every
    fighter the same, whether the strikers' nearest foes are read from the
    field in arrays or searched by the field; and the arrays answered often."""
    text = _text(gap, walled, singles)
    answered = _answered(monkeypatch)
    from_crowd = _played(text, seed)
    assert answered[0] > 50, "few answers from the arrays: the comparison proves little"
    monkeypatch.setattr(ground, "NEAREST_FROM_CROWD", False)
    answered[0] = 0
    assert _played(text, seed) == from_crowd
    assert answered[0] == 0


@pytest.mark.parametrize(("gap", "walled", "singles"), [(None, False, False), (12, False, True)])
def test_each_nearest_from_the_crowd_is_the_fields_search(
    gap: int | None, walled: bool, singles: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every nearest the field gives from the arrays, at whatever moment of a turn it is
    asked (a striker's, after its own step, between its blows), is the fighter the
    field's own search bucket by bucket finds then."""
    answered = _answered(monkeypatch)
    checked = [0]

    def searched(field: Field, side: int, x: float, y: float) -> Any:
        return Field.nearest(field, side, x, y, lambda _: True)  # a test: the plain search

    def checking(look_up: Any) -> Any:
        def checked_look_up(field: Field, side: int, x: float, y: float, *rest: Any) -> Any:
            before = answered[0]
            found = look_up(field, side, x, y, *rest)
            if answered[0] > before:
                checked[0] += 1
                assert found is searched(field, side, x, y)
            return found

        return checked_look_up

    monkeypatch.setattr(Field, "nearest", checking(Field.nearest))
    _played(_text(gap, walled, singles), 4)
    assert checked[0] > 50


def test_the_arrays_answer_only_while_they_hold_the_side_as_the_field_does(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Once a fighter of a side moved on the field where the arrays did not follow, or
    someone fell since they last looked, or while a run's moves are made there ahead of
    the field's, the arrays give no nearest of the side (the field searches); the other
    side's nearest they still give once only its foe moved."""
    monkeypatch.setattr(waiting, "IN_ARRAYS_AT_LEAST", 8)
    battle = build_battle(load(_text(12, False)), 1, collect=False)
    battle.play_round()
    field = battle.field
    crowd = field.in_arrays
    red, blue = battle.sides[0].active, battle.sides[1].active
    assert crowd is not None
    assert crowd.filed_now(0) is not None
    mover = min(red, key=lambda m: m.position[0])  # the rearmost, free to step back
    x, y = mover.position
    field.move(mover, x - 2.0, y)  # a step the arrays did not follow
    assert crowd.filed_now(0) is None
    assert field.nearest(0, x - 3.0, y) is mover  # searched
    assert crowd.filed_now(1) is not None  # Blue's side stands as the arrays hold it
    crowd.catch_up(kernels)
    assert crowd.filed_now(0) is not None
    assert crowd.filed_now(0).to(x - 3.0, y) is mover
    battle.take_out(blue[0], "test")
    assert crowd.filed_now(1) is None
    crowd.catch_up(kernels)
    assert crowd.filed_now(1) is not None
    crowd.replaying = True
    assert crowd.filed_now(0) is None
    assert crowd.filed_now(1) is None
