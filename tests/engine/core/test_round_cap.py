"""A battle always stops (issue 20 point 3): without stop.max_rounds, at the runner's cap,
and its result says so.

Two sides that never close once ran forever and grew to 1.1 GB in a minute.
"""

from __future__ import annotations

from fadad_agents.engine import run
from fadad_agents.schema import Limits, load_scenario
from tests.engine.conftest import duel_yaml

NEVER_CLOSE = {"a_pol": "targeting: stay_back", "b_pol": "targeting: stay_back"}


def test_a_battle_without_a_stop_limit_stops_at_the_cap_and_says_so() -> None:
    """No max_rounds: the cap's rounds are played, seed for seed as an explicit
    max_rounds of the same number, and the summary names the cap."""
    capped = run(
        duel_yaml(stop="max_rounds: null", **NEVER_CLOSE), seed=5, limits=Limits(rounds=40)
    )
    explicit = run(duel_yaml(stop="max_rounds: 40", **NEVER_CLOSE), seed=5)
    assert (capped.ending, capped.rounds) == ("stopped", 40)
    assert capped.log.to_jsonl() == explicit.log.to_jsonl()
    assert capped.stop_note == (
        "the cap of 40 rounds came with more than one side fighting (the scenario sets no "
        "stop.max_rounds)"
    )
    assert explicit.stop_note is None
    assert capped.summary() == (
        "No winner (stopped: the cap of 40 rounds came with more than one side fighting (the "
        "scenario sets no stop.max_rounds)) after 40 rounds (4:00)."
    )
    assert capped.as_dict()["stop_note"] == capped.stop_note


def test_a_battle_decided_before_the_cap_has_no_note() -> None:
    """The cap only speaks when it ended the battle."""
    result = run(duel_yaml(stop="max_rounds: null"), seed=2)
    assert result.ending != "stopped"
    assert result.stop_note is None


def test_the_cap_shrinks_as_the_battle_grows() -> None:
    """Fighter-rounds stay within Limits.work."""
    crowd = "\n      - {name: Crowd, count: 99}\n"
    scenario = load_scenario(duel_yaml(a=crowd, stop="max_rounds: null"), limits=Limits(work=1_000))
    assert scenario.round_cap == 10
