"""TableDashboard: play a table session in a notebook (plain ipywidgets).

The same engine API as ``fadad play`` (:class:`~fadad_agents.table.TableSession`): the
pending question of a controlled fighter, crew or ship shows as one button per legal
choice (the policy's own marked), a roll of table dice as an entry box (4dF as ``+-0+`` or
``+2``, d20 ``17``, 2d10 ``3 9`` or ``12``); Default takes the policy's choice or the die
the seed rolls. Undo, Auto (the policies to the round's end), Save and Load work on the
session's answers; every click replays the battle from the scenario and seed to the next
question (a model holding SimPy generators is never copied). Views: the map, the status
of every combatant and the narration::

    from fadad_agents.dashboard import TableDashboard
    TableDashboard("snorri-vs-brynhild", seed=1, control=["Snorri"], dice="table")
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from pathlib import Path
from typing import Any

import ipywidgets as widgets

from fadad_agents.dashboard.battle import resolve_scenario
from fadad_agents.dashboard.hexview import SIDE_COLOURS, MapView
from fadad_agents.dashboard.session import SCENARIO_DIR
from fadad_agents.engine.core.log import clock
from fadad_agents.table import (
    AnswerError,
    Decision,
    DiceMode,
    Question,
    Roll,
    SessionError,
    TableSession,
    load_session,
    save_session,
    status_rows,
)

__all__ = ["LOG_LINES", "TableDashboard"]

LOG_LINES = 200
"""Narrated lines shown (the latest first)."""


class TableDashboard:
    """Widgets around a :class:`TableSession`; ``widget`` is the box to display.

    Args:
        scenario: a scenario file, or the name of one in ``scenario_dir``.
        seed: the battle seed (default: the scenario's).
        control: the sides, fighters, groups, crews or ships the GM plays.
        dice: whose dice are rolled at the table (``auto``, ``table``, ``all``).
        session_file: where Save writes and Load reads.
    """

    def __init__(
        self,
        scenario: str | Path,
        *,
        seed: int | None = None,
        control: Sequence[str] = (),
        dice: DiceMode = "auto",
        session_file: str | Path = "table-session.json",
        scenario_dir: Path = SCENARIO_DIR,
    ) -> None:
        path = resolve_scenario(scenario, scenario_dir)
        self.session = TableSession(path, seed=seed, control=control, dice=dice)
        self.map_view = MapView(self.session.scenario)
        self.round_label = widgets.HTML()
        self.question = widgets.HTML()
        self.choices = widgets.VBox()
        self.choice_buttons: list[widgets.Button] = []
        self.entry = widgets.Text(description="Dice", continuous_update=False)
        self.enter_button = widgets.Button(description="Enter", icon="check")
        self.default_button = widgets.Button(description="Default", icon="dice")
        self.undo_button = widgets.Button(description="Undo", icon="undo")
        self.auto_button = widgets.Button(description="Auto", tooltip="policies to round's end")
        self.file = widgets.Text(value=str(session_file), description="File")
        self.save_button = widgets.Button(description="Save", icon="save")
        self.load_button = widgets.Button(description="Load", icon="folder-open")
        self.message = widgets.HTML()
        self.map = widgets.HTML(layout=widgets.Layout(min_width="420px"))
        self.status = widgets.HTML()
        self.log = widgets.HTML(
            layout=widgets.Layout(max_height="260px", overflow="auto", border="1px solid #ddd")
        )

        self.enter_button.on_click(lambda _: self.enter())
        self.default_button.on_click(lambda _: self.enter(""))
        self.undo_button.on_click(lambda _: self.undo())
        self.auto_button.on_click(lambda _: self.auto())
        self.save_button.on_click(lambda _: self.save())
        self.load_button.on_click(lambda _: self.load())

        self.dice_box = widgets.HBox([self.entry, self.enter_button])
        controls = widgets.VBox(
            [
                self.round_label,
                self.question,
                self.choices,
                self.dice_box,
                widgets.HBox([self.default_button, self.undo_button, self.auto_button]),
                widgets.HBox([self.file, self.save_button, self.load_button]),
                self.message,
            ],
            layout=widgets.Layout(min_width="380px"),
        )
        self.widget = widgets.VBox([widgets.HBox([controls, self.map]), self.status, self.log])
        self.pending: Question | None = self.session.replay()
        self.redraw()

    # --- what the GM does ---------------------------------------------------------------

    def choose(self, index: int) -> None:
        """Take choice ``index`` (from 0) of the pending decision."""
        self._answer(str(index + 1))

    def enter(self, entry: str | None = None) -> None:
        """Answer the pending question with ``entry`` (default: the dice box; blank: the
        default)."""
        self._answer(self.entry.value if entry is None else entry)

    def _answer(self, entry: str) -> None:
        try:
            self.pending = self.session.answer(entry)
        except (AnswerError, SessionError) as exc:
            self._say(str(exc), error=True)
            return
        self.entry.value = ""
        self._say("")
        self.redraw()

    def undo(self) -> None:
        """Take back the last answer (replays to the question it answered)."""
        self._act(self.session.undo, "took back the last answer")

    def auto(self) -> None:
        """The controlled ones act by their policies until the end of the round."""
        self._act(self.session.auto, "the policies play to the end of the round")

    def _act(self, action: Any, done: str) -> None:
        try:
            self.pending = action()
        except SessionError as exc:
            self._say(str(exc), error=True)
            return
        self._say(done)
        self.redraw()

    def save(self, path: str | Path | None = None) -> None:
        """Write the session to ``path`` (default: the File box)."""
        target = Path(self.file.value if path is None else path)
        try:
            save_session(self.session, target)
        except SessionError as exc:
            self._say(str(exc), error=True)
            return
        self._say(f"saved {len(self.session.answers)} answers to {target}")

    def load(self, path: str | Path | None = None) -> None:
        """Go on with the session saved in ``path`` (default: the File box)."""
        source = Path(self.file.value if path is None else path)
        try:
            self.session = load_session(source)
        except (SessionError, ValueError) as exc:  # SessionFileError, ScenarioError
            self._say(str(exc), error=True)
            return
        self.map_view = MapView(self.session.scenario)
        self.pending = self.session.pending
        self._say(f"loaded {len(self.session.answers)} answers from {source}")
        self.redraw()

    def _say(self, text: str, *, error: bool = False) -> None:
        colour = "#c0392b" if error else "#555"
        self.message.value = (
            f'<span class="fadad-message" style="color:{colour}">{escape(text)}</span>'
            if text
            else ""
        )

    # --- views ----------------------------------------------------------------------------

    def redraw(self) -> None:
        """Show the pending question, the map, the status table and the narration."""
        battle = self.session.battle
        state = "ended" if self.session.finished else "waiting for you"
        self.round_label.value = (
            f'<b class="fadad-round">Round {battle.round}</b> '
            f"({clock(int(battle.env.now))}): {state}"
        )
        self._show_question(self.pending)
        self.undo_button.disabled = not self.session.answers
        self.auto_button.disabled = self.default_button.disabled = self.pending is None
        self.map.value = self.map_view.svg(battle)
        self.status.value = _status_html(battle)
        lines = battle.log.lines()[-LOG_LINES:]
        self.log.value = (
            f'<pre class="fadad-log" style="margin:0;font-size:11px">'
            f"{escape(chr(10).join(reversed(lines)))}</pre>"
        )

    def _show_question(self, question: Question | None) -> None:
        self.choice_buttons = []
        if question is None:
            self.question.value = f'<b class="fadad-question">{escape(self._ending())}</b>'
            self.choices.children = ()
            self.dice_box.layout.display = "none"
            return
        self.question.value = f'<b class="fadad-question">{escape(question.text)}</b>'
        if isinstance(question, Decision):
            for i, choice in enumerate(question.choices):
                button = widgets.Button(
                    description=choice.label,
                    button_style="primary" if i == question.default_index else "",
                    layout=widgets.Layout(width="auto"),
                )
                button.on_click(lambda _, i=i: self.choose(i))
                self.choice_buttons.append(button)
            self.dice_box.layout.display = "none"
        elif isinstance(question, Roll):
            self.entry.placeholder = f"{question.die}, blank for the seed's"
            self.dice_box.layout.display = None
        self.choices.children = tuple(self.choice_buttons)

    def _ending(self) -> str:
        return self.session.result.summary() if self.session.finished else ""

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.widget._repr_mimebundle_(**kwargs)


def _status_html(battle: Any) -> str:
    """Every combatant: side, name, condition, status, notes (Ité points)."""
    sides = {roster.name: roster.index for roster in battle.sides}
    cells = []
    for r in status_rows(battle):
        colour = SIDE_COLOURS[sides[r["side"]] % len(SIDE_COLOURS)]
        cells.append(
            f'<tr><td style="color:{colour}">{escape(r["side"])}</td>'
            f"<td>{escape(r['name'])}</td><td>{escape(r['condition'])}</td>"
            f"<td>{escape(r['status'])}</td><td>{escape(r['notes'])}</td></tr>"
        )
    return (
        '<table class="fadad-status" style="border-collapse:collapse;font-size:12px">'
        "<tr><th>side</th><th>name</th><th>condition</th><th>status</th><th>notes</th></tr>"
        f"{''.join(cells)}</table>"
    )
