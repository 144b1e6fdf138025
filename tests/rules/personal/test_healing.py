"""Healing: FADAD intervals, surgery, care, first aid; FUDGE skill and natural healing (§13)."""

import random
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats

from fadad_agents.rules.core.wounds import Wound, new_track, record
from fadad_agents.rules.personal import healing as h

W = Wound


def _track(*wounds, kind="standard"):
    t = new_track(kind)
    for w in wounds:
        t = record(t, w)
    return t


def test_ex_wnd_19_fadad_intervals():
    """EX-WND-19: Hurt 14, VH 28, Incap 42, ND 56; Superb Health 11; Poor Blood Clotting 16."""
    assert [h.fadad_days_to_heal(s) for s in (W.HURT, W.VERY_HURT, W.INCAPACITATED)] == [
        14, 28, 42
    ]  # fmt: skip
    assert h.fadad_days_to_heal(W.NEAR_DEATH) == 56
    assert h.fadad_interval(3) == 11
    assert h.fadad_days_to_heal(W.HURT, 3) == 11
    assert h.fadad_interval(-2) == 16
    assert h.fadad_days_to_heal(W.SCRATCH) == 1


def test_ex_wnd_19_four_hurts_heal_in_parallel():
    """EX-WND-19: four Hurts (overflowing up to the Near Death box) heal together in 14 days."""
    t = _track(W.HURT, W.HURT, W.HURT, W.HURT)
    assert t.level == W.NEAR_DEATH
    assert t.marks == ((2, 2), (3, 2), (4, 2), (5, 2))
    assert h.days_to_heal(t) == (14, 14, 14, 14)
    assert h.fadad_heal_track(t, 13).level == W.NEAR_DEATH
    assert h.fadad_heal_track(t, 14).level == W.UNDAMAGED


def test_fadad_heal_track_drops_one_level_per_interval():
    """Each wound drops a level per interval on its own clock; Scratches go in a day."""
    t = _track(W.SCRATCH, W.VERY_HURT)
    day1 = h.fadad_heal_track(t, 1)
    assert day1.severities == (3,)
    day14 = h.fadad_heal_track(t, 14)
    assert (day14.severities, day14.level) == ((2,), W.HURT)
    assert h.fadad_heal_track(t, 28).level == W.UNDAMAGED


def test_near_death_needs_care():
    """FADAD: a Near Death wound without medical care does not improve (A-31)."""
    t = _track(W.NEAR_DEATH)
    assert h.fadad_heal_track(t, 30, near_death_care=False).level == W.NEAR_DEATH
    assert h.fadad_heal_track(t, 14).level == W.INCAPACITATED


def test_ex_wnd_20_surgery_degrees():
    """EX-WND-20: Great +1 = Superb vs Hurt (Mediocre) -> 4 degrees -> 10 days; ND -> 13;
    Terrible-2 vs Good fails by 6 -> complication."""
    s = h.surgery(2, 1, W.HURT)
    assert s == h.Surgery(4, False)
    assert h.fadad_days_to_heal(W.HURT, surgery_degrees=s.degrees) == 10
    nd = h.surgery(2, 1, W.NEAR_DEATH)
    assert nd.degrees == 1
    assert h.fadad_interval(degrees=nd.degrees) == 13
    bad = h.surgery(-5, 0, W.INCAPACITATED)
    assert bad.complication
    assert not h.surgery(-2, 0, W.INCAPACITATED).complication  # fails by exactly 3
    assert h.surgery(0, 0, W.VERY_HURT).degrees == 0  # meeting the difficulty: 0 days


def test_surgery_sampler_matches_outcomes():
    """Exact surgery distribution sums to 1 and matches the sampler."""
    dist = h.surgery_outcomes(1, W.INCAPACITATED)
    assert sum(p for _, p in dist) == 1
    rng = random.Random(5)
    samples = [h.roll_surgery(1, W.INCAPACITATED, rng) for _ in range(20_000)]
    counts = Counter(samples)
    observed = [counts.get(k, 0) for k, _ in dist]
    assert sum(observed) == len(samples)
    assert stats.chisquare(observed, [float(p) * len(samples) for _, p in dist]).pvalue > 1e-4


def test_long_term_care_and_floor():
    """Care: degrees vs the current level's difficulty, per interval; interval floor 1 day."""
    assert h.care_degrees(2, 0, W.VERY_HURT, setting=1) == 3
    assert h.care_degrees(0, -1, W.VERY_HURT, setting=-2) == 0
    # Incapacitated: three intervals, care 2 then 0 then 5 on top of 4 surgery degrees
    assert h.fadad_days_to_heal(W.INCAPACITATED, surgery_degrees=4, care_degrees=(2, 0, 5)) == (
        8 + 10 + 5
    )
    assert h.fadad_interval(3, degrees=20) == 1


def test_first_aid():
    """First aid: Fair heals Scratches and stabilises Near Death; Good reduces simple wounds."""
    assert h.first_aid(0, W.SCRATCH).heals_scratches
    assert not h.first_aid(-1, W.SCRATCH).heals_scratches
    assert h.first_aid(0, W.NEAR_DEATH).stabilises
    assert h.first_aid(1, W.VERY_HURT, simple_wound=True).reduces_level
    assert not h.first_aid(1, W.VERY_HURT).reduces_level
    assert not h.first_aid(0, W.VERY_HURT, simple_wound=True).reduces_level


def test_wound_difficulty_rejects_scratch():
    """Treatment difficulties exist for Hurt..Near Death only."""
    assert [h.wound_difficulty(s) for s in (2, 3, 4, 5)] == [-1, 0, 1, 2]
    with pytest.raises(ValueError, match="allowed"):
        h.wound_difficulty(W.SCRATCH)


def test_ex_wnd_18_fudge_healing_roll():
    """EX-WND-18: Hurt, Hurt, Very Hurt healed with a Good result -> one Hurt left (-1)."""
    assert h.fudge_healing_levels(1) == 1
    t = h.fudge_heal_track(_track(W.HURT, W.HURT, W.VERY_HURT), 1)
    assert (t.severities, t.level, t.penalty) == ((2,), W.HURT, -1)


def test_fudge_healing_levels():
    """Good heals 1 level, Great 2, Superb 3; below Good none; Scratches don't count."""
    assert [h.fudge_healing_levels(r) for r in (-1, 0, 1, 2, 3, 4)] == [0, 0, 1, 2, 3, 3]
    assert h.fudge_heal_severities((5, 4, 3), 2) == (3, 2)
    assert h.fudge_heal_severities((5, 1), 3) == (2,)


def test_fudge_natural_healing():
    """One level a week; failed Constitution roll: no progress; Near Death 2 weeks with care."""
    assert h.fudge_natural_week(W.HURT) == 0
    assert h.fudge_natural_week(W.INCAPACITATED) == W.VERY_HURT
    assert h.fudge_natural_week(W.VERY_HURT, constitution_rolled=0) == W.VERY_HURT  # needs Good
    assert h.fudge_natural_week(W.VERY_HURT, constitution_rolled=1) == W.HURT
    assert h.fudge_natural_week(W.NEAR_DEATH) == W.NEAR_DEATH
    assert h.fudge_natural_week(W.NEAR_DEATH, weeks_at_level=1) == W.INCAPACITATED
    assert h.fudge_natural_week(W.NEAR_DEATH, weeks_at_level=5, medical_care=False) == 5
    assert [h.fudge_natural_days(s) for s in (1, 2, 3, 4, 5)] == [0, 7, 14, 21, 35]
    assert h.fudge_natural_days(5, medical_care=False) is None
    assert h.days_to_heal(_track(W.HURT, W.NEAR_DEATH), "fudge") == (7, 35)


def test_fudge_natural_step_chance_matches_sampler():
    """P(Constitution Fair makes the Good roll for Very Hurt) = P(4dF >= 1) = 31/81."""
    assert h.fudge_natural_step_chance(0, W.VERY_HURT) == Fraction(31, 81)
    assert h.fudge_natural_step_chance(0, W.NEAR_DEATH) == 0
    rng = random.Random(9)
    n = 20_000
    improved = sum(h.roll_fudge_natural_week(W.VERY_HURT, 0, rng) == W.HURT for _ in range(n))
    assert stats.binomtest(improved, n, 31 / 81).pvalue > 1e-4


@given(st.lists(st.integers(1, 5), max_size=8), st.integers(-2, 4))
def test_property_healing_never_worsens(severities, rolled):
    """Healing never raises a wound's level nor the track's level."""
    t = new_track("epic")
    for s in severities:
        t = record(t, s)
    assert h.fudge_heal_track(t, rolled).level <= t.level
    assert h.fadad_heal_track(t, 20).level <= t.level


def test_the_dead_do_not_heal():
    """A dead track stays dead under either healing model."""
    dead = _track(W.NEAR_DEATH, W.NEAR_DEATH)
    assert dead.level == W.DEAD
    assert h.fadad_heal_track(dead, 1000).level == W.DEAD
    assert h.fudge_heal_track(dead, 3).level == W.DEAD


@given(st.integers(W.SCRATCH, W.NEAR_DEATH), st.integers(0, 80))
def test_fudge_rest_heals_on_the_natural_day_count(severity, days):
    """FUDGE natural healing by days: a wound is gone exactly when fudge_natural_days says
    (Hurt 7, VH 14, Incap 21, ND 35 with care; Scratches gone after the battle)."""
    need = h.fudge_natural_days(severity)
    assert (h.fudge_remaining_severity(severity, days) == 0) == (days >= need)


@given(st.lists(st.sampled_from([W.SCRATCH, W.HURT, W.VERY_HURT]), max_size=4),
       st.integers(0, 120), st.sampled_from(["fadad", "fudge"]))  # fmt: skip
def test_heal_track_is_whole_after_days_to_heal(wounds, days, model):
    """heal_track (C-09) leaves no wound once every wound's days_to_heal have passed, and
    never a wound worse than it was (the dead, past Near Death, do not heal)."""
    track = _track(*wounds)
    if track.dead:
        assert h.heal_track(track, days, model) is track
        return
    healed = h.heal_track(track, days, model)
    need = max(h.days_to_heal(track, model), default=0)
    assert (not healed.marks) == (days >= need or not track.marks)
    assert max(healed.severities, default=0) <= max(track.severities, default=0)
    assert len(healed.marks) <= len(track.marks)
