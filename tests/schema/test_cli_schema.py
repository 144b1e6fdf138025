"""`fadad validate`, `fadad schema` and `fadad catalog`: thin commands over schema/."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from fadad_agents.cli import app
from tests.schema.conftest import SCENARIOS

runner = CliRunner()


def test_validate_ok_prints_path_ok() -> None:
    """Valid files print `PATH: ok` and exit 0."""
    paths = [str(p) for p in SCENARIOS[:2]]
    result = runner.invoke(app, ["validate", *paths])
    assert result.exit_code == 0
    assert result.output.splitlines() == [f"{p}: ok" for p in paths]


def test_validate_broken_exits_2_with_one_line(in_repo: Path) -> None:
    """A broken file prints its one-line problem and exits 2, no traceback."""
    result = runner.invoke(app, ["validate", "tests/schema/broken/01-ladder-typo.yaml"])
    assert result.exit_code == 2
    assert result.output.splitlines() == [
        "tests/schema/broken/01-ladder-typo.yaml:14 sides[0].forces[2].skill: "
        "'Grate' is not a ladder level (Terrible..Legendary+N)"
    ]
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_validate_mixed_reports_all_and_exits_2(in_repo: Path) -> None:
    """Good files still print ok; any problem makes the exit code 2."""
    good = str(SCENARIOS[0].relative_to(in_repo))
    result = runner.invoke(app, ["validate", good, "tests/schema/broken/14-empty-file.yaml"])
    assert result.exit_code == 2
    lines = result.output.splitlines()
    assert lines[0] == f"{good}: ok"
    assert lines[1].startswith("tests/schema/broken/14-empty-file.yaml:1 (document):")


def test_validate_missing_file_exits_2() -> None:
    """An unreadable path is a one-line problem, not an exception."""
    result = runner.invoke(app, ["validate", "nowhere.yaml"])
    assert result.exit_code == 2
    assert result.output.splitlines() == [
        "nowhere.yaml:1 (file): cannot read (No such file or directory)"
    ]


def test_schema_writes_json_schema(tmp_path: Path) -> None:
    """`fadad schema --out FILE` writes the Scenario JSON Schema."""
    out = tmp_path / "scenario.schema.json"
    result = runner.invoke(app, ["schema", "--out", str(out)])
    assert result.exit_code == 0
    schema = json.loads(out.read_text())
    assert schema["title"] == "Scenario"
    assert {"name", "sides"} <= set(schema["required"])
    assert "Character" in schema["$defs"]


def test_schema_to_stdout() -> None:
    """Without --out the schema goes to stdout."""
    result = runner.invoke(app, ["schema"])
    assert result.exit_code == 0
    assert json.loads(result.output)["title"] == "Scenario"


def test_catalog_lists_a_kind() -> None:
    """`fadad catalog ships` lists the ship classes."""
    result = runner.invoke(app, ["catalog", "ships"])
    assert result.exit_code == 0
    assert any(line.startswith("ships/war-galleon") for line in result.output.splitlines())


def test_catalog_unknown_kind_exits_2() -> None:
    """An unknown kind is a one-line error with the allowed kinds."""
    result = runner.invoke(app, ["catalog", "spaceships"])
    assert result.exit_code == 2
    assert "not a catalogue kind (allowed: weapons" in result.output


def test_validate_folders_checks_every_file(in_repo: Path) -> None:
    """A folder argument validates every YAML file inside it (models/ entries by kind)."""
    result = runner.invoke(app, ["validate", "scenarios", "models"])
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert "models/weapons/broadsword.yaml: ok" in lines
    assert "scenarios/fleet-action.yaml: ok" in lines
    assert len(lines) == len(list(Path("scenarios").glob("*.yaml"))) + len(
        list(Path("models").glob("*/*.yaml"))
    )
