"""Action resolution: rolled degree, opposed/unopposed actions, crits, initiative.

dice-and-ladder.md sections 3-8; personal-combat.md section 1.2; CONFLICTS.md A-01, A-05, A-07.
"""

import doctest
import random
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from scipy import stats

from fadad_agents.rules.core import actions
from fadad_agents.rules.core.actions import (
    ActionError,
    InitiativeEntry,
    Opposed,
    crit_count,
    hit_probability,
    initiative_groups,
    initiative_order,
    opposed,
    opposed_outcomes,
    rolled_degree,
    unopposed,
)
from fadad_agents.rules.core.dice import TABLE_4DF

levels = st.integers(min_value=-10, max_value=10)


def test_ex_dice_01_lisa_vs_joe():
    """EX-DICE-01: Great vs Great is RD 0 (status quo); Great vs Superb is RD -1."""
    tie = opposed(2, 2)
    assert (tie.rd, tie.hit) == (0, False)
    loss = opposed(2, 3)
    assert (loss.rd, loss.hit) == (-1, False)


def test_ex_dice_02_defender_wins_ties():
    """EX-DICE-02: Snorri Great-2 = Fair vs Brynhild Good-1 = Fair, Target Mediocre: no hit."""
    snorri = rolled_degree(2, -2)
    brynhild = rolled_degree(1, -1)
    assert (snorri, brynhild) == (0, 0)
    result = opposed(snorri, brynhild, -1, attack_dice=-2)
    assert result == Opposed(0, 0, -1, 0, False, 0)


def test_ex_dice_03_ladder_arithmetic_with_wound_penalty():
    """EX-DICE-03: Axe Good, Very Hurt -2, dice +2 -> Good (+1); vs Great RD -1, no hit."""
    rolled = rolled_degree(1, 2, -2)
    assert rolled == 1
    result = opposed(rolled, 2, -3, attack_dice=2)
    assert (result.rd, result.hit, result.crits) == (-1, False, 0)


@pytest.mark.parametrize(
    ("attack", "opposition", "dice", "rd", "crits"),
    [
        (4, -1, 2, 5, 1),
        (2, 1, 4, 1, 1),
        (3, -5, 1, 8, 2),
        (1, 1, 4, 0, 0),
        (6, -5, 4, 11, 2),
    ],
)
def test_ex_dice_04_crit_count(attack, opposition, dice, rd, crits):
    """EX-DICE-04: one crit per 4 RD; all-plus dice give one if RD > 0; not cumulative."""
    result = opposed(attack, opposition, attack_dice=dice)
    assert (result.rd, result.crits) == (rd, crits)
    assert crit_count(rd, dice) == crits
    # The same row with the opposition as the Target, the defence below it.
    via_target = opposed(attack, opposition - 3, opposition, attack_dice=dice)
    assert (via_target.rd, via_target.crits) == (rd, crits)


def test_ex_dice_04_snorri_round_4_crit():
    """EX-DICE-04 row 1 (EX-PC-05 roll): Legendary vs block Mediocre, Target Mediocre: 1 crit."""
    result = opposed(rolled_degree(2, 2), rolled_degree(1, 0, -2), -1, attack_dice=2)
    assert result == Opposed(4, -1, -1, 5, True, 1)


def test_ex_dice_05_unopposed_vs_difficulty():
    """EX-DICE-05: Bow Good vs DL Fair: dice -1 -> success, degree 0; dice -2 -> miss."""
    assert unopposed(1, -1, 0) == (True, 0)
    assert unopposed(1, -2, 0) == (False, -1)


def test_undefended_attack_meets_target_only():
    """A-07: with no defence roll the Target is the whole opposition."""
    result = opposed(-2, None, -3)
    assert result == Opposed(-2, None, -3, 1, True, 0)
    assert not opposed(-3, None, -3).hit


def test_target_floors_the_defence():
    """A-01 default: a defence roll below Target counts as the Target."""
    assert opposed(0, -4, -1).rd == 1
    assert opposed(0, 2, -1).rd == -2


def test_target_gate_mode_literal_reading():
    """A-01 gate mode: RD = attack - defence; hit iff attack > defence and attack >= Target."""
    gate = "target_gate_gte"
    inside = opposed(-1, -4, -1, mode=gate)
    assert (inside.rd, inside.hit) == (3, True)
    below_target = opposed(-2, -4, -1, mode=gate)
    assert (below_target.rd, below_target.hit, below_target.crits) == (2, False, 0)
    tie = opposed(1, 1, -3, mode=gate)
    assert not tie.hit
    undefended = opposed(-1, None, -1, mode=gate)
    assert (undefended.rd, undefended.hit) == (0, True)


def test_bad_mode_and_nothing_to_oppose_are_errors():
    """An unknown mode, or neither defence nor Target, is a ValueError naming the fix."""
    with pytest.raises(ActionError, match="effective_opposition"):
        opposed(1, 0, mode="bogus")
    with pytest.raises(ValueError, match="Target"):
        opposed(1, None, None)
    with pytest.raises(ActionError, match="static"):
        actions.roll_initiative(1, random.Random(1), "bogus")


@given(levels, levels)
def test_relative_degree_is_antisymmetric(a, d):
    """Without a Target, opposed(a, d).rd == -opposed(d, a).rd."""
    assert opposed(a, d).rd == -opposed(d, a).rd


@given(levels, st.one_of(st.none(), levels), st.one_of(st.none(), levels), st.integers(-4, 4))
def test_hit_iff_rd_at_least_one(a, d, t, dice):
    """Default mode: hit iff RD >= 1, and a miss never crits."""
    assume(d is not None or t is not None)
    result = opposed(a, d, t, attack_dice=dice)
    assert result.hit == (result.rd >= 1)
    assert result.hit or result.crits == 0


@pytest.mark.parametrize(
    ("attack", "defence", "target", "mode"),
    [
        (2, 1, -1, "effective_opposition"),
        (1, None, -3, "effective_opposition"),
        (0, 2, 1, "target_gate_gte"),
        (3, None, 1, "target_gate_gte"),
    ],
)
def test_opposed_outcomes_sum_to_one(attack, defence, target, mode):
    """The exact distribution has 81 (or 9 undefended) entries summing to 1."""
    dist = opposed_outcomes(attack, defence, target, mode=mode)
    assert sum(p for _, p in dist) == 1
    assert len(dist) == (9 if defence is None else 81)


def test_hit_probability_known_value():
    """Fair vs Fair, no Target: P(A - D >= 1) over 4dF - 4dF = 2460/6561."""
    # Counted from the 8dF difference: P(X >= 1) = (6561 - 1107) / 2 / 6561.
    assert hit_probability(0, 0) == Fraction(6561 - 1107, 2 * 6561)
    assert hit_probability(0, 0) == sum(p for rd, p in actions.rd_distribution(0, 0) if rd >= 1)


def test_unopposed_probability_matches_ladder_table():
    """C-04 bridge table: Good vs Fair succeeds 81.48% = 66/81."""
    assert actions.unopposed_probability(1, 0) == Fraction(66, 81)


def test_roll_opposed_matches_exact_distribution():
    """roll_opposed's outcomes pass chi-square against opposed_outcomes (seed fixed)."""
    rng = random.Random(20261130)
    n = 40_000
    samples = Counter(actions.roll_opposed(2, 1, -1, rng)[0] for _ in range(n))
    dist = opposed_outcomes(2, 1, -1)
    assert set(samples) <= {o for o, _ in dist}
    # Pool the rare tails so every expected count is at least 5.
    common = [(o, p) for o, p in dist if p * n >= 5]
    rare_p = 1 - sum(p for _, p in common)
    observed = [samples[o] for o, _ in common]
    expected = [float(p) * n for _, p in common]
    if rare_p:
        observed.append(n - sum(observed))
        expected.append(float(rare_p) * n)
    assert stats.chisquare(observed, expected).pvalue > 1e-4


def test_roll_opposed_returns_consistent_dice():
    """The returned dice reproduce the result; undefended rolls draw no defence dice."""
    rng = random.Random(3)
    for _ in range(200):
        result, a_dice, d_dice = actions.roll_opposed(1, 0, -2, rng, attack_modifier=-1)
        assert d_dice is not None
        assert result == opposed(1 - 1 + a_dice, d_dice, -2, attack_dice=a_dice)
    result, _, d_dice = actions.roll_opposed(1, None, -3, rng)
    assert d_dice is None
    assert result.defence_rolled is None


def test_initiative_static_and_rolled():
    """A-05: static initiative is the trait (no draw); rolled is trait + 4dF."""
    rng = random.Random(9)
    state = rng.getstate()
    assert actions.roll_initiative(2, rng, "static") == 2
    assert rng.getstate() == state
    values = {actions.roll_initiative(2, rng, "rolled") for _ in range(500)}
    assert values <= set(range(-2, 7))
    assert len(values) > 3
    assert sum(p for _, p in actions.initiative_outcomes(2)) == 1


def test_initiative_order_total_and_deterministic():
    """Order: -initiative, then -trait, then uid; any input order gives the same list."""
    entries = [
        InitiativeEntry(uid=3, initiative=2, trait=1),
        InitiativeEntry(uid=1, initiative=2, trait=1),
        InitiativeEntry(uid=2, initiative=2, trait=2),
        InitiativeEntry(uid=4, initiative=5, trait=-1),
    ]
    expected = [4, 2, 1, 3]
    assert [e.uid for e in initiative_order(entries)] == expected
    assert [e.uid for e in initiative_order(reversed(entries))] == expected
    groups = initiative_groups(entries)
    assert [[e.uid for e in g] for g in groups] == [[4], [2], [1, 3]]


def test_snorri_acts_first_with_static_initiative():
    """Static initiative puts the better reaction trait first, as Snorri in section 4.6."""
    rng = random.Random(0)
    snorri = InitiativeEntry(2, actions.roll_initiative(1, rng, "static"), 1)
    brynhild = InitiativeEntry(1, actions.roll_initiative(0, rng, "static"), 0)
    assert initiative_order([brynhild, snorri])[0] is snorri


def test_initiative_rejects_duplicate_uids():
    """Two entries with one uid cannot be ordered."""
    with pytest.raises(ActionError, match="unique"):
        initiative_order([InitiativeEntry(1, 0, 0), InitiativeEntry(1, 1, 0)])


@pytest.mark.parametrize(
    ("attack", "defence", "target", "mode"),
    [(1, 0, -3, "effective_opposition"), (-1, 1, 0, "target_gate_gte")],
)
def test_opposed_outcomes_match_brute_force_81_by_81(attack, defence, target, mode):
    """The weighted table equals counting all 6561 equally likely pairs of dice."""
    counts = Counter(
        opposed(attack + a, defence + d, target, attack_dice=a, mode=mode)
        for a in TABLE_4DF
        for d in TABLE_4DF
    )
    brute = {o: Fraction(c, 6561) for o, c in counts.items()}
    assert dict(opposed_outcomes(attack, defence, target, mode=mode)) == brute


def test_docstring_examples_run():
    """The module's doctests (EX-DICE-02, EX-PC-05, EX-DICE-05 shortcuts) hold."""
    result = doctest.testmod(actions)
    assert (result.failed, result.attempted > 0) == (0, True)


@given(st.integers(-6, 6), st.one_of(st.none(), st.integers(-6, 6)), st.integers(-6, 6))
def test_hit_probability_rises_with_skill_and_falls_with_target(attack, defence, target):
    """A better attack skill never lowers P(hit); a higher Target never raises it."""
    for mode in actions.TARGET_MODES:
        p = hit_probability(attack, defence, target, mode=mode)
        assert hit_probability(attack + 1, defence, target, mode=mode) >= p
        assert hit_probability(attack, defence, target + 1, mode=mode) <= p
