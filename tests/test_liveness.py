"""Every rules option and stat-block field does what it says, shown by a battle.

The registry (``tests/liveness_registry.py``) names, for each option and field, the
engine-level test that plays it both ways; the known gaps it still lists may only shrink,
and the last test here passes for real only once none is left.
"""

from __future__ import annotations

from tests.liveness import ENGINE_LEVEL, field_keys, names_a_test, option_keys
from tests.liveness_registry import GAP, NOT_A_RULE, REGISTRY

KNOWN_GAPS = frozenset(
    """
    fadad.initiative fadad.crit_effects fadad.ms_table_literal fadad.weapon_size_comparison
    fadad.all_out_attack_defends fadad.spirit_crit_plus fadad.spirit_negative_cap shield_mode
    range.extreme_literal range.widespread_scale_rounding range.volume_scale_rounding
    move.target_bonus location.also_general_wound location.severity_thresholds
    location.minimum_margin_cap_scale wound_model fudge.damage_roll fudge.double_rd
    fudge.graze fudge.less_lethal fudge.weapon_groups fudge.minmidmax_minus2
    fudge.situational_levels fudge.graze_scale_step fudge.minmidmax_epic
    fudge.minmidmax_kill_above_9 fudge.scale_damage_roll overflow_past_near_death
    scratch_cap wound_track pc_death.max_three_levels pc_death.no_near_death_unless_incap
    pc_death.point_spend healing_model stun_scratches_accumulate knockout_rounds
    scale_piercing_min_rd head_blow_knockout ship.crit_triggers ship.ms_rounding
    ship.target_bands_extended ship.bombard_wildfire_dodge_penalty ship.reload_rule
    ship.fadad_boxes ship.fadad_negative_cap ship.overflow_past_wrecked
    ship.piercing_entangle_pct ship.coma_dice ship.repair_workers_per_ton
    fire.sj_firefighting fire.fadad_crit_fire_scale sj.crash_dc sj.crash_save_dc
    sj.lock_pct_per_10_tons sj.half_hull_crit_repeat sj.poorly_maintained_crit_from
    sj.crit_fortitude_dc sj.shaken_dexterity_dc sj.shock_will_dc sj.mc_loss_rounds_per_turn
    sj.grapple_lines_rounding sj.pursuit_turn_rounds sj.morale_stacking
    sj.free_turn_counts_toward_hex_limit fae.margin_mode fae.botch_range fae.damage_rounding
    fae.half_threshold fae.mounted_charge fae.equipment_wear fae.acrobatic_bonus
    fae.underwater_missile_divisor fae.ladder_bridge fae.size_bridge fae.bridge_wound_points
    fae.bridge_armour_dr fae.bridge_wound_percent fae.fall_damage_per_yard mass.engine
    mass.scale_rounding mass.scale_cap mass.scale_in_damage mass.casualties
    mass.rapid_rounding mass.rapid_natural_rolls
    Weapon.fadad_bonus Weapon.fudge_class Weapon.sharp Weapon.group Weapon.hands
    Weapon.muscle_powered Weapon.strength Weapon.magic_plus Weapon.ranged Weapon.projectile
    Weapon.actions_to_ready Weapon.range_yards Armour.value Armour.material Armour.group
    Armour.magic_plus Armour.fireproof Shield.target_bonus Shield.attackers
    Shield.attack_penalty Shield.fudge_melee Shield.fudge_ranged Shield.magic_plus
    ShipWeapon.family ShipWeapon.crew ShipWeapon.reload_rounds ShipWeapon.damage
    ShipWeapon.damage_vs_flesh ShipWeapon.sets_fire ShipWeapon.range_mods
    ShipWeapon.projectile_penalty ShipWeapon.same_hex ShipWeapon.sj_hull_damage
    ShipWeapon.sj_attack_mod ShipWeapon.arc ShipWeapon.count Creature.scale
    Creature.mass_scale Creature.strength Creature.damage_capacity Creature.reaction_speed
    Creature.traits Creature.skills Creature.attack_skill Creature.defence_skill
    Creature.weapon Creature.armour Creature.shield Creature.wound_track Creature.wound_boxes
    Creature.shield_cap Character.count Character.player Character.ite_points
    Character.policies Character.position Character.facing Character.aboard Character.spells
    ShipSpell.effect ShipSpell.damage ShipSpell.range_ft ShipSpell.ignites ShipSpell.uses
    Crew.policies Crew.position Crew.facing Crew.count Crew.role Crew.quality Crew.morale
    Crew.hit_dice Crew.armour_class Crew.attack_bonus Crew.max_damage
    Crew.incapacitating_attack Crew.skill Crew.strength Crew.damage_capacity Crew.scale
    Crew.weapon Crew.armour Crew.aboard Unit.policies Unit.position Unit.facing Unit.count
    Unit.skill Unit.defence_skill Unit.morale Unit.strength Unit.damage_capacity Unit.scale
    Unit.weapon Unit.armour Unit.leader Ship.policies Ship.position Ship.facing
    Ship.hull_class Ship.tons Ship.volume_scale Ship.mass_scale Ship.hull_points
    Ship.damage_boxes Ship.armour Ship.armour_class Ship.maneuverability Ship.fadad_mc
    Ship.sr Ship.speed Ship.min_crew Ship.max_crew Ship.ram Ship.ram_dice Ship.landing
    Ship.cost_gp Ship.weapons Ship.helm_skill Ship.crew_skill Ship.familiar
    Ship.gravity_well Ship.gargantuan GravityWell.size GravityWell.weather
    GravityWell.landed FaeGear.item FaeGear.dr FaeGear.skill FaeGear.base_damage
    FaeGear.damage_kind FaeGear.hands FaeGear.large FaeGear.range_rating FaeGear.max_range
    FaeGear.thrown FaeGear.weight FaeAttributes.strength FaeAttributes.agility
    FaeAttributes.stamina FaeAttributes.size FaeAttributes.charisma
    FaeAttributes.intelligence FaeAttributes.willpower FaeAttributes.luck
    FaeAttributes.reaction FaeMount.attributes FaeMount.skills FaeMount.wound_points
    FaeMount.fatigue_points FaeMount.walk_mr FaeMount.run_mr FaeMount.fly_mr
    FaeMount.weapon FaeCharacter.count FaeCharacter.player FaeCharacter.attributes
    FaeCharacter.skills FaeCharacter.skill_attributes FaeCharacter.wound_points
    FaeCharacter.fatigue_points FaeCharacter.walk_mr FaeCharacter.run_mr FaeCharacter.fly_mr
    FaeCharacter.can_glide FaeCharacter.altitude FaeCharacter.underwater
    FaeCharacter.blinded FaeCharacter.ambidextrous FaeCharacter.vision FaeCharacter.weapons
    FaeCharacter.armour FaeCharacter.shield FaeCharacter.mount FaeCharacter.policies
    FaeCharacter.position FaeCharacter.facing
    """.split()
)
"""The gaps when the registry landed: a gap not in this set is refused (they only shrink)."""

NON_RULE_FIELDS = frozenset({"model", "name", "description", "kind", "ruleset", "hull_class"})
"""Field names that may be ``NOT_A_RULE``: they name, describe or tag (a ship's ``hull_class`` is
her design's name), and change no roll."""

GAPS = sorted(key for key, entry in REGISTRY.items() if entry.startswith(GAP))


def test_every_option_and_field_is_registered() -> None:
    """Each option of RulesOptions and each stat-block field has exactly one registry line,
    and the registry names nothing that no longer exists."""
    keys = option_keys() + field_keys()
    assert len(keys) == len(set(keys))
    missing = sorted(set(keys) - set(REGISTRY))
    stale = sorted(set(REGISTRY) - set(keys))
    assert not missing, f"register these in tests/liveness_registry.py: {missing}"
    assert not stale, f"no such option or field any more: {stale}"


def test_each_registered_test_plays_battles_and_exists() -> None:
    """A registered test is an engine-level test (tests/engine or tests/interfaces) that
    pytest collects."""
    wrong = {
        key: entry
        for key, entry in REGISTRY.items()
        if not entry.startswith(GAP)
        and entry != NOT_A_RULE
        and not (entry.startswith(ENGINE_LEVEL) and names_a_test(entry))
    }
    assert not wrong, f"no such engine-level test: {wrong}"


def test_only_fields_without_a_rule_are_exempt() -> None:
    """Only names, descriptions, catalogue references and kind tags need no battle."""
    exempt = sorted(k for k, e in REGISTRY.items() if e == NOT_A_RULE)
    assert [k for k in exempt if k.rpartition(".")[2] not in NON_RULE_FIELDS] == []


def test_known_gaps_only_shrink() -> None:
    """A new option or field comes with its test: no gap beyond those of the start."""
    assert sorted(set(GAPS) - KNOWN_GAPS) == []


def test_the_registry_check_can_fail() -> None:
    """The existence check refuses a misnamed test, a missing file and a kernel path."""
    assert names_a_test("tests/test_liveness.py::test_known_gaps_only_shrink")
    assert not names_a_test("tests/test_liveness.py::test_no_such_test")
    assert not names_a_test("tests/engine/core/test_nowhere.py::test_x")
    assert not names_a_test("tests/test_liveness.py")


def test_no_option_or_field_is_left_unproven() -> None:
    """Every option and field has its battle-level test (issue 15 done, issue 14 too)."""
    assert GAPS == []
