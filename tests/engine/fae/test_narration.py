"""What the Fae log says: a bare margin-0 hit glances off (no dodge to sidestep it), a
fighter killed outright is not also 'mortally wounded', and in a mixed scene the events a
Fae blow causes before the first FADAD round read as Fae turns, never 'Round 0'."""

from __future__ import annotations

import pytest

from fadad_agents.agents.fae.combat import attack
from fadad_agents.engine import build_battle, load, narrate, run
from tests.engine.conftest import SCENARIOS, FixedDice, fae_scene


def _fae(name: str, x: int, policies: str, wp: int = 500) -> str:
    return f"""
      - name: {name}
        attributes: {{strength: 60, agility: 60, luck: 50, reaction: 60}}
        skills: {{Sword: 60, Dodge: 40}}
        wound_points: {wp}
        fatigue_points: 500
        weapons: [fae/longsword]
        position: [{x}, 0]
        policies: {policies}
"""


PASSIVE = "{fae_action: passive, fae_defence: none}"


def test_a_margin_zero_hit_glances_off() -> None:
    """A roll equal to the chance hits with margin 0: no damage, and no one sidestepped."""
    battle = build_battle(
        load(fae_scene(_fae("Ann", 0, PASSIVE), _fae("Bob", 1, PASSIVE), name="glance", rounds=1)),
        1,
    )
    ann, bob = battle.fae_members
    mcs = ann.chance("attack")
    ann.rng = FixedDice((mcs - 1) / 100 + 0.001)  # rolls exactly the chance
    attack(ann, bob, battle)
    hit = battle.log.events[-1]
    assert (hit.action, hit.result, dict(hit.outcome)["margin"]) == ("fae_attack", "hit", 0)
    assert "glances off Bob: margin 0, no damage" in narrate(hit)
    assert "sidesteps" not in narrate(hit)


def test_no_mortal_wound_for_the_dead() -> None:
    """A called shot to the chest that kills outright announces no death to come."""
    chest = "{fae_called_shot: {name: special, params: {shot: chest, min_chance: 1}}}"
    text = fae_scene(_fae("Ann", 0, chest), _fae("Bob", 1, PASSIVE, wp=10), name="chest")
    killed = 0
    for seed in range(10):
        battle = build_battle(load(text), seed=seed)
        battle.run_to_end()
        events = battle.log.events
        out = next((i for i, e in enumerate(events) if e.action == "out"), None)
        if out is not None:
            killed += 1
            assert not [e for e in events[out:] if e.action in ("mortal_wound", "called_shot")]
    assert killed


@pytest.mark.parametrize("seed", range(8))
def test_mixed_scenes_never_read_round_zero(seed: int) -> None:
    """Snorri struck down by Morwen's first blow (0:00) reads as Turn 1, not Round 0."""
    text = run(SCENARIOS / "fae-mixed-melee.yaml", seed=seed).log.text()
    assert "Round 0 " not in text
