"""A table session: a battle some of whose decisions and dice the game master takes.

DESIGN.md (Table sessions): a session is its scenario, seed, options (who is controlled,
whose dice are rolled at the table) and the list of answers given. A model holding SimPy
generators cannot be copied, so the session never keeps a battle between answers that
matter: :meth:`TableSession.replay` builds the battle afresh from (scenario, seed) and
plays it, feeding it the answers so far, until it ends or asks a question no answer
covers. Battles take milliseconds (the fleet action, the largest shipped, about 0.2 s),
so this is cheap, and it makes undo, resume and what-if exact: the battle at any answer
is the one played from the start with the answers before it.

Two ways to answer:

* :meth:`TableSession.play` with an ``ask`` function (the command line): new questions
  are put to ``ask`` while the battle runs, so a whole session is one play-through;
  ``ask`` raises :class:`Undo` to take an answer back (one replay) or anything else to
  stop (``quit``).
* :meth:`TableSession.answer` (the notebook, tests): the battle stops at the first new
  question (:attr:`TableSession.pending`); each answer replays up to the next one.

Either way a blank answer takes the default (the policy's choice, the die the seed
rolls), so a session answered only with blanks plays exactly the battle ``run`` plays.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Literal

from fadad_agents.engine import Battle, BattleResult, build_battle, load, result_of
from fadad_agents.engine.core.build import scenario_seed
from fadad_agents.engine.core.check import BUILD_ERRORS, scenario_problem
from fadad_agents.rules.core.dice import Die, TableDice
from fadad_agents.rules.personal.combat import Fighter
from fadad_agents.schema.scenario import Scenario
from fadad_agents.table import fae as _fae
from fadad_agents.table import personal as _personal
from fadad_agents.table import ships as _ships
from fadad_agents.table.control import take_control
from fadad_agents.table.questions import Answer, Choice, Decision, Question, Roll

__all__ = [
    "DICE_MODES",
    "DiceMode",
    "SessionError",
    "SessionMismatch",
    "TableSession",
    "Undo",
]

_DECISIONS = (_personal, _ships, _fae)  # imported for their registration of the wrappers

type DiceMode = Literal["auto", "table", "all"]
DICE_MODES: tuple[DiceMode, ...] = ("auto", "table", "all")
"""``auto``: every die from the seed; ``table``: the controlled ones' rolls are asked;
``all``: every roll of the battle is asked."""


class SessionError(ValueError):
    """A session that cannot be set up or continued (one line saying why)."""


class SessionMismatch(SessionError):
    """A kept answer does not fit the question the replayed battle asks (the scenario or
    the engine changed since the answers were given, or the file was edited)."""


class Undo(Exception):
    """Raised by an ``ask`` function: take back the last answer and ask again."""


class _Suspended(BaseException):
    """The battle asked a question no answer covers (a BaseException, so no engine code's
    ``except Exception`` swallows it on its way out of the SimPy run)."""


class TableSession:
    """A battle played at the table (see the module docstring).

    Attributes:
        scenario: what is played.
        source: the scenario file, when it came from one (saved in session files).
        seed: the battle seed.
        control: the names (fighters, groups, crews, ships or sides) the GM controls.
        dice: whose dice are rolled at the table (:data:`DICE_MODES`).
        answers: every answer given so far, in order.
        pending: the question waiting for an answer, or None (ended, or not yet played).
        battle: the battle as it stands after the last replay.
    """

    def __init__(
        self,
        scenario: Scenario | str | Path,
        *,
        seed: int | None = None,
        control: Sequence[str] = (),
        dice: DiceMode = "auto",
        answers: Sequence[Answer] = (),
    ) -> None:
        if dice not in DICE_MODES:
            raise SessionError(f"dice {dice!r}: use one of {', '.join(DICE_MODES)}")
        self.source = None if isinstance(scenario, Scenario) else Path(scenario)
        self.scenario = load(scenario)
        self.seed = scenario_seed(self.scenario, seed)
        self.control = tuple(control)
        self.dice: DiceMode = dice
        self.answers: list[Answer] = list(answers)
        self.pending: Question | None = None
        self.battle: Battle = self._build()
        self.controlled = self._resolve(self.control)
        self.left_to_policies: list[str] = []
        self._ask: Callable[[Question], Answer] | None = None
        self._cursor = 0
        self._auto_round: int | None = None
        self._result: BattleResult | None = None

    # --- who is controlled -------------------------------------------------------------

    def _build(self) -> Battle:
        try:
            return build_battle(self.scenario, self.seed)
        except BUILD_ERRORS as exc:
            raise scenario_problem(self.scenario, exc) from None

    def names(self) -> list[str]:
        """Every name the GM may control: sides, then each fighter, group, crew or ship."""
        names = [s.name for s in self.battle.sides]
        for side in self.battle.sides:
            for agent in side.members:
                band = getattr(getattr(agent, "band", None), "name", agent.name)
                names.extend(n for n in (band, agent.name) if n not in names)
        return names

    def _resolve(self, control: Sequence[str]) -> frozenset[str]:
        """The agent names ``control`` covers (a side or a group: all its members)."""
        found: set[str] = set()
        for name in control:
            members = [
                a.name
                for side in self.battle.sides
                for a in side.members
                if name in (side.name, a.name, getattr(getattr(a, "band", None), "name", None))
            ]
            if not members:
                known = ", ".join(self.names())
                raise SessionError(
                    f"--control {name!r}: no side, fighter, crew or ship of that name "
                    f"(the names are: {known})"
                )
            found.update(members)
        return frozenset(found)

    # --- playing -----------------------------------------------------------------------

    @property
    def finished(self) -> bool:
        """The battle has ended (after the last replay)."""
        return self._result is not None

    @property
    def result(self) -> BattleResult:
        """The finished battle's result.

        Raises:
            SessionError: the battle has not ended (a question is pending).
        """
        if self._result is None:
            raise SessionError("the battle has not ended: a question is waiting for an answer")
        return self._result

    def replay(self) -> Question | None:
        """Play from the start with the answers so far; stop at the first question they do
        not answer (returned, and kept as :attr:`pending`), or at the end (None).

        Raises:
            SessionMismatch: an answer does not fit the question the battle asks there.
        """
        self.battle = battle = self._build()
        self.pending, self._result, self._cursor = None, None, 0
        agents = [a for side in battle.sides for a in side.members if a.name in self.controlled]
        self.left_to_policies = take_control(agents, self)
        if self.dice != "auto":
            self._roll_at_table(battle)
        try:
            battle.run_to_end()
        except _Suspended:
            return self.pending
        self._result = result_of(battle, report=True)  # the header and tally `run` prints
        self._auto_round = None
        return None

    def play(self, ask: Callable[[Question], Answer]) -> BattleResult:
        """Play to the end, putting each question no answer covers to ``ask`` while the
        battle runs (``ask`` returns the answer, raises :class:`Undo`, or raises anything
        else to stop: it propagates)."""
        self._ask = ask
        try:
            while True:
                try:
                    self.replay()
                except Undo:
                    self.undo(replay=False)
                    continue
                return self.result
        finally:
            self._ask = None

    def answer(self, entry: str) -> Question | None:
        """Answer the pending question with what the GM typed (blank: the default) and play
        on to the next question (returned) or the end (None).

        Raises:
            AnswerError: the entry does not answer the question (nothing is changed).
            SessionError: no question is pending.
        """
        question = self._waiting()
        self.answers.append(question.parse(entry))
        return self.replay()

    def auto(self) -> Question | None:
        """Hand the controlled fighters to their policies (and their dice to the seed)
        until the end of the round; returns the next question, or None at the end."""
        self.answers.append(self.auto_answer(self._waiting()))
        return self.replay()

    def auto_answer(self, question: Question) -> Answer:
        """The answer ``auto`` gives ``question`` (its default), and every later question
        of its round the same (an ``ask`` function returns it for ``auto``)."""
        self._auto_round = question.round
        return question.default(auto=True)

    def undo(self, *, replay: bool = True) -> Question | None:
        """Take back the last answer (an ``auto`` takes back all it answered) and replay.

        Raises:
            SessionError: there is no answer to take back.
        """
        if not self.answers:
            raise SessionError("nothing to undo: no answer has been given yet")
        last = self.answers.pop()
        while (
            last.auto
            and self.answers
            and self.answers[-1].auto
            and self.answers[-1].round == last.round
        ):
            self.answers.pop()
        self._auto_round = None
        return self.replay() if replay else None

    def _waiting(self) -> Question:
        if self.pending is None:
            raise SessionError(
                "no question is waiting: the battle has ended"
                if self.finished
                else "no question is waiting: call replay() first"
            )
        return self.pending

    # --- what the battle asks ----------------------------------------------------------

    def decide(
        self, who: str, kind: str, prompt: str, choices: Sequence[Choice], default: Any
    ) -> Any:
        """A controlled agent's decision (called by its wrapped policies): the value of the
        choice taken. A decision with one legal choice is not asked."""
        options = list(choices)
        index = next(
            (i for i, c in enumerate(options) if c.value is default or c.value == default), None
        )
        if index is None:  # the policy chose outside the list: offer its choice too
            options.insert(0, Choice(f"{default} (the policy's choice)", default))
            index = 0
        if len(options) == 1:
            return options[0].value
        question = Decision(self.battle.round, who, kind, prompt, tuple(options), index)
        return question.value(self._answer_for(question))

    def _roll_at_table(self, battle: Battle) -> None:
        """Make every stream of the battle a table stream (in place, same state: the seed's
        rolls are the defaults), each agent's owned by it, and give every agent's kernel
        fighter its own name (a group's members share their entry's)."""
        battle.streams.on_new = self._table_stream
        for named in battle.streams.named:
            self._table_stream(named)
        for side in battle.sides:
            for agent in side.members:
                for attribute in ("rng", "morale_rng"):
                    own = getattr(agent, attribute, None)
                    if isinstance(own, random.Random):
                        self._table_stream(own).owner = agent.name
                fighter = getattr(agent, "fighter", None)
                if isinstance(fighter, Fighter) and fighter.name != agent.name:
                    agent.fighter = dataclasses.replace(fighter, name=agent.name)

    def _table_stream(self, stream: random.Random) -> TableDice:
        if stream.__class__ is not TableDice:
            stream.__class__ = TableDice
            stream.owner = None  # type: ignore[attr-defined]
        stream.call = self._roll  # type: ignore[attr-defined]
        return stream  # type: ignore[return-value]

    def _roll(self, die: Die, rolled: Any, owner: str | None, purpose: str) -> Any:
        """A roll of the battle: asked when it is the table's, else the seed's."""
        if self.dice == "table" and owner not in self.controlled:
            return rolled
        question = Roll(self.battle.round, owner or "the battle", die, purpose, rolled)
        return question.value(self._answer_for(question))

    def _answer_for(self, question: Question) -> Answer:
        """The kept answer for the next question, else an ``auto`` default, else a new
        answer from ``ask``; with no ``ask``, the battle stops here."""
        i = self._cursor
        if i < len(self.answers):
            answer = self.answers[i]
            if (answer.round, answer.who, answer.ask) != (
                question.round,
                question.who,
                question.ask,
            ):
                raise SessionMismatch(
                    f"answer {i + 1} ({answer.ask} of {answer.who} in round {answer.round}) "
                    f"does not fit what the battle asks there ({question.ask} of "
                    f"{question.who} in round {question.round}): the scenario or the "
                    "engine changed since it was given, or it was edited"
                )
            self._cursor += 1
            return answer
        if self._auto_round is not None and self._auto_round == question.round:
            answer = question.default(auto=True)
        elif self._ask is not None:
            self.pending = question
            answer = self._ask(question)
        else:
            self.pending = question
            raise _Suspended
        self.pending = None
        self.answers.append(answer)
        self._cursor += 1
        return answer
