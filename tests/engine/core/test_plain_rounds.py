"""The plain melee round plays the same battle as every fighter's own declare and act.

Fighters with nothing to decide declare and act in one loop over the round's turns
(``agents.core.plain.round``); every other fighter, and a plain one with somewhere to
move, by its own methods. Whichever path plays a battle, the dice are the same and so is
the log, byte for byte: here the same seeds are played with the path on and off, across
the options and policies that touch the round (crits and their conditions, stun and
called blows on plain fighters, static and tied initiative, a Mediocre lead, the FUDGE
wound model, player characters, a third side, crews, retreats, movement, weapon sizes
compared).
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from benchmarks.bench_engine import _melee_yaml
from fadad_agents.agents.core.character import Character
from fadad_agents.agents.core.plain import round as plain_round
from fadad_agents.engine import build_battle, load
from fadad_agents.engine.personal import melee as melee
from fadad_agents.policies import build_policy_set
from fadad_agents.policies.core.defaults import StickyTargeting
from tests.engine.conftest import duel_yaml, fighter

FIVE = _melee_yaml(5, bands=False)
"""The 5 v 5 benchmark: Good swordsmen, rolled initiative, default (non-lethal) crits."""


def _five_a_side(*, red: str = "", blue: str = "", extra: str = "", **kw: str) -> str:
    """Five fighters a side; ``red``/``blue`` policies for the first two of each side."""
    a = "".join(fighter(f"Red{i}", policies=red if i < 2 else "", extra=extra) for i in range(5))
    b = "".join(fighter(f"Blue{i}", policies=blue if i < 2 else "") for i in range(5))
    return duel_yaml(a, b, **kw)


MEDIOCRE = "        reaction_speed: Mediocre\n"
QUICK = "        reaction_speed: Great\n"
PLAYER = "        player: true\n        ite_points: 1\n"
THREE_SIDES = """
name: three sides
rules: {fadad.crit_effects: random}
sides:
""" + "".join(
    f"  - name: {side}\n    forces:" + "".join(fighter(f"{side}{i}") for i in range(3))
    for side in ("Red", "Blue", "Green")
)
WITH_CREWS = (
    """
name: crew and swordsmen
sides:
  - name: Red
    policies: {morale: none}
    forces:
      - {name: Reds, kind: crew, count: 4, skill: Fair}
"""
    + "".join(fighter(f"Red{i}") for i in range(2))
    + """
  - name: Blue
    forces:"""
    + "".join(fighter(f"Blue{i}") for i in range(4))
)

SCENARIOS: dict[str, str] = {
    "5v5": FIVE,
    "random crits": FIVE.replace("rolled}", "rolled, fadad.crit_effects: random}"),
    "knockouts for 2 rounds": _five_a_side(rules="fadad.crit_effects: random, knockout_rounds: 2"),
    "static initiative, every turn shared": FIVE.replace("rolled", "static"),
    "fudge_numeric wounds": _five_a_side(rules="wound_model: fudge_numeric"),
    "stun blows on plain fighters": _five_a_side(red="{aim: stun}"),
    "stun blows before the plain fighters' turn": _five_a_side(
        red="{aim: stun}", extra=QUICK, rules="fadad.initiative: static"
    ),
    "called shots at the head": _five_a_side(red="{aim: {name: called, params: {location: head}}}"),
    "Mediocre leads": _five_a_side(extra=MEDIOCRE, rules="fadad.crit_effects: random"),
    "player characters": _five_a_side(extra=PLAYER, rules="fadad.crit_effects: random"),
    "three sides": THREE_SIDES,
    "a crew beside swordsmen": WITH_CREWS,
    "random targets, all-in attacks, wounded retreat": _five_a_side(
        red="{targeting: random, multi_attack: all_in}", blue="{retreat: wounded}"
    ),
    "weakest targets": _five_a_side(red="{targeting: weakest}", blue="{targeting: strongest}"),
    "closing in from 6 yards": _melee_yaml(5, bands=True, gap=6),
    "weapon sizes compared, daggers on swords": FIVE.replace(
        "rolled}", "rolled, fadad.weapon_size_comparison: true}"
    ).replace("weapons/broadsword", "weapons/dagger", 5),
}
MOVING = {"closing in from 6 yards"}
"""Scenarios whose fighters never stand in one melee: all act by their own methods (the
plain ones declare in one loop a turn: ``agents.core.crowd.declaring``)."""


def _played(text: str, seed: int) -> tuple[str, list[Any], list[Any]]:
    """A battle to its end: its log as read, its events, each fighter's final state."""
    battle = build_battle(load(text), seed, collect=False)
    battle.run_to_end()
    states = [
        (m.name, m.status, getattr(m, "track", None), getattr(m, "conditions", None))
        for side in battle.sides
        for m in side.members
    ]
    return battle.log.text(), [tuple(e) for e in battle.log], states


@pytest.mark.parametrize("name", list(SCENARIOS))
def test_the_plain_round_plays_the_same_battle(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each scenario plays the same battles, event for event and byte for byte in the log,
    with the plain round on and off; and with it on, plain fighters declared and acted
    there (their own methods were called less)."""
    text = SCENARIOS[name]
    monkeypatch.setattr(melee, "MELEE_COMPILED", False)  # the Python round, compiled or not
    calls = {"declare": 0, "act": 0}
    declare, act = Character.declare, Character.act

    def counted_declare(self: Character, arena: Any) -> None:
        calls["declare"] += 1
        declare(self, arena)

    def counted_act(self: Character, arena: Any) -> None:
        calls["act"] += 1
        act(self, arena)

    monkeypatch.setattr(Character, "declare", counted_declare)
    monkeypatch.setattr(Character, "act", counted_act)
    seeds = range(4)
    plain = [_played(text, seed) for seed in seeds]
    on = dict(calls)
    calls.update(declare=0, act=0)
    monkeypatch.setattr(plain_round, "PLAIN_ROUNDS", False)
    own = [_played(text, seed) for seed in seeds]
    for seed, (a, b) in enumerate(zip(plain, own, strict=True)):
        assert a[0] == b[0], f"{name}, seed {seed}: the log reads differently"
        assert a[1:] == b[1:], f"{name}, seed {seed}: events or final states differ"
    if name in MOVING:
        assert on["act"] == calls["act"]
        assert on["declare"] < calls["declare"]
    else:
        # fewer calls of their own: the plain path played some (else this proves nothing)
        assert on["declare"] < calls["declare"]
        assert on["act"] < calls["act"]


def test_the_5v5_plays_the_same_over_many_seeds(monkeypatch: pytest.MonkeyPatch) -> None:
    """The 5 v 5 benchmark's battles, 40 seeds: the same events with the path on and off
    (rare turns, such as a fighter knocked out while its turn is still to come, show up
    only over many battles)."""
    seeds = range(100, 140)
    plain = [_played(FIVE, seed)[1:] for seed in seeds]
    monkeypatch.setattr(plain_round, "PLAIN_ROUNDS", False)
    assert [_played(FIVE, seed)[1:] for seed in seeds] == plain


def test_a_fighter_is_plain_only_with_nothing_to_decide() -> None:
    """A default swordsman is plain; one with a stun aim or a retreat policy is not (its
    own methods play it)."""
    text = _five_a_side(
        red="{aim: stun}",
        blue="{retreat: wounded}",
        rules="fadad.crit_effects: random",
    )
    battle = build_battle(load(text), 1, collect=False)
    battle.play_round()
    plain = {m.name: m.plain for side in battle.sides for m in side.members}
    assert plain == {
        "Red0": False, "Red1": False, "Red2": True, "Red3": True, "Red4": True,
        "Blue0": False, "Blue1": False, "Blue2": True, "Blue3": True, "Blue4": True,
    }  # fmt: skip


def test_marking_a_round_finds_what_is_plain_finds() -> None:
    """mark_plain (each policy set asked once: a band's members share one) marks every
    character as is_plain answers, member by member: plain and not, bands and singles."""
    rules = "fadad.crit_effects: random"
    texts = [_five_a_side(red="{aim: stun}", blue="{retreat: wounded}", rules=rules), FIVE]
    texts.append(_melee_yaml(40, bands=True))
    found = []
    for text in texts:
        battle = build_battle(load(text), 1, collect=False)
        plain_round.mark_plain(battle.initiative_turns(), battle)
        for member in (m for side in battle.sides for m in side.members):
            assert member.plain is plain_round.is_plain(member, battle)
            found.append(member.plain)
    assert found.count(False) == 4  # the first two of each side in the first battle
    assert found.count(True) == len(found) - 4


def test_a_battle_finds_its_plain_fighters_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Whether a fighter is plain is found at the first round its battle plays, once: the
    battle reset for the next seed does not ask again, and plays the battle one built for
    that seed plays."""
    asked: list[Any] = []
    plain_policies = plain_round._plain_policies

    def counted(pol: Any) -> bool:
        asked.append(pol)
        return plain_policies(pol)

    monkeypatch.setattr(plain_round, "_plain_policies", counted)
    battle = build_battle(load(FIVE), 1, collect=False).run_to_end()
    assert len(asked) == len({id(p) for p in asked}) == 10  # each fighter's policies, once
    battle.reset(2, collect=False)
    battle.run_to_end()
    assert len(asked) == 10
    assert all(m.plain is True for side in battle.sides for m in side.members)
    fresh = build_battle(load(FIVE), 2, collect=False).run_to_end()
    assert battle.log.text() == fresh.log.text()


class FirstFoe(StickyTargeting):
    """Sticky targeting whose new target is the first foe in reach: no dice."""

    __slots__ = ()

    def choose_target(self, actor: Any, battle: Any, rng: Any) -> Any:
        current = actor.target
        if current is not None and current.fighting:
            return current
        foes = battle.foes_in_reach(actor)
        return foes[0] if foes else None


def test_a_targeting_policy_choosing_otherwise_is_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    """A policy derived from sticky targeting that picks its new target another way is
    not taken for a random draw (``random_in_reach`` is a class's own mark): the plain
    round asks it, as the fighter's own methods do, and plays the same battle."""

    def played(seed: int) -> list[Any]:
        battle = build_battle(load(FIVE), seed, collect=False)
        for member in (m for side in battle.sides for m in side.members):
            member.policies = dataclasses.replace(member.policies, targeting=FirstFoe())
        battle.run_to_end()
        return [tuple(e) for e in battle.log]

    assert not dataclasses.replace(build_policy_set([]), targeting=FirstFoe()).random_in_reach
    assert build_policy_set([]).random_in_reach
    plain = [played(seed) for seed in range(4)]
    monkeypatch.setattr(plain_round, "PLAIN_ROUNDS", False)
    assert [played(seed) for seed in range(4)] == plain
