"""Fae Domains special combat: charge, throwing, holds, pursuit, flight, mounts, water."""

from fractions import Fraction

import pytest

from fadad_agents.rules.fae import special as fs
from fadad_agents.rules.fae.checks import FaeCheck
from fadad_agents.rules.fae.options import FaeOptions

WIN = FaeCheck(True, 30, False)
FAIL = FaeCheck(False, 0, False)


def test_charge_and_swoop_bonus():
    """A charge (or swoop) adds half the attacker's Size to Base Damage, only after a Run."""
    assert fs.charge_bonus(50) == 25
    assert fs.charge_bonus(51) == 25
    assert fs.charged_base_damage(40, attacker_size=50, ran=True) == 65
    assert fs.charged_base_damage(40, attacker_size=50, ran=False) == 40


def test_mounted_charge_a66():
    """A-66: +1/2 (rider + mount Size) by default; option: half rider + whole mount."""
    assert fs.charge_bonus(50, mount_size=150) == 100
    alt = FaeOptions(mounted_charge="half_rider_plus_mount")
    assert fs.charge_bonus(50, mount_size=150, options=alt) == 175


def test_multiple_attacks_divide_skill():
    """Two readied weapons: each skill divided by the number of attacks."""
    assert fs.multiple_attack_skills([60, 45]) == [30, 22]
    assert fs.multiple_attack_skills([60]) == [60]
    with pytest.raises(ValueError, match="readied weapons"):
        fs.multiple_attack_skills([50, 50, 50])
    assert fs.multiple_attack_skills([60, 60, 60], max_weapons=4) == [20, 20, 20]


def test_thrown_range_and_damage():
    """Max range = STR / (2 x weight) yd (= STR / (6 x Size)); rating 10 yd; chair = Size."""
    assert fs.thrown_max_range(60, weight=2) == 15
    assert fs.thrown_max_range(60, size=2) == 5
    assert fs.thrown_max_range(50, weight=3) == Fraction(25, 3)
    assert fs.thrown_range_penalty(14, Fraction(15)) == -5
    assert fs.thrown_range_penalty(16, Fraction(15)) is None
    assert fs.object_base_damage(size=12) == 12
    assert fs.object_base_damage(weight=30) == 10
    assert fs.object_base_damage(weight=31) == 10
    with pytest.raises(ValueError, match="weight"):
        fs.thrown_max_range(60)


@pytest.mark.parametrize(
    ("target", "holder", "outcome"),
    [
        (FaeCheck(True, 10, False), FaeCheck(True, 10, False), "held"),
        (FaeCheck(True, 15, False), FaeCheck(True, 10, False), "broken"),
        (FaeCheck(True, 20, False), FaeCheck(True, 10, False), "reversed"),
        (FAIL, FaeCheck(True, 10, False), "held"),
        (FaeCheck(True, 0, False), FAIL, "reversed"),
        (FAIL, FAIL, "held"),
    ],
)
def test_break_hold(target, holder, outcome):
    """Higher margin wins (ties hold); twice the holder's margin reverses the hold."""
    assert fs.break_hold(target, holder) == outcome


def test_hold_numbers():
    """Holds: STR/2 damage per full action, holder +25 to keep it, +10 against breaks."""
    assert fs.hold_damage(63) == 31
    assert fs.HOLD_ATTACK_BONUS == 25
    assert fs.HOLDER_BREAK_BONUS == 10
    assert fs.held_move_rate(20, leg_held=True) == 10
    assert fs.held_move_rate(20, leg_held=False) == 20
    assert fs.dragging_load(40, 150) == 190


def test_pursuit():
    """distance = (winner margin - loser margin)% x winner's Move Rate; failures count 0."""
    assert fs.pursuit_gap(40, 15, 30) == 8
    res = fs.resolve_pursuit(FaeCheck(True, 40, False), FaeCheck(True, 15, False), 30, 20)
    assert res == fs.PursuitResult("a", 8)
    res = fs.resolve_pursuit(FAIL, FaeCheck(True, 50, False), 30, 20)
    assert res == fs.PursuitResult("b", 10)
    assert fs.resolve_pursuit(FAIL, FAIL, 30, 20) == fs.PursuitResult(None, 0)
    assert fs.PURSUIT_SKILLS["flying"] == ("Aerobatics",)


def test_glide_loses_altitude_and_caps_next_glide():
    """Glide up to Fly MR, -1 yd per 3 yd; a short glide caps the next one."""
    s = fs.FlightState(altitude=100)
    s = fs.glide(s, 30, fly_mr=30)
    assert (s.altitude, s.speed, s.glide_cap) == (90, 30, None)
    s = fs.glide(s, 20, fly_mr=30)
    assert (s.altitude, s.glide_cap) == (84, 20)
    with pytest.raises(ValueError, match="glide of 25"):
        fs.glide(s, 25, fly_mr=30)
    s = fs.fly(s, 30, fly_mr=30)
    assert s.glide_cap is None
    assert s.altitude == 84


def test_dive_then_long_glide():
    """After a dive a glide may reach 1.5 x MR and may keep its altitude; level out at +30."""
    s = fs.dive(fs.FlightState(altitude=100), 40)
    assert s.altitude == 60
    assert s.after_dive
    s = fs.glide(s, 45, fly_mr=30, keep_altitude=True)
    assert (s.altitude, s.speed) == (60, 45)
    with pytest.raises(ValueError, match="only a glide right after a dive"):
        fs.glide(s, 10, fly_mr=30, keep_altitude=True)
    assert fs.DIVE_LEVEL_OUT_BONUS == 30


def test_climb_limits():
    """Climb up to 1/2 Fly MR up and 4/5 Fly MR across."""
    s = fs.climb(fs.FlightState(altitude=10), up=15, horizontal=24, fly_mr=30)
    assert (s.altitude, s.speed) == (25, 24)
    with pytest.raises(ValueError, match="climb"):
        fs.climb(s, up=16, horizontal=0, fly_mr=30)
    with pytest.raises(ValueError, match="dive"):
        fs.dive(fs.FlightState(altitude=5), 6)


def test_mount_obeys_on_its_next_action():
    """A command (free action) is carried out at the mount's next action at or after it."""
    assert fs.mount_action_margin([70, 45, 20], command_margin=50) == 45
    assert fs.mount_action_margin([70, 45, 20], command_margin=45) == 45
    assert fs.mount_action_margin([70], command_margin=50) is None


def test_underwater():
    """Underwater: melee at half skill; dodge = mean of Dodge and Swim; missiles nearly useless."""
    assert fs.underwater_melee_skill(61) == 30
    assert fs.underwater_dodge_skill(40, 25) == 33
    assert fs.underwater_missile_skill(60) == 6
    assert fs.underwater_missile_skill(60, FaeOptions(underwater_missile_divisor=0)) is None


def test_maintain_hold():
    """A successful holder test (at +25) deals STR / 2; a failure breaks the hold."""
    assert fs.maintain_hold(WIN, 63) == 31
    assert fs.maintain_hold(FAIL, 63) is None


def test_end_of_turn_glide():
    """No flight action: the flyer glides straight ahead as far as it may at turn end."""
    s = fs.end_of_turn_glide(fs.FlightState(altitude=50, glide_cap=12), fly_mr=30)
    assert (s.altitude, s.speed, s.glide_cap) == (46, 12, 12)
    s = fs.end_of_turn_glide(fs.FlightState(altitude=50), fly_mr=30)
    assert (s.altitude, s.speed) == (40, 30)
