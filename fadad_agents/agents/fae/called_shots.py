"""Special called shots as they land: disarm, item break, head, limb, chest, abdomen.

``fae-domains.md`` section 7 (special called shots) with section 8 for item break
(equipment damage to the readied weapon's DR), on the kernel (``rules.fae_attack``):
after :func:`fadad_agents.agents.fae.combat.attack` lands a called shot, the effect is
applied to the target here, and a mortal wound becomes a delayed death, a timed callback
on the battle clock.

PROPOSED here (no seed rule): a limb shot hits the weapon arm or a leg (the called-shot
policy's ``limb``).
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

from fadad_agents.agents.fae.moves import log_event
from fadad_agents.rules.fae.attack import (
    DamageResult,
    disarm_kept,
    equipment_damage,
    resolve_delayed_death,
    special_shot_effect,
)

if TYPE_CHECKING:
    from fadad_agents.agents.fae.arena import FaeArena
    from fadad_agents.agents.fae.character import FaeCharacter

__all__ = ["apply_special_shot", "break_item", "delayed_death", "resolve_disarm"]


def break_item(
    c: FaeCharacter, t: FaeCharacter, arena: FaeArena, roll: Any, mcs: int, res: DamageResult
) -> None:
    """Item break: the blow, after the target's dodge and block (``res``: its body armour
    left out, PROPOSED), goes to the readied weapon's DR (section 8)."""
    hands = t.hands
    dice, mods = (("d100", roll.roll),), (("mcs", mcs),)
    if hands.ready is None or res.sidestepped:
        result = "sidestepped" if res.sidestepped else "no item"
        log_event(arena, c, "fae_attack", t, result, dice, mods, (("margin", res.margin),))
        return
    name = hands.weapons[0].name
    hit = equipment_damage(hands.drs[0], res.inflicted)
    broken = hands.wear(hit.dr_after) is not None
    log_event(
        arena,
        c,
        "item_break",
        t,
        "broken" if broken else "damaged",
        dice,
        mods,
        (
            ("margin", res.margin),
            ("damage", res.inflicted),
            ("block", res.block_bonus),
            ("excess", hit.excess),
            ("dr_after", hit.dr_after),
            ("item", name),
        ),
    )


def resolve_disarm(c: FaeCharacter, t: FaeCharacter, arena: FaeArena, margin: int) -> None:
    """The target's Strength test must beat the disarm's margin, or a hand is knocked off
    its weapon; the last hand off sends the weapon to the ground (section 7)."""
    if not t.fighting or t.hands.ready is None:
        return
    roll = t.test("strength_attr")
    kept = disarm_kept(roll.check, margin)
    result = "keeps weapon"
    if not kept:
        result = "loses one hand's grip" if t.hands.knock() == "hand" else "disarmed"
    log_event(
        arena,
        t,
        "disarm",
        c,
        result,
        (("d100", roll.roll),),
        more=(("against", margin), ("item", t.weapons[0].name if kept else None)),
    )


def apply_special_shot(
    c: FaeCharacter,
    t: FaeCharacter,
    arena: FaeArena,
    shot: str,
    inflicted: int,
    stun: bool,
    w: Any,
) -> None:
    points = t.stats.fatigue_points if stun else t.stats.wound_points
    effect = special_shot_effect(shot, inflicted, points, stun, w.damage_kind, c.opts)  # type: ignore[arg-type]
    if effect is None:
        return
    limb = _limb(c) if shot == "limb" else "arm"
    log_event(
        arena,
        c,
        "called_shot",
        t,
        effect.effect,
        more=(
            ("shot", shot),
            ("detail", effect.detail),
            ("limb", limb if shot == "limb" else None),
        ),
    )
    kind = effect.effect
    if kind == "dead":
        t.health = type(t.health)(
            t.health.wound_points,
            t.health.fatigue_points,
            t.health.wound_points + 1,
            t.health.fatigue,
        )
        arena.take_out(t, "dead")
    elif kind == "unconscious":
        arena.take_out(t, "unconscious")
    elif kind == "limb_numb":  # the rest of this turn and all of the next
        t.effects[f"{limb}_numb_until"] = arena.fae_turn + effect.lasts_turns
    elif kind in ("limb_severed", "limb_mangled"):
        t.effects[limb] = kind
    elif effect.recover_test is not None:
        t.effects["recover"] = f"{effect.recover_test}_attr"
    if effect.delay_unit is not None:
        delayed_death(c, t, arena, effect)


def _limb(c: FaeCharacter) -> str:
    """Which limb a limb shot aims at: the policy's ``limb`` (``arm``, the weapon arm, or
    ``leg``; default arm)."""
    limb = str(getattr(c.fae_policies.called_shot, "limb", "arm"))
    if limb not in ("arm", "leg"):
        raise ValueError(f"fae_called_shot limb {limb!r}; use arm or leg")
    return limb


def delayed_death(c: FaeCharacter, t: FaeCharacter, arena: FaeArena, effect: Any) -> None:
    """Dies in 1d10 turns (at the end of the last) or 1d10 minutes: a timed callback."""
    seconds = resolve_delayed_death(effect, c.rng)
    if effect.delay_unit == "turns":
        into = arena.now % 10  # the end of the d10-th turn, this one counting as the first
        delay: Fraction = Fraction(seconds) - Fraction(into)
    else:
        delay = Fraction(seconds)
        t.effects["action_test"] = True
    due = arena.now + delay

    def die() -> None:
        if t.health.dead:
            return
        t.health = type(t.health)(
            t.health.wound_points,
            t.health.fatigue_points,
            t.health.wound_points + 1,
            t.health.fatigue,
        )
        log_event(arena, t, "delayed_death", None, "dies", more=(("cause", effect.effect),))
        if t.fighting:
            arena.take_out(t, "dead")

    t.effects["dies_at"] = float(due)
    log_event(arena, t, "mortal_wound", c, effect.effect, more=(("dies_at", round(float(due), 3)),))
    arena.after(delay, "delayed_death", die)
