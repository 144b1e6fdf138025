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
from math import floor
from operator import attrgetter
from typing import Any, Protocol

from fadad_agents.agents.core.base import Combatant
from fadad_agents.agents.core.groups import Unit
from fadad_agents.rules.core.actions import roll_initiative
from fadad_agents.rules.core.dice import TABLE_4DF, TableDice

_UNIQUE_ID, _REACTION = attrgetter("unique_id"), attrgetter("reaction")

__all__ = [
    "Holder",
    "SharedTurn",
    "TurnOrder",
    "act_each",
    "act_in_order",
    "play_shared",
    "roll_turns",
]


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

    The kernel's total order (``-initiative, -trait, unique_id``) sorts the bands, so the
    rolls are drawn in the bands' order and a shared turn lists its bands by set-up.
    A battle rolls the same bands every round: it keeps their :class:`TurnOrder`.
    """
    return TurnOrder(bands).roll(rng, mode)


class TurnOrder:
    """The turns of a fixed set of bands, rolled round after round (:func:`roll_turns`).

    What the rolls do not change is found once: every member's place in the tie-break
    order (higher trait first, then ``unique_id``) and its trait's, folded with the roll
    into one int key a band (``((-initiative) * traits + trait's place) << bits |
    member's place``). A round then sorts plain ints: the order of the kernel's
    ``(-initiative, -trait, unique_id)`` tuples, and bands tied on roll and trait have
    equal keys but for the low ``bits``. A member's place is its ``unique_id`` itself
    when the ids are distinct small ints (Mesa's count up from 1: no sort, no table),
    else its rank among them.
    """

    __slots__ = (
        *("_bands", "_bits", "_by_place", "_place", "_rolled", "_singles", "_step"),
        "_trait_key",
    )

    def __init__(self, bands: Iterable[Sequence[Combatant]]) -> None:
        bands = list(bands)
        members = [m for band in bands for m in band]
        ids = {m.unique_id for m in members}  # a comprehension's reads are specialised
        top = max(ids, default=0)
        if len(ids) == len(members) and min(ids, default=0) >= 0 and top < 4 * len(ids) + 64:
            self._place: dict[int, int] | None = None  # each member's unique_id
        else:  # (-reaction, unique_id) by two stable sorts on plain attributes
            ordered = sorted(members, key=_UNIQUE_ID)
            ordered.sort(key=_REACTION, reverse=True)
            self._place = {id(m): k for k, m in enumerate(ordered)}
            top = len(ordered) - 1
        traits = sorted({-m.reaction for m in members})  # negated: the highest first
        bits = self._bits = (top + 1).bit_length()
        step = len(traits) << bits  # one point of initiative in a key
        self._rolled = [total * step for total in TABLE_4DF]  # each 4dF draw's points
        self._step = step
        # a member's key at a roll of 0 (initiative = reaction): its trait's, plus its
        # place in the order; a roll of d takes d steps
        self._trait_key: dict[int, int] = {
            -t: (t * len(traits) + k) << bits for k, t in enumerate(traits)
        }
        # the turn each member's key stands for (a band of one: its own list, not copied)
        self._by_place: list[Sequence[Combatant]] = [()] * (top + 1)
        self._bands: list[tuple[Combatant | None, int, Sequence[Combatant]]] = []
        for band in bands:
            lead = band[0] if len(band) == 1 else None
            key = 0 if lead is None else self._key(lead)
            if lead is not None:
                self._by_place[key & ((1 << bits) - 1)] = band
            self._bands.append((lead, key, band))
        # Every band one fighter (most personal battles): each lead and its key, for
        # roll's one comprehension of the draws.
        self._singles: list[tuple[Combatant, int]] | None = None
        if all(lead is not None for lead, _, _ in self._bands):
            self._singles = [(lead, key) for lead, key, _ in self._bands if lead is not None]

    def _key(self, member: Combatant) -> int:
        """``member``'s key at a roll of 0: its trait's, plus its place."""
        place = self._place
        at: int = member.unique_id if place is None else place[id(member)]
        return self._trait_key[member.reaction] + at

    def roll(self, rng: random.Random, mode: str) -> list[Sequence[Combatant]]:
        """This round's turns (:func:`roll_turns`), one roll per band with someone fighting."""
        # roll_initiative's common case inlined (plain dice, rolled): one draw per band.
        draw = rng.random if mode == "rolled" and rng.__class__ is not TableDice else None
        rolled, by_place, bits = self._rolled, self._by_place, self._bits
        mask = (1 << bits) - 1
        singles = self._singles
        if singles is not None and draw is not None:  # the loop below, in one comprehension
            keys = [key - rolled[floor(draw() * 81.0)] for lead, key in singles if lead.fighting]
        else:
            keys = self._keys(rng, mode, draw, mask)
        keys.sort()
        turns: list[Sequence[Combatant]] = []
        # The first key past the last turn's tie (roll and trait: the bits above ``bits``)
        # opens the next turn: one comparison a key, no shift.
        limit = keys[0] if keys else 0
        for key in keys:
            if key >= limit:  # most turns: no tie
                turns.append(by_place[key & mask])
                limit = (key | mask) + 1  # the next tie's first key
                continue
            previous = turns[-1]
            if type(previous) is SharedTurn:
                previous.extend(by_place[key & mask])
            else:
                turns[-1] = SharedTurn([*previous, *by_place[key & mask]])
        return turns

    def _keys(
        self, rng: random.Random, mode: str, draw: Callable[[], float] | None, mask: int
    ) -> list[int]:
        """Each band's key with this round's roll, for the bands with someone fighting, in
        the bands' order (a band of several: its first fighting member leads it)."""
        rolled, by_place = self._rolled, self._by_place
        keys: list[int] = []
        for lead, key, members in self._bands:
            if lead is not None:  # most bands are one fighter
                if not lead.fighting:
                    continue
            else:
                active = [m for m in members if m.fighting]
                if not active:
                    continue
                lead = active[0]
                key = self._key(lead)
                by_place[key & mask] = active
            if draw is not None:
                keys.append(key - rolled[floor(draw() * 81.0)])  # floor: see TABLE_4DF
            else:
                initiative = roll_initiative(lead.reaction, rng, mode, lead.name)
                keys.append(key - (initiative - lead.reaction) * self._step)
        return keys


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
