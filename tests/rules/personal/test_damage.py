"""Damage factors and damage numbers of every wound model (wounds-and-healing.md §4-§9, §11)."""

import random
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats

from fadad_agents.rules.core import damage as core_damage
from fadad_agents.rules.core.dice import three_d6_distribution
from fadad_agents.rules.core.wounds import (
    MINMIDMAX_EPIC,
    Wound,
    new_track,
    record,
    wound_for_damage,
)
from fadad_agents.rules.options import RulesOptions
from fadad_agents.rules.personal import damage as dmg
from fadad_agents.rules.personal import minmidmax as mmm
from fadad_agents.rules.personal.wound_models import (
    DamageRules,
    WoundRules,
    record_wound,
    resolve_wound,
    wound_from_dice,
    wound_outcomes,
)

W = Wound


def _chi_square_p(samples, dist):
    counts = Counter(samples)
    n = len(samples)
    observed = [counts.get(v, 0) for v, _ in dist]
    expected = [float(p) * n for _, p in dist]
    assert sum(observed) == n, "sampler produced an outcome outside its distribution"
    return stats.chisquare(observed, expected).pvalue


# --- factors ----------------------------------------------------------------------------


def test_ex_pc_01_snorri_brynhild_factors():
    """EX-PC-01: Snorri ODM +5, DDM +3; Brynhild ODM +5, DDM +2; totals +3 and +2."""
    snorri_odm = dmg.offensive_factor(1, 0, dmg.FADAD_WEAPONS["broadsword"], magic=1)
    snorri_ddm = dmg.defensive_factor(1, 0, dmg.ARMOUR["heavy leather"])
    bryn_odm = dmg.offensive_factor(2, 0, dmg.FADAD_WEAPONS["battleaxe"])
    bryn_ddm = dmg.defensive_factor(0, 0, dmg.ARMOUR["heavy leather"])
    assert (snorri_odm, snorri_ddm, bryn_odm, bryn_ddm) == (5, 3, 5, 2)
    assert dmg.total_factor(snorri_odm, bryn_ddm) == 3
    assert dmg.total_factor(bryn_odm, snorri_ddm) == 2
    # FUDGE classes give the same sword: +2 size, +1 sharp, +1 magic
    assert dmg.fudge_weapon_value(2, sharp=True) + 1 == 4


def test_fudge_weapon_classes_and_less_lethal():
    """Knife +1, shortsword +2, broadsword +3, greatsword +4; less-lethal -1 except sharpness."""
    assert [dmg.fudge_weapon_value(c, sharp=True) for c in range(4)] == [1, 2, 3, 4]
    assert dmg.fudge_weapon_value(2, sharp=True, less_lethal=True) == 2
    assert dmg.fudge_weapon_value(-1, less_lethal=True) == -2
    assert dmg.FUDGE_WEAPON_CLASSES["none_untrained"] == -1


def test_weapon_strength_replaces_strength_and_scale():
    """A-19: a gun's Strength replaces the wielder's; his Scale is not added."""
    assert dmg.offensive_factor(3, 10, 1, weapon_strength=2) == 3
    assert dmg.offensive_factor(3, 10, 1) == 14


def test_armour_values():
    """§4.2/4.3 armour: leather +1, scale/chain +2, coat of plates +3, plate +4."""
    names = ("leather", "scale", "chain mail", "coat of plates", "plate")
    assert [dmg.ARMOUR[a] for a in names] == [1, 2, 2, 3, 4]
    assert dmg.ARMOUR_CLASSES["heavy_metal"] == 4


def test_widespread_scale_third_and_scale_piercing():
    """Mass Scale counts a third vs widespread attacks (toward zero); piercing on RD >= 3."""
    assert dmg.defensive_factor(0, 8, widespread=True) == 2
    assert dmg.defensive_factor(0, -4, widespread=True) == -1
    assert dmg.pierced_scale(9, rd=3, piercing="halve") == 4
    assert dmg.pierced_scale(9, rd=2, piercing="halve") == 9
    assert dmg.pierced_scale(9, rd=5, piercing="ignore") == 0
    assert dmg.pierced_scale(9, rd=5, piercing="ignore", min_rd=6) == 9


def test_weapon_groups():
    """A-18: full vs own group or lighter, half one heavier (floor), none two heavier; crit full."""
    sword = dmg.weapon_group(2)
    assert dmg.apply_weapon_groups(5, sword, dmg.armour_group(2)) == 5
    assert dmg.apply_weapon_groups(5, sword, dmg.armour_group(4)) == 2
    knife = dmg.weapon_group(0)
    assert dmg.group_multiplier(knife, dmg.armour_group(1)) == Fraction(1, 2)
    assert dmg.apply_weapon_groups(5, knife, dmg.armour_group(2)) == 0
    assert dmg.apply_weapon_groups(5, knife, dmg.armour_group(2), critical=True) == 5


# --- FADAD ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rd", "factor", "roll", "final", "wound"),
    [
        (2, 2, 0, 4, W.HURT),
        (1, 3, -2, 2, W.SCRATCH),
        (1, -3, 4, 1, W.SCRATCH),
        (1, -3, 2, 0, W.UNDAMAGED),
        (5, 3, 1, 9, W.NEAR_DEATH),
        (0, -2, 3, 1, W.SCRATCH),
    ],
)
def test_ex_wnd_01_fadad_mapping_and_negative_cap(rd, factor, roll, final, wound):
    """EX-WND-01: FADAD damage = RD + factor + 4dF, negative base capped at 1."""
    assert core_damage.fadad_damage(rd, factor, roll) == final
    assert wound_for_damage(final) == wound


def test_ex_wnd_02_snorri_vs_brynhild_sequence():
    """EX-WND-02: damage 2 (Scratch), 6 (Very Hurt), 9 (Near Death) and Brynhild's track."""
    rules = DamageRules()
    track = new_track("standard")
    expected = [
        (1, -2, 2, W.SCRATCH, (1, 0, 0, 0, 0), W.SCRATCH),
        (1, 2, 6, W.VERY_HURT, (1, 0, 1, 0, 0), W.VERY_HURT),
        (5, 1, 9, W.NEAR_DEATH, (1, 0, 1, 0, 1), W.NEAR_DEATH),
    ]
    for rd, roll, number, wound, filled, level in expected:
        hit = wound_from_dice(rules, rd, 3, (roll,))
        assert (hit.damage, hit.wound) == (number, wound)
        track = record(track, hit.wound)
        assert (track.filled, track.level) == (filled, level)
    assert new_track().penalty == 0
    assert record(record(new_track(), W.SCRATCH), W.VERY_HURT).penalty == -2


def test_ex_wnd_07_fionn_fadad_zero_base_not_capped():
    """EX-WND-07 (FADAD): base 0 is not negative (A-16): -4..0 none, +1/+2 Scratch, +3/+4 Hurt."""
    wounds = [wound_for_damage(core_damage.fadad_damage(3, -3, r)) for r in range(-4, 5)]
    assert wounds == [W.UNDAMAGED] * 5 + [W.SCRATCH] * 2 + [W.HURT] * 2


def test_fadad_outcomes_match_sampler():
    """fadad_damage_outcomes sums to 1 and matches the sampler (chi-square)."""
    dist = core_damage.fadad_damage_outcomes(1, 3)
    assert sum(p for _, p in dist) == 1
    assert dict(dist)[0] == Fraction(1, 81)  # only -4 leaves 4 + roll <= 0
    assert dict(dist)[1] == Fraction(4, 81)
    rng = random.Random(42)
    samples = [core_damage.roll_fadad_damage(1, 3, rng) for _ in range(30_000)]
    assert _chi_square_p(samples, dist) > 1e-4


@given(st.integers(-15, 15), st.integers(-15, 15), st.integers(-4, 4))
def test_property_fadad_negative_base_capped(rd, factor, roll):
    """FADAD: damage with a negative base never exceeds 1; damage is never negative."""
    d = core_damage.fadad_damage(rd, factor, roll)
    assert d >= 0
    if rd + factor < 0:
        assert d <= 1


# --- FUDGE numeric ----------------------------------------------------------------------


def test_ex_wnd_03_leroy_hits_theodora():
    """EX-WND-03: Leroy offensive 4, Theodora defensive 2, RD +2 -> 4 -> Hurt, -1."""
    off = dmg.offensive_factor(1, 0, dmg.fudge_weapon_value(2, sharp=True))
    dfn = dmg.defensive_factor(0, 0, dmg.ARMOUR["chain mail"])
    assert (off, dfn) == (4, 2)
    hit = wound_from_dice(DamageRules(wound_model="fudge_numeric"), 2, off - dfn, ())
    assert (hit.damage, hit.wound) == (4, W.HURT)
    assert record(new_track(), hit.wound).penalty == -1


@pytest.mark.parametrize(
    ("factor", "wound"), [(-1, W.UNDAMAGED), (0, W.SCRATCH), (4, W.SCRATCH), (5, W.HURT)]
)
def test_ex_wnd_04_graze_table(factor, wound):
    """EX-WND-04: graze (RD +1) by total factor: <0 none, 0-4 Scratch, 5+ Hurt."""
    assert dmg.graze_wound(factor) == wound
    assert wound_from_dice(DamageRules(wound_model="fudge_numeric"), 1, factor, ()).wound == wound


def test_graze_scale_adjustment():
    """A-22: +1 level per full 5 Scale advantage, capped at Very Hurt."""
    assert dmg.graze_wound(2, scale_advantage=4) == W.SCRATCH
    assert dmg.graze_wound(2, scale_advantage=5) == W.HURT
    assert dmg.graze_wound(6, scale_advantage=20) == W.VERY_HURT
    assert dmg.graze_wound(-1, scale_advantage=20) == W.UNDAMAGED


def test_ex_wnd_05_wilbur_vs_dragon():
    """EX-WND-05: 3 + (6 - 8) = 1 -> Scratch; the fourth such hit makes the dragon Hurt."""
    rules = DamageRules(wound_model="fudge_numeric")
    hit = wound_from_dice(rules, 3, 6 - 8, ())
    assert (hit.damage, hit.wound) == (1, W.SCRATCH)
    track = new_track()
    levels = []
    for _ in range(4):
        track = record(track, hit.wound)
        levels.append(track.level)
    assert levels == [W.SCRATCH, W.SCRATCH, W.SCRATCH, W.HURT]


def test_ex_wnd_06_sheba_kicks_mcmurtree():
    """EX-WND-06: factor 1 - (-3) = 4; damage 4 + 2 = 6 -> Very Hurt, -2."""
    hit = wound_from_dice(DamageRules(wound_model="fudge_numeric"), 2, 1 - (-3), ())
    assert (hit.damage, hit.wound) == (6, W.VERY_HURT)
    assert record(new_track(), hit.wound).penalty == -2


def test_ex_wnd_07_fionn_fudge_no_damage():
    """EX-WND-07 (FUDGE): -3 + 3 = 0 -> no damage."""
    hit = wound_from_dice(DamageRules(wound_model="fudge_numeric"), 3, -1 - 2, ())
    assert (hit.damage, hit.wound) == (0, W.UNDAMAGED)


def test_ex_wnd_10_1df_variants():
    """EX-WND-10: damage 4; 1dF_factor +1 -> 5 Very Hurt, -1 -> 3 Hurt; 1dF_level -1 -> Scratch."""
    assert wound_for_damage(dmg.with_1df_factor(4, 1)) == W.VERY_HURT
    assert wound_for_damage(dmg.with_1df_factor(4, -1)) == W.HURT
    assert dmg.damage_1df_level(wound_for_damage(4), -1) == W.SCRATCH
    factor_rules = DamageRules(wound_model="fudge_numeric", damage_roll="1dF_factor")
    assert wound_from_dice(factor_rules, 2, 2, (1,)).wound == W.VERY_HURT
    level_rules = DamageRules(wound_model="fudge_numeric", damage_roll="1dF_level")
    assert wound_from_dice(level_rules, 2, 2, (-1,)).wound == W.SCRATCH


def test_ex_wnd_11_parity():
    """EX-WND-11: defender's even dice (0) +1 defence; attacker's odd +3 unchanged: -1."""
    assert dmg.parity_adjustment(attacker_dice=3, defender_dice=0) == -1
    rules = DamageRules(wound_model="fudge_numeric", damage_roll="parity")
    hit = wound_from_dice(rules, 2, 2, (), attacker_dice=3, defender_dice=0)
    assert hit.damage == 4 - 1
    dist = dict(dmg.parity_outcomes())
    assert sum(dist.values()) == 1
    assert dist[1] == dist[-1] == Fraction(41 * 40, 81 * 81)


@pytest.mark.parametrize(
    ("calc", "roll", "final", "wound"),
    [(-2, 4, 1, W.SCRATCH), (-2, 3, 1, W.SCRATCH), (-2, 2, 0, W.UNDAMAGED), (2, 4, 4, W.HURT),
     (2, 2, 4, W.HURT), (2, 1, 3, W.HURT), (2, 0, 2, W.SCRATCH), (2, -3, 1, W.SCRATCH)],
)  # fmt: skip
def test_ex_wnd_12_limited_4df(calc, roll, final, wound):
    """EX-WND-12: limited 4dF damage roll (L1 cap, L2 floor 1, L3 negative cap 1)."""
    assert dmg.limited_4df_damage(calc, roll) == final
    assert wound_for_damage(final) == wound


@given(st.integers(1, 20), st.integers(-4, 4))
def test_property_limited_4df_at_most_doubles(calc, roll):
    """Limited 4dF never more than doubles a positive calculated damage, never drops below 1."""
    assert dmg.limited_4df_damage(calc, roll) in range(1, 2 * calc + 1)


@given(st.integers(-20, 0), st.integers(-4, 4))
def test_property_limited_4df_nonpositive_cap(calc, roll):
    """Limited 4dF: a calculated damage of 0 or less ends at 0 or 1 (A-26)."""
    assert dmg.limited_4df_damage(calc, roll) in (0, 1)


@pytest.mark.parametrize(
    ("outcomes", "sampler"),
    [
        (dmg.limited_4df_outcomes(2), lambda r: dmg.roll_limited_4df_damage(2, r)),
        (dmg.unlimited_4df_outcomes(1), lambda r: dmg.roll_unlimited_4df_damage(1, r)),
        (dmg.with_1df_factor_outcomes(3), lambda r: dmg.roll_1df_factor(3, r)),
    ],
)
def test_fudge_roll_outcomes_match_samplers(outcomes, sampler):
    """Exact damage-roll distributions sum to 1 and match their samplers."""
    assert sum(p for _, p in outcomes) == 1
    rng = random.Random(7)
    assert _chi_square_p([sampler(rng) for _ in range(20_000)], outcomes) > 1e-4


def test_1df_level_outcomes():
    """1dF_level moves a Hurt to Scratch/Hurt/Very Hurt with 1/3 each; no wound stays none."""
    assert dmg.with_1df_level_outcomes(W.HURT) == [
        (W.SCRATCH, Fraction(1, 3)), (W.HURT, Fraction(1, 3)), (W.VERY_HURT, Fraction(1, 3))
    ]  # fmt: skip
    assert dmg.with_1df_level_outcomes(W.UNDAMAGED) == [(W.UNDAMAGED, Fraction(1))]


def test_double_rd_option():
    """A-21: damage = 2*RD + factor on the doubled-RD track."""
    rules = DamageRules(wound_model="fudge_numeric", double_rd=True)
    hit = wound_from_dice(rules, 3, 1, ())
    assert (hit.damage, hit.wound) == (7, W.VERY_HURT)


# --- Min-Mid-Max ------------------------------------------------------------------------


def test_minmidmax_bonus_tables():
    """§9 bonus table: factor <0 -1 (-2 at -5 with option), 0-2 0, 3-5 +1, 6+ +2; RD likewise."""
    assert [mmm.factor_bonus(f) for f in (-5, -1, 0, 2, 3, 5, 6)] == [-1, -1, 0, 0, 1, 1, 2]
    assert mmm.factor_bonus(-5, minus2=True) == -2
    assert mmm.factor_bonus(-4, minus2=True) == -1
    assert [mmm.rd_bonus(r) for r in (2, 3, 4, 5, 6, 9)] == [0, 0, 1, 1, 2, 2]
    assert [mmm.reading(b) for b in (-1, 0, 1, 2, 3, 4, 5, 7)] == [
        (), ("min",), ("mid",), ("max",), ("max", "min"), ("max", "mid"),
        ("max", "mid", "min"), ("max", "mid", "min"),
    ]  # fmt: skip


def test_ex_wnd_13_rachel_vs_archie():
    """EX-WND-13: Hurt on Archie; graze Scratch on Rachel; Hurt on Rachel; Archie Incapacitated."""
    assert mmm.minmidmax_wound(2, 0, (3, 5, 6)) == W.HURT  # Min 3
    assert mmm.minmidmax_wound(1, 4, (6, 6, 6)) == W.SCRATCH  # graze, dice ignored
    assert mmm.total_bonus(4, 4) == 2
    assert mmm.minmidmax_wound(4, 4, (1, 2, 3)) == W.HURT  # Max 3
    assert mmm.minmidmax_damage((1, 4, 6), mmm.total_bonus(0, 6), all_out=True) == 7
    assert mmm.minmidmax_wound(6, 0, (1, 4, 6), all_out=True) == W.INCAPACITATED
    rules = DamageRules(wound_model="fudge_minmidmax")
    assert wound_from_dice(rules, 6, 0, (1, 4, 6), all_out=True).damage == 7


def test_ex_wnd_14_bonus_and_reading():
    """EX-WND-14: factor +3 and RD +5 -> Max; 1,3,5 reads 1/3/5; 2,4,4 reads 2/4/4."""
    bonus = mmm.total_bonus(3, 5)
    assert mmm.reading(bonus) == ("max",)
    assert [mmm.minmidmax_damage((1, 3, 5), b) for b in (0, 1, 2)] == [1, 3, 5]
    assert [wound_for_damage(d) for d in (1, 3, 5)] == [W.SCRATCH, W.HURT, W.VERY_HURT]
    assert [mmm.minmidmax_damage((4, 2, 4), b) for b in (0, 1, 2)] == [2, 4, 4]
    assert mmm.minmidmax_damage((1, 3, 5), 3) == 6  # PROPOSED Max + Min
    assert mmm.minmidmax_damage((1, 3, 5), 5) == 9


def test_minmidmax_epic_and_kill_options():
    """A-28 epic track; results above 9 may kill (GM option)."""
    assert mmm.minmidmax_wound(6, 6, (6, 6, 6), thresholds=MINMIDMAX_EPIC) == W.NEAR_DEATH
    assert mmm.minmidmax_wound(6, 6, (6, 6, 6)) == W.NEAR_DEATH
    assert mmm.minmidmax_wound(6, 6, (6, 6, 6), kill_above_9=True) == W.DEAD
    assert mmm.minmidmax_wound(2, -1, (6, 6, 6)) == W.UNDAMAGED  # bonus < 0: no damage


def test_minmidmax_outcomes_match_sampler():
    """Exact Min-Mid-Max distributions sum to 1 and match the sampler."""
    dist = mmm.minmidmax_outcomes(4, 0)  # Mid of 3d6
    assert sum(p for _, p in dist) == 1
    dmg_dist = mmm.minmidmax_damage_outcomes(0)
    assert dict(dmg_dist)[6] == Fraction(1, 216)
    assert sum(p for _, p in dmg_dist) == 1
    rng = random.Random(3)
    samples = [mmm.roll_minmidmax_wound(4, 0, rng) for _ in range(20_000)]
    assert _chi_square_p(samples, dist) > 1e-4
    assert len(three_d6_distribution()) == 56


# --- freeform and dispatch --------------------------------------------------------------


def test_ex_wnd_21_freeform_cross_check():
    """EX-WND-21: GM rules Hurt; numeric 4 - 3 = +1, RD +2 -> 3 -> Hurt agrees."""
    off = dmg.offensive_factor(1, 0, dmg.fudge_weapon_value(2, sharp=True))
    dfn = dmg.defensive_factor(1, 0, dmg.ARMOUR["heavy leather"])
    assert (off, dfn) == (4, 3)
    numeric = wound_from_dice(DamageRules(wound_model="fudge_numeric"), 2, off - dfn, ())
    assert (numeric.damage, numeric.wound) == (3, W.HURT)
    freeform = DamageRules(wound_model="fudge_freeform")
    assert wound_from_dice(freeform, 2, off - dfn, (0,), gm_level=W.HURT).wound == W.HURT
    assert wound_from_dice(freeform, 2, off - dfn, (0,)).wound == W.HURT  # default judgement


def test_freeform_situational_levels():
    """A-30: +3 adds a level, +4 two (cap Near Death); other rolls change nothing."""
    assert [dmg.freeform_wound(W.HURT, r) for r in range(-4, 5)] == [W.HURT] * 7 + [
        W.VERY_HURT, W.INCAPACITATED
    ]  # fmt: skip
    assert dmg.freeform_wound(W.NEAR_DEATH, 4) == W.NEAR_DEATH
    assert dmg.freeform_wound(W.HURT, 4, situational_levels=False) == W.HURT


_MODELS = [
    DamageRules(),
    DamageRules(wound_model="fudge_numeric"),
    DamageRules(wound_model="fudge_numeric", damage_roll="1dF_factor"),
    DamageRules(wound_model="fudge_numeric", damage_roll="1dF_level"),
    DamageRules(wound_model="fudge_numeric", damage_roll="parity"),
    DamageRules(wound_model="fudge_numeric", damage_roll="4dF_limited"),
    DamageRules(wound_model="fudge_numeric", damage_roll="4dF_unlimited"),
    DamageRules(wound_model="fudge_numeric", double_rd=True, damage_roll="4dF_unlimited"),
    DamageRules(wound_model="fudge_minmidmax"),
    DamageRules(wound_model="fudge_minmidmax", minmidmax_epic=True),
    DamageRules(wound_model="fudge_freeform"),
]


@pytest.mark.parametrize("rules", _MODELS)
@pytest.mark.parametrize(("rd", "factor"), [(1, 2), (3, 1), (5, 4)])
def test_wound_outcomes_match_resolve_wound(rules, rd, factor):
    """Every model's exact wound distribution sums to 1 and matches resolve_wound."""
    dist = wound_outcomes(rules, rd, factor)
    assert sum(p for _, p in dist) == 1
    rng = random.Random(rd * 100 + factor)
    samples = [resolve_wound(rules, rd, factor, rng).wound for _ in range(4_000)]
    if len(dist) == 1:
        assert set(samples) == {dist[0][0]}
    else:
        assert _chi_square_p(samples, dist) > 1e-4


def test_damage_rules_from_options():
    """DamageRules copies the switches out of RulesOptions."""
    opts = RulesOptions.from_flat(
        {
            "wound_model": "fudge_numeric",
            "fudge.damage_roll": "4dF_limited",
            "fudge.double_rd": True,
        }
    )
    rules = DamageRules.from_options(opts)
    assert (rules.wound_model, rules.damage_roll, rules.double_rd) == (
        "fudge_numeric", "4dF_limited", True
    )  # fmt: skip


def test_scale_note_allows_damage_roll():
    """§7 Scale note: if Scale alone blocks a Scratch, a limited 4dF roll may give one."""
    rules = DamageRules(wound_model="fudge_numeric", scale_damage_roll=True)
    # calc = 3 + (-3) = 0; without the defender's 2 extra Scale it would be 2
    assert wound_from_dice(rules, 3, -3, (1,), scale_advantage=-2).wound == W.SCRATCH
    assert wound_from_dice(rules, 3, -3, (0,), scale_advantage=-2).wound == W.UNDAMAGED
    dist = wound_outcomes(rules, 3, -3, scale_advantage=-2)
    assert dist == [(W.UNDAMAGED, Fraction(50, 81)), (W.SCRATCH, Fraction(31, 81))]
    # no Scale in the way, or the option off: no roll, no damage
    assert wound_outcomes(rules, 3, -3) == [(W.UNDAMAGED, Fraction(1))]
    off = DamageRules(wound_model="fudge_numeric")
    assert wound_outcomes(off, 3, -3, scale_advantage=-2) == [(W.UNDAMAGED, Fraction(1))]


def test_dispatch_weapon_groups_and_crit_bonus():
    """A-18 in the dispatcher: a Medium weapon vs plate does half, full on a critical;
    Extra Damage crits add to the damage number."""
    rules = DamageRules(wound_model="fudge_numeric", weapon_groups=True)
    full = wound_from_dice(rules, 3, 3, ())
    assert (full.damage, full.wound) == (6, W.VERY_HURT)
    half = wound_from_dice(rules, 3, 3, (), weapon_group=2, armour_group=3)
    assert (half.damage, half.wound) == (3, W.HURT)
    crit = wound_from_dice(rules, 3, 3, (), weapon_group=2, armour_group=3, critical=True)
    assert crit.damage == 6
    none = wound_from_dice(rules, 3, 3, (), weapon_group=0, armour_group=3)
    assert none.wound == W.UNDAMAGED
    # a graze read as a level loses one level at half damage
    assert wound_from_dice(rules, 1, 5, (), weapon_group=2, armour_group=3).wound == W.SCRATCH
    # the option off: groups are ignored
    plain = DamageRules(wound_model="fudge_numeric")
    assert wound_from_dice(plain, 3, 3, (), weapon_group=0, armour_group=3).damage == 6
    bonus = wound_from_dice(DamageRules(), 5, 3, (1,), damage_bonus=2)
    assert (bonus.damage, bonus.wound) == (11, W.NEAR_DEATH)
    dist = wound_outcomes(rules, 3, 3, weapon_group=2, armour_group=3)
    assert dist == [(W.HURT, Fraction(1))]


def test_minmidmax_dispatch_kill_above_9():
    """Min-Mid-Max via the dispatcher: bonus +4 reads Max + Mid; above 9 may kill."""
    rules = DamageRules(wound_model="fudge_minmidmax", kill_above_9=True)
    hit = wound_from_dice(rules, 6, 6, (4, 5, 6))
    assert (hit.damage, hit.wound) == (11, W.DEAD)
    keep = wound_from_dice(DamageRules(wound_model="fudge_minmidmax"), 6, 6, (4, 5, 6))
    assert keep.wound == W.NEAR_DEATH
    assert wound_outcomes(rules, 2, -1) == [(W.UNDAMAGED, Fraction(1))]  # no roll at all


def test_record_wound_under_options():
    """record_wound applies PC protections to PCs only, point spends, pulled punches."""
    opts = RulesOptions.from_flat({"pc_death.max_three_levels": True, "scratch_cap": True})
    rules = WoundRules.from_options(opts)
    assert (rules.max_three_levels, rules.scratch_cap, rules.point_spend) == (True, True, True)
    t = new_track()
    assert record_wound(rules, t, W.NEAR_DEATH, pc=True).level == W.VERY_HURT  # EX-WND-17
    assert record_wound(rules, t, W.NEAR_DEATH).level == W.NEAR_DEATH  # NPCs unprotected
    hurt = record(t, W.HURT)
    assert record_wound(rules, hurt, W.DEAD, pc=True, point_spent=True).level == (W.INCAPACITATED)
    no_spend = WoundRules(point_spend=False)
    assert record_wound(no_spend, t, W.NEAR_DEATH, pc=True, point_spent=True).level == (
        W.NEAR_DEATH
    )
    assert record_wound(rules, t, W.NEAR_DEATH, pulled_to=W.SCRATCH).level == W.SCRATCH


@given(st.sampled_from(_MODELS), st.integers(-2, 9), st.integers(-8, 8), st.integers(-6, 6))
def test_property_exact_distributions_sum_to_one(rules, rd, factor, scale_advantage):
    """Every exact damage/wound distribution sums to 1."""
    assert (
        sum(p for _, p in wound_outcomes(rules, rd, factor, scale_advantage=scale_advantage)) == 1
    )
    assert sum(p for _, p in core_damage.fadad_damage_outcomes(rd, factor)) == 1
    assert sum(p for _, p in mmm.minmidmax_outcomes(rd, factor)) == 1
    assert sum(p for _, p in dmg.limited_4df_outcomes(rd + factor)) == 1


def test_minmidmax_graze_scale_adjustment():
    """A Min-Mid-Max graze uses the graze table with the A-22 Scale adjustment."""
    rules = DamageRules(wound_model="fudge_minmidmax")
    assert wound_from_dice(rules, 1, 4, ()).wound == W.SCRATCH
    assert wound_from_dice(rules, 1, 4, (), scale_advantage=10).wound == W.VERY_HURT
