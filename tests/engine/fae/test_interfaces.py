"""Fae Domains scenarios through the interfaces: Monte Carlo sweeps and the BattleDashboard."""

from __future__ import annotations

import pytest

from fadad_agents.analysis import sweep
from fadad_agents.dashboard import BattleDashboard
from tests.engine.conftest import SCENARIOS

FAE_SCENARIOS = ("fae-duel.yaml", "fae-aerial-skirmish.yaml", "fae-mounted-charge.yaml")


@pytest.mark.parametrize("name", FAE_SCENARIOS)
def test_sweep_plays_fae_scenarios(name: str) -> None:
    """A small sweep plays every replicate to an end and tallies the winners."""
    result = sweep(SCENARIOS / name, 6, seed=3, progress=False)
    frame = result.frame
    assert len(frame) == 6
    assert set(frame["ending"]) <= {"destroyed", "routed", "surrendered", "mutual", "stopped"}


def test_sweep_over_a_fae_option_grid() -> None:
    """A grid over a Fae rules option (A-66 mounted charge) runs as two variants with
    common random numbers."""
    grid = {"rules.fae.mounted_charge": ["half_sum", "half_rider_plus_mount"]}
    result = sweep(SCENARIOS / "fae-mounted-charge.yaml", 4, seed=1, progress=False, grid=grid)
    assert len(result.frame) == 8
    assert result.frame["variant"].nunique() == 2


def test_sweep_is_reproducible() -> None:
    """Same scenario, runs and seed: the same table."""
    a = sweep(SCENARIOS / "fae-duel.yaml", 5, seed=9, progress=False).frame
    b = sweep(SCENARIOS / "fae-duel.yaml", 5, seed=9, progress=False).frame
    assert a.equals(b)


@pytest.mark.parametrize("name", FAE_SCENARIOS)
def test_dashboard_steps_and_runs_fae_scenarios(name: str) -> None:
    """The BattleDashboard loads a Fae scenario, steps a 10-s turn and runs to the end."""
    dash = BattleDashboard(SCENARIOS / name, seed=4)
    assert dash.session is not None
    assert not dash.error.value
    dash.step_button.click()
    assert dash.session.round == 1
    assert "Reaction test" in dash.log.value
    dash.run_button.click()
    assert dash.session.finished
    assert "The battle ends" in dash.log.value


def test_dashboard_offers_fae_decisions_only_for_fae_scenes() -> None:
    """Fae scenes get dropdowns for the Fae decisions; picking one replays the battle."""
    dash = BattleDashboard(SCENARIOS / "fae-duel.yaml", seed=4)
    kinds = {kind for _, kind in dash.policy_dropdowns}
    assert {"fae_action", "fae_defence", "fae_called_shot", "fae_tactics"} <= kinds
    dd = dash.policy_dropdowns[(0, "fae_called_shot")]
    assert "special" in [v for _, v in dd.options]
    dd.value = "none"
    assert dash.session is not None
    assert dash.session.scenario.sides[0].policies["fae_called_shot"].name == "none"
    dash.run_button.click()
    assert dash.session.finished
    fadad = BattleDashboard(SCENARIOS / "snorri-vs-brynhild.yaml", seed=4)
    assert not {kind for _, kind in fadad.policy_dropdowns} & {"fae_action", "fae_defence"}
