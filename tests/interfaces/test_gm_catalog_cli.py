"""The GM's catalogue on the command line: `--catalog DIR` on run and catalog, the override
said by validate, a clash one line with exit status 2."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from fadad_agents.cli import app
from fadad_agents.schema.catalog import CATALOG_ENV

RUNNER = CliRunner()
DUEL = Path(__file__).resolve().parents[2] / "scenarios" / "snorri-vs-brynhild.yaml"


@pytest.fixture(autouse=True)
def _no_gm_folders(monkeypatch: pytest.MonkeyPatch) -> None:
    """No GM folders from outside; whatever --catalog adds is undone after the test."""
    monkeypatch.setenv(CATALOG_ENV, "")


def _gm_folder(tmp_path: Path, magic: int) -> Path:
    folder = tmp_path / "mine" / "weapons"
    folder.mkdir(parents=True)
    (folder / "broadsword.yaml").write_text(
        f"model: weapons/broadsword\nname: Heirloom broadsword\nfadad_bonus: {magic + 3}\n",
        encoding="utf-8",
    )
    return tmp_path / "mine"


def test_catalog_option_changes_the_battle_and_is_listed(tmp_path: Path) -> None:
    """The duel with --catalog holding a broadsword of bonus +6: the same seed plays differently
    from the built-in sword (Brynhild's axe is not overridden), and `fadad catalog`
    marks the GM's entry and what it overrides."""
    mine = _gm_folder(tmp_path, magic=3)
    plain = RUNNER.invoke(app, ["run", str(DUEL), "--seed", "1"])
    theirs = RUNNER.invoke(app, ["run", str(DUEL), "--seed", "1", "--catalog", str(mine)])
    assert theirs.exit_code == 0
    assert theirs.stdout != plain.stdout
    listed = RUNNER.invoke(app, ["catalog", "weapons", "--catalog", str(mine)])
    (line,) = [x for x in listed.stdout.splitlines() if x.startswith("weapons/broadsword ")]
    assert line.endswith(f"[GM: {mine}/weapons/broadsword.yaml, over the built-in]")


def test_validate_says_which_built_in_entries_are_overridden(tmp_path: Path) -> None:
    """`fadad validate` of a scenario beside a models/ folder: ok, naming the override."""
    (tmp_path / "models").mkdir()
    _gm_folder(tmp_path, magic=3).rename(tmp_path / "models" / "x")
    (tmp_path / "models" / "x" / "weapons").rename(tmp_path / "models" / "weapons")
    (tmp_path / "models" / "x").rmdir()
    scenario = tmp_path / "duel.yaml"
    scenario.write_text(DUEL.read_text(encoding="utf-8"), encoding="utf-8")
    result = RUNNER.invoke(app, ["validate", str(scenario)])
    assert result.exit_code == 0
    assert result.stdout == f"{scenario}: ok (the GM's catalogue overrides weapons/broadsword)\n"


def test_a_clash_stops_the_run_in_one_line(tmp_path: Path) -> None:
    """The same name in two --catalog folders: one line, exit status 2."""
    first = _gm_folder(tmp_path / "a", magic=1)
    second = _gm_folder(tmp_path / "b", magic=2)
    result = RUNNER.invoke(
        app, ["run", str(DUEL), "--catalog", str(first), "--catalog", str(second)]
    )
    assert result.exit_code == 2
    assert result.stderr == (
        f"{second}/weapons/broadsword.yaml: weapons/broadsword is defined twice in the GM's "
        f"catalogue (also in {first}/weapons/broadsword.yaml); keep one\n"
    )
