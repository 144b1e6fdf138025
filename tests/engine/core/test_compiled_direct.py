"""Compiled code called without numba's dispatch (``crowd.occupied.direct``) answers as the
dispatcher does: the same returns and the same arrays written, over random fields,
places and searches, and with a Python int where a float is typed (a radius of 1)."""

from __future__ import annotations

import math
import random
from typing import Any

import numpy as np

from fadad_agents.agents.core.crowd import nearest, occupied
from fadad_agents.agents.core.crowd.nearest import Nearest
from fadad_agents.agents.core.field import Field
from tests.engine.core.test_compiled_search import _crowd


def _twin(mirror: occupied.Occupied) -> tuple[Any, Any]:
    return mirror.floats.copy(), mirror.ints.copy()


def _field(rng: random.Random) -> tuple[Field, list[Any], occupied.Occupied]:
    field = Field(2, width=14, height=9)
    crowd = _crowd(rng, field, 70)
    mirror = occupied.Occupied.made(field.standing(), field.widest)
    assert mirror
    return field, crowd, mirror


def test_a_direct_put_moves_as_the_dispatcher_moves() -> None:
    """Random moves, in the grid and out of it: the same answer, the same arrays."""
    rng = random.Random(5)
    _, crowd, mirror = _field(rng)
    floats, ints = _twin(mirror)
    for _ in range(2000):
        s = rng.randrange(len(crowd))
        x, y = rng.uniform(-60, 80), rng.uniform(-60, 80)
        r = rng.choice([0.5, 0.3, 1])  # an int radius too (a scenario's ``radius: 1``)
        direct = occupied._put_now(s, x, y, r, mirror.floats, mirror.ints)
        assert direct == occupied._put(s, x, y, r, floats, ints)
        assert np.array_equal(mirror.floats, floats)
        assert np.array_equal(mirror.ints, ints)


def test_a_direct_look_finds_whom_the_dispatcher_finds() -> None:
    """Random places, by products or by ``**``: the same slot standing there (or none)."""
    rng = random.Random(6)
    _, crowd, mirror = _field(rng)
    found = 0
    for _ in range(3000):
        x, y = rng.uniform(-2, 16), rng.uniform(-2, 11)
        me, r = rng.randrange(-1, len(crowd)), rng.choice([0.5, 0.3])
        by_pow = rng.random() < 0.5
        args = (x, y, by_pow, me, r, mirror.floats, mirror.ints, occupied._TWO)
        direct = occupied._standing_now(*args)
        assert direct == occupied._standing_in(*args)
        found += direct >= 0
    assert 300 < found < 2700  # both answers met often


def test_a_direct_search_finds_the_dispatchers_places() -> None:
    """Random moves toward a target or not: the same counts and first free place, and the
    same places and blockers written where every place is taken."""
    rng = random.Random(7)
    _, crowd, mirror = _field(rng)
    floats, ints = _twin(mirror)
    bounds = (14.0, 9.0)
    taken = 0
    for _ in range(1500):
        actor, target = rng.sample(crowd, 2)
        (hx, hy), (tx, ty) = actor.position, target.position
        gx, gy = tx + rng.uniform(-1, 1), ty + rng.uniform(-1, 1)
        gap = math.hypot(gx - hx, gy - hy) or 1e-3
        allowance = rng.choice([2.0, 8.0, 15.0])
        r = actor.radius
        reach = r + 1.0 + target.radius - 0.05
        way = (hx, hy, gx, gy, gap, min(gap, allowance), allowance, r, tx, ty, reach,
               (reach + 0.05) ** 2, 0.25)  # fmt: skip
        turns = np.array([0.4, -0.4, 0.8, -0.8, 1.2, -1.2])
        if rng.random() < 0.3:  # no target: no places round it
            way, turns = (*way[:8], 0.0, 0.0, 0.0, 0.0, 0.25), np.empty(0)
        me = rng.randrange(len(crowd))
        direct = occupied._search_now(way, turns, bounds, me, mirror.floats, mirror.ints,
                                      occupied._TWO)  # fmt: skip
        assert direct == occupied._search(way, turns, bounds, me, floats, ints, occupied._TWO)
        assert np.array_equal(mirror.floats, floats)
        assert np.array_equal(mirror.ints, ints)
        taken += direct[0] > 0
    assert taken > 60  # every place taken, often enough to compare what is written


def test_the_nearest_read_directly_is_the_dispatchers() -> None:
    """Sides of random fighters filed for their nearest, some gone: the nearest to random
    points read without dispatch (arrays made by ``Nearest`` itself) is the
    dispatcher's (arrays at hand, ``Nearest.of``, are read through the dispatcher)."""
    rng = random.Random(8)
    for _ in range(40):
        n = rng.randrange(1, 60)
        crowd = [
            _Spot(u, rng.uniform(-9, 9), rng.uniform(-6, 6)) for u in rng.sample(range(3 * n), n)
        ]
        known = Nearest(crowd)
        assert known.near is nearest._nearest_now
        for k in rng.sample(range(n), n // 3):
            known.left[k] = True
        for _ in range(50):
            x, y = rng.uniform(-12, 12), rng.choice([rng.uniform(-8, 8), 0, 1])
            want = nearest._nearest_to(known.arrays, x, y, 2.0)
            assert nearest._nearest_now(known.arrays, x, y, 2.0) == want
            assert known.to(x, y) is (None if want[0] < 0 else known.members[want[0]])
    wide = np.zeros((5, 4))
    wide[:, 0], wide[:, 2] = range(5), range(5)
    strided = Nearest.of(wide[:, ::2], np.arange(5, dtype=np.int64), list(range(5)))
    assert strided.near is nearest._nearest_to
    assert strided.to(3.2, 2.9) == 3


class _Spot:
    def __init__(self, uid: int, x: float, y: float) -> None:
        self.unique_id, self.position = uid, (x, y)
