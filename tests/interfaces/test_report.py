"""`fadad sweep` and `fadad report`: summary tables, PNG plots, one-line errors."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from typer.testing import CliRunner

from fadad_agents.analysis import read_results, sweep
from fadad_agents.analysis.plots import (
    REPORT_FILES,
    plot_win_probabilities,
    short_label,
    write_report,
)
from fadad_agents.cli import app

DUEL = Path(__file__).parents[2] / "scenarios" / "snorri-vs-brynhild.yaml"
PNG = b"\x89PNG\r\n\x1a\n"


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


def test_sweep_command_writes_results_and_prints_summary(runner: CliRunner, tmp_path: Path) -> None:
    """fadad sweep plays the runs, prints p(win) per side and writes the results folder."""
    out = tmp_path / "results.parquet"
    args = ["sweep", str(DUEL), "--runs", "12", "--seed", "3", "--out", str(out), "--quiet"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "Snorri vs Brynhild: 12 battles" in result.output
    assert "p(win)" in result.output
    frame = read_results(out)
    pd.testing.assert_frame_equal(frame, sweep(DUEL, 12, 3, progress=False).frame)


def test_sweep_command_grid(runner: CliRunner) -> None:
    """--grid PATH=V1,V2 sweeps each value on the same seeds."""
    grid = "sides[Snorri].forces[0].skills.Sword=Good,Great"
    result = runner.invoke(app, ["sweep", str(DUEL), "-n", "6", "--grid", grid, "--quiet"])
    assert result.exit_code == 0, result.output
    assert "variant 0: sides[Snorri].forces[0].skills.Sword=Good" in result.output
    assert "variant 1: sides[Snorri].forces[0].skills.Sword=Great" in result.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--runs", "0"], "fadad sweep: runs must be a whole number >= 1, got 0"),
        (["--runs", "3", "--backend", "gpu"], "fadad sweep: unknown backend 'gpu'"),
        (
            ["--runs", "3", "--grid", "rules.fadad.initiative=sideways"],
            "fadad sweep: grid rules.fadad.initiative=sideways: rules.fadad.initiative: "
            "'sideways' is not allowed",
        ),
        (["--runs", "3", "--grid", "oops"], "fadad sweep: --grid 'oops': write PATH=V1,V2"),
    ],
)
def test_sweep_command_errors(runner: CliRunner, args: list[str], message: str) -> None:
    """Bad arguments: one line on stderr, exit status 2, no traceback."""
    result = runner.invoke(app, ["sweep", str(DUEL), *args, "--quiet"])
    assert result.exit_code == 2
    assert result.stderr.startswith(message)
    assert result.stderr.count("\n") == 1
    assert "Traceback" not in result.output


def test_sweep_command_missing_scenario(runner: CliRunner, tmp_path: Path) -> None:
    """A missing scenario file is a one-line error naming it."""
    result = runner.invoke(app, ["sweep", str(tmp_path / "nope.yaml"), "--runs", "2"])
    assert result.exit_code == 2
    assert "nope.yaml:1 (file): cannot read" in result.stderr


def test_report_command_prints_summary_and_writes_pngs(runner: CliRunner, tmp_path: Path) -> None:
    """fadad report prints the table and writes three PNG files next to the results."""
    out = tmp_path / "results.parquet"
    sweep(DUEL, 20, 1, out=out, progress=False)
    result = runner.invoke(app, ["report", str(out)])
    assert result.exit_code == 0, result.output
    assert "Snorri vs Brynhild: 20 battles" in result.output
    folder = tmp_path / "results-report"
    for name in REPORT_FILES:
        assert (folder / name).read_bytes().startswith(PNG)
        assert f"wrote {folder / name}" in result.output


def test_report_command_out_folder(runner: CliRunner, tmp_path: Path) -> None:
    """--out chooses the PNG folder."""
    out = tmp_path / "r.parquet"
    sweep(DUEL, 5, 1, out=out, progress=False)
    result = runner.invoke(app, ["report", str(out), "--out", str(tmp_path / "pics")])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in (tmp_path / "pics").iterdir()) == sorted(REPORT_FILES)


def test_report_command_errors(runner: CliRunner, tmp_path: Path) -> None:
    """A missing or non-Parquet file: one line, exit 2."""
    result = runner.invoke(app, ["report", str(tmp_path / "none.parquet")])
    assert result.exit_code == 2
    assert (
        result.stderr == f"fadad report: {tmp_path / 'none.parquet'}: no such file or directory\n"
    )
    bad = tmp_path / "bad.parquet"
    bad.write_text("not parquet")
    result = runner.invoke(app, ["report", str(bad)])
    assert result.exit_code == 2
    assert result.stderr.startswith(f"fadad report: {bad}: not a Parquet file")


def test_plots_of_a_grid(tmp_path: Path) -> None:
    """A two-variant sweep plots one bar group per variant, labelled by its values."""
    result = sweep(
        DUEL, 8, 2, grid={"sides[Snorri].forces[0].skills.Sword": ["Good", "Great"]}, progress=False
    )
    paths = write_report(result.frame, tmp_path)
    assert [p.name for p in paths] == list(REPORT_FILES)
    ax = plot_win_probabilities(result.frame)
    assert [t.get_text() for t in ax.get_xticklabels()] == ["Sword=Good", "Sword=Great"]
    legend = ax.get_legend()
    assert legend is not None
    assert [t.get_text() for t in legend.get_texts()] == ["Snorri", "Brynhild"]


def test_short_label() -> None:
    """Tick labels keep each path's last key and the value."""
    assert short_label("rules.fadad.initiative=static") == "initiative=static"
    assert short_label("base") == "base"
