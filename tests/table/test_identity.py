"""A session answered with blanks is the battle `fadad run` plays, for every shipped
scenario: every side controlled, every die rolled at the table, byte for byte on standard
output; and so is one saved half-way and resumed with blanks."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from fadad_agents.cli import app
from tests.table.conftest import SCENARIOS, every_side

RUNNER = CliRunner()
SHIPPED = sorted(SCENARIOS.glob("*.yaml"))
BLANKS = "\n" * 4000


def _play_args(path: Path, seed: int) -> list[str]:
    args = ["play", str(path), "--seed", str(seed), "--dice", "all"]
    for side in every_side(path, seed):
        args += ["--control", side]
    return args


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_blank_answers_narrate_what_run_narrates(path: Path, tmp_path: Path) -> None:
    """Blanks for every decision and die: stdout equals `fadad run`'s; and a session saved
    after half its answers and resumed with blanks narrates the same again."""
    seed = 1
    expected = RUNNER.invoke(app, ["run", str(path), "--seed", str(seed)]).stdout
    played = RUNNER.invoke(app, _play_args(path, seed), input=BLANKS)
    assert played.exit_code == 0, played.stderr[-500:]
    assert played.stdout == expected
    asked = played.stderr.count("\n> \n")
    assert asked > 0
    saved = tmp_path / "half.json"
    half = RUNNER.invoke(
        app, _play_args(path, seed), input="\n" * (asked // 2) + f"save {saved}\nquit\n"
    )
    assert half.exit_code == 0
    assert saved.is_file()
    resumed = RUNNER.invoke(app, ["resume", str(saved)], input=BLANKS)
    assert resumed.exit_code == 0, resumed.stderr[-500:]
    assert resumed.stdout == expected
