"""Encounters, evasion, pursuit and repair between Spelljammer ships.

Implements ``ships-spelljammer.md`` sections 15-17 with ``CONFLICTS.md`` C-21 and
A-55, A-56. Directions are hex sides relative to the player ship's facing, clockwise
(0 = dead ahead, 1 = ahead-right/starboard, ..., 5 = ahead-left/port).

>>> pursuit_success_probability(14, navigation=True, delay_rounds=2)
Fraction(7, 10)
>>> repair_cost(3, hull_max=30, damage=10, workers=5)
RepairBill(gold=6000, days=3)
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from fadad_agents.rules.core.dice import Distribution

__all__ = [
    "CAPTURE_HEXES",
    "DIRECTIONS",
    "OVERTAKE_YARDS",
    "ChaseError",
    "Encounter",
    "Reaction",
    "RepairBill",
    "can_escape",
    "crit_range_from",
    "diy_repair",
    "encounter_outcomes",
    "jettison_hit_outcomes",
    "mass_slows_pursuer",
    "pursuer_reappears_after",
    "pursuer_stop_outcomes",
    "pursuit_lost",
    "pursuit_success_probability",
    "reaction_from_appearance",
    "repair_cost",
    "resolve_jettison_hit",
    "resolve_pursuit",
    "roll_encounter",
    "roll_pursuer_stop",
]

CAPTURE_HEXES = 25
"""Capture distance of small bodies (asteroids, ships), section 15."""

OVERTAKE_YARDS = 1200
"""A pursuer passing within this distance of a stopped quarry overtakes and stops too."""


class ChaseError(ValueError):
    """An encounter, pursuit or repair input is impossible."""


# --- encounters (section 15) -----------------------------------------------------------

DIRECTIONS: dict[int, tuple[int, str]] = {
    1: (0, "directly ahead"),
    2: (1, "ahead and right (starboard)"),
    3: (2, "behind and right"),
    4: (3, "directly behind"),
    5: (4, "behind and left (port)"),
    6: (5, "ahead and left"),
}
"""1d6 -> (hex side relative to facing, clockwise; description)."""


@dataclass(frozen=True, slots=True)
class Encounter:
    """Where another ship appears: ``distance`` hexes away on relative hex side ``side``."""

    distance: int
    side: int


def roll_encounter(rng: random.Random) -> Encounter:
    """Another ship appears 1d10+10 hexes away in a 1d6 direction."""
    distance = int(rng.random() * 10) + 11
    roll = int(rng.random() * 6) + 1
    return Encounter(distance=distance, side=DIRECTIONS[roll][0])


def encounter_outcomes() -> Distribution[Encounter]:
    """Exact distribution of :func:`roll_encounter`: 60 equally likely placements."""
    return [
        (Encounter(d, side), Fraction(1, 60))
        for d in range(11, 21)
        for side, _ in DIRECTIONS.values()
    ]


type Reaction = Literal["friendly", "indifferent", "threatening", "hostile"]


def reaction_from_appearance(
    weapons_loaded: int, weapons: int, crew_armed: bool, crew_massed: bool
) -> Reaction:
    """A ship's intention read from its appearance (section 15 table).

    Hostile: all large weapons loaded and the crew packed at the gunwales, armed.
    Threatening: all loaded. Indifferent: some (one or more) loaded, or the crew armed
    (PROPOSED reading of the gaps). Friendly: nothing loaded, crew unarmed.
    """
    if not 0 <= weapons_loaded <= weapons:
        raise ChaseError(f"need 0 <= loaded <= weapons, got {weapons_loaded}, {weapons}")
    all_loaded = weapons_loaded == weapons and weapons > 0
    if all_loaded and crew_armed and crew_massed:
        return "hostile"
    if all_loaded:
        return "threatening"
    return "indifferent" if weapons_loaded or crew_armed else "friendly"


def can_escape(nearest_body_hexes: int | None, capture_hexes: int = CAPTURE_HEXES) -> bool:
    """May a ship accelerate to spelljamming speed and leave the map?

    Only if nothing (ship, debris, asteroid) is within the capture distance at the start
    of its movement; ``None`` = nothing on the map. After declaring acceleration it cannot
    turn again (the engine's job).
    """
    return nearest_body_hexes is None or nearest_body_hexes > capture_hexes


# --- pursuit (section 16, A-55) --------------------------------------------------------


def pursuit_lost(delay_rounds: int, turn_rounds: int = 10) -> bool:
    """After two turns of delay the quarry is lost (turn = 10 rounds, A-55)."""
    return delay_rounds >= 2 * turn_rounds


def pursuit_success_probability(
    intelligence: int, navigation: bool, delay_rounds: int, turn_rounds: int = 10
) -> Fraction:
    """P(the navigator stays on track): d20 + delay <= Int (+2 with Navigation) (EX-SJ-10)."""
    if delay_rounds < 0:
        raise ChaseError(f"delay must be >= 0 rounds, got {delay_rounds}")
    if pursuit_lost(delay_rounds, turn_rounds):
        return Fraction(0)
    need = intelligence + (2 if navigation else 0) - delay_rounds
    return Fraction(min(20, max(0, need)), 20)


def resolve_pursuit(
    intelligence: int,
    navigation: bool,
    delay_rounds: int,
    rng: random.Random,
    turn_rounds: int = 10,
) -> bool:
    """The navigator's Intelligence check to follow a quarry (A-55)."""
    if pursuit_lost(delay_rounds, turn_rounds):
        return False
    roll = int(rng.random() * 20) + 1
    return roll + delay_rounds <= intelligence + (2 if navigation else 0)


def pursuer_reappears_after(delay_rounds: int) -> int:
    """When the quarry stops, the pursuer appears this many rounds later (EX-SJ-10)."""
    return delay_rounds


def resolve_jettison_hit(rng: random.Random) -> bool:
    """Jettisoned small shot hits a pursuer at high speed only 5% of the time."""
    return int(rng.random() * 100) < 5


def jettison_hit_outcomes() -> Distribution[bool]:
    """Exact distribution of :func:`resolve_jettison_hit`."""
    return [(True, Fraction(1, 20)), (False, Fraction(19, 20))]


def mass_slows_pursuer(tons_cut_loose: int) -> bool:
    """Cutting loose 10 tons or more slows a pursuer that meets the mass."""
    return tons_cut_loose >= 10


def roll_pursuer_stop(rng: random.Random) -> int:
    """Hexes short of a jettisoned mass where a slowed pursuer stops: 11-20."""
    return int(rng.random() * 10) + 11


def pursuer_stop_outcomes() -> Distribution[int]:
    """Exact distribution of :func:`roll_pursuer_stop`."""
    return [(d, Fraction(1, 10)) for d in range(11, 21)]


# --- repair (section 17, C-21, A-56) ---------------------------------------------------


@dataclass(frozen=True, slots=True)
class RepairBill:
    """Cost in gold pieces and time in days of a repair."""

    gold: int
    days: int


def repair_cost(hull_points: int, hull_max: int, damage: int, workers: int) -> RepairBill:
    """Yard repair of ``hull_points`` in a civilised area (section 17).

    Each five-worker crew repairs 1 hull point a day for 2,000 gp. A badly damaged ship
    (more than half its hull points lost) costs 5,000 gp a point and takes three days a
    point per crew (A-56, PROPOSED). Crews work in parallel on different points.
    """
    if hull_points < 0 or not 0 <= damage <= hull_max or hull_points > damage:
        raise ChaseError(
            f"need 0 <= points to repair <= damage <= hull max, got {hull_points}, "
            f"{damage}, {hull_max}"
        )
    crews = workers // 5
    if crews < 1 and hull_points:
        raise ChaseError(f"a repair needs crews of five workers, got {workers} workers")
    badly = 2 * damage > hull_max
    per_point_gold, per_point_days = (5000, 3) if badly else (2000, 1)
    days = math.ceil(hull_points / crews) * per_point_days if hull_points else 0
    return RepairBill(gold=hull_points * per_point_gold, days=days)


def diy_repair(hull_points: int, workers: int) -> RepairBill:
    """Do-it-yourself repair in space: five people fix 1 hull point a week; materials
    about 50 gp a point (free timber after a landing is the caller's discount)."""
    crews = workers // 5
    if hull_points < 0 or (hull_points and crews < 1):
        raise ChaseError(f"need points >= 0 and five workers or more, got {hull_points}, {workers}")
    weeks = math.ceil(hull_points / crews) if hull_points else 0
    return RepairBill(gold=50 * hull_points, days=7 * weeks)


def crit_range_from(poorly_maintained: bool, poorly_maintained_from: int = 19) -> int:
    """The lowest natural d20 that crits a ship: 20, or 19 when poorly maintained (A-49).

    A ship is poorly maintained when a repair crew lacked a carpenter (or other relevant
    skill), until properly repaired; option ``sj.poorly_maintained_crit_from``.
    """
    return poorly_maintained_from if poorly_maintained else 20
