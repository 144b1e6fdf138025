"""The refiling of one who moved, and the nearest of a side, without numba's dispatch.

``crowd.kernels.refile_now`` and ``crowd.nearest``'s direct searches are the code the
dispatchers compile for the arrays a crowd gives them (``waiting.WAIT_DIRECT``,
``nearest.NEAREST_DIRECT``): they answer as the dispatchers do, arrays of other types or
strides go by the dispatchers (a direct call would misread them silently), and battles
play the same either way. A search of many points begun from the best of the squares
round each and of the last point's nearest (``nearest.NEAREST_SEEDED``) finds the same
nearest.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from benchmarks.bench_engine import _melee_yaml
from fadad_agents.agents.core.crowd import kernels, nearest, waiting
from fadad_agents.agents.core.crowd.nearest import Nearest
from tests.engine.core.test_nearest_from_crowd import _played

pytestmark = pytest.mark.usefixtures("python_melee")  # Python's shortcuts compared


def _grid(rng: random.Random, n: int, depth: int) -> tuple[Any, Any, Any, float]:
    x = np.array([rng.uniform(0, 30) for _ in range(n)])
    y = np.array([rng.uniform(0, 30) for _ in range(n)])
    cell = 1.5
    return x, y, kernels.file_all(x, y, np.ones(n, dtype=np.bool_), cell, depth), cell


def test_a_direct_refile_moves_as_the_dispatcher_moves() -> None:
    """Random moves, in the box and out of it, into full squares and not: the same
    answer and the same squares, counts and box written."""
    rng = random.Random(3)
    x, y, grid, cell = _grid(rng, 300, 4)
    twin = tuple(a.copy() for a in grid)
    refused = 0
    for _ in range(3000):
        k = rng.randrange(len(x))
        nx, ny = rng.uniform(-110, 140), rng.uniform(-110, 140)
        if rng.random() < 0.7:
            nx, ny = x[k] + rng.uniform(-2, 2), y[k] + rng.uniform(-2, 2)
        args = (k, float(x[k]), float(y[k]), nx, ny)
        done = kernels.refile_now(*args, grid, cell)
        assert done == kernels.refile(*args, twin, cell)
        assert all(np.array_equal(a, b) for a, b in zip(grid, twin, strict=True))
        if done:
            x[k], y[k] = nx, ny
        refused += not done
    assert 100 < refused < 2900  # both answers met often


def _side(rng: random.Random, n: int) -> tuple[Any, Any, list[Any]]:
    spots = np.array([(rng.uniform(0, 40), rng.uniform(0, 25)) for _ in range(n)])
    ids = np.array(rng.sample(range(3 * n), n), dtype=np.int64)
    return spots, ids, [f"fighter {i}" for i in ids.tolist()]


def test_a_side_filed_from_arrays_is_asked_directly_and_answers_the_same() -> None:
    """A side filed from a crowd's arrays (new, C-contiguous) is asked by the direct
    code, one point or many at a time, some of it gone: the dispatcher's answers."""
    rng = random.Random(4)
    spots, ids, members = _side(rng, 400)
    known = Nearest.of(spots, ids, members)
    assert known.near is nearest._nearest_now
    assert known.each is nearest._each_now
    for i in rng.sample(range(400), 120):
        known.left[i] = True
    points = [(rng.uniform(-20, 60), rng.uniform(-20, 45)) for _ in range(600)]
    for px, py in points:
        row = nearest._nearest_to(known.arrays, px, py, 2.0)[0]
        assert known.to(px, py) == members[row]
    places = np.array(points).ravel()
    rows = nearest._nearest_each(known.arrays, places, 2.0, nearest.NEAREST_SEEDED)
    assert np.array_equal(known.rows_to_each(places), rows)
    assert known.to_each(points) == [members[r] for r in rows.tolist()]


def test_row_minus_one_is_nobody() -> None:
    """A search among nobody (every one left, or the compiled loop's stand-ins for a side
    with nobody fighting or not filed yet, ``NOBODY`` and ``UNFILED``) finds row -1,
    which :meth:`Nearest.at` gives as None."""
    rng = random.Random(8)
    spots, ids, members = _side(rng, 40)
    known = Nearest.of(spots, ids, members)
    assert known.at(np.array([-1, 0])) == [None, members[0]]
    for stand_in in (nearest.NOBODY, nearest.UNFILED):
        assert nearest._nearest_to(stand_in, 3.0, 4.0, 2.0)[0] == -1
    known.left[:] = True
    assert nearest._nearest_to(known.arrays, 3.0, 4.0, 2.0)[0] == -1


def test_arrays_of_other_strides_go_by_the_dispatcher() -> None:
    """Spots or points given as views with strides (every other column, every other
    point), or ids of another width, are asked by the dispatcher: the answers of the
    same values laid out plainly."""
    rng = random.Random(5)
    spots, ids, members = _side(rng, 300)
    wide = np.zeros((300, 4))
    wide[:, 0], wide[:, 2] = spots[:, 0], spots[:, 1]
    strided = Nearest.of(wide[:, ::2], ids, members)  # a view: x, y four floats apart
    narrow = Nearest.of(spots, ids.astype(np.int32), members)
    plain = Nearest.of(spots, ids, members)
    assert strided.near is nearest._nearest_to
    assert strided.each is nearest._nearest_each
    assert narrow.near is nearest._nearest_to
    points = np.array([rng.uniform(-20, 60) for _ in range(800)])
    every_other = np.zeros(1600)
    every_other[::2] = points
    expected = plain.rows_to_each(points)
    assert len(np.unique(expected)) > 50
    assert np.array_equal(plain.rows_to_each(every_other[::2]), expected)
    assert np.array_equal(strided.rows_to_each(points), expected)
    assert np.array_equal(narrow.rows_to_each(points), expected)
    for q in range(0, 800, 2):
        assert strided.to(points[q], points[q + 1]) == plain.to(points[q], points[q + 1])


def _brute(spots: Any, ids: Any, left: Any, x: float, y: float) -> int:
    """The nearest row by Python's ``**``, the lower id on a tie (-1: every row left)."""
    best, best_d, best_id = -1, float("inf"), 0
    for k, ((sx, sy), i) in enumerate(zip(spots.tolist(), ids.tolist(), strict=True)):
        d = (sx - x) ** 2 + (sy - y) ** 2
        if not left[k] and (d < best_d or (d == best_d and i < best_id)):
            best, best_d, best_id = k, d, i
    return best


def _ranks(rng: random.Random, n: int, ragged: float) -> Any:
    """``n`` spots in ranks a yard apart with a few ulps of noise (as fighters who moved
    stand), some stepped out of line by up to ``ragged`` yards."""
    side = int(n**0.5)
    spots = np.array([(-0.5 - i + rng.uniform(-1e-12, 1e-12), j - side / 2 + 0.5)
                      for i in range(side) for j in range(side)])  # fmt: skip
    for k in rng.sample(range(len(spots)), len(spots) // 5):
        spots[k] += (rng.uniform(-ragged, ragged), rng.uniform(-ragged, ragged))
    return spots


@pytest.mark.parametrize("ragged", [0.0, 0.6, 3.0])
def test_a_seeded_search_finds_the_nearest(ragged: float) -> None:
    """Points before, behind, beside and among ranks (filed across columns by a rounding,
    or ragged), some of the ranks gone: the seeded search (``NEAREST_SEEDED``) finds the
    row the plain one finds, the nearest by ``**`` with the lower id on a tie."""
    rng = random.Random(int(ragged * 10) + 8)
    spots = _ranks(rng, 400, ragged)
    ids = np.array(rng.sample(range(2000), len(spots)), dtype=np.int64)
    known = Nearest.of(spots, ids, [None] * len(spots))
    for k in rng.sample(range(len(spots)), 60):
        known.left[k] = True
    points = [(rng.choice([-30.0, -10.5, 0.5, 1.0, 40.0]) + rng.uniform(-3, 3),
               rng.uniform(-25, 25)) for _ in range(250)]  # fmt: skip
    points += [(-0.5 - rng.randrange(20), rng.randrange(-10, 10) + 0.5) for _ in range(50)]
    places = np.array(points).ravel()
    seeded = nearest._each_now(known.arrays, places, 2.0, True)
    plain = nearest._each_now(known.arrays, places, 2.0, False)
    assert np.array_equal(seeded, plain)
    assert seeded.tolist() == [_brute(spots, ids, known.left, x, y) for x, y in points]
    assert len(np.unique(seeded)) > 20


def test_a_search_begun_from_the_last_points_nearest_keeps_the_lower_id_on_a_tie() -> None:
    """The seeded search begins from the last point's nearest: where that one ties with
    another of a lower id, the other is found."""
    spots = np.array([(0.0, 0.0), (2.0, 0.0), (9.0, 9.0)])
    ids = np.array([5, 3, 7], dtype=np.int64)
    known = Nearest.of(spots, ids, ["A", "B", "C"])
    places = np.array([-1.0, 0.0, 1.0, 0.0, 0.5, 0.0, 8.0, 8.0, 1.0, 0.0])
    # A (-1, 0); the tie at (1, 0) to B (id 3, not A's 5, begun from); A; C; B again
    assert nearest._each_now(known.arrays, places, 2.0, True).tolist() == [0, 1, 0, 2, 1]
    known.left[0] = True  # A gone: B from (-1, 0)
    assert nearest._each_now(known.arrays, places, 2.0, True).tolist() == [1, 1, 1, 2, 1]


@pytest.mark.parametrize("gap", [None, 12])
def test_direct_calls_play_the_same_battle(
    gap: int | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two bands of 100 played in arrays play the same battles, seeds 1-3, whether the
    refiling and the nearest of a side are called directly or by their dispatchers (the
    direct code called often); and the dispatchers, given those arrays, typed them as
    the direct code takes them."""
    monkeypatch.setattr(waiting, "IN_ARRAYS_AT_LEAST", 8)
    text = _melee_yaml(100, bands=True, gap=gap).replace("max_rounds: 1000", "max_rounds: 20")
    called = {"refile": 0, "each": 0}
    typed: dict[str, set[tuple[Any, ...]]] = {"refile": set(), "each": set()}

    def counted(name: str, call: Any) -> Any:
        def counting(*args: Any) -> Any:
            called[name] += 1
            return call(*args)

        return counting

    def typing(name: str, dispatcher: Any) -> Any:
        def call(*args: Any) -> Any:
            typed[name].add(tuple(map(nearest._typeof, args)))
            return dispatcher(*args)

        return call

    monkeypatch.setattr(kernels, "refile_now", counted("refile", kernels.refile_now))
    monkeypatch.setattr(nearest, "_each_now", counted("each", nearest._each_now))
    monkeypatch.setattr(kernels, "refile", typing("refile", kernels.refile))
    monkeypatch.setattr(nearest, "_nearest_each", typing("each", nearest._nearest_each))
    for seed in range(1, 4):
        direct = _played(text, seed)
        monkeypatch.setattr(waiting, "WAIT_DIRECT", False)
        monkeypatch.setattr(nearest, "NEAREST_DIRECT", False)
        monkeypatch.setattr(nearest, "NEAREST_SEEDED", False)
        assert _played(text, seed) == direct, seed
        monkeypatch.setattr(waiting, "WAIT_DIRECT", True)
        monkeypatch.setattr(nearest, "NEAREST_DIRECT", True)
        monkeypatch.setattr(nearest, "NEAREST_SEEDED", True)
    assert called["refile"] > 20, called
    assert called["each"] > 20, called
    # a Python int given for a float (a position of whole yards) is the float's code too
    whole, real = nearest._typeof(1), nearest._typeof(1.0)
    floats = {(a[0], *[real if t == whole else t for t in a[1:]]) for a in typed["refile"]}
    assert floats == {kernels.GRID_TYPES}
    places, two, seeded = nearest._typeof(np.zeros(2)), nearest._typeof(2.0), nearest._typeof(True)
    assert typed["each"] == {(nearest._typeof(nearest._FILED), places, two, seeded)}
