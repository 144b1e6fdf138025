"""Spelljammer crews: reloading with losses, crew shortage, morale and striking colours."""

import random
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats

from fadad_agents.rules.core import morale
from fadad_agents.rules.ships import crew
from fadad_agents.rules.ships.crew import MoraleEvent as Ev
from fadad_agents.rules.ships.movement import ManeuverClass as MC


def test_ex_sj_01_reloading_with_crew_losses():
    """EX-SJ-01: crew 3, reload 1/3: 3 men 3 rounds, 2 men 4, 1 man 5; one lost mid-reload
    leaves two needing 4 in total, counting rounds already spent."""
    base = crew.base_rounds("1/3")
    assert base == 3
    assert [crew.reload_rounds(base, 3, n) for n in (3, 2, 1)] == [3, 4, 5]
    # Three start; after 2 rounds one falls: 4 in total, so 2 rounds remain.
    assert crew.reload_remaining(base, 3, crew_now=2, rounds_spent=2) == 2
    assert 2 + crew.reload_remaining(base, 3, crew_now=2, rounds_spent=2) == 4


def test_reload_without_crew_is_an_error():
    """A weapon with no crew cannot fire; bad rates are rejected."""
    with pytest.raises(crew.CrewError, match="no crew"):
        crew.reload_rounds(3, 3, 0)
    with pytest.raises(crew.CrewError, match="1/n"):
        crew.base_rounds("2/3")
    assert crew.base_rounds("1") == 1
    assert crew.reload_rounds(2, 2, 5) == 2  # extra hands do not speed it up


@given(st.integers(1, 6), st.integers(1, 8), st.integers(1, 8), st.integers(0, 12))
def test_reload_never_shortens_when_crew_are_lost(base, required, crew_now, spent):
    """Losing a crewman never makes a reload quicker (total or remaining)."""
    if crew_now > 1:
        assert crew.reload_rounds(base, required, crew_now - 1) >= crew.reload_rounds(
            base, required, crew_now
        )
        assert crew.reload_remaining(base, required, crew_now - 1, spent) >= (
            crew.reload_remaining(base, required, crew_now, spent)
        )
    assert crew.reload_rounds(base, required, crew_now) >= base


def test_ex_sj_02_ten_man_minimum_crew():
    """EX-SJ-02: 10 full MC; 6-9 down one; 3-5 down two; 1-2 down three."""
    steps = {n: crew.crew_shortage_steps(n, 10) for n in range(1, 11)}
    assert steps == {10: 0, 9: 1, 8: 1, 7: 1, 6: 1, 5: 2, 4: 2, 3: 2, 2: 3, 1: 3}
    assert crew.crewed_class(MC.PERFECT, 7, 10) == MC.GOOD
    assert crew.crewed_class(MC.PERFECT, 4, 10) == MC.AVERAGE
    assert crew.crewed_class(MC.PERFECT, 2, 10) == MC.POOR
    assert crew.crewed_class(MC.AVERAGE, 2, 10) == MC.POOR  # never below Poor


@given(st.integers(1, 200), st.integers(0, 250))
def test_crew_shortage_steps_monotone(minimum, n):
    """More crew never means more shortage steps; steps are 0-3; full crew is 0."""
    s = crew.crew_shortage_steps(n, minimum)
    assert 0 <= s <= 3
    assert crew.crew_shortage_steps(n + 1, minimum) <= s
    assert (s == 0) == (n >= minimum)


def test_ex_sj_15_morale_check():
    """EX-SJ-15: seamen 11; 50% hull damage (-4, not also -2), captain on deck +4, on fire -2
    -> 9; pass on 2d10 <= 9."""
    hull = crew.hull_damage_event(15, 30)
    assert hull is Ev.HULL_50
    events = [Ev.HULL_25, hull, Ev.CAPTAIN_ON_DECK, Ev.ON_FIRE]
    target = crew.morale_target(crew.SEAMAN_MORALE, events)
    assert target == 9
    assert morale.morale_pass_probability(9) == Fraction(36, 100)
    assert crew.morale_target(11, events, stacking="cumulative") == 7


def test_two_d10_and_morale_sampler():
    """2d10 has 100 equally likely face pairs; the morale sampler passes chi-square."""
    dist = morale.two_d10_distribution()
    assert sum(p for _, p in dist) == 1
    assert dict(dist)[11] == Fraction(10, 100)
    rng = random.Random(11)
    rolls = Counter(morale.resolve_morale_check(9, rng).roll for _ in range(40_000))
    observed = [rolls[v] for v, _ in dist]
    assert sum(observed) == 40_000
    assert stats.chisquare(observed, [float(p) * 40_000 for _, p in dist]).pvalue > 1e-4
    outcomes = dict(morale.morale_check_outcomes(9))
    assert outcomes[True] + outcomes[False] == 1


def test_one_d20_morale_roll_and_sampler():
    """``sj.crew_morale_roll = 1d20``: 20 equally likely totals; P(1d20 <= 11) = 11/20; the
    sampler passes chi-square against the exact distribution."""
    dist = morale.morale_roll_distribution("1d20")
    assert sum(p for _, p in dist) == 1
    assert morale.morale_pass_probability(11, "1d20") == Fraction(11, 20)
    assert dict(morale.morale_check_outcomes(11, "1d20"))[True] == Fraction(11, 20)
    rng = random.Random(12)
    rolls = Counter(morale.resolve_morale_check(9, rng, "1d20").roll for _ in range(20_000))
    observed = [rolls[v] for v, _ in dist]
    assert sum(observed) == 20_000
    assert stats.chisquare(observed, [float(p) * 20_000 for _, p in dist]).pvalue > 1e-4


@pytest.mark.parametrize(
    ("target", "p"),
    [
        (1, Fraction(0)),
        (2, Fraction(1, 100)),
        (11, Fraction(55, 100)),
        (20, Fraction(1)),
        (25, Fraction(1)),
    ],
)
def test_morale_pass_probability(target, p):
    """P(2d10 <= target) at the edges and the middle."""
    assert morale.morale_pass_probability(target) == p


def test_full_modifier_table_a_57():
    """Section 18's table: every entry present with its printed value; graded families."""
    m = crew.MORALE_MODIFIERS
    assert len(m) == 39
    assert (m[Ev.UNABLE_TO_HURT], m[Ev.ABANDONED], m[Ev.HD_15_PLUS]) == (-8, -6, 3)
    assert {"hull", "creature_hp", "crew_loss", "hd"} == crew.MORALE_FAMILIES
    assert crew.morale_modifier([Ev.CREW_LOSS_25, Ev.CREW_LOSS_50, Ev.HATED_ENEMY]) == 0


def test_graded_brackets():
    """Hull 25/50/75%, crew losses 25/50% and HD brackets of A-57."""
    assert [crew.hull_damage_event(d, 40) for d in (9, 10, 20, 30)] == [
        None,
        Ev.HULL_25,
        Ev.HULL_50,
        Ev.HULL_75,
    ]
    assert [crew.crew_loss_event(n, 20) for n in (4, 5, 10)] == [
        None,
        Ev.CREW_LOSS_25,
        Ev.CREW_LOSS_50,
    ]
    brackets = [Fraction(1, 2), 1, 2, 4, 8, 15]
    assert [crew.hd_event(Fraction(h)) for h in brackets] == [
        Ev.HD_HALF_OR_LESS,
        Ev.HD_1_OR_LESS,
        None,
        Ev.HD_4_TO_8,
        Ev.HD_8_TO_14,
        Ev.HD_15_PLUS,
    ]


def test_five_hull_point_trigger():
    """Check at 5 hull points left, unless the ship started with fewer than 10."""
    assert crew.five_hull_points_trigger(5, 30)
    assert not crew.five_hull_points_trigger(6, 30)
    assert not crew.five_hull_points_trigger(5, 9)


def test_failure_and_striking_colours():
    """A failed check strikes, surrenders, retreats or refuses by situation; mutual strike."""
    assert crew.morale_failure("ship") == "strike"
    assert crew.morale_failure("boarding_own_ship") == "surrender"
    assert crew.morale_failure("boarding_enemy_ship") == "retreat"
    assert crew.morale_failure("to_board") == "refuse"
    with pytest.raises(crew.CrewError, match="unknown situation"):
        crew.morale_failure("tavern")  # type: ignore[arg-type]
    assert crew.mutual_strike({"a", "b"}, {"a", "b"})
    assert not crew.mutual_strike({"a"}, {"a", "b"})


def test_crew_loss_triggers():
    """Crossing 25% and 50% crew losses each trigger a check; losses after 50% trigger more."""
    T = crew.MoraleTrigger
    assert crew.crew_loss_triggers(0, 4, 20) == []
    assert crew.crew_loss_triggers(4, 5, 20) == [T.CREW_25]
    assert crew.crew_loss_triggers(0, 10, 20) == [T.CREW_25, T.CREW_50]
    assert crew.crew_loss_triggers(10, 11, 20) == [T.SLAIN_AFTER_50]
    assert crew.crew_loss_triggers(10, 10, 20) == []
