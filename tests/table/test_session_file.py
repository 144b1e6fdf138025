"""Session files: versioned JSON with a checksum; every bad file is one clear line."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from fadad_agents.table import (
    VERSION,
    SessionFileError,
    TableSession,
    load_session,
    save_session,
)
from tests.table.conftest import DUEL, answer_all


def _saved(tmp_path: Path, answers: int = 5) -> tuple[Path, TableSession]:
    scenario = tmp_path / "duel.yaml"
    shutil.copy(DUEL, scenario)
    session = TableSession(scenario, seed=1, control=["Snorri"], dice="table")
    session.replay()
    for _ in range(answers):
        session.answer("")
    return save_session(session, tmp_path / "duel.json"), session


def test_saved_and_loaded_is_the_same_session(tmp_path: Path) -> None:
    """The loaded session keeps the answers and waits at the same question."""
    path, session = _saved(tmp_path)
    loaded = load_session(path)
    assert loaded.answers == session.answers
    assert loaded.pending is not None
    assert session.pending is not None
    assert loaded.pending.lines() == session.pending.lines()
    assert answer_all(loaded) > 0
    assert answer_all(session) > 0
    assert loaded.result.log.to_jsonl() == session.result.log.to_jsonl()


def test_the_file_is_small_readable_json(tmp_path: Path) -> None:
    """One answer a line; the scenario by relative path and hash; no pickle."""
    path, _ = _saved(tmp_path)
    data = json.loads(path.read_text())
    assert data["format"] == "fadad-table-session"
    assert data["version"] == VERSION
    assert data["scenario"] == "duel.yaml"
    assert len(data["scenario_sha256"]) == 64
    assert data["answers"][0] == {"round": 1, "who": "Snorri", "ask": "retreat", "answer": "1"}
    assert sum(1 for line in path.read_text().splitlines() if '"ask"' in line) == 5


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda t: t.replace('"version": 1', '"version": 7'), "format version 7; this"),
        (lambda t: t.replace('"answer": "1"', '"answer": "2"', 1), "changed after it was saved"),
        (lambda t: t[:40], "not a session file (invalid JSON"),
        (lambda t: "[]", "not a fadad table session file"),
    ],
    ids=["version", "tampered", "truncated", "not-a-session"],
)
def test_a_bad_file_is_one_line(tmp_path: Path, change: object, message: str) -> None:
    """Another version, a changed answer, a cut file, another JSON: one line naming it."""
    path, _ = _saved(tmp_path)
    path.write_text(change(path.read_text()))  # type: ignore[operator]
    with pytest.raises(SessionFileError) as caught:
        load_session(path)
    text = str(caught.value)
    assert text.startswith(str(path))
    assert message in text
    assert "\n" not in text


def test_a_changed_scenario_is_refused(tmp_path: Path) -> None:
    """The scenario's text changed since the save: refused, naming the scenario."""
    path, _ = _saved(tmp_path)
    scenario = tmp_path / "duel.yaml"
    scenario.write_text(scenario.read_text().replace("max_rounds: 30", "max_rounds: 29"))
    with pytest.raises(SessionFileError, match=r"its scenario duel.yaml changed"):
        load_session(path)
    scenario.unlink()
    with pytest.raises(SessionFileError, match=r"its scenario duel.yaml is not there"):
        load_session(path)
