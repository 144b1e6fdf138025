"""Spelljammer movement: long range, take-off and landing, tactical movement points, facing.

Implements ``ships-spelljammer.md`` sections 1-2 with ``CONFLICTS.md`` C-05 (MC letters
and classes), C-19 (SR units) and A-45, A-46, A-61. Positions live in ``hexmap``; this
module only prices and validates a move, given as a plan of steps:

* ``"F"`` move one hex forward (into the hex faced),
* ``"L"`` / ``"R"`` turn one hex side left (counter-clockwise) / right.

>>> move_cost("FLF", ManeuverClass.AVERAGE)
3
>>> check_move("FLFR", sr=3, mc=ManeuverClass.AVERAGE)  # final turn is the free one
>>> gravity_well_rounds("D", "storm")
12
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from enum import IntEnum
from fractions import Fraction
from functools import cache
from typing import Literal

from fadad_agents.rules.core.dice import Distribution

__all__ = [
    "BODY_SIZE_ROUNDS",
    "HEX_FEET",
    "MC_LETTERS",
    "WEATHER_MULTIPLIER",
    "BodySize",
    "IllegalMoveError",
    "ManeuverClass",
    "MovementError",
    "Step",
    "Weather",
    "airborne_class",
    "atmosphere_ft_per_round",
    "check_move",
    "class_from_letter",
    "downgrade",
    "final_facing",
    "gravity_well_rounds",
    "hexes_moved",
    "legal_moves",
    "letter_from_ladder",
    "miles_per_day",
    "move_cost",
    "needs_helm_warmup",
    "roll_helm_warmup",
    "roll_take_off",
    "speed_after_loss",
    "take_off_outcomes",
    "travel_mph",
    "turn_limit_per_hex",
]

HEX_FEET = 150
"""A tactical hex is 150 ft across; a round is 6 seconds (section 2)."""


class MovementError(ValueError):
    """A movement input is outside what the rules allow."""


class IllegalMoveError(MovementError):
    """A tactical move plan breaks the SR budget or the manoeuvrability class's turning rule."""


class ManeuverClass(IntEnum):
    """Spelljammer manoeuvrability classes, ordered worst to best."""

    POOR = 0
    AVERAGE = 1
    GOOD = 2
    PERFECT = 3


MC_LETTERS: dict[str, ManeuverClass] = {
    "A": ManeuverClass.PERFECT,
    "B": ManeuverClass.GOOD,
    "C": ManeuverClass.AVERAGE,
    "D": ManeuverClass.POOR,
    "E": ManeuverClass.POOR,
    "F": ManeuverClass.POOR,
}
"""C-05 / A-61 (PROPOSED): 2e letters to classes; E and F keep their own crash modifiers."""


@cache  # read by every ship's move: a handful of letters
def class_from_letter(letter: str) -> ManeuverClass:
    """The manoeuvrability class of an MC letter A-F (C-05)."""
    try:
        return MC_LETTERS[letter.strip().upper()]
    except KeyError:
        raise MovementError(f"unknown MC letter {letter!r}; use one of A, B, C, D, E, F") from None


def letter_from_ladder(level: int) -> str:
    """FADAD's MS equivalences: Great=A, Good=B, Fair=C, Mediocre=D, Poor=E, Terrible=F.

    Superb and better map to A, Terrible-1 and worse to F (the table stops there).
    """
    return "FEDCBA"[min(max(level + 3, 0), 5)]


def downgrade(mc: ManeuverClass, steps: int) -> ManeuverClass:
    """``mc`` lowered by ``steps`` classes, never below Poor (sections 5, 6.2, 11)."""
    if steps < 0:
        raise MovementError(f"cannot downgrade by {steps} steps; steps must be >= 0")
    return ManeuverClass(max(ManeuverClass.POOR, mc - steps))


def airborne_class(mc: ManeuverClass) -> ManeuverClass:
    """MC in airborne combat: as in space, but Poor vessels count as Average (section 1.2)."""
    return max(mc, ManeuverClass.AVERAGE)


# --- long-range movement (section 1.1, A-45) -------------------------------------------


def atmosphere_ft_per_round(sr: int) -> int:
    """Tactical movement in atmosphere: 100 ft + 50 ft per 2 SR, at least 50 ft (A-45)."""
    _check_sr(sr)
    return max(50, 100 + 50 * (sr // 2))


def travel_mph(sr: int) -> Fraction:
    """Overland travel speed: about 17 mph per 2 SR, i.e. 8.5 mph per SR (A-45)."""
    _check_sr(sr)
    return Fraction(17, 2) * sr


def miles_per_day(sr: int) -> int:
    """Overland travel: about 400 miles a day per 2 SR (A-45)."""
    _check_sr(sr)
    return 200 * sr


def _check_sr(sr: int) -> None:
    if sr < 0:
        raise MovementError(f"SR must be >= 0, got {sr}")


# --- take-off and landing (section 1.2, A-46) ------------------------------------------

type BodySize = Literal["A", "B", "C", "D", "E", "F", "G", "H", "I", "J"]
type Weather = Literal[
    "becalmed",
    "normal",
    "light_breeze",
    "favorable",
    "strong_winds",
    "rain_or_snow",
    "storm",
    "gale",
    "hurricane",
]

BODY_SIZE_ROUNDS: dict[str, int] = {
    "A": 1,
    "B": 2,
    "C": 2,
    "D": 3,
    "E": 4,
    "F": 6,
    "G": 12,
    "H": 24,
    "I": 48,
    "J": 96,
}
"""Rounds to climb out of (or land through) a gravity well; the seed's hour notes are
ignored (A-46)."""

WEATHER_MULTIPLIER: dict[str, int | None] = {
    "becalmed": 1,
    "normal": 1,
    "light_breeze": 1,
    "favorable": 1,
    "strong_winds": 2,
    "rain_or_snow": 2,
    "storm": 4,
    "gale": 4,
    "hurricane": None,
}
"""Atmospheric time multipliers; ``None`` = no take-off or landing possible."""


def gravity_well_rounds(size: str, weather: str = "normal") -> int:
    """Rounds to leave or land on a body of size class ``size`` in ``weather``.

    Raises:
        MovementError: unknown size or weather, or a hurricane (no take-off or landing).
    """
    if size not in BODY_SIZE_ROUNDS:
        raise MovementError(f"unknown body size class {size!r}; use A..J")
    if weather not in WEATHER_MULTIPLIER:
        raise MovementError(
            f"unknown weather {weather!r}; use one of {', '.join(WEATHER_MULTIPLIER)}"
        )
    factor = WEATHER_MULTIPLIER[weather]
    if factor is None:
        raise MovementError("no take-off or landing is possible in a hurricane")
    return BODY_SIZE_ROUNDS[size] * factor


def needs_helm_warmup(size: str | None) -> bool:
    """A helm needs 1d8 rounds of warm-up from a body of size class A or greater.

    ``size=None`` is a smaller body (another ship, a rock): no warm-up.
    """
    return size is not None


def roll_helm_warmup(rng: random.Random) -> int:
    """The helm warm-up: 1d8 rounds from the moment the helmsman sits down."""
    return int(rng.random() * 8) + 1


def roll_take_off(size: str, weather: str, from_surface: bool, rng: random.Random) -> int:
    """Rounds from sitting down at the helm to leaving the gravity well (EX-SJ-12)."""
    climb = gravity_well_rounds(size, weather)
    return climb + (roll_helm_warmup(rng) if from_surface else 0)


def take_off_outcomes(size: str, weather: str, from_surface: bool) -> Distribution[int]:
    """Exact distribution of :func:`roll_take_off`."""
    climb = gravity_well_rounds(size, weather)
    if not from_surface:
        return [(climb, Fraction(1))]
    return [(climb + w, Fraction(1, 8)) for w in range(1, 9)]


# --- tactical movement (section 2) -----------------------------------------------------

type Step = Literal["F", "L", "R"]

_TURN_LIMIT_PER_HEX: dict[ManeuverClass, int | None] = {
    ManeuverClass.POOR: 1,  # PROPOSED: the seed limits only Poor's first action
    ManeuverClass.AVERAGE: 1,
    ManeuverClass.GOOD: 2,
    ManeuverClass.PERFECT: None,
}


def turn_limit_per_hex(mc: ManeuverClass) -> int | None:
    """Hex sides a ship of class ``mc`` may turn in one hex (``None``: any, Perfect)."""
    return _TURN_LIMIT_PER_HEX[mc]


def _parse(plan: str) -> list[Step]:
    steps: list[Step] = []
    for ch in plan.upper():
        if ch == "F":
            steps.append("F")
        elif ch == "L":
            steps.append("L")
        elif ch == "R":
            steps.append("R")
        else:
            raise IllegalMoveError(f"unknown move step {ch!r} in {plan!r}; use F, L or R")
    return steps


def _free_turn_index(steps: list[Step]) -> int | None:
    """The free end-of-movement turn: the plan's last step, when it is a turn."""
    return len(steps) - 1 if steps and steps[-1] != "F" else None


def move_cost(plan: str, mc: ManeuverClass) -> int:
    """SR spent by a plan: 1 a hex, 1 a hex side turned (0 for Perfect), last turn free.

    >>> move_cost("FFR", ManeuverClass.GOOD), move_cost("FRRF", ManeuverClass.PERFECT)
    (2, 2)
    """
    steps = _parse(plan)
    free = _free_turn_index(steps)
    cost = 0
    for i, step in enumerate(steps):
        if step == "F" or (mc != ManeuverClass.PERFECT and i != free):
            cost += 1
    return cost


def check_move(plan: str, sr: int, mc: ManeuverClass, free_turn_counts: bool = True) -> None:
    """Raise :class:`IllegalMoveError` unless ``plan`` is a legal move this turn.

    Args:
        plan: steps ``F``/``L``/``R``.
        sr: the ship's current SR (its movement budget).
        mc: its current manoeuvrability class.
        free_turn_counts: whether the free end turn counts toward the class's turns per
            hex (option ``sj.free_turn_counts_toward_hex_limit``, PROPOSED default True).
    """
    steps = _parse(plan)
    if sr <= 0 and steps:
        raise IllegalMoveError(f"a ship at SR {sr} cannot move or turn ({plan!r})")
    cost = move_cost(plan, mc)
    if cost > sr:
        raise IllegalMoveError(f"plan {plan!r} costs {cost} SR but the ship has SR {sr}")
    if mc == ManeuverClass.POOR and steps and steps[0] != "F":
        raise IllegalMoveError(
            f"a Poor ship cannot turn as its first action ({plan!r}); move forward first"
        )
    limit = _TURN_LIMIT_PER_HEX[mc]
    if limit is None:
        return
    free = _free_turn_index(steps)
    in_hex = 0
    for i, step in enumerate(steps):
        if step == "F":
            in_hex = 0
            continue
        if i == free and not free_turn_counts:
            continue
        in_hex += 1
        if in_hex > limit:
            raise IllegalMoveError(
                f"plan {plan!r} turns {in_hex} hex sides in one hex; "
                f"a {mc.name.title()} ship may turn at most {limit}"
            )


def hexes_moved(plan: str) -> int:
    """Hexes entered by a plan (its ``F`` steps); sets the debris hazard (section 7.2)."""
    return _parse(plan).count("F")


def final_facing(facing: int, plan: str) -> int:
    """Facing (hex side 0-5, clockwise) after the plan's turns; ``R`` is clockwise."""
    steps = _parse(plan)
    return (facing + steps.count("R") - steps.count("L")) % 6


_SEGMENTS = ("", "L", "R", "LL", "RR", "RRR")
"""Turns within one hex without redundancy: never both ways, at most three sides (LLL = RRR)."""


def legal_moves(sr: int, mc: ManeuverClass, free_turn_counts: bool = True) -> Iterator[str]:
    """Every legal plan for this SR and class, without redundant turns.

    A plan never turns both ways in one hex (``LR`` undoes itself) and turns at most
    three sides in a hex (any facing), so the list is finite: ``6 ** (hexes + 1)`` plans
    are tried per number of hexes, fine for the SRs of the rules (1-10) but lazy anyway.
    """
    for hexes in range(sr + 1):
        for segments in itertools.product(_SEGMENTS, repeat=hexes + 1):
            plan = "F".join(segments)
            try:
                check_move(plan, sr, mc, free_turn_counts)
            except IllegalMoveError:
                continue
            yield plan


def speed_after_loss(sr: int, loss: int) -> int:
    """SR after a temporary loss: never below 1 (critical Loss of SR, section 5)."""
    return max(1, sr - loss) if sr >= 1 else sr
