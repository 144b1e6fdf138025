"""Killing a sweep leaves no process behind (issue 20 point 6).

After SIGKILL or SIGTERM of ``fadad sweep --workers 2``, the fork server, its workers and
the resource tracker (100-200 MB each) once lived on for good. Workers now watch the
sweep and exit with it; the fork server and the tracker end with their last client;
SIGTERM unwinds like Ctrl-C (exit status 143, parts kept).
"""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

DUEL = Path(__file__).parents[2] / "scenarios" / "snorri-vs-brynhild.yaml"
FADAD = Path(sys.executable).parent / "fadad"
PROC = Path("/proc")

pytestmark = pytest.mark.skipif(not PROC.is_dir(), reason="reads the process tree in /proc")


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


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM], ids=["SIGKILL", "SIGTERM"])
def test_killing_a_sweep_with_workers_leaves_no_process_behind(
    tmp_path: Path, sig: signal.Signals
) -> None:
    """Once its two workers play, the sweep is killed; within seconds none of its fork
    server, workers or resource tracker is left."""
    args = [str(FADAD), "sweep", str(DUEL), "-n", "200000", "--workers", "2", "--quiet"]
    sweep = subprocess.Popen(
        [*args, "--out", str(tmp_path / "r.parquet")],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline, family = time.monotonic() + 180, set()
        while len(family) < 4 and time.monotonic() < deadline:  # tracker, server, 2 workers
            time.sleep(0.2)
            family = _living(_descendants(sweep.pid))
        assert len(family) >= 4, f"the sweep never started its workers: {family}"
        time.sleep(1)
        family |= _living(_descendants(sweep.pid))
        sweep.send_signal(sig)
        code = sweep.wait(timeout=60)
        deadline = time.monotonic() + 30
        while _living(family) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert _living(family) == set()
    finally:
        if sweep.poll() is None:
            sweep.kill()
    if sig is signal.SIGTERM:
        assert code == 143
        assert sweep.stderr is not None
        assert "fadad sweep: interrupted (run the same command again to resume)" in (
            sweep.stderr.read()
        )
