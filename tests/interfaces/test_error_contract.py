"""One error contract (issue 20): a bad scenario is the same `file:line field: what` line
from `validate`, `run`, `sweep` and the Python API, exit status 2, never a traceback.

The API raises one documented exception for bad scenarios, ScenarioError (a ValueError),
whether the schema, the policy registry or an engine finds the problem.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from fadad_agents import cli
from fadad_agents.analysis import BackendError, sweep
from fadad_agents.cli import app
from fadad_agents.engine import run
from fadad_agents.schema import ScenarioError
from tests.engine.fae.test_mixed import _mixed

RUNNER = CliRunner()
DUEL = Path(__file__).parents[2] / "scenarios" / "snorri-vs-brynhild.yaml"

BAD = {
    "schema": ("Sword: Great", "Sword: Legendary+1000000"),
    "policy": ("targeting: nearest", "targeting: nearst"),
}


def _file(tmp_path: Path, kind: str) -> Path:
    old, new = BAD[kind]
    text = DUEL.read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / f"{kind}.yaml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


@pytest.mark.parametrize("kind", sorted(BAD))
def test_validate_run_sweep_and_the_api_word_a_problem_alike(tmp_path: Path, kind: str) -> None:
    """The same one line, exit status 2, from every door."""
    path = _file(tmp_path, kind)
    with pytest.raises(ScenarioError) as api:
        run(path, seed=1)
    (line,) = api.value.problems
    assert line.startswith(f"{path}:")
    with pytest.raises(ScenarioError) as swept:
        sweep(path, 2, progress=False)
    assert swept.value.problems == [line]
    for args in (["validate"], ["run"], ["sweep", "-n", "2", "--quiet"]):
        out = RUNNER.invoke(app, [*args, str(path)])
        assert (out.exit_code, out.stderr, out.stdout) == (2, line + "\n", ""), args


def test_a_fae_and_fadad_mix_without_the_bridge_is_one_line(tmp_path: Path) -> None:
    """`validate` once crashed on it (it caught only policy errors)."""
    path = tmp_path / "mixed.yaml"
    path.write_text(_mixed(bridge="false"), encoding="utf-8")
    out = RUNNER.invoke(app, ["validate", str(path)])
    assert out.exit_code == 2
    assert out.stderr == (
        f"{path}:7 sides[0].forces[0]: a FADAD force in a Fae Domains scene needs the "
        "ladder<->percentile bridge (set rules: {fae.ladder_bridge: true}, C-04)\n"
    )


def _crowd(count: int) -> str:
    """The duel with Brynhild as a band of ``count`` NPCs."""
    old = "      - name: Brynhild\n        player: true\n"
    text = DUEL.read_text(encoding="utf-8")
    assert old in text
    return text.replace(old, f"      - name: Brynhild\n        count: {count}\n")


def test_validate_checks_policies_of_a_huge_count_without_building_it(tmp_path: Path) -> None:
    """A count within its bound is checked as one fighter (the battle is never built)."""
    path = tmp_path / "crowd.yaml"
    path.write_text(_crowd(9000), encoding="utf-8")
    out = RUNNER.invoke(app, ["validate", str(path)])
    assert (out.exit_code, out.stdout) == (0, f"{path}: ok\n")


def test_small_interface_errors_are_one_line(tmp_path: Path) -> None:
    """An empty folder, an unwritable --out, a bad --limit: one line each, exit 2."""
    cases = [
        (["validate", str(tmp_path)], f"fadad validate: {tmp_path}: holds no .yaml or .yml files"),
        (
            ["schema", "--out", str(DUEL / "schema.json")],
            f"fadad schema: cannot write {DUEL / 'schema.json'} (Not a directory)",
        ),
        (
            ["run", str(DUEL), "--limit", "agents"],
            "fadad run: --limit 'agents': write NAME=N with N >= 1 (names: agents, rounds, "
            "seconds, work, file_bytes)",
        ),
    ]
    for args, message in cases:
        out = RUNNER.invoke(app, args)
        assert (out.exit_code, out.stderr) == (2, message + "\n"), args


def test_a_limit_raised_on_the_command_line_admits_the_battle(tmp_path: Path) -> None:
    """--limit agents=N is the knowing way past the agent limit."""
    path = tmp_path / "crowd.yaml"
    path.write_text(_crowd(30000), encoding="utf-8")
    refused = RUNNER.invoke(app, ["validate", str(path)])
    assert refused.exit_code == 2
    assert "more than the limit of 20,000 agents" in refused.stderr
    assert RUNNER.invoke(app, ["validate", str(path), "--limit", "agents=40000"]).exit_code == 0


def test_an_internal_error_is_one_line_and_exit_70(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A bug shows as one line naming it (FADAD_TRACEBACK=1 re-raises), never a traceback."""

    def broken(*args: object, **kwargs: object) -> None:
        raise TypeError("something\nbroke")

    monkeypatch.setattr("fadad_agents.engine.run", broken)
    monkeypatch.setattr(sys, "argv", ["fadad", "run", str(DUEL)])
    monkeypatch.delenv("FADAD_TRACEBACK", raising=False)
    with pytest.raises(SystemExit) as exit_:
        cli.main()
    assert exit_.value.code == 70
    err = capsys.readouterr().err
    assert err.startswith("fadad: internal error (TypeError: something broke); this is a bug")
    assert len(err.splitlines()) == 1


def test_a_worker_count_that_is_not_whole_is_refused() -> None:
    """sweep(workers=2.5) is a BackendError, not a TypeError from multiprocessing."""
    with pytest.raises(BackendError, match=r"workers must be a whole number >= 1, got 2\.5"):
        sweep(DUEL, 2, backend="processes", workers=2.5, progress=False)  # type: ignore[arg-type]


def test_a_grid_value_beyond_its_bound_is_refused_before_playing() -> None:
    """--grid reaches the same bounds: Legendary+1000000 swept in is one line."""
    from fadad_agents.analysis import GridError

    with pytest.raises(GridError) as info:
        sweep(DUEL, 2, grid={"sides[Snorri].forces[0].skills.Sword": ["Legendary+1000000"]})
    assert str(info.value) == (
        "grid sides[Snorri].forces[0].skills.Sword=Legendary+1000000: "
        "sides[0].forces[0].skills.Sword: 'Legendary+1000000' is beyond the ladder's range "
        "(Terrible-17..Legendary+16, -20..+20)"
    )


def test_the_package_exports_the_one_error_and_the_limits() -> None:
    """`from fadad_agents import run, ScenarioError, Limits` is all a notebook needs."""
    import fadad_agents

    assert fadad_agents.ScenarioError is ScenarioError
    assert fadad_agents.Limits().agents == 20_000
