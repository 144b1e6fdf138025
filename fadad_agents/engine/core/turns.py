"""The order of action with fair ties (``personal-combat.md`` 1.2, step 2).

Each band rolls its reaction-speed trait + 4dF (or takes the trait alone, ``static``);
bands act from the highest roll down, a tie going to the higher trait; bands tied on both
share one **turn** and act simultaneously: every attack of the turn is resolved before
any of its effects applies (wounds and their penalties, losses, fighters taken out). The
order in which the members of a shared turn roll their dice changes nothing a fighter can
see, so a scenario's odds do not depend on the order of its sides in the file.

:func:`roll_turns` makes the turns; :func:`play_shared` plays a shared one, holding its
effects until its end. The personal round (:mod:`fadad_agents.engine.core.battle`) and the deck
fights of ship battles use both.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Protocol

from fadad_agents.agents.core.base import Combatant
from fadad_agents.agents.core.groups import Unit
from fadad_agents.rules.core.actions import roll_initiative
from fadad_agents.rules.core.dice import TABLE_4DF, TableDice

__all__ = ["Holder", "SharedTurn", "act_each", "act_in_order", "play_shared", "roll_turns"]


class SharedTurn(list[Combatant]):
    """The members of bands tied on initiative and trait: they act simultaneously.

    Any other turn is one band's list of members (a plain list, not copied).
    """

    __slots__ = ()


class Holder(Protocol):
    """The battle, as a shared turn sees it: a list of held effects while one is played
    (``None`` outside), which :meth:`take_out` and :meth:`leave` append to."""

    held: list[tuple[Callable[..., Any], tuple[Any, ...]]] | None


def roll_turns(
    bands: Iterable[Sequence[Combatant]], rng: random.Random, mode: str
) -> list[Sequence[Combatant]]:
    """Roll one initiative per band (its first fighting member's reaction) and group the
    bands into turns: highest initiative first, then higher trait; bands tied on both
    share a turn (a :class:`SharedTurn`). Bands with nobody fighting are left out.

    The kernel's total order (``-initiative, -trait, unique_id``) sorts the keys, so the
    rolls are drawn in the bands' order and a shared turn lists its bands by set-up.
    """
    # roll_initiative's common case inlined (plain dice, rolled): one draw per band.
    draw = rng.random if mode == "rolled" and rng.__class__ is not TableDice else None
    keyed: list[tuple[int, int, int, Sequence[Combatant]]] = []
    for members in bands:
        if len(members) == 1:  # most bands are one fighter
            lead = members[0]
            if not lead.fighting:
                continue
            active = members
        else:
            active = [m for m in members if m.fighting]
            if not active:
                continue
            lead = active[0]
        trait = -lead.reaction  # keys are negated: the highest first
        if draw is not None:
            keyed.append((trait - TABLE_4DF[int(draw() * 81)], trait, lead.unique_id, active))
        else:
            initiative = roll_initiative(lead.reaction, rng, mode, lead.name)
            keyed.append((-initiative, trait, lead.unique_id, active))
    keyed.sort()
    turns: list[Sequence[Combatant]] = []
    # None before the first band: any int key could be a band's (-1 and 1 are ladder values)
    last_initiative: int | None = None
    last_trait: int | None = None
    for initiative, trait, _, active in keyed:
        if initiative != last_initiative or trait != last_trait:  # most turns: no tie
            turns.append(active)
            last_initiative, last_trait = initiative, trait
        else:
            previous = turns[-1]
            if type(previous) is SharedTurn:
                previous.extend(active)
            else:
                turns[-1] = SharedTurn([*previous, *active])
    return turns


def play_shared(
    turn: SharedTurn, battle: Holder, arena: Any, act: Callable[[Sequence[Combatant]], None]
) -> None:
    """Play a shared turn with ``act(members)`` in ``arena`` (the battle, or a deck of it):
    its effects wait until every member has acted (each fighter keeps the wounds, strength
    and status it began the turn with), then apply: the members' own first, then the
    take-outs and departures in the order they happened."""
    held: list[tuple[Callable[..., Any], tuple[Any, ...]]] = []
    battle.held = held
    for member in turn:
        member.hold_turn()
    try:
        act(turn)
    finally:
        battle.held = None
    for member in turn:
        member.release_turn(arena)
    for effect, args in held:
        effect(*args)


def act_each(order: Sequence[Combatant], arena: Any) -> None:
    """Each member of ``order`` still fighting acts in turn (:func:`act_in_order` where no
    band strikes in bulk)."""
    for member in order:
        if member.fighting:
            member.act(arena)


def act_in_order(order: Sequence[Combatant], arena: Any) -> None:
    """Each member of ``order`` still fighting acts in turn; a band of units strikes
    together in one bulk call."""
    i, n = 0, len(order)
    while i < n:
        member = order[i]
        band = member.band
        if isinstance(member, Unit) and len(band.members) > 1:
            j = i + 1
            while j < n and order[j].band is band:
                j += 1
            Unit.strike_together(list(order[i:j]), arena)
            i = j
            continue
        if member.fighting:
            member.act(arena)
        i += 1
