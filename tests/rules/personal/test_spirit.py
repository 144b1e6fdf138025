"""Spirit combat damage (personal-combat.md section 8; A-13)."""

import doctest
import random
from collections import Counter

import pytest
from scipy import stats

from fadad_agents.rules.core.wounds import Wound, wound_for_damage
from fadad_agents.rules.options import RulesOptions
from fadad_agents.rules.personal import spirit
from fadad_agents.rules.personal.spirit import SpiritError, spirit_damage, spirit_damage_resistance


def test_ex_pc_10_spirit_damage_no_crit():
    """EX-PC-10: +2 sword, Wisdom Good (+1), DR 0 (+1 needed), dice +1: 4 -> Hurt."""
    dr = spirit_damage_resistance(1)
    assert dr == 0
    damage = spirit_damage(2, 1, 1, damage_resistance=dr)
    assert damage == 4
    assert wound_for_damage(damage) == Wound.HURT


def test_ex_pc_10_spirit_damage_with_crit():
    """EX-PC-10: with one crit the plus is added again: 6 -> Very Hurt."""
    damage = spirit_damage(2, 1, 1, crits=1, damage_resistance=spirit_damage_resistance(1))
    assert damage == 6
    assert wound_for_damage(damage) == Wound.VERY_HURT


def test_ex_pc_10_unarmed_plus():
    """EX-PC-10: an unarmed attacker with Potential 7 has a plus of floor(7/3) = 2."""
    assert spirit.unarmed_plus(7) == 2
    assert [spirit.unarmed_plus(p) for p in (0, 2, 3, 9)] == [0, 0, 1, 3]
    with pytest.raises(SpiritError, match=">= 0"):
        spirit.unarmed_plus(-1)


def test_rd_is_not_added_and_dr_is_plus_needed_minus_one():
    """DR = plus needed - 1 (+ AC extra); damage has no RD input at all."""
    assert spirit_damage_resistance(3) == 2
    assert spirit_damage_resistance(3, armour_class_extra=1) == 3
    assert spirit_damage(3, 0, 0, damage_resistance=2) == 1
    assert spirit.can_hit(2, 2)
    assert not spirit.can_hit(1, 2)
    with pytest.raises(SpiritError, match=r"\+1 weapon"):
        spirit_damage_resistance(0)


def test_crit_plus_option():
    """A-13: two crits add the plus once (default) or twice (per_crit)."""
    default = RulesOptions().fadad.spirit_crit_plus
    assert spirit_damage(2, 0, 0, crits=2, crit_plus=default) == 4
    assert spirit_damage(2, 0, 0, crits=2, crit_plus="per_crit") == 6
    with pytest.raises(SpiritError, match="per_crit"):
        spirit_damage(2, 0, 0, crits=1, crit_plus="always")


def test_negative_cap_option():
    """A-13: a negative total before the dice leaves at most 1, unless the cap is off."""
    assert spirit_damage(1, -2, 4, damage_resistance=1) == 1
    assert spirit_damage(1, -2, 4, damage_resistance=1, negative_cap=False) == 2
    assert spirit_damage(1, 0, 4, damage_resistance=1) == 4


def test_sampler_matches_exact_distribution():
    """roll_spirit_damage passes chi-square against spirit_damage_outcomes; sums to 1."""
    dist = spirit.spirit_damage_outcomes(2, 1, damage_resistance=1)
    assert sum(p for _, p in dist) == 1
    rng = random.Random(4)
    n = 20_000
    counts = Counter(spirit.roll_spirit_damage(2, 1, rng, damage_resistance=1)[0] for _ in range(n))
    assert set(counts) <= {v for v, _ in dist}
    observed = [counts[v] for v, _ in dist]
    expected = [float(p) * n for _, p in dist]
    assert stats.chisquare(observed, expected).pvalue > 1e-4


def test_docstring_examples_run():
    """The module's doctest examples hold."""
    result = doctest.testmod(spirit)
    assert (result.failed, result.attempted > 0) == (0, True)
