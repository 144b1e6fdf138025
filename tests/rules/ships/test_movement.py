"""Spelljammer movement: take-off, long range, tactical movement points and facing."""

import random
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from fadad_agents.rules.ships import movement as mv
from fadad_agents.rules.ships.movement import ManeuverClass as MC
from fadad_agents.rules.ships.options import SjOptions


def test_ex_sj_09_movement_points():
    """EX-SJ-09: SR 3 Average: move-turn-move (+ free end turn), three straight, two and a turn."""
    for plan in ("FLF", "FLFR", "FFF", "FFL", "FRFL"):
        mv.check_move(plan, sr=3, mc=MC.AVERAGE)
    assert mv.move_cost("FLF", MC.AVERAGE) == 3
    assert mv.move_cost("FLFR", MC.AVERAGE) == 3  # the last turn is free
    assert mv.move_cost("FFF", MC.AVERAGE) == 3
    assert mv.move_cost("FFR", MC.AVERAGE) == 2
    with pytest.raises(mv.IllegalMoveError, match="costs 4 SR"):
        mv.check_move("FFLF", sr=3, mc=MC.AVERAGE)


def test_ex_sj_12_gravity_well_in_a_storm():
    """EX-SJ-12: size class D (3 rounds) in a storm (x4) = 12 rounds, after 1d8 warm-up."""
    assert mv.gravity_well_rounds("D", "storm") == 12
    dist = mv.take_off_outcomes("D", "storm", from_surface=True)
    assert dist == [(12 + w, Fraction(1, 8)) for w in range(1, 9)]
    assert mv.take_off_outcomes("D", "storm", from_surface=False) == [(12, Fraction(1))]
    assert mv.needs_helm_warmup("D")
    assert not mv.needs_helm_warmup(None)


def test_take_off_sampler_matches_distribution():
    """The take-off sampler (1d8 warm-up + climb) passes chi-square against its distribution."""
    rng = random.Random(5)
    dist = mv.take_off_outcomes("A", "gale", from_surface=True)
    samples = Counter(mv.roll_take_off("A", "gale", True, rng) for _ in range(16_000))
    observed = [samples[v] for v, _ in dist]
    assert sum(observed) == 16_000
    assert stats.chisquare(observed, [float(p) * 16_000 for _, p in dist]).pvalue > 1e-4


def test_body_size_table_and_weather():
    """Gravity-well rounds A..J and weather factors; a hurricane forbids take-off."""
    assert [mv.gravity_well_rounds(c) for c in "ABCDEFGHIJ"] == [1, 2, 2, 3, 4, 6, 12, 24, 48, 96]
    assert mv.gravity_well_rounds("B", "rain_or_snow") == 4
    assert mv.gravity_well_rounds("J", "becalmed") == 96
    with pytest.raises(mv.MovementError, match="hurricane"):
        mv.gravity_well_rounds("A", "hurricane")
    with pytest.raises(mv.MovementError, match=r"A\.\.J"):
        mv.gravity_well_rounds("K")


def test_long_range_speeds_a_45():
    """A-45: 100 ft + 50 ft per 2 SR (min 50) in atmosphere; 8.5 mph and 200 miles/day per SR."""
    assert [mv.atmosphere_ft_per_round(s) for s in (0, 1, 2, 3, 4)] == [100, 100, 150, 150, 200]
    assert mv.travel_mph(2) == 17
    assert mv.miles_per_day(2) == 400


def test_mc_letters_c_05():
    """C-05: A=Perfect, B=Good, C=Average, D/E/F=Poor; FADAD Great=A ... Terrible=F."""
    assert [mv.class_from_letter(c) for c in "ABCDEF"] == [
        MC.PERFECT,
        MC.GOOD,
        MC.AVERAGE,
        MC.POOR,
        MC.POOR,
        MC.POOR,
    ]
    assert [mv.letter_from_ladder(v) for v in (2, 1, 0, -1, -2, -3)] == list("ABCDEF")
    assert mv.letter_from_ladder(3) == "A"
    assert mv.letter_from_ladder(-5) == "F"
    with pytest.raises(mv.MovementError, match="A, B, C"):
        mv.class_from_letter("G")


def test_poor_cannot_turn_first():
    """A Poor ship must move into the faced hex before turning."""
    with pytest.raises(mv.IllegalMoveError, match="Poor"):
        mv.check_move("LF", sr=3, mc=MC.POOR)
    mv.check_move("FLF", sr=3, mc=MC.POOR)
    mv.check_move("LF", sr=3, mc=MC.AVERAGE)


def test_turns_per_hex_by_class():
    """Average turns one side a hex, Good two, Perfect any number at no SR cost."""
    with pytest.raises(mv.IllegalMoveError, match="at most 1"):
        mv.check_move("FLLF", sr=5, mc=MC.AVERAGE)
    mv.check_move("FLLF", sr=5, mc=MC.GOOD)
    with pytest.raises(mv.IllegalMoveError, match="at most 2"):
        mv.check_move("FRRRF", sr=6, mc=MC.GOOD)
    mv.check_move("RRRFRRRF", sr=2, mc=MC.PERFECT)
    assert mv.move_cost("RRRFRRRF", MC.PERFECT) == 2


def test_free_turn_and_hex_limit_option_a_61():
    """A-61 option: the free end turn counts toward the per-hex limit by default."""
    assert SjOptions().free_turn_counts_toward_hex_limit is True
    with pytest.raises(mv.IllegalMoveError):
        mv.check_move("FLL", sr=3, mc=MC.AVERAGE)  # FLL: two sides in one hex
    mv.check_move("FLL", sr=3, mc=MC.AVERAGE, free_turn_counts=False)


def test_downgrade_and_airborne():
    """MC never drops below Poor; Poor counts as Average airborne."""
    assert mv.downgrade(MC.GOOD, 1) == MC.AVERAGE
    assert mv.downgrade(MC.AVERAGE, 3) == MC.POOR
    assert mv.airborne_class(MC.POOR) == MC.AVERAGE
    assert mv.airborne_class(MC.GOOD) == MC.GOOD
    assert mv.speed_after_loss(3, 5) == 1


def test_final_facing_and_hexes():
    """Facing turns clockwise with R; F steps count hexes."""
    assert mv.final_facing(0, "FLF") == 5
    assert mv.final_facing(4, "RRF") == 0
    assert mv.hexes_moved("FLFRF") == 3


@settings(deadline=None)  # the enumeration takes 0.1-0.3 s on a loaded machine: no timer
@given(st.integers(0, 4), st.sampled_from(list(MC)))
def test_legal_moves_are_legal_and_within_budget(sr, mc):
    """Every generated plan passes check_move and costs no more than SR; better classes
    have at least as many plans."""
    plans = list(mv.legal_moves(sr, mc))
    assert "" in plans
    for plan in plans:
        mv.check_move(plan, sr, mc)
        assert mv.move_cost(plan, mc) <= sr
        assert mv.hexes_moved(plan) <= sr
    if mc < MC.PERFECT:
        assert set(plans) <= set(mv.legal_moves(sr, MC(mc + 1)))


def test_ship_at_sr_zero_cannot_maneuver():
    """A drifting ship (SR 0) neither moves nor turns; only the empty plan is legal."""
    with pytest.raises(mv.IllegalMoveError, match="SR 0"):
        mv.check_move("L", sr=0, mc=MC.PERFECT)
    assert list(mv.legal_moves(0, MC.AVERAGE)) == [""]
