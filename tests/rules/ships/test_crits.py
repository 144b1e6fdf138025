"""The Spelljammer d20 critical table with shift-up, in the shared effect vocabulary."""

import random
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats

from fadad_agents.rules.ships import crits as cr
from fadad_agents.rules.ships import effects as fx
from fadad_agents.rules.ships.crits import SjCrit
from fadad_agents.rules.ships.movement import ManeuverClass as MC
from fadad_agents.rules.ships.options import SjOptions

HEALTHY = cr.CritContext(sr=3, mc=MC.GOOD)


def test_ex_sj_16_inapplicable_result_shifts_up():
    """EX-SJ-16: SR 1 ship rolls 12 -> 13 Deck crew casualty; Poor ship rolls 17 -> 18 Loss of
    10 hull points; stone ship with magical lights rolls 11 (Fire!) -> 12 Loss of SR."""
    slow = cr.CritContext(sr=1, mc=MC.GOOD)
    assert cr.entry_after_shift(12, slow) == 13
    assert cr.SJ_CRIT_TABLE[13] is SjCrit.DECK_CREW
    poor = cr.CritContext(sr=3, mc=MC.POOR)
    assert cr.entry_after_shift(17, poor) == 18
    assert cr.SJ_CRIT_TABLE[18] is SjCrit.HULL_LOSS_10
    stone = cr.CritContext(sr=3, mc=MC.GOOD, fire_possible=False)
    assert cr.entry_after_shift(11, stone) == 12
    assert cr.SJ_CRIT_TABLE[12] is SjCrit.SR_LOSS


def test_table_matches_seed():
    """The 20 entries of section 5, in order."""
    t = cr.SJ_CRIT_TABLE
    assert [t[i] for i in (1, 9, 18)] == [SjCrit.HULL_LOSS_5] + [SjCrit.HULL_LOSS_10] * 2
    assert [i for i in t if t[i] is SjCrit.DECK_CREW] == [2, 6, 13]
    assert [i for i in t if t[i] is SjCrit.SHAKEN] == [4, 10, 15]
    assert [i for i in t if t[i] is SjCrit.SR_LOSS] == [12, 19]
    assert (t[11], t[20]) == (SjCrit.FIRE, SjCrit.SPELLJAMMER_SHOCK)


def test_healthy_ship_distribution_is_the_plain_table():
    """With every entry applicable the kind distribution counts table rows over 20."""
    dist = dict(cr.sj_crit_outcomes(HEALTHY))
    assert dist[SjCrit.DECK_CREW] == Fraction(3, 20)
    assert dist[SjCrit.SPELLJAMMER_SHOCK] == Fraction(1, 20)
    assert sum(dist.values()) == 1


def test_shift_up_moves_probability_to_the_next_entry():
    """At SR 1 with a Poor class, SR-loss mass goes to 13 and 20; MC-loss mass to 9 and 18."""
    ctx = cr.CritContext(sr=1, mc=MC.POOR)
    entries = dict(cr.sj_crit_entry_outcomes(ctx))
    assert not {8, 12, 17, 19} & set(entries)
    assert entries[13] == Fraction(2, 20)
    assert entries[20] == Fraction(2, 20)
    assert entries[9] == Fraction(2, 20)
    assert entries[18] == Fraction(2, 20)


def test_shift_wraps_from_20_to_1():
    """A-49: shifting past 20 wraps to 1 (shock never inapplicable here, so test via the rule)."""
    ctx = cr.CritContext(sr=1, mc=MC.POOR, has_exposed_crew=False)
    assert cr.entry_after_shift(19, ctx) == 20
    assert cr.entry_after_shift(12, ctx) == 14  # 12 SR loss, 13 deck crew -> 14
    with pytest.raises(ValueError, match=r"1\.\.20"):
        cr.entry_after_shift(21, ctx)


@pytest.mark.parametrize(
    "ctx",
    [HEALTHY, cr.CritContext(sr=1, mc=MC.POOR, fire_possible=False, has_large_weapon=False)],
)
def test_sampler_matches_crit_distribution(ctx):
    """resolve_sj_crit's entry passes chi-square against sj_crit_entry_outcomes."""
    dist = cr.sj_crit_entry_outcomes(ctx)
    rng = random.Random(49)
    n = 30_000
    counts = Counter(cr.resolve_sj_crit(ctx, 4, rng).entry for _ in range(n))
    observed = [counts.get(e, 0) for e, _ in dist]
    assert sum(observed) == n
    assert stats.chisquare(observed, [float(p) * n for _, p in dist]).pvalue > 1e-4


def test_effects_in_shared_vocabulary():
    """Each entry becomes shared effects with the A-50 numbers and 6-second durations."""
    rng = random.Random(1)
    assert cr.crit_effects(SjCrit.HULL_LOSS_5, 3, rng) == (fx.HullLoss(5),)
    assert cr.crit_effects(SjCrit.FIRE, 3, rng) == (fx.Fire(points=0),)
    (deck,) = cr.crit_effects(SjCrit.DECK_CREW, 7, rng)
    assert deck == fx.DeckCrew(damage=7, bystander_save=fx.Check("fortitude", 15, "d20"))
    (shaken,) = cr.crit_effects(SjCrit.SHAKEN, 7, rng)
    assert shaken == fx.Shaken(check=fx.Check("dexterity", 10, "d20"), npc_fall_pct=40)
    (sr_loss,) = cr.crit_effects(SjCrit.SR_LOSS, 7, rng)
    assert isinstance(sr_loss, fx.SpeedLoss)
    assert sr_loss.sr == 1
    assert sr_loss.rounds in range(1, 11)
    assert sr_loss.round_seconds == fx.SJ_ROUND_SECONDS
    (shock,) = cr.crit_effects(SjCrit.SPELLJAMMER_SHOCK, 7, rng)
    assert isinstance(shock, fx.HelmShock)
    assert shock.save == fx.Check("will", 15, "d20")
    assert shock.coma_days in range(1, 5)


def test_mc_loss_duration_sampler_and_turn_option():
    """Maneuverability loss lasts 1d10 rounds (A-50); x10 when 'turns' are 10 rounds."""
    rng = random.Random(8)
    rounds = Counter(cr.crit_effects(SjCrit.MANEUVER_LOSS, 0, rng)[0].rounds for _ in range(10_000))
    assert sorted(rounds) == list(range(1, 11))
    assert stats.chisquare([rounds[r] for r in range(1, 11)]).pvalue > 1e-4
    params = cr.CritParams(mc_loss_round_factor=10)
    (loss,) = cr.crit_effects(SjCrit.MANEUVER_LOSS, 0, rng, params)
    assert loss.rounds % 10 == 0


def test_crit_params_defaults_match_options():
    """CritParams defaults equal the SjOptions defaults (A-50)."""
    o, p = SjOptions(), cr.CritParams()
    assert (o.crit_fortitude_dc, o.shaken_dexterity_dc, o.shock_will_dc) == (
        p.fortitude_dc,
        p.dexterity_dc,
        p.will_dc,
    )
    assert o.mc_loss_rounds_per_turn == p.mc_loss_round_factor


@given(
    st.integers(0, 6),
    st.sampled_from(list(MC)),
    st.booleans(),
    st.booleans(),
    st.booleans(),
    st.booleans(),
)
def test_shifted_distribution_never_lands_on_inapplicable_entries(
    sr, mc, fire, weapon, deck, aboard
):
    """For any ship state the entry distribution sums to 1 and only applicable entries remain."""
    ctx = cr.CritContext(sr, mc, fire, weapon, deck, aboard)
    dist = cr.sj_crit_entry_outcomes(ctx)
    assert sum(p for _, p in dist) == 1
    assert all(cr.applies(cr.SJ_CRIT_TABLE[e], ctx) for e, _ in dist)
    assert all(p.denominator in (1, 2, 4, 5, 10, 20) for _, p in dist)


def test_each_trigger_rolls_its_own_critical():
    """A-49: a natural-20 hit that also crosses half hull points calls for two criticals."""
    assert cr.crits_triggered() == 0
    assert cr.crits_triggered(attack_critical=True, half_crossed=True) == 2
    assert cr.crits_triggered(shear_critical=True, ram_crits=1) == 2
    with pytest.raises(ValueError, match=">= 0"):
        cr.crits_triggered(ram_crits=-1)
