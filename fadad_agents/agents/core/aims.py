"""Blows meant one way or another: called shots, stun blows and pulled punches, as played.

Rules: ``personal-combat.md`` 4 (hit location, A-09) and ``wounds-and-healing.md`` 8
(stun, knockout, pulled punches, A-27). A fighter's aim policy announces its blows for
the round before it rolls (:class:`~fadad_agents.policies.core.protocols.Aim`); the
kernel resolves the blow as usual and :func:`land` then places it:

* **Called shot**: it lands on the called part if the attacker won by the part's minimum
  RD and rolled at least its Target (:func:`~fadad_agents.rules.personal.melee.called_shot`),
  else it is an ordinary blow (the defender names where it lands: the body). A part hit
  takes a state from the damage number (``location.severity_thresholds``; a win by
  exactly the minimum is capped at Hurt unless the attacker's Scale leads by
  ``location.minimum_margin_cap_scale``) instead of a body wound (both with
  ``location.also_general_wound``). A Called Location crit goes the same way, at the
  weapon arm (PROPOSED).
* **Stun blow**: figured normally, recorded on a separate stun track (Scratches only
  with ``stun_scratches_accumulate``); its worst mark stuns (no attacks, -1 to defend),
  stuns very (no attacks, -2 to all) or knocks out (``knockout_rounds``). With
  ``head_blow_knockout`` a stun blow that lands on the head at Good or better knocks out
  at once.
* **Pulled punch**: the wound never exceeds the announced level (EX-WND-15).

What a damaged part does (PROPOSED where the reference gives no figure): a Hurt arm or
head is -1 to every roll (the arm fights, the head thinks); a Hurt eye -1 to shoot
(vision), an Incapacitated one -2; an Incapacitated arm drops the weapon for good, an
Incapacitated leg leaves the fighter on the ground for the fight (prone, never rising),
an Incapacitated head knocks it out. A Hurt leg (-1 running) leaves the rolls alone and
slows every move (``move.hurt_leg_factor``, :mod:`~fadad_agents.agents.core.moving`).

A stun lasts the rest of the round it lands in and its rounds after (PROPOSED: a Stun
one more round, Very Stunned two), so a victim who has acted already still loses a turn.
What a blow does to a part or the stun track applies as soon as it is logged, in a
simultaneous turn too.

A shot is called like a blow (section 4 names no weapon): against an aware target the RD
is over its dodge or block, against an unaware one over the range's Difficulty Level, and
the rolled degree must meet both that level and the part's Target. Stun blows and pulled
punches are hand-to-hand only (PROPOSED: an arrow is neither turned flat nor pulled), so a
shot keeps only the called part (:func:`shot`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import partial
from typing import Any

from fadad_agents.agents.core import spirit
from fadad_agents.policies.core.protocols import PLAIN, Aim
from fadad_agents.rules.core.wounds import (
    TRACK_BOXES,
    StunEffect,
    Wound,
    WoundTrack,
    head_blow_knocks_out,
    record_stun,
    stun_effect,
)
from fadad_agents.rules.personal.dc_track import DcTrack
from fadad_agents.rules.personal.melee import (
    LOCATION_STATES,
    LOCATIONS,
    called_shot,
    location_severity,
)

__all__ = [
    "Landed",
    "choose",
    "hurt_part",
    "knock_out",
    "land",
    "part_state",
    "pulled",
    "shot",
    "verb",
    "vision_penalty",
]

WEAPON_ARM = "arm"
"""The part a Called Location crit picks when the attacker called none (PROPOSED)."""


def choose(actor: Any, target: Any, arena: Any) -> Aim | None:
    """The actor's aim against ``target`` this round (None: a plain blow)."""
    pol = actor.policies
    aim = pol.aim_now
    if aim is None:
        other = getattr(target, "fighter", None)
        edge = 0 if other is None else actor.fighter.attack - other.defence
        aim = pol.aim.aim(actor, target, arena, edge)
    return None if aim is PLAIN else aim


def shot(aim: Aim | None) -> Aim | None:
    """What of ``aim`` a missile keeps: the called part alone (None: a plain shot)."""
    if aim is None or aim.location is None:
        return None
    return aim if not (aim.stun or aim.pulled_to is not None) else Aim(location=aim.location)


def pulled(aim: Aim, protection: Any) -> Any:
    """How a blow of ``aim`` is recorded: a pulled punch caps it at its announced level."""
    return protection if aim.pulled_to is None else replace(protection, pulled_to=aim.pulled_to)


def verb(base: str, aim: Aim) -> str:
    """How the blow reads: ``swing at the head``, ``stun blow``, ``pulled swing``."""
    text = "stun blow" if aim.stun else f"pulled {base}" if aim.pulled_to is not None else base
    return f"{text} at the {aim.location}" if aim.location else text


def land(attacker: Any, target: Any, aim: Any, res: Any, track: Any, arena: Any) -> Landed:
    """Place a resolved blow on a spirit creature (:mod:`~fadad_agents.agents.core.spirit`)
    and as its aim says: the result the target absorbs (its track as the blow leaves it),
    what the log says it was taken as, and what it does once logged and absorbed."""
    taken = None
    if target.spirit is not None:
        res, taken = spirit.land(attacker, target, res, track, arena)
    if aim is None or not res.hit or taken is not None or not hasattr(target, "conditions_now"):
        return res, taken, None
    part = None
    if aim.location is not None and called_shot(res, aim.location).location is not None:
        part = aim.location
    if aim.stun:
        return (res._replace(track=track), *_stun(target, res, part, arena))
    if aim.pulled_to is not None and res.wound > aim.pulled_to:
        res = res._replace(wound=Wound(aim.pulled_to))
    if part is None:
        return res, None, None
    state = part_state(target, part, res, attacker, arena)
    after = partial(hurt_part, target, part, state, arena)
    if arena.options.location.also_general_wound:
        return res, f"{state} {part} and body", after
    return res._replace(track=track), f"{state} {part}", after


type Landed = tuple[Any, str | None, Callable[[], None] | None]
"""What :func:`land` returns: the result, what it was taken as, what it then does."""


def part_state(target: Any, part: str, res: Any, attacker: Any, arena: Any) -> str:
    """The state a blow leaves ``part`` of the target in: from the damage number (A-09),
    or as it was if that is worse."""
    opts = arena.options.location
    loc = LOCATIONS[part]
    scale_lead = 0
    if attacker is not None and getattr(target, "fighter", None) is not None:
        scale_lead = attacker.fighter.scale - target.fighter.scale
    state = location_severity(
        res.damage,
        max(res.rd, loc.min_rd),
        loc.min_rd,
        scale_lead,
        thresholds=opts.severity_thresholds,
        cap_scale=opts.minimum_margin_cap_scale,
    )
    before: str = target.conditions_now().parts.get(part, "none")
    return state if LOCATION_STATES.index(state) > LOCATION_STATES.index(before) else before


def hurt_part(target: Any, part: str, state: str, arena: Any) -> None:
    """Leave ``part`` in ``state``; a useless part does what it does at once."""
    found = target.conditions_now()
    if found.parts.get(part) == state or state == "none" or not target.fighting:
        return
    found.parts[part] = state
    if state != "incapacitated":
        return
    if part == "arm" and target.armed is not target.bare:
        target.fighter = target.bare  # the weapon falls from a useless arm for good
        found.disarmed = False
    elif part == "leg":
        found.prone = found.grounded = True
    elif part == "head":
        knock_out(target, arena, "head wound")


def knock_out(target: Any, arena: Any, cause: str) -> None:
    """Unconscious: for ``knockout_rounds`` rounds (its actions this round lost), or out
    of the fight for its rest when the option is unset (A-27)."""
    if not target.fighting:
        return
    rounds = arena.options.knockout_rounds
    if rounds is None:
        arena.take_out(target, "knocked out")
        return
    target.conditions_now().unconscious = rounds
    target.attacks_planned = target.defences_left = 0
    arena.record(
        target.name,
        "crit_effect",
        None,
        (),
        (),
        (("result", f"knocked out for {rounds} rounds"), ("effect", cause)),
    )


def _stun(target: Any, res: Any, part: str | None, arena: Any) -> tuple[str, Any]:
    """A stun blow: what it is taken as, and what it then does (wounds-and-healing.md 8)."""
    opts = arena.options
    head_blow = part == "head" and opts.head_blow_knockout
    if head_blow and head_blow_knocks_out(res.attack_rolled, res.rd):
        return "Knockout (blow to the head)", partial(knock_out, target, arena, "blow to the head")
    found = target.conditions_now()
    track = found.stun_track
    if track is None:
        start = target.start_track  # the same boxes, empty (A-27: a separate track);
        # PROPOSED: standard boxes beside a Damage-Capacity track, which has none (6.4)
        dc = isinstance(start, DcTrack)
        kind, boxes = ("standard", TRACK_BOXES["standard"]) if dc else (start.kind, start.boxes)
        track = found.stun_track = WoundTrack(kind, boxes)
    wound = res.wound if res.wound < Wound.NEAR_DEATH else Wound.NEAR_DEATH
    new = record_stun(track, wound, scratches_accumulate=opts.stun_scratches_accumulate)
    found.stun_track = new
    if new is track or (new.level <= track.level and wound < Wound.HURT):
        return "no stun", None
    effect = stun_effect(new.level, opts.knockout_rounds)
    if effect.unconscious:
        return "Knockout", partial(knock_out, target, arena, "stun")
    if not effect.rounds:  # a Scratch-level mark
        return "no stun", None
    return effect.name, partial(_stunned, target, effect, arena)


def _stunned(target: Any, effect: StunEffect, arena: Any) -> None:
    """No attacks for the rest of this round and the effect's rounds (PROPOSED), at the
    effect's penalty meanwhile."""
    if not target.fighting:
        return
    found = target.conditions_now()
    found.stunned = max(found.stunned, (effect.rounds or 0) + 1)
    found.stun_penalty = min(found.stun_penalty, effect.defence_penalty)
    target.attacks_planned = 0
    arena.record(
        target.name,
        "stunned",
        None,
        (),
        (),
        (
            ("result", "stunned" if effect.name == "Stun" else effect.name.lower()),
            ("rounds", effect.rounds),
            ("penalty", effect.defence_penalty),
        ),
    )


def vision_penalty(shooter: Any) -> int:
    """A damaged eye's penalty to shoot: Hurt -1, Incapacitated -2 (PROPOSED)."""
    found = getattr(shooter, "conditions", None)
    if found is None:
        return 0
    state = found.parts.get("eye", "none")
    return -2 if state == "incapacitated" else -1 if state == "hurt" else 0
