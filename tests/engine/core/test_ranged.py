"""Missile fighters on the field (personal-combat.md 6): range bands, readying, ammunition,
aware and unaware targets, projectile penalties, no parrying arrows, concentration,
shooting into a melee, and a shield that guards the side its bearer faces."""

from __future__ import annotations

from typing import Any

import pytest

from fadad_agents.engine import build_battle, load

FIELD = "map: {kind: open, width: 600, height: 60}\n"


def _archer(
    x: float, *, weapon: str = "weapons/bow", extra: str = "", movement: str = "hold"
) -> str:
    return f"""
      - name: Aelwen
        skills: {{Bow: Great, Dodge: Good}}
        attack_skill: Bow
        weapon: {weapon}
        policies: {{movement: {movement}}}
        position: [{x}, 30]
{extra}"""


def _target(x: float, *, name: str = "Brand", extra: str = "", policies: str = "") -> str:
    return f"""
      - name: {name}
        skills: {{Sword: Good}}
        attack_skill: Sword
        weapon: weapons/broadsword
        damage_capacity: Legendary
        position: [{x}, 30]
        policies: {{{policies}}}
{extra}"""


def _battle(archers: str, targets: str, *, rules: str = "", rounds: int = 1, seed: int = 1) -> Any:
    text = f"""{FIELD}
name: range test
rules: {{{rules}}}
sides:
  - name: Elves
    forces:{archers}
  - name: Men
    forces:{targets}
stop: {{max_rounds: 60}}
"""
    battle = build_battle(load(text), seed, collect=False)
    for _ in range(rounds):
        if not battle.finished:
            battle.play_round()
    return battle


def _shots(battle: Any) -> list[dict[str, Any]]:
    return [dict(e.outcome) | {"round": e.round} for e in battle.log if e.action == "shoot"]


STILL = "movement: hold, targeting: stay_back"
"""A target that neither moves nor fights back."""


@pytest.mark.parametrize(("gait", "closing_rounds"), [("walk", 19), ("jog", 10), ("run", 5)])
def test_an_archer_shoots_until_the_swordsman_closes(gait: str, closing_rounds: int) -> None:
    """A swordsman 150 yd off (148 to contact) walks 8, jogs 15 or runs 30 yd a round: the
    archer shoots once a round for the rounds he needs to close (19, 10, 5), then he
    strikes in melee (in his arrival round when the move left him an action)."""
    archer = _archer(10, weapon="{model: weapons/bow, ammunition: null}")
    brand = _target(
        160,
        policies=f"movement: {{name: close, params: {{gait: {gait}}}}}",
        extra="        wound_boxes: [20, 20, 20, 20, 20]\n",  # he lives to close
    )
    battle = _battle(archer, brand, rounds=closing_rounds + 1)
    blows = [e for e in battle.log if e.action == "attack" and e.actor == "Brand"]
    assert blows, "the fight goes to melee"
    first_blow = blows[0].round
    arrival = max(e.round for e in battle.log if e.action == "move" and e.actor == "Brand")
    assert arrival == closing_rounds
    assert first_blow == (closing_rounds if gait != "run" else closing_rounds + 1)
    rounds_shot = [s["round"] for s in _shots(battle)]
    assert set(range(1, closing_rounds + 1)) <= set(rounds_shot)
    assert all(rounds_shot.count(r) == 1 for r in set(rounds_shot))


def test_range_bands_follow_the_weapons_range_yards() -> None:
    """Weapon.range_yards: 40 yd is short range for a bow (10/50/100/210), long range for a
    weapon whose bands are 5/10/20/40; the band's Target modifier follows (+3, +5)."""
    near = _shots(_battle(_archer(10), _target(50, policies=STILL)))[0]
    short = "{model: weapons/bow, range_yards: [5, 10, 20, 40]}"
    far = _shots(_battle(_archer(10, weapon=short), _target(50, policies=STILL)))[0]
    assert (near["band"], far["band"]) == ("short", "long")
    assert far["target_level"] - near["target_level"] == 2


def test_extreme_range_is_an_option_and_nobody_shoots_beyond_it() -> None:
    """range.extreme_literal: a shot at 300 yd (Extreme for a bow) meets Target +5 over the
    plain one instead of +4; range.extreme_multiple 1.0 puts 300 yd out of range."""
    plain = _shots(_battle(_archer(10), _target(310, policies=STILL)))[0]
    literal = _shots(
        _battle(_archer(10), _target(310, policies=STILL), rules="range.extreme_literal: true")
    )[0]
    assert plain["band"] == literal["band"] == "extreme"
    assert literal["target_level"] == plain["target_level"] + 1
    assert not _shots(
        _battle(_archer(10), _target(310, policies=STILL), rules="range.extreme_multiple: 1.0")
    )


def test_readying_actions_set_the_rate_of_fire() -> None:
    """Weapon.actions_to_ready: a bow (1) fires every round, a heavy crossbow (3) every
    other round, a throwing knife kept to hand (0) twice a round (six rounds)."""

    def shots(weapon: str) -> int:
        archer = _archer(10, weapon=f"{{model: {weapon}, ammunition: null}}")
        return len(_shots(_battle(archer, _target(30, policies=STILL), rounds=6)))

    assert shots("weapons/bow") == 6
    assert shots("weapons/heavy-crossbow") == 3
    assert shots("weapons/throwing-dagger") == 12


def test_a_third_action_readies_only_on_a_good_dexterity_roll() -> None:
    """range.dexterity_past_two_actions (SEED 4.4): with four actions a round a bow fires
    twice a round; readying the second shot is the third action, so a Poor-Dexterity
    archer needs a Good roll (4dF >= +3) for it (a failure spends the action, the fourth
    tries again) and fires about once a round, a Legendary one (4dF >= -3) nearly always
    twice; with the option off both fire twice a round on the same seeds."""

    def shots(dexterity: str, rule: str) -> tuple[int, int]:
        archer = _archer(
            10,
            weapon="{model: weapons/bow, ammunition: null}",
            extra=f"        traits: {{Dexterity: {dexterity}}}\n",
        )
        rules = f"fadad.actions_per_round: 4, range.dexterity_past_two_actions: {rule}"
        tough = "        wound_boxes: [9, 9, 9, 9, 9]\n"
        battle = _battle(archer, _target(30, policies=STILL, extra=tough), rules=rules, rounds=8)
        assert not battle.finished
        rolls = [e for e in battle.log if e.action == "dexterity"]
        return len(_shots(battle)), len(rolls)

    assert shots("Poor", "false") == shots("Legendary", "false") == (16, 0)
    poor, poor_rolls = shots("Poor", "true")
    deft, deft_rolls = shots("Legendary", "true")
    assert 8 <= poor_rolls <= 16  # the third action each round, maybe the fourth
    assert 8 <= deft_rolls <= 16
    assert 8 <= poor <= 10 < 14 <= deft <= 16


def test_ammunition_runs_out() -> None:
    """Weapon.ammunition: with three arrows the archer shoots three times, then has none
    left (and fights on with her fists)."""
    archer = _archer(10, weapon="{model: weapons/bow, ammunition: 3}")
    battle = _battle(archer, _target(30, policies=STILL), rounds=6)
    assert len(_shots(battle)) == 3
    assert [e.action for e in battle.log].count("out_of_ammunition") == 1


def _defender(skills: str, extra: str = "") -> str:
    return f"""
      - name: Brand
        skills: {{{skills}}}
        damage_capacity: Legendary
        position: [30, 30]
        policies: {{{STILL}}}
{extra}"""


def test_the_projectile_sets_the_penalty_to_a_dodge_but_not_to_a_shield_block() -> None:
    """Weapon.projectile: the same dodge is -1 against a hand-thrown, -2 against a
    mechanical and -3 against a fast projectile; a shield block takes none."""

    def shot(projectile: str, defender: str) -> dict[str, Any]:
        weapon = f"{{model: weapons/bow, projectile: {projectile}}}"
        return _shots(_battle(_archer(10, weapon=weapon), defender))[0]

    dodger = _defender("Dodge: Good")
    hand, mechanical, fast = (shot(p, dodger)["defence"] for p in ("hand", "mechanical", "fast"))
    assert (hand - mechanical, mechanical - fast) == (1, 1)
    blocker = _defender(
        "Shield: Good", "        shield: shields/small\n        defence_skill: Shield\n"
    )
    blocks = [shot(p, blocker) for p in ("hand", "fast")]
    assert blocks[0]["defence_verb"] == "block"
    assert blocks[0]["defence"] == blocks[1]["defence"]


def test_nobody_parries_an_arrow_unless_the_game_is_heroic() -> None:
    """range.parry_missiles: a swordsman with no Dodge meets an arrow with an unskilled
    dodge (Mediocre); in a heroic game he parries it with his Sword (Good), two better."""
    plain = _shots(_battle(_archer(10), _target(30, policies=STILL)))[0]
    heroic = _shots(
        _battle(_archer(10), _target(30, policies=STILL), rules="range.parry_missiles: true")
    )[0]
    assert plain["defence_verb"] == "dodge"
    assert heroic["defence"] - plain["defence"] == 2


def test_a_fighter_busy_in_melee_does_not_see_the_arrow() -> None:
    """A target fighting someone else hand to hand is unaware: the shot meets its Target
    alone (undefended); the same target facing only the archer dodges."""
    friend = """
      - name: Tam
        skills: {Sword: Good}
        attack_skill: Sword
        weapon: weapons/broadsword
        damage_capacity: Legendary
        position: [51, 30]
        policies: {movement: hold}
"""
    alone = _shots(_battle(_archer(10), _target(50, policies="movement: hold")))[0]
    busy = _battle(_archer(10) + friend, _target(50, policies="movement: hold"), rounds=2)
    late = [s for s in _shots(busy) if s["round"] == 2]
    assert alone["aware"]
    assert alone["defended"]
    assert late
    assert not late[0]["aware"]
    assert not late[0]["defended"]


def test_shooting_into_a_melee_is_harder() -> None:
    """range.into_melee_cover: a target in contact with the archer's friend has Target +1
    (the friend is in the way); with 0 the plain Target."""
    friend = """
      - name: Tam
        skills: {Sword: Good}
        attack_skill: Sword
        weapon: weapons/broadsword
        damage_capacity: Legendary
        position: [51, 30]
        policies: {movement: hold, targeting: stay_back}
"""

    def target_level(rules: str) -> int:
        battle = _battle(_archer(10) + friend, _target(50, policies=STILL), rules=rules)
        return int(_shots(battle)[0]["target_level"])

    assert target_level("") == target_level("range.into_melee_cover: 0") + 1


def test_concentrating_on_shooting_is_plus_two() -> None:
    """An archer who stands and only shoots is +2 (section 6.1); one who steps back to
    keep her distance (kite) is not: the same dice show two less."""
    still = _shots(_battle(_archer(10), _target(14, policies=STILL)))[0]
    kiting = _shots(_battle(_archer(10, movement="kite"), _target(14, policies=STILL)))[0]
    assert still["attack"] - kiting["attack"] == 2


def test_a_shield_guards_the_side_its_bearer_faces() -> None:
    """Character.facing: a bearer who fights no one keeps the facing the scenario gives;
    facing the archer (3, toward -x) his medium shield adds +2 to his Target, facing away
    (0) it does not."""
    shield = "        shield: shields/medium\n"

    def target_level(facing: int) -> int:
        brand = _target(40, policies=STILL, extra=shield + f"        facing: {facing}\n")
        return int(_shots(_battle(_archer(10), brand))[0]["target_level"])

    assert target_level(3) == target_level(0) + 2


def test_only_a_ranged_weapon_shoots() -> None:
    """Weapon.ranged (6): holding her ground 40 yards off, Aelwen shoots Brand with a
    ranged bow; the same weapon not ranged is a melee weapon and never reaches him."""
    for ranged, shoots in (("true", True), ("false", False)):
        bow = f"{{name: Bow, fadad_bonus: 0, ranged: {ranged}, range_yards: [10, 50, 100, 210]}}"
        battle = _battle(_archer(10, weapon=bow), _target(50, policies=STILL), rounds=2)
        assert bool(_shots(battle)) is shoots
        assert not [e for e in battle.log if e.action == "attack"]


def test_a_fudge_shield_meets_a_shot_with_its_ranged_value() -> None:
    """Shield.fudge_ranged (shield_mode fudge_skill_penalty, C-11): a shield of melee value
    2 and ranged value 1 takes 1 off the archer's rolled attack, on the same seeds as the
    target without a shield (its melee value counts only hand to hand); a ranged value of
    0 takes nothing off."""
    rules = "shield_mode: fudge_skill_penalty"

    def attack(shield: str) -> int:
        target = _target(50, policies=STILL, extra=shield)
        return int(_shots(_battle(_archer(10), target, rules=rules))[0]["attack"])

    bare = attack("")
    shield = "        shield: {{name: Targe, target_bonus: 1, fudge_melee: 2, fudge_ranged: {}}}\n"
    assert attack(shield.format(1)) == bare - 1
    assert attack(shield.format(0)) == bare
