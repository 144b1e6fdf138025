"""Policies with a constant answer: the agent skips the call, and play is unchanged."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from fadad_agents.engine import build_battle, load
from fadad_agents.policies import MoraleChoice, PolicySet, Stance, build_policy_set
from fadad_agents.policies.core.defaults import (
    AlwaysAttack,
    FixedAttacks,
    HoldGround,
    StickyTargeting,
)
from tests.engine.conftest import duel_yaml, fighter


class AskedHold:
    """HoldGround without its ``constant``: asked every round."""

    def decide(self, actor: Any, battle: Any) -> MoraleChoice:
        return MoraleChoice.HOLD


class AskedAttack:
    def choose_stance(self, actor: Any, target: Any, battle: Any) -> Stance:
        return Stance.ATTACK


class AskedAttacks:
    def attacks(self, actor: Any, target: Any, battle: Any, budget: int) -> int:
        return min(1, budget)


class AskedSticky:
    """StickyTargeting without its ``keeps_target``: asked every round."""

    def choose_target(self, actor: Any, battle: Any, rng: Any) -> Any:
        return StickyTargeting().choose_target(actor, battle, rng)


class NeverAskedHold(HoldGround):
    """Says it always holds; calling it would fail the battle."""

    def decide(self, actor: Any, battle: Any) -> MoraleChoice:
        raise AssertionError("a constant policy was asked")


def test_the_defaults_publish_their_constant_answers() -> None:
    chosen = build_policy_set([])
    assert (chosen.holds, chosen.always_attacks, chosen.attack_count) == (True, True, 1)
    assert chosen.keeps_target  # sticky targeting, the default
    assert FixedAttacks(3).constant == 3
    assert AlwaysAttack.constant is Stance.ATTACK
    varied = build_policy_set(
        [
            (
                "side",
                {
                    "retreat": "wounded",
                    "stance": "defend_when_hurt",
                    "multi_attack": "fixed",
                    "targeting": "random",
                },
            )
        ]
    )
    assert (varied.holds, varied.always_attacks, varied.attack_count) == (False, False, 1)
    assert not varied.keeps_target


def _log(seed: int, swap: Any) -> list[str]:
    battle = build_battle(
        load(
            duel_yaml(
                fighter("Ann", extra="        count: 3\n"),
                fighter("Bob", extra="        count: 3\n"),
            )
        ),
        seed,
    )
    for side in battle.sides:
        for member in side.members:
            member.policies = swap(member.policies)
    battle.run_to_end()
    return list(battle.log.jsonl_lines())


@pytest.mark.parametrize("seed", range(6))
def test_asking_or_not_gives_the_same_battle(seed: int) -> None:
    def asked(p: PolicySet) -> PolicySet:
        return PolicySet(
            AskedSticky(),
            AskedAttack(),
            AskedAttacks(),
            AskedHold(),
            p.morale,
            p.first_aid,
            p.ite_points,
            p.movement,
            p.aim,
        )

    plain = _log(seed, asked)
    assert not asked(build_policy_set([])).holds
    assert not asked(build_policy_set([])).keeps_target
    assert plain == _log(seed, lambda p: p)


def test_a_constant_policy_is_not_asked() -> None:
    lines = _log(1, lambda p: dataclasses.replace(p, retreat=NeverAskedHold()))
    assert '"action":"end"' in lines[-1]
