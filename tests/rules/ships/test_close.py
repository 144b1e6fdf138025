"""Close action: ramming, crashes, shearing, grappling, towing, boarding (sections 9-14)."""

import random
from collections import Counter
from fractions import Fraction

import pytest
from scipy import stats

from fadad_agents.rules.ships import close as cl
from fadad_agents.rules.ships import effects as fx
from fadad_agents.rules.ships.combat import Dice
from fadad_agents.rules.ships.options import SjOptions


def test_ex_sj_03_crash_damage():
    """EX-SJ-03: a 15/30-hp ship crashes into a 50-hp ship: the big one takes 15, its crew is
    shaken; the crasher loses 15 -> 0 -> breaks up; its crew save or take 1d6/ton, max 20d6."""
    assert cl.crashing_ship(30, 50) == "a"
    result = cl.crash_damage(crasher_hull_now=15, crasher_hull_max=30)
    assert result == cl.CrashResult(crasher_loss=15, crasher_hull_left=0, other_damage=15)
    assert result.other_shaken
    assert result.crasher_breaks_up
    assert cl.crash_crew_damage_dice(30, saved=False) == (Dice(20, 6), False)
    assert cl.crash_crew_damage_dice(12, saved=True) == (Dice(12, 6), True)


def test_ex_sj_04_grappling_lines():
    """EX-SJ-04: 50-ton and 30-ton ships are grappled with 3 or more lines; 2 can be broken."""
    assert cl.lines_to_grapple(50, 30) == 3
    assert cl.is_grappled(3, 50, 30)
    assert not cl.is_grappled(2, 50, 30)


def test_grapple_line_rounding_a_53():
    """A-53: tonnage/10 of the smaller ship rounded up by default (25 tons -> 3)."""
    assert SjOptions().grapple_lines_rounding == "ceil"
    assert cl.lines_to_grapple(25, 100) == 3
    assert cl.lines_to_grapple(25, 100, rounding="floor") == 2
    assert cl.lines_to_grapple(3, 100) == 1


def test_ex_sj_07_ramming_a_space_wyrm():
    """EX-SJ-07: a ram doing 4d6 to a ship does 4d4 to a gargantuan creature."""
    assert cl.ram_damage_dice(Dice(4, 6), gargantuan_target=True) == Dice(4, 4)
    assert cl.ram_damage_dice(Dice(4, 6), gargantuan_target=False) == Dice(4, 6)


def test_ex_sj_08_ramming_size_limits():
    """EX-SJ-08: a 100-ton ship cannot ram 10 tons or less (the small ship checks for a crash)
    nor over 300 tons (the rammer checks); a grappling ram takes a 5-ton boat, not 301 tons."""
    assert cl.ram_size_check(100, 10, "piercing") == "target_crashes"
    assert cl.ram_size_check(100, 11, "piercing") == "ok"
    assert cl.ram_size_check(100, 300, "blunt") == "ok"
    assert cl.ram_size_check(100, 301, "blunt") == "rammer_crashes"
    assert cl.ram_size_check(100, 5, "grappling") == "ok"
    assert cl.ram_size_check(100, 301, "grappling") == "rammer_crashes"


def test_ram_types_c_07():
    """Piercing: Hull Holed + Shaken + lock chance; blunt: Shaken + 1 random crit; grappling:
    no damage, grappled."""
    piercing = cl.ram_outcome("piercing", rammer_tons=10)
    assert isinstance(piercing.effects[0], fx.HullHoled)
    assert isinstance(piercing.effects[1], fx.Shaken)
    assert (piercing.lock_pct, piercing.random_crits, piercing.does_damage) == (50, 0, True)
    blunt = cl.ram_outcome("blunt", rammer_tons=10)
    assert (len(blunt.effects), blunt.random_crits) == (1, 1)
    grappling = cl.ram_outcome("grappling", rammer_tons=10)
    assert (grappling.grappled, grappling.does_damage, grappling.effects) == (True, False, ())


def test_lock_chance_a_52():
    """A-52: 5% per ton of the rammer, capped at 100%; option: 5% per 10 tons (rounded up)."""
    assert cl.lock_percent(5) == 25
    assert cl.lock_percent(20) == 100
    assert cl.lock_percent(200) == 100
    assert cl.lock_percent(25, per_10_tons=True) == 15
    assert cl.lock_outcomes(25) == [(True, Fraction(1, 4)), (False, Fraction(3, 4))]
    rng = random.Random(52)
    hits = sum(cl.resolve_lock(25, rng) for _ in range(20_000))
    assert stats.binomtest(hits, 20_000, 0.25).pvalue > 1e-4


def test_ram_permissions():
    """Only the initiative side rams (or a head-on counter-ram after a miss); not a ship in the
    hex at the start unless re-entered; never a grappled ship; once a turn."""
    assert cl.ram_allowed(has_initiative=True)
    assert not cl.ram_allowed(has_initiative=False)
    assert cl.ram_allowed(has_initiative=False, head_on_counter=True)
    assert not cl.ram_allowed(has_initiative=True, same_hex_at_start=True)
    assert cl.ram_allowed(has_initiative=True, same_hex_at_start=True, left_and_reentered=True)
    assert not cl.ram_allowed(has_initiative=True, grappled_with_target=True)
    assert not cl.ram_allowed(has_initiative=True, rammed_this_turn=True)
    assert cl.counter_ram_allowed(head_on=True, ram_hit=False)
    assert not cl.counter_ram_allowed(head_on=True, ram_hit=True)
    assert cl.rammer_keeps_moving(hit=False, target_destroyed=False, locked_or_grappled=False)
    assert not cl.rammer_keeps_moving(hit=True, target_destroyed=False, locked_or_grappled=False)


@pytest.mark.parametrize(
    ("bonus", "letter", "p"),
    [
        (5, "C", Fraction(15, 20)),
        (None, "F", Fraction(5, 20)),
        (20, "A", Fraction(1)),
        (-20, "F", Fraction(0)),
    ],
)
def test_crash_avoidance_probability_and_sampler(bonus, letter, p):
    """A-51: Helm Pilot d20 + bonus + MC modifier >= DC 15; nobody flying counts as 1 rank."""
    assert SjOptions().crash_dc == 15
    assert cl.crash_avoid_probability(bonus, letter) == p
    rng = random.Random(51)
    ok = sum(cl.resolve_crash_avoidance(bonus, letter, rng) for _ in range(10_000))
    if 0 < p < 1:
        assert stats.binomtest(ok, 10_000, float(p)).pvalue > 1e-4
    else:
        assert ok == 10_000 * p


@pytest.mark.parametrize(("bonus", "ac", "losses"), [(0, 10, 0), (3, 18, 2)])
def test_shear_sampler_matches_distribution(bonus, ac, losses):
    """resolve_shear passes chi-square against shear_outcomes."""
    dist = cl.shear_outcomes(bonus, ac, losses)
    assert sum(p for _, p in dist) == 1
    rng = random.Random(ac)
    counts = Counter(cl.resolve_shear(bonus, ac, losses, rng) for _ in range(20_000))
    observed = [counts[r] for r, _ in dist]
    assert sum(observed) == 20_000
    assert stats.chisquare(observed, [float(p) * 20_000 for _, p in dist]).pvalue > 1e-4


def test_crash_crew_damage_halved_on_save():
    """Crew of a crashing 3-ton ship take 3d6, half (down) on a Reflex save vs DC 15."""
    rng = random.Random(3)
    results = [cl.resolve_crash_crew_damage(3, 4, rng) for _ in range(3000)]
    saved = [d for s, d in results if s]
    failed = [d for s, d in results if not s]
    assert set(failed) <= set(range(3, 19))
    assert set(saved) <= set(range(1, 10))
    assert stats.binomtest(len(saved), 3000, 0.5).pvalue > 1e-4  # d20 + 4 >= 15: 10 of 20


def test_shearing_at_most_two_losses():
    """A shear hit costs an MC class, at most two per ship; a miss allows a shear back."""
    rng = random.Random(54)
    results = [cl.resolve_shear(0, 10, losses, rng) for losses in (0, 2) for _ in range(400)]
    first, second = results[:400], results[400:]
    assert all(r.mc_loss == r.hit for r in first)
    assert not any(r.mc_loss for r in second)
    assert all(r.shear_back_allowed == (not r.hit) for r in results)
    assert all(r.hit for r in results if r.critical)


def test_cutting_lines_and_chains():
    """A line is AC 10 with 5 hp; a chain AC 4 with 20 hp; damage cuts through."""
    assert (cl.LINE.ac, cl.LINE.hp, cl.CHAIN.ac, cl.CHAIN.hp) == (10, 5, 4, 20)
    rng = random.Random(4)
    result = cl.cut_line(30, Dice(1, 1, 9), cl.LINE, 5, rng)  # natural 1 aside, always hits
    blows = Counter(cl.cut_line(30, Dice(1, 1, 9), cl.LINE, 5, rng).cut for _ in range(2000))
    assert blows[True] + blows[False] == 2000
    assert result.cut == result.hit
    assert stats.binomtest(blows[True], 2000, 0.95).pvalue > 1e-4


def test_boarding_and_towing():
    """Boarders cross the round after grappling from the gunwale; the stronger helm tows."""
    assert not cl.board_allowed(0, True)
    assert cl.board_allowed(1, True)
    assert not cl.board_allowed(2, False)
    assert cl.tow(3, 2, 100, 100, 40, 30) == "a"
    assert cl.tow(3, 2, 60, 100, 40, 30) is None  # helm cannot move 70 tons
    assert cl.tow(2, 2, 100, 100, 40, 30) is None


def test_locked_ships_separate_on_a_helmsman_hit():
    """Locked ships part when a helmsman hits the other ship's AC (natural 1 still misses)."""
    rng = random.Random(9)
    parts = sum(cl.resolve_separation(30, 10, rng).hit for _ in range(20_000))
    assert stats.binomtest(parts, 20_000, 0.95).pvalue > 1e-4
