"""Suggestions for misspelt names: the nearest allowed words (difflib).

>>> nearest("Grate", ["Good", "Great", "Superb"])
['Great']
>>> did_you_mean("focus_fir", ["focus_fire", "nearest"])
"; did you mean 'focus_fire'?"
"""

from __future__ import annotations

import difflib

__all__ = ["did_you_mean", "nearest"]


def nearest(word: str, choices: list[str] | tuple[str, ...], n: int = 3) -> list[str]:
    """The choices closest to ``word`` (difflib), best first."""
    return difflib.get_close_matches(word, list(choices), n=n, cutoff=0.5)


def did_you_mean(word: str, choices: list[str] | tuple[str, ...]) -> str:
    """The nearest choice as "; did you mean 'x'?", or nothing."""
    close = nearest(word, choices, n=1)
    return f"; did you mean {' or '.join(repr(c) for c in close)}?" if close else ""
