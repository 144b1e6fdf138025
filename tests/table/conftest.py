"""Shared helpers of the table-session tests."""

from __future__ import annotations

from pathlib import Path

from fadad_agents.table import TableSession

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"
DUEL = SCENARIOS / "snorri-vs-brynhild.yaml"


def every_side(path: Path, seed: int) -> list[str]:
    """The names of every side of a scenario (controlling them controls everyone)."""
    return [s.name for s in TableSession(path, seed=seed).battle.sides]


def answer_all(session: TableSession, entry: str = "") -> int:
    """Answer every question with ``entry`` until the battle ends; the number answered."""
    asked = 0
    question = session.replay()
    while question is not None:
        question = session.answer(entry)
        asked += 1
    return asked
