"""The game master's side of ``fadad play``: narration out, questions asked, answers read.

The battle's narration goes to standard output as it happens, line for line what
``fadad run`` prints; everything said to the GM (each round's combatants, the questions
with their numbered choices, refusals, confirmations) goes to standard error. So a
session answered with blanks prints on standard output exactly the battle ``fadad run``
prints, and ``fadad play ... > battle.txt`` keeps the battle.

Answers come from a reader: in a terminal a prompt_toolkit prompt (history, completion
of the choices and commands); otherwise one line of standard input per answer, so a
session can be scripted. Besides an answer the GM may type ``undo``, ``auto``,
``save PATH``, ``status``, ``help`` or ``quit``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TextIO

from fadad_agents.cli.output import shown
from fadad_agents.engine import BattleResult, narrate
from fadad_agents.engine.core.report import header_lines
from fadad_agents.table import (
    Answer,
    AnswerError,
    Decision,
    Question,
    SessionError,
    TableSession,
    Undo,
    save_session,
    status_lines,
)

__all__ = ["COMMANDS", "Console", "InputEnded", "Quit", "line_reader", "terminal_reader"]

COMMANDS: dict[str, str] = {
    "undo": "take back the last answer",
    "auto": "the controlled ones act by their policies (and roll by the seed) to the round's end",
    "save PATH": "write the session to PATH (fadad resume PATH goes on from here)",
    "status": "show every combatant's state",
    "help": "show these commands",
    "quit": "stop here",
}
"""What the GM may type besides an answer."""

type Reader = Callable[[str, Question], str | None]
"""``read(prompt, question)``: one line the GM typed, or None when input has ended."""


class Quit(Exception):
    """The GM typed ``quit``."""


class InputEnded(Exception):
    """Standard input ended while a question was waiting."""


class Console:
    """Plays a :class:`TableSession` with a GM reading and answering.

    Args:
        session: the session (fresh or resumed).
        read: where answers come from.
        out: prints one line of narration (standard output).
        say: prints one line to the GM (standard error).
        echo: repeat each answer read after its prompt (when input is not a terminal).
    """

    def __init__(
        self,
        session: TableSession,
        read: Reader,
        out: Callable[[str], Any],
        say: Callable[[str], Any],
        *,
        echo: bool = False,
    ) -> None:
        self.session = session
        self.read = read
        self.out = out
        self.say = say
        self.echo = echo
        self.narrated = 0
        self.round_shown: int | None = None

    def play(self) -> BattleResult:
        """Play to the end (raises :class:`Quit` or :class:`InputEnded` to stop early)."""
        for line in [*header_lines(self.session.battle), ""]:  # as `fadad run` opens
            self.out(shown(line))
        result = self.session.play(self.ask)
        self.narrate_new()
        for line in ["", *result.tally, result.summary()]:  # and closes
            self.out(shown(line))
        self.say("-- the end --")
        self.status()
        return result

    def narrate_new(self) -> None:
        """Print the narration of what happened since the last call (after an undo, go
        on from where the replayed battle stands)."""
        log = self.session.battle.log
        events = log.events
        self.narrated = min(self.narrated, len(events))
        for event in events[self.narrated :]:
            self.out(shown(narrate(event, log.plural, log.round_seconds, log.round_word)))
        self.narrated = len(events)

    def status(self) -> None:
        """Print every combatant's state."""
        for line in status_lines(self.session.battle):
            self.say(shown(line))

    def ask(self, question: Question) -> Answer:
        """Put ``question`` to the GM until an answer fits (the session's ``ask``)."""
        self.narrate_new()
        if question.round != self.round_shown:
            self.round_shown = question.round
            self.say(f"-- {self.session.battle.log.round_word.lower()} {question.round} --")
            self.status()
        for line in question.lines():
            self.say(shown(line))
        while True:
            entry = self.read("> ", question)
            if entry is None:
                raise InputEnded
            if self.echo:
                self.say(f"> {shown(entry)}")
            answer = self._command(entry.strip(), question)
            if answer is not None:
                return answer

    def _command(self, entry: str, question: Question) -> Answer | None:
        """An answer for ``entry``; None after a command that asks again."""
        word, _, rest = entry.partition(" ")
        if word == "undo" and not rest:
            if not self.session.answers:
                self.say("nothing to undo: no answer has been given yet")
                return None
            taken = self.session.answers[-1]
            self.say(f"undone: {taken.ask} of {shown(taken.who)} (round {taken.round})")
            self.round_shown = None
            raise Undo
        if word == "auto" and not rest:
            return self.session.auto_answer(question)
        if word == "save":
            self._save(rest.strip())
            return None
        if word == "quit" and not rest:
            raise Quit
        if word == "status" and not rest:
            self.status()
            return None
        if word in ("help", "?") and not rest:
            for name, what in COMMANDS.items():
                self.say(f"  {name:<10} {what}")
            self.say("  or a choice's number or name, or nothing for the one in [brackets]")
            return None
        try:
            return question.parse(entry)
        except AnswerError as exc:
            self.say(shown(str(exc)))
            return None

    def _save(self, path: str) -> None:
        if not path:
            self.say("save needs a file: save PATH")
            return
        try:
            saved = save_session(self.session, Path(path))
        except SessionError as exc:
            self.say(shown(str(exc)))
            return
        self.say(f"saved {len(self.session.answers)} answers to {shown(str(saved))} "
                 f"(fadad resume {shown(str(saved))} goes on from here)")  # fmt: skip


def line_reader(stream: TextIO) -> Reader:
    """Answers from ``stream``, one per line (scripts, tests, pipes)."""
    lines: Iterator[str] = iter(stream)

    def read(prompt: str, question: Question) -> str | None:
        line = next(lines, None)
        return None if line is None else line.rstrip("\r\n")

    return read


def terminal_reader() -> Reader:
    """Answers typed at a prompt_toolkit prompt: history (up arrow), and completion of the
    choices' names and the commands (Tab)."""
    from prompt_toolkit import PromptSession
    from prompt_toolkit.completion import WordCompleter

    prompt_session: PromptSession[str] = PromptSession()

    def read(prompt: str, question: Question) -> str | None:
        words = [*question.labels] if isinstance(question, Decision) else []
        words += [c.split()[0] for c in COMMANDS]
        completer = WordCompleter(words, ignore_case=True, sentence=True)
        try:
            return prompt_session.prompt(prompt, completer=completer)
        except EOFError:
            return None
        except KeyboardInterrupt:
            return "quit"

    return read
