"""Melee: Target by Scale, shields (C-11), modifiers (A-04), moving targets, hit locations.

personal-combat.md sections 2-4; CONFLICTS.md A-08, A-09, A-10, C-11.
"""

import doctest

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fadad_agents.rules.core.actions import opposed
from fadad_agents.rules.options import RulesOptions
from fadad_agents.rules.personal import damage, melee
from fadad_agents.rules.personal.melee import (
    CalledShot,
    MeleeError,
    called_shot,
    defender_target,
    location_severity,
    scale_target,
)

FUDGE = "fudge_skill_penalty"


def test_ex_pc_01_set_up_targets():
    """EX-PC-01: Snorri (Scale 0, no shield) Target Terrible; Brynhild, medium shield, Mediocre."""
    assert defender_target(0, 0) == -3
    assert defender_target(0, 0, shield="medium") == -1
    # Snorri attacks at Great: no large shield, so no own-attack penalty in FADAD.
    assert melee.melee_attack_modifier(opponent_shield="medium") == 0


def test_ex_pc_01_total_damage_modifiers():
    """EX-PC-01: ODM - DDM from components: Snorri vs Brynhild +3, Brynhild vs Snorri +2."""
    snorri_odm = damage.offensive_factor(1, 0, 3, 1)  # Strength Good, broadsword +3, magic +1
    snorri_ddm = damage.defensive_factor(1, 0, 2)  # Damage Capacity Good, heavy leather
    brynhild_odm = damage.offensive_factor(2, 0, 3)  # Strength Great, battleaxe +3
    brynhild_ddm = damage.defensive_factor(0, 0, 2)  # Damage Capacity Fair, heavy leather
    assert (snorri_odm, snorri_ddm, brynhild_odm, brynhild_ddm) == (5, 3, 5, 2)
    assert damage.total_factor(snorri_odm, brynhild_ddm) == 3
    assert damage.total_factor(brynhild_odm, snorri_ddm) == 2


def test_ex_pc_01_fudge_original_lowers_snorri_to_good():
    """EX-PC-01 note: in FUDGE mode the medium shield lowers Snorri's Great to Good instead."""
    assert defender_target(0, 0, shield="medium", shield_mode=FUDGE) == -3
    assert melee.melee_attack_modifier(opponent_shield="medium", shield_mode=FUDGE) == -1


@pytest.mark.parametrize(
    ("attacker", "defender", "shield", "rank", "target"),
    [
        (0, -15, None, 1, 1),
        (0, -4, None, 1, -2),
        (0, 0, None, 1, -3),
        (0, 4, None, 1, -4),
        (0, 0, "medium", 1, -1),
        (0, 0, "large", 2, 0),
    ],
)
def test_ex_pc_07_target_lookup(attacker, defender, shield, rank, target):
    """EX-PC-07: every row of the Target lookup, shields facing the attacker included."""
    assert defender_target(defender, attacker, shield=shield, shield_rank=rank) == target


@pytest.mark.parametrize(
    ("difference", "target"),
    [
        (-14, 1),
        (-13, 0),
        (-10, 0),
        (-9, -1),
        (-6, -1),
        (-5, -2),
        (-2, -2),
        (-1, -3),
        (2, -3),
        (3, -4),
        (40, -4),
        (-99, 1),
    ],
)
def test_scale_target_band_edges(difference, target):
    """Each band of the section 3 table starts and ends where printed."""
    assert scale_target(difference, 0) == target
    assert scale_target(difference + 7, 7) == target


@given(st.integers(-40, 40), st.integers(-40, 40))
def test_scale_target_never_rises_with_defender_size(d, a):
    """A bigger defender is never harder to hit, and the Target stays in Terrible-1..Good."""
    assert -4 <= scale_target(d, a) <= 1
    assert scale_target(d + 1, a) <= scale_target(d, a)


def test_shield_covers_one_or_two_attackers_on_its_side():
    """Shields cover one attacker on the shield side; a large shield covers two."""
    assert melee.shield_target_bonus("medium", 1) == 2
    assert melee.shield_target_bonus("medium", 2) == 0
    assert melee.shield_target_bonus("medium", 0) == 0
    assert melee.shield_target_bonus("large", 2) == 3
    assert melee.shield_target_bonus("large", 3) == 0
    assert [melee.shield_target_bonus(s) for s in ("buckler", "small", "medium", "large")] == [
        0,
        1,
        2,
        3,
    ]


def test_large_shield_costs_own_attacks_in_fadad_mode_only():
    """FADAD large shield: -1 to the bearer's attack skills; none in FUDGE mode."""
    assert melee.shield_attack_penalty("large") == -1
    assert melee.shield_attack_penalty("medium") == 0
    assert melee.shield_attack_penalty("large", shield_mode=FUDGE) == 0


def test_fudge_shield_values():
    """C-11 FUDGE: small +1 melee only; medium +1 melee, +1 ranged if impervious; large +2."""
    pen = melee.shield_skill_penalty
    assert (pen("small", shield_mode=FUDGE), pen("small", ranged=True, shield_mode=FUDGE)) == (1, 0)
    assert pen("medium", shield_mode=FUDGE) == 1
    assert pen("medium", ranged=True, shield_mode=FUDGE) == 0
    assert pen("medium", ranged=True, impervious=True, shield_mode=FUDGE) == 1
    assert (pen("large", shield_mode=FUDGE), pen("large", ranged=True, shield_mode=FUDGE)) == (2, 2)
    assert pen("large") == 0  # FADAD mode: shields act through Target instead


def test_shield_cap_limits_small_characters():
    """The GM cap limits the shielded Target but never lowers the Scale Target."""
    hobbit = defender_target(-4, 0, shield="large")
    assert hobbit == 1
    assert defender_target(-4, 0, shield="large", shield_cap=-1) == -1
    assert defender_target(-4, 0, shield="large", shield_cap=-5) == -2


def test_moving_target_bonus_option():
    """A-08: +1 jogging, +2 running by default; (0, 0) turns it off."""
    default = RulesOptions().move.target_bonus
    assert defender_target(0, 0, gait="jog", move_bonus=default) == -2
    assert defender_target(0, 0, gait="run", move_bonus=default) == -1
    assert defender_target(0, 0, gait="walk") == -3
    assert defender_target(0, 0, gait="run", move_bonus=(0, 0)) == -3
    with pytest.raises(MeleeError, match="jog"):
        melee.moving_target_bonus("gallop")


def test_melee_modifiers_sum():
    """Wounds, position, all-out attack and the large shield add up on the attack."""
    total = melee.melee_attack_modifier(
        wound_penalty=-2, positional=1, all_out_attack=True, own_shield="large"
    )
    assert total == -2 - 1 + 1 - 1
    assert melee.melee_defence_modifier(wound_penalty=-1, positional=2) == -3
    with pytest.raises(MeleeError, match="0, 1 or 2"):
        melee.positional_modifier(3)


def test_size_comparison_fudge_example():
    """Two-handed sword +4 vs knife +1 and shield +1 (= +2): the knife wielder is -1."""
    assert melee.size_comparison_modifier(1, 1, 4, 0) == -1
    assert melee.size_comparison_modifier(4, 0, 1, 1) == 0
    assert melee.size_comparison_modifier(2, 1, 4, 0) == 0


def test_ex_pc_06_case_a_arm_hit():
    """EX-PC-06 A: Good vs Poor, RD +3 >= 2 and +1 >= Mediocre: the weapon arm is hit."""
    result = opposed(1, -2)
    assert result.rd == 3
    assert called_shot(result, "arm") == CalledShot(True, "arm", False)


def test_ex_pc_06_case_b_defender_names_location():
    """EX-PC-06 B: Good vs Fair, RD +1: a hit, not on the arm; the defender names it."""
    result = opposed(1, 0)
    assert called_shot(result, "arm") == CalledShot(True, None, True)


def test_ex_pc_06_case_c_roll_below_location_target():
    """EX-PC-06 C: Poor vs Terrible-1, RD +2 but -2 < Mediocre: an ordinary hit, not the arm."""
    result = opposed(-2, -4)
    assert result.rd == 2
    assert called_shot(result, "arm") == CalledShot(True, None, True)
    # Same in the literal gate mode against a human's Target.
    gated = opposed(-2, -4, -3, mode="target_gate_gte")
    assert called_shot(gated, "arm") == CalledShot(True, None, True)


def test_called_shot_miss_and_locations_table():
    """A miss hits nothing; the table keeps Leg at RD 1 (A-10) and Eye needs a crit's RD."""
    assert called_shot(opposed(0, 0), "leg") == CalledShot(False, None, False)
    table = {n: (loc.min_rd, loc.target) for n, loc in melee.LOCATIONS.items()}
    assert table == {"leg": (1, -2), "arm": (2, -1), "head": (3, -1), "eye": (4, 2)}
    eye = called_shot(opposed(2, -2), "eye")
    assert eye.location == "eye"
    assert opposed(2, -2).crits == 1
    with pytest.raises(MeleeError, match="leg, arm"):
        called_shot(opposed(2, -2), "tail")


@pytest.mark.parametrize(
    ("damage", "state"),
    [
        (-1, "none"),
        (0, "none"),
        (1, "scratched"),
        (2, "scratched"),
        (3, "hurt"),
        (6, "hurt"),
        (7, "incapacitated"),
        (12, "incapacitated"),
    ],
)
def test_location_severity_mapping(damage, state):
    """A-09: D <= 0 none, 1-2 Scratched, 3-6 Hurt, >= 7 Incapacitated (RD above minimum)."""
    assert location_severity(damage, rd=4, min_rd=2, scale_advantage=0) == state


def test_minimum_margin_caps_at_hurt_unless_much_larger():
    """A-09: winning by exactly the minimum RD caps at Hurt unless Scale advantage >= 3."""
    assert location_severity(9, rd=2, min_rd=2, scale_advantage=2) == "hurt"
    assert location_severity(9, rd=2, min_rd=2, scale_advantage=3) == "incapacitated"
    opts = RulesOptions().location
    assert (
        location_severity(
            9, 2, 2, 0, thresholds=opts.severity_thresholds, cap_scale=opts.minimum_margin_cap_scale
        )
        == "hurt"
    )
    assert melee.location_penalty("hurt") == -1
    assert melee.location_penalty("scratched") == 0


def test_unknown_shield_and_mode_are_errors():
    """Unknown shields and shield modes are ValueErrors listing what is allowed."""
    with pytest.raises(ValueError, match="buckler, small, medium, large"):
        defender_target(0, 0, shield="tower")
    with pytest.raises(MeleeError, match="fadad_target"):
        defender_target(0, 0, shield="small", shield_mode="bogus")


def test_docstring_examples_run():
    """The module's doctest examples hold."""
    result = doctest.testmod(melee)
    assert (result.failed, result.attempted > 0) == (0, True)
