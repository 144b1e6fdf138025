"""A long battle's progress shows on standard error, and the battle is the same shown or not
(``engine.progress``, ``run(..., progress=True)``)."""

from __future__ import annotations

import threading

import pytest
import tqdm.auto  # noqa: F401  # imported now, not by the watcher while the battle plays

from benchmarks.bench_engine import _melee_yaml
from fadad_agents.engine import progress, run

BANDS = _melee_yaml(100, bands=True)
"""Two bands of 100 formed up in ranks: about twenty rounds, a tenth of a second."""


def _watchers() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name == "fadad-progress"]


def test_a_long_battle_shows_its_rounds_and_plays_the_same(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], python_melee: None
) -> None:
    """With the wait before showing cut to nothing, a battle shows its rounds and how many
    still fight; its log is the one played without progress, and no watcher is left.
    Played round by round in Python (``python_melee``): where numba is loaded already (an
    earlier test in this worker), the compiled melee plays it whole in a millisecond,
    its bar never updated before it ends."""
    monkeypatch.setattr(progress, "PROGRESS_AFTER", 0.0)
    monkeypatch.setattr(progress, "POLL", 0.001)
    watched = run(BANDS, seed=1, progress=True)
    said = capsys.readouterr().err
    assert "battle: round 0 [00:00, 200 fighting]" in said  # the two bands of 100
    assert "battle: round " in said.rsplit("round 0", 1)[1], "never updated"
    assert not _watchers()
    assert watched.log.text() == run(BANDS, seed=1).log.text()
    assert watched.rounds > 5, "too short a battle to show anything"


def test_a_short_battle_shows_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    """A battle over within :data:`~fadad_agents.engine.progress.PROGRESS_AFTER` (a
    second) shows nothing, and leaves no watcher."""
    run(_melee_yaml(5, bands=False), seed=1, progress=True)
    assert capsys.readouterr().err == ""
    assert not _watchers()


def test_the_watcher_stops_when_the_battle_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    """A battle that raises mid-play still stops its watcher."""
    monkeypatch.setattr(progress, "POLL", 0.001)

    class Failing:
        round = 0
        sides = ()

    with pytest.raises(RuntimeError), progress.shown(Failing()):
        raise RuntimeError("a round failed")
    assert not _watchers()
