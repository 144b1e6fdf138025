"""How long a round of mass combat lasts (``mass.round_seconds``; C-01, PROPOSED: the seed
gives FADAD units none): a battle of units and crews alone runs on its own round length,
one with individual fighters on the personal round."""

from __future__ import annotations

from typing import Any

from fadad_agents.engine import build_battle, load
from tests.engine.conftest import duel_yaml, fighter
from tests.engine.mass.test_units import unit

STEADY = {"morale": "Legendary"}
"""Warbands that hold for ten rounds of the same dice."""


def _played(a: str, b: str, rules: str, stop: str) -> Any:
    battle = build_battle(load(duel_yaml(a, b, rules=rules, stop=stop)), 1)
    battle.run_to_end()
    return battle


def test_a_round_of_units_lasts_mass_round_seconds() -> None:
    """mass.round_seconds: two warbands fight the same three rounds blow for blow; the
    clock reads 18 seconds with personal rounds and 3 minutes with minute rounds."""
    played = {}
    for seconds in (6, 60):
        battle = _played(
            unit("Red band", **STEADY),
            unit("Blue band", **STEADY),
            f"mass.round_seconds: {seconds}",
            "max_rounds: 3",
        )
        volleys = [(e.round, e.actor, dict(e.outcome)) for e in battle.log.of("volley")]
        played[seconds] = (battle.round, battle.env.now, volleys)
    assert played[6][:2] == (3, 18)
    assert played[60][:2] == (3, 180)
    assert played[6][2] == played[60][2]


def test_a_time_limit_counts_mass_rounds_in_seconds() -> None:
    """stop.max_seconds reads the same clock: a 30-second limit is five personal rounds of
    units, one minute round."""
    rounds = {
        seconds: _played(
            unit("Red band", **STEADY),
            unit("Blue band", **STEADY),
            f"mass.round_seconds: {seconds}",
            "max_seconds: 30",
        ).round
        for seconds in (6, 60)
    }
    assert rounds == {6: 5, 60: 1}


def test_a_battle_with_a_fighter_keeps_personal_rounds() -> None:
    """A battle where an individual fights beside units keeps 6-second rounds whatever
    mass.round_seconds says (the fighter's actions are timed in personal rounds)."""
    battle = _played(
        unit("Red band") + fighter("Ann"),
        unit("Blue band"),
        "mass.round_seconds: 60",
        "max_rounds: 2",
    )
    assert (battle.round, battle.env.now) == (2, 12)
