"""Kernel fighters from stat blocks: what one blow needs to know of a character, a crew's
or a unit's representative member.

Every stat-block field a blow reads is carried here (wounds-and-healing.md 4, personal-
combat.md 3): the ODM and DDM under the battle's wound model (FUDGE class values with
``fudge.less_lethal``, FADAD bonuses otherwise), the shield's own figures (its Target
bonus with its magic plus, the attackers it covers, its bearer's attack penalty, its
FUDGE values), the creature's ``shield_cap``, Anna's weapon and armour groups, the Mass
Scale and a scale-piercing weapon.
"""

from __future__ import annotations

from typing import Any

from fadad_agents.rules.core.wounds import custom_track, new_track
from fadad_agents.rules.options import RulesOptions
from fadad_agents.rules.personal import combat
from fadad_agents.rules.personal.damage import defensive_factor, offensive_factor
from fadad_agents.rules.personal.dc_track import Track, new_dc_track
from fadad_agents.rules.personal.melee import ShieldStats
from fadad_agents.schema import character as schema_character

__all__ = [
    "GROUPS",
    "bare_fighter",
    "character_fighter",
    "character_track",
    "group_fighter",
    "plays_dc_track",
    "shield_stats",
]

GROUPS = {"none": 0, "light": 1, "medium": 2, "heavy": 3}
"""Anna's weapon and armour groups as the kernel counts them (wounds-and-healing.md 4.4)."""


def shield_stats(shield: Any) -> ShieldStats | None:
    """A stat block's shield as the kernel reads it: its own figures, its magic plus added
    to its Target bonus and to its FUDGE values (PROPOSED: a magic shield guards better)."""
    if shield is None:
        return None
    plus = shield.magic_plus
    return ShieldStats(
        target_bonus=shield.target_bonus + plus,
        attackers=shield.attackers,
        own_attack_penalty=shield.attack_penalty,
        fudge_melee=shield.fudge_melee + plus,
        fudge_ranged=shield.fudge_ranged + plus,
        ranged_needs_impervious=False,  # the file's fudge_ranged says what it does
    )


def _groups(force: Any) -> tuple[int | None, int | None]:
    """(weapon group, armour group): no weapon is the fists' 'none' group (4.4)."""
    weapon = GROUPS[force.weapon.group] if force.weapon is not None else 0
    armour = GROUPS[force.armour.group] if force.armour is not None else None
    return weapon, armour


def _weapon_bonus(weapon: Any, options: RulesOptions) -> int:
    fudge = options.wound_model != "fadad"
    return int(weapon.damage_bonus(fudge=fudge, less_lethal=fudge and options.fudge.less_lethal))


def _unarmed_bonus(options: RulesOptions) -> int:
    """No weapon: the punch -1 (FADAD), FUDGE class -1, one less when less lethal."""
    less = options.wound_model != "fadad" and options.fudge.less_lethal
    return -1 - int(less)


def plays_dc_track(force: schema_character.Character, options: RulesOptions) -> bool:
    """Whether a character's wounds lower its Damage Capacity (``wound_track:
    dc_attribute``, wounds-and-healing.md 6.4): its own track, else the scenario's; its
    own ``wound_boxes`` win."""
    kind = force.wound_track or options.wound_track
    return force.wound_boxes is None and kind == "dc_attribute"


def character_track(force: schema_character.Character, options: RulesOptions) -> Track:
    """A character's unhurt track: its own boxes, else its own or the scenario's
    ``wound_track``; on the Damage-Capacity track, its Damage Capacity (section 6.4)."""
    if force.wound_boxes is not None:
        return custom_track(force.wound_boxes)
    if plays_dc_track(force, options):
        return new_dc_track(force.damage_capacity)
    return new_track(force.wound_track or options.wound_track)


def character_fighter(force: schema_character.Character, options: RulesOptions) -> Any:
    """A kernel ``Fighter`` from a character's stat block. On the Damage-Capacity track its
    Damage Capacity is where its wounds go, not a damage factor (section 6.4)."""
    weapon = force.weapon
    armour = 0 if force.armour is None else force.armour.ddm
    weapon_group, armour_group = _groups(force)
    fudge = options.wound_model != "fadad"
    return combat.Fighter(
        name=force.name,
        attack=force.attack,
        defence=force.defence,
        odm=force.odm(fudge=fudge, less_lethal=options.fudge.less_lethal),
        ddm=force.ddm - (force.damage_capacity if plays_dc_track(force, options) else 0),
        scale=force.scale,
        shield=shield_stats(force.shield),
        armour=armour,
        weapon_group=weapon_group,
        armour_group=armour_group,
        shield_cap=force.shield_cap,
        mass_scale=force.effective_mass_scale,
        scale_piercing="none" if weapon is None else weapon.scale_piercing,
        volume_scale=force.volume_scale,
    )


def bare_fighter(force: schema_character.Character, options: RulesOptions) -> Any:
    """The character's kernel ``Fighter`` after a Disarm crit: its weapon dropped, or its
    shield if it has no weapon (PROPOSED, agents.core.conditions); None when it holds
    nothing to drop."""
    if force.weapon is None and force.shield is None:
        return None
    dropped = "weapon" if force.weapon is not None else "shield"
    return character_fighter(force.model_copy(update={dropped: None}), options)


def group_fighter(force: Any, options: RulesOptions, defence: int) -> Any:
    """A crew's or unit's representative member as a kernel ``Fighter``."""
    weapon = force.weapon
    if weapon is None:
        odm = offensive_factor(force.strength, force.scale, _unarmed_bonus(options))
    elif weapon.strength is not None or not weapon.muscle_powered:
        odm = offensive_factor(
            0, 0, _weapon_bonus(weapon, options), weapon_strength=weapon.strength or 0
        )
    else:
        odm = offensive_factor(force.strength, force.scale, _weapon_bonus(weapon, options))
    armour = 0 if force.armour is None else force.armour.ddm
    weapon_group, armour_group = _groups(force)
    return combat.Fighter(
        name=force.name,
        attack=force.skill,
        defence=defence,
        odm=odm,
        ddm=defensive_factor(force.damage_capacity, force.scale, armour),
        scale=force.scale,
        armour=armour,
        weapon_group=weapon_group,
        armour_group=armour_group,
        scale_piercing="none" if weapon is None else weapon.scale_piercing,
    )
