"""Sweep results on disk: Parquet parts written as batches finish; a killed sweep resumes."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

from fadad_agents.analysis import StoreError, read_results, sweep

pytestmark = pytest.mark.alone  # waits on a killed process with a deadline: run alone

DUEL = Path(__file__).parents[2] / "scenarios" / "snorri-vs-brynhild.yaml"
RUNS, SEED, BATCH = 150, 21, 3

KILLED_SWEEP = f"""
from fadad_agents.analysis import sweep
sweep({str(DUEL)!r}, {RUNS}, {SEED}, batch_size={BATCH}, out=__import__("sys").argv[1],
      progress=False)
"""


def _parts(path: Path) -> list[Path]:
    return sorted(path.glob("part-*.parquet")) if path.exists() else []


def test_killed_sweep_resumes_with_nothing_lost_or_counted_twice(tmp_path: Path) -> None:
    """SIGKILL a sweep after a few parts, resume: exactly `runs` replicates, as if unbroken."""
    out = tmp_path / "results.parquet"
    child = subprocess.Popen([sys.executable, "-c", KILLED_SWEEP, str(out)])
    deadline = time.monotonic() + 60
    while len(_parts(out)) < 3 and child.poll() is None and time.monotonic() < deadline:
        time.sleep(0.002)
    os.kill(child.pid, signal.SIGKILL)
    child.wait()
    written = len(_parts(out))
    assert 3 <= written < RUNS // BATCH, "the sweep must be killed midway"
    resumed = sweep(DUEL, RUNS, SEED, batch_size=BATCH, out=out, progress=False)
    assert len(_parts(out)) == RUNS // BATCH
    assert not list(out.glob(".part-*")), "no half-written part is left behind"
    frame = read_results(out)
    assert sorted(frame["replicate"]) == list(range(RUNS))
    unbroken = sweep(DUEL, RUNS, SEED, batch_size=BATCH, progress=False).frame
    pd.testing.assert_frame_equal(frame, unbroken)
    pd.testing.assert_frame_equal(resumed.frame, unbroken)


def test_finished_sweep_is_not_played_again(tmp_path: Path) -> None:
    """Re-running a finished sweep plays nothing and returns the stored rows."""
    out = tmp_path / "r.parquet"
    first = sweep(DUEL, 9, 1, batch_size=3, out=out, progress=False)
    calls: list[tuple[int, int]] = []
    again = sweep(
        DUEL,
        9,
        1,
        batch_size=3,
        out=out,
        progress=False,
        on_progress=lambda d, t: calls.append((d, t)),
    )
    assert calls == []
    pd.testing.assert_frame_equal(again.frame, first.frame)


def test_pandas_reads_the_directory(tmp_path: Path) -> None:
    """pandas.read_parquet reads the results directory as one table (manifest skipped)."""
    out = tmp_path / "r.parquet"
    result = sweep(DUEL, 8, 2, batch_size=3, out=out, progress=False)
    frame = pd.read_parquet(out).sort_values("replicate", ignore_index=True)
    assert (out / "_sweep.json").exists()
    assert list(frame["replicate"]) == list(range(8))
    assert list(frame["winner"]) == list(result.frame["winner"])


def test_growing_runs_plays_only_the_new_replicates(tmp_path: Path) -> None:
    """Resuming with more runs keeps the old parts and adds the missing replicates."""
    out = tmp_path / "r.parquet"
    sweep(DUEL, 10, 4, batch_size=4, out=out, progress=False)
    grown = sweep(DUEL, 20, 4, batch_size=4, out=out, progress=False)
    fresh = sweep(DUEL, 20, 4, batch_size=4, progress=False)
    pd.testing.assert_frame_equal(grown.frame, fresh.frame)
    assert sorted(read_results(out)["replicate"]) == list(range(20))


def test_another_sweeps_results_are_refused(tmp_path: Path) -> None:
    """A results directory of another seed, grid or batch size is not mixed in."""
    out = tmp_path / "r.parquet"
    sweep(DUEL, 4, 0, batch_size=2, out=out, progress=False)
    with pytest.raises(StoreError, match=r"another sweep's results \(seed 0 there, 1 now\)"):
        sweep(DUEL, 4, 1, batch_size=2, out=out, progress=False)
    with pytest.raises(StoreError, match="batch_size 2 there, 4 now"):
        sweep(DUEL, 4, 0, batch_size=4, out=out, progress=False)
    with pytest.raises(StoreError, match="a different scenario or grid"):
        sweep(
            DUEL,
            4,
            0,
            batch_size=2,
            out=out,
            grid={"rules.fadad.initiative": ["rolled"]},
            progress=False,
        )
    with pytest.raises(StoreError, match="resume with runs >= 4"):
        sweep(DUEL, 2, 0, batch_size=2, out=out, progress=False)


def test_out_must_be_a_sweep_directory(tmp_path: Path) -> None:
    """A file, or a folder of other things, is not overwritten."""
    (tmp_path / "file.parquet").write_text("x")
    with pytest.raises(StoreError, match="exists and is not a sweep results directory"):
        sweep(DUEL, 2, out=tmp_path / "file.parquet", progress=False)
    (tmp_path / "folder").mkdir()
    (tmp_path / "folder" / "notes.txt").write_text("x")
    with pytest.raises(StoreError, match=r"not empty and has no _sweep\.json"):
        sweep(DUEL, 2, out=tmp_path / "folder", progress=False)


def test_read_results_errors(tmp_path: Path) -> None:
    """Reading a missing path or a folder without parts says so in one line."""
    with pytest.raises(StoreError, match="no such file or directory"):
        read_results(tmp_path / "missing.parquet")
    (tmp_path / "empty").mkdir()
    with pytest.raises(StoreError, match="holds no result parts"):
        read_results(tmp_path / "empty")


def test_two_sweeps_cannot_write_one_directory(tmp_path: Path) -> None:
    """While one sweep holds a results directory, another is refused (not interleaved)."""
    import fcntl

    out = tmp_path / "r.parquet"
    sweep(DUEL, 2, 0, batch_size=2, out=out, progress=False)
    with (out / ".lock").open("w") as holder:
        fcntl.flock(holder, fcntl.LOCK_EX | fcntl.LOCK_NB)
        with pytest.raises(StoreError, match="another sweep is writing here now"):
            sweep(DUEL, 4, 0, batch_size=2, out=out, progress=False)
    again = sweep(DUEL, 4, 0, batch_size=2, out=out, progress=False)
    assert len(again.frame) == 4
