"""The open-ended FUDGE trait ladder: integer values with adjective labels.

The kernel stores every trait as an int; labels are for display and parsing only
(``dice-and-ladder.md`` section 1).

>>> label(2), label(-4), label(5), label(-6)
('Great', 'Terrible-1', 'Legendary+1', 'Terrible-3')
>>> parse("Great-2"), parse("Terrible-1"), parse("Legendary+1"), parse("+3")
(0, -4, 5, 3)
"""

from __future__ import annotations

import re

__all__ = [
    "FAIR",
    "GOOD",
    "GREAT",
    "LABELS",
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
    ``"+3"``, ``"-1"`` and plain ints. Raises :class:`LadderError` otherwise.
    """
    if isinstance(text, bool):
        raise LadderError(f"{text!r} is not a ladder level (Terrible..Legendary+N)")
    if isinstance(text, int):
        return text
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
    offset = int(digits) if digits else 0
    return base - offset if sign == "-" else base + offset
