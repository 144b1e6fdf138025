"""`fadad compare` and grid summaries: paired differences on common random numbers."""

from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from fadad_agents.analysis import compare, newcombe_interval, sweep
from fadad_agents.analysis.summary import wilson_interval
from fadad_agents.cli import app

DUEL = Path(__file__).parents[2] / "scenarios" / "snorri-vs-brynhild.yaml"


def _variant(tmp_path: Path, name: str, old: str, new: str) -> Path:
    text = DUEL.read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / name
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


@pytest.fixture
def plain_sword(tmp_path):
    return _variant(tmp_path, "plain.yaml", "magic_plus: 1", "magic_plus: 0")


def test_a_scenario_against_itself_differs_by_exactly_nothing():
    """Common random numbers: the same file plays the same battles, so every paired
    difference is 0 and not distinguishable from noise."""
    result = compare(DUEL, DUEL, 60, 2, progress=False)
    assert [d.diff for d in result.differences] == [0.0] * 4
    assert not any(d.clear for d in result.differences)
    assert "not distinguishable from noise" in result.summary()


def test_losing_the_magic_sword_is_a_real_difference(plain_sword):
    """Snorri without his +1 wins less often, and 400 paired battles are enough to say so."""
    result = compare(DUEL, plain_sword, 400, 1, progress=False)
    wins = next(d for d in result.differences if d.measure == "Snorri wins")
    assert wins.diff < 0
    assert wins.clear
    assert wins.low <= wins.diff <= wins.high
    assert "Snorri wins: " in result.summary()
    assert "a real difference" in result.summary()


def test_swapping_the_files_mirrors_the_difference(plain_sword):
    """compare(B, A) states the negated difference with the mirrored interval."""
    ab = compare(DUEL, plain_sword, 150, 4, progress=False).differences
    ba = compare(plain_sword, DUEL, 150, 4, progress=False).differences
    for x, y in zip(ab, ba, strict=True):
        assert x.measure == y.measure
        assert x.diff == pytest.approx(-y.diff)
        assert (x.low, x.high) == pytest.approx((-y.high, -y.low))


def test_adaptive_comparison_stops_once_the_difference_is_clear(tmp_path):
    """With a target width, a large difference is declared before the ceiling of runs."""
    weak = _variant(tmp_path, "weak.yaml", "Sword: Great", "Sword: Poor")
    result = compare(DUEL, weak, 2000, 1, target_width=0.01, batch_size=50, progress=False)
    assert len(result.base.frame) < 2000
    assert len(result.base.frame) == len(result.other.frame)
    assert all(d.clear for d in result.differences)


def test_paired_interval_is_narrower_than_two_independent_sweeps():
    """Strongly agreeing pairs give a much narrower interval than the difference of two
    independent Wilson intervals of the same proportions would."""
    a = np.array([1] * 600 + [0] * 400)
    b = a.copy()
    b[:30] = 0  # 30 battles changed from a win to a loss
    low, high = newcombe_interval(a, b)
    assert low < -0.03 < high < 0
    lo_a, hi_a = wilson_interval(600, 1000)
    lo_b, hi_b = wilson_interval(570, 1000)
    assert high - low < 0.5 * ((hi_a - lo_a) + (hi_b - lo_b))


def test_paired_interval_holds_its_estimate_and_mirrors():
    """The interval contains the difference and swapping the pairs negates it."""
    rng = np.random.default_rng(5)
    a = (rng.random(300) < 0.4).astype(int)
    b = np.where(rng.random(300) < 0.8, a, 1 - a)
    low, high = newcombe_interval(a, b)
    assert low <= b.mean() - a.mean() <= high
    assert newcombe_interval(b, a) == pytest.approx((-high, -low))


def test_grid_summary_states_each_variants_difference_from_the_first():
    """A grid's summary ends with variant 1 - variant 0 on the same battles."""
    result = sweep(
        DUEL, 60, 1, grid={"rules.fadad.initiative": ["rolled", "static"]}, progress=False
    )
    text = result.summary()
    assert "variant 1 - variant 0, paired on the same 60 battles (95% intervals):" in text
    assert "  Snorri wins: " in text


def test_cli_compare_prints_the_difference(plain_sword):
    """`fadad compare A B` exits 0 and states B - A for each side."""
    result = CliRunner().invoke(
        app, ["compare", str(DUEL), str(plain_sword), "--runs", "40", "--quiet"]
    )
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert "B - A on the same battle seeds (95% intervals):" in lines
    assert any(line.startswith("  Brynhild wins: ") for line in lines)
    assert "\\n" not in result.output  # the summary's line breaks print as line breaks


def test_cli_compare_refuses_different_sides_in_one_line(tmp_path):
    """Files with different side names cannot be compared: one line, exit status 2."""
    other = _variant(tmp_path, "renamed.yaml", "- name: Brynhild", "- name: Hilda")
    result = CliRunner().invoke(app, ["compare", str(DUEL), str(other), "-n", "5", "--quiet"])
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("fadad compare: ")
    assert "same sides" in lines[0]


def test_cli_compare_missing_file_is_one_line(tmp_path):
    """A missing scenario file is one line and exit status 2, never a traceback."""
    result = CliRunner().invoke(app, ["compare", str(DUEL), str(tmp_path / "nope.yaml")])
    assert result.exit_code == 2
    assert len(result.output.strip().splitlines()) == 1
