"""Mass combat: FADAD units and Spelljammer rapid resolution (mass-combat.md, SJ section 13)."""

import random
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from fadad_agents.rules import mass
from fadad_agents.rules.core.ladder import FAIR, GOOD, GREAT, LEGENDARY, MEDIOCRE
from fadad_agents.rules.mass import fight
from fadad_agents.rules.mass.options import MassOptions
from fadad_agents.rules.options import RulesOptions


def _chi_square_p(samples, dist):
    counts = Counter(samples)
    n = len(samples)
    # Pool outcomes whose expected count is tiny so the test statistic stays valid.
    observed, expected, rest_o, rest_e = [], [], 0, 0.0
    for v, p in dist:
        e = float(p) * n
        if e < 5:
            rest_o += counts.get(v, 0)
            rest_e += e
        else:
            observed.append(counts.get(v, 0))
            expected.append(e)
    assert sum(counts.values()) == n
    assert set(counts) <= {v for v, _ in dist}, "sampler produced an impossible outcome"
    if rest_e:
        observed.append(rest_o)
        expected.append(rest_e)
    return stats.chisquare(observed, expected).pvalue


# --- worked examples -----------------------------------------------------------------


def test_ex_mass_01_unit_scale():
    """EX-MASS-01: N = 10 -> 6; N = 100 -> 11; N = 1,000 -> 17."""
    assert mass.unit_scale(10) == 6
    assert mass.unit_scale(100) == 11
    assert mass.unit_scale(1000) == 17


def test_unit_scale_table():
    """The rounded column of mass-combat.md 1.1 (half up, A-70)."""
    table = {1: 0, 2: 2, 3: 3, 5: 4, 10: 6, 20: 7, 50: 10, 100: 11, 200: 13, 500: 15, 1000: 17}
    assert {n: mass.unit_scale(n) for n in table} == table
    assert mass.unit_scale_batch(list(table)).tolist() == list(table.values())


def test_unit_scale_rounding_down_option():
    """scale_rounding='down' truncates: 10 -> 5, 2.25 (= 1.5**2) -> exactly 2."""
    assert mass.unit_scale(10, "down") == 5
    assert mass.unit_scale(9, "down") == mass.unit_scale_batch([9], "down")[0]


def test_ex_mass_02_scale_difference_cap():
    """EX-MASS-02: 100 men (11) vs 10 men (6): difference 5 capped to +4 -> +10 vs +6."""
    big, small = mass.unit_scale(100), mass.unit_scale(10)
    assert (big, small) == (11, 6)
    assert mass.capped_scale_bonuses(big, small) == (10, 6)
    assert mass.capped_scale_bonuses(small, big) == (6, 10)
    a, b = mass.capped_scale_bonuses_batch([11, 6], [6, 11])
    assert a.tolist() == [10, 6]
    assert b.tolist() == [6, 10]


def test_scale_cap_lower_and_within_cap():
    """A GM cap of 2 makes 11 vs 6 fight as 8 vs 6; a gap within the cap is untouched."""
    assert mass.capped_scale_bonuses(11, 6, cap=2) == (8, 6)
    assert mass.capped_scale_bonuses(7, 4) == (7, 4)


def test_ex_mass_03_reading_the_unit_damage_table():
    """EX-MASS-03: unit of 50, damage 5 -> very hurt, morale vs Great, 28 casualties, -2."""
    row = mass.unit_damage_row(5)
    assert row is not None
    assert (row.damage_type, row.morale_level, row.max_casualty_pct) == ("very_hurt", GREAT, 56)
    assert row.skill_penalty == -2
    assert mass.max_casualties(5, 50) == 28
    assert mass.casualties(5, 50, random.Random(1)) == 28
    assert mass.record_unit_damage(mass.UnitWounds(), 5).skill_penalty == -2


def test_ex_mass_04_sub_scratches():
    """EX-MASS-04: four hits at 0 or -1 make one Scratch; each is a Mediocre check, 2%."""
    wounds = mass.UnitWounds()
    for damage in (0, -1, 0, -1):
        row = mass.unit_damage_row(damage)
        assert row is not None
        assert (row.damage_type, row.morale_level, row.max_casualty_pct) == (
            "sub_scratch",
            MEDIOCRE,
            2,
        )
        wounds = mass.record_unit_damage(wounds, damage)
    assert wounds.marked == (1, 0, 0, 0, 0)
    assert wounds.sub_scratches == 0
    assert mass.max_casualties(0, 100) == 2


def test_ex_mass_05_and_ex_sj_14_rapid_resolution_dice():
    """EX-MASS-05 / EX-SJ-14: 30 pirates vs 12 marines roll 15 and 12 d20; then 25 -> 12."""
    pirates = mass.CrewGroup(count=30, hd=1, max_damage=8)
    marines = mass.CrewGroup(count=12, hd=2, max_damage=10)
    assert mass.rapid_dice(pirates.count, marines.hd, pirates.max_damage) == 15
    assert mass.rapid_dice(marines.count, pirates.hd, marines.max_damage) == 12
    assert mass.rapid_dice(pirates.count - 5, marines.hd, pirates.max_damage) == 12
    batch = mass.rapid_dice_batch([30, 12, 25], [2, 1, 2], [8, 10, 8])
    assert batch.tolist() == [15, 12, 12]


# --- table and track rules -----------------------------------------------------------


@pytest.mark.parametrize(
    ("damage", "kind", "level", "pct"),
    [
        (12, "dead", None, 100),
        (9, "dead", None, 100),
        (8, "incapacitated", LEGENDARY, 100),
        (7, "incapacitated", LEGENDARY, 100),
        (6, "very_hurt", GREAT, 56),
        (4, "hurt", GOOD, 33),
        (3, "hurt", GOOD, 33),
        (2, "scratch", FAIR, 8),
        (1, "scratch", FAIR, 8),
        (0, "sub_scratch", MEDIOCRE, 2),
        (-1, "sub_scratch", MEDIOCRE, 2),
    ],
)
def test_unit_damage_table_rows(damage, kind, level, pct):
    """Each damage number reads its row of mass-combat.md 1.3."""
    row = mass.unit_damage_row(damage)
    assert row is not None
    assert (row.damage_type, row.morale_level, row.max_casualty_pct) == (kind, level, pct)


def test_damage_minus_two_has_no_effect():
    """Damage <= -2: no row, no casualties, no wound."""
    assert mass.unit_damage_row(-2) is None
    assert mass.max_casualties(-2, 100) == 0
    assert mass.record_unit_damage(mass.UnitWounds(), -2) == mass.UnitWounds()


def test_casualty_rounding_half_up():
    """round(max% x N) half up: 8% of 25 = 2.0; 33% of 5 = 1.65 -> 2; 2% of 25 = 0.5 -> 1."""
    assert mass.max_casualties(1, 25) == 2
    assert mass.max_casualties(3, 5) == 2
    assert mass.max_casualties(0, 25) == 1
    assert mass.max_casualties_batch([1, 3, 0, mass.NO_HIT], [25, 5, 25, 25]).tolist() == [
        2,
        2,
        1,
        0,
    ]


def test_track_rolls_up_and_overflows_to_dead():
    """A 4th Scratch makes the unit Hurt; Incapacitated twice rolls into Near Death, then dead."""
    wounds = mass.UnitWounds()
    for _ in range(3):
        wounds = mass.record_unit_damage(wounds, 1)
    assert wounds.level == 1
    wounds = mass.record_unit_damage(wounds, 2)
    assert wounds.level == 2
    assert wounds.skill_penalty == -1
    wounds = mass.record_unit_damage(wounds, 7)
    wounds = mass.record_unit_damage(wounds, 8)
    assert wounds.level == 5
    assert wounds.out_of_action
    assert mass.record_unit_damage(wounds, 7).dead
    assert mass.record_unit_damage(mass.UnitWounds(), 9).level == mass.DEAD


def test_damage_number_cap_on_negative_base():
    """FADAD 5.1: a negative base caps the final damage at 1; 0 and -1 still count."""
    assert mass.unit_damage_number(rd=1, damage_mod=-3, roll=4) == 1
    assert mass.unit_damage_number(rd=1, damage_mod=-2, roll=0) == -1
    assert mass.unit_damage_number(rd=2, damage_mod=1, roll=2) == 5


def test_negative_strength_is_an_error():
    """A negative unit strength raises a ValueError naming the allowed range."""
    with pytest.raises(ValueError, match="0 or more"):
        mass.unit_scale(-1)
    with pytest.raises(ValueError, match="0 or more"):
        mass.max_casualties(3, -5)
    with pytest.raises(ValueError, match="HD"):
        mass.rapid_dice(10, defender_hd=0, max_damage=8)


def test_options_reach_mass():
    """The mass options are flat keys of RulesOptions."""
    opts = RulesOptions.from_flat({"mass.scale_cap": 2, "mass.casualties": "random"})
    assert opts.mass.scale_cap == 2
    assert opts.mass.casualties == "random"


# --- exact distributions against samplers --------------------------------------------


def test_morale_pass_probability_exact():
    """Fair morale vs Great: 4dF >= +2 is 15/81; vs Mediocre: 4dF >= -1 is 66/81."""
    assert mass.morale_pass_probability(FAIR, GREAT) == Fraction(15, 81)
    assert mass.morale_pass_probability(FAIR, MEDIOCRE) == Fraction(66, 81)


def test_morale_samplers_match_exact():
    """Scalar and batch morale checks pass chi-square against the exact probability."""
    p = mass.morale_pass_probability(FAIR, GOOD)
    dist = [(True, p), (False, 1 - p)]
    rng = random.Random(11)
    assert _chi_square_p([mass.morale_check(FAIR, GOOD, rng) for _ in range(20_000)], dist) > 1e-4
    batch = mass.morale_check_batch(np.random.default_rng(11), np.full(20_000, FAIR), GOOD)
    assert _chi_square_p(batch.tolist(), dist) > 1e-4


def test_unit_attack_sampler_matches_exact_damage_distribution():
    """resolve_unit_attack and its batch twin match unit_damage_outcomes (None = miss)."""
    att = mass.UnitState(strength=50, attack=GOOD, odm=1)
    dfn = mass.UnitState(strength=20, defence=FAIR, ddm=1)
    dist = mass.unit_damage_outcomes(att, dfn)
    assert sum(p for _, p in dist) == 1
    rng = random.Random(3)
    samples = [mass.resolve_unit_attack(att, dfn, rng).damage for _ in range(30_000)]
    assert _chi_square_p(samples, dist) > 1e-4
    k = 30_000
    batch = mass.resolve_unit_attacks_batch(
        np.random.default_rng(3), np.full(k, GOOD), FAIR, 50, 20, 0, FAIR
    )
    as_none = [None if d == mass.NO_HIT else d for d in batch.damage.tolist()]
    assert _chi_square_p(as_none, dist) > 1e-4


def test_random_casualties_uniform():
    """casualties mode 'random' is uniform on 0..max (here 0..28)."""
    dist = mass.casualty_outcomes(5, 50, "random")
    assert sum(p for _, p in dist) == 1
    assert dist[-1][0] == 28
    rng = random.Random(5)
    samples = [mass.casualties(5, 50, rng, "random") for _ in range(29_000)]
    assert _chi_square_p(samples, dist) > 1e-4
    batch = mass.casualties_batch(np.random.default_rng(5), np.full(29_000, 5), 50, "random")
    assert _chi_square_p(batch.tolist(), dist) > 1e-4


def test_rapid_hit_probability():
    """d20 + 2 >= AC 12 hits on 10..20 (11/20); natural rolls bound it to 1/20..19/20."""
    assert mass.rapid_hit_probability(2, 12) == Fraction(11, 20)
    assert mass.rapid_hit_probability(0, 25) == 0
    assert mass.rapid_hit_probability(0, 25, natural_rolls=True) == Fraction(1, 20)
    assert mass.rapid_hit_probability(10, 5, natural_rolls=True) == Fraction(19, 20)


def test_rapid_volley_outcomes_binomial_and_capped():
    """Casualties of one volley are Binomial(dice, p) with the tail folded at the head count."""
    dist = dict(mass.rapid_volley_outcomes(3, Fraction(1, 2), defenders=2))
    assert dist == {0: Fraction(1, 8), 1: Fraction(3, 8), 2: Fraction(4, 8)}


def test_rapid_volley_samplers_match_exact():
    """Scalar d20 volleys and numpy binomial volleys both match the exact law."""
    p = mass.rapid_hit_probability(1, 14)
    dist = mass.rapid_volley_outcomes(15, p, defenders=12)
    assert sum(q for _, q in dist) == 1
    rng = random.Random(8)
    samples = [mass.rapid_volley(15, 1, 14, 12, rng) for _ in range(20_000)]
    assert _chi_square_p(samples, dist) > 1e-4
    batch = mass.rapid_volley_batch(np.random.default_rng(8), np.full(20_000, 15), float(p), 12)
    assert _chi_square_p(batch.tolist(), dist) > 1e-4


def test_rapid_dice_doubling_and_halving():
    """Max damage > 12 or an incapacitating attack doubles; < 6 halves (floor, min 1)."""
    assert mass.rapid_dice(10, 1, max_damage=13) == 20
    assert mass.rapid_dice(10, 1, max_damage=4, incapacitating=True) == 20
    assert mass.rapid_dice(9, 1, max_damage=4) == 4
    assert mass.rapid_dice(1, 3, max_damage=4) == 1
    assert mass.rapid_dice(0, 3, max_damage=8) == 0
    assert mass.rapid_dice(5, 2, 8, rounding="half_up") == 3


def test_rapid_round_in_initiative_order():
    """The second side answers with its survivors: its dice use the reduced count."""
    first = mass.CrewGroup(count=40, hd=1, attack_bonus=30, max_damage=8)
    second = mass.CrewGroup(count=20, hd=1, ac=10, max_damage=8)
    rnd = mass.resolve_rapid_round(first, second, random.Random(2))
    assert rnd.first_dice == 40
    assert rnd.first_casualties_dealt == 20
    assert rnd.second.count == 0
    assert rnd.second_dice == 0
    assert rnd.first.count == 40


def test_incapacitated_share_and_crew_morale():
    """1d6 x 5% of casualties were only incapacitated; crew morale is 2d10 <= morale."""
    assert mass.incapacitated_share(40, 3) == 6
    assert mass.incapacitated_share(10, 1) == 0
    assert mass.crew_morale_pass_probability(9) == Fraction(36, 100)
    assert mass.crew_morale_pass_probability(11) == Fraction(55, 100)
    p = mass.crew_morale_pass_probability(11)
    dist = [(True, p), (False, 1 - p)]
    rng = random.Random(4)
    assert _chi_square_p([mass.crew_morale_check(11, rng) for _ in range(20_000)], dist) > 1e-4
    batch = mass.crew_morale_check_batch(np.random.default_rng(4), np.full(20_000, 11))
    assert _chi_square_p(batch.tolist(), dist) > 1e-4


# --- properties ------------------------------------------------------------------------

_strength = st.integers(min_value=0, max_value=5_000)
_skill = st.integers(min_value=-4, max_value=6)


@settings(max_examples=200, deadline=None)
@given(
    att_n=st.integers(min_value=1, max_value=5_000),
    def_n=_strength,
    attack=_skill,
    defence=_skill,
    odm=st.integers(-4, 6),
    mode=st.sampled_from(["deterministic", "random"]),
    seed=st.integers(0, 2**32 - 1),
)
def test_unit_casualties_within_strength(att_n, def_n, attack, defence, odm, mode, seed):
    """Unit casualties are never negative and never exceed the defender's strength."""
    opts = MassOptions(casualties=mode)
    att = mass.UnitState(strength=att_n, attack=attack, odm=odm)
    dfn = mass.UnitState(strength=def_n, defence=defence)
    res = mass.resolve_unit_attack(att, dfn, random.Random(seed), opts)
    assert 0 <= res.casualties <= def_n
    assert res.defender.strength == def_n - res.casualties
    batch = mass.resolve_unit_attacks_batch(
        np.random.default_rng(seed), np.full(50, attack), defence, att_n, def_n, odm, 0, opts
    )
    assert (batch.casualties >= 0).all()
    assert (batch.casualties <= def_n).all()
    assert (batch.strength_after >= 0).all()


@settings(max_examples=200, deadline=None)
@given(
    a=st.integers(0, 500),
    b=st.integers(0, 500),
    hd_a=st.integers(1, 12),
    hd_b=st.integers(1, 12),
    bonus=st.integers(-5, 25),
    mx=st.integers(1, 30),
    seed=st.integers(0, 2**32 - 1),
)
def test_rapid_casualties_within_strength(a, b, hd_a, hd_b, bonus, mx, seed):
    """Rapid-resolution casualties are never negative and never exceed a side's count."""
    first = mass.CrewGroup(count=a, hd=hd_a, attack_bonus=bonus, max_damage=mx)
    second = mass.CrewGroup(count=b, hd=hd_b, attack_bonus=bonus, max_damage=mx)
    rnd = mass.resolve_rapid_round(first, second, random.Random(seed))
    assert 0 <= rnd.first_casualties_dealt <= b
    assert 0 <= rnd.second_casualties_dealt <= a
    assert rnd.first.count >= 0
    assert rnd.second.count >= 0
    dice = mass.rapid_dice_batch(np.full(20, a), hd_b, mx)
    lost = mass.rapid_volley_batch(np.random.default_rng(seed), dice, 0.6, b)
    assert (lost >= 0).all()
    assert (lost <= b).all()
    side_a = mass.CrewBatch(
        np.full(20, a), np.full(20, hd_a), np.full(20, mx), np.full(20, 0.7), np.zeros(20, bool)
    )
    side_b = mass.CrewBatch(
        np.full(20, b), np.full(20, hd_b), np.full(20, mx), np.full(20, 0.4), np.ones(20, bool)
    )
    a_left, b_left = mass.resolve_rapid_rounds_batch(np.random.default_rng(seed), side_a, side_b)
    assert ((a_left >= 0) & (a_left <= a)).all()
    assert ((b_left >= 0) & (b_left <= b)).all()


def test_every_scale_read_pair_by_pair_is_the_arrays_scale():
    """Below ``SCALES_AS_BATCH`` the scalar Scale (``math.log``), which a few pairs read,
    equals numpy's for every strength, either rounding."""
    strengths = np.arange(fight.SCALES_AS_BATCH)
    for rounding in ("half_up", "down"):
        scalar = [mass.unit_scale(n, rounding) for n in range(fight.SCALES_AS_BATCH)]
        assert mass.unit_scale_batch(strengths, rounding).tolist() == scalar


@settings(max_examples=300, deadline=None)
@given(
    pairs=st.lists(
        st.tuples(
            st.integers(-3, 9),
            st.integers(-3, 9),
            st.integers(0, 4000),
            st.integers(0, 4000),
            st.integers(-6, 8),
            st.integers(-3, 6),
        ),
        min_size=1,
        max_size=fight.FEW_PAIRS,
    ),
    rounding=st.sampled_from(["half_up", "down"]),
    cap=st.integers(0, 4),
    in_damage=st.booleans(),
    mode=st.sampled_from(["deterministic", "random"]),
    seed=st.integers(0, 2**32 - 1),
)
def test_a_few_pairs_worked_out_in_ints_are_the_arrays_batch(
    pairs, rounding, cap, in_damage, mode, seed
):
    """A batch of a few pairs given as lists (worked out pair by pair) equals the same
    batch given as arrays (numpy's way), field by field, and leaves the generator where
    the arrays' way leaves it: the same draws in the same calls."""
    opts = MassOptions(
        scale_rounding=rounding, scale_cap=cap, scale_in_damage=in_damage, casualties=mode
    )
    columns = [list(column) for column in zip(*pairs, strict=True)]
    few_rng, arrays_rng = np.random.default_rng(seed), np.random.default_rng(seed)
    few = mass.resolve_unit_attacks_batch(few_rng, *columns, opts)
    arrays = mass.resolve_unit_attacks_batch(arrays_rng, *map(np.array, columns), opts)
    for name in ("rd", "damage", "casualties", "morale_checked", "morale_passed",
                 "strength_after"):  # fmt: skip
        mine, theirs = getattr(few, name), getattr(arrays, name)
        assert mine.dtype == theirs.dtype, name
        assert mine.tolist() == theirs.tolist(), name
    assert few_rng.integers(1 << 62) == arrays_rng.integers(1 << 62)


def test_the_pair_by_pair_way_takes_only_a_few_pairs_of_lists():
    """Lists of more than ``FEW_PAIRS``, lists of unequal lengths, a strength out of the
    range checked, arrays or scalars: each goes the arrays' way."""
    few = [[1], [1], [10], [10], [0], [0]]
    assert fight._few(*few) == tuple(few)
    assert fight._few(*[column * (fight.FEW_PAIRS + 1) for column in few]) is None
    assert fight._few([1, 2], *few[1:]) is None
    assert fight._few(*few[:2], [fight.SCALES_AS_BATCH], *few[3:]) is None
    assert fight._few(*few[:2], [-1], *few[3:]) is None
    assert fight._few(np.array([1]), *few[1:]) is None
    assert fight._few(1, *few[1:]) is None


@given(n=st.integers(0, 100_000))
def test_unit_scale_batch_agrees_with_scalar(n):
    """The vectorised Scale equals the scalar one."""
    assert mass.unit_scale_batch([n])[0] == mass.unit_scale(n)


def test_rapid_round_outcomes_match_samplers():
    """One exchange's exact joint casualties match the scalar and the numpy round."""
    first = mass.CrewGroup(count=9, hd=1, attack_bonus=2, ac=12, max_damage=8)
    second = mass.CrewGroup(count=6, hd=2, attack_bonus=3, ac=13, max_damage=10)
    dist = mass.rapid_round_outcomes(first, second)
    assert sum(p for _, p in dist) == 1
    rng = random.Random(21)
    samples = []
    for _ in range(20_000):
        rnd = mass.resolve_rapid_round(first, second, rng)
        samples.append((rnd.first_casualties_dealt, rnd.second_casualties_dealt))
    assert _chi_square_p(samples, dist) > 1e-4
    k = 20_000
    p1 = float(mass.rapid_hit_probability(2, 13))
    p2 = float(mass.rapid_hit_probability(3, 12))
    a = mass.CrewBatch(
        np.full(k, 9), np.full(k, 1), np.full(k, 8), np.full(k, p1), np.zeros(k, bool)
    )
    b = mass.CrewBatch(
        np.full(k, 6), np.full(k, 2), np.full(k, 10), np.full(k, p2), np.zeros(k, bool)
    )
    a_left, b_left = mass.resolve_rapid_rounds_batch(np.random.default_rng(21), a, b)
    pairs = list(zip((6 - b_left).tolist(), (9 - a_left).tolist(), strict=True))
    assert _chi_square_p(pairs, dist) > 1e-4


@settings(max_examples=200, deadline=None)
@given(
    data=st.lists(
        st.tuples(st.lists(st.integers(-3, 12), max_size=10), st.integers(-3, 12)),
        min_size=1,
        max_size=12,
    )
)
def test_record_unit_damage_batch_agrees_with_scalar(data):
    """The vectorised wound track records a hit exactly as the scalar one, from any state."""
    units, more = [], []
    for history, dmg in data:
        u = mass.UnitWounds()
        for h in history:
            u = mass.record_unit_damage(u, h)
        units.append(u)
        more.append(dmg)
    marked = np.array([u.marked for u in units])
    subs = np.array([u.sub_scratches for u in units])
    dead = np.array([u.dead for u in units])
    box, subs2, dead2 = mass.record_unit_damage_batch(marked, subs, dead, more)
    expected = [mass.record_unit_damage(u, d) for u, d in zip(units, more, strict=True)]
    assert box.tolist() == [list(u.marked) for u in expected]
    assert subs2.tolist() == [u.sub_scratches for u in expected]
    assert dead2.tolist() == [u.dead for u in expected]


def test_a_tracks_level_is_its_highest_marked_box_for_every_marking():
    """The level read each volley is the highest level with a box marked (0 when none),
    for every marking of up to three boxes a level, and DEAD once dead."""
    from itertools import product

    for marked in product(range(4), repeat=5):
        wounds = mass.UnitWounds(marked=marked)
        assert wounds.level == max((i + 1 for i, m in enumerate(marked) if m), default=0)
        assert mass.UnitWounds(marked=marked, dead=True).level == mass.DEAD
