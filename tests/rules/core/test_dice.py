"""Dice samplers against their exact distributions (dice-and-ladder.md section 2)."""

import math
import random
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from scipy import stats

from fadad_agents.rules.core import dice


def _chi_square_p(samples, dist):
    counts = Counter(samples)
    n = len(samples)
    observed = [counts.get(v, 0) for v, _ in dist]
    expected = [float(p) * n for _, p in dist]
    assert sum(observed) == n, "sampler produced an outcome outside its distribution"
    return stats.chisquare(observed, expected).pvalue


def test_4df_table_matches_published_counts():
    """4dF: 1, 4, 10, 16, 19, 16, 10, 4, 1 ways out of 81."""
    assert [p * 81 for _, p in dice.fudge_distribution(4)] == [1, 4, 10, 16, 19, 16, 10, 4, 1]
    assert dice.prob_at_least(dice.fudge_distribution(4), 1) == Fraction(31, 81)  # 38.27%


def test_6df_counts():
    """6dF: +-6:1, +-5:6, +-4:21, +-3:50, +-2:90, +-1:126, 0:141 of 729."""
    ways = {v: p * 729 for v, p in dice.fudge_distribution(6)}
    assert [ways[v] for v in range(0, 7)] == [141, 126, 90, 50, 21, 6, 1]
    assert all(ways[v] == ways[-v] for v in range(7))


@pytest.mark.parametrize(
    ("sampler", "dist"),
    [
        (dice.roll_4df, dice.fudge_distribution(4)),
        (dice.roll_1df, dice.fudge_distribution(1)),
        (dice.roll_6df, dice.fudge_distribution(6)),
        (lambda r: dice.roll_ndf(r, 3), dice.fudge_distribution(3)),
        (dice.roll_d20, dice.d20_distribution()),
        (dice.roll_d100, dice.d100_distribution()),
        (dice.roll_3d6, dice.three_d6_distribution()),
    ],
)
def test_sampler_matches_exact_distribution(sampler, dist):
    """Each sampler's empirical distribution passes chi-square against its exact one."""
    assert sum(p for _, p in dist) == 1
    rng = random.Random(20261130)
    samples = [sampler(rng) for _ in range(60_000)]
    assert _chi_square_p(samples, dist) > 1e-4


def test_min_mid_max_reads_middle_value():
    """Mid is the middle value: (2, 4, 4) -> Min 2, Mid 4, Max 4 (EX-WND-14)."""
    assert dice.min_mid_max((4, 2, 4)) == (2, 4, 4)
    assert dice.min_mid_max((5, 1, 3)) == (1, 3, 5)


def test_same_seed_same_rolls():
    """Two streams with the same seed give the same dice."""
    a, b = random.Random(5), random.Random(5)
    assert [dice.roll_4df(a) for _ in range(100)] == [dice.roll_4df(b) for _ in range(100)]


@given(st.floats(min_value=0.0, max_value=1.0, exclude_max=True), st.integers(1, 729))
@example(math.nextafter(1.0, 0.0), 81)
@example(0.0, 81)
def test_floor_index_is_int_index(draw, sides):
    """The samplers' ``floor(x * 81.0)`` picks the face ``int(x * 81)`` picked for every
    draw in [0, 1) (the same dice from the same stream, cheaper): likewise for any size."""
    assert math.floor(draw * float(sides)) == int(draw * sides)
    assert math.floor(draw * sides) == int(draw * sides)


def test_roll_ndf_rejects_negative():
    """A negative number of dice is an error, not an empty roll."""
    with pytest.raises(ValueError, match="cannot roll"):
        dice.roll_ndf(random.Random(1), -1)
