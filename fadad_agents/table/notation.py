"""Table dice notation: what a GM types for a roll, and how a roll is shown.

* Fudge dice: the faces, one ``+``, ``-`` or ``0`` a die (``+-0+``), or the total
  (``+2``, ``-1``, ``0``);
* numbered dice: the dice (``3 9``), or, for more than one die whose total is all that
  counts, the total (``12``); ``d100`` takes ``00`` as 100;
* dice the rules read one by one (Min-Mid-Max 3d6): every die (``2 4 4``), in any order.

>>> from fadad_agents.rules.core.dice import Die
>>> parse_roll(Die(4, 0), "+-0+"), parse_roll(Die(4, 0), "+2")
(1, 2)
>>> parse_roll(Die(2, 10), "3 9"), parse_roll(Die(3, 6, each=True), "4 2 4")
(12, (2, 4, 4))
"""

from __future__ import annotations

import re
from typing import Any

from fadad_agents.rules.core.dice import Die

__all__ = ["AnswerError", "allowed", "parse_roll", "show_roll"]


class AnswerError(ValueError):
    """An entry that answers no question asked (the message says what is allowed)."""


_NUMBERS = ("one", "two", "three", "four", "five", "six")
_FACES = {"+": 1, "-": -1, "0": 0}


def _count(n: int) -> str:
    return _NUMBERS[n - 1] if 0 < n <= len(_NUMBERS) else str(n)


def allowed(die: Die) -> str:
    """What may be entered for ``die``, in one phrase."""
    n, sides = die.number, die.faces
    if sides == 0:
        example = ("+-0+-0" * n)[:n]
        faces = "+, - or 0" if n == 1 else f"{_count(n)} faces of +, - and 0 (like {example})"
        return f"{die}: {faces} or the total from -{n} to +{n}"
    if n == 1:
        extra = " (00 for 100)" if sides == 100 else ""
        return f"{die}: a number from 1 to {sides}{extra}"
    dice = f"{_count(n)} dice from 1 to {sides}"
    example = " ".join(str(1 + (3 * i + 2) % sides) for i in range(n))
    if die.each:
        return f"{die}: the {dice}, like {example}"
    return f"{die}: {dice} (like {example}) or their total from {n} to {n * sides}"


class _Refused(ValueError):
    pass


def parse_roll(die: Die, text: str) -> Any:
    """The roll ``text`` enters for ``die``: a total, or the sorted dice when ``die.each``.

    Raises:
        AnswerError: ``text`` is no roll of ``die`` (the message says what is allowed).
    """
    try:
        return _fudge(die, text) if die.faces == 0 else _numbered(die, text)
    except _Refused:
        raise AnswerError(f"{text.strip()!r} is not a roll of {allowed(die)}") from None


def _fudge(die: Die, text: str) -> int:
    squeezed = text.replace(" ", "").replace("\u2212", "-")
    if (
        len(squeezed) == die.number
        and set(squeezed) <= set(_FACES)
        and not (die.number > 1 and squeezed in ("+0", "-0"))
    ):
        return sum(_FACES[c] for c in squeezed)
    if re.fullmatch(r"[+-]?\d+", squeezed):
        total = int(squeezed)
        if -die.number <= total <= die.number:
            return total
    raise _Refused


def _numbered(die: Die, text: str) -> Any:
    words = [w for w in re.split(r"[\s,]+", text.strip()) if w]
    if not words or not all(w.isdigit() for w in words):
        raise _Refused
    values = [100 if die.faces == 100 and w == "00" else int(w) for w in words]
    if len(values) == die.number and all(1 <= v <= die.faces for v in values):
        return tuple(sorted(values)) if die.each else sum(values)
    if len(values) == 1 and not die.each and die.number <= values[0] <= die.number * die.faces:
        return values[0]
    raise _Refused


def show_roll(die: Die, roll: Any) -> str:
    """A roll as the table writes it: ``+2``, ``0``, ``17``, ``2 4 4``."""
    if die.each:
        return " ".join(str(v) for v in roll)
    if die.faces == 0:
        return f"{int(roll):+d}" if roll else "0"
    return str(int(roll))
