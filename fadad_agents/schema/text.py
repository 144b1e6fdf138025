"""Text from a file that a terminal shows: control characters refused, or escaped.

Names are printed in the narration, in summaries and in messages. A control character in
one (a newline, an ANSI escape sequence, a bidirectional override) could forge a result
line or retitle and clear the terminal. The schema refuses them in names and allows only
newline and tab in free text (:func:`control_problem`); :func:`escaped` shows any that
reach a printout another way (an object built in Python) as a visible escape.

>>> escaped("a\\nB wins"), escaped("\\x1b]0;pwned\\x07"), escaped("Snorri")
('a\\\\nB wins', '\\\\x1b]0;pwned\\\\x07', 'Snorri')
>>> control_problem("Ann\\tLee", allow="\\n\\t") is None, control_problem("Ann\\x1b[2J")
(True, "'Ann\\\\x1b[2J' holds a control character (\\\\x1b); write plain text")
"""

from __future__ import annotations

import re

__all__ = ["CONTROL", "control_problem", "escaped"]

CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
"""C0 and C1 control characters, DEL, line and paragraph separators, and the
bidirectional marks and overrides that reorder what a terminal shows."""


def _escape(match: re.Match[str]) -> str:
    return match.group().encode("unicode_escape").decode("ascii")


def escaped(text: str) -> str:
    """``text`` with every :data:`CONTROL` character written as its escape (``\\n``,
    ``\\x1b``, ``\\u202e``); text without one is returned as it is."""
    if CONTROL.search(text) is None:
        return text
    return CONTROL.sub(_escape, text)


def control_problem(text: str, allow: str = "") -> str | None:
    """Why ``text`` may not be printed as it is (a control character not in ``allow``),
    or None."""
    for match in CONTROL.finditer(text):
        if match.group() not in allow:
            return (
                f"'{escaped(text)}' holds a control character ({_escape(match)}); write plain text"
            )
    return None
