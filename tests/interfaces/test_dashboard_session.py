"""BattleSession: rewind and what-if replay rebuild the battle from scenario, seed, commands."""

from __future__ import annotations

import pytest

from fadad_agents.dashboard import BattleSession, Overrides, SessionError
from fadad_agents.dashboard.session import apply_overrides, force_sliders
from fadad_agents.engine import load, run

TAVERN = "scenarios/tavern-brawl.yaml"


def test_replay_builds_a_new_battle_never_a_copy() -> None:
    """Reset and rewind build a fresh Battle (a SimPy model cannot be deep-copied)."""
    session = BattleSession(TAVERN, seed=3)
    session.step()
    first = session.battle
    session.reset()
    assert session.battle is not first
    assert session.round == 0
    assert session.commands == []


def test_run_command_matches_engine_run() -> None:
    """Playing 'run' gives the same log as fadad_agents.engine.run with that seed."""
    session = BattleSession(TAVERN, seed=3)
    session.run()
    assert session.commands == ["run"]
    assert session.battle.log.to_jsonl() == run(TAVERN, seed=3).log.to_jsonl()


def test_step_after_the_end_does_nothing() -> None:
    """A finished battle ignores Step (no command logged, no error)."""
    session = BattleSession(TAVERN, seed=3)
    session.run()
    rounds = session.round
    assert session.step() is False
    assert session.round == rounds
    assert session.commands == ["run"]


def test_rewind_stops_at_round_zero() -> None:
    """Rewinding further than the start lands on round 0."""
    session = BattleSession(TAVERN, seed=3)
    session.step()
    session.rewind(5)
    assert session.round == 0
    assert len(session.strength) == 1


def test_strength_has_a_row_per_round() -> None:
    """The strength series starts with the starting head counts and grows per round."""
    session = BattleSession(TAVERN, seed=3)
    assert session.strength == [(20, 20)]
    session.step()
    session.step()
    assert len(session.strength) == 3
    assert session.strength[-1] == tuple(s.strength for s in session.battle.sides)


def test_unknown_command_is_refused() -> None:
    """Replaying a command other than step or run names the allowed ones."""
    session = BattleSession(TAVERN, seed=3)
    with pytest.raises(SessionError, match="'jump'; use one of: run, step"):
        session.replay(["step", "jump"])


def test_overrides_naming_missing_forces_are_refused() -> None:
    """An override for a side or force the scenario lacks is a SessionError."""
    scenario = load(TAVERN)
    with pytest.raises(SessionError, match=r"sides\.0\.forces\.9"):
        apply_overrides(scenario, Overrides(counts={(0, 9): 3}))
    with pytest.raises(SessionError, match="no side 4"):
        apply_overrides(scenario, Overrides(policies={4: {"targeting": "random"}}))


def test_sliders_are_group_counts_and_named_weapons() -> None:
    """Groups (count > 1) get a head-count slider; named fighters a weapon-magic slider."""
    sliders = {(s.name, s.what): s for s in force_sliders(load(TAVERN))}
    assert sliders[("Dockhand", "count")].value == 15
    assert ("Big Hulda", "magic") in sliders
    assert ("Big Hulda", "count") not in sliders
