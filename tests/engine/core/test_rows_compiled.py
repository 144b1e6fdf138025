"""A band's turn's rows laid out in compiled code are numpy's rows.

``crowd.plans`` checks a turn's declared rows again, picks those who close in and lays
out the plan the compiled loop reads; ``crowd.declaring`` puts the declared rows in place.
With ``plans.ROWS_COMPILED`` each is a compiled loop (``crowd.planning``), not numpy's
indexing by masks and lists: the same integers, and battles play the same either way.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from benchmarks.bench_engine import _melee_yaml
from fadad_agents.agents.core.crowd import kernels, planning, plans, waiting
from tests.engine.core.test_declaring import _log_text

pytestmark = pytest.mark.usefixtures("python_melee")  # Python's shortcuts compared

SIZE = 500


def _given(rng: Any, n: int) -> Any:
    """Rows of a turn as declared: a fighter's index or a mark (unread, not its turn,
    Python's), a target, actions and attacks."""
    given = np.column_stack(
        (rng.integers(0, SIZE, n), rng.integers(0, SIZE, n), rng.integers(0, 4, n),
         rng.integers(0, 3, n))
    )  # fmt: skip
    marks = rng.random(n)
    given[marks < 0.1, 0] = plans.UNREAD
    given[(marks >= 0.1) & (marks < 0.15)] = (kernels.PYTHONS, 0, 0, 0)
    given[(marks >= 0.15) & (marks < 0.2)] = (kernels.NO_TURN, 0, 0, 0)
    return given


@pytest.mark.parametrize("looks", [True, False])
def test_a_declared_turn_is_checked_again_as_numpy_checks_it(
    looks: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Rows of fighters fallen since, or not steady, or planning attacks where none are
    looked for after waiting: the same rows marked, the others and the unread as they
    were, the same unread listed."""
    rng = np.random.default_rng(11)
    given = _given(rng, 3000)
    crowd = type("Crowd", (), {})()
    crowd.steady_at, crowd.fighting = rng.random(SIZE) < 0.8, rng.random(SIZE) < 0.85
    crowd.looks_in_reach = looks
    turn, arena = [None] * len(given), type("Arena", (), {"round": 4})()
    checked = {}
    for compiled in (True, False):
        monkeypatch.setattr(plans, "ROWS_COMPILED", compiled)
        crowd.declared_plans = {id(turn): (turn, 4, given.copy())}
        checked[compiled] = plans._declared(crowd, turn, arena, kernels)
    (rows, unread), (numpy_rows, numpy_unread) = checked[True], checked[False]
    assert np.array_equal(rows, numpy_rows)
    assert unread == numpy_unread
    assert len(unread) > 200
    assert (rows[:, 0] == kernels.NO_TURN).sum() > (given[:, 0] == kernels.NO_TURN).sum()
    assert (rows[:, 0] == kernels.PYTHONS).sum() > (given[:, 0] == kernels.PYTHONS).sum()


def test_a_plan_is_laid_out_as_numpy_lays_it_out() -> None:
    """Random rows: the same rows of those who close in, and the same plan of nine
    columns (reaches, index and versions only where a fighter has its turn)."""
    rng = np.random.default_rng(12)
    given = _given(rng, 3000)
    most = np.where(rng.random(SIZE) < 0.7, 2, -1)
    reaches = rng.integers(0, 9, (SIZE, 2))
    version = rng.integers(0, 50, SIZE)
    known = given[:, 0] >= 0
    rows = given[known]
    numpy_rows = rows[most[rows[:, 0]] >= 0, :3]
    assert np.array_equal(planning.closing(given, most), numpy_rows)
    assert 1000 < len(numpy_rows) < 3000
    plan = np.zeros((len(given), 9), dtype=np.int64)
    plan[:, :4] = given
    uids = given[known, 0]
    plan[known, 4:6] = reaches[uids]
    plan[known, 6] = uids
    plan[known, 7] = version[uids]
    plan[known, 8] = version[given[known, 1]]
    assert np.array_equal(planning.fill_plan(given, reaches, version), plan)


def test_declared_rows_are_put_in_place_as_numpy_puts_them() -> None:
    """Rows settled in any order, each to its place in the turn: the same plan."""
    rng = np.random.default_rng(13)
    n = 2000
    places = rng.permutation(n)[:1500]
    rows = np.column_stack(
        (rng.integers(0, SIZE, 1500), rng.integers(0, SIZE, 1500), np.full(1500, 2),
         rng.integers(1, 3, 1500), places)
    )  # fmt: skip
    moves, attacks = rng.integers(0, 3, 1500), rng.integers(0, 3, 1500)
    plan = np.full((n, 4), plans.UNREAD, dtype=np.int64)
    expected = plan.copy()
    expected[rows[:, 4]] = np.column_stack((rows[:, 0], rows[:, 1], moves, attacks))
    planning.put_rows(plan, rows, moves, attacks)
    assert np.array_equal(plan, expected)


@pytest.mark.parametrize("gap", [None, 12])
def test_rows_laid_out_compiled_play_the_same_battle(
    gap: int | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two bands of 150 formed in ranks (crits leave conditions: some turns' rows are
    Python's), played in arrays (the threshold lowered): the same first 12 rounds, seeds
    1-2, with the rows laid out in compiled code and by numpy; and the compiled code laid
    out many turns."""
    text = _melee_yaml(150, bands=True, gap=gap).replace("max_rounds: 1000", "max_rounds: 12")
    text = text.replace("rolled}", "rolled, fadad.crit_effects: random}")
    monkeypatch.setattr(waiting, "IN_ARRAYS_AT_LEAST", 8)
    laid = 0
    fill = planning.fill_plan

    def counted(*args: Any) -> Any:
        nonlocal laid
        laid += 1
        return fill(*args)

    monkeypatch.setattr(planning, "fill_plan", counted)
    for seed in (1, 2):
        compiled = _log_text(text, seed)
        monkeypatch.setattr(plans, "ROWS_COMPILED", False)
        assert _log_text(text, seed) == compiled, seed
        monkeypatch.setattr(plans, "ROWS_COMPILED", True)
    assert laid > 20
