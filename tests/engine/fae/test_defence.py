"""Defences in Fae battles: the acrobatic dodge takes the next action whatever margin is
left (2.3), the best defence uses it when its exact odds pay, and fae.acrobatic_bonus."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from fadad_agents.engine.fae.battle import FaeBattle
from tests.engine.conftest import fae_battles, fix_reactions


def _fae(name: str, x: int, policies: str = "{}", acrobatics: int = 90, sword: int = 70) -> str:
    return f"""
      - name: {name}
        attributes: {{agility: 60, luck: 50, reaction: 60}}
        skills: {{Sword: {sword}, Dodge: 50, Acrobatics: {acrobatics}}}
        wound_points: 900
        fatigue_points: 900
        weapons: [fae/longsword]
        position: [{x}, 0]
        policies: {policies}
"""


def _battles(red: str, blue: str, seeds: range, rules: str = "{}") -> Iterator[FaeBattle]:
    return fae_battles(red, blue, seeds, rules=rules, rounds=4)


def test_an_acrobatic_dodge_needs_only_an_action_left(monkeypatch: pytest.MonkeyPatch) -> None:
    """With 20 of its margin left, a fighter still dodges acrobatically (its next action,
    a full one: 20 - 50), where the old rule demanded more than 25."""
    fix_reactions(monkeypatch, {"Ann": 80, "Bob": 20})
    acro = "{fae_action: passive, fae_defence: {name: fixed, params: {defence: acrobatic_dodge}}}"
    battle = next(_battles(_fae("Ann", 0), _fae("Bob", 1, acro), range(3)))
    dodges = [e for e in battle.log.events if e.actor == "Bob" and "dodge" in e.action]
    assert dodges[0].action == "acrobatic_dodge"
    assert dict(dodges[0].modifiers).get("count", 20) == 20


def _acrobatic_counts(acrobatics: int, params: str = "{}") -> list[int]:
    best = f"{{fae_action: passive, fae_defence: {{name: best, params: {params}}}}}"
    return [
        dict(e.modifiers)["count"]
        for b in _battles(_fae("Ann", 0), _fae("Bob", 1, best, acrobatics, 20), range(10))
        for e in b.log.events
        if e.action == "acrobatic_dodge"
    ]


def test_the_best_defence_dodges_acrobatically_when_it_pays() -> None:
    """A tumbler (Acrobatics 90) dodges acrobatically when it costs no action a dodge
    would leave (25 or less left) and its odds leave less of the blow; a clumsy one
    (Acrobatics 10) never does, nor one told not to."""
    counts = _acrobatic_counts(90)
    assert counts
    assert max(counts) <= 25
    assert _acrobatic_counts(10) == []
    assert _acrobatic_counts(90, "{acrobatic: false}") == []


def test_acrobatic_bonus_adds_to_the_chance_or_to_the_margin(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """fae.acrobatic_bonus: the Acrobatics margin raises the dodge's chance (to_chance) or
    its margin after a success (to_margin); the same dice give different dodges."""
    fix_reactions(monkeypatch, {"Ann": 80, "Bob": 20})
    acro = "{fae_action: passive, fae_defence: {name: fixed, params: {defence: acrobatic_dodge}}}"
    results = {}
    for mode in ("to_chance", "to_margin"):
        results[mode] = [
            e.result
            for b in _battles(
                _fae("Ann", 0),
                _fae("Bob", 1, acro, 60),
                range(8),
                f"{{fae.acrobatic_bonus: {mode}}}",
            )
            for e in b.log.events
            if e.action == "acrobatic_dodge"
        ]
    assert results["to_chance"]
    assert results["to_chance"] != results["to_margin"]
