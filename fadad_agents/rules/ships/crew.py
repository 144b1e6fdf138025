"""Spelljammer crews: reloading with losses, crew shortage, morale, striking colours.

Implements ``ships-spelljammer.md`` sections 6 and 18 with ``CONFLICTS.md`` C-06 (one
crew-shortage rule for both rulesets), C-16 and A-57 (morale: 2d10 <= morale; worst entry
per graded family). Rapid resolution of crew melee (section 13) lives in ``rules.mass``.

>>> [reload_rounds(3, 3, n) for n in (3, 2, 1)]
[3, 4, 5]
>>> [crew_shortage_steps(n, 10) for n in (10, 9, 6, 5, 3, 2, 1)]
[0, 1, 1, 2, 2, 3, 3]
>>> morale_pass_probability(9)
Fraction(9, 25)
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import Enum
from fractions import Fraction
from functools import lru_cache
from typing import Literal

from fadad_agents.rules.core.morale import (
    MoraleDice,
    MoraleResult,
    morale_check_outcomes,
    morale_pass_probability,
    morale_roll_distribution,
    resolve_morale_check,
    two_d10_distribution,
)
from fadad_agents.rules.ships.movement import ManeuverClass, downgrade

__all__ = [
    "CREW_SITUATIONS",
    "MORALE_FAMILIES",
    "MORALE_MODIFIERS",
    "SEAMAN_MORALE",
    "CrewError",
    "CrewSituation",
    "MoraleDice",
    "MoraleEvent",
    "MoraleFailure",
    "MoraleResult",
    "MoraleTrigger",
    "StrikeSituation",
    "applied_morale_events",
    "base_rounds",
    "creature_hp_events",
    "crew_loss_event",
    "crew_loss_events",
    "crew_loss_triggers",
    "crew_shortage_steps",
    "crewed_class",
    "five_hull_points_trigger",
    "hd_event",
    "hd_events",
    "hull_damage_event",
    "hull_damage_events",
    "morale_check_outcomes",
    "morale_failure",
    "morale_modifier",
    "morale_pass_probability",
    "morale_roll_distribution",
    "morale_target",
    "mutual_strike",
    "reload_remaining",
    "reload_rounds",
    "resolve_morale_check",
    "two_d10_distribution",
    "weighted_morale",
]

SEAMAN_MORALE = 11
"""A typical seaman crew's morale (section 18)."""


class CrewError(ValueError):
    """A crew count or morale input is impossible."""


# --- reloading (section 6.1) -----------------------------------------------------------


def base_rounds(rate: str) -> int:
    """Rounds to reload-and-fire from a rate of fire ``"1/3"`` (or ``"1"``): 3 (1).

    Raises:
        CrewError: a rate other than ``1/n`` or ``1``.
    """
    head, _, tail = rate.strip().partition("/")
    if head.strip() != "1" or (tail and not tail.strip().isdigit()) or tail.strip() == "0":
        raise CrewError(f"rate of fire {rate!r} is not of the form '1/n' or '1'")
    return int(tail) if tail else 1


def reload_rounds(base: int, required_crew: int, crew_now: int) -> int:
    """Rounds to reload and fire: the base rounds + 1 per missing crewman (EX-SJ-01).

    Raises:
        CrewError: no crew (a weapon with none cannot fire) or crew above what it needs
            is not an error: extra hands do not speed it up.
    """
    if base < 1 or required_crew < 1:
        raise CrewError(f"base rounds and required crew must be >= 1, got {base}, {required_crew}")
    if crew_now < 1:
        raise CrewError("a large weapon with no crew cannot be worked")
    return base + max(0, required_crew - crew_now)


@lru_cache(maxsize=1024)  # every shot books its reload's end: a few small ints
def reload_remaining(base: int, required_crew: int, crew_now: int, rounds_spent: int) -> int:
    """Rounds still needed after casualties mid-reload (EX-SJ-01).

    A crewman lost during a reload counts as lost from its start, so the total is
    recomputed with the present crew and the rounds already spent count toward it.
    """
    if rounds_spent < 0:
        raise CrewError(f"rounds spent must be >= 0, got {rounds_spent}")
    return max(0, reload_rounds(base, required_crew, crew_now) - rounds_spent)


# --- crew shortage (section 6.2, C-06) -------------------------------------------------


def crew_shortage_steps(crew: int, minimum: int) -> int:
    """Classes (SJ) or MS levels (FADAD) lost for sailing short-handed: 0-3 (C-06, A-35).

    ``n >= m`` 0; ``m/2 < n < m`` 1; ``m/4 < n <= m/2`` 2; ``n <= m/4`` 3. Comparing the
    integer head count with the exact fractions ``m/2`` and ``m/4`` is the players'
    rounding (9 of 10 loses one class, 2 of 10 three). A crew of 0 cannot sail at all;
    it returns 3 and the engine leaves the ship without a helmsman.
    """
    if crew < 0 or minimum < 1:
        raise CrewError(f"crew must be >= 0 and minimum crew >= 1, got {crew}, {minimum}")
    if crew >= minimum:
        return 0
    if 2 * crew > minimum:
        return 1
    if 4 * crew > minimum:
        return 2
    return 3


def crewed_class(listed: ManeuverClass, crew: int, minimum: int) -> ManeuverClass:
    """The MC a ship sails at with ``crew`` of a listed ``minimum`` (never below Poor)."""
    return downgrade(listed, crew_shortage_steps(crew, minimum))


# --- morale (section 18, C-16, A-57) ---------------------------------------------------


class MoraleTrigger(Enum):
    """When a crew checks morale (section 18): at the end of a round, after all actions."""

    # Members are singletons compared by identity: hash them so (in C) rather than by
    # name (a Python call for every set and table look-up of the morale check).
    __hash__ = object.__hash__

    CRITICAL_HIT = "the ship suffers a critical hit"
    FIVE_HULL_POINTS = "the ship has only 5 hull points left"
    SURPRISED = "the crew was surprised (first turn after only)"
    SUPERIOR_FORCE = "an obviously superior force faces the ship"
    SLAIN_BY_MAGIC = "an ally or crewman is slain by magic"
    CREW_25 = "25% of the crew have been eliminated"
    CREW_50 = "50% of the crew have been eliminated"
    SLAIN_AFTER_50 = "a companion or crewman is slain after 50% of the crew are eliminated"
    OFFICERS_GONE = "all officers desert, are slain or surrender"
    CANNOT_HARM = "the crew faces a creature it cannot harm"
    HEROIC_TASK = "the crew is asked to perform heroic (dangerous) tasks"
    BRIBE = "the crew is offered a bribe"
    COVERING_RETREAT = "the crew is covering a fighting retreat"
    CHARGED_DEVICE = "a crewman is asked to use a personal charged magic device"
    OFFERED_SURRENDER = "the crew met another check's conditions and is offered surrender"
    CANNOT_ESCAPE = "it is apparent the ship cannot escape"
    CAPTAIN_SLAIN = "the captain is slain"
    BEFORE_BOARDING = "a very dangerous boarding (section 12)"


class MoraleEvent(Enum):
    """Situational morale modifiers (section 18); value = (family, modifier)."""

    # Members are singletons compared by identity: hash them so (in C) rather than by
    # name (a Python call for every set and table look-up of the morale check).
    __hash__ = object.__hash__

    HULL_25 = ("hull", -2)
    HULL_50 = ("hull", -4)
    HULL_75 = ("hull", -6)
    CAPTAIN_SLAIN = ("captain_slain", -2)
    SPELLJAMMER_SLAIN = ("spelljammer_slain", -3)
    OPPONENT_DAMAGED_50 = ("opponent_damaged", +2)
    CAPTAIN_ON_DECK = ("captain_on_deck", +4)
    FIRST_OFFICER_ON_DECK = ("first_officer_on_deck", +2)
    ON_FIRE = ("on_fire", -2)
    OPPONENT_ON_FIRE = ("opponent_on_fire", +1)
    OPPONENT_HOLED = ("opponent_holed", +1)
    ABANDONED = ("abandoned", -6)
    CREATURE_HP_25 = ("creature_hp", -2)
    CREATURE_HP_50 = ("creature_hp", -4)
    CREW_LOSS_25 = ("crew_loss", -2)
    CREW_LOSS_50 = ("crew_loss", -4)
    PLUNDER_SHARE = ("plunder_share", +2)
    HATED_ENEMY = ("hated_enemy", +4)
    SURPRISED = ("surprised", -2)
    MAGICAL_CREATURES = ("magical_creatures", -2)
    HD_HALF_OR_LESS = ("hd", -2)
    HD_1_OR_LESS = ("hd", -1)
    HD_4_TO_8 = ("hd", +1)
    HD_8_TO_14 = ("hd", +2)
    HD_15_PLUS = ("hd", +3)
    DEFENDING_HOME = ("defending_home", +2)
    DEFENSIVE_TERRAIN = ("defensive_terrain", +1)
    MULTIPLE_CHECKS = ("multiple_checks", -1)
    CAPTAIN_OTHER_ALIGNMENT = ("captain_alignment", -1)
    STRONGEST_ALLY_KILLED = ("strongest_ally_killed", -4)
    FAVORED_BY_CAPTAIN = ("favored", +2)
    POORLY_TREATED = ("poorly_treated", -4)
    NO_ENEMY_SLAIN = ("no_enemy_slain", +2)
    OUTNUMBERED_3_TO_1 = ("outnumbered", -4)
    OUT_TONNED_10_TO_1 = ("out_tonned", -2)
    OUTNUMBER_3_TO_1 = ("outnumber", +2)
    OUT_TONNING_10_TO_1 = ("out_tonning", +2)
    UNABLE_TO_HURT = ("unable_to_hurt", -8)
    MAGIC_USER_ALLY = ("magic_user_ally", +2)

    @property
    def family(self) -> str:
        """The family this entry belongs to; graded families hold several entries."""
        return self.value[0]

    @property
    def modifier(self) -> int:
        """The entry's modifier to morale."""
        return self.value[1]


MORALE_MODIFIERS: dict[MoraleEvent, int] = {e: e.modifier for e in MoraleEvent}
_FAMILY: dict[MoraleEvent, str] = {e: e.family for e in MoraleEvent}  # an enum's value is slow
_TABLE_ORDER: dict[MoraleEvent, int] = {e: i for i, e in enumerate(MoraleEvent)}
"""The modifier table of section 18."""

MORALE_FAMILIES: frozenset[str] = frozenset(
    e.family for e in MoraleEvent if sum(f.family == e.family for f in MoraleEvent) > 1
)
"""The graded families (hull, creature HP, crew losses, HD) where only one entry applies."""

type CrewSituation = Literal[
    "plunder_share",
    "hated_enemy",
    "favored",
    "poorly_treated",
    "captain_other_alignment",
    "defending_home",
    "defensive_terrain",
    "magical_creatures",
    "surprised",
]
"""A standing circumstance of a ship's crew a scenario names (section 18's table)."""

CREW_SITUATIONS: dict[str, MoraleEvent] = {
    "plunder_share": MoraleEvent.PLUNDER_SHARE,
    "hated_enemy": MoraleEvent.HATED_ENEMY,
    "favored": MoraleEvent.FAVORED_BY_CAPTAIN,
    "poorly_treated": MoraleEvent.POORLY_TREATED,
    "captain_other_alignment": MoraleEvent.CAPTAIN_OTHER_ALIGNMENT,
    "defending_home": MoraleEvent.DEFENDING_HOME,
    "defensive_terrain": MoraleEvent.DEFENSIVE_TERRAIN,
    "magical_creatures": MoraleEvent.MAGICAL_CREATURES,
    "surprised": MoraleEvent.SURPRISED,
}
"""Each crew situation's entry of the modifier table (``surprised`` also triggers a check
at the end of the first round, and its -2 holds that round only)."""


type Stacking = Literal["worst_per_family", "cumulative"]


def applied_morale_events(
    events: Iterable[MoraleEvent], stacking: Stacking = "worst_per_family"
) -> list[MoraleEvent]:
    """The entries that count, in table order (A-57, option ``sj.morale_stacking``).

    Each event counts once. In a graded family only the single worst entry applies by
    default (PROPOSED): 50% hull damage is -4, not -4 - 2; ``cumulative`` keeps them all.
    """
    unique = set(events)
    if stacking != "cumulative":
        worst: dict[str, MoraleEvent] = {}
        for e in unique:
            family = _FAMILY[e]
            held = worst.get(family)
            if held is None or MORALE_MODIFIERS[e] < MORALE_MODIFIERS[held]:
                worst[family] = e
        unique = set(worst.values())
    return sorted(unique, key=_TABLE_ORDER.__getitem__)


def morale_modifier(events: Iterable[MoraleEvent], stacking: Stacking = "worst_per_family") -> int:
    """The total modifier of the events that hold (:func:`applied_morale_events`).

    The HD family holds one entry by construction (:func:`hd_event`) and any two given are
    read as the most negative.
    """
    if stacking == "cumulative":  # each event once; a sum needs no table order
        return sum([MORALE_MODIFIERS[e] for e in set(events)])
    return sum([MORALE_MODIFIERS[e] for e in applied_morale_events(events, stacking)])


def morale_target(
    base: int, events: Iterable[MoraleEvent] = (), stacking: Stacking = "worst_per_family"
) -> int:
    """Morale plus modifiers: the number 2d10 must not exceed (EX-SJ-15)."""
    return base + morale_modifier(events, stacking)


def hull_damage_event(damage: int, hull_max: int) -> MoraleEvent | None:
    """The hull-damage entry for ``damage`` taken of ``hull_max`` (25/50/75%), if any."""
    if hull_max < 1 or damage < 0:
        raise CrewError(f"need hull_max >= 1 and damage >= 0, got {hull_max}, {damage}")
    for share, event in ((3, MoraleEvent.HULL_75), (2, MoraleEvent.HULL_50)):
        if 4 * damage >= share * hull_max:
            return event
    return MoraleEvent.HULL_25 if 4 * damage >= hull_max else None


def crew_loss_event(lost: int, original: int) -> MoraleEvent | None:
    """The crew-loss entry for ``lost`` of ``original`` crew (25/50%), if any."""
    if original < 1 or lost < 0:
        raise CrewError(f"need original crew >= 1 and losses >= 0, got {original}, {lost}")
    if 2 * lost >= original:
        return MoraleEvent.CREW_LOSS_50
    return MoraleEvent.CREW_LOSS_25 if 4 * lost >= original else None


def hd_event(hit_dice: Fraction) -> MoraleEvent | None:
    """The HD bracket of A-57: <=1/2 -2; <=1 -1; <4 none; <8 +1; <15 +2; 15+ +3."""
    if hit_dice <= Fraction(1, 2):
        return MoraleEvent.HD_HALF_OR_LESS
    if hit_dice <= 1:
        return MoraleEvent.HD_1_OR_LESS
    if hit_dice < 4:
        return None
    if hit_dice < 8:
        return MoraleEvent.HD_4_TO_8
    return MoraleEvent.HD_8_TO_14 if hit_dice < 15 else MoraleEvent.HD_15_PLUS


def _crossed(
    worst: MoraleEvent | None, grades: tuple[MoraleEvent, ...], cumulative: bool
) -> list[MoraleEvent]:
    """``[worst]``, or with ``cumulative`` every grade up to it (table order)."""
    if worst is None:
        return []
    return list(grades[: grades.index(worst) + 1]) if cumulative else [worst]


_HULL = (MoraleEvent.HULL_25, MoraleEvent.HULL_50, MoraleEvent.HULL_75)
_CREW = (MoraleEvent.CREW_LOSS_25, MoraleEvent.CREW_LOSS_50)
_CREATURE = (MoraleEvent.CREATURE_HP_25, MoraleEvent.CREATURE_HP_50)


def hull_damage_events(damage: int, hull_max: int, cumulative: bool = False) -> list[MoraleEvent]:
    """The hull-damage entries that hold: the worst, or (``cumulative``) every one crossed.

    >>> [e.name for e in hull_damage_events(30, 40, cumulative=True)]
    ['HULL_25', 'HULL_50', 'HULL_75']
    """
    return _crossed(hull_damage_event(damage, hull_max), _HULL, cumulative)


def crew_loss_events(lost: int, original: int, cumulative: bool = False) -> list[MoraleEvent]:
    """The crew-loss entries that hold (25%, 50%): the worst, or every one crossed."""
    return _crossed(crew_loss_event(lost, original), _CREW, cumulative)


def creature_hp_events(lost: int, hp_max: int, cumulative: bool = False) -> list[MoraleEvent]:
    """ "Creature has lost 25% / 50% of HP": the worst, or every one crossed."""
    if hp_max < 1 or lost < 0:
        raise CrewError(f"need hp_max >= 1 and lost >= 0, got {hp_max}, {lost}")
    worst = None
    if 2 * lost >= hp_max:
        worst = MoraleEvent.CREATURE_HP_50
    elif 4 * lost >= hp_max:
        worst = MoraleEvent.CREATURE_HP_25
    return _crossed(worst, _CREATURE, cumulative)


def hd_events(hit_dice: Fraction, cumulative: bool = False) -> list[MoraleEvent]:
    """The HD entries that hold: the one bracket of :func:`hd_event`, or (``cumulative``)
    every bracket of the table as printed, overlaps and all: ½ HD or less and 1 HD or
    less; "4 to 8+" (4 up to 9) and "8 to 14+" (8 up to 15); 15+.

    >>> [e.name for e in hd_events(Fraction(1, 2), cumulative=True)]
    ['HD_HALF_OR_LESS', 'HD_1_OR_LESS']
    >>> [e.name for e in hd_events(Fraction(17, 2), cumulative=True)]
    ['HD_4_TO_8', 'HD_8_TO_14']
    """
    if not cumulative:
        one = hd_event(hit_dice)
        return [] if one is None else [one]
    held = (
        (MoraleEvent.HD_HALF_OR_LESS, hit_dice <= Fraction(1, 2)),
        (MoraleEvent.HD_1_OR_LESS, hit_dice <= 1),
        (MoraleEvent.HD_4_TO_8, 4 <= hit_dice < 9),
        (MoraleEvent.HD_8_TO_14, 8 <= hit_dice < 15),
        (MoraleEvent.HD_15_PLUS, hit_dice >= 15),
    )
    return [e for e, holds in held if holds]


def weighted_morale(crews: Iterable[tuple[int, int]]) -> int:
    """A crew's morale as a whole: the head-weighted mean of its parts' ``(morale, heads)``,
    rounded half up (PROPOSED); a typical seaman's 11 when nobody is left to count.

    >>> weighted_morale([(13, 12), (11, 18)])
    12
    """
    heads = weighted = 0
    for morale, n in crews:
        if n > 0:
            heads += n
            weighted += morale * n
    if not heads:
        return SEAMAN_MORALE
    return (2 * weighted + heads) // (2 * heads)


def crew_loss_triggers(lost_before: int, lost_after: int, original: int) -> list[MoraleTrigger]:
    """Morale checks caused by crew losses this round (section 18).

    Crossing 25% or 50% of the original crew eliminated each call for a check; any
    companion slain once 50% were already gone calls for another.
    """
    if original < 1 or not 0 <= lost_before <= lost_after:
        raise CrewError(
            f"need original >= 1 and 0 <= lost before <= lost after, got {original}, "
            f"{lost_before}, {lost_after}"
        )
    triggers: list[MoraleTrigger] = []
    if 4 * lost_before < original <= 4 * lost_after:
        triggers.append(MoraleTrigger.CREW_25)
    if 2 * lost_before < original <= 2 * lost_after:
        triggers.append(MoraleTrigger.CREW_50)
    if 2 * lost_before >= original and lost_after > lost_before:
        triggers.append(MoraleTrigger.SLAIN_AFTER_50)
    return triggers


def five_hull_points_trigger(hull_now: int, hull_max: int) -> bool:
    """Check morale at 5 hull points or fewer left, unless the ship started below 10."""
    return hull_max >= 10 and hull_now <= 5


# --- failure and striking colours (sections 12, 18) ------------------------------------

type StrikeSituation = Literal["ship", "boarding_own_ship", "boarding_enemy_ship", "to_board"]


type MoraleFailure = Literal["strike", "surrender", "retreat", "refuse"]


def morale_failure(situation: StrikeSituation) -> MoraleFailure:
    """What a crew that fails morale does (sections 12, 18).

    ``ship``: strikes its colours; a boarding fight on its own ship: surrenders; on the
    enemy ship: retreats to its own; asked to board: refuses.
    """
    outcomes: dict[str, MoraleFailure] = {
        "ship": "strike",
        "boarding_own_ship": "surrender",
        "boarding_enemy_ship": "retreat",
        "to_board": "refuse",
    }
    try:
        return outcomes[situation]
    except KeyError:
        raise CrewError(f"unknown situation {situation!r}; use one of {list(outcomes)}") from None


def mutual_strike(struck: Iterable[str], engaged: Iterable[str]) -> bool:
    """True when every engaged ship struck at the same end of round: all break off.

    The seed says they break off for at least two hours on average.
    """
    engaged_set = set(engaged)
    return bool(engaged_set) and engaged_set <= set(struck)
