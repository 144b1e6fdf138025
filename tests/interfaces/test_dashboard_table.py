"""TableDashboard: the table session in a notebook, driven by clicking its widgets."""

from __future__ import annotations

from html import unescape
from pathlib import Path

from fadad_agents.dashboard import TableDashboard
from fadad_agents.engine import run
from fadad_agents.table import Roll
from tests.table.conftest import DUEL


def _dash(**kwargs: object) -> TableDashboard:
    return TableDashboard("snorri-vs-brynhild", seed=1, control=["Snorri"], dice="table", **kwargs)  # type: ignore[arg-type]


def test_the_pending_decision_is_a_button_per_choice() -> None:
    """One button per legal choice, the policy's own in the primary style."""
    dash = _dash()
    assert "does Snorri fight on?" in dash.question.value
    assert [b.description for b in dash.choice_buttons] == ["fight on", "withdraw", "surrender"]
    assert [b.button_style for b in dash.choice_buttons] == ["primary", "", ""]
    assert dash.dice_box.layout.display == "none"
    dash.choice_buttons[0].click()
    assert "whom does Snorri attack?" in dash.question.value


def test_dice_are_entered_in_the_box_and_narrated() -> None:
    """After the decisions, Snorri's attack roll: '+1' entered makes a Superb swing; a bad
    entry is refused in the message line and the question stays."""
    dash = _dash()
    for _ in range(5):  # fight on, whom, attack, how to strike, how many attacks
        dash.choice_buttons[0].click()
    assert isinstance(dash.pending, Roll)
    assert dash.dice_box.layout.display is None
    dash.entry.value = "9"
    dash.enter_button.click()
    assert "is not a roll of 4dF" in dash.message.value
    dash.entry.value = "+1"
    dash.enter_button.click()
    while "Snorri's swing" not in unescape(dash.log.value):
        assert isinstance(dash.pending, Roll)  # the swing's other dice: crit effect, damage
        dash.default_button.click()
    assert "Snorri's swing is Superb" in unescape(dash.log.value)


def test_undo_auto_save_and_load(tmp_path: Path) -> None:
    """Undo takes back a click; Auto plays the round out; Save and Load keep the session."""
    dash = _dash(session_file=tmp_path / "s.json")
    dash.choice_buttons[1].click()  # withdraw
    assert len(dash.session.answers) == 1
    dash.undo_button.click()
    assert dash.session.answers == []
    assert dash.undo_button.disabled
    dash.auto_button.click()
    assert dash.pending is not None
    assert dash.pending.round == 2
    dash.save_button.click()
    assert "saved" in dash.message.value
    assert (tmp_path / "s.json").is_file()
    other = _dash(session_file=tmp_path / "s.json")
    other.load_button.click()
    assert other.pending is not None
    assert other.pending.lines() == dash.pending.lines()
    assert other.session.answers == dash.session.answers


def test_defaults_to_the_end_show_the_run_battle() -> None:
    """Default clicked to the end: the summary run() gives, the map and the status table."""
    dash = _dash()
    while dash.pending is not None:
        dash.default_button.click()
    summary = run(DUEL, seed=1).summary()
    assert summary in dash.question.value
    assert "fadad-map" in dash.map.value
    assert "Brynhild" in dash.status.value
    assert dash.default_button.disabled
    assert dash.auto_button.disabled
