"""Encounters, evasion, pursuit and repair (sections 15-17, A-55, A-56)."""

import random
from collections import Counter
from fractions import Fraction

import pytest
from scipy import stats

from fadad_agents.rules.ships import chase as ch
from fadad_agents.rules.ships.options import SjOptions


def test_ex_sj_10_pursuit_delay():
    """EX-SJ-10: 2 rounds of delay -> reappears 2 rounds after the stop; Int 14 with Navigation,
    2 rounds' delay: d20 + 2 <= 14 + 2, i.e. 1-14 succeed."""
    assert ch.pursuer_reappears_after(2) == 2
    assert ch.pursuit_success_probability(14, navigation=True, delay_rounds=2) == Fraction(14, 20)
    rng = random.Random(10)
    ok = sum(ch.resolve_pursuit(14, True, 2, rng) for _ in range(20_000))
    assert stats.binomtest(ok, 20_000, 0.7).pvalue > 1e-4


def test_quarry_lost_after_two_turns_a_55():
    """A-55: after two turns (10 rounds each) of delay the quarry is lost."""
    assert SjOptions().pursuit_turn_rounds == 10
    assert not ch.pursuit_lost(19)
    assert ch.pursuit_lost(20)
    assert ch.pursuit_success_probability(30, True, 20) == 0
    assert not ch.resolve_pursuit(30, True, 20, random.Random(0))


def test_encounter_placement():
    """1d10+10 hexes, direction 1d6: 60 equally likely placements; sampler matches."""
    dist = ch.encounter_outcomes()
    assert len(dist) == 60
    assert sum(p for _, p in dist) == 1
    assert {e.distance for e, _ in dist} == set(range(11, 21))
    assert [ch.DIRECTIONS[r][0] for r in range(1, 7)] == [0, 1, 2, 3, 4, 5]
    rng = random.Random(15)
    counts = Counter(ch.roll_encounter(rng) for _ in range(30_000))
    observed = [counts[e] for e, _ in dist]
    assert sum(observed) == 30_000
    assert stats.chisquare(observed).pvalue > 1e-4


def test_reactions_by_appearance():
    """Friendly: nothing loaded, crew unarmed; one loaded: indifferent; all: threatening;
    all loaded with an armed crew at the gunwales: hostile."""
    assert ch.reaction_from_appearance(0, 4, False, False) == "friendly"
    assert ch.reaction_from_appearance(1, 4, False, False) == "indifferent"
    assert ch.reaction_from_appearance(4, 4, False, False) == "threatening"
    assert ch.reaction_from_appearance(4, 4, True, True) == "hostile"
    with pytest.raises(ch.ChaseError):
        ch.reaction_from_appearance(5, 4, False, False)


def test_escape_by_capture_distance():
    """A ship may accelerate away only with nothing within 25 hexes."""
    assert ch.can_escape(None)
    assert ch.can_escape(26)
    assert not ch.can_escape(25)


def test_jettison_and_pursuer_stop():
    """Small shot hits 5%; 10+ tons slows the pursuer, who stops 11-20 hexes short."""
    assert dict(ch.jettison_hit_outcomes())[True] == Fraction(1, 20)
    assert ch.mass_slows_pursuer(10)
    assert not ch.mass_slows_pursuer(9)
    rng = random.Random(16)
    counts = Counter(ch.roll_pursuer_stop(rng) for _ in range(10_000))
    assert sorted(counts) == [d for d, _ in ch.pursuer_stop_outcomes()]
    hits = sum(ch.resolve_jettison_hit(rng) for _ in range(20_000))
    assert stats.binomtest(hits, 20_000, 0.05).pvalue > 1e-4


def test_repair_cost_and_time_a_56():
    """2,000 gp and 1 day a hull point per five workers; > 50% lost: 5,000 gp and 3 days."""
    assert ch.repair_cost(3, hull_max=30, damage=10, workers=5) == ch.RepairBill(6000, 3)
    assert ch.repair_cost(4, hull_max=30, damage=10, workers=10) == ch.RepairBill(8000, 2)
    assert ch.repair_cost(16, hull_max=30, damage=16, workers=5) == ch.RepairBill(80_000, 48)
    assert ch.diy_repair(3, workers=5) == ch.RepairBill(150, 21)
    with pytest.raises(ch.ChaseError, match="five workers"):
        ch.repair_cost(1, 30, 10, workers=4)


def test_poorly_maintained_crit_range():
    """A poorly maintained ship is critted on 19-20 (option default 19)."""
    assert ch.crit_range_from(False) == 20
    assert ch.crit_range_from(True) == SjOptions().poorly_maintained_crit_from == 19
