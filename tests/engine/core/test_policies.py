"""Policies: registry by name with validated params, plug-ins, declarative rules, targeting."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import pytest

from fadad_agents.engine import ScenarioError, run
from fadad_agents.policies import (
    KINDS,
    MoraleChoice,
    PolicyError,
    PolicyRegistry,
    Stance,
    build_policy_set,
)
from fadad_agents.policies.core import registry as registry_module
from fadad_agents.policies.core.defaults import NearestTargeting, WeakestTargeting
from fadad_agents.policies.core.rules import RulesRetreat, RulesStance, RulesTargeting
from tests.engine.conftest import duel_yaml


@dataclass(eq=False)
class View:
    name: str
    side: int = 1
    wound: int = 0
    fighting: bool = True
    headcount: int = 1
    initial_headcount: int = 1
    target: Any = None
    position: tuple[int, int] | None = None
    memory: dict[str, Any] = field(default_factory=dict)


class Arena:
    def __init__(self, foes: Sequence[View], friends: Sequence[View] = (), rnd: int = 1) -> None:
        self._foes, self._friends, self.round = foes, friends, rnd

    def foes(self, side: int) -> Sequence[View]:
        return self._foes

    def friends(self, side: int) -> Sequence[View]:
        return self._friends

    def side_fraction(self, side: int) -> float:
        return len([f for f in self._friends if f.fighting]) / max(len(self._friends), 1)

    def downed(self, side: int) -> Sequence[View]:
        return ()

    # A battle without a field: every foe is in reach, none is nearest.
    def foes_in_reach(self, actor: View) -> Sequence[View]:
        return self._foes

    def nearest_foe(self, actor: View) -> View | None:
        return None

    def engage_point(self, actor: View, target: View) -> tuple[float, float] | None:
        return None


class CountingList(list[View]):
    """A foe list that counts element reads (targeting must not scan all pairs)."""

    reads = 0

    def __getitem__(self, i: Any) -> Any:
        CountingList.reads += 1
        return super().__getitem__(i)

    def __iter__(self) -> Any:
        raise AssertionError("targeting iterated the whole foe list")


def test_unknown_policy_name_is_an_error_naming_the_field() -> None:
    """An unknown name is a ScenarioError (a ValueError) at the line of
    sides[N].policies.<decision>, naming the known policies."""
    with pytest.raises(ScenarioError) as err:
        run(duel_yaml(a_pol="targeting: weakset"), seed=1)
    assert isinstance(err.value, ValueError)
    (problem,) = err.value.problems
    assert problem.startswith("<text>:6 sides[0].policies.targeting.name: unknown targeting")
    assert "weakest" in problem


def test_bad_parameter_is_an_error_naming_the_parameter() -> None:
    """Params are validated at load: wrong type and unknown keys name the param."""
    with pytest.raises(ScenarioError, match=r" sides\[1\]\.policies\.targeting\.params\.reach: "):
        run(duel_yaml(b_pol="targeting: {name: weakest, params: {reach: lots}}"), seed=1)
    with pytest.raises(ScenarioError, match=r" sides\[1\]\.policies\.targeting\.params\.rech: "):
        run(duel_yaml(b_pol="targeting: {name: weakest, params: {rech: 3}}"), seed=1)


def test_unknown_decision_and_bad_rule_are_errors() -> None:
    """An unknown decision key, or a rule that cannot be read, fails at load."""
    with pytest.raises(PolicyError, match="unknown decision 'tactics'"):
        build_policy_set([("sides.0.policies", {"tactics": "sticky"})])
    with pytest.raises(PolicyError, match="unknown quantity 'wund'") as err:
        build_policy_set(
            [("x", {"retreat": {"name": "rules", "params": {"rules": "wund > 1 -> withdraw"}}})]
        )
    assert err.value.field == "x.retreat.params"


def test_force_policies_override_side_policies() -> None:
    """Layers: a force's own choice wins over its side's default."""
    chosen = build_policy_set(
        [("side", {"targeting": "random"}), ("force", {"targeting": "weakest"})]
    )
    assert isinstance(chosen.targeting, WeakestTargeting)


def test_third_party_policies_register_through_entry_points(monkeypatch: Any) -> None:
    """Entry-point group fadad_agents.policies: a plug-in's hook registers new names."""

    class Berserk:
        """Always attack."""

        def choose_stance(self, actor: Any, target: Any, battle: Any) -> Stance:
            return Stance.ATTACK

    class FakeEntryPoint:
        name, value = "berserk", "plugin:register"

        def load(self) -> Any:
            return lambda reg: reg.register("stance", "berserk", Berserk)

    seen: list[str] = []

    def fake_entry_points(*, group: str) -> list[FakeEntryPoint]:
        seen.append(group)
        return [FakeEntryPoint()]

    monkeypatch.setattr(registry_module, "entry_points", fake_entry_points)
    reg = PolicyRegistry()
    assert isinstance(reg.create("stance", "berserk"), Berserk)
    assert seen == ["fadad_agents.policies"]
    assert set(KINDS) >= {"targeting", "stance", "multi_attack", "retreat", "morale", "first_aid"}


def test_rules_choose_by_first_matching_condition() -> None:
    """'cond -> choice; else -> choice': first match wins; conditions compare quantities."""
    retreat = RulesRetreat("wound >= Very Hurt -> surrender; side < 50% -> withdraw")
    me = View("me", wound=3)
    arena = Arena([View("foe")], [me, View("pal", fighting=False), View("pal2", fighting=False)])
    assert retreat.decide(me, arena) is MoraleChoice.SURRENDER
    me.wound = 1
    assert retreat.decide(me, arena) is MoraleChoice.WITHDRAW
    stance = RulesStance("outnumbered and wound >= Hurt -> all_out_defence")
    assert (
        stance.choose_stance(me, View("foe"), Arena([View("a"), View("b")], [me])) is Stance.ATTACK
    )
    me.wound = 2
    assert stance.choose_stance(me, View("foe"), Arena([View("a"), View("b")], [me])) is (
        Stance.ALL_OUT_DEFENCE
    )


def test_weakest_targets_the_most_wounded_foe_in_reach() -> None:
    """'target the weakest foe in reach' (all foes when there are no more than reach)."""
    foes = [View("a", wound=1), View("b", wound=3), View("c", wound=2)]
    pick = RulesTargeting("else -> weakest").choose_target(
        View("me"), Arena(foes), random.Random(1)
    )
    assert pick is foes[1]


def test_nearest_uses_map_positions() -> None:
    """Nearest foe by position."""
    foes = [View("far", position=(9, 9)), View("near", position=(1, 0))]
    me = View("me", position=(0, 0))
    assert NearestTargeting().choose_target(me, Arena(foes), random.Random(1)) is foes[1]


def test_targeting_reads_at_most_reach_foes_of_a_big_list() -> None:
    """O(reach) per decision: 10,000 foes are never scanned."""
    foes = CountingList(View(str(i), wound=i % 4) for i in range(10_000))
    CountingList.reads = 0
    pick = WeakestTargeting(reach=5).choose_target(View("me"), Arena(foes), random.Random(3))
    assert pick is not None
    assert CountingList.reads <= 5
