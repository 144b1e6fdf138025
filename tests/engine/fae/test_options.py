"""Fae PROPOSED rules as options (issue 7): the mixed-scene bridges, a failed level-out
after a dive, what a wait costs and what a two-handed grip cancels (FaeOptions)."""

from __future__ import annotations

import itertools

import pytest

from fadad_agents.agents.fae.bridge import (
    attribute_level,
    fadad_wound_from_damage,
    fae_wounds_from_level,
)
from fadad_agents.agents.fae.character import FaeCharacter
from fadad_agents.agents.fae.moves import fall_damage
from fadad_agents.engine import build_battle, load
from fadad_agents.engine.fae.battle import FaeBattle
from fadad_agents.rules.fae.options import FaeOptions
from fadad_agents.rules.fae.special import two_handed_grip
from fadad_agents.rules.options import RulesOptions
from fadad_agents.schema import ScenarioError
from tests.engine.conftest import fae_scene


def _scene(red: str, blue: str, rules: str = "{}", rounds: int = 6) -> str:
    return fae_scene(red, blue, name="fae options", rules=rules, rounds=rounds)


def _fae(
    name: str,
    x: int,
    extra: str = "",
    skills: str = "Sword: 60, Dodge: 30",
    attrs: str = "reaction: 60, luck: 50",
    weapon: str = "fae/longsword",
) -> str:
    return f"""
      - name: {name}
        attributes: {{{attrs}}}
        skills: {{{skills}}}
        wound_points: 60
        fatigue_points: 60
        weapons: [{weapon}]
        position: [{x}, 0]
{extra}"""


def _play(text: str, seeds: range) -> list[FaeBattle]:
    out = []
    for seed in seeds:
        battle = build_battle(load(text), seed=seed)
        assert isinstance(battle, FaeBattle)
        battle.run_to_end()
        out.append(battle)
    return out


def test_options_have_the_old_hard_wired_defaults() -> None:
    """Defaults reproduce what was hard-wired: table 0/10/25/50/75/100/150 %, step 15,
    land prone, wait 25; the grip adds +20 to any two-handed melee weapon (the seed)."""
    o = FaeOptions()
    assert o.bridge_wound_percent == (0, 10, 25, 50, 75, 100, 150)
    assert (o.bridge_attribute_step, o.wait_cost) == (15, 25)
    assert (o.dive_failed_level_out, o.two_handed_grip) == ("land_prone", "always_bonus")
    flat = RulesOptions.from_flat({"fae.wait_cost": 10, "fae.two_handed_grip": "cancels_large"})
    assert (flat.fae.wait_cost, flat.fae.two_handed_grip) == (10, "cancels_large")


def test_bridge_conversions_follow_their_options() -> None:
    """Attribute level = round((v - 50) / step)."""
    assert attribute_level(80) == 2
    assert attribute_level(80, step=10) == 3


def test_the_dead_weapon_divisor_is_refused_with_a_reason() -> None:
    """fae.bridge_weapon_divisor fed an ODM no rule reads: a file that sets it is told so."""
    with pytest.raises(ScenarioError) as err:
        load(_scene(_fae("Ann", 0), _fae("Bob", 1), "{fae.bridge_weapon_divisor: 20}"))
    (problem,) = err.value.problems
    assert "fae.bridge_weapon_divisor is gone: no rule read it" in problem


def test_bridge_damage_share_table_is_an_option() -> None:
    """A FADAD level-2 blow is 25% of WP by default, 20% with another table; the inverse
    (Fae damage as a FADAD wound level) reads the same table."""
    assert fae_wounds_from_level(2, 40) == 10
    table = (0, 5, 20, 40, 60, 90, 120)
    assert fae_wounds_from_level(2, 40, table) == 8
    assert fadad_wound_from_damage(16, 40) == 2  # 40%: >= 25%, < 50%
    assert fadad_wound_from_damage(16, 40, table) == 3  # 40% >= 40% (level 3)


def test_fighter_bridge_reads_the_options() -> None:
    """A Fae fighter's kernel face uses fae.bridge_attribute_step for its attributes."""
    strong = "strength: 80, stamina: 80, reaction: 60, luck: 50"
    faces = []
    for rules in ("{}", "{fae.bridge_attribute_step: 10}"):
        battle = build_battle(load(_scene(_fae("Ann", 0, attrs=strong), _fae("Bob", 1), rules)), 1)
        ann = battle.fae_members[0]
        assert isinstance(ann, FaeCharacter)
        faces.append(ann.fighter)
    # Strength/Stamina 80: level 2 at step 15, 3 at step 10
    assert faces[1].odm - faces[0].odm == 1
    assert faces[1].ddm - faces[0].ddm == 1


def test_wait_lowers_the_count_by_the_wait_cost() -> None:
    """A 'wait' lowers the margin by fae.wait_cost (25 by default, here 10)."""
    passive = "        policies: {fae_action: passive}\n"
    for cost in (25, 10):
        text = _scene(
            _fae("Ann", 0, passive), _fae("Bob", 40, passive), f"{{fae.wait_cost: {cost}}}", 1
        )
        battle = _play(text, range(1))[0]
        delays = [e for e in battle.log.events if e.action == "delay" and e.actor == "Ann"]
        counts = [dict(e.modifiers)["count"] for e in delays]
        assert counts
        assert all(a - b == cost for a, b in itertools.pairwise(counts))
        assert all(dict(e.outcome)["from"] == c for e, c in zip(delays, counts, strict=True))


def test_two_handed_grip_modes() -> None:
    """(two-handed +20 applies, large -20 applies) in each mode of fae.two_handed_grip."""
    assert two_handed_grip(True, True, "cancels_large") == (True, True)  # net 0
    assert two_handed_grip(True, False, "cancels_large") == (False, False)
    assert two_handed_grip(True, False, "always_bonus") == (True, False)  # +20
    assert two_handed_grip(True, True, "always_bonus") == (True, True)  # net 0
    assert two_handed_grip(True, True, "cancels_and_bonus") == (True, False)  # net +20
    assert two_handed_grip(False, True, "cancels_and_bonus") == (False, True)  # -20


def test_two_handed_grip_option_moves_the_attack_chance() -> None:
    """A greatsword (large, two-handed) attacks 20% better with cancels_and_bonus."""
    mcs = []
    for mode in ("cancels_large", "cancels_and_bonus"):
        text = _scene(
            _fae("Ann", 0, skills="Sword: 50", weapon="fae/greatsword"),
            _fae("Bob", 1),
            f"{{fae.two_handed_grip: {mode}}}",
            2,
        )
        events = [e for b in _play(text, range(2)) for e in b.log.events]
        mcs.append(
            {
                dict(e.modifiers)["situation"]
                for e in events
                if e.action == "fae_attack"
                and e.actor == "Ann"
                and "situation" in dict(e.modifiers)
            }
        )
    assert mcs[0]
    assert mcs[1]
    assert {m + 20 for m in mcs[0]} == mcs[1]


def _divers(mode: str) -> list[FaeBattle]:
    flyer = (
        "        fly_mr: 30\n        altitude: 12\n"
        "        policies: {fae_tactics: {name: swoop, params: {altitude: 12}}}\n"
    )
    text = _scene(
        _fae("Kite", 0, flyer, "Sword: 60, Aerobatics: 0", "agility: 1, luck: 1, reaction: 80"),
        _fae("Bob", 10),
        f"{{fae.dive_failed_level_out: {mode}}}",
        3,
    )
    return _play(text, range(8))


def test_failed_level_out_modes() -> None:
    """A failed level-out (Aerobatics +30): land prone, crash (fall damage 10 + 10/yd,
    armour applying), or stay aloft without the swoop's charge."""
    assert fall_damage(12, 10) == 130
    for mode, result in (
        ("land_prone", "crashes"),
        ("crash", "crashes"),
        ("no_swoop", "pulls up late"),
    ):
        events = [e for b in _divers(mode) for e in b.log.events]
        dives = [e for e in events if e.action == "dive"]
        assert {e.result for e in dives} <= {"levels out", result}
        assert any(e.result == result for e in dives), mode
        falls = [e for e in events if e.action == "fall"]
        if mode == "crash":
            assert falls
            for e in falls:  # no armour: all of the fall's base damage lands
                assert e.result == fall_damage(dict(e.outcome)["yards"], 10)
        else:
            assert not falls
