"""Fae Domains tests, margins, Reaction and the action economy (fae-domains.md 1-2)."""

import math
import random
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats

from fadad_agents.rules.core.ladder import FAIR, GOOD, GREAT, MEDIOCRE, POOR, SUPERB, TERRIBLE
from fadad_agents.rules.fae import checks as fae
from fadad_agents.rules.fae.checks import FaeCheck, Initiative
from fadad_agents.rules.fae.options import FaeOptions
from fadad_agents.rules.options import RulesOptions


def test_ex_fae_03_modified_chance_of_success():
    """EX-FAE-03: Sword 25%, Strength 63 (+6), Luck 37 (+4) -> MCS 35%."""
    assert fae.attribute_modifier(63) == 6
    assert fae.attribute_modifier(37) == 4
    assert fae.modified_chance(25, attribute=63, luck=37) == 35


def test_mcs_minimum_and_unknown_skill():
    """An unknown skill has base 0; the MCS is never below 1%."""
    assert fae.modified_chance(0, attribute=50, luck=50) == 10
    assert fae.modified_chance(0, attribute=2, luck=3, situational=-60) == 1
    assert fae.attribute_modifier(45) == 5


def test_ex_fae_04_action_economy():
    """EX-FAE-04: 60 full -> acts at 60 and 10; 80 short -> 80, 55, 30, 5; fail 0; botch none."""
    assert fae.action_margins(60, ["full", "short", "short"]) == [60, 10]
    assert fae.max_actions(60, "full") == 2
    assert fae.action_margins(80, ["short"] * 6) == [80, 55, 30, 5]
    assert fae.max_actions(80, "short") == 4
    failed = fae.reaction_margin(FaeCheck(False, 0, False))
    assert failed == 0
    assert fae.action_margins(failed, ["full", "full"]) == [0]
    assert fae.reaction_margin(FaeCheck(False, 0, True)) is None


def test_free_actions_cost_nothing():
    """Free actions ride along: they do not lower the margin."""
    assert fae.action_margins(30, ["free", "short", "short"]) == [30, 30, 5]
    assert fae.next_margin(30, "full") is None
    assert fae.next_margin(30, "short") == 5


def test_check_result_margin_and_botch():
    """Success iff roll <= MCS; margin = MCS - roll; a 100 botches by default (A-62)."""
    assert fae.check_result(35, 10) == FaeCheck(True, 25, False)
    assert fae.check_result(35, 35) == FaeCheck(True, 0, False)
    assert fae.check_result(35, 36) == FaeCheck(False, 0, False)
    assert fae.check_result(150, 100) == FaeCheck(False, 0, True)
    assert fae.check_result(150, 100, FaeOptions(botch_range=101)) == FaeCheck(True, 50, False)
    assert fae.check_result(35, 10, FaeOptions(margin_mode="roll")).margin == 10


def test_bad_roll_rejected():
    """A d100 roll outside 1..100 is an error."""
    with pytest.raises(ValueError, match=r"1\.\.100"):
        fae.check_result(50, 0)


def test_check_outcomes_exact():
    """MCS 35: 35% success with margins 0..34 at 1% each; botch 1%; failure 64%."""
    dist = dict(fae.check_outcomes(35))
    assert sum(dist.values()) == 1
    assert fae.success_probability(35) == Fraction(35, 100)
    assert dist[FaeCheck(False, 0, True)] == Fraction(1, 100)
    assert dist[FaeCheck(False, 0, False)] == Fraction(64, 100)
    assert fae.success_probability(120) == Fraction(99, 100)
    assert fae.success_probability(120, FaeOptions(botch_range=96)) == Fraction(95, 100)


@pytest.mark.parametrize("opts", [FaeOptions(), FaeOptions(botch_range=96, margin_mode="roll")])
def test_resolve_check_matches_exact(opts):
    """The d100 sampler's outcomes pass chi-square against check_outcomes."""
    dist = fae.check_outcomes(60, opts)
    rng = random.Random(17)
    counts = Counter(fae.resolve_check(60, rng, opts).check for _ in range(40_000))
    assert set(counts) <= {c for c, _ in dist}
    observed = [counts.get(c, 0) for c, _ in dist]
    expected = [float(p) * 40_000 for _, p in dist]
    assert stats.chisquare(observed, expected).pvalue > 1e-4


def test_turn_order_ties():
    """Highest margin first; ties by Reaction attribute; still tied -> simultaneous."""
    order = fae.turn_order(
        [
            Initiative("a", 20, 50),
            Initiative("b", 40, 30),
            Initiative("c", 20, 60),
            Initiative("d", 20, 50),
            Initiative("e", 0, 90),
        ]
    )
    assert order == [("b",), ("c",), ("a", "d"), ("e",)]


def test_delay():
    """Delaying lowers the margin; raising it is an error."""
    assert fae.delay(40, 15) == 15
    with pytest.raises(ValueError, match="cannot delay"):
        fae.delay(40, 45)
    assert fae.action_margins(fae.delay(60, 40), ["short"] * 3) == [40, 15]


def test_action_offsets_inside_the_turn():
    """The top margin acts at 0 s, margin 0 just before 10 s, gliders after that (C-23)."""
    assert fae.action_offset(80, 80) == 0
    assert fae.action_offset(0, 80) == Fraction(800, 81)
    assert fae.action_offset(40, 80) == Fraction(400, 81)
    assert fae.action_offset(0, 80) < fae.glide_offset(80) < 10
    assert fae.action_offset(0, 0) == 0
    with pytest.raises(ValueError, match="above"):
        fae.action_offset(90, 80)


def test_modifiers_and_offsets_in_ints_are_the_fractions_of_the_rule():
    """An attribute's modifier (value / 10 half up) and an action's offset
    (``10 * (top - margin) / (top + 1)``), worked out in ints, equal the rule's fractions
    for every value and every margin up to its top (0 to 200; negative tops count as 0)."""
    for value in range(-300, 301):
        assert fae.attribute_modifier(value) == math.floor(Fraction(value, 10) + Fraction(1, 2))
    for top in range(-3, 201):
        for margin in range(-5, max(top, 0) + 1):
            rule = Fraction(10) * (max(top, 0) - Fraction(margin)) / (max(top, 0) + 1)
            assert fae.action_offset(margin, top) == rule
            assert type(fae.action_offset(margin, top)) is Fraction
    assert fae.action_offset(Fraction(-1, 2), 9) == Fraction(19, 2)  # a glide: fractions


def test_action_times_for_the_engine():
    """Each planned action gets a time; botched combatants do not act at all."""
    assert fae.action_times(60, ["full", "short"], top_margin=80) == [
        Fraction(200, 81),
        Fraction(700, 81),
    ]
    firsts = fae.first_action_times({"ann": 80, "bob": 0, "cat": None, "dan": 40})
    assert firsts == {"ann": 0, "bob": Fraction(800, 81), "dan": Fraction(400, 81)}


@given(top=st.integers(0, 300), a=st.integers(0, 300), b=st.integers(0, 300))
def test_action_offsets_monotone(top, a, b):
    """Higher margins act earlier, and every action falls inside the 10-second turn."""
    a, b = min(a, top), min(b, top)
    ta, tb = fae.action_offset(a, top), fae.action_offset(b, top)
    assert 0 <= ta < 10
    assert (a > b) == (ta < tb)


@given(margin=st.integers(0, 400), kind=st.sampled_from(["short", "full"]))
def test_action_count_matches_max_actions(margin, kind):
    """Spending 25 or 50 per action until the margin is 0 or less gives max_actions."""
    margins = fae.action_margins(margin, [kind] * 20)
    assert len(margins) == fae.max_actions(margin, kind)
    assert all(m > 0 for m in margins[1:])


def test_action_catalogue():
    """The catalogue carries every free, short and full action of 2.1-2.3 with its cost."""
    kinds = {name: a.kind for name, a in fae.ACTIONS.items()}
    assert {k for k, v in kinds.items() if v == "short"} >= {
        "change_position",
        "pick_up",
        "ready_weapon",
        "take_aim",
        "move",
        "dodge",
        "block",
    }
    assert {k for k, v in kinds.items() if v == "full"} >= {
        "acrobatic_dodge",
        "run",
        "attack",
        "cast_spell",
    }
    assert {k for k, v in kinds.items() if v == "free"} >= {
        "drop_prone",
        "drop",
        "gesture",
        "speak",
        "walk",
    }
    assert fae.action_cost(fae.ACTIONS["attack"].kind) == 50
    with pytest.raises(ValueError, match="unknown action kind"):
        fae.action_cost("long")


def test_clock_sync_and_movement():
    """C-01: 6-s and 10-s rounds meet every 30 s; C-17: Move Rates as yards per second."""
    assert fae.sync_period(6, 10) == 30
    assert fae.sync_period(6, 10, 60) == 60
    speeds = fae.movement_speeds(walk_mr=10, run_mr=40, fly_mr=60)
    assert (speeds.walk, speeds.move, speeds.run, speeds.fly) == (1, 2, 4, 6)


def test_ladder_bridge_c04():
    """C-04: P(skill + 4dF >= Fair) reproduces the table 6.2% .. 98.8%."""
    table = {
        TERRIBLE: 6.2,
        POOR: 18.5,
        MEDIOCRE: 38.3,
        FAIR: 61.7,
        GOOD: 81.5,
        GREAT: 93.8,
        SUPERB: 98.8,
    }
    for level, pct in table.items():
        assert round(float(fae.ladder_success_probability(level)) * 100, 1) == pct
    assert fae.ladder_to_percentile(FAIR) == 62
    assert RulesOptions.from_flat({"fae.ladder_bridge": True}).fae.ladder_bridge


def test_size_bridge_c18():
    """C-18: Size 50 (about 150 lb) is Mass Scale 0; Size 75 is 1; Size 150 is 3."""
    assert fae.fae_size_to_mass_scale(50) == 0
    assert fae.fae_size_to_mass_scale(75) == 1
    assert fae.fae_size_to_mass_scale(150) == 3
    assert fae.fae_size_to_mass_scale(10) == -4


def test_attribute_quantities_and_turn_plan():
    """Lift 4 x STR lb, weight about 3 x Size lb; Move and the free walk exclude each other."""
    assert fae.lift_lb(63) == 252
    assert fae.weight_lb(50) == 150
    fae.check_turn_actions(["walk", "attack", "speak"])
    with pytest.raises(ValueError, match="free walk"):
        fae.check_turn_actions(["walk", "move"])
    with pytest.raises(ValueError, match="unknown actions"):
        fae.check_turn_actions(["teleport"])
