"""A mover's compiled search moves it to the place it found in the field's mirror in the
same call (``moving.STEP``: ``ranks.way_forward``'s ``step``), and the field's move then
finds it there: the same battle as the field's move putting it there, the mirror listing
everyone where they stand after every move."""

from __future__ import annotations

import math
import random
from typing import Any

import pytest

from benchmarks.bench_engine import _melee_yaml
from fadad_agents.agents.core import moving, ranks
from fadad_agents.agents.core.crowd import occupied
from fadad_agents.agents.core.field import Field
from tests.engine.core.test_compiled_places import _played
from tests.engine.core.test_compiled_search import _crowd, _mirror_holds

pytestmark = pytest.mark.usefixtures("python_melee")  # Python's shortcuts compared


@pytest.mark.parametrize(("gap", "walled"), [(None, False), (12, False), (40, False), (None, True)])
def test_a_battle_whose_movers_step_in_their_search_is_the_same(
    gap: int | None, walled: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two bands of 100 in ranks (in contact, 12 or 40 yards apart - closing in past the
    mirror's first grid - or on a field whose edges cut their ranks) play the same first
    12 rounds, event for event, with movers moved in the mirror by their search or by the
    field's move; many were moved by their search."""
    text = _melee_yaml(100, bands=True, gap=gap).replace("max_rounds: 1000", "max_rounds: 12")
    if walled:
        text += "map: {kind: open, width: 14, height: 8}\n"
    stepped = 0
    moved_ahead = Field.move

    def move(field: Field, agent: Any, x: float, y: float) -> None:
        nonlocal stepped
        stepped += field.occupied is not None and field.occupied.ahead is agent
        moved_ahead(field, agent, x, y)

    monkeypatch.setattr(Field, "move", move)
    monkeypatch.setattr(moving, "STEP", True)
    ahead = _played(text, 3)
    assert stepped > 100
    monkeypatch.setattr(moving, "STEP", False)
    stepped = 0
    assert _played(text, 3) == ahead
    assert stepped == 0


def test_a_search_that_steps_leaves_the_mirror_as_the_move_would() -> None:
    """Random crowds and moves: a search with ``step`` finds the place one without finds;
    it moves the mover in the mirror only when the place lies more than 1e-6 yards away
    (then the field's move must follow, and the mirror lists everyone where they stand
    after it), else leaves the mirror as it was; a place off the mirror's grid is left
    to the field's move, which makes the mirror again."""
    rng = random.Random(17)
    field = Field(2)
    crowd = _crowd(rng, field, 60)
    stepped = tiny = off = 0
    for n in range(1500):
        actor, target = rng.sample(crowd, 2)
        hx, hy = actor.position
        if n % 50 == 0:  # far off: outside the mirror's grid
            goal, aimed = (60.0 if n % 100 else -50.0, 4.0), None
        elif n % 7 == 0:  # a hair away: found free, too close to move
            goal, aimed = (hx + rng.choice([1e-7, 1.5e-6, 3e-6]), hy), None
        else:
            tx, ty = target.position
            goal = (tx + rng.uniform(-1, 1), ty + rng.uniform(-1, 1))
            aimed = target if rng.random() < 0.7 else None
        gap = math.hypot(goal[0] - hx, goal[1] - hy)
        allowance = 200.0 if n % 50 == 0 else rng.choice([2.0, 8.0, 15.0])
        move = (goal, gap, min(gap, allowance), allowance, aimed)
        actor.memory.clear()
        want = ranks.way_forward(actor, field, *move)
        actor.memory.clear()
        mirror = field.occupied
        assert mirror
        found = ranks.way_forward(actor, field, *move, step=True)
        assert found == want
        if found is None:
            assert mirror.ahead is None
            continue
        far = math.hypot(found[0] - hx, found[1] - hy)
        if mirror.ahead is actor:
            assert far > 2e-6 * (1 - 1e-9)
            stepped += 1
        elif far > 1e-6:
            assert far <= 2e-6 * (1 + 1e-9) or n % 50 == 0
            off += n % 50 == 0
        if far <= 1e-6:  # advance stands still: nothing moved in the mirror
            assert mirror.ahead is None
            tiny += 1
            _mirror_holds(field)
            continue
        field.move(actor, *found)
        assert field.occupied
        assert field.occupied.ahead is None
        _mirror_holds(field)
    assert stepped > 500
    assert tiny > 20
    assert off >= 2  # each far side once: the mirror made again holds it


def test_only_the_mover_stepped_is_spared_the_put(monkeypatch: pytest.MonkeyPatch) -> None:
    """The field's move spares the mirror's put only for the very fighter its search
    moved there: another moved first is put as ever, and the stepped one still after."""
    field = Field(2)
    crowd = _crowd(random.Random(4), field, 30)
    actor, other = crowd[0], crowd[1]
    hx, hy = actor.position
    found = ranks.way_forward(actor, field, (hx + 30.0, hy), 30.0, 0.7, 0.7, None, step=True)
    assert found is not None
    assert field.occupied
    assert field.occupied.ahead is actor
    puts: list[Any] = []
    put = occupied.Occupied.put

    def counted(mirror: occupied.Occupied, agent: Any, x: float, y: float) -> bool:
        puts.append(agent)
        return put(mirror, agent, x, y)

    monkeypatch.setattr(occupied.Occupied, "put", counted)
    ox, oy = other.position
    field.move(other, ox + 0.01, oy)
    assert puts == [other]
    field.move(actor, *found)
    assert puts == [other]
    assert field.occupied.ahead is None
    _mirror_holds(field)
