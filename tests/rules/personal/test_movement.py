"""Personal movement rates and actions (personal-combat.md section 5; C-17, C-19)."""

import doctest
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fadad_agents.rules.personal import movement
from fadad_agents.rules.personal.movement import MovementError


@pytest.mark.parametrize(
    ("gait", "yards", "mph"),
    [("walk", 8, 3), ("jog", 15, 5), ("run", 30, 10)],
)
def test_gait_rates_match_table(gait, yards, mph):
    """Walk 8 / jog 15 / run 30 yd per 6-s round, printed as 3 / 5 / 10 mph."""
    assert movement.YARDS_PER_ROUND[gait] == yards
    per_second = movement.yards_per_second(gait)
    assert per_second * movement.ROUND_SECONDS == yards
    assert round(movement.miles_per_hour(per_second)) == mph


def test_sr_one_is_fifty_yards_and_17_mph():
    """SR 1 = 50 yd per 6 s = 25 ft/s, about 17 mph (C-19)."""
    per_second = movement.sr_yards_per_second(1)
    assert per_second * 6 == 50
    assert per_second * 3 == 25  # feet per second
    assert round(movement.miles_per_hour(per_second)) == 17


def test_move_actions_allowance():
    """0 actions: up to 8 yd; 1 action: 15 yd; 2 actions: 30 yd; 3 is not allowed."""
    assert [movement.movement_allowance(n) for n in range(3)] == [8, 15, 30]
    with pytest.raises(MovementError, match=r"allowed 0\.\.2"):
        movement.movement_allowance(3)


def test_actions_needed_and_gait_for_distance():
    """The fewest actions covering a distance, and the gait they amount to."""
    assert [movement.move_actions_needed(y) for y in (0, 8, 9, 15, 16, 30)] == [0, 0, 1, 1, 2, 2]
    assert movement.gait_for_distance(Fraction(17, 2)) == "jog"
    assert movement.gait_for_distance(30) == "run"
    with pytest.raises(MovementError, match="exceeds"):
        movement.move_actions_needed(31)
    with pytest.raises(MovementError, match="negative"):
        movement.move_actions_needed(-1)


def test_speeds_convert_between_round_lengths():
    """C-17: a rate per 10-s Fae turn and one per 6-s round meet as yards per second."""
    fae_rate = movement.speed(25, 10)
    assert movement.yards_covered(fae_rate, 6) == 15
    assert movement.yards_covered(movement.yards_per_second("jog"), 30) == 75


def test_unknown_gait_and_bad_time_are_errors():
    """Unknown gaits and non-positive times are ValueErrors naming what is allowed."""
    with pytest.raises(ValueError, match="walk, jog, run"):
        movement.yards_per_second("gallop")
    with pytest.raises(MovementError, match="positive"):
        movement.speed(8, 0)


@given(st.integers(min_value=0, max_value=30))
def test_allowance_covers_the_distance(yards):
    """The actions returned always cover the distance, and one fewer never does."""
    n = movement.move_actions_needed(yards)
    assert yards <= movement.movement_allowance(n)
    assert n == 0 or yards > movement.movement_allowance(n - 1)


def test_docstring_examples_run():
    """The module's doctest examples hold."""
    result = doctest.testmod(movement)
    assert (result.failed, result.attempted > 0) == (0, True)
