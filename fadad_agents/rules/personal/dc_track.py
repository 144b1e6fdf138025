"""Damage Capacity as the wound track (``wounds-and-healing.md`` §6.4, option
``wound_track = "dc_attribute"``; RECOVERED from the FUDGE SRD, not in the seeds).

Damage Capacity is then not a damage factor. Each hit worse than a Scratch lowers the DC
attribute one level (PROPOSED option: one level per wound level above Scratch for severe
hits); Scratches accumulate, three making one hit (PROPOSED default). At Mediocre the
character is Hurt (-1), at Poor Very Hurt (-2), at Terrible -3 (or Incapacitated, GM),
below Terrible Incapacitated or worse (PROPOSED: -4 Incapacitated, -5 Near Death, -6 or
lower Dead). A character whose undamaged DC is already Mediocre or lower is unaffected
until hit. Healing never raises DC above its undamaged level.

>>> t = dc_record(new_dc_track(1), Wound.HURT)       # Good DC -> Fair: wounded, no penalty
>>> (t.current, t.penalty, t.level.label)
(0, 0, 'Scratch')
>>> dc_record(t, Wound.HURT).penalty                    # Fair -> Mediocre: Hurt
-1
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import ClassVar

from fadad_agents.rules.core.ladder import label
from fadad_agents.rules.core.wounds import Wound, WoundTrack
from fadad_agents.rules.personal.healing import fadad_days_to_heal

__all__ = [
    "DcTrack",
    "Track",
    "dc_days_to_heal",
    "dc_heal",
    "dc_record",
    "dc_record_blow",
    "new_dc_track",
]


@dataclass(frozen=True, slots=True)
class DcTrack:
    """Damage Capacity used as the wound track.

    Attributes:
        undamaged: the DC attribute when unhurt (ladder value).
        current: the DC attribute now.
        scratches: Scratches not yet converted into a lost level.
        terrible_incapacitates: the GM's reading of Terrible DC: Incapacitated, not -3.
    """

    undamaged: int
    current: int
    scratches: int = 0
    terrible_incapacitates: bool = False

    kind: ClassVar[str] = "dc_attribute"
    """The ``wound_track`` it plays (read where a box track's kind is)."""
    marks: ClassVar[tuple[()]] = ()
    """No box marks: a lost level is no wound of its own (read where a box track's are)."""

    @property
    def hit(self) -> bool:
        """Whether the DC has dropped at all."""
        return self.current < self.undamaged

    @property
    def level(self) -> Wound:
        """Equivalent wound level (for out-of-fight checks and narration)."""
        c = self.current
        if not self.hit:
            return Wound.SCRATCH if self.scratches else Wound.UNDAMAGED
        if c >= 0:
            return Wound.SCRATCH
        if c == -1:
            return Wound.HURT
        if c == -2:
            return Wound.VERY_HURT
        if c == -3:
            return Wound.INCAPACITATED if self.terrible_incapacitates else Wound.VERY_HURT
        if c == -4:
            return Wound.INCAPACITATED
        return Wound.NEAR_DEATH if c == -5 else Wound.DEAD

    @property
    def penalty(self) -> int:
        """Mediocre -1, Poor -2, Terrible -3; nothing until the DC has dropped."""
        if not self.hit or self.current >= 0:
            return 0
        return max(self.current, -3)

    @property
    def out_of_fight(self) -> bool:
        """Incapacitated or worse."""
        return self.level >= Wound.INCAPACITATED

    @property
    def dead(self) -> bool:
        """Dead (below Terrible by three or more, or a killing blow)."""
        return self.level >= Wound.DEAD

    @property
    def state(self) -> str:
        """How a GM reads it aloud: ``"Mediocre (Hurt)"``."""
        return f"{label(self.current)} ({self.level.label})"


type Track = WoundTrack | DcTrack
"""What a personal blow is recorded on: wound boxes, or the Damage-Capacity track."""


def new_dc_track(damage_capacity: int, *, terrible_incapacitates: bool = False) -> DcTrack:
    """An unhurt DC track."""
    return DcTrack(damage_capacity, damage_capacity, 0, terrible_incapacitates)


def dc_record(
    track: DcTrack,
    wound: int,
    *,
    scratches_per_hit: int = 3,
    by_severity: bool = False,
) -> DcTrack:
    """Record a wound: lose one DC level per hit worse than a Scratch (``by_severity``: one
    per level above Scratch); every ``scratches_per_hit`` Scratches lose one level."""
    if wound <= Wound.UNDAMAGED:
        return track
    if wound == Wound.SCRATCH:
        n = track.scratches + 1
        lost, n = divmod(n, scratches_per_hit)
        return DcTrack(track.undamaged, track.current - lost, n, track.terrible_incapacitates)
    lost = wound - 1 if by_severity else 1
    if wound >= Wound.DEAD:
        lost = track.current + 6  # killing blow: straight to Dead
    return DcTrack(
        track.undamaged, track.current - lost, track.scratches, track.terrible_incapacitates
    )


def dc_heal(track: DcTrack, levels: int) -> DcTrack:
    """Heal ``levels`` DC levels (Scratches cleared), never above the undamaged DC."""
    current = min(track.current + max(levels, 0), track.undamaged)
    return DcTrack(track.undamaged, current, 0, track.terrible_incapacitates)


def dc_record_blow(
    track: DcTrack, wound: int, *, vitals: int = 0, max_level: int = Wound.DEAD
) -> DcTrack:
    """Record a blow as combat does: the wound (:func:`dc_record`), then one more lost level
    per Vitals crit once it is recorded (wounds-and-healing.md 10); the whole capped so the
    track ends no worse than ``max_level`` (a pulled punch, the PC-death options), a track
    already past the cap losing nothing more.

    >>> dc_record_blow(new_dc_track(0), Wound.HURT, vitals=1).state
    'Poor (Very Hurt)'
    >>> dc_record_blow(new_dc_track(0), Wound.NEAR_DEATH, max_level=Wound.SCRATCH).current
    0
    """
    new = dc_record(track, wound)
    if wound > Wound.UNDAMAGED:
        for _ in range(vitals):
            new = dc_record(new, Wound.HURT)
    if new.level <= max_level:
        return new
    current = new.current
    while current < track.current and replace(new, current=current).level > max_level:
        current += 1
    return replace(new, current=current)


def dc_days_to_heal(track: DcTrack, model: str = "fadad", healing_attribute: int = 0) -> int:
    """Days of rest until the DC is back at its undamaged level (PROPOSED, section 6.4 with
    13): it climbs back one level at a time, each level healing as a Hurt does (FADAD: one
    14 - ``healing_attribute`` day interval; FUDGE: a week); Scratches alone heal as
    Scratches (FADAD a day, FUDGE after the battle)."""
    lost = track.undamaged - track.current
    if model != "fadad":
        return lost * _FUDGE_WEEK
    if lost:
        return lost * fadad_days_to_heal(Wound.HURT, healing_attribute)
    return fadad_days_to_heal(Wound.SCRATCH) if track.scratches else 0


_FUDGE_WEEK = 7
"""FUDGE natural healing: one wound level a week of rest (13.1)."""
