"""FADAD ship critical hits: 6dF table, triggers, firing likelihood, crew damage, coma."""

import doctest
import random
from collections import Counter
from fractions import Fraction

import pytest
from scipy import stats

from fadad_agents.rules.core.dice import fudge_distribution
from fadad_agents.rules.core.ladder import FAIR, GOOD, GREAT
from fadad_agents.rules.ships import fadad_crits as ships_fadad_crits
from fadad_agents.rules.ships.effects import (
    FADAD_SHIP_ROUND_SECONDS,
    SHIP_EFFECT_TYPES,
    DeckCrew,
    Fire,
    HelmShock,
    HullHoled,
    InteriorCrew,
    ManeuverLoss,
    Shaken,
    SpeedLoss,
    WeaponDamaged,
)
from fadad_agents.rules.ships.fadad_combat import ShipRulesError
from fadad_agents.rules.ships.fadad_crits import (
    FIRING_LIKELIHOOD,
    FadadCrit,
    coma_days_outcomes,
    crew_damage,
    crew_hit_kind,
    crit_count,
    crit_effects,
    crit_for_roll,
    crit_ignition_outcomes,
    crit_outcomes,
    ignition_probability,
    resolve_crit,
    roll_coma_days,
    stores_ignite,
)
from fadad_agents.rules.ships.fadad_damage import new_ship_track, record_ship_damage


def _chi_square_p(samples, dist):
    counts = Counter(samples)
    n = len(samples)
    observed = [counts.get(v, 0) for v, _ in dist]
    expected = [float(p) * n for _, p in dist]
    assert sum(observed) == n, "sampler produced an outcome outside its distribution"
    return stats.chisquare(observed, expected).pvalue


def test_docstring_examples():
    """The usage examples in the module docstring run as written."""
    result = doctest.testmod(ships_fadad_crits)
    assert result.attempted > 0
    assert result.failed == 0


def test_table_by_roll():
    """6dF +4..+6 Fire, +3 shock, +2 SR, +1 holed, 0 shaken, -1 deck, -2 weapon, -3 MC,
    -4..-6 interior crew."""
    got = [crit_for_roll(r) for r in range(6, -7, -1)]
    assert got == [
        FadadCrit.FIRE,
        FadadCrit.FIRE,
        FadadCrit.FIRE,
        FadadCrit.SPELLJAMMER_SHOCK,
        FadadCrit.SR_LOSS,
        FadadCrit.HULL_HOLED,
        FadadCrit.SHIP_SHAKEN,
        FadadCrit.DECK_CREW_HIT,
        FadadCrit.SHIP_WEAPON_HIT,
        FadadCrit.MC_LOSS,
        FadadCrit.INTERIOR_CREW_HIT,
        FadadCrit.INTERIOR_CREW_HIT,
        FadadCrit.INTERIOR_CREW_HIT,
    ]
    with pytest.raises(ShipRulesError, match=r"-6\.\.\+6"):
        crit_for_roll(7)


def test_crit_outcomes_exact():
    """Ways out of 729: Fire and Interior 28 each, shock/MC 50, SR/weapon 90, holed/deck
    126, shaken 141."""
    ways = {c: p * 729 for c, p in crit_outcomes()}
    assert sum(p for _, p in crit_outcomes()) == 1
    assert ways == {
        FadadCrit.FIRE: 28,
        FadadCrit.SPELLJAMMER_SHOCK: 50,
        FadadCrit.SR_LOSS: 90,
        FadadCrit.HULL_HOLED: 126,
        FadadCrit.SHIP_SHAKEN: 141,
        FadadCrit.DECK_CREW_HIT: 126,
        FadadCrit.SHIP_WEAPON_HIT: 90,
        FadadCrit.MC_LOSS: 50,
        FadadCrit.INTERIOR_CREW_HIT: 28,
    }


def test_resolve_crit_matches_table_distribution():
    """The crit sampler's results pass chi-square against crit_outcomes."""
    rng = random.Random(729)
    samples = [resolve_crit(rng).crit for _ in range(30_000)]
    assert _chi_square_p(samples, crit_outcomes()) > 1e-4


def test_resolve_crit_with_stores_matches_joint_distribution():
    """With volatile stores the (result, ignited) pairs match crit_ignition_outcomes."""
    dist = crit_ignition_outcomes()
    assert sum(p for _, p in dist) == 1
    rng = random.Random(40)
    samples = []
    for _ in range(40_000):
        c = resolve_crit(rng, volatile_stores=True)
        samples.append((c.crit, c.stores_ignited))
        assert (c.situation is None) == (FIRING_LIKELIHOOD[c.crit] is None)
        fires = sum(isinstance(e, Fire) for e in c.effects)
        assert fires == (c.crit is FadadCrit.FIRE) + c.stores_ignited
    assert _chi_square_p(samples, dist) > 1e-4


def test_no_stores_never_ignite():
    """A ship without volatile stores never rolls the Situation die."""
    assert all(not ign for (_, ign), _ in crit_ignition_outcomes(volatile_stores=False))
    rng = random.Random(3)
    assert all(resolve_crit(rng).situation is None for _ in range(500))


def test_firing_likelihood():
    """A-40: ignite iff Situation 4dF <= level: Great 76/81, Mediocre 31/81, Poor 15/81."""
    assert ignition_probability(FadadCrit.FIRE) == Fraction(76, 81)
    assert ignition_probability(FadadCrit.SHIP_SHAKEN) == Fraction(31, 81)
    for c in (
        FadadCrit.SPELLJAMMER_SHOCK,
        FadadCrit.SR_LOSS,
        FadadCrit.HULL_HOLED,
        FadadCrit.INTERIOR_CREW_HIT,
    ):
        assert ignition_probability(c) == Fraction(15, 81)
    for c in (FadadCrit.DECK_CREW_HIT, FadadCrit.SHIP_WEAPON_HIT, FadadCrit.MC_LOSS):
        assert ignition_probability(c) == 0
        assert not stores_ignite(c, -4)
    assert stores_ignite(FadadCrit.SHIP_SHAKEN, -1)
    assert not stores_ignite(FadadCrit.SHIP_SHAKEN, 0)


def test_crit_triggers_a39():
    """A-39: RD >= 4 gives one crit; damage >= 5 or Crippling one more; never more than 2."""
    t = new_ship_track()
    light = record_ship_damage(t, 3)
    heavy = record_ship_damage(t, 5)
    crippling = record_ship_damage(t, 8)
    assert crit_count(rd=3, damage=light) == 0
    assert crit_count(rd=4, damage=light) == 1
    assert crit_count(rd=1, damage=heavy) == 1
    assert crit_count(rd=1, damage=crippling) == 1  # heavy and crippling: still one
    assert crit_count(rd=6, damage=crippling) == 2
    assert crit_count(rd=None, damage=heavy) == 1  # a ram or a fire
    assert crit_count(rd=0, damage=None) == 0
    assert crit_count(rd=-2, attack_dice=4, triggers=("dice_4",)) == 0  # a miss
    assert crit_count(rd=1, attack_dice=4, triggers=("dice_4",)) == 1
    assert crit_count(rd=5, attack_dice=4, triggers=("dice_4", "rd_4")) == 1
    assert crit_count(rd=6, damage=crippling, triggers=()) == 0


def test_crew_damage_a41():
    """A-41: crew take (weapon damage + RD + damage roll) - 20; 0 or less harms no one."""
    assert crew_damage(22, 1, 0) == 3
    assert crew_damage(24, 4, 2) == 10
    assert crew_damage(14, 1, -1) == 0
    assert crew_hit_kind("ballista") == "bolt"
    assert crew_hit_kind("catapult") == "blast"
    assert crew_hit_kind("ram") == "blast"


def test_coma_days():
    """A-23: coma 3 + 1dF days -> 2, 3, 4 with 1/3 each; the sampler matches."""
    dist = coma_days_outcomes()
    assert dist == [(2, Fraction(1, 3)), (3, Fraction(1, 3)), (4, Fraction(1, 3))]
    rng = random.Random(23)
    samples = [roll_coma_days(rng) for _ in range(9_000)]
    assert _chi_square_p(samples, dist) > 1e-4
    assert coma_days_outcomes(0) == [(3, Fraction(1))]
    assert min(d for d, _ in coma_days_outcomes(4)) == 1  # 3 - 4 floored at one day
    assert sum(p for _, p in coma_days_outcomes(4)) == 1
    assert fudge_distribution(1)[0][1] == Fraction(1, 3)


def test_effects_use_shared_vocabulary():
    """Every result maps onto ship_effects classes with the table's numbers (C-03)."""
    rnd = FADAD_SHIP_ROUND_SECONDS
    for crit in FadadCrit:
        effects = crit_effects(crit, crew_damage=3, coma_days=4)
        assert effects
        assert all(isinstance(e, SHIP_EFFECT_TYPES) for e in effects)
    assert crit_effects(FadadCrit.FIRE) == (Fire(points=0, growth=1),)
    (shock,) = crit_effects(FadadCrit.SPELLJAMMER_SHOCK, coma_days=4)
    assert isinstance(shock, HelmShock)
    assert (shock.save.trait, shock.save.difficulty, shock.coma_days) == ("rete", GREAT, 4)
    assert shock.helmless_inoperative
    (sr,) = crit_effects(FadadCrit.SR_LOSS)
    assert isinstance(sr, SpeedLoss)
    assert (sr.sr, sr.rounds, sr.round_seconds) == (1, None, rnd)
    assert sr.recovery is not None
    assert (sr.recovery.trait, sr.recovery.difficulty) == ("spelljamming", GREAT)
    assert crit_effects(FadadCrit.HULL_HOLED) == (HullHoled(),)
    (shaken,) = crit_effects(FadadCrit.SHIP_SHAKEN)
    assert isinstance(shaken, Shaken)
    assert (shaken.check.trait, shaken.check.difficulty) == ("dexterity", GOOD)
    (mc,) = crit_effects(FadadCrit.MC_LOSS)
    assert isinstance(mc, ManeuverLoss)
    assert (mc.classes, mc.rounds, mc.round_seconds) == (1, None, rnd)
    assert mc.repair is not None
    assert mc.repair.difficulty == GREAT


def test_crew_hit_effects():
    """Deck, weapon and interior hits carry the crew damage; bolts let one victim dodge."""
    (deck,) = crit_effects(FadadCrit.DECK_CREW_HIT, crew_damage=5, crew_hit_kind="blast")
    assert deck == DeckCrew(5, "blast", 5, None)
    (bolt,) = crit_effects(FadadCrit.DECK_CREW_HIT, crew_damage=5, crew_hit_kind="bolt")
    assert isinstance(bolt, DeckCrew)
    assert bolt.bystander_save is not None
    assert (bolt.bystander_save.difficulty, bolt.bystander_save.modifier) == (FAIR, -2)
    (weapon,) = crit_effects(FadadCrit.SHIP_WEAPON_HIT, crew_damage=2)
    assert weapon == WeaponDamaged(may_be_destroyed=True, crew_hit=DeckCrew(2, "blast", 5, None))
    (inside,) = crit_effects(FadadCrit.INTERIOR_CREW_HIT, crew_damage=7)
    assert inside == InteriorCrew(7, "blast", 5, None)


def test_resolve_crit_rolls_coma_only_on_shock():
    """The shock result carries a rolled 2..4-day coma; other results roll no coma."""
    rng = random.Random(11)
    seen = set()
    for _ in range(3_000):
        c = resolve_crit(rng, crew_damage=4)
        if c.crit is FadadCrit.SPELLJAMMER_SHOCK:
            (shock,) = c.effects
            assert isinstance(shock, HelmShock)
            seen.add(shock.coma_days)
    assert seen == {2, 3, 4}
