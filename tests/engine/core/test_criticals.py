"""Every critical effect does what the PROPOSED d8 list says (wounds-and-healing.md 10,
A-17), for as long as it says, and the narration names it."""

from __future__ import annotations

import pytest

from fadad_agents.agents.core.conditions import Conditions
from fadad_agents.engine import build_battle, load
from fadad_agents.engine.core.battle import Battle
from fadad_agents.rules.personal.criticals import (
    CALLED_LOCATION,
    DISARM,
    KNOCKDOWN,
    KNOCKOUT,
    STAGGER,
    VITALS,
    CritEffect,
)
from tests.engine.conftest import SCENARIOS, Script, dice, duel_yaml


def crit(effect: CritEffect) -> tuple[float, ...]:
    """The draws of one swing winning by 5 with one crit of ``effect`` (every effect in
    the pool, ``fadad.crit_effects: random``) and a damage roll of 0: damage 4, Hurt."""
    return dice(0), dice(0), (effect.d8 - 0.5) / 8, dice(0)


ANN = """
      - name: Ann
        reaction_speed: Great
        strength: Poor
        skills: {Sword: Superb}
        attack_skill: Sword
        weapon: weapons/dagger
"""
"""Acts first; wins by 5 on level dice (Superb against Bob's Poor dodge); damage 4."""

BOB = """
      - name: Bob
        skills: {Sword: Good, Dodge: Poor}
        attack_skill: Sword
        defence_skill: Dodge
        weapon: weapons/broadsword
"""


MISSES = (dice(-4), dice(4), dice(-4), dice(4), dice(-4), dice(4))
"""Ann's next three swings: -4 against +4, each a miss."""


def crit_battle(effect: CritEffect, rules: str = "") -> Battle:
    """Ann lands one crit of ``effect`` on Bob in round 1, then misses three times."""
    text = duel_yaml(ANN, BOB, rules="fadad.initiative: static, fadad.crit_effects: random" + rules)
    battle = build_battle(load(text), seed=3)
    battle.sides[0].members[0].rng = Script(*crit(effect), *MISSES)
    return battle


def lines(battle: Battle) -> list[str]:
    return battle.log.text().splitlines()


def attacks_by(battle: Battle, name: str) -> list[int]:
    """The rounds in which ``name`` attacked."""
    return [e.round for e in battle.log.of("attack") if e.actor == name]


def test_a_knockout_ends_the_victims_fight() -> None:
    """Knockout (knockout_rounds unset: the rest of the combat, A-27): Bob, only Hurt,
    is out of the fight at once and never acts again."""
    battle = crit_battle(KNOCKOUT)
    battle.run_to_end()
    assert "hit by 5 (1 crit: Knockout), damage 4: Hurt." in lines(battle)[0]
    assert lines(battle)[1].endswith("Bob is out of the fight (knocked out).")
    assert attacks_by(battle, "Bob") == []
    assert battle.winner == 0


def test_knockout_rounds_lay_the_victim_out_that_long() -> None:
    """``knockout_rounds: 2``: Bob misses the rest of round 1 and round 2, is struck with
    his Target only meanwhile, comes to in round 3 and fights on."""
    battle = crit_battle(KNOCKOUT, ", knockout_rounds: 2")
    for _ in range(3):
        battle.play_round()
    assert any(
        line.endswith("Bob is knocked out for 2 rounds (Knockout).") for line in lines(battle)
    )
    assert attacks_by(battle, "Bob") == [3]
    round2 = [e for e in battle.log.of("attack") if e.round == 2]
    assert [dict(e.outcome)["defended"] for e in round2] == [False]
    assert [e.round for e in battle.log.of("crit_recovery")] == [3]


def test_a_knockdown_costs_an_action_and_a_penalty_until_the_victim_rises() -> None:
    """Knockdown: Bob, prone, strikes at -1 more than his wound; on his turn he spends his
    attack rising ("gets up") and strikes again only in round 2."""
    battle = crit_battle(KNOCKDOWN)
    battle.play_round()
    assert attacks_by(battle, "Bob") == []
    assert [e.result for e in battle.log.of("crit_recovery")] == ["gets up"]
    bob = battle.sides[1].members[0]
    assert bob.penalty == -1  # Hurt; no longer prone
    battle.play_round()
    assert attacks_by(battle, "Bob") == [2]


@pytest.mark.parametrize("effect", [KNOCKDOWN, DISARM, STAGGER, CALLED_LOCATION])
def test_a_fighter_over_his_crit_fights_on_as_one_never_struck(
    effect: CritEffect, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Risen, armed again or his stagger paid, Bob drops his conditions when his next
    round starts (a hurt weapon arm stays with him); the battle is the one keeping them
    would give, event for event."""
    battle = crit_battle(effect)
    battle.play_round()
    battle.play_round()
    assert (battle.sides[1].members[0].conditions is None) is (effect is not CALLED_LOCATION)
    battle.run_to_end()
    monkeypatch.setattr(Conditions, "cleared", property(lambda self: False))
    kept = crit_battle(effect)
    kept.run_to_end()
    assert lines(kept) == lines(battle)


def test_the_knockdown_penalty_is_an_option() -> None:
    """``fadad.knockdown_penalty``: Ann's second swing finds Bob, Hurt and prone, at -2
    by default and at -3 with the option at 2 (A-17)."""
    penalties = []
    for rules in ("", ", fadad.knockdown_penalty: 2"):
        text = duel_yaml(
            ANN.replace(
                "weapon: weapons/dagger",
                "weapon: weapons/dagger\n        policies: {multi_attack: all_in}",
            ),
            BOB,
            rules="fadad.initiative: static, fadad.crit_effects: random" + rules,
        )
        battle = build_battle(load(text), seed=3)
        battle.sides[0].members[0].rng = Script(*crit(KNOCKDOWN))
        battle.play_round()
        second = [e for e in battle.log.of("attack") if e.actor == "Ann"][1]
        penalties.append(dict(second.modifiers)["defender_penalty"])
    assert penalties == [-2, -3]


def test_a_disarmed_fighter_strikes_without_his_weapon_until_he_picks_it_up() -> None:
    """Disarm: Bob drops his broadsword; on his turn he spends his attack picking it up,
    and strikes with it in round 2."""
    battle = crit_battle(DISARM)
    bob = battle.sides[1].members[0]
    armed = bob.fighter
    battle.play_round()
    assert bob.fighter is armed
    assert [e.result for e in battle.log.of("crit_recovery")] == ["picks up the dropped weapon"]
    assert any(line.endswith("Bob is disarmed (Disarm).") for line in lines(battle))
    assert attacks_by(battle, "Bob") == []


def test_a_staggered_fighter_loses_his_next_action() -> None:
    """Stagger: Bob, yet to act in round 1, loses his attack; he strikes in round 2."""
    battle = crit_battle(STAGGER)
    battle.play_round()
    battle.play_round()
    assert attacks_by(battle, "Bob") == [2]
    assert [e.result for e in battle.log.of("crit_recovery")] == ["loses an action, staggered"]


def test_a_called_location_wounds_the_weapon_arm_instead_of_the_body() -> None:
    """Called Location: damage 4 Hurts Bob's weapon arm (-1 to fight) and leaves his body
    unhurt; with ``location.also_general_wound`` the body takes the Hurt too."""
    battle = crit_battle(CALLED_LOCATION)
    battle.play_round()
    bob = battle.sides[1].members[0]
    assert (bob.wound, bob.penalty) == (0, -1)
    assert any(
        line.endswith("Bob is hit in the weapon arm (hurt) (Called Location).")
        for line in lines(battle)
    )
    both = crit_battle(CALLED_LOCATION, ", location.also_general_wound: true")
    both.play_round()
    bob = both.sides[1].members[0]
    assert (bob.wound, bob.penalty) == (2, -2)


def test_vitals_raise_the_wound_one_level_after_it_is_recorded() -> None:
    """Vitals: Bob's Hurt blow becomes Very Hurt (one level more after recording)."""
    battle = crit_battle(VITALS)
    battle.play_round()
    bob = battle.sides[1].members[0]
    assert bob.wound == 3


def test_vitals_on_a_hurt_fighter_incapacitates_him() -> None:
    """Vitals adds its level after the blow is recorded (section 10): Bob, already Hurt,
    takes a Hurt blow that overflows to Very Hurt; the Vitals level then makes him
    Incapacitated (raising the blow to Very Hurt before recording would leave him Very
    Hurt)."""
    hurt_bob = BOB + "        wounds: [Hurt]\n"
    text = duel_yaml(ANN, hurt_bob, rules="fadad.initiative: static, fadad.crit_effects: random")
    battle = build_battle(load(text), seed=3)
    battle.sides[0].members[0].rng = Script(*crit(VITALS), *MISSES)
    battle.play_round()
    assert battle.sides[1].members[0].track.level.label == "Incapacitated"


def test_crit_effects_option_picks_the_pool() -> None:
    """``fadad.crit_effects``: 'none' counts the crit with no effect; 'non_lethal' draws
    from the five non-lethal effects only, 'random' from all eight (A-17): the same draw
    is a Disarm from the first pool and a Knockout from the second."""
    effects = {}
    for pool in ("none", "non_lethal", "random"):
        text = duel_yaml(ANN, BOB, rules=f"fadad.initiative: static, fadad.crit_effects: {pool}")
        battle = build_battle(load(text), seed=3)
        battle.sides[0].members[0].rng = Script(dice(0), dice(0), 0.3, dice(0))
        battle.play_round()
        effects[pool] = dict(battle.log.of("attack")[0].outcome)["crit_effects"]
    assert effects == {"none": (), "non_lethal": ("Disarm",), "random": ("Knockout",)}


@pytest.mark.parametrize("scenario", ["tavern-brawl", "boarding-action"])
def test_no_fighter_acts_after_leaving_the_fight(scenario: str) -> None:
    """Knocked out or downed, in personal rounds and on a ship's deck alike: a fighter's
    last blow comes before its ``out`` (every crit effect drawn: ``random``)."""
    text = (SCENARIOS / f"{scenario}.yaml").read_text()
    text = text.replace("\nrules:\n", "\nrules:\n  fadad.crit_effects: random\n", 1)
    seen = set()
    for seed in range(12):
        battle = build_battle(load(text), seed)
        battle.run_to_end()
        out: set[str] = set()
        for event in battle.log:
            if event.action == "out":
                out.add(event.actor)
            elif event.action in ("attack", "volley"):
                assert event.actor not in out, (seed, event)
                seen.update(dict(event.outcome).get("crit_effects", ()))
    assert {"Knockout", "Knockdown", "Stagger"} <= seen
