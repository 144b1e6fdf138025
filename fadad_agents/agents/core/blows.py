"""One melee blow: struck through the kernel, landed on its target, and logged.

:func:`strike` resolves the blow (``rules.personal.combat.resolve_attack``) and hands it to
the target; its log event is made only when the log is read (``Arena.defer``,
:func:`attack_event`). A battle's log is most of what the cyclic garbage collector walks
when the battle is dropped, so the event's (name, value) pairs are shared, made once,
wherever the value is small.
"""

from __future__ import annotations

from typing import Any

from fadad_agents.agents.core import aims, conditions
from fadad_agents.agents.core.base import Arena, Combatant
from fadad_agents.agents.core.shields import shield_rank
from fadad_agents.rules.core.wounds import Wound
from fadad_agents.rules.personal.combat import NO_PROTECTION, resolve_attack
from fadad_agents.rules.personal.dc_track import DcTrack
from fadad_agents.rules.personal.melee import (
    ALL_OUT_ATTACK_BONUS,
    moving_target_bonus,
    size_comparison_modifier,
)

__all__ = ["attack_event", "defence_verb", "land", "strike"]


def strike(attacker: Combatant, fighter: Any, target: Combatant, arena: Arena) -> Any:
    """One melee attack through the kernel, logged, and absorbed by the target.

    The defender's shield covers the foe it faces and, a large one, the next attacker on
    its shield side (:func:`~fadad_agents.agents.core.shields.shield_rank`, personal-combat.md
    3). A defender that moved quickly this round is harder to hit (its gait's
    ``move.target_bonus``, section 5).
    The log event is deferred (:func:`attack_event` makes it when the log is read).
    """
    defended = target.use_defence()
    a_pen, d_pen = attacker.penalty, target.penalty
    facing = target.target
    track = target.melee_track()
    protection = target.protection
    gait = target.gait
    modifier = ALL_OUT_ATTACK_BONUS if attacker.all_out else 0
    rules = arena.combat_rules
    if rules.weapon_size_comparison and attacker.size_value is not None:
        theirs = target.size_value
        if theirs is not None:  # FUDGE size comparison, both ways
            modifier += size_comparison_modifier(attacker.size_value, 0, theirs, 0)
            d_pen += size_comparison_modifier(theirs, 0, attacker.size_value, 0)
    aim = attacker.aim  # a called shot, stun blow or pulled punch (agents.core.aims)
    rank = (
        1  # faced, or no shield: shield_rank's first answers, without its call
        if facing is attacker or target.fighter.shield is None
        else shield_rank(target, attacker, arena.round)
    )
    bonus = moving_target_bonus(gait, arena.options.move.target_bonus) if gait else 0
    res = resolve_attack(  # in order, not by keyword, as the plain round calls it: every blow
        fighter, target.fighter, track, attacker.rng, rules, a_pen, d_pen, defended, modifier,
        rank, protection if aim is None else aims.pulled(aim, protection), bonus,
    )  # fmt: skip
    taken = after = None
    if aim is not None or target.spirit is not None:
        res, taken, after = aims.land(attacker, target, aim, res, track, arena)
    arena.defer(
        attack_event,
        (
            attacker.name,
            target.name,
            res,
            a_pen,
            d_pen,
            defended,
            attacker.verb if aim is None else aims.verb(attacker.verb, aim),
            target.defence_verb,
            taken,
        ),
    )
    if not res.hit:  # a miss leaves the target as it was (every absorb ignores one)
        return res
    res = land(target, res, track, protection, arena)
    if after is not None:  # a stun, a hurt limb: once the blow is logged (agents.core.aims)
        after()
    return res


def land(target: Combatant, res: Any, track: Any, protection: Any, arena: Arena) -> Any:
    """A hit lands on ``target`` (struck on ``track``): a protected player character
    about to be left Near Death or Dead may spend an Ité point first. Returns the result
    the target absorbed."""
    hit_hard = protection is not NO_PROTECTION and res.track.level >= Wound.NEAR_DEATH
    if hit_hard and not (res.crit_effects and conditions.spares_the_body(res.crit_effects, arena)):
        res = target.spend_ite_point(res, track, arena)
    target.absorb(res, arena)
    return res


_LABELS = tuple(w.label for w in Wound)

_SPAN = 32


def _int_pairs(name: str) -> tuple[tuple[str, int], ...]:
    """``(name, v)`` at index ``v`` for ``-_SPAN <= v < _SPAN`` (negative ``v`` wraps)."""
    return tuple((name, v if v < _SPAN else v - 2 * _SPAN) for v in range(2 * _SPAN))


_DICE_ATTACK = _int_pairs("attack")
_DICE_DEFENCE = _int_pairs("defence")
_ROLLED = _int_pairs("attack")
_OPPOSED = _int_pairs("defence")
_TARGET = _int_pairs("target_level")
_RD = _int_pairs("rd")
_DAMAGE = _int_pairs("damage")
_RESULT_PAIRS = tuple(("result", label) for label in _LABELS)
_WOUND_PAIRS = tuple(("wound", label) for label in _LABELS)
_NO_EFFECTS: tuple[str, tuple[str, ...]] = ("crit_effects", ())
_NO_PENALTIES = (("attacker_penalty", 0), ("defender_penalty", 0))
_VERBS = {v: ("verb", v) for v in ("swing", "punch", "shot", "attack")}
_DEFENCE_VERBS = {v: ("defence_verb", v) for v in ("parry", "block", "dodge", "defence")}


def defence_verb(skill_name: str | None) -> str:
    """How a defence reads in the narration: ``block`` (shield), ``dodge`` or ``parry``."""
    key = (skill_name or "").lower()
    if "shield" in key or "block" in key:
        return "block"
    if "dodge" in key:
        return "dodge"
    return "parry"


def attack_event(
    actor: str,
    target: str,
    res: Any,
    a_pen: int,
    d_pen: int,
    defended: bool,
    verb: str,
    d_verb: str,
    taken: str | None = None,
) -> tuple[str, str, str, Any, Any, Any]:
    """The (actor, action, target, dice, modifiers, outcome) of one :func:`strike`;
    ``taken``: what an aimed or spirit blow was taken as (a stun, a hurt arm ...)."""
    hit, effects, span = res.hit, res.crit_effects, _SPAN
    a_dice, d_dice, rolled, level, rd, damage = (
        res.attack_dice, res.defence_dice, res.attack_rolled, res.target, res.rd, res.damage
    )  # fmt: skip
    opposed = res.defence_rolled if defended else level
    return (
        actor,
        "attack",
        target,
        (
            _DICE_ATTACK[a_dice] if -span <= a_dice < span else ("attack", a_dice),
            ("defence", None)
            if d_dice is None
            else (_DICE_DEFENCE[d_dice] if -span <= d_dice < span else ("defence", d_dice)),
            ("damage", res.damage_dice),
        ),
        (("attacker_penalty", a_pen), ("defender_penalty", d_pen))
        if a_pen or d_pen
        else _NO_PENALTIES,
        (
            _RESULT_PAIRS[res.wound] if hit else ("result", "miss"),
            _ROLLED[rolled] if -span <= rolled < span else ("attack", rolled),
            _OPPOSED[opposed]
            if opposed is not None and -span <= opposed < span
            else ("defence", opposed),
            ("defended", True) if defended else ("defended", False),
            _TARGET[level] if -span <= level < span else ("target_level", level),
            _RD[rd] if -span <= rd < span else ("rd", rd),
            ("hit", True) if hit else ("hit", False),
            ("crits", res.crits) if res.crits else ("crits", 0),
            ("crit_effects", tuple([e.name for e in effects])) if effects else _NO_EFFECTS,
            _DAMAGE[damage] if -span <= damage < span else ("damage", damage),
            _WOUND_PAIRS[res.wound],
            _VERBS.get(verb) or ("verb", verb),
            _DEFENCE_VERBS.get(d_verb) or ("defence_verb", d_verb),
            *(_taken(res) if taken is None else (("taken", taken),)),
        ),
    )


def _taken(res: Any) -> tuple[tuple[str, str], ...]:
    """``("taken", level)`` when the blow left its victim less hurt than its severity (a
    protected player character, a full npc3 track, overflow kept at Near Death);
    ``("now", level)`` when the victim is now worse than the blow alone (earlier wounds,
    filled boxes): the running wound state a GM reads aloud. On the Damage-Capacity track
    (wounds-and-healing.md 6.4) ``("dc", "Mediocre (Hurt)")``: the DC the blow left."""
    if res.hit:
        if isinstance(res.track, DcTrack):
            return (("dc", res.track.state),)
        level = res.track.level
        if level < res.wound:
            return (("taken", level.label),)
        if level > res.wound:
            return (("now", level.label),)
    return ()
