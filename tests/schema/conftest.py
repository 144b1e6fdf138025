"""Shared paths for the schema tests."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = sorted((ROOT / "scenarios").glob("*.yaml"))
MODELS = sorted((ROOT / "models").glob("*/*.yaml"))
BROKEN = Path(__file__).parent / "broken"


@pytest.fixture
def in_repo(monkeypatch: pytest.MonkeyPatch) -> Path:
    """Run from the repository root so file names in messages are repo-relative."""
    monkeypatch.chdir(ROOT)
    return ROOT
