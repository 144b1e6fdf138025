"""Fighters on the field: moves that cost actions, contact before melee, the room round a
defender (personal-combat.md 5; ``engine.max_on_one``; ``move.*``; ``map.max_attackers``)."""

from __future__ import annotations

import math
from collections import defaultdict
from typing import Any

from fadad_agents.engine import build_battle, load
from tests.engine.conftest import duel_yaml, fighter

OPEN = "map: {kind: open, width: 200, height: 60}\n"


def _at(x: float, y: float) -> str:
    return f"        position: [{x}, {y}]\n"


def _battle(text: str, seed: int = 1, rounds: int | None = None) -> Any:
    battle = build_battle(load(OPEN + text), seed, collect=False)
    if rounds is None:
        battle.run_to_end()
    else:
        for _ in range(rounds):
            if not battle.finished:
                battle.play_round()
    return battle


def _moves(battle: Any, actor: str) -> list[Any]:
    return [e for e in battle.log if e.action == "move" and e.actor == actor]


def test_a_fighter_twenty_yards_off_runs_in_and_strikes_next_round() -> None:
    """20 yards apart (18 to contact): Ann's first round is a run (two actions, no attack)
    and she strikes from the second; Bob, holding, may strike her once she is there."""
    text = duel_yaml(
        fighter("Ann", extra=_at(10, 30)),
        fighter("Bob", extra=_at(30, 30), policies="{movement: hold}"),
    )
    battle = _battle(text, rounds=2)
    first = _moves(battle, "Ann")[0]
    out = dict(first.outcome)
    assert first.round == 1
    assert out["result"] == "run"
    assert dict(first.modifiers)["actions"] == 2
    assert math.isclose(out["yards"], 18, abs_tol=0.05)
    hers = [e for e in battle.log if e.action == "attack" and e.actor == "Ann"]
    assert hers
    assert all(e.round == 2 for e in hers)
    events = list(battle.log)
    arrived = events.index(first)
    assert all(
        i > arrived for i, e in enumerate(events) if e.action == "attack" and e.actor == "Bob"
    )


def test_the_free_step_closes_eight_yards_without_an_action() -> None:
    """A foe 8 yards off (6 to contact) is reached with the free step: the mover still
    attacks and defends that round (personal-combat.md 5: no movement action, up to 8 yd)."""
    text = duel_yaml(
        fighter("Ann", extra=_at(10, 30)),
        fighter("Bob", extra=_at(18, 30), policies="{movement: hold}"),
    )
    battle = _battle(text, rounds=1)
    (move,) = _moves(battle, "Ann")
    assert dict(move.outcome)["result"] == "walk"
    assert dict(move.modifiers)["actions"] == 0
    assert [e.actor for e in battle.log if e.action == "attack"].count("Ann") == 1


def test_short_legs_and_heavy_armour_slow_a_run() -> None:
    """move.short_legs_factor and move.heavy_armour_factor: a run of 30 yd is 22.5 for
    short legs, 22.5 in plate, 16.875 for both; factors of 1 give the full 30 back."""

    def run_yards(extra: str, rules: str = "", armour: str = "heavy-leather") -> float:
        ann = fighter("Ann", extra=_at(10, 30) + extra).replace("heavy-leather", armour)
        text = duel_yaml(
            ann, fighter("Bob", extra=_at(150, 30), policies="{movement: hold}"), rules=rules
        )
        return float(dict(_moves(_battle(text, rounds=1), "Ann")[0].outcome)["yards"])

    short = "        short_legs: true\n"
    assert run_yards("") == 30
    assert run_yards(short) == 22.5
    assert run_yards("", armour="plate") == 22.5
    assert run_yards(short, armour="plate") == 16.88
    assert run_yards(short, rules="move.short_legs_factor: 0.5") == 15
    assert run_yards("", rules="move.heavy_armour_factor: 1.0", armour="plate") == 30


def test_a_runner_is_harder_to_hit() -> None:
    """move.target_bonus: a defender who ran this round has Target +2 against attacks
    before its next turn; with (0, 0) the same attacks meet the plain Target."""

    def targets(rules: str, seed: int) -> list[int]:
        text = duel_yaml(
            fighter("Ann", extra=_at(10, 30)),
            fighter("Bob", extra=_at(40, 30), policies="{movement: hold}"),
            rules=rules,
        )
        # Ann runs 28 yd into contact; Bob, holding, strikes her if he acts after her
        return [
            dict(e.outcome)["target_level"]
            for e in _battle(text, seed=seed, rounds=1).log
            if e.action == "attack" and e.target == "Ann"
        ]

    seeds = [s for s in range(1, 30) if targets("", s)]
    assert seeds
    for seed in seeds[:3]:
        moving, still = targets("", seed), targets("move.target_bonus: [0, 0]", seed)
        assert moving == [s + 2 for s in still]


def _melee_attackers_per_round(battle: Any) -> dict[tuple[int, str], set[str]]:
    seen: dict[tuple[int, str], set[str]] = defaultdict(set)
    for e in battle.log:
        if e.action == "attack" and dict(e.outcome).get("verb") != "shot":
            seen[(e.round, e.target)].add(e.actor)
    return seen


KNIGHT = fighter(
    "Knight", skill="Legendary", extra=_at(100, 30) + "        damage_capacity: Superb\n"
)


def _mob(count: int, *, separate: bool) -> str:
    if separate:
        return "".join(fighter(f"Goblin{i}", skill="Fair", extra=_at(97, 30)) for i in range(count))
    return fighter("Goblin", skill="Fair", extra=_at(97, 30) + f"        count: {count}\n")


def test_six_men_fit_round_a_man() -> None:
    """Ten separate goblins on a knight: never more than six strike him in one round."""
    battle = _battle(duel_yaml(KNIGHT, _mob(10, separate=True), stop="max_rounds: 6"))
    per_round = _melee_attackers_per_round(battle)
    assert max(len(a) for (r, t), a in per_round.items() if t == "Knight") == 6


def test_a_doorway_lets_fewer_in() -> None:
    """map.max_attackers: 2 (a doorway): at most two goblins strike the knight a round."""
    text = duel_yaml(KNIGHT, _mob(10, separate=True), stop="max_rounds: 6")
    battle = build_battle(load(OPEN.replace("}", ", max_attackers: 2}") + text), 1)
    battle.run_to_end()
    per_round = _melee_attackers_per_round(battle)
    assert max(len(a) for (r, t), a in per_round.items() if t == "Knight") == 2


def test_max_on_one_caps_a_count_group_on_one_fighter() -> None:
    """engine.max_on_one applies to count: groups of characters: three of fifteen goblins
    strike the knight a round by default, one with max_on_one 1."""
    for limit in (3, 1):
        text = duel_yaml(
            KNIGHT, _mob(15, separate=False), rules=f"engine.max_on_one: {limit}",
            stop="max_rounds: 6",
        )  # fmt: skip
        per_round = _melee_attackers_per_round(_battle(text))
        assert max(len(a) for (r, t), a in per_round.items() if t == "Knight") == limit


def test_a_spear_reaches_further_than_a_sword() -> None:
    """Weapon.reach_yards: 3 yd apart and holding their ground, the spearman (reach 2)
    strikes and the swordsman (reach 1) cannot; give the sword reach 2 and both strike."""

    def strikers(sword_reach: str = "") -> set[str]:
        spear = fighter("Ann", extra=_at(10, 30)).replace("broadsword", "spear-two-handed")
        sword = fighter("Bob", extra=_at(13, 30))
        if sword_reach:
            sword = sword.replace("weapons/broadsword", sword_reach)
        text = duel_yaml(spear, sword, a_pol="movement: hold", b_pol="movement: hold")
        return {e.actor for e in _battle(text, rounds=2).log if e.action == "attack"}

    assert strikers() == {"Ann"}
    assert strikers("{model: weapons/broadsword, reach_yards: 2}") == {"Ann", "Bob"}
