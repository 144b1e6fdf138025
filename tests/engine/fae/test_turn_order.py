"""Fair Fae turn order: equal margins and Reaction attributes act simultaneously, never in
the order of the file (fae-domains.md section 2: "If it is still a tie, they move
simultaneously with the effects of each action applied after both characters act"). The
shipped Fae scenarios are in tests/engine/test_side_order.py."""

from __future__ import annotations

import math

import pytest

from fadad_agents.engine import build_battle, load
from fadad_agents.engine.core.result import result_of
from fadad_agents.engine.fae.battle import FaeBattle
from fadad_agents.schema.scenario import Scenario
from tests.engine.conftest import fae_scene, fix_reactions


def _twin(name: str, x: int, policies: str = "{}", reaction: int = 20) -> str:
    return f"""
      - name: {name}
        attributes: {{reaction: {reaction}, luck: 50, strength: 55}}
        skills: {{Sword: 60, Dodge: 40}}
        wound_points: 40
        fatigue_points: 40
        weapons: [fae/longsword]
        armour: fae/leather-armour
        position: [{x}, 0]
        policies: {policies}
"""


def _wins(scenario: Scenario, seeds: range) -> dict[str | None, int]:
    wins: dict[str | None, int] = {}
    for seed in seeds:
        winner = result_of(build_battle(scenario, seed=seed, collect=False).run_to_end()).winner
        wins[winner] = wins.get(winner, 0) + 1
    return wins


def test_identical_fighters_win_half_each_whoever_is_listed_first() -> None:
    """Two identical fighters who defend: the first-listed wins half the decided battles
    (within 3 standard errors). Their low Reaction makes ties at count 0 common, where the
    old order (set-up index) let the first-listed strike first and spend the other's action
    on a dodge (64% over 1,000 seeds)."""
    best = "{fae_defence: best}"
    text = fae_scene(_twin("Ann", 0, best), _twin("Bob", 1, best), name="twins", rounds=30)
    wins = _wins(load(text), range(1000))
    decided = wins.get("Red", 0) + wins.get("Blue", 0)
    share = wins.get("Red", 0) / decided
    assert abs(share - 0.5) <= 3 * math.sqrt(0.25 / decided), wins


def test_a_dodge_against_a_simultaneous_blow_does_not_cost_the_tied_action(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Tied at count 40: both attack at 40 whoever is struck first, and the dodge is paid
    after the dodger's own action (40 - 50 - 25), not before it."""
    dodge = "{fae_defence: dodge}"
    text = fae_scene(_twin("Ann", 0, dodge, 60), _twin("Bob", 1, dodge, 60), name="tie", rounds=1)
    scenario = load(text.replace("wound_points: 40", "wound_points: 900"))
    fix_reactions(monkeypatch, {"Ann": 40, "Bob": 40})
    for seed in range(6):
        battle = build_battle(scenario, seed=seed)
        assert isinstance(battle, FaeBattle)
        battle.step()
        attacks = [e for e in battle.log.events if e.action == "fae_attack"]
        assert [dict(e.modifiers)["count"] for e in attacks] == [40, 40]
        assert {e.actor for e in attacks} == {"Ann", "Bob"}
        for m in battle.fae_members:
            dodged = sum(1 for e in battle.log.events if e.action == "dodge" and e.actor == m.name)
            assert m.margin == 40 - 50 - 25 * dodged


def test_the_lot_not_the_file_decides_who_strikes_first_in_a_tie(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Over many turns of tied counts each fighter strikes first about half the time."""
    text = fae_scene(_twin("Ann", 0, "{}", 60), _twin("Bob", 1, "{}", 60), name="tie", rounds=1)
    scenario = load(text.replace("wound_points: 40", "wound_points: 900"))
    fix_reactions(monkeypatch, {"Ann": 30, "Bob": 30})
    first = []
    for seed in range(60):
        battle = build_battle(scenario, seed=seed)
        battle.step()
        first.append(next(e.actor for e in battle.log.events if e.action == "fae_attack"))
    assert 15 <= first.count("Ann") <= 45
