"""Critical-hit effects: the PROPOSED d8 list, choice for boring attacks, sampler vs exact."""

import random
from collections import Counter
from fractions import Fraction

import pytest
from scipy import stats

from fadad_agents.rules.personal import criticals as crit


def _chi_square_p(samples, dist):
    counts = Counter(samples)
    n = len(samples)
    observed = [counts.get(v, 0) for v, _ in dist]
    expected = [float(p) * n for _, p in dist]
    assert sum(observed) == n, "sampler produced an outcome outside its distribution"
    return stats.chisquare(observed, expected).pvalue


def test_d8_list_and_flags():
    """A-17: eight effects in d8 order; Weak Spot, Vitals and Knockout are the lethal ones."""
    assert [e.d8 for e in crit.CRIT_EFFECTS] == list(range(1, 9))
    assert [e.name for e in crit.CRIT_EFFECTS] == [
        "Weak Spot", "Vitals", "Knockout", "Extra Damage", "Disarm", "Knockdown", "Stagger",
        "Called Location",
    ]  # fmt: skip
    assert [e.name for e in crit.CRIT_EFFECTS if e.repeatable] == [
        "Vitals", "Extra Damage", "Stagger"
    ]  # fmt: skip
    assert not any(e.lethal for e in crit.NON_LETHAL)
    assert len(crit.NON_LETHAL) == 5


def test_boring_attacks_never_lethal():
    """Boring attacks pick a non-lethal crit (anything but Weak Spot, Vitals or Knockout)."""
    rng = random.Random(1)
    for _ in range(200):
        assert all(not e.lethal for e in crit.roll_crits(3, rng, non_lethal=True))


def test_non_repeatable_not_drawn_twice():
    """One effect per crit; a non-repeatable effect never appears twice in one hit."""
    rng = random.Random(2)
    for _ in range(300):
        effects = crit.roll_crits(4, rng)
        names = [e.name for e in effects if not e.repeatable]
        assert len(names) == len(set(names))
        assert len(effects) == 4


def test_intent_and_modifiers():
    """Declared intent picks the matching crit; modifiers add up."""
    assert crit.crit_for_intent("disarm") is crit.DISARM
    with pytest.raises(crit.UnknownIntentError, match="allowed"):
        crit.crit_for_intent("explode")
    mods = crit.crit_modifiers((crit.WEAK_SPOT, crit.STAGGER, crit.STAGGER, crit.VITALS))
    assert (mods.ignore_armour, mods.lost_actions, mods.level_bonus, mods.damage_bonus) == (
        True, 2, 1, 0
    )  # fmt: skip
    assert crit.crit_modifiers(()) == crit.CritModifiers()


@pytest.mark.parametrize("non_lethal", [False, True])
def test_single_effect_sampler_matches_outcomes(non_lethal):
    """A single crit is uniform over its pool (1/8, or 1/5 for boring attacks)."""
    dist = crit.crit_effect_outcomes(non_lethal=non_lethal)
    assert sum(p for _, p in dist) == 1
    assert dist[0][1] == Fraction(1, 5 if non_lethal else 8)
    rng = random.Random(11)
    samples = [crit.roll_crit_effect(rng, non_lethal=non_lethal) for _ in range(16_000)]
    assert _chi_square_p(samples, dist) > 1e-4


def test_double_crit_sampler_matches_outcomes():
    """Two crits: exact sequence distribution (excluding repeats) matches the sampler."""
    dist = crit.crits_outcomes(2)
    assert sum(p for _, p in dist) == 1
    # Weak Spot cannot repeat (the second draw is from 7); Vitals can (pool stays 8).
    probs = dict(dist)
    assert (crit.WEAK_SPOT, crit.WEAK_SPOT) not in probs
    assert probs[(crit.VITALS, crit.VITALS)] == Fraction(1, 64)
    assert probs[(crit.WEAK_SPOT, crit.VITALS)] == Fraction(1, 56)
    rng = random.Random(12)
    samples = [crit.roll_crits(2, rng) for _ in range(30_000)]
    assert _chi_square_p(samples, dist) > 1e-4


def test_vitals_adds_a_level_after_the_wound_is_recorded() -> None:
    """Vitals is +1 wound level after recording (section 10): a Scratch that fills the
    last Scratch box leaves a Scratch, one more level makes it Hurt; a Scratch when the
    boxes are full overflows to Hurt, one more level makes it Very Hurt (raising the
    blow first would have recorded a Hurt)."""
    from fadad_agents.rules.core.wounds import Wound, new_track, record
    from fadad_agents.rules.personal.combat import CombatRules, Fighter, attack_from_dice

    attacker = Fighter("A", attack=3, defence=0, odm=-4, ddm=0)
    defender = Fighter("D", attack=0, defence=-2, odm=0, ddm=0)
    rules = CombatRules()
    two = record(record(new_track(), Wound.SCRATCH), Wound.SCRATCH)
    three = record(two, Wound.SCRATCH)
    for track, level in ((two, Wound.HURT), (three, Wound.VERY_HURT)):
        # RD 5, damage 5 - 4 + 0 = 1: a Scratch
        hit = attack_from_dice(
            attacker, defender, track, rules, 0, 0, (0,), crit_effects=(crit.VITALS,)
        )
        assert (hit.wound, hit.track.level) == (Wound.SCRATCH, level)
