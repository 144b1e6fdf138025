"""`fadad run SCENARIO [--seed N] [--json] [--log FILE] [--quiet]`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from fadad_agents.cli import app
from tests.engine.conftest import SCENARIOS

RUNNER = CliRunner()
DUEL = str(SCENARIOS / "snorri-vs-brynhild.yaml")


def test_run_narrates_and_summarises() -> None:
    """Default output: the header, the narration, the tally, then a one-line summary."""
    out = RUNNER.invoke(app, ["run", DUEL, "--seed", "4006"])
    assert out.exit_code == 0
    lines = out.stdout.strip().splitlines()
    assert lines[0] == "Snorri vs Brynhild (seed 4006)"
    assert lines[lines.index("") + 1].startswith("Round 1 (0:06) ")
    assert " after " in lines[-1]
    assert "rounds" in lines[-1]


def test_run_json_and_log_file(tmp_path: Path) -> None:
    """--json prints the result; --log writes JSON lines; --quiet prints the summary only."""
    log = tmp_path / "log.jsonl"
    out = RUNNER.invoke(app, ["run", DUEL, "--seed", "4006", "--json", "--log", str(log)])
    assert out.exit_code == 0
    data = json.loads(out.stdout)
    assert data["seed"] == 4006
    assert len(data["sides"]) == 2
    assert len(log.read_text().splitlines()) == data["events"]
    quiet = RUNNER.invoke(app, ["run", DUEL, "--seed", "4006", "--quiet"])
    assert len(quiet.stdout.strip().splitlines()) == 1


def test_run_errors_print_one_line_and_exit_2(tmp_path: Path) -> None:
    """A bad policy or a missing file: one line on stderr, exit code 2, no traceback."""
    bad = tmp_path / "bad.yaml"
    bad.write_text(Path(DUEL).read_text().replace("targeting: nearest", "targeting: nearst", 1))
    for args in (["run", str(bad)], ["run", str(tmp_path / "missing.yaml")]):
        out = RUNNER.invoke(app, args)
        assert out.exit_code == 2
        assert len(out.stderr.strip().splitlines()) == 1
        assert "Traceback" not in out.output
    problem = RUNNER.invoke(app, ["run", str(bad)]).stderr
    assert problem.startswith(f"{bad}:38 sides[0].forces[0].policies.targeting.name: unknown")
    assert RUNNER.invoke(app, ["validate", str(bad)]).stderr == problem  # worded alike


def test_sweep_prints_its_summary_line_by_line(tmp_path: Path) -> None:
    """`fadad sweep` prints the summary's table and per-fighter lines as lines (names are
    escaped, the program's own line breaks are not)."""
    out = RUNNER.invoke(
        app, ["sweep", DUEL, "-n", "20", "--quiet", "--out", str(tmp_path / "r.parquet")]
    )
    assert out.exit_code == 0, out.output
    lines = out.stdout.splitlines()
    assert lines[0] == "Snorri vs Brynhild: 20 battles"
    assert any(line.startswith("Snorri: down ") for line in lines)
    assert "\\n" not in out.stdout


def test_run_shows_a_long_battles_progress_unless_quiet(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A battle that lasts shows its rounds and who still fights on stderr (here from the
    start: the wait cut to nothing); --quiet shows none; stdout is the same either way."""
    import tqdm.auto  # noqa: F401  # imported now, not by the watcher while the battle plays

    from benchmarks.bench_engine import _melee_yaml
    from fadad_agents.engine import progress

    monkeypatch.setattr(progress, "PROGRESS_AFTER", 0.0)
    monkeypatch.setattr(progress, "POLL", 0.001)
    fight = tmp_path / "fight.yaml"
    fight.write_text(_melee_yaml(100, bands=True), encoding="utf-8")
    shown = RUNNER.invoke(app, ["run", str(fight), "--seed", "1"])
    assert shown.exit_code == 0
    assert " fighting" in shown.stderr
    quiet = RUNNER.invoke(app, ["run", str(fight), "--seed", "1", "--quiet"])
    assert quiet.exit_code == 0
    assert quiet.stderr == ""
    assert shown.stdout.strip().splitlines()[-1] == quiet.stdout.strip()
