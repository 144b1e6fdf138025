"""Crews fight crews by Spelljammer rapid resolution (ships-spelljammer.md 13) by their stat
blocks and the ``mass.rapid_*`` options: the logged volley shows the d20s rolled, the
bonus against the armour class, and the hits, one casualty each."""

from __future__ import annotations

from typing import Any

from fadad_agents.engine import build_battle, load
from tests.engine.conftest import duel_yaml


def crew(name: str, count: int = 10, **fields: Any) -> str:
    """A crew entry (YAML for a side's forces list)."""
    lines = "".join(f"        {key}: {value}\n" for key, value in fields.items())
    return f"\n      - name: {name}\n        kind: crew\n        count: {count}\n{lines}"


STAND = "{targeting: {name: stay_back}}"
"""A crew that never strikes (so the other always opens)."""


def volleys(
    red: str, blue: str, rules: str = "", *, seeds: range = range(1, 4)
) -> list[dict[str, Any]]:
    """The outcomes and modifiers of the first round's volleys over ``seeds``, with the
    striker's name under ``actor``."""
    out = []
    for seed in seeds:
        battle = build_battle(load(duel_yaml(red, blue, rules=rules, stop="max_rounds: 1")), seed)
        battle.run_to_end()
        for e in battle.log.of("volley"):
            out.append({"actor": e.actor, **dict(e.modifiers), **dict(e.outcome), **dict(e.dice)})
    return out


def rolled(red: str, blue: str = crew("Blue", policies=STAND), rules: str = "") -> set[Any]:
    """How many d20s Red rolls in its volleys."""
    return {v["d20s"] for v in volleys(red, blue, rules) if v["actor"] == "Red"}


def test_rapid_dice_round_down_or_half_up() -> None:
    """mass.rapid_rounding (A-59): 10 attackers on defenders of 4 HD roll 10 / 4 = 2.5
    d20s: 2 rounded down, 3 half up."""
    blue = crew("Blue", hit_dice=4, policies=STAND)
    assert rolled(crew("Red"), blue) == {2}
    assert rolled(crew("Red"), blue, "mass.rapid_rounding: half_up") == {3}


def test_natural_rolls_let_a_twenty_hit_and_a_one_miss_by_option() -> None:
    """mass.rapid_natural_rolls: -5 against AC 20 never hits by d20 + bonus >= AC; with
    natural rolls every 20 hits (1 in 20, within 3 standard errors over 300 d20s), and +30
    against AC 10 misses on a 1."""
    weak, armoured = (
        crew("Red", 100, attack_bonus=-5),
        crew("Blue", 100, armour_class=20, policies=STAND),
    )
    assert {v["hits"] for v in volleys(weak, armoured) if v["actor"] == "Red"} == {0}
    rows = [
        v for v in volleys(weak, armoured, "mass.rapid_natural_rolls: true") if v["actor"] == "Red"
    ]
    dice = sum(v["d20s"] for v in rows)
    assert dice == 300
    assert abs(sum(v["hits"] for v in rows) - dice / 20) <= 3 * (dice * 0.05 * 0.95) ** 0.5
    sure = crew("Red", 100, attack_bonus=30)
    open_ = crew("Blue", 100, policies=STAND)
    assert all(v["hits"] == v["d20s"] for v in volleys(sure, open_) if v["actor"] == "Red")
    missed = [
        v for v in volleys(sure, open_, "mass.rapid_natural_rolls: true") if v["actor"] == "Red"
    ]
    assert any(v["hits"] < v["d20s"] for v in missed)


# --- the Crew stat block -----------------------------------------------------------------


def test_a_crew_rolls_a_d20_per_head_over_the_defenders_hit_dice() -> None:
    """Crew.count, Crew.hit_dice (13.3): attackers / defender HD d20s: 10 or 20 heads
    against 1 HD roll 10 or 20; 10 against 2 HD roll 5."""
    assert rolled(crew("Red", 10)) == {10}
    assert rolled(crew("Red", 20)) == {20}
    assert rolled(crew("Red", 10), crew("Blue", hit_dice=2, policies=STAND)) == {5}


def test_heavy_or_incapacitating_blows_double_the_dice_and_light_ones_halve_them() -> None:
    """Crew.max_damage, Crew.incapacitating_attack (13.4): maximum damage above 12 or an
    incapacitating attack doubles the d20s, below 6 halves them."""
    assert rolled(crew("Red", max_damage=13)) == {20}
    assert rolled(crew("Red", max_damage=5)) == {5}
    assert rolled(crew("Red", incapacitating_attack="true")) == {20}


def test_each_d20_hits_on_the_bonus_against_the_defenders_armour_class() -> None:
    """Crew.attack_bonus, Crew.armour_class (13.5): d20 + bonus >= AC: +30 against AC 10
    always hits, -5 against AC 20 never; the volley logs both figures."""
    for bonus, ac, always in ((30, 10, True), (-5, 20, False)):
        rows = [
            v
            for v in volleys(
                crew("Red", attack_bonus=bonus), crew("Blue", armour_class=ac, policies=STAND)
            )
            if v["actor"] == "Red"
        ]
        assert {(v["attack_bonus"], v["ac"]) for v in rows} == {(bonus, ac)}
        assert all(v["hits"] == (v["d20s"] if always else 0) for v in rows)


def test_a_crews_morale_is_rolled_on_2d10_when_its_losses_call_for_it() -> None:
    """Crew.morale (18, A-57): at 25% losses the crew checks 2d10 <= morale: morale 20
    always holds, morale 2 holds only on double ones."""
    red = crew("Red", 3, attack_bonus=30)  # three of ten down
    for morale, result in ((20, {"holds"}), (2, {"breaks"})):
        results = set()
        for seed in (1, 2, 3):
            text = duel_yaml(red, crew("Blue", morale=morale, policies=STAND), stop="max_rounds: 1")
            battle = build_battle(load(text), seed)
            battle.run_to_end()
            results |= {
                dict(e.outcome)["result"] for e in battle.log.of("morale") if e.actor == "Blue"
            }
        assert results == result


def test_a_crews_policies_choose_whether_it_strikes() -> None:
    """Crew.policies: a crew told to stay back never strikes; by default it does."""
    assert {v["actor"] for v in volleys(crew("Red"), crew("Blue", policies=STAND))} == {"Red"}
    assert {v["actor"] for v in volleys(crew("Red"), crew("Blue"))} == {"Red", "Blue"}


def test_a_crew_strikes_the_nearest_foe_by_its_position() -> None:
    """Crew.position: a crew targeting the nearest foe strikes the one its position puts
    nearer."""
    for x, target in ((50, "West"), (130, "East")):
        red = crew("Red", position=f"[{x}, 0]", policies="{targeting: {name: nearest}}")
        blues = crew("West", position="[0, 0]", policies=STAND) + crew(
            "East", position="[180, 0]", policies=STAND
        )
        battle = build_battle(load(duel_yaml(red, blues, stop="max_rounds: 1")), 1)
        battle.run_to_end()
        assert {e.target for e in battle.log.of("volley") if e.actor == "Red"} == {target}


# --- a crew against one fighter: its average member's FADAD figures ---------------------

BOB = """
      - name: Bob
        skills: {Sword: Legendary}
        attack_skill: Sword
        weapon: weapons/broadsword
"""
MEMBER = {"skill": "Good", "strength": "Good", "weapon": "{name: Sword, fadad_bonus: 2}"}


def first_hits(red: str, actor: str) -> list[int]:
    """Damage beyond the relative degree (ODM - DDM + the damage die) of the first hit
    ``actor`` lands in a round of ``red`` against Bob, seeds 1-3 (no critical effects; a
    Scale also moves the Target, and so the degree)."""
    out = []
    for seed in (1, 2, 3):
        text = duel_yaml(red, BOB, rules="fadad.crit_effects: none", stop="max_rounds: 1")
        battle = build_battle(load(text), seed)
        battle.run_to_end()
        hits = [
            dict(e.outcome)
            for e in battle.log.of("attack")
            if e.actor == actor and dict(e.outcome)["hit"]
        ]
        out.append(hits[0]["damage"] - hits[0]["rd"])
    return out


def test_a_crews_skill_is_its_members_attack_against_a_fighter() -> None:
    """Crew.skill: each member's attack against one fighter is the crew's skill + 4dF."""
    for skill, level in (("Good", 1), ("Superb", 3)):
        text = duel_yaml(crew("Red", 3, **{**MEMBER, "skill": skill}), BOB, stop="max_rounds: 1")
        battle = build_battle(load(text), 1)
        battle.run_to_end()
        rows = [e for e in battle.log.of("attack") if e.actor == "Red"]
        assert rows
        assert {dict(e.outcome)["attack"] - dict(e.dice)["attack"] for e in rows} == {level}


def test_a_crews_strength_and_weapon_add_to_its_damage_against_a_fighter() -> None:
    """Crew.strength, Crew.weapon, Crew.scale (wounds-and-healing.md 4.1): a member's blow
    adds Strength + Scale + weapon: Great Strength +1 over Good, a +3 axe +1 over a +2
    sword, Scale 2 +2."""
    base = first_hits(crew("Red", 3, **MEMBER), "Red")
    for field, change in (
        ({"strength": "Great"}, 1),
        ({"weapon": "{name: Axe, fadad_bonus: 3}"}, 1),
        ({"scale": 2}, 2),
    ):
        moved = first_hits(crew("Red", 3, **{**MEMBER, **field}), "Red")
        assert [b - a for a, b in zip(base, moved, strict=True)] == [change] * 3, field


def test_a_crews_toughness_and_armour_take_from_a_fighters_damage() -> None:
    """Crew.damage_capacity, Crew.armour, Crew.scale (4.2): a blow on a member loses its
    Damage Capacity + Mass Scale + armour: Good +1, mail of value 2, Scale 2."""
    weak = {"skill": "Terrible", "strength": "Good", "weapon": "weapons/broadsword"}
    base = first_hits(crew("Red", 3, **weak), "Bob")
    for field, change in (
        ({"damage_capacity": "Good"}, -1),
        ({"armour": "{name: Mail, value: 2}"}, -2),
        ({"scale": 2}, -2),
    ):
        moved = first_hits(crew("Red", 3, **{**weak, **field}), "Bob")
        assert [b - a for a, b in zip(base, moved, strict=True)] == [change] * 3, field
