"""One melee attack end to end: Snorri vs Brynhild (EX-PC-01..05, EX-WND-02) and its odds."""

import random
from collections import Counter

from scipy import stats

from fadad_agents.rules.core.wounds import Wound, new_track
from fadad_agents.rules.options import RulesOptions
from fadad_agents.rules.personal.attack_odds import AttackOutcome, attack_outcomes
from fadad_agents.rules.personal.combat import (
    CombatRules,
    Fighter,
    attack_from_dice,
    resolve_attack,
)

# EX-PC-01: Sword Great, Strength Good, magic broadsword +4 -> ODM +5; DC Good + heavy
# leather +2 -> DDM +3. Brynhild: Axe Good, Shield Good, medium shield, ODM +5, DDM +2.
SNORRI = Fighter("Snorri", attack=2, defence=2, odm=5, ddm=3, armour=2)
BRYNHILD = Fighter("Brynhild", attack=1, defence=1, odm=5, ddm=2, shield="medium", armour=2)
RULES = CombatRules.from_options(RulesOptions())


def test_ex_pc_01_setup_targets():
    """EX-PC-01: Brynhild's medium shield makes her Target Mediocre; Snorri's is Terrible."""
    miss = attack_from_dice(SNORRI, BRYNHILD, new_track(), RULES, -4, -4, ())
    assert miss.target == -1
    assert attack_from_dice(BRYNHILD, SNORRI, new_track(), RULES, 0, 0, ()).target == -3


def _duel():
    """Replay EX-PC-02..05 with the seed's dice; return every attack in order."""
    b_track, s_track = new_track(), new_track()
    rounds = [  # (Snorri attack dice, Brynhild block dice, damage roll, her attack, his parry)
        (-2, -1, (), -2, 0),
        (1, 1, (-2,), -1, -1),
        (0, 0, (2,), 2, 0),
        (2, 0, (1,), None, None),
    ]
    attacks = []
    for s_dice, b_block, dmg, b_dice, s_parry in rounds:
        hit = attack_from_dice(
            SNORRI, BRYNHILD, b_track, RULES, s_dice, b_block, dmg,
            defender_penalty=b_track.penalty,
        )  # fmt: skip
        b_track = hit.track
        attacks.append(hit)
        if b_dice is not None:
            back = attack_from_dice(
                BRYNHILD, SNORRI, s_track, RULES, b_dice, s_parry, (0,),
                attacker_penalty=b_track.penalty,
            )  # fmt: skip
            s_track = back.track
            attacks.append(back)
    return attacks, b_track, s_track


def test_ex_pc_02_round_1():
    """EX-PC-02: Fair vs Fair is a tie the defender wins; her swing is easily parried.

    The seed prints her roll "Axe Good-2=Poor"; by the ladder arithmetic it uses everywhere
    else (EX-DICE-03: Good-2+2 = Good) Good-2 is Mediocre. Either way Snorri's Great parry
    wins and nothing happens, which is what the example pins.
    """
    attacks, _, _ = _duel()
    s, b = attacks[0], attacks[1]
    assert (s.attack_rolled, s.defence_rolled, s.rd, s.hit) == (0, 0, 0, False)
    assert (b.attack_rolled, b.defence_rolled, b.rd, b.hit) == (-1, 2, -3, False)


def test_ex_pc_03_round_2():
    """EX-PC-03: Superb vs Great, RD +1, damage 1 + 3 - 2 = 2: a Scratch."""
    attacks, _, _ = _duel()
    s, b = attacks[2], attacks[3]
    assert (s.attack_rolled, s.defence_rolled, s.rd, s.damage, s.wound) == (
        3, 2, 1, 2, Wound.SCRATCH,
    )  # fmt: skip
    assert s.track.filled == (1, 0, 0, 0, 0)
    assert (b.attack_rolled, b.defence_rolled, b.rd, b.hit) == (0, 1, -1, False)


def test_ex_pc_04_round_3():
    """EX-PC-04: RD +1, damage 1 + 3 + 2 = 6, Very Hurt; her -2 applies to her next attack."""
    attacks, _, _ = _duel()
    s, b = attacks[4], attacks[5]
    assert (s.rd, s.damage, s.wound) == (1, 6, Wound.VERY_HURT)
    assert s.track.filled == (1, 0, 1, 0, 0)
    assert s.track.level == Wound.VERY_HURT
    assert s.track.penalty == -2
    assert (b.attack_rolled, b.defence_rolled, b.rd, b.hit) == (1, 2, -1, False)  # EX-DICE-03


def test_ex_pc_05_round_4_and_ex_wnd_02():
    """EX-PC-05 / EX-WND-02: Legendary vs Mediocre, RD +5, damage 9: Near Death, one crit."""
    attacks, b_track, s_track = _duel()
    s = attacks[6]
    assert (s.attack_rolled, s.defence_rolled, s.rd, s.crits) == (4, -1, 5, 1)
    assert (s.damage, s.wound) == (9, Wound.NEAR_DEATH)
    assert [a.damage for a in attacks if a.hit] == [2, 6, 9]
    assert b_track.filled == (1, 0, 1, 0, 1)
    assert b_track.level == Wound.NEAR_DEATH
    assert b_track.out_of_fight
    assert s_track.level == Wound.UNDAMAGED


def test_attack_outcomes_sum_to_one_and_match_sampler():
    """The exact (hit, crits, wound) distribution sums to 1 and the sampler follows it."""
    dist = attack_outcomes(SNORRI, BRYNHILD, new_track(), RULES)
    assert sum(p for _, p in dist) == 1
    rng = random.Random(4)
    n = 40_000
    counts = Counter()
    for _ in range(n):
        r = resolve_attack(SNORRI, BRYNHILD, new_track(), rng, RULES)
        counts[AttackOutcome(r.hit, r.crits, r.wound)] += 1
    kept = [(o, p) for o, p in dist if p * n >= 5]
    observed = [counts[o] for o, _ in kept]
    expected = [float(p) * n for _, p in kept]
    scale = sum(observed) / sum(expected)
    assert stats.chisquare(observed, [e * scale for e in expected]).pvalue > 1e-4
    assert set(counts) <= {o for o, _ in dist}


def test_undefended_attack_meets_target_only():
    """A-07: an undefended attack is resolved against the defender's Target alone."""
    hit = attack_from_dice(SNORRI, BRYNHILD, new_track(), RULES, -2, None, (0,))
    assert hit.defence_rolled is None
    assert hit.rd == 0 - (-1)
    assert hit.hit


def test_fudge_shield_mode_lowers_attackers_skill():
    """C-11: in FUDGE shield mode Brynhild's medium shield costs Snorri 1 and adds no Target."""
    fudge = CombatRules.from_options(RulesOptions(shield_mode="fudge_skill_penalty"))
    r = attack_from_dice(SNORRI, BRYNHILD, new_track(), fudge, 0, 0, (0,))
    assert r.target == -3
    assert r.attack_rolled == 1


def test_protection_pc_death_and_pulled_punch():
    """EX-WND-17 and EX-WND-15 through an attack: PC option 1 caps a 9 at Very Hurt; a
    punch pulled to Scratch stays a Scratch."""
    from fadad_agents.rules.personal.combat import Protection

    pc_rules = CombatRules.from_options(RulesOptions.from_flat({"pc_death.max_three_levels": True}))
    capped = attack_from_dice(
        SNORRI, BRYNHILD, new_track(), pc_rules, 2, -2, (1,), protection=Protection(pc=True)
    )
    assert capped.wound == Wound.NEAR_DEATH
    assert capped.track.level == Wound.VERY_HURT
    pulled = attack_from_dice(
        SNORRI, BRYNHILD, new_track(), RULES, 2, -2, (1,), protection=Protection(pulled_to=1)
    )
    assert pulled.track.level == Wound.SCRATCH


def test_exchange_matches_the_opposed_roll_of_actions_and_melee():
    """resolve_attack's inlined exchange gives the RD, hit and Target of actions.opposed
    over melee.defender_target and melee_attack_modifier, in every target and shield mode."""
    from itertools import product

    from fadad_agents.rules.core.actions import opposed
    from fadad_agents.rules.personal.melee import defender_target, melee_attack_modifier

    shields = (None, "buckler", "small", "medium", "large")
    checked = 0
    for target_mode, shield_mode, own, their, rank, scale in product(
        ("effective_opposition", "target_gate_gte"),
        ("fadad_target", "fudge_skill_penalty"),
        shields,
        shields,
        (0, 1, 2),
        (0, -4, 3),
    ):
        rules = CombatRules(target_mode=target_mode, shield_mode=shield_mode)
        attacker = Fighter("A", attack=1, defence=0, odm=4, ddm=2, shield=own)
        defender = Fighter("D", attack=0, defence=1, odm=4, ddm=2, scale=scale, shield=their)
        target = defender_target(scale, 0, shield=their, shield_rank=rank, shield_mode=shield_mode)
        shield_mod = melee_attack_modifier(
            own_shield=own, opponent_shield=their, shield_mode=shield_mode
        )
        for a_dice, d_dice, a_pen in product((-3, 0, 2, 4), (None, -2, 0, 3), (0, -1)):
            res = attack_from_dice(
                attacker, defender, new_track(), rules, a_dice, d_dice, (0,),
                attacker_penalty=a_pen, defender_penalty=-1, shield_rank=rank,
            )  # fmt: skip
            a_rolled = 1 + a_pen + shield_mod + a_dice
            d_rolled = None if d_dice is None else 1 - 1 + d_dice
            want = opposed(a_rolled, d_rolled, target, attack_dice=a_dice, mode=target_mode)
            got = (res.target, res.attack_rolled, res.defence_rolled, res.rd, res.hit, res.crits)
            assert got == (target, *(a_rolled, d_rolled, want.rd, want.hit, want.crits))
            checked += 1
    assert checked == 2 * 2 * 5 * 5 * 3 * 3 * 32
