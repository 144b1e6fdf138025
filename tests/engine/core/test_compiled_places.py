"""A search's places worked out in compiled code (``crowd.places``, once numba is loaded)
are the places Python works out, float for float: the same battle."""

from __future__ import annotations

import math
import random
from collections.abc import Iterator
from typing import Any

import pytest

from benchmarks.bench_engine import _melee_yaml
from fadad_agents.agents.core import ranks
from fadad_agents.agents.core.crowd import occupied
from fadad_agents.agents.core.field import Field, squares
from fadad_agents.engine import build_battle, load

pytestmark = pytest.mark.usefixtures("python_melee")  # Python's shortcuts compared


def _ulps(v: float, n: int) -> float:
    for _ in range(abs(n)):
        v = math.nextafter(v, math.inf if n > 0 else -math.inf)
    return v


class _Fighter:
    def __init__(self, x: float, y: float, radius: float, reach: float) -> None:
        self.position, self.radius, self.reach = (x, y), radius, reach


def _in_python(
    actor: Any, field: Any, goal: Any, gap: float, yards: float, allowance: float, target: Any
) -> tuple[list[float], int]:
    """``way_forward``'s places as Python works them out (all of them, in order)."""
    here = actor.position
    spots = [
        here[0] + (goal[0] - here[0]) * yards / gap,
        here[1] + (goal[1] - here[1]) * yards / gap,
    ]
    if target is not None:
        ranks._places_round(actor, target, field, allowance, spots)
    ring = len(spots) // 2 - 1
    ranks._way_spots(actor, field, here, goal, gap, yards, spots)
    return spots, ring


def random_moves(rng: random.Random, many: int, allowances: tuple[float, ...]) -> Iterator[Any]:
    """Up to ``many`` random moves, near and far, toward a target or not, in a box of
    20 by 14 yards: each the actor, its target, whom it aims at (the target or None), its
    goal and gap, the yards it moves and its allowance (one of ``allowances``, its gap or
    a part of it)."""
    for _ in range(many):
        radius = rng.choice([0.5, 0.5, 0.3, 0.9])
        actor = _Fighter(rng.uniform(-3, 17), rng.uniform(-3, 11), radius, rng.choice([1.0, 1.5]))
        target = _Fighter(rng.uniform(-3, 17), rng.uniform(-3, 11), rng.choice([0.5, 0.7]), 1.0)
        goal = (target.position[0] + rng.uniform(-2, 2), target.position[1] + rng.uniform(-2, 2))
        gap = math.hypot(goal[0] - actor.position[0], goal[1] - actor.position[1])
        if gap < 1e-3:
            continue
        allowance = rng.choice([*allowances, gap, gap * rng.uniform(0.2, 1.0)])
        aimed = target if rng.random() < 0.8 else None
        yield actor, target, aimed, goal, gap, min(gap, allowance), allowance


@pytest.mark.parametrize("bounds", [(None, None), (14, 8), (None, 6)])
def test_the_compiled_places_are_pythons(bounds: tuple[Any, Any]) -> None:
    """Random moves, near and far, toward a target or not, on open ground and on fields
    whose edges clamp places: the compiled places equal Python's, bit for bit, and so
    does the count round the target."""
    field = Field(2, width=bounds[0], height=bounds[1])
    for actor, _, aimed, goal, gap, yards, allowance in random_moves(
        random.Random(7), 3000, (8.0, 15.0, 30.0)
    ):
        want = _in_python(actor, field, goal, gap, yards, allowance, aimed)
        found = ranks._compiled_places(actor, field, aimed, (goal, gap, yards, allowance))
        assert found == want


def _edges(rng: random.Random, many: int) -> list[tuple[Any, ...]]:
    """Searches where squares by products would decide otherwise than Python's ``**``:
    a place round the target at the edge of the allowance, or a sidestep 1 yard short
    at the edge of the move (a radius a unit in the last place off the width that puts
    it there)."""
    found: list[tuple[Any, ...]] = []
    field = Field(2)
    while len(found) < many:
        actor = _Fighter(rng.uniform(-3, 3), rng.uniform(-3, 3), 0.5, 1.0)
        target = _Fighter(rng.uniform(-3, 3), rng.uniform(-3, 3), 0.5, 1.0)
        (ax, ay), goal = actor.position, target.position
        gap = math.hypot(goal[0] - ax, goal[1] - ay)
        if gap < 1.5:
            continue
        ring: list[float] = []
        ranks._places_round(actor, target, field, math.inf, ring)
        for x, y in zip(ring[0::2], ring[1::2], strict=True):
            by_pow, by_products = (
                (x - ax) ** 2 + (y - ay) ** 2,
                (x - ax) * (x - ax) + (y - ay) * (y - ay),
            )
            for n in range(-2, 3):
                limit = _ulps(math.sqrt(by_pow), n)
                if (by_pow > limit * limit) != (by_products > limit * limit):
                    found.append(
                        (_Fighter(ax, ay, 0.5, 1.0), goal, gap, min(gap, limit), limit, target)
                    )
        width = math.sqrt(gap * gap - (gap - 1) ** 2)
        for n in range(-1, 2):
            actor.radius = _ulps(width / 2, n)
            dx, dy = (goal[0] - ax) / gap, (goal[1] - ay) / gap
            x, y = ax + dx * (gap - 1), ay + dy * (gap - 1)
            sx, sy = -dy * 2 * actor.radius, dx * 2 * actor.radius
            for px, py in ((x + sx, y + sy), (x - sx, y - sy)):
                ox, oy = px - ax, py - ay
                if (ox**2 + oy**2 <= gap * gap) != (ox * ox + oy * oy <= gap * gap):
                    found.append((_Fighter(ax, ay, actor.radius, 1.0), goal, gap, gap, gap, None))
    return found


def test_the_compiled_places_at_the_edges_are_pythons() -> None:
    """Where products alone would keep a place Python's ``**`` drops (or the other way
    round), the compiled places are still Python's."""
    field = Field(2)
    for actor, goal, gap, yards, allowance, target in _edges(random.Random(8), 40):
        want = _in_python(actor, field, goal, gap, yards, allowance, target)
        assert ranks._compiled_places(actor, field, target, (goal, gap, yards, allowance)) == want


def _played(text: str, seed: int) -> list[Any]:
    battle = build_battle(load(text), seed, collect=False)
    battle.run_to_end()
    return [tuple(e) for e in battle.log]


@pytest.mark.parametrize(("gap", "walled"), [(None, False), (12, False), (40, False), (None, True)])
def test_a_battle_with_compiled_places_is_the_same(
    gap: int | None, walled: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two bands of 100 formed up in ranks (in contact, 12 or 40 yards apart - closing in
    past the first grid of the field in arrays - or on a field whose edges cut their
    ranks) play the same first 12 rounds, event for event, with the places worked out
    and measured in compiled code (``crowd.occupied``) or in Python; the compiled
    searches were used."""
    text = _melee_yaml(100, bands=True, gap=gap).replace("max_rounds: 1000", "max_rounds: 12")
    if walled:
        text += "map: {kind: open, width: 14, height: 8}\n"
    used = 0
    first_free = occupied.first_free

    def searched(*args: Any) -> Any:
        nonlocal used
        used += 1
        return first_free(*args)

    monkeypatch.setattr(occupied, "first_free", searched)
    monkeypatch.setattr(ranks, "COMPILED_PLACES", True)
    compiled = _played(text, 3)
    assert used > 100
    monkeypatch.setattr(ranks, "COMPILED_PLACES", False)
    monkeypatch.setattr(squares, "MIRRORED", False)  # Python's searches, in the index
    assert _played(text, 3) == compiled


def test_each_thread_searches_in_its_own_scratch() -> None:
    """A search's places are worked out into a room of the thread's own (``places.
    scratch``): the same array for every search of a thread, another in another thread
    (a Dask worker's threads search at once; one room shared, a search's places could be
    read after another thread's search refilled them)."""
    import threading

    from fadad_agents.agents.core.crowd import places

    mine = places.scratch()
    assert places.scratch() is mine
    assert mine.shape == (2 * places.MOST_SPOTS,)
    theirs: list[Any] = []
    thread = threading.Thread(target=lambda: theirs.append(places.scratch()))
    thread.start()
    thread.join()
    assert theirs[0] is not mine
    assert theirs[0].shape == mine.shape
