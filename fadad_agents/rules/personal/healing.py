"""Healing (``wounds-and-healing.md`` §13, C-09, A-31, A-32).

Both models work per wound record, using the TRUE severity stored on the wound track
(an "H" in the Incapacitated box heals as a Hurt), and wounds heal in parallel.

* FADAD (SEED 000 §4.7): each wound drops one level per interval of
  ``14 - healing attribute`` days (floor 1); Scratches go in about a day; surgery and
  long-term care shorten a wound's interval by one day per degree of success.
* FUDGE (SEED 001 §4.8): a healing-skill result of Good/Great/Superb heals every wound
  1/2/3 levels (Scratches do not count as a level); natural healing is one level a week.

>>> fadad_days_to_heal(Wound.NEAR_DEATH)                    # EX-WND-19
56
>>> fudge_heal_severities((2, 2, 3), levels=1)               # EX-WND-18
(2,)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from fadad_agents.rules.core.dice import Distribution, fudge_distribution, roll_4df
from fadad_agents.rules.core.wounds import Overflow, Wound, WoundTrack, rebuild

__all__ = [
    "BASE_INTERVAL",
    "FirstAid",
    "HealingModel",
    "Surgery",
    "care_degrees",
    "days_to_heal",
    "fadad_days_to_heal",
    "fadad_heal_track",
    "fadad_interval",
    "fadad_remaining_severity",
    "first_aid",
    "fudge_heal_severities",
    "fudge_heal_track",
    "fudge_healing_levels",
    "fudge_natural_days",
    "fudge_natural_step_chance",
    "fudge_natural_week",
    "fudge_remaining_severity",
    "heal_track",
    "natural_step_difficulty",
    "roll_fudge_natural_week",
    "roll_surgery",
    "surgery",
    "surgery_difficulty",
    "surgery_outcomes",
    "wound_difficulty",
]

type HealingModel = Literal["fadad", "fudge"]

BASE_INTERVAL = 14
"""FADAD days per wound level before the healing attribute (SEED 000 §4.7)."""

_DIFFICULTY = {2: -1, 3: 0, 4: 1, 5: 2}  # Hurt Mediocre, VH Fair, Incap Good, ND Great


def wound_difficulty(severity: int) -> int:
    """Difficulty of treating a wound (surgery, long-term care): Hurt Mediocre (-1), Very
    Hurt Fair (0), Incapacitated Good (+1), Near Death Great (+2) (SEED 000 §4.7)."""
    if severity not in _DIFFICULTY:
        raise ValueError(f"no treatment difficulty for wound level {severity}; allowed 2..5")
    return _DIFFICULTY[severity]


surgery_difficulty = wound_difficulty


# --- FADAD ------------------------------------------------------------------------------


def fadad_interval(healing_attribute: int = 0, *, degrees: int = 0) -> int:
    """Days per wound level: 14 - healing attribute - degrees of surgery/care, floor 1 (A-31).

    Superb Health (+3) gives 11; Poor Blood Clotting (-2) gives 16 (EX-WND-19).
    """
    return max(BASE_INTERVAL - healing_attribute - degrees, 1)


def fadad_days_to_heal(
    severity: int,
    healing_attribute: int = 0,
    *,
    surgery_degrees: int = 0,
    care_degrees: Sequence[int] = (),
    scratch_days: int = 1,
) -> int:
    """Days until a wound of true ``severity`` is fully healed (FADAD).

    A Scratch takes ``scratch_days`` (about a day). Each other level takes one interval:
    Hurt 14, Very Hurt 28, Incapacitated 42, Near Death 56 days at normal health.
    ``surgery_degrees`` shortens every interval of this wound; ``care_degrees[i]`` shortens
    interval ``i`` (care rolled once at the start of each interval, A-31).
    """
    if severity <= Wound.UNDAMAGED:
        return 0
    if severity == Wound.SCRATCH:
        return scratch_days
    days = 0
    for i in range(min(severity, Wound.NEAR_DEATH) - 1):
        care = care_degrees[i] if i < len(care_degrees) else 0
        days += fadad_interval(healing_attribute, degrees=surgery_degrees + care)
    return days


def fadad_remaining_severity(
    severity: int,
    days: int,
    healing_attribute: int = 0,
    *,
    surgery_degrees: int = 0,
    scratch_days: int = 1,
    near_death_care: bool = True,
) -> int:
    """True severity of a wound after ``days`` of rest (0 = healed).

    A Near Death wound without medical care does not improve (A-31: care is very likely
    needed to survive the 14 days to Incapacitated; whether the victim lives is the GM's).
    """
    if severity <= Wound.UNDAMAGED:
        return 0
    if severity == Wound.SCRATCH:
        return 0 if days >= scratch_days else 1
    if severity >= Wound.NEAR_DEATH and not near_death_care:
        return severity
    levels = days // fadad_interval(healing_attribute, degrees=surgery_degrees)
    left = severity - levels
    return left if left >= Wound.HURT else 0


def fadad_heal_track(
    track: WoundTrack,
    days: int,
    healing_attribute: int = 0,
    *,
    surgery_degrees: Sequence[int] = (),
    near_death_care: bool = True,
    overflow_past_near_death: Overflow = "dead",
) -> WoundTrack:
    """The track after ``days`` of FADAD healing, each wound on its own clock.

    ``surgery_degrees[i]`` belongs to the i-th mark (in :attr:`WoundTrack.marks` order).
    """
    left = tuple(
        fadad_remaining_severity(
            sev,
            days,
            healing_attribute,
            surgery_degrees=surgery_degrees[i] if i < len(surgery_degrees) else 0,
            near_death_care=near_death_care,
        )
        for i, sev in enumerate(track.severities)
    )
    return rebuild(
        track, tuple(s for s in left if s), overflow_past_near_death=overflow_past_near_death
    )


@dataclass(frozen=True, slots=True)
class Surgery:
    """Outcome of surgery on one wound: interval days saved, and whether it went wrong."""

    degrees: int
    complication: bool


def surgery(surgeon_skill: int, roll: int, severity: int) -> Surgery:
    """Surgery (once per injury): skill + 4dF vs the wound's difficulty. Each degree of
    success (rolled - difficulty, if positive) takes a day off the wound's interval; failing
    by more than three is a complication (PROPOSED: the wound worsens one level, A-31)."""
    margin = surgeon_skill + roll - wound_difficulty(severity)
    return Surgery(max(margin, 0), margin < -3)


def roll_surgery(surgeon_skill: int, severity: int, rng: random.Random) -> Surgery:
    """Sample :func:`surgery`."""
    return surgery(surgeon_skill, roll_4df(rng), severity)


def surgery_outcomes(surgeon_skill: int, severity: int) -> Distribution[Surgery]:
    """Exact distribution of :func:`roll_surgery`."""
    merged: dict[Surgery, Fraction] = {}
    for r, p in fudge_distribution(4):
        k = surgery(surgeon_skill, r, severity)
        merged[k] = merged.get(k, Fraction(0)) + p
    return list(merged.items())


def care_degrees(provider_skill: int, roll: int, severity: int, setting: int = 0) -> int:
    """Long-term care degrees for one interval: (skill + setting + 4dF) - difficulty of the
    wound's current level, if positive. ``setting``: hospital +1/+2, care on the march
    -1/-2 (PROPOSED)."""
    return max(provider_skill + setting + roll - wound_difficulty(severity), 0)


@dataclass(frozen=True, slots=True)
class FirstAid:
    """What first aid immediately after an injury does."""

    heals_scratches: bool
    reduces_level: bool
    stabilises: bool


def first_aid(rolled: int, severity: int, *, simple_wound: bool = False) -> FirstAid:
    """First aid (FADAD): a Fair result heals Scratches (10-20 minutes each); Good reduces a
    simple wound (broken bone, arrow) one level (GM's call: ``simple_wound``); a Fair result
    stabilises a Near Death victim (PROPOSED, A-31)."""
    return FirstAid(
        heals_scratches=rolled >= 0,
        reduces_level=simple_wound and rolled >= 1 and Wound.HURT <= severity < Wound.NEAR_DEATH,
        stabilises=severity >= Wound.NEAR_DEATH and rolled >= 0,
    )


# --- FUDGE ------------------------------------------------------------------------------


def fudge_healing_levels(rolled: int) -> int:
    """Levels a healing-skill result heals: Good 1, Great 2, Superb (or better) 3."""
    return max(0, min(rolled, 3))


def fudge_heal_severities(severities: Sequence[int], levels: int) -> tuple[int, ...]:
    """Each wound loses ``levels`` levels; Scratches do not count as a level, so a wound
    reaching Scratch is healed (one level fully heals a Hurt). Returns the wounds left."""
    out = []
    for sev in severities:
        left = sev - levels
        if left >= Wound.HURT:
            out.append(left)
    return tuple(out)


def fudge_heal_track(
    track: WoundTrack, rolled: int, *, overflow_past_near_death: Overflow = "dead"
) -> WoundTrack:
    """The track once a healing-skill result ``rolled`` has taken effect (EX-WND-18)."""
    left = fudge_heal_severities(track.severities, fudge_healing_levels(rolled))
    return rebuild(track, left, overflow_past_near_death=overflow_past_near_death)


_STEP_DIFFICULTY = {2: 0, 3: 1, 4: 2}  # Constitution: Fair for Hurt, Good VH, Great Incap


def natural_step_difficulty(severity: int) -> int | None:
    """Constitution difficulty to heal one level naturally from ``severity`` (SEED 001):
    Hurt Fair, Very Hurt Good, Incapacitated Great; None for Near Death (needs care)."""
    return _STEP_DIFFICULTY.get(severity)


def fudge_natural_week(
    severity: int,
    *,
    weeks_at_level: int = 0,
    constitution_rolled: int | None = None,
    medical_care: bool = True,
) -> int:
    """True severity after one more week of rest (0 = healed).

    One level a week; with the optional Constitution roll (``constitution_rolled``), a
    failed roll means no progress that week (A-32). Near Death reaches Incapacitated only
    with medical care, after two weeks (A-32): ``weeks_at_level`` counts the weeks it has
    already spent at Near Death.
    """
    if severity <= Wound.SCRATCH:
        return 0
    if severity >= Wound.NEAR_DEATH:
        if medical_care and weeks_at_level + 1 >= 2:
            return Wound.INCAPACITATED
        return severity
    difficulty = _STEP_DIFFICULTY[severity]
    if constitution_rolled is not None and constitution_rolled < difficulty:
        return severity
    left = severity - 1
    return left if left >= Wound.HURT else 0


def roll_fudge_natural_week(
    severity: int,
    constitution: int,
    rng: random.Random,
    *,
    weeks_at_level: int = 0,
    medical_care: bool = True,
) -> int:
    """Sample :func:`fudge_natural_week` with a Constitution roll (trait + 4dF)."""
    if severity >= Wound.NEAR_DEATH or severity <= Wound.SCRATCH:
        return fudge_natural_week(
            severity, weeks_at_level=weeks_at_level, medical_care=medical_care
        )
    return fudge_natural_week(severity, constitution_rolled=constitution + roll_4df(rng))


def fudge_natural_step_chance(constitution: int, severity: int) -> Fraction:
    """Exact chance that a week's Constitution roll lets a wound of ``severity`` improve."""
    difficulty = natural_step_difficulty(severity)
    if difficulty is None:
        return Fraction(0)
    return sum((p for r, p in fudge_distribution(4) if constitution + r >= difficulty), Fraction(0))


def fudge_natural_days(severity: int, *, medical_care: bool = True) -> int | None:
    """Days of rest until healed without Constitution rolls: Hurt 7, Very Hurt 14,
    Incapacitated 21, Near Death 14 + 21 = 35 with care (None without: it never improves).
    Scratches are gone after the battle (0 days)."""
    if severity <= Wound.SCRATCH:
        return 0
    if severity >= Wound.NEAR_DEATH:
        return 14 + 21 if medical_care else None
    return 7 * (severity - 1)


# --- dispatch (C-09) --------------------------------------------------------------------


def days_to_heal(
    track: WoundTrack, model: HealingModel = "fadad", healing_attribute: int = 0
) -> tuple[int | None, ...]:
    """Days each recorded wound needs to heal fully with rest (and care for Near Death),
    in :attr:`WoundTrack.marks` order, under ``healing_model`` (C-09)."""
    if model == "fadad":
        return tuple(fadad_days_to_heal(s, healing_attribute) for s in track.severities)
    return tuple(fudge_natural_days(s) for s in track.severities)


def fudge_remaining_severity(severity: int, days: int, *, medical_care: bool = True) -> int:
    """True severity of a wound after ``days`` of rest under FUDGE natural healing (0 =
    healed): one level a week (no Constitution roll, A-32 makes it optional), Near Death
    to Incapacitated in two weeks with care; Scratches are gone after the battle (as
    :func:`fudge_natural_days` counts them: 0 days)."""
    if severity <= Wound.SCRATCH:
        return 0
    weeks_at_level = 0
    for _ in range(days // 7):
        left = fudge_natural_week(
            severity, weeks_at_level=weeks_at_level, medical_care=medical_care
        )
        weeks_at_level = weeks_at_level + 1 if left == severity else 0
        severity = left
        if not severity:
            break
    return severity


def heal_track(
    track: WoundTrack,
    days: int,
    model: HealingModel = "fadad",
    healing_attribute: int = 0,
    *,
    overflow_past_near_death: Overflow = "dead",
) -> WoundTrack:
    """The track after ``days`` of rest with care, each wound on its own clock, under
    ``healing_model`` (C-09): FADAD :func:`fadad_heal_track`, FUDGE
    :func:`fudge_remaining_severity` per wound. The dead do not heal."""
    if model == "fadad":
        return fadad_heal_track(
            track, days, healing_attribute, overflow_past_near_death=overflow_past_near_death
        )
    left = tuple(fudge_remaining_severity(s, days) for s in track.severities)
    return rebuild(
        track, tuple(s for s in left if s), overflow_past_near_death=overflow_past_near_death
    )
