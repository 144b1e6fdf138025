"""The Fae options that settle the seed's open points, each at battle level on the same
seeds both ways: the margin and botch (A-62), damage rounding (A-63), the half thresholds
(A-65), the mounted charge (A-66), equipment wear (A-67), missiles underwater (section 6)
and the mixed-scene bridges (C-04, C-18)."""

from __future__ import annotations

import math
from fractions import Fraction
from pathlib import Path
from typing import Any

from fadad_agents.agents.fae.combat import attack
from fadad_agents.engine import LogEvent, build_battle, load
from fadad_agents.engine.fae.battle import FaeBattle
from fadad_agents.schema.scenario import Scenario
from tests.engine.conftest import SCENARIOS, FixedDice, fae_battles, fae_scene


def _fae(name: str, x: int, policies: str = "{}", extra: str = "", wp: int = 300) -> str:
    return f"""
      - name: {name}
        attributes: {{strength: 60, agility: 60, luck: 50, reaction: 60}}
        skills: {{Sword: 60, Dodge: 30, Bow: 60}}
        wound_points: {wp}
        fatigue_points: 300
        weapons: [fae/longsword]
        position: [{x}, 0]
        policies: {policies}
{extra}"""


PASSIVE = "{fae_action: passive, fae_defence: none}"


def _battles(red: str, blue: str, rules: str, seeds: range = range(4)) -> list[FaeBattle]:
    return list(fae_battles(red, blue, seeds, rules=rules, rounds=4))


def _hits(battles: list[FaeBattle], actor: str = "Ann") -> list[LogEvent]:
    return [
        e
        for b in battles
        for e in b.log.events
        if e.action == "fae_attack" and e.actor == actor and e.result == "hit"
    ]


def _with(scenario: Scenario, **fae: Any) -> Scenario:
    """``scenario`` with some ``fae.*`` options changed."""
    rules = scenario.rules.model_copy(update={"fae": scenario.rules.fae.model_copy(update=fae)})
    return scenario.model_copy(update={"rules": rules})


def test_margin_mode_reads_the_margin_as_chance_minus_roll_or_the_roll() -> None:
    """A-62: a success's margin is MCS - roll by default, the roll itself with ``roll``."""
    for mode in ("mcs_minus_roll", "roll"):
        hits = _hits(
            _battles(_fae("Ann", 0), _fae("Bob", 1, PASSIVE), f"{{fae.margin_mode: {mode}}}")
        )
        assert hits
        for e in hits:
            roll, mcs = dict(e.dice)["d100"], dict(e.modifiers)["mcs"]
            assert dict(e.outcome)["margin"] == (mcs - roll if mode == "mcs_minus_roll" else roll)


def test_botch_range_sets_which_rolls_botch() -> None:
    """A-62: rolls at or above ``fae.botch_range`` botch (a Reaction botch: no action);
    101 means no botch at all."""
    for limit in (101, 60):
        battles = _battles(_fae("Ann", 0), _fae("Bob", 1), f"{{fae.botch_range: {limit}}}")
        tests = [e for b in battles for e in b.log.events if e.action == "reaction_test"]
        botched = {e.result == "botch" for e in tests}
        assert botched == ({False} if limit == 101 else {False, True})
        assert all((dict(e.dice)["d100"] >= limit) is (e.result == "botch") for e in tests)


def test_damage_rounding_half_up_or_down() -> None:
    """A-63: damage = base x margin%, rounded half up by default, or down."""
    for mode in ("half_up", "down"):
        hits = _hits(
            _battles(_fae("Ann", 0), _fae("Bob", 1, PASSIVE), f"{{fae.damage_rounding: {mode}}}")
        )
        for e in hits:
            exact = Fraction(dict(e.modifiers)["base"] * dict(e.outcome)["margin"], 100)
            want = math.floor(exact + Fraction(1, 2)) if mode == "half_up" else math.floor(exact)
            assert dict(e.outcome)["damage"] == want


def test_half_threshold_decides_a_blow_of_exactly_half() -> None:
    """A-65: a chest blow of exactly half the Wound Points (20 of 40) is a mortal wound
    when "half" reads "at least half" (literal, at_least_half), not with more_than_half."""
    shot = "{name: special, params: {shot: chest, min_chance: 1}}"
    chest = f"{{fae_action: passive, fae_called_shot: {shot}}}"
    for mode, mortal in (("literal", True), ("at_least_half", True), ("more_than_half", False)):
        text = fae_scene(
            _fae("Ann", 0, chest),
            _fae("Bob", 1, PASSIVE, wp=40),
            name="half",
            rules=f"{{fae.half_threshold: {mode}}}",
            rounds=1,
        )
        battle = build_battle(load(text), 1)
        ann, bob = battle.fae_members
        mcs = ann.chance("attack") - 20
        ann.rng = FixedDice((mcs - 5 - 1) / 100 + 0.001)  # margin 5, +20 called: 25 -> 20
        attack(ann, bob, battle)
        hit = next(e for e in battle.log.events if e.action == "fae_attack")
        assert dict(hit.outcome)["inflicted"] == 20
        assert any(e.action == "mortal_wound" for e in battle.log.events) is mortal


def test_mounted_charge_adds_half_the_sum_or_half_the_rider_and_the_mount() -> None:
    """A-66: the knights' charging lance: base 100 + (55 + 150) / 2 = 202 (half_sum), or
    100 + 27 + 150 = 277 (half_rider_plus_mount)."""
    scenario = load(Path(SCENARIOS) / "fae-mounted-charge.yaml")
    charges = {"half_sum": 202, "half_rider_plus_mount": 277}
    for mode, base in charges.items():
        bases: set[int] = set()
        for seed in range(4):
            battle = build_battle(_with(scenario, mounted_charge=mode), seed=seed)
            battle.run_to_end()
            bases |= {
                dict(e.modifiers)["base"]
                for e in battle.log.events
                if e.action == "fae_attack"
                and e.actor.startswith("Sir")
                and "base" in dict(e.modifiers)
            }
        assert base in bases
        assert not bases & (set(charges.values()) - {base})


def test_equipment_wear_wears_armour_down() -> None:
    """A-67: a blow above the armour's DR takes the excess off it; without wear it holds."""
    for wear in (True, False):
        bob = _fae("Bob", 1, PASSIVE, "        armour: fae/leather-armour\n")
        battles = _battles(_fae("Ann", 0), bob, f"{{fae.equipment_wear: {str(wear).lower()}}}")
        worn = [
            b for b in battles if next(m for m in b.fae_members if m.name == "Bob").armour_dr < 6
        ]
        assert bool(worn) is wear


def test_underwater_missiles_lose_most_of_their_skill() -> None:
    """Section 6: underwater a missile uses the skill / ``fae.underwater_missile_divisor``;
    0 forbids the shot."""
    archer = "{fae_action: {name: archer, params: {aim: 0}}, fae_defence: none}"
    wet = "        underwater: true\n"
    results = {}
    for divisor in (10, 2, 0):
        ann = _fae("Ann", 0, archer, wet).replace("fae/longsword", "fae/shortbow")
        shots = [
            e
            for b in _battles(
                ann, _fae("Bob", 5, PASSIVE), f"{{fae.underwater_missile_divisor: {divisor}}}"
            )
            for e in b.log.events
            if e.action == "fae_attack" and e.actor == "Ann"
        ]
        results[divisor] = {dict(e.modifiers).get("mcs") for e in shots if e.result != "cannot hit"}
        if divisor == 0:
            assert {e.result for e in shots} == {"cannot hit"}
    assert {m + 30 - 6 for m in results[10]} == results[2]  # Bow 60: 6 -> 30


MIXED = Path(SCENARIOS) / "fae-mixed-melee.yaml"


def _mixed(**fae: Any) -> list[FaeBattle]:
    out = []
    for seed in range(6):
        battle = build_battle(_with(load(MIXED), **fae), seed=seed)
        battle.run_to_end()
        out.append(battle)
    return out


def test_ladder_bridge_lets_fadad_and_fae_fighters_meet() -> None:
    """C-04: with the bridge the viking and the blade-dancer fight; without it the scene
    is refused (tests/engine/fae/test_mixed.py shows the error)."""
    assert any(e.action == "attack" for b in _mixed() for e in b.log.events)


def test_size_bridge_gives_the_fae_fighter_a_mass_scale() -> None:
    """C-18: Size 35 is Mass Scale -1 with the bridge (0 without): the viking's blows land
    on a smaller body, and the same seeds play out otherwise."""
    on, off = _mixed(size_bridge=True), _mixed(size_bridge=False)
    assert (on[0].fae_members[0].fighter.scale, off[0].fae_members[0].fighter.scale) == (-1, 0)
    assert [b.log.events for b in on] != [b.log.events for b in off]


def test_bridge_wound_points_scale_a_fadad_body() -> None:
    """C-04 (PROPOSED): a FADAD fighter has bridge_wound_points x 1.5^(DC + Scale) Wound
    Points against Fae blows: doubling the base doubles them."""
    points = []
    for base in (40, 80):
        hits = [
            e
            for b in _mixed(bridge_wound_points=base)
            for e in b.log.events
            if e.action == "fae_attack" and "wound_points" in dict(e.outcome)
        ]
        points.append({dict(e.outcome)["wound_points"] for e in hits})
    assert {2 * p for p in points[0]} == points[1]


def test_bridge_armour_dr_turns_fadad_armour_into_a_defense_rating() -> None:
    """C-04 (PROPOSED): a FADAD fighter's armour stops bridge_armour_dr per point of
    armour of a Fae blow: 0 lets the whole damage through."""
    taken = []
    for dr in (0, 20):
        hits = [
            dict(e.outcome)
            for b in _mixed(bridge_armour_dr=dr)
            for e in b.log.events
            if e.action == "fae_attack" and "wound_points" in dict(e.outcome)
        ]
        taken.append(sum(h["inflicted"] for h in hits) / max(1, len(hits)))
    assert taken[0] > taken[1]


def test_bridge_wound_percent_sets_what_a_fadad_blow_does_to_a_fae_body() -> None:
    """C-04 (PROPOSED): a FADAD wound level becomes that percent of the Fae Wound Points;
    an all-zero table leaves the blade-dancer unhurt by every hit."""
    hurt = []
    for table in ((0, 10, 25, 50, 75, 100, 150), (0, 0, 0, 0, 0, 0, 0)):
        battles = _mixed(bridge_wound_percent=table)
        hurt.append(any(b.fae_members[0].health.wounds for b in battles))
    assert hurt == [True, False]
