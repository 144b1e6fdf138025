"""How a Fae Domains blow lands: the attack test, the defence, damage, special called shots.

``fae-domains.md`` sections 3, 7 and 8 on the kernel (``rules.fae_attack``,
``rules.fae_special``): the attack test with the modifiers table, range, aim, called
shots and stun; the target's dodge, acrobatic dodge or block (a short or full action
from its margin); damage by margin with charges and armour (A-63, A-64), equipment wear
(A-67); special called shots land through :mod:`~fadad_agents.agents.fae.called_shots`
(section 7, with delayed deaths as timed callbacks on the battle clock; ``delayed_death``
is re-exported here). FADAD targets (mixed scenes) take the blow through
:mod:`~fadad_agents.agents.fae.bridge`.

PROPOSED here (no seed rule): melee reach 2 yd; a useless weapon arm (numb this turn and
the next, or severed / mangled for good) leaves the readied weapon unusable, the other
hand striking offhand with a spare one-handed weapon or the fist; a useless leg halves
movement and forbids running (``fae.useless_leg_runs``); the two-handed grip per
``fae.two_handed_grip``; armour worn below DR 0 counts as none.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from fadad_agents.agents.fae.bridge import fadad_wound_from_damage, fadad_wound_points
from fadad_agents.agents.fae.called_shots import (
    apply_special_shot,
    break_item,
    delayed_death,
    resolve_disarm,
)
from fadad_agents.agents.fae.moves import log_event, step_away
from fadad_agents.rules.core.wounds import Wound
from fadad_agents.rules.fae.arcs import Arc, attack_arc, unit
from fadad_agents.rules.fae.attack import (
    AttackSituation,
    Defences,
    acrobatic_dodge,
    attack_modifier,
    called_shot_modifier,
    damage_sequence,
    dodge_move_feet,
    range_penalty,
    stun_modifier,
    unarmed_block_dr,
)
from fadad_agents.rules.fae.checks import ladder_to_percentile, resolve_check
from fadad_agents.rules.fae.special import (
    charged_base_damage,
    held_may_act,
    thrown_max_range,
    two_handed_grip,
    underwater_melee_skill,
    underwater_missile_skill,
)
from fadad_agents.rules.personal.wound_models import record_wound

if TYPE_CHECKING:
    from fadad_agents.agents.fae.arena import FaeArena
    from fadad_agents.agents.fae.character import FaeCharacter

__all__ = ["attack", "defend", "delayed_death", "flank"]


# --- attacks ----------------------------------------------------------------------------


def _base_skill(c: FaeCharacter, weapon: Any, skill: int | None) -> int | None:
    s = c.skill(weapon.skill) if skill is None else skill
    if not c.stats.underwater:
        return s
    return underwater_missile_skill(s, c.opts) if weapon.ranged else underwater_melee_skill(s)


def flank(c: Any, target: Any) -> Arc:
    """The arc of ``target`` that ``c`` strikes from (section 3.1, ``rules.fae.arcs``).

    A Fae target faces its :attr:`~FaeCharacter.heading`; a FADAD one (mixed scenes) faces
    the foe it fights, and one with no foe has no sides to catch it on.
    """
    heading = getattr(target, "heading", None)
    if heading is None:
        foe = getattr(target, "target", None)
        if foe is None or foe is c:
            return "front"
        fx, fy = _xy(foe)
        tx, ty = _xy(target)
        heading = unit(fx - tx, fy - ty)
        if heading is None:
            return "front"
    t = (*_xy(target), float(getattr(target, "altitude", 0)))
    a = (*_xy(c), float(getattr(c, "altitude", 0)))
    return attack_arc(heading, t, a, c.opts.front_arc, c.opts.rear_arc)


def _xy(other: Any) -> tuple[float, float]:
    xy = getattr(other, "xy", None)
    if xy is not None:
        return float(xy[0]), float(xy[1])
    p = getattr(other, "position", None)
    return (0.0, 0.0) if p is None else (float(p[0]), float(p[1]))


def _situation(c: FaeCharacter, weapon: Any, target: Any, offhand: bool = False) -> tuple[int, int]:
    """(all table modifiers, the blindside or rear part of them) of an attack.

    The two-handed grip is the readied weapon's, held whole (a disarm may have knocked a
    hand off it): ``rules.fae.special.two_handed_grip``.
    """
    both = weapon is c.hands.ready and c.hands.two_handed
    two, large = two_handed_grip(both, weapon.large, c.opts.two_handed_grip, weapon.ranged)
    limb = c.limb_useless("arm") or offhand  # the other hand strikes
    arc = flank(c, target) if c.opts.facing else "front"
    stats = getattr(target, "stats", None)
    vision = getattr(stats, "vision", "normal")
    sides = AttackSituation(
        blindside=arc == "side",
        target_wide_angle_vision=vision in ("wide_angle", "all_around"),
        rear=arc == "rear",
        target_all_around_vision=vision == "all_around",
    )
    total = attack_modifier(
        replace(
            sides,
            offhand=limb,
            ambidextrous=c.stats.ambidextrous,
            large_weapon=large,
            two_handed=two,
            blinded=c.stats.blinded,
            prone=c.prone,
            kneeling=c.kneeling,
            missile=weapon.ranged,
        )
    )
    return total, attack_modifier(sides)


def attack(
    c: FaeCharacter,
    target: Any,
    arena: FaeArena,
    weapon: Any = None,
    skill: int | None = None,
    offhand: bool = False,
) -> None:
    """One attack test and its damage sequence (sections 3, 7, 8); ``offhand``: the blow
    of a second weapon, in the other hand (-10% unless ambidextrous)."""
    w = weapon or c.weapon
    base = _base_skill(c, w, skill)
    pol = c.fae_policies.called_shot
    shot = pol.choose_shot(c, target, arena) if hasattr(target, "health") else None
    stun = pol.stun(c, target, arena)
    aim = c.aim
    situation, flanked = _situation(c, w, target, offhand)
    mods = situation + aim
    if shot is not None:
        item = getattr(getattr(target, "hands", None), "ready", None)
        small = shot == "item_break" and item is not None and item.weight < 1  # a wand (-40)
        mods += called_shot_modifier(very_small=small)
    if stun:
        mods += stun_modifier(w.damage_kind)
    rng_pen = _range(c, w, target)
    if base is None or rng_pen is None:
        log_event(arena, c, "fae_attack", target, "cannot hit", more=(("why", "range or water"),))
        return
    mcs = max(1, base + mods + rng_pen + _attr_luck(c, w))
    roll = resolve_check(mcs, c.rng, c.opts)
    c.aim = 0
    if w.thrown and w in c.weapons:  # thrown away: the next weapon must be readied first
        c.hands.take(c.weapons.index(w))
    if not roll.check.success:
        log_event(
            arena,
            c,
            "fae_attack",
            target,
            "botch" if roll.check.botch else "miss",
            (("d100", roll.roll),),
            (
                ("mcs", mcs),
                ("range", rng_pen),
                ("aim", aim),
                ("situation", situation),
                ("flank", flanked),
            ),
            (("shot", shot), ("weapon", w.name)),
        )
        return
    margin = roll.check.margin + (20 if shot is not None else 0)
    charge = c.ran and not w.ranged
    mount = c.mount.stats.attributes.size if (charge and c.mount) else None
    dmg_base = charged_base_damage(w.damage_base, c.size, charge, mount, c.opts)
    c.charging = False  # the blow right after the run: any later one is no charge
    extra = (("aim", aim), ("situation", situation), ("flank", flanked))
    if hasattr(target, "health"):
        _land_on_fae(c, target, arena, w, roll, mcs, margin, dmg_base, shot, stun, extra)
    else:
        _land_on_fadad(c, target, arena, w, roll, mcs, margin, dmg_base, extra)


def _attr_luck(c: FaeCharacter, w: Any) -> int:
    """Attribute and Luck modifiers of the weapon skill (MCS minus the bare skill)."""
    return c.chance(w.skill or "") - c.skill(w.skill)


def _range(c: FaeCharacter, w: Any, target: Any) -> int | None:
    if not w.ranged:
        return 0 if c.distance(target) <= c.reach else None
    max_r = w.max_range
    if w.thrown:
        cap = thrown_max_range(c.stats.attributes.strength, Fraction(w.weight).limit_denominator())
        max_r = int(cap) if max_r is None else min(max_r, int(cap))
    return range_penalty(int(c.distance(target)), w.range_rating or 1, max_r)


def _land_on_fae(
    c: FaeCharacter,
    t: FaeCharacter,
    arena: FaeArena,
    w: Any,
    roll: Any,
    mcs: int,
    margin: int,
    dmg_base: int,
    shot: str | None,
    stun: bool,
    extra: tuple[tuple[str, Any], ...] = (),
) -> None:
    defences, used = defend(t, c, arena, margin)
    if shot == "item_break":  # the item, not the body: its armour does not shield it
        res = damage_sequence(dmg_base, margin, replace(defences, armour_dr=0), c.opts)
        _wear_block(t, used, res.block_dr_after, arena)
        break_item(c, t, arena, roll, mcs, res)
        return
    res = damage_sequence(dmg_base, margin, defences, c.opts)
    log_event(
        arena,
        c,
        "fae_attack",
        t,
        "sidestepped" if res.sidestepped else "hit",
        (("d100", roll.roll),),
        (("mcs", mcs), ("base", dmg_base), *extra),
        (
            ("margin", res.margin),
            ("damage", res.damage),
            ("block", res.block_bonus),
            ("inflicted", res.inflicted),
            ("shot", shot),
            ("stun", stun),
            ("weapon", w.name),
            ("defence", used),
        ),
    )
    if res.sidestepped:
        return
    t.armour_dr = max(0, res.armour_dr_after)  # worn through: no armour left
    _wear_block(t, used, res.block_dr_after, arena)
    t.apply(arena, res.inflicted, stun, "attack")
    if not t.fighting or t.health.dead:  # struck down: no weapon to lose, no wound to die of
        return
    if shot == "disarm":
        resolve_disarm(c, t, arena, margin)
    elif shot not in (None, "plain"):
        apply_special_shot(c, t, arena, shot, res.inflicted, stun, w)


def _wear_block(t: FaeCharacter, used: str, dr_after: int, arena: FaeArena) -> None:
    if used != "block":
        return
    if t.stats.shield is not None:
        t.shield_dr = max(0, dr_after)
    elif _parries(t):  # else an unarmed block
        broken = t.hands.wear(dr_after)
        if broken is not None:
            log_event(arena, t, "item_broken", None, broken.name)


def _land_on_fadad(
    c: FaeCharacter,
    t: Any,
    arena: FaeArena,
    w: Any,
    roll: Any,
    mcs: int,
    margin: int,
    base: int,
    extra: tuple[tuple[str, Any], ...],
) -> None:
    """A Fae blow on a FADAD fighter (mixed scenes; agents.fae_bridge, PROPOSED)."""
    fighter = t.fighter
    dodge = None
    if t.use_defence():
        pct = ladder_to_percentile(fighter.defence + t.penalty)
        d = resolve_check(pct, t.rng, c.opts)
        dodge = d.check.margin if d.check.success else None
    armour = c.opts.bridge_armour_dr * fighter.armour
    opts = c.opts.model_copy(update={"equipment_wear": False})
    res = damage_sequence(base, margin, Defences(dodge_margin=dodge, armour_dr=armour), opts)
    wp = fadad_wound_points(fighter.ddm - fighter.armour, 0, c.opts.bridge_wound_points)
    level = fadad_wound_from_damage(res.inflicted, wp, c.opts.bridge_wound_percent)
    if level:  # as a FADAD blow records it: its track's kind and the wound options
        t.track = record_wound(arena.combat_rules.wounds, t.track, level, pc=t.player)
    log_event(
        arena,
        c,
        "fae_attack",
        t,
        Wound(t.wound).label if level else ("sidestepped" if res.sidestepped else "no wound"),
        (("d100", roll.roll),),
        (("mcs", mcs), ("base", base), *extra),
        (
            ("margin", res.margin),
            ("inflicted", res.inflicted),
            ("wound_points", wp),
            ("wound", Wound(level).label),
            ("weapon", w.name),
        ),
    )
    if level and t.track.out_of_fight and t.fighting:
        arena.take_out(t, t.track.level.label)


# --- defence ----------------------------------------------------------------------------


def defend(t: FaeCharacter, attacker: Any, arena: FaeArena, margin: int) -> tuple[Defences, str]:
    """The target's answer to a blow of attack ``margin`` that hit: dodge, acrobatic dodge
    (its next action, full, whatever margin is left), block, or none (2.2, 2.3, A-64). A
    fighter in a submission hold cannot defend; one in a basic or limb hold can (4)."""
    armour = t.armour_dr
    barred = t.held_by is not None and not held_may_act(t.hold_kind)  # type: ignore[arg-type]
    if not t.has_action or barred or "recover" in t.effects:
        return Defences(armour_dr=armour), "none"
    choice = t.fae_policies.defence.defend(t, attacker, arena, margin)
    if choice == "none":
        return Defences(armour_dr=armour), "none"
    t.memory["count"] = t.margin
    t.charging = False  # a defence is an action: a charge must come right after the run
    if choice == "acrobatic_dodge":
        t.spend_defence("full", arena)
        t.aim = 0  # any action but aim, attack or hold loses the aim
        acro = t.test("acrobatics")
        roll = resolve_check(t.chance("dodge"), t.rng, t.opts)
        res = acrobatic_dodge(t.chance("dodge"), acro.check, roll.roll, t.opts)
        m = res.margin if res is not None and res.success else None
        log_event(
            arena,
            t,
            "acrobatic_dodge",
            attacker,
            m if m is not None else "fails",
            (("acrobatics", acro.roll), ("d100", roll.roll)),
        )
        return Defences(dodge_margin=m, armour_dr=armour), "dodge"
    if choice == "block":
        t.spend_defence("short", arena)
        t.aim = 0
        roll = t.test("block")
        dr = _block_dr(t)
        m = roll.check.margin if roll.check.success else None
        log_event(
            arena,
            t,
            "block",
            attacker,
            m if m is not None else "fails",
            (("d100", roll.roll),),
            (("mcs", roll.mcs),),
            (("item_dr", dr),),
        )
        if m is None:
            return Defences(armour_dr=armour), "none"
        return Defences(block_margin=m, block_dr=dr, armour_dr=armour), "block"
    if choice in ("dodge", "acrobatic_dodge"):
        t.spend_defence("short", arena)
        t.aim = 0
        roll = t.test("dodge")
        m = roll.check.margin if roll.check.success else None
        moved = dodge_move_feet(m or 0)
        log_event(
            arena,
            t,
            "dodge",
            attacker,
            m if m is not None else "fails",
            (("d100", roll.roll),),
            (("mcs", roll.mcs),),
            (("moves_ft", moved),),
        )
        grappled = t.held_by is not None or t.holding is not None
        if moved and not grappled:  # half the dodge margin in feet, away (PROPOSED: yd/3)
            step_away(t, attacker, moved / 3)
        return Defences(dodge_margin=m, armour_dr=armour), "dodge" if m else "none"
    return Defences(armour_dr=armour), "none"


def _block_dr(t: FaeCharacter) -> int:
    """Shield DR, else the readied melee weapon's, else Agility (unarmed block)."""
    if t.stats.shield is not None:
        return t.shield_dr
    if _parries(t):
        return t.hands.drs[0]
    return unarmed_block_dr(t.stats.attributes.agility)


def _parries(t: FaeCharacter) -> bool:
    """The readied weapon parries: a melee weapon in a hand free to use it."""
    w = t.hands.ready
    return w is not None and not w.ranged and not t.limb_useless("arm")
