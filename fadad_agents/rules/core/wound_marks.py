"""Wound marks written down between battles: a track's boxes as a GM reads them, and back.

A campaign carries each survivor's wound track from one battle to the next
(``wounds-and-healing.md`` §6, §13). On paper a mark is the box it sits in and, when the
two differ, the true severity of the blow (an "H" in the Incapacitated box heals as a
Hurt, SEED 001 §4.57). :func:`level_of` reads a level's name, :func:`with_marks` puts
marks on an empty track exactly where they were. The names are passed in, so ship damage
tracks (Scratched, Lightly Damaged ... Wrecked) use the same functions as wound tracks.

>>> from fadad_agents.rules.core.wounds import new_track
>>> t = with_marks(new_track("standard"), [(2, 2), (4, 2)])
>>> t.level.label, t.severities
('Incapacitated', (2, 2))
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from fadad_agents.rules.core.wounds import WoundTrack, WoundTrackError

__all__ = ["WOUND_LEVELS", "level_of", "with_marks"]

WOUND_LEVELS = ("Scratch", "Hurt", "Very Hurt", "Incapacitated", "Near Death")
"""Names of the wound levels with boxes, Scratch (1) .. Near Death (5)."""


def _key(name: str) -> str:
    return "".join(ch for ch in name.lower() if ch.isalnum())


def level_of(name: str, levels: Sequence[str] = WOUND_LEVELS) -> int:
    """The level (1..5) a name stands for: ``"Very Hurt"``, ``"very_hurt"`` or
    ``"veryhurt"``; raises WoundTrackError naming the allowed names."""
    for i, level in enumerate(levels, start=1):
        if _key(level) == _key(name):
            return i
    raise WoundTrackError(f"{name!r} is not a level (allowed: {', '.join(levels)})")


def with_marks(
    track: WoundTrack, marks: Iterable[tuple[int, int]], levels: Sequence[str] = WOUND_LEVELS
) -> WoundTrack:
    """``track`` (empty) with each ``(box level, true severity)`` mark where it was written.

    A blow may sit in a higher box (overflow) or a lower one (a folded track: npc3 writes a
    Very Hurt in its Hurt box). Raises WoundTrackError when a level holds more marks than
    it has boxes."""
    filled = list(track.filled)
    kept = list(track.marks)
    for box, severity in marks:
        if not (1 <= severity <= 5 and 1 <= box <= 5):
            raise WoundTrackError(f"no level {box if severity in range(1, 6) else severity}")
        filled[box - 1] += 1
        if filled[box - 1] > track.boxes[box - 1]:
            raise WoundTrackError(
                f"{filled[box - 1]} marks at {levels[box - 1]}, but the track has "
                f"{track.boxes[box - 1]} box{'es' if track.boxes[box - 1] != 1 else ''} there"
            )
        kept.append((box, severity))
    return WoundTrack(
        track.kind, track.boxes, (filled[0], filled[1], filled[2], filled[3], filled[4]),
        tuple(kept), track.dead,
    )  # fmt: skip
