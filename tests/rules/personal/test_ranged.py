"""Ranged and widespread attacks (personal-combat.md sections 6-7; A-02, A-11, A-14)."""

import doctest
import math
import random
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats

from fadad_agents.rules.core.actions import opposed, rolled_degree, unopposed
from fadad_agents.rules.options import RulesOptions
from fadad_agents.rules.personal import ranged
from fadad_agents.rules.personal.melee import scale_target
from fadad_agents.rules.personal.ranged import RangedError


def test_ex_pc_08_fireball_vs_armada():
    """EX-PC-08: fireball 33,510 cu ft is volume scale 23; Armada DDM 24/3 + (28-23) + 1 = 14."""
    fireball = ranged.volume_scale(33_510)
    assert fireball == 23
    assert ranged.widespread_scale(24) == 8
    ddm = ranged.widespread_ddm(24, armour=1, victim_volume_scale=28, attack_volume_scale=fireball)
    assert ddm == 14


def test_ex_pc_09_medium_range_unaware_shot():
    """EX-PC-09: DL = Terrible + 4 = Good; Bow Good concentrating (+2), dice -1 -> +2: hit."""
    dl = ranged.unaware_difficulty(scale_target(0, 0), "medium")
    assert dl == 1
    modifier = ranged.ranged_skill_modifier(concentrating=True)
    assert modifier == 2
    assert rolled_degree(1, -1, modifier) == 2
    assert unopposed(1, -1, dl, modifier) == (True, 1)


def test_ex_pc_09_extreme_range_option():
    """EX-PC-09: Extreme range Target is +4 (Legendary) by default, +5 with the literal option."""
    human = scale_target(0, 0)
    assert ranged.range_target(human, "extreme") == 4
    literal = RulesOptions.from_flat({"range.extreme_literal": True}).range.extreme_literal
    assert ranged.range_target(human, "extreme", extreme_literal=literal) == 5


def test_printed_typical_targets():
    """A human-sized target: Terrible, Mediocre, Fair, Good, Great at melee .. long range."""
    targets = [ranged.range_target(-3, b) for b in ranged.RANGE_BANDS[:-1]]
    assert targets == [-3, -1, 0, 1, 2]
    with pytest.raises(ValueError, match="point_blank"):
        ranged.range_target(-3, "orbit")


def test_aware_target_is_the_range_difficulty():
    """A-14: against an aware defender the range DL is the Target of the opposed roll."""
    target = ranged.aware_target(-3, "short", conditions=1)
    assert target == ranged.unaware_difficulty(-3, "short", conditions=1) == 1
    # A good dodge beats the shot; a poor one leaves the Target as the opposition.
    assert opposed(2, 3, target).rd == -1
    assert opposed(2, -2, target).rd == 1


def test_projectile_penalties_spare_shield_blocks():
    """Fast projectiles penalise every defence except a shield block."""
    assert ranged.projectile_defence_penalty("hand", "dodge") == -1
    assert ranged.projectile_defence_penalty("mechanical", "parry") == -2
    assert ranged.projectile_defence_penalty("too_fast", "dodge") == -3
    assert ranged.projectile_defence_penalty("too_fast", "shield_block") == 0
    with pytest.raises(RangedError, match="mechanical"):
        ranged.projectile_defence_penalty("laser", "dodge")


def test_readying_table_and_rate_of_fire():
    """Bow and sling ready in 1 (one shot a round); crossbows 2 and 3; a placed dagger 0."""
    table = {w: ranged.ready_actions(w) for w in ranged.READY_ACTIONS}
    assert table == {
        "throwing_dagger": 1,
        "sling": 1,
        "bow": 1,
        "light_crossbow": 2,
        "heavy_crossbow": 3,
    }
    assert ranged.ready_actions("throwing_dagger", conveniently_placed=True) == 0
    assert ranged.shots_per_round("bow") == 1
    assert ranged.shots_per_round("heavy_crossbow") == ranged.shots_per_round("bow") / 2
    assert ranged.shots_per_round("throwing_dagger", conveniently_placed=True) == 2
    assert ranged.readying_dexterity_dl(3) == 1
    assert ranged.readying_dexterity_dl(2) is None


def test_widespread_damages_on_terrible_even_with_negative_rd():
    """Placed at Terrible or better, a widespread attack damages even with RD < 0."""
    result = ranged.widespread(-3, 0, -3)
    assert result.result.rd == -3
    assert result.damages
    assert not ranged.widespread(-4, None, -3).damages
    trapped = ranged.widespread(0, None, -3)
    assert trapped.result.defence_rolled is None
    assert trapped.result.rd == 3


def test_widespread_sampler_matches_exact_distribution():
    """roll_widespread passes chi-square against widespread_outcomes; sums to 1."""
    dist = ranged.widespread_outcomes(-2, 0, -3)
    assert sum(p for _, p in dist) == 1
    damage_p = {True: 0.0, False: 0.0}
    for w, p in dist:
        damage_p[w.damages] += float(p)
    rng = random.Random(11)
    n = 20_000
    counts = Counter(ranged.roll_widespread(-2, 0, -3, rng).damages for _ in range(n))
    observed = [counts[True], counts[False]]
    expected = [damage_p[True] * n, damage_p[False] * n]
    assert stats.chisquare(observed, expected).pvalue > 1e-4


def test_scale_rounding_options():
    """A-11: Scale / 3 toward zero by default; floor and nearest on request."""
    assert [ranged.widespread_scale(s) for s in (-5, -3, -2, 2, 5)] == [-1, -1, 0, 0, 1]
    assert ranged.widespread_scale(-5, "floor") == -2
    assert ranged.widespread_scale(5, "nearest") == 2
    assert ranged.volume_scale(3.09) == 0
    assert ranged.volume_scale(3.09 * 1.5**3.4, "ceil") == 4
    with pytest.raises(RangedError, match="positive"):
        ranged.volume_scale(0)
    with pytest.raises(RangedError, match="nearest"):
        ranged.widespread_scale(3, "bankers")


def test_small_victim_gets_no_volume_reduction():
    """Only a victim bigger than the area of effect subtracts the volume difference."""
    assert ranged.widespread_ddm(0, armour=2, victim_volume_scale=0, attack_volume_scale=23) == 2


@given(st.floats(min_value=0.01, max_value=1e12))
def test_volume_scale_is_log_base_1_5(volume):
    """Volume scale is the nearest step of 1.5x from 3.09 cubic feet."""
    exact = math.log(volume / 3.09) / math.log(1.5)
    assert abs(ranged.volume_scale(volume) - exact) <= 0.5 + 1e-9


def test_docstring_examples_run():
    """The module's doctest examples hold."""
    result = doctest.testmod(ranged)
    assert (result.failed, result.attempted > 0) == (0, True)
