"""A melee character's foes in reach measured in the field's mirror in arrays
(``engine.core.space.TOUCHING_IN_MIRROR``: ``crowd.occupied.Occupied.touching``) are those
the other side's buckets give, in the order the buckets list them (bucket by bucket, each
in the order its fighters were filed, which moves, comings and goings change): the same
random foe drawn after, the same battle."""

from __future__ import annotations

import random
from typing import Any

import pytest

from fadad_agents.agents.core.crowd import occupied
from fadad_agents.agents.core.field import Field
from fadad_agents.engine.core import space
from tests.engine.core.test_reach_or_nearest import asked_apart, twelve_rounds
from tests.engine.core.test_touching_at_once import _Arena, _Fighter

pytestmark = pytest.mark.usefixtures("python_melee")  # Python's shortcuts compared

_apart = pytest.fixture(autouse=True, scope="module")(asked_apart)  # test the calls apart


def _touching(arena: _Arena, field: Field, standing: list[_Fighter]) -> list[list[Any]]:
    return [arena._touching(f, field, f.radius + f.reach + field.widest) for f in standing]


def _count_asked(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """A counter, one a list, of the questions the mirror is asked from now on."""
    told = [0]
    touching = occupied.Occupied.touching

    def counted(mirror: occupied.Occupied, asked: tuple[float, ...]) -> Any:
        told[0] += 1
        return touching(mirror, asked)

    monkeypatch.setattr(occupied.Occupied, "touching", counted)
    return told


@pytest.mark.parametrize("seed", range(6))
def test_the_foes_told_by_the_mirror_are_the_buckets_in_their_order(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two sides of fighters of several sizes and reaches, many on the buckets' edges
    (multiples of 3 yards) and at exactly their reach, a few stood down but still
    filed; then, round after round, fighters step (some into another bucket, which files
    them last there), leave and come back: every fighter's foes in reach, measured in the
    mirror, are those the buckets give, in the same order; and the mirror answered."""
    monkeypatch.setattr(space, "Character", _Fighter)  # measured as a character's reach
    rng = random.Random(seed)
    fighters = [
        _Fighter(u, u % 2, rng.randrange(-12, 13) / 2, rng.randrange(-9, 10) / 2, radius)
        for u, radius in enumerate(rng.choice([0.3, 0.5, 0.5, 0.8]) for _ in range(110))
    ]
    for f in fighters:
        f.reach = rng.choice([0.5, 1.0, 1.0, 1.5, 2.5])
        f.fighting = rng.random() > 0.1
    field = Field(2)
    for f in fighters:
        field.add(f)
    arena = _Arena(field, fighters)
    told = _count_asked(monkeypatch)
    gone: list[_Fighter] = []
    for _ in range(8):
        standing = [f for f in fighters if f.fighting and f not in gone]
        monkeypatch.setattr(space, "TOUCHING_IN_MIRROR", True)
        mirrored = _touching(arena, field, standing)
        monkeypatch.setattr(space, "TOUCHING_IN_MIRROR", False)
        assert mirrored == _touching(arena, field, standing)
        assert any(mirrored)
        for f in rng.sample(standing, 30):  # steps, a few onto the buckets' edges
            x, y = f.position
            if rng.random() < 0.3:
                x, y = 3.0 * round(x / 3), 3.0 * round(y / 3) + rng.choice([0.0, 0.5])
            field.move(f, x + rng.choice([-1.5, -0.5, 0.0, 0.5, 1.5]), y + rng.uniform(-1, 1))
        for f in rng.sample(standing, 3):  # leave
            field.remove(f)
            gone.append(f)
        if len(gone) > 6:  # and come back, filed last
            back = gone.pop(0)
            field.add(back)
    assert told[0] > 300
    assert field.occupied


def test_foes_touched_in_the_mirror_play_the_same_battle(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two bands of 100 formed up in ranks (in contact, or 12 yards apart) play the same
    first 12 rounds, byte for byte in the log, with a character's foes in reach measured
    in the mirror or bucket by bucket in Python; the mirror answered often."""
    told = _count_asked(monkeypatch)
    for gap in (None, 12):
        monkeypatch.setattr(space, "TOUCHING_IN_MIRROR", True)
        first = twelve_rounds(gap)
        assert told[0] > 100
        monkeypatch.setattr(space, "TOUCHING_IN_MIRROR", False)
        told[0] = 0
        assert twelve_rounds(gap) == first
        assert told[0] == 0
