"""Spelljammer ship combat: initiative, attacks, hull points, small arms, break-up, debris.

Implements ``ships-spelljammer.md`` sections 3, 4, 7.1, 7.2, 7.4 and 8 with
``CONFLICTS.md`` C-02, C-20 and A-47, A-48, A-49, A-60. The d20 critical table is in
``rules.sj_crits``. d20 conventions (PROPOSED, file header): attack = d20 + bonus >= AC,
a natural 20 always hits and threatens a critical, a natural 1 always misses.

>>> hull_points_from_spot_damage([3] * 20), hull_points_from_spot_damage([10])
(0, 1)
>>> apply_hull_damage(30, 14, 2).half_crossed
True
"""

from __future__ import annotations

import itertools
import math
import random
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, lru_cache
from typing import Literal

from fadad_agents.rules.core.dice import Distribution
from fadad_agents.rules.ships.effects import (
    SJ_ROUND_SECONDS,
    Fire,
    HelmMalfunction,
    HullHoled,
    ShipEffect,
)
from fadad_agents.rules.ships.movement import HEX_FEET

__all__ = [
    "MASSIVE_DAMAGE",
    "MASSIVE_DAMAGE_DC",
    "MAX_DICE",
    "MAX_DICE_BONUS",
    "MAX_DICE_SIDES",
    "TURN_SEQUENCE",
    "AttackResult",
    "CombatError",
    "Dice",
    "HullDamage",
    "Phase",
    "ShipSpell",
    "apply_hull_damage",
    "attack_outcomes",
    "can_fire_at",
    "crewman_ac",
    "debris_dice",
    "debris_hazard",
    "debris_outcomes",
    "field_of_fire_bonus",
    "hand_missile_range",
    "hull_points_from_spell",
    "hull_points_from_spot_damage",
    "initiative_order_outcomes",
    "massive_damage_save",
    "movement_order",
    "resolve_attack",
    "roll_debris",
    "roll_side_initiative",
    "spell_can_target_ship",
    "spell_hull_effects",
    "spot_damage",
    "stray_hull_damage",
]

MASSIVE_DAMAGE = 50
"""One attack of 50+ damage that does not kill forces a save (section 4.1, RECOVERED)."""

MASSIVE_DAMAGE_DC = 15
"""The Fortitude DC of the massive-damage save."""


class CombatError(ValueError):
    """A combat input is outside what the rules allow."""


_DICE = re.compile(r"(?:(?P<count>\d+)d(?P<sides>\d+)(?P<bonus>[+-]\d+)?|(?P<flat>\d+))")

MAX_DICE = 100
"""Most dice one roll may throw: the seeds' largest roll is 20d6 (a crash, SJ 9.2)."""
MAX_DICE_SIDES = 100
"""Most sides a die may have (d100)."""
MAX_DICE_BONUS = 1_000
"""Largest bonus, or fixed amount, a roll may add."""


@dataclass(frozen=True, slots=True)
class Dice:
    """``count`` dice of ``sides`` plus ``bonus``: the data form of "4d6" (A-48, A-52)."""

    count: int
    sides: int
    bonus: int = 0

    def __post_init__(self) -> None:
        if self.count < 0 or self.sides < 1:
            raise CombatError(f"dice need count >= 0 and sides >= 1, got {self}")

    @classmethod
    def parse(cls, text: str) -> Dice:
        """Dice from text as scenario files write them: ``"4d6"``, ``"2d8+1"``, ``"5"``.

        >>> Dice.parse("2d8+1"), Dice.parse("5")
        (Dice(count=2, sides=8, bonus=1), Dice(count=0, sides=1, bonus=5))
        """
        m = _DICE.fullmatch(text.strip().lower())
        if m is None:
            raise CombatError(f"dice {text!r} are not of the form 'NdS', 'NdS+B' or 'N'")
        if any(len(digits) > 6 for digits in m.groups() if digits):
            raise _too_large(text)
        if m["sides"] is None:
            dice = cls(0, 1, int(m["flat"]))
        else:
            dice = cls(int(m["count"]), int(m["sides"]), int(m["bonus"] or 0))
        if dice.count > MAX_DICE or dice.sides > MAX_DICE_SIDES or abs(dice.bonus) > MAX_DICE_BONUS:
            raise _too_large(text)
        return dice

    def roll(self, rng: random.Random) -> int:
        """Roll the dice on ``rng`` and add the bonus."""
        s, total, draw = self.sides, self.bonus, rng.random
        for _ in range(self.count):  # a loop, not sum() over a generator: every hit rolls
            total += int(draw() * s) + 1
        return total

    def outcomes(self) -> Distribution[int]:
        """Exact distribution of :meth:`roll`."""
        return [(t + self.bonus, p) for t, p in _sum_distribution(self.count, self.sides)]


def _too_large(text: str) -> CombatError:
    return CombatError(
        f"dice {text!r} are too many or too large (at most {MAX_DICE} dice of at most "
        f"{MAX_DICE_SIDES} sides, a bonus or amount of at most {MAX_DICE_BONUS})"
    )


@cache
def _sum_distribution(count: int, sides: int) -> tuple[tuple[int, Fraction], ...]:
    ways: dict[int, int] = {0: 1}
    for _ in range(count):
        nxt: dict[int, int] = {}
        for total, w in ways.items():
            for face in range(1, sides + 1):
                nxt[total + face] = nxt.get(total + face, 0) + w
        ways = nxt
    whole = sides**count
    return tuple((t, Fraction(w, whole)) for t, w in sorted(ways.items()))


# --- turn sequence and initiative (section 3, A-47) ------------------------------------


@dataclass(frozen=True, slots=True)
class Phase:
    """One step of the Spelljammer turn: a name the engine dispatches on and its rule."""

    name: str
    rule: str


TURN_SEQUENCE: tuple[Phase, ...] = (
    Phase("npc_decisions", "DM decides monster/NPC actions, including rams and spells"),
    Phase("declarations", "players state what they and their ships do; rams announced"),
    Phase("initiative", "1d20 per side, ties rerolled; winner moves first or last"),
    Phase(
        "movement_and_fire",
        "ships move in initiative order, one full move at a time; when a ship finishes "
        "moving its owner fires at once, then others may fire in initiative order; each "
        "weapon fires at most once a turn",
    ),
    Phase("short_range", "ships sharing a hex: fire, then ram, grapple or board (section 8)"),
    Phase("end_of_round", "fires burn, timed effects tick, morale checks (section 18)"),
)
"""The turn of section 3 as data; long-range fire may happen at any time."""


def roll_side_initiative[S](sides: Sequence[S], rng: random.Random) -> list[S]:
    """Rank sides by 1d20 each, highest first; tied sides reroll among themselves (A-47)."""
    if len(sides) <= 1:
        return list(sides)
    if len(sides) == 2:  # the usual two sides: the same rolls, without the sort and groups
        first, second = int(rng.random() * 20), int(rng.random() * 20)
        if first == second:
            return roll_side_initiative(sides, rng)
        return [sides[0], sides[1]] if first > second else [sides[1], sides[0]]
    rolls = [(int(rng.random() * 20) + 1, i) for i in range(len(sides))]
    ranked: list[S] = []
    for _, group in itertools.groupby(sorted(rolls, key=lambda r: -r[0]), key=lambda r: r[0]):
        members = [sides[i] for _, i in group]
        ranked.extend(members if len(members) == 1 else roll_side_initiative(members, rng))
    return ranked


def initiative_order_outcomes[S](sides: Sequence[S]) -> Distribution[tuple[S, ...]]:
    """Exact distribution of :func:`roll_side_initiative`: every ranking equally likely.

    Sides roll identical dice and ties are rerolled, so the ranking is a uniformly random
    permutation.
    """
    perms = list(itertools.permutations(sides))
    return [(p, Fraction(1, len(perms))) for p in perms]


_ORDERS = frozenset({"first", "last"})


def movement_order[S](ranking: Sequence[S], choices: Sequence[Literal["first", "last"]]) -> list[S]:
    """Moving order when each side, best initiative first, takes the earliest or latest slot.

    The winner chooses first or last; the second-best second or second-to-last, and so on.

    >>> movement_order(["a", "b", "c"], ["last", "first", "first"])
    ['b', 'c', 'a']
    """
    if len(ranking) != len(choices):
        raise CombatError("give one choice ('first' or 'last') per side in the ranking")
    if len(choices) == 2 and choices[0] in _ORDERS and choices[1] in _ORDERS:
        # two sides (every round of most battles): the winner's choice alone decides
        first, second = ranking
        return [first, second] if choices[0] == "first" else [second, first]
    front: list[S] = []
    back: list[S] = []
    for side, choice in zip(ranking, choices, strict=True):
        if choice == "first":
            front.append(side)
        elif choice == "last":
            back.append(side)
        else:
            raise CombatError(f"initiative choice {choice!r} must be 'first' or 'last'")
    return front + back[::-1]


# --- attacks (sections 4, 8) -----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class AttackResult:
    """A d20 attack: the natural roll, whether it hit, whether it scored a critical."""

    roll: int
    hit: bool
    critical: bool


@lru_cache(maxsize=4096)  # a few hundred (roll, bonus, AC) make every shot of a battle
def _attack(roll: int, bonus: int, ac: int, crit_from: int | None) -> AttackResult:
    hit = roll == 20 or (roll != 1 and roll + bonus >= ac)
    critical = crit_from is not None and hit and roll >= crit_from
    return AttackResult(roll=roll, hit=hit, critical=critical)


def resolve_attack(
    bonus: int, ac: int, rng: random.Random, crit_from: int | None = 20
) -> AttackResult:
    """A d20 attack vs AC (C-20); a hit on ``crit_from``+ is a critical (A-49).

    Args:
        bonus: the attack bonus (large weapon, helmsman for rams and shears).
        ac: the target's AC (a ship's armour rating, a crewman's own AC).
        rng: the stream to roll on.
        crit_from: the lowest natural roll that crits: 20 for large weapons against
            ships, 19 against a poorly maintained ship (option
            ``sj.poorly_maintained_crit_from``), ``None`` when the attack cannot crit
            (small arms, attacks on crew).
    """
    return _attack(int(rng.random() * 20) + 1, bonus, ac, crit_from)


def attack_outcomes(
    bonus: int, ac: int, crit_from: int | None = 20
) -> Distribution[tuple[bool, bool]]:
    """Exact distribution of ``(hit, critical)`` for :func:`resolve_attack`."""
    counts: dict[tuple[bool, bool], int] = {}
    for roll in range(1, 21):
        r = _attack(roll, bonus, ac, crit_from)
        counts[(r.hit, r.critical)] = counts.get((r.hit, r.critical), 0) + 1
    return [(k, Fraction(n, 20)) for k, n in sorted(counts.items())]


def crewman_ac(own_ac: int, ship_ac: int, ship_has_initiative: bool) -> int:
    """A crewman's AC against large weapons: +1 this turn if his ship's armour is better
    than his own AC and his ship has initiative (section 4)."""
    return own_ac + 1 if ship_has_initiative and ship_ac > own_ac else own_ac


def stray_hull_damage(hull_damage: int) -> int:
    """A large weapon that missed a creature may still hit the ship: at most 1 hull point."""
    return min(1, max(0, hull_damage))


def can_fire_at(weapon_kind: str, same_hex: bool, ship_moving: bool = False) -> bool:
    """Whether a large weapon may fire at a ship: catapults never in the same hex, no
    weapon while its own ship is moving (sections 3, 4)."""
    if ship_moving:
        return False
    return not (same_hex and "catapult" in weapon_kind.lower())


def hand_missile_range(in_contact: bool) -> Literal["medium", "short"]:
    """Hand-held missiles between ships sharing a hex: medium range, short once in contact."""
    return "short" if in_contact else "medium"


def field_of_fire_bonus(fixed_mount: bool, in_arc: bool, dead_ahead: bool) -> int | None:
    """Optional fields of fire (section 7.4): ``None`` if the weapon cannot bear.

    Fixed bow/stern weapons bear only inside their three-hex arc and get +2 on a target
    directly ahead (behind); other weapons bear anywhere with no bonus.
    """
    if not fixed_mount:
        return 0
    if not in_arc:
        return None
    return 2 if dead_ahead else 0


def massive_damage_save(damage: int, killed: bool) -> int | None:
    """The Fortitude DC a creature must save against after one attack, or ``None``."""
    return MASSIVE_DAMAGE_DC if damage >= MASSIVE_DAMAGE and not killed else None


# --- hull points (section 4.2, C-02) ---------------------------------------------------


@dataclass(frozen=True, slots=True)
class HullDamage:
    """The result of applying hull damage.

    Attributes:
        damage: total hull damage taken so far (never more than ``hull_max``).
        hull_left: hull points left.
        half_crossed: this damage pushed the total past half the hull points: an
            immediate critical (A-49: once, when first crossed; see ``repeat`` below).
        broken_up: the ship is at 0 hull points and breaks up (section 7.1).
    """

    damage: int
    hull_left: int
    half_crossed: bool
    broken_up: bool


def apply_hull_damage(
    hull_max: int, damage_before: int, new_damage: int, repeat: bool = False
) -> HullDamage:
    """Add ``new_damage`` hull points of damage to a ship (EX-SJ-13).

    Args:
        hull_max: the ship's full hull points.
        damage_before: damage it had already taken.
        new_damage: the hit's hull damage.
        repeat: option ``sj.half_hull_crit_repeat`` (A-49): every damaging hit while above
            half is a crit, not only the one that crosses.
    """
    if hull_max < 1 or damage_before < 0 or new_damage < 0:
        raise CombatError(
            f"need hull_max >= 1 and non-negative damage, got {hull_max}, "
            f"{damage_before}, {new_damage}"
        )
    return _hull_damage(hull_max, damage_before, new_damage, repeat)


@lru_cache(maxsize=4096)  # every hull hit; a frozen result of a few small ints
def _hull_damage(hull_max: int, damage_before: int, new_damage: int, repeat: bool) -> HullDamage:
    total = min(hull_max, damage_before + new_damage)
    above = 2 * total > hull_max
    was_above = 2 * damage_before > hull_max
    crossed = above and (not was_above or (repeat and new_damage > 0))
    return HullDamage(
        damage=total, hull_left=hull_max - total, half_crossed=crossed, broken_up=total >= hull_max
    )


def hull_points_from_spell(damage: int) -> int:
    """A damage spell does 1 hull point per 10 points (a 30-point fireball = 3; EX-SJ-06)."""
    return max(0, damage) // 10


def spell_can_target_ship(
    range_ft: int, distance_hexes: int, within_150_ft: bool = False, hex_feet: int = HEX_FEET
) -> bool:
    """Whether a spell can target another ship (section 8.1).

    In the same hex, spells of range over 150 ft can; shorter ones only when the ships are
    obviously within 150 ft (grappled, in contact). In other hexes the range must reach
    the hex distance (PROPOSED: a hex is ``hex_feet`` across, 150 ft on a Spelljammer
    map; on larger hexes, such as FADAD's 500 yards, the same-hex threshold is one hex
    too, since two ships in one hex may lie that far apart).
    """
    if distance_hexes == 0:
        return range_ft > hex_feet or within_150_ft
    return range_ft >= distance_hexes * hex_feet


type ShipSpell = Literal["damage", "disintegrate", "dispel_magic_helm", "warp_wood"]


def spell_hull_effects(
    spell: ShipSpell, damage: int = 0, ignites: bool = False, fire_possible: bool = True
) -> tuple[int, tuple[ShipEffect, ...]]:
    """Hull points and effects of a spell on a ship (section 8.1): ``(hull points, effects)``.

    * ``damage``: 1 hull point per 10 points; a fire-starting spell (``ignites``, e.g. a
      fireball) starts a fire if one is possible.
    * ``disintegrate`` (on the bow): a Hull Holed critical.
    * ``dispel_magic_helm``: the helm malfunctions for 1 round (SR 0).
    * ``warp_wood``: weakens boards, no hull damage (a ballista may be ruined: GM's call).
    """
    match spell:
        case "damage":
            fire: tuple[ShipEffect, ...] = (Fire(),) if ignites and fire_possible else ()
            return hull_points_from_spell(damage), fire
        case "disintegrate":
            return 0, (HullHoled(),)
        case "dispel_magic_helm":
            return 0, (HelmMalfunction(rounds=1, round_seconds=SJ_ROUND_SECONDS),)
        case "warp_wood":
            return 0, ()
    raise CombatError(
        f"unknown ship spell {spell!r}; use damage, disintegrate, dispel_magic_helm or warp_wood"
    )


def spot_damage(before: int, added: int) -> tuple[int, int]:
    """Small-arms damage to one exact spot: (new spot total, hull points it has now caused).

    Every 10 cumulative points to the same spot = 1 hull point; callers add the
    difference in hull points caused by this blow.
    """
    total = before + max(0, added)
    return total, total // 10


def hull_points_from_spot_damage(spots: Iterable[int]) -> int:
    """Hull points from small arms, given the total damage at each distinct spot (EX-SJ-06)."""
    return sum(max(0, s) // 10 for s in spots)


# --- breaking up and debris (sections 7.1, 7.2, A-60) ----------------------------------


def debris_dice(tons: int) -> int:
    """Dice (d6) of large air-holding pieces when a ship breaks up: 1 per 10 tons, up."""
    if tons < 1:
        raise CombatError(f"ship tonnage must be >= 1, got {tons}")
    return math.ceil(tons / 10)


def roll_debris(tons: int, rng: random.Random) -> int:
    """Large pieces left when a ship of ``tons`` breaks up (EX-SJ-11)."""
    return Dice(debris_dice(tons), 6).roll(rng)


def debris_outcomes(tons: int) -> Distribution[int]:
    """Exact distribution of :func:`roll_debris`."""
    return Dice(debris_dice(tons), 6).outcomes()


def debris_hazard(hexes_this_turn: int) -> Literal["small", "medium", "large"] | None:
    """The jettison a ship entering a debris hex is attacked as, by its speed this turn.

    1 hex safe; 2-3 small; 4-5 medium; more than 5 large (section 7.2). Jettison attack
    statistics are data (A-60).
    """
    if hexes_this_turn <= 1:
        return None
    if hexes_this_turn <= 3:
        return "small"
    return "medium" if hexes_this_turn <= 5 else "large"
