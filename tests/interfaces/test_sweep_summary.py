"""Sweep summaries: Wilson intervals, win probabilities, quantiles, adaptive stopping."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy.stats import binomtest

from fadad_agents.analysis import (
    NO_WINNER,
    loss_quantiles,
    summary_table,
    sweep,
    wilson_interval,
    win_probabilities,
)
from fadad_agents.analysis.summary import widest_interval

DUEL = Path(__file__).parents[2] / "scenarios" / "snorri-vs-brynhild.yaml"


def test_wilson_interval_known_values() -> None:
    """5 of 10 at 95%: 0.2366 .. 0.7634 (Wilson 1927; Newcombe 1998 table I)."""
    low, high = wilson_interval(5, 10)
    assert (round(low, 4), round(high, 4)) == (0.2366, 0.7634)
    low, high = wilson_interval(0, 10)
    assert (low, round(high, 4)) == (0.0, 0.2775)


@given(
    st.integers(1, 2000).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))),
    st.sampled_from([0.8, 0.9, 0.95, 0.99]),
)
def test_wilson_interval_matches_scipy(case: tuple[int, int], confidence: float) -> None:
    """Same interval as scipy's binomtest(...).proportion_ci(method='wilson')."""
    k, n = case
    ci = binomtest(k, n).proportion_ci(confidence_level=confidence, method="wilson")
    low, high = wilson_interval(k, n, confidence)
    assert low == pytest.approx(ci.low, abs=1e-12)
    assert high == pytest.approx(ci.high, abs=1e-12)
    assert 0.0 <= low <= k / n <= high <= 1.0


def test_wilson_interval_rejects_impossible_counts() -> None:
    """More wins than battles, or a confidence outside (0, 1), is a ValueError."""
    with pytest.raises(ValueError, match=r"successes must be in 0\.\.trials"):
        wilson_interval(11, 10)
    with pytest.raises(ValueError, match="confidence must be between 0 and 1"):
        wilson_interval(1, 10, 1.0)


def _frame(winners: list[str | None]) -> pd.DataFrame:
    n = len(winners)
    return pd.DataFrame(
        {
            "scenario": ["Duel"] * n,
            "variant": [0] * n,
            "label": ["base"] * n,
            "replicate": range(n),
            "winner": winners,
            "rounds": range(1, n + 1),
            "duration_s": [6 * r for r in range(1, n + 1)],
            "A.strength": [1] * n,
            "A.casualties": [0 if w == "A" else 1 for w in winners],
            "B.strength": [1] * n,
            "B.casualties": [0 if w == "B" else 1 for w in winners],
        }
    )


def test_win_probabilities_count_wins_and_no_winner() -> None:
    """Wins per side over all battles, plus a (no winner) row when some had none."""
    probs = win_probabilities(_frame(["A", "A", "B", None]))
    assert list(probs["side"]) == ["A", "B", NO_WINNER]
    assert list(probs["wins"]) == [2, 1, 1]
    assert list(probs["p"]) == [0.5, 0.25, 0.25]
    assert list(probs["low"]) == [wilson_interval(2, 4)[0], *(wilson_interval(1, 4)[0],) * 2]
    assert widest_interval(_frame(["A", "A", "B", None])) == pytest.approx(
        wilson_interval(2, 4)[1] - wilson_interval(2, 4)[0]
    )


def test_quantiles_of_duration_and_losses() -> None:
    """Rounds 1..5: median 3, mean 3; losses per side from <side>.casualties."""
    table = loss_quantiles(_frame(["A", "A", "B", "A", "B"])).set_index("measure")
    assert table.loc["rounds", "q50"] == 3.0
    assert table.loc["rounds", "mean"] == 3.0
    assert table.loc["duration_s", "q50"] == 18.0
    assert table.loc["A.casualties", "mean"] == pytest.approx(0.4)
    assert list(table.index) == ["rounds", "duration_s", "A.casualties", "B.casualties"]


def test_summary_table_text() -> None:
    """The text summary names the scenario, battles, sides, p(win) and intervals."""
    text = summary_table(_frame(["A", "A", "B", "A"]))
    assert "Duel: 4 battles" in text
    assert "A     3  0.750" in text
    low, high = wilson_interval(3, 4)
    assert f"{low:.3f} .. {high:.3f}" in text
    assert "B.casualties" in text


def test_adaptive_stop_at_first_narrow_batch_boundary() -> None:
    """The sweep stops at the first batch boundary where every interval is narrow enough."""
    batch, width = 20, 0.2
    result = sweep(DUEL, 400, 6, batch_size=batch, target_width=width, progress=False)
    played = result.played[0]
    assert result.stopped_early
    assert played % batch == 0
    assert played < 400
    assert len(result.frame) == played
    assert widest_interval(result.frame) < width
    full = sweep(DUEL, played, 6, batch_size=batch, progress=False).frame
    pd.testing.assert_frame_equal(result.frame, full)
    earlier = full[full["replicate"] < played - batch]
    assert widest_interval(earlier) >= width


def test_adaptive_stop_is_the_same_on_processes(tmp_path: Path) -> None:
    """Two processes stop at the same replicate; parts past the stop are not kept."""
    serial = sweep(DUEL, 400, 6, batch_size=20, target_width=0.2, progress=False)
    out = tmp_path / "r.parquet"
    parallel = sweep(
        DUEL,
        400,
        6,
        batch_size=20,
        target_width=0.2,
        backend="processes",
        workers=2,
        out=out,
        progress=False,
        auto_serial=False,
    )
    assert parallel.played == serial.played
    pd.testing.assert_frame_equal(parallel.frame, serial.frame)
    assert len(list(out.glob("part-*.parquet"))) == serial.played[0] // 20


def test_unreachable_width_plays_every_run() -> None:
    """A target too narrow for the runs leaves the sweep at full length."""
    result = sweep(DUEL, 30, 6, batch_size=10, target_width=0.01, progress=False)
    assert result.played == {0: 30}
    assert not result.stopped_early
