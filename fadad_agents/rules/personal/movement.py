"""Personal movement: rates per 6-second round, movement actions, speeds for the global clock.

Implements ``personal-combat.md`` section 5 (SEED FADAD section 4.3.4) and the speed
conversion of ``CONFLICTS.md`` C-17/C-19: every rate is stored as an exact speed in
yards per second, so any subsystem can advance it on the one clock in seconds.

The space a fighter takes and reaches is PROPOSED here (the seeds give none): a fighter
of Scale 0 stands in a circle of :data:`MAN_RADIUS` yards and a hand weapon reaches
:data:`MAN_REACH` yard beyond it; both grow with the cube root of mass (each Scale step
is 1.5 times the mass, so a length grows 1.5 ** (1/3) a step). Two fighters are in
contact when one's reach touches the other's circle, and as many attackers can stand
around a defender as their circles fit round it (six men round a man, more round an
ogre or a dragon: :func:`melee_slots`).

>>> yards_per_second("jog")
Fraction(5, 2)
>>> move_actions_needed(12), gait_for_move_actions(2)
(1, 'run')
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Literal

__all__ = [
    "FREE_MOVE_YARDS",
    "GAITS",
    "MAN_RADIUS",
    "MAN_REACH",
    "MAX_MOVE_ACTIONS",
    "MOVE_ACTION_YARDS",
    "ROUND_SECONDS",
    "SR_YARDS_PER_ROUND",
    "YARDS_PER_ROUND",
    "Gait",
    "MovementError",
    "contact_distance",
    "footprint_radius",
    "gait_for_distance",
    "gait_for_move_actions",
    "melee_slots",
    "miles_per_hour",
    "move_actions_needed",
    "move_plan",
    "movement_allowance",
    "scaled_length",
    "speed",
    "sr_yards_per_second",
    "yards_covered",
    "yards_per_second",
]

type Gait = Literal["walk", "jog", "run"]

ROUND_SECONDS = 6
"""A FADAD personal round is about 6 seconds (SEED section 4.2)."""

GAITS: tuple[Gait, ...] = ("walk", "jog", "run")
YARDS_PER_ROUND: dict[Gait, int] = {"walk": 8, "jog": 15, "run": 30}
"""Yards per 6-second round by gait (SEED table section 4.3.4)."""

SR_YARDS_PER_ROUND = 50
"""One spelljamming Ship Rating: 50 yards per 6 seconds, about 17 mph."""

MOVE_ACTION_YARDS = 15
"""One movement action moves about 15 yards."""

MAX_MOVE_ACTIONS = 2
"""More than two movement actions in a round is usually impossible."""

FREE_MOVE_YARDS = 8
"""With no movement action a character may still move up to 8 yards."""

MAN_RADIUS = 0.5
"""PROPOSED: yards from a Scale 0 fighter's centre to the edge of the space it takes."""

MAN_REACH = 1.0
"""PROPOSED: yards a Scale 0 fighter's hand weapon reaches beyond its own space."""

_YARDS_PER_MILE = 1760
_SECONDS_PER_HOUR = 3600


class MovementError(ValueError):
    """A movement request is outside what the rules allow."""


def _check_gait(gait: str) -> Gait:
    for known in GAITS:
        if gait == known:
            return known
    raise MovementError(f"unknown gait {gait!r}; allowed: {', '.join(GAITS)}")


def speed(yards: int | Fraction, seconds: int) -> Fraction:
    """A rate of ``yards`` per ``seconds`` as an exact speed in yards per second (C-17)."""
    if seconds <= 0:
        raise MovementError(f"a rate needs a positive time, got {seconds} s")
    return Fraction(yards) / seconds


def yards_per_second(gait: str) -> Fraction:
    """Speed of a gait in yards per second: walk 4/3, jog 5/2, run 5."""
    return speed(YARDS_PER_ROUND[_check_gait(gait)], ROUND_SECONDS)


def sr_yards_per_second(sr: int | Fraction) -> Fraction:
    """Speed of Ship Rating ``sr`` in yards per second (25 ft/s per SR, C-19)."""
    return speed(SR_YARDS_PER_ROUND * Fraction(sr), ROUND_SECONDS)


def miles_per_hour(yards_per_sec: Fraction) -> Fraction:
    """Convert yards per second to miles per hour (the table's walk 3 ... SR 1 17 mph)."""
    return yards_per_sec * _SECONDS_PER_HOUR / _YARDS_PER_MILE


def yards_covered(yards_per_sec: Fraction, seconds: int) -> Fraction:
    """Distance covered at a speed in a number of seconds of the global clock."""
    return yards_per_sec * seconds


def movement_allowance(move_actions: int) -> int:
    """Yards a character may move in a round spending ``move_actions`` movement actions.

    0 actions: up to 8 yards (a walk); 1: 15 (a jog); 2: 30 (a run).

    Raises:
        MovementError: fewer than 0 or more than 2 movement actions.
    """
    if not 0 <= move_actions <= MAX_MOVE_ACTIONS:
        raise MovementError(
            f"{move_actions} movement actions in a round; allowed 0..{MAX_MOVE_ACTIONS}"
        )
    if move_actions == 0:
        return FREE_MOVE_YARDS
    return MOVE_ACTION_YARDS * move_actions


def move_actions_needed(yards: int | Fraction) -> int:
    """Fewest movement actions that cover ``yards`` in one round.

    Raises:
        MovementError: a negative distance or one beyond a run (30 yards).
    """
    if yards < 0:
        raise MovementError(f"cannot move a negative distance ({yards} yd)")
    for actions in range(MAX_MOVE_ACTIONS + 1):
        if yards <= movement_allowance(actions):
            return actions
    raise MovementError(
        f"{yards} yd exceeds a run of {movement_allowance(MAX_MOVE_ACTIONS)} yd per round"
    )


def gait_for_move_actions(move_actions: int) -> Gait:
    """The gait a round's movement actions amount to: 0 walk, 1 jog, 2 run."""
    movement_allowance(move_actions)  # validates the count
    return GAITS[move_actions]


def gait_for_distance(yards: int | Fraction) -> Gait:
    """The slowest gait that covers ``yards`` in one round."""
    return gait_for_move_actions(move_actions_needed(yards))


# --- the space a fighter takes and reaches (PROPOSED) ---------------------------------


def scaled_length(yards: float, scale: int) -> float:
    """A length of a Scale 0 fighter scaled to Scale ``scale``: x 1.5 ** (scale / 3).

    Scale measures mass (1.5 times a step), so lengths grow with its cube root.

    >>> round(scaled_length(0.5, 6), 3), scaled_length(1.0, 0)
    (1.125, 1.0)
    """
    return float(yards * 1.5 ** (scale / 3))


def footprint_radius(scale: int) -> float:
    """Yards from a fighter's centre to the edge of the space it takes (0.5 for a man)."""
    return scaled_length(MAN_RADIUS, scale)


def contact_distance(attacker_radius: float, reach: float, defender_radius: float) -> float:
    """Largest distance between centres at which a melee attack lands: the attacker's
    reach beyond its own circle touches the defender's circle."""
    return attacker_radius + reach + defender_radius


def melee_slots(defender_radius: float, attacker_radius: float) -> int:
    """How many attackers of ``attacker_radius`` fit round a defender, circles touching.

    Their centres lie on a ring of radius ``R + r``; each takes the angle
    ``2 asin(r / (R + r))`` of it. Six men round a man; more round a larger defender.

    >>> melee_slots(0.5, 0.5), melee_slots(1.125, 0.5), melee_slots(0.5, 1.125)
    (6, 10, 4)
    """
    if defender_radius <= 0 or attacker_radius <= 0:
        raise MovementError("a fighter's radius must be positive")
    half_angle = math.asin(attacker_radius / (defender_radius + attacker_radius))
    return max(1, math.floor(math.pi / half_angle + 1e-9))


def move_plan(gap: float, actions: int, stride: float = 1.0) -> tuple[int, float]:
    """Movement actions and yards to cover ``gap`` yards with at most ``actions`` to spend.

    The fewest actions whose allowance (8, 15, 30 yd, times ``stride`` for short legs or
    heavy armour) covers the gap, and the gap itself; if none does, every action
    allowed (at most two) and that allowance.

    >>> move_plan(6, 2), move_plan(12, 2), move_plan(40, 2), move_plan(40, 1)
    ((0, 6), (1, 12), (2, 30.0), (1, 15.0))
    """
    if gap <= 0:
        return 0, 0.0
    most = min(max(actions, 0), MAX_MOVE_ACTIONS)
    for spent in range(most + 1):
        allowance = movement_allowance(spent) * stride
        if gap <= allowance:
            return spent, gap
    return most, movement_allowance(most) * stride
