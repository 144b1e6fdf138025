"""The room round a defender: how many attackers can strike it in melee at once, and
who takes a place round it this round.

Rules: as many attackers strike one defender in a round as fit round it (six round a
man), fewer where the scenario's ``map.max_attackers`` says so (a doorway), and at most
``engine.max_on_one`` of one ``count:`` group (personal-combat.md 5; the space each
fighter takes, :mod:`fadad_agents.rules.personal.movement`, PROPOSED there).
:mod:`~fadad_agents.agents.core.moving` gives these to the agents.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from fadad_agents.rules.personal.movement import melee_slots

__all__ = [
    "FEW_TO_LOOK_OVER",
    "admit",
    "another_in_reach",
    "has_room",
    "never_crowded",
    "room",
    "roomy_foe_in_reach",
]

_slots = lru_cache(maxsize=256)(melee_slots)

FEW_TO_LOOK_OVER = 64
"""The most agents a battle may have for :func:`never_crowded` to look them over: in a
larger one every defender's places are counted (it is a crowd, or nearly)."""


def room(defender: Any, attacker: Any, arena: Any) -> int:
    """How many can attack ``defender`` in melee at once: as many of the attacker's size
    as fit round it, at most the scenario's ``map.max_attackers``."""
    places = _slots(defender.radius, getattr(attacker, "radius", defender.radius))
    field = arena.field
    if field is not None and field.max_attackers is not None and field.max_attackers < places:
        return int(field.max_attackers)
    return places


def _room_left(defender: Any, attacker: Any, arena: Any, engaged: list[Any]) -> bool:
    """A place is left round ``defender`` for a newcomer ``attacker`` this round."""
    if len(engaged) >= room(defender, attacker, arena):
        return False
    band = attacker.band
    if len(band.members) > 1:
        same = 0
        for other in engaged:  # counted without a generator (every newcomer round a foe)
            if other.band is band:
                same += 1
        if same >= arena.options.engine.max_on_one:
            return False
    return True


def never_crowded(defender: Any, arena: Any) -> bool:
    """Whether :func:`admit` admits every attacker of ``defender`` this whole battle, so
    that nobody need count the places round it: everyone not on its side could strike it
    at once (no more of them than :func:`room` has for the largest), and none belongs to a
    ``count:`` group of more than ``engine.max_on_one``. Fixed once the battle starts
    (agents join only before its first round; radii and groups never change): a small
    melee (five a side) is, a crowd or a doorway is not. A battle of more than
    :data:`FEW_TO_LOOK_OVER` agents is taken as a crowd without looking them over (each
    defender would look over everyone)."""
    if defender.engaged is None:
        return True
    agents = defender.model.agents
    if len(agents) > FEW_TO_LOOK_OVER:
        return False
    side, most = defender.side, arena.options.engine.max_on_one
    foes = [a for a in agents if getattr(a, "side", side) != side]
    bands = [len(getattr(foe, "band", defender.band).members) for foe in foes]
    return all(len(foes) <= room(defender, foe, arena) for foe in foes) and all(
        n == 1 or n <= most for n in bands
    )


def has_room(defender: Any, attacker: Any, arena: Any) -> bool:
    """Whether ``attacker`` holds or can take a place round ``defender`` this round (a
    group, crew or unit, has room for everyone: it is many bodies)."""
    engaged = defender.engaged
    if engaged is None or defender.engaged_round != arena.round or attacker in engaged:
        return True
    return _room_left(defender, attacker, arena, engaged)


def admit(defender: Any, attacker: Any, arena: Any) -> bool:
    """Whether ``attacker`` may strike ``defender`` in melee this round, taking one of the
    places round it if it has none yet (places are counted per round, unless it is
    :func:`never_crowded`: found on its first blow of the battle, kept in ``roomy``)."""
    engaged = defender.engaged
    if engaged is None or defender.roomy:
        return True
    if defender.roomy is None:
        defender.roomy = never_crowded(defender, arena)
        if defender.roomy:
            return True
    rnd = arena.round
    if defender.engaged_round != rnd:  # the first this round: there is always one place
        defender.engaged_round = rnd
        defender.engaged = [attacker]
        return True
    if attacker in engaged:
        return True
    if not _room_left(defender, attacker, arena, engaged):
        return False
    engaged.append(attacker)
    return True


def another_in_reach(actor: Any, arena: Any) -> Any | None:
    """A foe in reach with room round it (the first in the live list), now the target."""
    for foe in arena.foes_in_reach(actor, nearest_next=False):
        if admit(foe, actor, arena):
            actor.target = foe
            return foe
    return None


def roomy_foe_in_reach(actor: Any, arena: Any) -> Any | None:
    """The first foe in reach with a place left round it for the actor, without taking it."""
    for foe in arena.foes_in_reach(actor, nearest_next=False):
        if has_room(foe, actor, arena):
            return foe
    return None
