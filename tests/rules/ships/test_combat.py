"""Spelljammer combat: initiative, attacks vs AC, hull points, small arms, break-up, debris."""

import random
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats

from fadad_agents.rules.ships import combat as cb
from fadad_agents.rules.ships import effects as fx


def _chi_square_p(samples, dist):
    counts = Counter(samples)
    n = len(samples)
    observed = [counts.get(v, 0) for v, _ in dist]
    assert sum(observed) == n, "sampler produced an outcome outside its distribution"
    return stats.chisquare(observed, [float(p) * n for _, p in dist]).pvalue


def test_ex_sj_06_spell_and_small_arms_damage_to_hulls():
    """EX-SJ-06: a 30-point fireball = 3 hull points; 20 arrows for 60 points scattered = 0;
    an axe doing 10 points to one spot = 1."""
    assert cb.hull_points_from_spell(30) == 3
    assert cb.hull_points_from_spot_damage([3] * 20) == 0
    assert cb.hull_points_from_spot_damage([10]) == 1
    total, hull = cb.spot_damage(0, 10)
    assert (total, hull) == (10, 1)


def test_spot_damage_accumulates_at_one_spot():
    """Chopping one spot: 6 + 6 points = 12 at that spot -> 1 hull point, 20 -> 2."""
    total, hull = cb.spot_damage(6, 6)
    assert (total, hull) == (12, 1)
    assert cb.spot_damage(total, 8) == (20, 2)


def test_ex_sj_11_breaking_up():
    """EX-SJ-11: a 25-ton ship at 0 hull points leaves 3d6 large pieces (25/10 rounded up)."""
    assert cb.debris_dice(25) == 3
    dist = cb.debris_outcomes(25)
    assert dist == cb.Dice(3, 6).outcomes()
    assert (dist[0], dist[-1]) == ((3, Fraction(1, 216)), (18, Fraction(1, 216)))
    assert cb.debris_dice(10) == 1
    assert cb.debris_dice(11) == 2


def test_debris_sampler_matches_distribution():
    """roll_debris passes chi-square against debris_outcomes."""
    rng = random.Random(3)
    samples = [cb.roll_debris(25, rng) for _ in range(30_000)]
    assert _chi_square_p(samples, cb.debris_outcomes(25)) > 1e-4


def test_ex_sj_13_critical_at_half_hull_points():
    """EX-SJ-13: a 30-hp ship at 16 hp (14 damage) takes 2 more -> 16 > 15 -> immediate crit."""
    result = cb.apply_hull_damage(30, 14, 2)
    assert result == cb.HullDamage(damage=16, hull_left=14, half_crossed=True, broken_up=False)
    assert not cb.apply_hull_damage(30, 14, 1).half_crossed  # exactly half is not past it
    assert not cb.apply_hull_damage(30, 16, 2).half_crossed  # once, on crossing
    assert cb.apply_hull_damage(30, 16, 2, repeat=True).half_crossed


def test_zero_hull_points_breaks_up():
    """At 0 hull points the ship breaks up; damage never exceeds the hull."""
    result = cb.apply_hull_damage(20, 15, 9)
    assert (result.damage, result.hull_left, result.broken_up) == (20, 0, True)


def test_initiative_is_uniform_over_rankings():
    """A-47: 1d20 a side, ties rerolled: every ranking of three sides equally likely."""
    sides = ("a", "b", "c")
    dist = cb.initiative_order_outcomes(sides)
    assert len(dist) == 6
    assert sum(p for _, p in dist) == 1
    rng = random.Random(47)
    samples = [tuple(cb.roll_side_initiative(sides, rng)) for _ in range(30_000)]
    assert _chi_square_p(samples, dist) > 1e-4


def test_movement_order_first_or_last():
    """Winner picks first or last; the second-best second or second-to-last."""
    assert cb.movement_order(["a", "b"], ["last", "first"]) == ["b", "a"]
    assert cb.movement_order(["a", "b", "c"], ["first", "last", "first"]) == ["a", "c", "b"]
    with pytest.raises(cb.CombatError, match="first"):
        cb.movement_order(["a"], ["middle"])  # type: ignore[list-item]


def test_turn_sequence_is_data():
    """The turn of section 3 runs declarations, then initiative, then movement and fire."""
    names = [p.name for p in cb.TURN_SEQUENCE]
    assert (
        names.index("declarations") < names.index("initiative") < names.index("movement_and_fire")
    )


@pytest.mark.parametrize(("bonus", "ac", "crit_from"), [(0, 10, 20), (5, 30, 19), (10, 5, None)])
def test_attack_sampler_matches_distribution(bonus, ac, crit_from):
    """resolve_attack's (hit, critical) passes chi-square against attack_outcomes."""
    dist = cb.attack_outcomes(bonus, ac, crit_from)
    assert sum(p for _, p in dist) == 1
    rng = random.Random(bonus * 100 + ac)
    samples = []
    for _ in range(20_000):
        r = cb.resolve_attack(bonus, ac, rng, crit_from)
        samples.append((r.hit, r.critical))
    assert _chi_square_p(samples, dist) > 1e-4


def test_natural_20_and_1():
    """A natural 20 always hits and crits; a natural 1 always misses; crits need a hit."""
    d = dict(cb.attack_outcomes(0, 40))
    assert d == {(False, False): Fraction(19, 20), (True, True): Fraction(1, 20)}
    d = dict(cb.attack_outcomes(50, 2))
    assert d[(False, False)] == Fraction(1, 20)
    # Poorly maintained (19-20) against AC 10 with +0: 19 and 20 both hit and crit.
    assert dict(cb.attack_outcomes(0, 10, 19))[(True, True)] == Fraction(2, 20)


def test_weapons_and_crew():
    """Catapults cannot fire into their own hex; nobody fires while moving; crew AC bonus."""
    assert not cb.can_fire_at("Catapult, heavy", same_hex=True)
    assert cb.can_fire_at("ballista", same_hex=True)
    assert not cb.can_fire_at("ballista", same_hex=False, ship_moving=True)
    assert cb.crewman_ac(12, 15, ship_has_initiative=True) == 13
    assert cb.crewman_ac(12, 15, ship_has_initiative=False) == 12
    assert cb.crewman_ac(16, 15, ship_has_initiative=True) == 16
    assert cb.stray_hull_damage(7) == 1
    assert cb.hand_missile_range(in_contact=False) == "medium"
    assert cb.field_of_fire_bonus(True, True, True) == 2
    assert cb.field_of_fire_bonus(True, False, False) is None
    assert cb.massive_damage_save(50, killed=False) == 15
    assert cb.massive_damage_save(49, killed=False) is None


def test_debris_hazard_by_speed():
    """Section 7.2: 1 hex safe, 2-3 small, 4-5 medium, 6+ large jettison."""
    assert [cb.debris_hazard(h) for h in (1, 2, 3, 4, 5, 6)] == [
        None,
        "small",
        "small",
        "medium",
        "medium",
        "large",
    ]


@given(st.integers(0, 5), st.integers(1, 8), st.integers(-3, 3))
def test_dice_outcomes_sum_to_one(count, sides, bonus):
    """Dice distributions are exact and span count+bonus .. count*sides+bonus."""
    dist = cb.Dice(count, sides, bonus).outcomes()
    assert sum(p for _, p in dist) == 1
    assert dist[0][0] == count + bonus
    assert dist[-1][0] == count * sides + bonus


def test_spells_against_ships():
    """Section 8.1: 30-point fireball = 3 hull points and a fire; disintegrate holes the hull;
    dispel magic stops the helm for one round; warp wood does no hull damage."""
    assert cb.spell_hull_effects("damage", 30, ignites=True) == (3, (fx.Fire(),))
    assert cb.spell_hull_effects("damage", 30, ignites=True, fire_possible=False) == (3, ())
    assert cb.spell_hull_effects("disintegrate") == (0, (fx.HullHoled(),))
    assert cb.spell_hull_effects("dispel_magic_helm") == (0, (fx.HelmMalfunction(1, 6),))
    assert cb.spell_hull_effects("warp_wood") == (0, ())
    with pytest.raises(cb.CombatError, match="unknown ship spell"):
        cb.spell_hull_effects("wish")  # type: ignore[arg-type]


def test_spell_range_to_ships():
    """Same hex: range over 150 ft, or shorter when within 150 ft (grappled)."""
    assert cb.spell_can_target_ship(160, 0)
    assert not cb.spell_can_target_ship(150, 0)
    assert cb.spell_can_target_ship(30, 0, within_150_ft=True)
    assert cb.spell_can_target_ship(300, 2)
    assert not cb.spell_can_target_ship(300, 3)
    # On 500-yard hexes (1,500 ft) the same counting scales with the map.
    assert cb.spell_can_target_ship(1500, 1, hex_feet=1500)
    assert not cb.spell_can_target_ship(1500, 0, hex_feet=1500)
    assert not cb.spell_can_target_ship(2000, 2, hex_feet=1500)


def test_dice_parse_scenario_text():
    """Dice parse as the ship-weapon schema writes them; bad text is a ValueError."""
    assert cb.Dice.parse("4d6") == cb.Dice(4, 6)
    assert cb.Dice.parse("1d10-2") == cb.Dice(1, 10, -2)
    assert cb.Dice.parse("5").outcomes() == [(5, Fraction(1))]
    with pytest.raises(cb.CombatError, match="NdS"):
        cb.Dice.parse("d6")
