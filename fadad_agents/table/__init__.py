"""The game master at the table: take decisions and roll dice for chosen fighters.

One engine API that the command line (``fadad play``, ``fadad resume``), the notebook's
:class:`~fadad_agents.dashboard.table.TableDashboard` and the tests all drive::

    >>> from fadad_agents.table import TableSession       # doctest: +SKIP
    >>> session = TableSession("scenarios/snorri-vs-brynhild.yaml", seed=1,
    ...                        control=["Snorri"], dice="table")
    >>> question = session.replay()      # the first question for Snorri
    >>> print("\\n".join(question.lines()))
    >>> question = session.answer("")    # blank: the policy's choice, the seed's die
    >>> save_session(session, "snorri.json"); load_session("snorri.json")

A session is its scenario, seed, options and the answers given
(:mod:`~fadad_agents.table.session`); saving writes that list as versioned JSON
(:mod:`~fadad_agents.table.save`) and loading replays it.
"""

from fadad_agents.rules.core.dice import Die
from fadad_agents.table.control import Asking, register_decision, take_control
from fadad_agents.table.notation import AnswerError, allowed, parse_roll, show_roll
from fadad_agents.table.questions import Answer, Choice, Decision, Question, Roll
from fadad_agents.table.save import FORMAT, VERSION, SessionFileError, load_session, save_session
from fadad_agents.table.session import (
    DICE_MODES,
    DiceMode,
    SessionError,
    SessionMismatch,
    TableSession,
    Undo,
)
from fadad_agents.table.status import condition, status_lines, status_rows

__all__ = [
    "DICE_MODES",
    "FORMAT",
    "VERSION",
    "Answer",
    "AnswerError",
    "Asking",
    "Choice",
    "Decision",
    "DiceMode",
    "Die",
    "Question",
    "Roll",
    "SessionError",
    "SessionFileError",
    "SessionMismatch",
    "TableSession",
    "Undo",
    "allowed",
    "condition",
    "load_session",
    "parse_roll",
    "register_decision",
    "save_session",
    "show_roll",
    "status_lines",
    "status_rows",
    "take_control",
]
