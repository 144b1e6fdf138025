"""The whole battle fits the runner's limits (issue 20): agents, rounds, seconds, work.

A file cannot raise them; the runner does, knowingly (``--limit``, ``Limits(...)``).
"""

from __future__ import annotations

import pytest

from fadad_agents.schema import Limits, ScenarioError, load_scenario
from fadad_agents.schema.limits import LimitsError


def _battle(a: str = "{name: a}", b: str = "{name: b}", stop: str = "") -> str:
    return f"name: x\nstop: {{{stop}}}\nsides:\n  - name: A\n    forces: [{a}]\n" + (
        f"  - name: B\n    forces: [{b}]\n"
    )


def _problem(text: str, limits: Limits | None = None) -> str:
    with pytest.raises(ScenarioError) as info:
        load_scenario(text, limits=limits)
    (problem,) = info.value.problems
    return problem


def test_a_million_fighters_within_every_entry_bound_is_refused_in_one_line() -> None:
    """Ten entries of count 100000 (issue 20 point 5) are 1,000,000 agents: one line at
    `sides`, without building anything."""
    entries = ", ".join(f"{{name: e{i}, count: 100000}}" for i in range(10))
    assert _problem(_battle(a=entries)) == (
        "<text>:3 sides: 1,000,001 fighters in all is more than the limit of 20,000 agents "
        "(group NPCs as crews or units, or raise it knowingly with --limit agents=N or "
        "Limits(agents=N))"
    )


def test_crews_and_units_are_one_agent_whatever_their_head_count() -> None:
    """A crew of a million is one agent (resolved in bulk)."""
    scenario = load_scenario(_battle(a="{name: a, kind: crew, count: 1000000}"))
    assert scenario.agents == 2


def test_rounds_seconds_and_work_are_capped() -> None:
    """stop.max_rounds, stop.max_seconds and the work (fighter-rounds) each have a limit."""
    assert _problem(_battle(stop="max_rounds: 50000")).endswith(
        "stop.max_rounds: 50,000 is more than the limit of 10,000 rounds (raise it knowingly "
        "with --limit rounds=N or Limits(rounds=N))"
    )
    assert " stop.max_seconds: 700,000 is more than the limit of 604,800 seconds " in (
        _problem(_battle(stop="max_seconds: 700000"))
    )
    big = _battle(a="{name: a, count: 4000}", stop="max_rounds: 5000")
    assert _problem(big).endswith(
        "stop.max_rounds: 5,000 rounds of 4,001 fighter-rounds each is more work than the "
        "limit of 2,000,000 (at most 499 rounds; raise it knowingly with --limit work=N or "
        "Limits(work=N))"
    )


def test_work_weighs_each_kind_of_force_by_what_its_round_costs() -> None:
    """A Fae combatant's turn is 25 fighter-rounds, a crew's or unit's round 10, a ship's
    200 and 20 a big-weapon mount; each mount is an agent."""
    mixed = load_scenario(
        _battle(
            a="{name: a, count: 3}, {name: c, kind: crew, count: 500}",
            b="{name: b, kind: unit, count: 90}",
        )
    )
    assert (mixed.agents, mixed.work_per_round) == (5, 3 + 10 + 10)
    fae = load_scenario(
        "name: f\nruleset: fae\nsides:\n"
        "  - {name: A, forces: [{name: a, count: 2, wound_points: 9, fatigue_points: 9}]}\n"
        "  - {name: B, forces: [{name: b, wound_points: 9, fatigue_points: 9}]}\n"
    )
    assert (fae.agents, fae.work_per_round) == (3, 75)


def test_the_runner_raises_a_limit_knowingly_and_the_file_cannot() -> None:
    """Limits given to the loader admit the bigger battle; the scenario remembers them."""
    text = _battle(a="{name: a, count: 30000}")
    with pytest.raises(ScenarioError):
        load_scenario(text)
    scenario = load_scenario(text, limits=Limits.parse(["agents=50000", "work=4000000"]))
    assert scenario.agents == 30_001
    assert scenario.limits.agents == 50_000
    with pytest.raises(ScenarioError, match="'limits' is not a field of Scenario"):
        load_scenario(text + "limits: {agents: 50000}\n")


def test_a_battle_without_max_rounds_gets_a_cap_scaled_to_its_work() -> None:
    """No stop.max_rounds: the cap is Limits.rounds, fewer for a battle of much work."""
    small = load_scenario(_battle(stop="max_rounds: null"))
    large = load_scenario(_battle(a="{name: a, count: 4999}", stop="max_rounds: null"))
    assert (small.round_cap, large.round_cap) == (10_000, 400)
    assert load_scenario(_battle()).round_cap is None  # the file's 100 rounds hold


@pytest.mark.parametrize("bad", ["agents", "agents=0", "speed=3", "rounds=lots"])
def test_a_bad_limit_setting_is_one_line(bad: str) -> None:
    """--limit takes NAME=N with a known name and N >= 1."""
    with pytest.raises(LimitsError, match="write NAME=N with N >= 1"):
        Limits.parse([bad])
