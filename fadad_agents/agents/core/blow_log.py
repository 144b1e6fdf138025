"""The log event of one melee blow, made when the log is read (``Arena.defer``).

A battle's log is most of what the cyclic garbage collector walks when the battle is
dropped, so the event's (name, value) pairs are shared, made once, wherever the value is
small.
"""

from __future__ import annotations

from typing import Any

from fadad_agents.rules.core.wounds import Wound
from fadad_agents.rules.personal.dc_track import DcTrack

__all__ = ["attack_event", "defence_verb"]

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
