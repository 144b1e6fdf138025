"""The open-ended FUDGE trait ladder: integer values with adjective labels.

The kernel stores every trait as an int; labels are for display and parsing only
(``dice-and-ladder.md`` section 1).

>>> label(2), label(-4), label(5), label(-6)
('Great', 'Terrible-1', 'Legendary+1', 'Terrible-3')
>>> parse("Great-2"), parse("Terrible-1"), parse("Legendary+1"), parse("+3")
(0, -4, 5, 3)

The ladder is open-ended, but a file's levels stay within :data:`LADDER_MIN` ..
:data:`LADDER_MAX`: two levels 8 apart already decide an opposed 4dF roll whatever the
dice show, so nothing beyond changes a battle except how long a hit takes to score its
crits (one per 4 RD).
"""

from __future__ import annotations

import re

__all__ = [
    "FAIR",
    "GOOD",
    "GREAT",
    "LABELS",
    "LADDER_MAX",
    "LADDER_MIN",
    "LEGENDARY",
    "MEDIOCRE",
    "POOR",
    "SUPERB",
    "TERRIBLE",
    "LadderError",
    "describe",
    "label",
    "parse",
]

TERRIBLE, POOR, MEDIOCRE, FAIR, GOOD, GREAT, SUPERB, LEGENDARY = range(-3, 5)

LABELS: dict[int, str] = {
    TERRIBLE: "Terrible",
    POOR: "Poor",
    MEDIOCRE: "Mediocre",
    FAIR: "Fair",
    GOOD: "Good",
    GREAT: "Great",
    SUPERB: "Superb",
    LEGENDARY: "Legendary",
}
LADDER_MIN = -20
"""The lowest level a file may give: Terrible-17."""
LADDER_MAX = 20
"""The highest level a file may give: Legendary+16."""

_BY_NAME = {name.lower(): value for value, name in LABELS.items()}
# Other FUDGE writers' names for -4 (RECOVERED, dice-and-ladder.md section 1).
_BY_NAME.update({"abysmal": -4, "miserable": -4})

_PATTERN = re.compile(r"^\s*([A-Za-z]+)?\s*(?:([+-])\s*(\d+))?\s*$")


class LadderError(ValueError):
    """A text is not a level of the trait ladder."""


def label(value: int) -> str:
    """The ladder label of an integer value; open-ended beyond Terrible and Legendary."""
    if value > LEGENDARY:
        return f"Legendary+{value - LEGENDARY}"
    if value < TERRIBLE:
        return f"Terrible-{TERRIBLE - value}"
    return LABELS[value]


def describe(value: int) -> str:
    """Label with the signed value, as the seeds print it: ``Great (+2)``."""
    return f"{label(value)} ({value:+d})"


def parse(text: str | int) -> int:
    """Parse a ladder level: a label, a label with an offset, or a signed integer.

    Accepts ``"Great"``, ``"great"``, ``"Great-2"``, ``"Terrible-1"``, ``"Legendary+1"``,
    ``"+3"``, ``"-1"`` and plain ints within :data:`LADDER_MIN` .. :data:`LADDER_MAX`.
    Raises :class:`LadderError` otherwise.
    """
    if isinstance(text, bool):
        raise LadderError(f"{text!r} is not a ladder level (Terrible..Legendary+N)")
    if isinstance(text, int):
        return _bounded(text, text)
    match = _PATTERN.match(text)
    if not match or not (match.group(1) or match.group(3)):
        raise LadderError(f"{text!r} is not a ladder level (Terrible..Legendary+N)")
    word, sign, digits = match.groups()
    base = 0
    if word is not None:
        try:
            base = _BY_NAME[word.lower()]
        except KeyError:
            raise LadderError(f"{text!r} is not a ladder level (Terrible..Legendary+N)") from None
    if digits and len(digits) > 4:  # int() of a huge digit string is slow, then refused
        raise _beyond(text)
    offset = int(digits) if digits else 0
    return _bounded(base - offset if sign == "-" else base + offset, text)


def _bounded(value: int, text: str | int) -> int:
    if not LADDER_MIN <= value <= LADDER_MAX:
        raise _beyond(text)
    return value


def _beyond(text: str | int) -> LadderError:
    shown = repr(text) if len(repr(text)) <= 40 else repr(text)[:36] + "...'"
    return LadderError(
        f"{shown} is beyond the ladder's range ({label(LADDER_MIN)}..{label(LADDER_MAX)}, "
        f"{LADDER_MIN}..{LADDER_MAX:+d})"
    )
