"""Sweep backends: serial, local processes and Dask give identical rows for one seed."""

from __future__ import annotations

import pickle
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from fadad_agents.analysis import BackendError, sweep
from fadad_agents.analysis.replicates import Batch, Portable, run_batch
from fadad_agents.engine import load

DUEL = Path(__file__).parents[2] / "scenarios" / "snorri-vs-brynhild.yaml"
SCENARIOS = sorted(DUEL.parent.glob("*.yaml"))
RUNS, SEED, BATCH = 40, 7, 6


@pytest.fixture(scope="module")
def serial() -> pd.DataFrame:
    return sweep(DUEL, RUNS, SEED, batch_size=BATCH, progress=False).frame


@pytest.fixture(scope="module")
def cluster() -> Iterator[str]:
    """A two-worker in-process Dask cluster; yields its scheduler address."""
    from distributed import LocalCluster

    with LocalCluster(  # type: ignore[no-untyped-call]
        n_workers=2, threads_per_worker=1, processes=False, dashboard_address=":0"
    ) as local:
        yield local.scheduler_address


def test_processes_match_serial(serial: pd.DataFrame) -> None:
    """Two worker processes give the same rows as one process."""
    frame = sweep(
        DUEL,
        RUNS,
        SEED,
        backend="processes",
        workers=2,
        batch_size=BATCH,
        progress=False,
        auto_serial=False,
    ).frame
    pd.testing.assert_frame_equal(frame, serial)


def test_worker_count_does_not_matter(serial: pd.DataFrame) -> None:
    """One worker process or two: the same rows."""
    frame = sweep(
        DUEL,
        RUNS,
        SEED,
        backend="processes",
        workers=1,
        batch_size=BATCH,
        progress=False,
        auto_serial=False,
    ).frame
    pd.testing.assert_frame_equal(frame, serial)


def test_dask_scheduler_address_matches_serial(serial: pd.DataFrame, cluster: str) -> None:
    """A sweep sent to a Dask scheduler address gives the serial rows."""
    frame = sweep(DUEL, RUNS, SEED, scheduler=cluster, batch_size=BATCH, progress=False).frame
    pd.testing.assert_frame_equal(frame, serial)


def test_dask_local_cluster_matches_serial(
    serial: pd.DataFrame, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """backend='dask' starts its own LocalCluster (2 worker processes) and matches; its
    scratch space stays inside --out and is gone afterwards (issue 20)."""
    monkeypatch.chdir(tmp_path)
    out = tmp_path / "r.parquet"
    frame = sweep(
        DUEL,
        RUNS,
        SEED,
        backend="dask",
        workers=2,
        batch_size=BATCH,
        out=out,
        progress=False,
        auto_serial=False,
    ).frame
    pd.testing.assert_frame_equal(frame, serial)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.parquet"]
    assert not (out / ".dask-scratch").exists()


def test_batches_group_into_dask_tasks_in_order() -> None:
    """Consecutive batches go to Dask in lists of the group size, none lost or repeated."""
    from fadad_agents.analysis.backends import _grouped

    assert [len(g) for g in _grouped(iter(range(10)), 4)] == [4, 4, 2]  # type: ignore[arg-type]
    assert [x for g in _grouped(iter(range(10)), 3) for x in g] == list(range(10))  # type: ignore[arg-type]
    assert list(_grouped(iter([]), 2)) == []


def test_dask_tasks_of_several_batches_match_serial(cluster: str, tmp_path: Path) -> None:
    """With many small batches each Dask task carries several (TASKS_PER_WORKER); rows,
    part files and the adaptive stop are still those of the serial sweep."""
    from fadad_agents.analysis.backends import TASKS_PER_WORKER

    runs, batch = 400, 5  # 80 batches: 80 // (8 * 2) = 5 batches a task
    assert runs // batch // (TASKS_PER_WORKER * 2) > 1
    serial = sweep(DUEL, runs, SEED, batch_size=batch, target_width=0.2, progress=False)
    out = tmp_path / "r.parquet"
    grouped = sweep(
        DUEL, runs, SEED, scheduler=cluster, batch_size=batch, target_width=0.2, out=out,
        progress=False,
    )  # fmt: skip
    assert grouped.played == serial.played
    pd.testing.assert_frame_equal(grouped.frame, serial.frame)
    assert len(list(out.glob("part-*.parquet"))) == serial.played[0] // batch


def test_local_cluster_workers_fork_from_the_preloaded_fork_server() -> None:
    """A LocalCluster made by backend='dask' starts its workers from the fork server that
    preloads the engine (not by spawn, which imports it again in every worker) and with
    quieter monitoring; Dask's configuration is restored afterwards."""
    import multiprocessing.forkserver

    import dask

    from fadad_agents.analysis import backends

    before = dask.config.get("distributed.worker.multiprocessing-method")
    with backends.local_cluster_settings():
        assert dask.config.get("distributed.worker.multiprocessing-method") == "forkserver"
        preload = multiprocessing.forkserver._forkserver._preload_modules  # type: ignore[attr-defined]
        assert "fadad_agents.analysis.replicates" in preload
        for key, value in backends.QUIET_MONITORING.items():
            assert dask.config.get(key) == value
    assert dask.config.get("distributed.worker.multiprocessing-method") == before
    assert dask.config.get("distributed.worker.profile.enabled") is True


def test_unknown_backend() -> None:
    """An unknown backend names the allowed ones."""
    with pytest.raises(BackendError, match=r"unknown backend 'threads' \(allowed: serial"):
        sweep(DUEL, 2, backend="threads", progress=False)


def test_bad_worker_count() -> None:
    """workers < 1 is refused."""
    with pytest.raises(BackendError, match="workers must be a whole number >= 1"):
        sweep(DUEL, 2, backend="processes", workers=0, progress=False)


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_a_scenario_reaches_a_worker_equal(path: Path) -> None:
    """A batch carries its scenario to a worker as JSON data; validated there, it is the
    same scenario under the same limits (every shipped scenario)."""
    scenario = load(path)
    arrived = pickle.loads(pickle.dumps(Portable(scenario)))
    assert arrived.scenario == scenario
    assert arrived.scenario.limits == scenario.limits


def test_a_sweep_too_small_for_workers_plays_serially_and_says_so(serial: pd.DataFrame) -> None:
    """Forty duels on two processes: starting the workers would cost more than they save,
    so the sweep plays them here, the same rows, and its note says why."""
    result = sweep(
        DUEL, RUNS, SEED, backend="processes", workers=2, batch_size=BATCH, progress=False
    )
    assert result.backend == "serial"
    assert result.note is not None
    assert "too little for 2 worker processes to pay off" in result.note
    pd.testing.assert_frame_equal(result.frame, serial)


def test_a_pause_of_the_sweep_does_not_start_its_workers(
    serial: pd.DataFrame, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first batch is timed in CPU time: a pause while it plays (the machine busy
    elsewhere, here a sleep of 0.5 s in each of its two timed parts) does not make forty
    duels look worth starting workers for."""
    from fadad_agents.analysis import backends

    def paused(batch: Batch) -> list[dict[str, Any]]:
        time.sleep(0.5 if batch.start == 0 or batch.start == 1 else 0.0)
        return run_batch(batch)

    monkeypatch.setattr(backends, "run_batch", paused)
    result = sweep(
        DUEL, RUNS, SEED, backend="processes", workers=2, batch_size=BATCH, progress=False
    )
    assert result.backend == "serial"
    assert result.note is not None
    pd.testing.assert_frame_equal(result.frame, serial)


def test_workers_play_when_they_pay_off(
    serial: pd.DataFrame, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where starting workers costs less than they save (here: nothing), they play."""
    from fadad_agents.analysis import backends

    monkeypatch.setitem(backends.WORKER_START_SECONDS, "processes", 0.0)
    monkeypatch.setattr(backends, "WARM_START_SECONDS", 0.0)
    monkeypatch.setattr(backends, "FORK_START_SECONDS", 0.0)  # a single-threaded sweep's
    result = sweep(
        DUEL, RUNS, SEED, backend="processes", workers=2, batch_size=BATCH, progress=False
    )
    assert (result.backend, result.note) == ("processes", None)
    pd.testing.assert_frame_equal(result.frame, serial)


def test_the_progress_bar_tells_of_the_serial_choice(capsys: pytest.CaptureFixture[str]) -> None:
    """With a progress bar, the choice to play serially is written beside it."""
    sweep(DUEL, 8, SEED, backend="processes", workers=2, batch_size=2)
    assert "played serially" in capsys.readouterr().err


def test_a_single_threaded_sweep_forks_its_workers_from_itself(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Workers fork from a single-threaded sweep (engine already imported, no start cost
    worth the name) and from the preloaded fork server when another thread could hold a
    lock at the fork."""
    from fadad_agents.analysis import pool

    monkeypatch.setattr(threading, "active_count", lambda: 1)
    assert pool.process_context().get_start_method() == "fork"
    monkeypatch.setattr(threading, "active_count", lambda: 2)
    assert pool.process_context().get_start_method() == "forkserver"


def test_the_progress_bar_starts_no_thread() -> None:
    """The sweep's progress bar runs no monitor thread, so the sweep stays single-threaded
    and its workers can fork from it."""
    from fadad_agents.analysis.montecarlo import _progress_bar

    before = threading.active_count()
    bar = _progress_bar(10, 0, enabled=True)
    try:
        assert threading.active_count() == before
    finally:
        bar.close()
