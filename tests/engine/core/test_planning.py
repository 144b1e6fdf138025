"""Moves toward contact planned in compiled code are Python's to the last bit.

``agents.core.crowd.planning`` plans a big turn's moves toward contact and works out its
fighters' ways together: its ``hypot`` must be ``math.hypot`` exactly (CPython's own
algorithm, not the C library's), each plan what the declare and :func:`moving._plan`
find, and each way what :func:`moving.current_way` finds, for a ``CloseIn`` fighter.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

from fadad_agents.agents.core import moving
from fadad_agents.agents.core.crowd import planning
from fadad_agents.agents.core.field import Field
from fadad_agents.agents.core.ranks import ring
from fadad_agents.engine.core.space import OnTheField
from fadad_agents.policies.core.movement import CloseIn

_N = 100_000


def _pairs() -> list[tuple[str, Any, Any]]:
    """Pairs of coordinates of every kind: yards, whole and half yards, random bits,
    random exponents, subnormals, nearly equal, one far smaller, and the special values."""
    rng = np.random.default_rng(19)
    bits = rng.integers(0, 2**64 - 1, (2, _N), dtype=np.uint64, endpoint=True).view(np.float64)
    powers = rng.integers(-1074, 1024, (2, _N))
    special = [0.0, -0.0, math.inf, -math.inf, math.nan, 5e-324, 2.2250738585072014e-308]
    special += [1e-300, 0.5, 1.0, 3.0, 4.0, 1e308, 1.7976931348623157e308]
    grid = np.array(np.meshgrid(special, special)).reshape(2, -1)
    near = rng.uniform(-40, 40, _N)
    return [
        ("yards", *rng.uniform(-100, 100, (2, _N))),
        ("whole", *rng.integers(-1000, 1000, (2, _N)).astype(float)),
        ("halves", *(rng.integers(-2000, 2000, (2, _N)) / 2)),
        ("bits", *bits),
        ("exponents", *np.ldexp(rng.uniform(0.5, 1, (2, _N)), powers)),
        ("subnormal", *(rng.uniform(0, 1, (2, _N)) * 1e-310)),
        ("nearly equal", near, near + rng.uniform(-1e-6, 1e-6, _N)),
        ("skinny", rng.uniform(-40, 40, _N), rng.uniform(-1e-9, 1e-9, _N)),
        ("special", *grid),
    ]


@pytest.mark.parametrize(("kind", "xs", "ys"), _pairs(), ids=lambda v: v if type(v) is str else "")
def test_hypot_is_math_hypot(kind: str, xs: Any, ys: Any) -> None:
    """planning.hypot gives math.hypot's double, bit for bit (NaN for NaN), over pairs of
    every kind."""
    xs, ys = xs.tolist(), ys.tolist()
    want = np.array(list(map(math.hypot, xs, ys)))
    got = np.array(list(map(planning.hypot, xs, ys)))
    same = (want.view(np.int64) == got.view(np.int64)) | (np.isnan(want) & np.isnan(got))
    assert same.all(), [(xs[i], ys[i], want[i], got[i]) for i in np.flatnonzero(~same)[:5]]


class _Fighter:
    def __init__(self, x: float, y: float, radius: float, reach: float, stride: float) -> None:
        self.position, self.radius, self.reach, self.stride = (x, y), radius, reach, stride
        self.placed, self.conditions, self.target = True, None, None
        self.move_actions = 0
        self.policies: Any = None


class _Arena:
    def __init__(self, field: Field) -> None:
        self.field = field

    def engage_point(self, actor: Any, target: Any) -> Any:
        return OnTheField.engage_point(self, actor, target)  # type: ignore[arg-type]


def _pairs_of_fighters(count: int) -> list[tuple[_Fighter, _Fighter]]:
    """Fighters of every size, reach, stride and gait, each with a target anywhere:
    random yards, whole and half yards, on top of it, at the edge of reach."""
    rng = np.random.default_rng(7)
    pairs = []
    for k in range(count):
        radius, other = (float(r) for r in rng.choice([0.3, 0.5, 0.75, 1.0, 1.5], 2))
        reach, stride = float(rng.choice([0.0, 0.5, 1.0, 2.0])), float(rng.choice([1.0, 0.75]))
        x, y, tx, ty = (float(v) for v in rng.uniform(-60, 60, 4))
        if k % 3 == 1:
            x, y, tx, ty = (float(v) for v in np.round(rng.uniform(-60, 60, 4) * 2) / 2)
        elif k % 3 == 2:  # near the edge of reach, or on top of it
            angle, full = rng.uniform(0, 2 * math.pi), radius + reach + other
            gap = full * (1 + rng.choice([-1e-9, 0.0, 1e-9, 1e-6, 0.5, 20])) if k % 7 else 0.0
            x, y = tx + gap * math.cos(angle), ty + gap * math.sin(angle)
        actor, target = _Fighter(x, y, radius, reach, stride), _Fighter(tx, ty, other, 1.0, 1.0)
        actor.policies = type("P", (), {"movement": CloseIn(str(rng.choice(["jog", "run"])))})
        actor.target, actor.move_actions = target, int(rng.integers(0, 3))
        pairs.append((actor, target))
    return pairs


def _arrays(pairs: list[tuple[_Fighter, _Fighter]]) -> tuple[Any, ...]:
    """Each pair's actor at index 2i and target at 2i + 1: x, y, radius, reach, stride,
    the most actions the actor's policy spends."""
    fighters = [f for pair in pairs for f in pair]
    x = np.array([f.position[0] for f in fighters])
    y = np.array([f.position[1] for f in fighters])
    radius = np.array([f.radius for f in fighters])
    reach = np.array([f.reach for f in fighters])
    stride = np.array([f.stride for f in fighters])
    most = np.array([f.policies.movement.actions if f.policies else -1 for f in fighters])
    return x, y, radius, reach, stride, most


def test_plans_are_the_declares_plans() -> None:
    """plan_moves finds the target in reach as the declare measures it, and otherwise
    the actions and whether the move ends in reach that moving._plan finds for a CloseIn
    fighter, to the last bit."""
    pairs = _pairs_of_fighters(30_000)
    arena = _Arena(Field(2))
    rng = np.random.default_rng(3)
    budgets = rng.integers(0, 5, len(pairs))
    want = []
    for (actor, target), budget in zip(pairs, budgets.tolist(), strict=True):
        (ax, ay), (tx, ty) = actor.position, target.position
        full = actor.radius + actor.reach + target.radius
        if (ax - tx) ** 2 + (ay - ty) ** 2 <= full**2:
            want.append((planning.IN_REACH, 0))
            continue
        plan = moving._plan(actor, target, arena, budget, None)
        want.append((planning.STANDS, 0) if plan is None else (plan[0], int(plan[1])))
    rows = np.array([(2 * i, 2 * i + 1, b) for i, b in enumerate(budgets.tolist())])
    got = planning.plan_moves(rows, *_arrays(pairs), 2.0).tolist()
    assert [tuple(g) for g in got] == want
    assert {w[0] for w in want} >= {planning.IN_REACH, planning.STANDS, 0, 1, 2}


@pytest.mark.parametrize("size", [None, (30.0, 20.0)], ids=["open", "walled"])
def test_ways_are_current_ways(size: tuple[float, float] | None) -> None:
    """write_ways writes the rows of each fighter's way that moving.current_way finds
    (its goal on the field, the yards to it, the yards it moves, its allowance, its
    reach; whether it has one and the places round a target it reaches), to the last
    bit; and again only for those whose key changed."""
    pairs = _pairs_of_fighters(20_000)
    width, height = size or (None, None)
    arena = _Arena(Field(2, width=width, height=height))
    x, y, radius, reach, stride, _ = _arrays(pairs)
    n = len(x)
    way, reaches = np.zeros((n, 6)), np.zeros((n, 2), dtype=np.int64)
    key, version = np.full((n, 4), -1, dtype=np.int64), np.zeros(n, dtype=np.int64)
    bounds = [-1.0 if v is None else v for v in (width, height)]  # below 0: unbounded
    measures = np.array([1.0, *bounds, 1.5, 2.0])
    rows = np.array([(2 * i, 2 * i + 1, a.move_actions) for i, (a, _) in enumerate(pairs)])
    args = (x, y, radius, reach, stride, version, key, way, reaches, measures)
    assert len(planning.write_ways(rows, *args)) == len(pairs)
    for i, (actor, target) in enumerate(pairs):
        found = moving._way_now(actor, arena, None)
        if found is None:
            want = ([0.0] * 5 + [actor.reach], [0, 0])
        else:
            goal, gap, yards, allowance, _, reached = found
            slots = 0 if reached is None else ring(target.radius, actor.radius)[1]
            want = ([*goal, gap, yards, allowance, actor.reach], [1, slots])
        assert (way[2 * i].tolist(), reaches[2 * i].tolist()) == want, (actor.__dict__, i)
    version[5] += 1  # the third pair's target stepped
    assert planning.write_ways(rows, *args).tolist() == [4]
