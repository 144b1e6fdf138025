"""Holds in a Fae battle: seizing, keeping, breaking and reversing them (section 4).

``fae-domains.md`` section 4 on the kernel (``rules.fae.special``):

* a fighter seizes a hold with a full action: an Unarmed attack test at the hold's
  modifier (``hold_seize_modifier``: basic 0, limb -20, submission -40, PROPOSED);
* each later full action the holder spends on it is an Unarmed test at +25 that deals
  STR / 2 base damage by its margin, or breaks the hold on a failure; a holder that does
  nothing about it keeps the target held;
* the held fighter may break free with a full action: each side tests Strength or
  Unarmed, whichever is better for it (the holder at +10); a margin at least twice the
  holder's reverses the hold: the former target's next action may seize a hold on its
  former holder without a test;
* a basic hold leaves the target its normal actions and defences (it drags the holder
  along when it moves, ``agents.fae.moves.approach``); a limb hold the same, save the held
  limb (an arm: the weapon arm, so the other hand fights; a leg: half movement); a
  submission hold nothing but breaking free.

PROPOSED here: a holder who moves, or acts against anyone else, lets go; a hold ends when
either fighter leaves the fight.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fadad_agents.agents.fae.moves import log_event
from fadad_agents.rules.fae.attack import Defences, damage_sequence
from fadad_agents.rules.fae.special import (
    HOLD_ATTACK_BONUS,
    HOLD_KINDS,
    HOLDER_BREAK_BONUS,
    break_hold,
    hold_damage,
    hold_seize_modifier,
)

if TYPE_CHECKING:
    from fadad_agents.agents.fae.arena import FaeArena
    from fadad_agents.agents.fae.character import FaeCharacter

__all__ = ["break_free", "hold_choice", "keep_hold", "release", "start_hold"]


def hold_choice(choice: str) -> tuple[str, str | None]:
    """A policy's ``hold``, ``hold:limb``, ``hold:limb:leg`` or ``hold:submission`` as
    (kind, limb); a limb hold takes the weapon arm unless it names the leg."""
    _, _, rest = choice.partition(":")
    kind, _, limb = (rest or "basic").partition(":")
    if kind not in HOLD_KINDS or limb not in ("", "arm", "leg") or (limb and kind != "limb"):
        raise ValueError(
            f"fae_action policy chose {choice!r}; use hold, hold:limb, hold:limb:arm, "
            "hold:limb:leg or hold:submission"
        )
    return kind, (limb or "arm") if kind == "limb" else None


def start_hold(
    c: FaeCharacter, target: Any, arena: FaeArena, choice: str = "hold", free: bool = False
) -> None:
    """Seize a hold on ``target`` (a full action, already paid): an Unarmed attack test at
    the hold's modifier, or, ``free``, none at all (right after reversing its hold)."""
    kind, limb = hold_choice(choice)
    reach = c.distance(target) <= c.reach and hasattr(target, "held_by") and target.fighting
    reversed_on = free
    dice: tuple[tuple[str, Any], ...] = ()
    mods: tuple[tuple[str, Any], ...] = (("kind", kind), ("limb", limb))
    if reversed_on:
        ok = reach
    else:
        roll = c.test("Unarmed", hold_seize_modifier(kind, c.opts))  # type: ignore[arg-type]
        ok = roll.check.success and reach
        dice, mods = (("d100", roll.roll),), (("mcs", roll.mcs), *mods)
    if ok:
        release(target, arena, "")  # a fighter is in one hold at a time: the new one counts
        c.holding, target.held_by = target, c
        target.hold_kind, target.hold_limb = kind, limb
    result = ("reverses the hold" if reversed_on else "held") if ok else "miss"
    log_event(arena, c, "hold", target, result, dice, mods)


def keep_hold(c: FaeCharacter, target: Any, arena: FaeArena) -> None:
    """The holder's full action: Unarmed at +25 deals STR/2 base, or the hold breaks."""
    roll = c.test("Unarmed", HOLD_ATTACK_BONUS)
    if not roll.check.success:
        release(target, arena, "")
        log_event(arena, c, "hold", target, "broken", (("d100", roll.roll),))
        return
    res = damage_sequence(
        hold_damage(c.stats.attributes.strength),
        roll.check.margin,
        Defences(armour_dr=target.armour_dr),
        c.opts,
    )
    log_event(
        arena,
        c,
        "hold",
        target,
        "squeezes",
        (("d100", roll.roll),),
        (("mcs", roll.mcs),),
        (("margin", roll.check.margin), ("damage", res.inflicted)),
    )
    target.apply(arena, res.inflicted, False, "hold")


def _better(c: FaeCharacter, bonus: int = 0) -> Any:
    """A Strength or Unarmed test, whichever has the better chance (section 4)."""
    use = "Unarmed" if c.chance("Unarmed", bonus) >= c.chance("strength_attr", bonus) else None
    return c.test(use or "strength_attr", bonus)


def break_free(c: FaeCharacter, holder: FaeCharacter, arena: FaeArena) -> str:
    """Break free (full): Strength or Unarmed each, holder at +10 (section 4)."""
    mine = _better(c)
    theirs = _better(holder, HOLDER_BREAK_BONUS)
    outcome = break_hold(mine.check, theirs.check)
    if outcome != "held":
        release(c, arena, "")
    if outcome == "reversed":  # the next action may seize a hold on the former holder
        c.memory["reversal"] = holder
    log_event(
        arena,
        c,
        "break_hold",
        holder,
        outcome,
        (("d100", mine.roll), ("holder", theirs.roll)),
        (("mcs", mine.mcs), ("holder_mcs", theirs.mcs)),
    )
    c.spend("full")
    return "full"


def release(held: Any, arena: FaeArena, why: str = "lets go") -> None:
    """End the hold on ``held``, if any (logged with ``why`` unless it is empty)."""
    holder = getattr(held, "held_by", None)
    if holder is None:
        return
    holder.holding, held.held_by = None, None
    held.hold_kind, held.hold_limb = "", None
    if why:
        log_event(arena, holder, "hold", held, why)
