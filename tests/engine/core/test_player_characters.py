"""Player characters (``player: true``) get the PC-death protections (wounds-and-healing.md
12, C-13) and spend Ité points (FADAD 4.5.9, A-29) by their Ité policy; NPCs never do."""

from __future__ import annotations

from fadad_agents.engine import build_battle, load
from fadad_agents.engine.core.battle import Battle
from fadad_agents.rules.core.wounds import Wound
from tests.engine.conftest import FixedDice, duel_yaml

BRUTE = """
      - name: Brute
        reaction_speed: Great
        strength: Great
        skills: {Axe: Superb}
        attack_skill: Axe
        weapon: weapons/greatsword
"""
"""Strikes first; with every die 0 he wins by 5 (Superb against Poor) for damage 11."""


def hero(extra: str = "") -> str:
    """The Brute's victim: unarmoured, parrying at Poor."""
    return f"""
      - name: Hero
        skills: {{Sword: Poor}}
        attack_skill: Sword
        weapon: weapons/broadsword
{extra}"""


def first_blow(
    extra: str = "", rules: str = "", *, dice: float = 0.5, rounds: int = 1
) -> tuple[Battle, object]:
    """The Brute strikes the Hero with every die at ``dice``; the battle after ``rounds``."""
    text = duel_yaml(
        BRUTE,
        hero(extra),
        rules="fadad.initiative: static, fadad.crit_effects: none"
        + (", " + rules if rules else ""),
    )
    battle = build_battle(load(text), seed=1)
    battle.sides[0].members[0].rng = FixedDice(dice)
    for _ in range(rounds):
        if not battle.finished:
            battle.play_round()
    return battle, battle.sides[1].members[0]


def level(extra: str = "", rules: str = "") -> str:
    """The Hero's wound level after the Brute's first blow."""
    _, hero_ = first_blow(extra, rules)
    return Wound(hero_.wound).label  # type: ignore[attr-defined]


PLAYER = "        player: true\n"


def test_at_most_three_levels_a_blow_for_a_player_character() -> None:
    """``pc_death.max_three_levels`` (EX-WND-17): an unhurt player character takes a Near
    Death blow as Very Hurt; an NPC, or the same PC without the option, is Near Death."""
    option = "pc_death.max_three_levels: true"
    assert level(PLAYER, option) == "Very Hurt"
    assert level("", option) == "Near Death"
    assert level(PLAYER) == "Near Death"
    battle, _ = first_blow(PLAYER, option)
    attack = battle.log.of("attack")[0]
    assert (attack.result, dict(attack.outcome)["taken"]) == ("Near Death", "Very Hurt")
    assert "damage 11: Near Death, taken as Very Hurt." in battle.log.text()


def test_no_near_death_unless_incapacitated_when_the_round_began() -> None:
    """``pc_death.no_near_death_unless_incap``: the PC's Near Death blow is taken as
    Incapacitated (a fighter Incapacitated is out, so never begins a round so)."""
    option = "pc_death.no_near_death_unless_incap: true"
    assert level(PLAYER, option) == "Incapacitated"
    assert level("", option) == "Near Death"


def test_an_ite_point_turns_a_deadly_blow_into_incapacitated() -> None:
    """A player character with an Ité point takes the Near Death blow as Incapacitated
    and has none left; the spend is logged and narrated after the blow."""
    battle, hero_ = first_blow(PLAYER + "        ite_points: 2\n")
    assert Wound(hero_.wound).label == "Incapacitated"  # type: ignore[attr-defined]
    assert hero_.ite_points == 1  # type: ignore[attr-defined]
    lines = battle.log.text().splitlines()
    assert lines[1].endswith(
        "Hero spends an Ité point: Incapacitated instead of Near Death (1 left)."
    )
    assert "damage 11: Near Death." in lines[0]


def test_ite_points_are_spent_only_by_player_characters_that_have_them() -> None:
    """No point without ``ite_points``, none for an NPC (``player`` off), none with
    ``pc_death.point_spend`` off."""
    points = "        ite_points: 1\n"
    assert level(PLAYER) == "Near Death"
    assert level(points) == "Near Death"
    assert level(PLAYER + points, "pc_death.point_spend: false") == "Near Death"
    assert level(PLAYER + points) == "Incapacitated"


def test_the_ite_policy_decides_whether_to_spend() -> None:
    """``ite_points: keep`` never spends; ``save_from_death_only`` keeps the point for a
    Near Death blow (left to first aid) and spends it when the blow would kill."""
    points = PLAYER + "        ite_points: 1\n"
    keep = points + "        policies: {ite_points: keep}\n"
    only = points + "        policies: {ite_points: save_from_death_only}\n"
    assert level(keep) == "Near Death"
    assert level(only) == "Near Death"
    no_near_death_box = "        wound_boxes: [3, 1, 1, 1, 0]\n"  # a Near Death blow kills
    assert level(keep + no_near_death_box) == "Dead"
    assert level(only + no_near_death_box) == "Incapacitated"
