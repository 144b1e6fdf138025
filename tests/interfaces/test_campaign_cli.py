"""`fadad run --state-out`, `fadad rest` and `fadad aftermath` as a GM types them: the
state file written, each change and note printed, bad input one line and exit status 2."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from fadad_agents.cli import app

RUNNER = CliRunner()
DUEL = Path(__file__).resolve().parents[2] / "scenarios" / "ship-duel.yaml"


def test_run_rest_and_aftermath_carry_a_battle_into_the_next(tmp_path: Path) -> None:
    """Run with --state-out writes the end state (same narration as a plain run); rest
    prints what changed and the days since; aftermath prints its notes and writes the next
    scenario with the damage carried, which plays."""
    state, nxt = tmp_path / "end.json", tmp_path / "next.yaml"
    plain = RUNNER.invoke(app, ["run", str(DUEL), "--seed", "1"])
    ran = RUNNER.invoke(app, ["run", str(DUEL), "--seed", "1", "--state-out", str(state)])
    assert ran.exit_code == 0
    assert ran.stdout == plain.stdout
    saved = json.loads(state.read_text(encoding="utf-8"))
    assert (saved["format"], saved["version"]) == ("fadad-campaign-state", 1)
    rested = RUNNER.invoke(app, ["rest", str(state), "--days", "3"])
    assert rested.exit_code == 0
    assert rested.stdout.splitlines()[-1] == f"3 days since the battle; wrote {state}"
    after = RUNNER.invoke(app, ["aftermath", str(state), "--into", str(DUEL), "--out", str(nxt)])
    assert after.exit_code == 0, after.stderr
    assert "Saltwind: surrendered (a prisoner?)" in after.stdout
    assert "hull_damage:" in nxt.read_text(encoding="utf-8")
    assert RUNNER.invoke(app, ["run", str(nxt), "--seed", "2", "--quiet"]).exit_code == 0


def test_a_damaged_state_file_is_one_line_per_problem(tmp_path: Path) -> None:
    """A state edited into nonsense: `file:line field: what is wrong`, exit status 2."""
    state = tmp_path / "end.json"
    RUNNER.invoke(app, ["run", str(DUEL), "--seed", "1", "--quiet", "--state-out", str(state)])
    state.write_text(state.read_text().replace('"rounds": 9', '"rounds": -9'), encoding="utf-8")
    rested = RUNNER.invoke(app, ["rest", str(state), "--days", "3"])
    assert rested.exit_code == 2
    assert rested.stderr.splitlines() == [f"{state}:8 rounds: -9 is too small (minimum 0)"]


def test_a_rest_of_negative_days_is_refused(tmp_path: Path) -> None:
    """`--days -1`: one line saying what is allowed, exit status 2."""
    state = tmp_path / "end.json"
    RUNNER.invoke(app, ["run", str(DUEL), "--seed", "1", "--quiet", "--state-out", str(state)])
    rested = RUNNER.invoke(app, ["rest", str(state), "--days", "-1"])
    assert rested.exit_code == 2
    assert rested.stderr == "fadad rest: --days -1: rest for 0..3650 days\n"
