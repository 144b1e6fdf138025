"""Killing a sweep leaves no process behind (issue 20 point 6).

After SIGKILL or SIGTERM of ``fadad sweep --workers 2``, the fork server, its workers and
the resource tracker (100-200 MB each) once lived on for good. Workers now watch the
sweep and exit with it (the command's workers fork from it; where a fork server starts
them, it and the tracker end with their last client); SIGTERM unwinds like Ctrl-C (exit
status 143, parts kept).
"""

from __future__ import annotations

import concurrent.futures
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from types import FrameType

import pytest

DUEL = Path(__file__).parents[2] / "scenarios" / "snorri-vs-brynhild.yaml"
FADAD = Path(sys.executable).parent / "fadad"
PROC = Path("/proc")

pytestmark = [
    pytest.mark.skipif(not PROC.is_dir(), reason="reads the process tree in /proc"),
    pytest.mark.alone,  # its deadlines assume the cores are not shared with other tests
]


def _stat(pid: int) -> tuple[str, int] | None:
    """(state, parent pid) of a process, or None once it is gone."""
    try:
        text = (PROC / str(pid) / "stat").read_text()
    except OSError:
        return None
    fields = text.rsplit(")", 1)[1].split()
    return fields[0], int(fields[1])


def _descendants(root: int) -> set[int]:
    parents = {int(p.name): _stat(int(p.name)) for p in PROC.iterdir() if p.name.isdigit()}
    found, frontier = set(), {root}
    while frontier:
        frontier = {pid for pid, st in parents.items() if st and st[1] in frontier} - found
        found |= frontier
    return found


def _living(pids: set[int]) -> set[int]:
    """The pids still running (a zombie, whose parent has not reaped it, is not)."""
    return {pid for pid in pids if (st := _stat(pid)) is not None and st[0] != "Z"}


def test_killing_sweeps_with_workers_leaves_no_process_behind(tmp_path: Path) -> None:
    """Two sweeps play with two workers each (side by side: starting one takes seconds);
    once their workers play, one gets SIGKILL and the other SIGTERM; within seconds none of
    their fork servers, workers or resource trackers is left, and the terminated one says
    how to resume (exit status 143)."""
    # two million duels: minutes of play, so that neither sweep ends on its own while the
    # other's workers start (200,000 took 10 s; once, one ended first, its status 0)
    args = [str(FADAD), "sweep", str(DUEL), "-n", "2000000", "--workers", "2", "--quiet"]
    sweeps = {
        sig: subprocess.Popen(
            [*args, "--out", str(tmp_path / sig.name)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        for sig in (signal.SIGKILL, signal.SIGTERM)
    }
    try:
        family: dict[signal.Signals, set[int]] = {sig: set() for sig in sweeps}
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline and min(map(len, family.values())) < 2:
            time.sleep(0.2)  # each: two workers, forked from the single-threaded command
            family = {sig: _living(_descendants(p.pid)) for sig, p in sweeps.items()}
        assert min(map(len, family.values())) >= 2, f"the workers never started: {family}"
        for sig, sweep in sweeps.items():
            sweep.send_signal(sig)
        codes = {sig: sweep.wait(timeout=60) for sig, sweep in sweeps.items()}
        left = set().union(*family.values())
        deadline = time.monotonic() + 30
        while _living(left) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert _living(left) == set()
    finally:
        for sweep in sweeps.values():
            if sweep.poll() is None:
                sweep.kill()
        said = {sig: sweep.communicate()[1] for sig, sweep in sweeps.items()}  # pipes closed
    assert codes[signal.SIGTERM] == 143
    assert "fadad sweep: interrupted (run the same command again to resume)" in said[signal.SIGTERM]


def _raise(signum: int, frame: FrameType | None) -> None:
    raise RuntimeError("the sweep's own SIGTERM handler")


def _play_until_killed(started: str) -> None:
    Path(started).write_text("playing")
    time.sleep(60)


def test_a_worker_forked_from_the_sweep_ends_on_sigterm_and_leaves_ctrl_c_to_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A worker forked from a sweep whose SIGTERM handler raises (the command line's) is
    not stopped by Ctrl-C mid-batch and ends when terminated: the inherited handler once
    raised inside the batch, the pool sent that back as the batch's failure and the
    worker played on while the terminated sweep waited for it (a hang, about 1 in 15)."""
    from fadad_agents.analysis import pool

    monkeypatch.setattr(threading, "active_count", lambda: 1)  # workers fork from here
    monkeypatch.setattr(pool, "_POOLS", {})
    previous = signal.signal(signal.SIGTERM, _raise)
    try:
        workers = pool._pool(1)
        started = tmp_path / "started"
        with pool._launching():  # the fork's warning, as a sweep's first submission
            batch = workers.submit(_play_until_killed, str(started))
        deadline = time.monotonic() + 60
        while not started.exists() and time.monotonic() < deadline:
            time.sleep(0.01)
        (worker,) = workers._processes.values()  # type: ignore[attr-defined]
        os.kill(worker.pid, signal.SIGINT)
        with pytest.raises(concurrent.futures.TimeoutError):
            batch.exception(timeout=1)  # Ctrl-C is the sweep's to handle
        worker.terminate()
        worker.join(timeout=30)
        # The pool's own thread sees the worker die and reaps it too: when it gets there
        # first, this join's waitpid finds no child and returns with the exit code unread,
        # which that thread records a moment later on the same process object.
        deadline = time.monotonic() + 30
        while worker.exitcode is None and time.monotonic() < deadline:
            time.sleep(0.01)
        assert worker.exitcode == -signal.SIGTERM
    finally:
        signal.signal(signal.SIGTERM, previous)
        workers.shutdown(wait=True, cancel_futures=True)


def _half_a_result(started: str) -> None:
    """Write half a message to the pool's result pipe, as a worker terminated while it
    sent its rows leaves it, and wait to be terminated (a forked worker holds the pool)."""
    from fadad_agents.analysis import pool

    (workers,) = pool._POOLS.values()
    writer = workers._result_queue._writer  # type: ignore[attr-defined]
    os.write(writer.fileno(), (1 << 20).to_bytes(4, "big") + b"rows")  # 1 MiB announced
    Path(started).write_text("half sent")
    time.sleep(60)


def test_workers_ended_at_once_leave_no_pool_thread_reading_half_a_result(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A worker terminated while it sent its rows left the pool's thread reading the rest
    for good, and a terminated ``fadad sweep`` waited for that thread at exit forever
    (seen about 1 in 10 on a loaded machine). Ending the workers at once now ends it."""
    from fadad_agents.analysis import pool

    monkeypatch.setattr(threading, "active_count", lambda: 1)  # workers fork from here
    monkeypatch.setattr(pool, "_POOLS", {})
    workers = pool._pool(1)
    started = tmp_path / "started"
    with pool._launching():
        workers.submit(_half_a_result, str(started))
    reader = workers._executor_manager_thread  # type: ignore[attr-defined]
    results = workers._result_queue  # type: ignore[attr-defined]
    try:
        deadline = time.monotonic() + 60
        while not started.exists() and time.monotonic() < deadline:
            time.sleep(0.01)
        assert started.exists(), "the worker never started"
        pool.shutdown_workers(now=True)
        reader.join(timeout=30)
        assert not reader.is_alive(), "the pool's thread still waits for the rest of the rows"
    finally:
        if reader.is_alive():  # let pytest's own exit not wait for it too
            results._writer.close()
