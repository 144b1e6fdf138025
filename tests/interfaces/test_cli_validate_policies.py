"""`fadad validate` also checks policy names and parameters against the registry."""

from pathlib import Path

from typer.testing import CliRunner

from fadad_agents.cli import app

DUEL = Path(__file__).parents[2] / "scenarios" / "snorri-vs-brynhild.yaml"


def _validate(tmp_path, old, new):
    text = DUEL.read_text(encoding="utf-8")
    assert old in text
    bad = tmp_path / "duel.yaml"
    bad.write_text(text.replace(old, new, 1), encoding="utf-8")
    return bad, CliRunner().invoke(app, ["validate", str(bad)])


def test_unknown_policy_name_is_one_line_naming_the_field(tmp_path):
    """A misspelt policy exits 2 with one line naming the file and the field."""
    bad, result = _validate(tmp_path, "defence: block", "defence: blok")
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith(f"{bad}:61 sides[1].forces[0].policies.defence")
    assert "blok" in lines[0]
    assert "Traceback" not in result.output


def test_bad_policy_parameter_is_reported(tmp_path):
    """An out-of-range parameter names the parameter and what is allowed."""
    _, result = _validate(
        tmp_path, "targeting: nearest", "targeting: {name: nearest, params: {reach: -3}}"
    )
    assert result.exit_code == 2
    assert "sides[0].forces[0].policies.targeting.params" in result.output
    assert "reach must be at least 1" in result.output


def test_shipped_scenario_passes():
    """A good scenario still prints ok."""
    result = CliRunner().invoke(app, ["validate", str(DUEL)])
    assert result.exit_code == 0
    assert result.output.strip() == f"{DUEL}: ok"
