"""Session files: a small, versioned, human-readable JSON record of a table session.

A file holds what a session is (DESIGN.md, Table sessions): the scenario (its path, and
the SHA-256 of its text), the seed, who is controlled, whose dice are rolled at the
table, and every answer so far, each with the round, whose it was and what was asked.
No pickle: loading replays the answers (:meth:`TableSession.replay`), so a resumed
session is exactly the one saved. A checksum over the rest catches a file changed by
hand or damaged; a file of another format version, a changed scenario or an answer the
replayed battle does not ask for gives one line saying so, never a traceback.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from fadad_agents.table.questions import Answer
from fadad_agents.table.session import SessionError, TableSession

__all__ = ["FORMAT", "VERSION", "SessionFileError", "load_session", "save_session", "session_data"]

FORMAT = "fadad-table-session"
VERSION = 1
"""The format version this code writes and reads (raised when the layout changes)."""


class SessionFileError(SessionError):
    """A session file that cannot be resumed (one line naming the file and why)."""


class _Answer(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    round: int
    who: str
    ask: str
    answer: str
    auto: bool = False


class _SessionFile(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    format: Literal["fadad-table-session"]
    version: int
    fadad_agents: str
    scenario: str
    scenario_sha256: str
    seed: int
    control: list[str]
    dice: Literal["auto", "table", "all"]
    answers: list[_Answer]
    checksum: str


def _checksum(data: dict[str, Any]) -> str:
    body = {k: v for k, v in data.items() if k != "checksum"}
    text = json.dumps(body, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def session_data(session: TableSession, path: Path) -> dict[str, Any]:
    """What :func:`save_session` writes for ``session`` at ``path`` (the scenario's path
    relative to the file's folder when it lies in it or below, else absolute)."""
    from fadad_agents import __version__

    if session.source is None:
        raise SessionError("only a session started from a scenario file can be saved")
    scenario = session.source.resolve()
    try:
        shown = os.path.relpath(scenario, path.resolve().parent)
    except ValueError:  # another drive (Windows)
        shown = str(scenario)
    if shown.startswith(".."):
        shown = str(scenario)
    data: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "fadad_agents": __version__,
        "scenario": Path(shown).as_posix(),
        "scenario_sha256": _sha256(scenario),
        "seed": session.seed,
        "control": list(session.control),
        "dice": session.dice,
        "answers": [a.as_dict() for a in session.answers],
    }
    data["checksum"] = _checksum(data)
    return data


def save_session(session: TableSession, path: str | Path) -> Path:
    """Write ``session`` to ``path`` (JSON, one answer a line); returns the path.

    Raises:
        SessionError: the session has no scenario file, or the file cannot be written.
    """
    path = Path(path)
    data = session_data(session, path)
    head = {k: v for k, v in data.items() if k not in ("answers", "checksum")}
    lines = json.dumps(head, indent=2, ensure_ascii=False)[:-2]
    answers = ",\n".join(f"    {json.dumps(a, ensure_ascii=False)}" for a in data["answers"])
    text = (
        f'{lines},\n  "answers": [\n{answers}\n  ],\n  "checksum": "{data["checksum"]}"\n}}\n'
        if answers
        else f'{lines},\n  "answers": [],\n  "checksum": "{data["checksum"]}"\n}}\n'
    )
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise SessionError(f"cannot write {path} ({exc.strerror or exc})") from None
    return path


def load_session(path: str | Path) -> TableSession:
    """The session saved in ``path``, replayed to its first unanswered question.

    Raises:
        SessionFileError: not a session file, another format version, changed after it
            was saved, its scenario missing or changed, or an answer the battle does not
            ask for; the message is one line naming the file.
        ScenarioError: the scenario file has become invalid.
    """
    path = Path(path)
    record = _read(path)
    scenario = (path.resolve().parent / record.scenario).resolve()
    if not scenario.is_file():
        raise SessionFileError(
            f"{path}: its scenario {record.scenario} is not there (looked for {scenario})"
        )
    if _sha256(scenario) != record.scenario_sha256:
        raise SessionFileError(
            f"{path}: its scenario {record.scenario} changed since the session was saved; "
            "restore that file to resume, or start a new session"
        )
    answers = [Answer(a.round, a.who, a.ask, a.answer, a.auto) for a in record.answers]
    try:
        session = TableSession(
            scenario, seed=record.seed, control=record.control, dice=record.dice, answers=answers
        )
        session.replay()
    except SessionError as exc:
        from fadad_agents import __version__

        note = (
            ""
            if record.fadad_agents == __version__
            else f" (saved by fadad-agents {record.fadad_agents}, this is {__version__})"
        )
        raise SessionFileError(f"{path}: {exc}{note}") from None
    return session


def _read(path: Path) -> _SessionFile:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise SessionFileError(f"{path}: cannot read it ({exc.strerror or exc})") from None
    except UnicodeDecodeError:
        raise SessionFileError(f"{path}: not a session file (not UTF-8 text)") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise SessionFileError(
            f"{path}:{exc.lineno}: not a session file (invalid JSON: {exc.msg})"
        ) from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise SessionFileError(f'{path}: not a fadad table session file (no "format": "{FORMAT}")')
    if data.get("version") != VERSION:
        raise SessionFileError(
            f"{path}: a session file of format version {data.get('version')!r}; this "
            f"fadad-agents reads version {VERSION} (resume it with the version that saved it)"
        )
    if data.get("checksum") != _checksum(data):
        raise SessionFileError(
            f"{path}: the file was changed after it was saved (its checksum does not match); "
            "restore it, or start a new session from its scenario"
        )
    try:
        return _SessionFile.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise SessionFileError(f"{path}: {where}: {first['msg']}") from None
