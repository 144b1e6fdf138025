"""A search measured in compiled code against the field in arrays (``crowd.occupied``,
once numba is loaded) finds the place Python's search finds: the same battle. While the
field keeps that mirror it keeps no elbow-room index. A field placed once numba is loaded
keeps the mirror from its first fighter on (``squares.MIRRORED``) and makes it again at
once when it is given up; else the mirror is made by the first search, and the index
made again when the mirror is given up. (Battles played with and without it: here and
``test_compiled_places``.)"""

from __future__ import annotations

import itertools
import math
import random
from typing import Any

import numpy as np
import pytest

from benchmarks.bench_engine import _melee_yaml
from fadad_agents.agents.core import ranks
from fadad_agents.agents.core.crowd import occupied, remembered
from fadad_agents.agents.core.field import ELBOW_ROOM, Field, squares
from fadad_agents.agents.core.ranks import Blocked
from tests.engine.core.test_compiled_places import _in_python, _played

FIGHTING = ranks.FIGHTING


_ids = itertools.count()


class _Fighter:
    def __init__(self, side: int, x: float, y: float, radius: float) -> None:
        self.side, self.position, self.radius, self.reach = side, (x, y), radius, 1.0
        self.status, self.memory, self.target = FIGHTING, {}, None
        self.unique_id = next(_ids)  # (the mirror files it: crowd.remembered's ties)


def _crowd(rng: random.Random, field: Field, many: int) -> list[_Fighter]:
    """``many`` fighters placed at random, none in another's elbow room."""
    placed: list[_Fighter] = []
    while len(placed) < many:
        radius = rng.choice([0.5, 0.5, 0.3])
        f = _Fighter(len(placed) % 2, rng.uniform(0, 12), rng.uniform(0, 8), radius)
        if not field.crowded(f, *f.position):
            field.add(f)
            placed.append(f)
    return placed


def _mirror_holds(field: Field) -> None:
    """The mirror lists exactly the fighters filed on the field, where they stand; its
    parts read here are views of the two arrays compiled code is given."""
    mirror = field.occupied
    assert mirror
    for part in ("grid", "spots", "out"):
        assert np.shares_memory(getattr(mirror, part), mirror.floats), part
    for part in ("links", "head", "blockers"):
        assert np.shares_memory(getattr(mirror, part), mirror.ints), part
    listed = set()
    for square, first in enumerate(mirror.head.tolist()):
        s = first
        while s >= 0:
            assert mirror.links[s, 2] == square
            agent = mirror.agents[s]
            assert (mirror.spots[s, 0], mirror.spots[s, 1]) == agent.position
            assert occupied._square(*agent.position, mirror.grid) == square
            listed.add(agent)
            s = int(mirror.links[s, 0])
    assert listed == set(field.standing())


def _by_hand(actor: Any, crowd: list[Any], move: tuple[Any, ...], target: Any) -> Any:
    """The search's answer, measured by hand: Python's places in order, each against
    everyone (``**`` round the target within a hair of the elbow room, as Python)."""
    spots, ring = _in_python(actor, _BOUNDED, *move, target)
    for k in range(len(spots) // 2):
        x, y = spots[2 * k], spots[2 * k + 1]
        for other in crowd:
            ox, oy = other.position[0] - x, other.position[1] - y
            room = (actor.radius + other.radius) * ELBOW_ROOM
            d, limit = ox * ox + oy * oy, room * room
            if 0 < k <= ring and abs(d - limit) <= 1e-12 * limit:
                d, limit = ox**2 + oy**2, room**2
            if other is not actor and d < limit:
                break
        else:
            return x, y
    return None


_BOUNDED = Field(2, width=14, height=9)  # the field's edges, for places worked out by hand


def _index_holds(field: Field) -> None:
    """The field's elbow-room index lists whom a field filed afresh lists, square by square."""
    mirrored, squares.MIRRORED = squares.MIRRORED, False  # filed in the index
    try:
        fresh = Field(2, width=field.width, height=field.height)
        for agent in field.standing():
            fresh.add(agent)
    finally:
        squares.MIRRORED = mirrored
    kept = {k: set(v) for k, v in field._halo.items() if v}  # type: ignore[union-attr]
    assert kept == {k: set(v) for k, v in fresh._halo.items() if v}  # type: ignore[union-attr]


def _searched(actor: Any, field: Field, move: tuple[Any, ...], target: Any) -> Any:
    actor.memory.clear()
    return ranks.way_forward(actor, field, *move, target), actor.memory.get("blocked")


@pytest.mark.parametrize("mirrored", [True, False])
def test_a_compiled_search_finds_pythons_place(
    mirrored: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Random crowds, moves toward a target or not, fighters coming, moving and leaving
    between searches: the compiled search finds the place Python's finds; where every
    place is taken, the same places, each blocked by whoever it names; and the mirror
    lists everyone where they stand. When its slots are used up it is made again: at
    once on a field that keeps it from placement on (``mirrored``), which never files
    anyone in the elbow-room index; else at the next search, the index kept meanwhile."""
    monkeypatch.setattr(squares, "MIRRORED", mirrored)
    rng = random.Random(11)
    field = Field(2, width=_BOUNDED.width, height=_BOUNDED.height)
    crowd = _crowd(rng, field, 60)
    if mirrored:  # kept from the first fighter on
        _mirror_holds(field)
    else:
        assert field.occupied is None
    used = remade = 0
    mirror = field.occupied
    for _ in range(1500):
        actor, target = rng.sample(crowd, 2)
        goal = (target.position[0] + rng.uniform(-1, 1), target.position[1] + rng.uniform(-1, 1))
        gap = math.hypot(goal[0] - actor.position[0], goal[1] - actor.position[1])
        if gap < 1e-3:
            continue
        allowance = rng.choice([2.0, 8.0, 15.0])
        move = (goal, gap, min(gap, allowance), allowance)
        aimed = target if rng.random() < 0.7 else None
        want = _by_hand(actor, crowd, move, aimed)
        found, memo = _searched(actor, field, move, aimed)
        used += 1
        assert found == want
        if want is None:  # the memo: every place, each blocked by whoever it names
            assert isinstance(memo, Blocked)
            spots = memo.spots
            tried = remembered.blockers(memo)  # kept in the mirror, or listed
            assert len(tried) == len(spots) // 2
            for k, other in enumerate(tried):
                ox, oy = other.position[0] - spots[2 * k], other.position[1] - spots[2 * k + 1]
                assert other is not actor
                assert math.hypot(ox, oy) < (actor.radius + other.radius) * ELBOW_ROOM * 1.000001
        elif rng.random() < 0.5:  # it moves there
            field.move(actor, *found)
        if rng.random() < 0.05:  # one leaves, another comes
            gone = rng.choice(crowd)
            field.remove(gone)
            crowd.remove(gone)
            crowd += _crowd(rng, field, 1)
        if field.occupied is not None:  # None: out of slots, made again at the next search
            _mirror_holds(field)
            remade += field.occupied is not mirror
            mirror = field.occupied
        else:  # the elbow-room index, kept again meanwhile, as if filed afresh
            assert not mirrored
            _index_holds(field)
            remade += 1
        if mirrored:
            assert not any(field._halo.values())  # type: ignore[union-attr]
    assert used > 1000
    assert remade > 0


@pytest.mark.parametrize("mirrored", [True, False])
def test_the_mirror_is_made_again_when_someone_leaves_its_grid(
    mirrored: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A fighter stepping far off (outside the mirror's grid) is found by the next
    search: the mirror is made again (at once, where it is kept from placement on),
    and lists him."""
    monkeypatch.setattr(squares, "MIRRORED", mirrored)
    field = Field(2)
    crowd = _crowd(random.Random(3), field, 20)
    actor, far = crowd[0], crowd[1]
    ranks.way_forward(actor, field, (30.0, 4.0), 30.0, 5.0, 5.0, None)
    first = field.occupied
    assert first
    field.move(far, 60.0, 40.0)
    if mirrored:
        assert field.occupied
        assert field.occupied is not first
        _mirror_holds(field)
    else:
        assert field.occupied is None
        _index_holds(field)
    ranks.way_forward(actor, field, (30.0, 4.0), 30.0, 5.0, 5.0, None)
    _mirror_holds(field)


def test_asking_for_the_index_gives_up_the_mirror_till_the_next_move(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """On a field that keeps the mirror from placement on, whoever asks for the
    elbow-room index (a newcomer wider than anyone placed checking its place) gets it
    whole, as a field filed afresh; the next who moves or comes, or a search, makes the
    mirror again. A field too wide for the mirror keeps the index from the start; a
    cleared field keeps the mirror again."""
    monkeypatch.setattr(squares, "MIRRORED", True)
    field = Field(2)
    crowd = _crowd(random.Random(5), field, 30)
    _mirror_holds(field)
    assert field.elbow_index(crowd[0]) is not None
    assert field.occupied is None
    _index_holds(field)
    field.move(crowd[0], crowd[0].position[0] + 0.01, crowd[0].position[1])
    _mirror_holds(field)
    assert not any(field._halo.values())  # type: ignore[union-attr]
    field.elbow_index(crowd[0])
    assert field.occupancy()
    _mirror_holds(field)
    field.clear()
    for agent in crowd:
        field.add(agent)
    _mirror_holds(field)
    assert not any(field._halo.values())  # type: ignore[union-attr]
    wide = Field(2)
    wide.add(_Fighter(0, 0.0, 0.0, 0.5))
    wide.add(_Fighter(1, 2.0**21, 0.0, 0.5))  # a grid of more than MOST_SQUARES squares
    assert wide.occupied is False
    _index_holds(wide)


@pytest.mark.parametrize("gap", [None, 40])
def test_a_battle_with_the_mirror_from_placement_is_the_same(
    gap: int | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Bands of 300 (their turns played in arrays) formed up in ranks, in contact or 40
    yards apart, play the same first 8 rounds, event for event, whether the field keeps
    its mirror from placement on, from the first compiled search, or never (Python's
    searches in the elbow-room index)."""
    text = _melee_yaml(300, bands=True, gap=gap).replace("max_rounds: 1000", "max_rounds: 8")
    made = 0
    make = squares.Squares._make_mirror

    def counted(self: Any) -> None:
        nonlocal made
        made += 1
        make(self)

    monkeypatch.setattr(squares.Squares, "_make_mirror", counted)
    mirrored = _played(text, 5)
    assert made > 0
    monkeypatch.setattr(squares, "MIRRORED", False)
    made = 0
    assert _played(text, 5) == mirrored
    assert made == 0
    monkeypatch.setattr(ranks, "COMPILED_PLACES", False)
    assert _played(text, 5) == mirrored
