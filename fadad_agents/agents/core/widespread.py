"""Widespread attacks: a fireball, a dragon's breath, a grenade, as the engine plays them.

Rules: ``personal-combat.md`` 7 (SEED FADAD 4.4.1, A-11). A missile weapon with an
``area_ft3`` fills that volume where it lands: a sphere round its target, whose radius in
yards follows from the volume. The shooter rolls once to place it; everyone in the sphere
(friend or foe, the shooter spared) is struck by that roll: a victim with a defence action
left dodges, one without is caught with no chance to escape and meets the roll with its
Target only (by Scale and the range to the point struck; no shield covers a whole body
from a sphere of fire, PROPOSED). A placement rolled Terrible or better does damage even
with a negative RD (the RD still counts in the damage sum); worse, the attack goes astray.

Against it Scale counts a third (``range.widespread_scale_rounding``: Scale / 3 rounded
toward zero by default), and a victim bigger than the area resists by the difference of
the volume Scales (``Creature.volume_scale``, by default its Mass Scale, against the
attack's, log1.5(V / 3.09) rounded by ``range.volume_scale_rounding``). The damage is
read as a FADAD damage number (RD + ODM - that DDM + 4dF, the negative cap applying) on
the victim's wound track (PROPOSED under the FUDGE wound models too).
"""

from __future__ import annotations

import math
from typing import Any

from fadad_agents.agents.core import aims
from fadad_agents.rules.core.damage import fadad_damage
from fadad_agents.rules.core.dice import roll_4df
from fadad_agents.rules.core.wounds import Wound, wound_for_damage
from fadad_agents.rules.personal.combat import AttackResult
from fadad_agents.rules.personal.melee import scale_target
from fadad_agents.rules.personal.ranged import (
    CONCENTRATION_BONUS,
    range_target_modifier,
    volume_scale,
    widespread,
    widespread_ddm,
)
from fadad_agents.rules.personal.wound_models import record_wound

__all__ = ["area_radius", "blast"]


def area_radius(volume_ft3: float) -> float:
    """Radius in yards of a sphere of ``volume_ft3`` cubic feet (a 33,510 ft3 fireball:
    20 feet, 6.67 yards)."""
    return float((3 * volume_ft3 / (4 * math.pi)) ** (1 / 3) / 3)


def _caught(actor: Any, target: Any, arena: Any, radius: float) -> list[Any]:
    """Every character in the sphere round the target, the shooter spared (off the field:
    the target alone). Crews and units take it as an ordinary shot (agents.core.shooting)."""
    if not target.placed:
        return [target]
    x, y = target.position
    field = arena.field
    caught = [target]
    for side in range(field.sides):  # a body touched by the sphere is caught
        for other in field.within(side, x, y, radius + field.widest):
            if (
                other is not target
                and other is not actor
                and other.kind == "character"
                and other.fighting
                and math.dist(other.position, (x, y)) <= radius + other.radius
            ):
                caught.append(other)
    return caught


def blast(
    actor: Any, target: Any, arena: Any, concentrating: bool, band: str, yards: float
) -> None:
    """One widespread attack at ``target``: one placement roll, each victim struck."""
    opts = arena.options
    missile, attacker = actor.missile, actor.fighter
    rng = actor.rng
    a_pen = actor.penalty + aims.vision_penalty(actor)
    a_dice = roll_4df(rng)
    a_rolled = attacker.attack + a_pen + (CONCENTRATION_BONUS if concentrating else 0) + a_dice
    range_mod = range_target_modifier(band, extreme_literal=opts.range.extreme_literal)
    attack_volume = volume_scale(missile.area_ft3, opts.range.volume_scale_rounding)
    radius = area_radius(missile.area_ft3)
    for victim in _caught(actor, target, arena, radius):
        if victim.fighting:
            _strike(actor, victim, arena, a_dice, a_rolled, a_pen, range_mod, attack_volume, yards)


def _strike(
    actor: Any,
    victim: Any,
    arena: Any,
    a_dice: int,
    a_rolled: int,
    a_pen: int,
    range_mod: int,
    attack_volume: int,
    yards: float,
) -> None:
    """The placement roll against one victim, its damage and the log line."""
    opts = arena.options
    rng = actor.rng
    defender = getattr(victim, "missile_fighter", None) or victim.fighter
    defended = victim.use_defence()
    d_dice = roll_4df(rng) if defended else None
    d_rolled = None if d_dice is None else defender.defence + victim.penalty + d_dice
    level = scale_target(defender.scale, actor.fighter.scale) + range_mod
    placed = widespread(a_rolled, d_rolled, level, mode=opts.fadad.target_mode)
    rd = placed.result.rd
    track = victim.melee_track()
    mass = defender.scale if defender.mass_scale is None else defender.mass_scale
    volume = mass if defender.volume_scale is None else defender.volume_scale
    ddm = widespread_ddm(
        mass,
        armour=defender.armour,
        other=defender.ddm - mass - defender.armour,
        victim_volume_scale=volume,
        attack_volume_scale=attack_volume,
        rounding=opts.range.widespread_scale_rounding,
    )
    damage, wound = 0, Wound.UNDAMAGED
    dice: tuple[int, ...] = ()
    if placed.damages:
        roll = roll_4df(rng)
        damage, dice = fadad_damage(rd, actor.fighter.odm - ddm, roll), (roll,)
        wound = wound_for_damage(damage)
        track = record_wound(arena.combat_rules.wounds, track, wound, pc=victim.protection.pc)
    arena.record(
        actor.name,
        "blast",
        victim.name,
        (("attack", a_dice), ("defence", d_dice), ("damage", dice)),
        (("attacker_penalty", a_pen), ("defender_penalty", victim.penalty), ("ddm", ddm)),
        (
            ("result", wound.label if placed.damages else "astray"),
            ("attack", a_rolled),
            ("defence", d_rolled if defended else level),
            ("defended", defended),
            ("yards", round(yards, 2)),
            ("rd", rd),
            ("hit", placed.damages),
            ("damage", damage),
            ("wound", wound.label),
        ),
    )
    if placed.damages:
        res = AttackResult(
            a_dice,
            a_rolled,
            d_dice,
            d_rolled,
            level,
            rd,
            True,
            0,
            (),
            damage,
            dice,
            wound,
            track,
        )
        victim.absorb(res, arena)
