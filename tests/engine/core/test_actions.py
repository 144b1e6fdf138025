"""The action budget: multi-attack, all-out defence, undefended attacks, first aid."""

from __future__ import annotations

from fadad_agents.engine import run
from tests.engine.conftest import duel_yaml, fighter


def test_all_in_spends_the_budget_on_attacks() -> None:
    """multi_attack all_in: two attacks a round, so blows on the attacker meet Target only."""
    result = run(
        duel_yaml(
            fighter("Ann", policies="{multi_attack: all_in}",
                    extra="        damage_capacity: Legendary\n"),
            fighter("Bob", extra="        damage_capacity: Legendary\n"),
            rules="fadad.actions_per_round: 2",
        ),
        seed=4,
    )  # fmt: skip
    by_round: dict[int, int] = {}
    for e in result.log.of("attack"):
        if e.actor == "Ann":
            by_round[e.round] = by_round.get(e.round, 0) + 1
    assert by_round
    full_rounds = [r for r in by_round if r < result.rounds]
    assert all(by_round[r] == 2 for r in full_rounds)
    on_ann = [e for e in result.log.of("attack") if e.target == "Ann"]
    assert on_ann
    assert all(dict(e.outcome)["defended"] is False for e in on_ann)


def test_one_attack_and_one_defence_by_default() -> None:
    """Default: one attack and one defence a round (SEED 000 4.6)."""
    result = run(duel_yaml(), seed=6)
    for e in result.log.of("attack"):
        assert dict(e.outcome)["defended"] is True
    assert len({(e.round, e.actor) for e in result.log.of("attack")}) == len(
        result.log.of("attack")
    )


def test_second_attacker_meets_only_the_target() -> None:
    """Two on one: the lone fighter's single defence is spent; the next blow is undefended."""
    result = run(
        duel_yaml(
            fighter("Ann") + fighter("Cat"),
            fighter("Bob", extra="        damage_capacity: Legendary\n"),
            stop="max_rounds: 1",
        ),
        seed=2,
    )
    on_bob = [dict(e.outcome)["defended"] for e in result.log.of("attack") if e.target == "Bob"]
    assert on_bob == [True, False]


def test_first_aid_is_a_durative_action_that_stabilises() -> None:
    """A medic tends a friend at Near Death for one round; the roll is logged when done."""
    medic = fighter(
        "Medic",
        policies="{first_aid: near_death, targeting: stay_back}",
        extra="        skills: {Sword: Good, First Aid: Legendary}\n",
    ).replace("        skills: {Sword: Good}\n", "", 1)
    victim = fighter("Ann", skill="Terrible", extra="        damage_capacity: Terrible\n")
    brute = fighter(
        "Ogre", skill="Legendary",
        policies="{targeting: {name: rules, params: {rules: 'else -> first'}}}",
    )  # fmt: skip
    result = run(duel_yaml(victim + medic, brute, stop="max_rounds: 12"), seed=1)
    (down,) = [e for e in result.log.of("out") if e.actor == "Ann"]
    assert down.result == "Near Death"
    (aid,) = result.log.of("first_aid")
    # Declared at the next round (+6 s), done one round later (+6 s), before that round.
    assert (aid.actor, aid.target, aid.time) == ("Medic", "Ann", down.time + 12)
    assert aid.result in {"stabilised", "failed"}
    later = [e for e in result.log if e.time == aid.time]
    assert later[0] is aid  # ACTIONS_DONE runs before the round at the same instant
