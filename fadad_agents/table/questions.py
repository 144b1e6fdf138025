"""What a table session asks the game master, and the answers it keeps.

Two kinds of question: a :class:`Decision` of a controlled fighter (the legal choices,
numbered, the fighter's own policy's choice the default) and a :class:`Roll` of table
dice (what is rolled, for whom, the die rolled from the seed the default). Both parse
what the GM typed into an :class:`Answer`, the unit a session keeps, saves and replays;
a wrong entry raises :class:`AnswerError` with one line saying what is allowed.

A blank answer takes the default: a session answered only with blanks is the battle
``fadad run`` plays.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from fadad_agents.rules.core.dice import Die
from fadad_agents.table.notation import AnswerError, parse_roll, show_roll

__all__ = ["Answer", "AnswerError", "Choice", "Decision", "Question", "Roll"]


@dataclass(frozen=True, slots=True)
class Answer:
    """One answer as a session keeps it.

    Attributes:
        round: the round the question was asked in.
        who: whose decision or roll it was.
        ask: what was asked (the decision kind, or ``dice`` and what the roll is for).
        text: the answer in canonical form (a choice number, or the dice as entered
            canonically: ``+2``, ``17``, ``3 9``).
        auto: given by ``auto`` (the policies until the end of the round), not typed.
    """

    round: int
    who: str
    ask: str
    text: str
    auto: bool = False

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready mapping (the ``auto`` flag only when set)."""
        data: dict[str, Any] = {
            "round": self.round,
            "who": self.who,
            "ask": self.ask,
            "answer": self.text,
        }
        if self.auto:
            data["auto"] = True
        return data


@dataclass(frozen=True, slots=True)
class Choice:
    """One legal choice: how the GM reads it, and what the policy call returns for it."""

    label: str
    value: Any


class Question:
    """Something the session asks; :class:`Decision` and :class:`Roll` are the two kinds."""

    round: int
    who: str

    @property
    def ask(self) -> str:
        """The kind of question, as the answer log records it."""
        raise NotImplementedError

    @property
    def text(self) -> str:
        """The question in one line."""
        raise NotImplementedError

    def lines(self) -> list[str]:
        """The question as shown: its text, then its choices (if any)."""
        return [self.text]

    def parse(self, entry: str) -> Answer:
        """The answer for what the GM typed (blank: the default).

        Raises:
            AnswerError: the entry fits no choice or is no roll of this die.
        """
        raise NotImplementedError

    def value(self, answer: Answer) -> Any:
        """What the engine gets for an answer :meth:`parse` made."""
        raise NotImplementedError

    def default(self, *, auto: bool = False) -> Answer:
        """The answer a blank line gives (the policy's choice, the seed's die)."""
        answer = self.parse("")
        return Answer(answer.round, answer.who, answer.ask, answer.text, auto) if auto else answer


@dataclass(frozen=True, slots=True)
class Decision(Question):
    """A decision of a controlled fighter, crew or ship.

    Attributes:
        round: the round it is taken in.
        who: the controlled agent's name.
        kind: the decision (``targeting``, ``stance``, ``maneuver`` ...).
        prompt: what is decided, e.g. ``whom does Snorri attack?``.
        choices: the legal choices, in the order they are numbered (from 1).
        default: index of the policy's own choice.
    """

    round: int
    who: str
    kind: str
    prompt: str
    choices: tuple[Choice, ...]
    default_index: int

    @property
    def ask(self) -> str:
        return self.kind

    @property
    def text(self) -> str:
        return f"{self.prompt} [{self.default_index + 1}]"

    def lines(self) -> list[str]:
        marks = ["*" if i == self.default_index else " " for i in range(len(self.choices))]
        return [
            self.text,
            *(
                f" {m}{i + 1}. {c.label}"
                for i, (m, c) in enumerate(zip(marks, self.choices, strict=True))
            ),
        ]

    def parse(self, entry: str) -> Answer:
        text = entry.strip()
        if not text:
            index = self.default_index
        elif text.isdigit() and 1 <= int(text) <= len(self.choices):
            index = int(text) - 1
        else:
            index = self._by_label(text)
        return Answer(self.round, self.who, self.kind, str(index + 1))

    def _by_label(self, text: str) -> int:
        """The one choice whose label starts with ``text`` (case-insensitive)."""
        wanted = text.casefold()
        found = [i for i, c in enumerate(self.choices) if c.label.casefold().startswith(wanted)]
        if len(found) == 1:
            return found[0]
        raise AnswerError(
            f"{text!r} is not a choice: answer 1-{len(self.choices)}, the start of a choice's "
            "name, or nothing for the default"
        )

    def value(self, answer: Answer) -> Any:
        return self.choices[int(answer.text) - 1].value

    @property
    def labels(self) -> list[str]:
        """The choices' labels, in order (for completion and buttons)."""
        return [c.label for c in self.choices]


@dataclass(frozen=True, slots=True)
class Roll(Question):
    """Dice the GM rolls at the table for a fighter (or for the battle).

    Attributes:
        round: the round it is rolled in.
        who: whose roll it is.
        die: what is rolled (4dF, d20, 2d10 ...).
        purpose: what it is for (``attack``, ``defence``, ``damage``, ``initiative`` ...).
        rolled: the roll the seed gives (a blank answer takes it), in the shape the
            engine reads: a total, or the sorted dice of a Min-Mid-Max roll.
    """

    round: int
    who: str
    die: Die
    purpose: str
    rolled: Any

    @property
    def ask(self) -> str:
        return f"dice {self.purpose}"

    @property
    def text(self) -> str:
        return (
            f"{self.who} rolls {self.die} for {self.purpose} [{show_roll(self.die, self.rolled)}]"
        )

    def parse(self, entry: str) -> Answer:
        text = entry.strip()
        value = self.rolled if not text else parse_roll(self.die, text)
        return Answer(self.round, self.who, self.ask, show_roll(self.die, value))

    def value(self, answer: Answer) -> Any:
        return parse_roll(self.die, answer.text)
