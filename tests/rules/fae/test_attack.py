"""Fae Domains attacks: modifiers, range, aim, damage, defences, wounds, called shots."""

import random
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats

from fadad_agents.rules.fae import attack as fa
from fadad_agents.rules.fae.checks import FaeCheck
from fadad_agents.rules.fae.options import FaeOptions


def test_ex_fae_01_damage_by_margin():
    """EX-FAE-01: margin 25 with Base Damage 100 -> 25 damage, not 2,500."""
    assert fa.damage_from_margin(100, 25) == 25


def test_damage_rounding_a63():
    """A-63: 33 x 50% = 16.5 -> 17 half up; 16 with rounding 'down'; no damage at margin 0."""
    assert fa.damage_from_margin(33, 50) == 17
    assert fa.damage_from_margin(33, 50, "down") == 16
    assert fa.damage_from_margin(100, 0) == 0


def test_ex_fae_02_breaking_the_enchanted_wand():
    """EX-FAE-02: wand DR 85, a 90 strike -> 5 penetrates, DR becomes 80."""
    hit = fa.equipment_damage(85, 90)
    assert hit.excess == 5
    assert hit.dr_after == 80
    assert not hit.broken


def test_ex_fae_05_dodge_and_block():
    """EX-FAE-05: margin 30 - dodge 20 -> 10 damage; dodge 35 sidesteps (17 ft); block +12."""
    res = fa.damage_sequence(100, 30, fa.Defences(dodge_margin=20))
    assert res.margin == 10
    assert res.damage == 10
    assert res.inflicted == 10
    side = fa.damage_sequence(100, 30, fa.Defences(dodge_margin=35))
    assert side.sidestepped
    assert side.inflicted == 0
    assert fa.dodge_move_feet(35) == 17
    assert fa.block_bonus(40, 30) == 12
    blocked = fa.damage_sequence(100, 35, fa.Defences(block_margin=40, block_dr=30))
    assert blocked.damage == 35
    assert blocked.block_bonus == 12
    assert blocked.inflicted == 23
    assert blocked.block_dr_after == 25


def test_armour_order_and_wear_a64_a67():
    """A-64: dodge, then block + armour subtract; A-67: armour loses the excess over its DR."""
    res = fa.damage_sequence(
        100, 60, fa.Defences(dodge_margin=10, block_margin=50, block_dr=20, armour_dr=30)
    )
    assert (res.margin, res.damage, res.block_bonus, res.inflicted) == (50, 50, 10, 10)
    assert (res.armour_dr_after, res.block_dr_after) == (10, -10)
    worn = fa.damage_sequence(100, 60, fa.Defences(armour_dr=30), FaeOptions(equipment_wear=False))
    assert worn.armour_dr_after == 30
    assert worn.inflicted == 30


def test_ex_fae_06_range_penalty():
    """EX-FAE-06: range rating 10 yd: 9 yd -> 0; 25 yd -> -10%; 40 yd -> -20%."""
    assert fa.range_penalty(9, 10) == 0
    assert fa.range_penalty(25, 10) == -10
    assert fa.range_penalty(40, 10, max_range=50) == -20
    assert fa.range_penalty(60, 10, max_range=50) is None


def test_ex_fae_07_aiming_cap():
    """EX-FAE-07: Bow 40% caps aiming at +20% (4 short aim actions); attack at base + 20."""
    assert fa.aim_cap(40) == 20
    assert fa.useful_aim_actions(40) == 4
    assert fa.aim_bonus(4, 40) == 20
    assert fa.aim_bonus(6, 40) == 20
    assert fa.aim_bonus(3, 40) == 15
    assert 40 + fa.aim_bonus(4, 40) == 60


def test_ex_fae_08_breaching_a_wooden_door():
    """EX-FAE-08: 1-inch wood DR 50: a 60 blow -> 40; a 45 blow -> 35; breached at 0 or less."""
    door = fa.new_barrier("wood")
    assert door.dr == 50
    door = fa.strike_barrier(door, 60)
    assert door.dr == 40
    door = fa.strike_barrier(door, 45)
    assert door.dr == 35
    assert not door.breached
    door = fa.strike_barrier(door, 70)
    assert door.breached


def test_thick_barrier_repeats_per_inch():
    """Each further inch must be broken in turn, starting at the full DR again."""
    wall = fa.new_barrier("stone", inches=2)
    wall = fa.strike_barrier(wall, 200)
    assert (wall.inches, wall.dr, wall.breached) == (1, 90, False)
    with pytest.raises(ValueError, match="unknown barrier"):
        fa.new_barrier("cheese")


@pytest.mark.parametrize(
    ("situation", "expected"),
    [
        (fa.AttackSituation(offhand=True), -10),
        (fa.AttackSituation(offhand=True, ambidextrous=True), 0),
        (fa.AttackSituation(large_weapon=True), -20),
        (fa.AttackSituation(large_weapon=True, two_handed=True), 0),
        (fa.AttackSituation(two_handed=True), 20),
        (fa.AttackSituation(blindside=True), 15),
        (fa.AttackSituation(blindside=True, target_wide_angle_vision=True), 0),
        (fa.AttackSituation(rear=True), 20),
        (fa.AttackSituation(rear=True, target_all_around_vision=True), 0),
        (fa.AttackSituation(blinded=True), -60),
        (fa.AttackSituation(prone=True), -10),
        (fa.AttackSituation(kneeling=True), -5),
        (fa.AttackSituation(kneeling=True, missile=True), 5),
        (fa.AttackSituation(offhand=True, rear=True, blinded=True), -50),
    ],
)
def test_attack_modifiers_table(situation, expected):
    """Each row of the attack modifiers table, with its exceptions."""
    assert fa.attack_modifier(situation) == expected


def test_stun_and_called_shot_modifiers():
    """Stun: blunt 0, edged -10; called shot -20 (-40 very small) and +20 margin on a hit."""
    assert fa.stun_modifier("blunt") == 0
    assert fa.stun_modifier("slashing") == -10
    assert fa.stun_modifier("piercing") == -10
    assert fa.called_shot_modifier() == -20
    assert fa.called_shot_modifier(very_small=True) == -40
    assert fa.CALLED_SHOT_MARGIN == 20


def test_wounds_fatigue_death_unconsciousness():
    """Wounds above WP kill; Fatigue above FP knocks out; stun damage goes to Fatigue."""
    h = fa.FaeHealth(wound_points=30, fatigue_points=40)
    h = fa.apply_damage(h, 30)
    assert not h.dead
    assert fa.apply_damage(h, 1).dead
    s = fa.apply_damage(h, 41, stun=True)
    assert s.unconscious
    assert s.wounds == 30


@pytest.mark.parametrize(
    ("shot", "damage", "points", "stun", "weapon", "effect"),
    [
        ("head", 10, 20, True, "blunt", None),
        ("head", 11, 20, True, "blunt", "unconscious"),
        ("head", 11, 20, False, "slashing", "dead"),
        ("limb", 10, 20, True, "blunt", "limb_numb"),
        ("limb", 10, 20, False, "slashing", "limb_severed"),
        ("limb", 10, 20, False, "blunt", None),
        ("limb", 11, 20, False, "piercing", "limb_mangled"),
        ("chest", 10, 20, True, "blunt", "winded"),
        ("chest", 10, 20, False, "piercing", "dies_in_turns"),
        ("chest", 9, 20, False, "piercing", None),
        ("abdomen", 10, 20, True, "blunt", "doubled_over"),
        ("abdomen", 10, 20, False, "slashing", "dies_in_minutes"),
        ("nerve_center", 10, 20, True, "blunt", "doubled_over"),
        ("nerve_center", 10, 20, False, "piercing", "doubled_over"),
        ("disarm", 50, 20, False, "slashing", None),
    ],
)
def test_special_called_shots(shot, damage, points, stun, weapon, effect):
    """Section 7 with A-65: 'half' = at least half, 'more than half' = strictly more."""
    got = fa.special_shot_effect(shot, damage, points, stun, weapon)
    assert (got.effect if got else None) == effect


def test_special_shot_details_and_threshold_options():
    """Head kills name decapitation or brain; the half_threshold option overrides A-65."""
    assert fa.special_shot_effect("head", 11, 20, False, "slashing").detail == "decapitated"
    assert fa.special_shot_effect("head", 11, 20, False, "blunt").detail == "brain"
    at_least = FaeOptions(half_threshold="at_least_half")
    assert fa.special_shot_effect("head", 10, 20, False, "blunt", at_least).effect == "dead"
    strict = FaeOptions(half_threshold="more_than_half")
    assert fa.special_shot_effect("chest", 10, 20, False, "blunt", strict) is None
    numb = fa.special_shot_effect("limb", 10, 20, True, "blunt")
    assert numb.lasts_turns == 1
    winded = fa.special_shot_effect("chest", 10, 20, True, "blunt")
    assert winded.recover_test == "stamina"
    gut = fa.special_shot_effect("abdomen", 10, 20, False, "slashing")
    assert gut.action_test == "willpower"


def test_delayed_deaths():
    """Chest: 1d10 combat turns (10 s each); abdomen: 1d10 minutes."""
    chest = fa.special_shot_effect("chest", 10, 20, False, "piercing")
    gut = fa.special_shot_effect("abdomen", 10, 20, False, "piercing")
    assert fa.delayed_death_seconds(chest, 3) == 30
    assert fa.delayed_death_seconds(gut, 3) == 180
    dist = fa.delayed_death_outcomes(chest)
    assert sum(p for _, p in dist) == 1
    rng = random.Random(9)
    counts = Counter(fa.resolve_delayed_death(chest, rng) for _ in range(10_000))
    observed = [counts.get(v, 0) for v, _ in dist]
    assert sum(observed) == 10_000
    assert stats.chisquare(observed, [float(p) * 10_000 for _, p in dist]).pvalue > 1e-4
    with pytest.raises(ValueError, match="not a delayed death"):
        fa.delayed_death_seconds(fa.ShotEffect("winded"), 3)


def test_disarm():
    """The target keeps hold only if its Strength margin beats the attacker's margin."""
    assert fa.disarm_kept(FaeCheck(True, 21, False), 20)
    assert not fa.disarm_kept(FaeCheck(True, 20, False), 20)
    assert not fa.disarm_kept(FaeCheck(False, 0, False), 0)


def test_acrobatic_dodge_modes():
    """Acrobatics margin adds to the dodge chance (default) or margin; failure: no dodge."""
    acro = FaeCheck(True, 15, False)
    assert fa.acrobatic_dodge(40, FaeCheck(False, 0, False), 10) is None
    assert fa.acrobatic_dodge(40, acro, 50) == FaeCheck(True, 5, False)
    to_margin = FaeOptions(acrobatic_bonus="to_margin")
    assert fa.acrobatic_dodge(40, acro, 50, to_margin) == FaeCheck(False, 0, False)
    assert fa.acrobatic_dodge(40, acro, 10, to_margin) == FaeCheck(True, 45, False)
    assert fa.acrobatic_dodge_move(30) == (30, 15)


@given(
    base=st.integers(0, 300),
    margin=st.integers(-50, 200),
    dodge=st.integers(0, 100),
    armour=st.integers(0, 100),
)
def test_damage_sequence_never_negative(base, margin, dodge, armour):
    """Inflicted damage is never negative nor more than the raw damage."""
    res = fa.damage_sequence(base, margin, fa.Defences(dodge_margin=dodge, armour_dr=armour))
    assert 0 <= res.inflicted <= res.damage


def test_aim_lost_and_unarmed_block():
    """Aim survives only aiming, attacking or holding; an unarmed block uses Agility as DR."""
    assert fa.aim_kept("take_aim")
    assert fa.aim_kept("attack")
    assert not fa.aim_kept("move")
    assert not fa.aim_kept("speak")
    assert fa.unarmed_block_dr(55) == 55
    assert fa.block_bonus(50, fa.unarmed_block_dr(55)) == 28
