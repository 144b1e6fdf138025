"""Fire aboard ships: growth, firefighting and air fouling (section 7.3, C-08, A-58)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fadad_agents.rules.ships import fire
from fadad_agents.rules.ships.effects import Fire
from fadad_agents.rules.ships.fire import AirQuality as Air


def test_ex_sj_05_fire_fighting():
    """EX-SJ-05: a 3-point fire: 3 people put it out; 2 people: it does 3, drops to 1 at the
    end of the round and grows to 2 at the start of the next."""
    assert fire.burn_round(3, 3) == fire.FireRound(damage=0, out=True, value_after=0)
    r = fire.burn_round(3, 2)
    assert (r.damage, r.out, r.value_after) == (3, False, 1)
    assert fire.next_fire_value(r) == 2


def test_crit_fire_does_nothing_first_round_then_grows():
    """A crit fire does 0 the first round, then 1, 2, ... unless fought."""
    assert [r.damage for r in fire.burn_rounds(Fire(), [0, 0, 0, 0])] == [0, 1, 2, 3]
    # One firefighter puts out a 0-point fire at once.
    assert fire.burn_rounds(Fire(), [1]) == [fire.FireRound(0, True, 0)]


def test_wildfire_grows_by_one():
    """C-08 / EX-SHF-05: a 16-point wildfire burns 16, 17, 18 until put out."""
    assert [r.damage for r in fire.burn_rounds(Fire(points=16), [0, 0, 0])] == [16, 17, 18]


def test_out_fire_has_no_next_value():
    """Asking an extinguished fire for its next value is an error."""
    with pytest.raises(fire.FireError, match="out"):
        fire.next_fire_value(fire.burn_round(2, 5))


@given(st.integers(0, 40), st.integers(0, 40))
def test_more_firefighters_never_worse(value, k):
    """One more firefighter never raises damage or the value after the round."""
    a, b = fire.burn_round(value, k), fire.burn_round(value, k + 1)
    assert b.damage <= a.damage
    assert b.value_after <= a.value_after
    assert a.out == (k >= max(1, value))


def test_air_fouls_at_10_and_40_percent():
    """A-58: fire damage >= 10% of tonnage fouls the air, >= 40% makes it deadly."""
    assert [fire.air_fouling_steps(d, 50) for d in (4, 5, 19, 20)] == [0, 1, 1, 2]
    assert fire.air_after_fire(Air.FRESH, 0, 5, 50) == Air.FOULED
    assert fire.air_after_fire(Air.FRESH, 4, 25, 50) == Air.DEADLY
    assert fire.air_after_fire(Air.FOULED, 6, 8, 50) == Air.FOULED  # no new threshold
    assert fire.air_after_fire(Air.FOULED, 4, 5, 50) == Air.DEADLY
