"""Where the batches of a sweep are played: in this process, on local processes, on Dask.

Every backend runs the same function (:func:`~fadad_agents.analysis.replicates.run_batch`)
on the same batches, so the rows are identical whichever backend and worker count; only
the order in which batches finish differs, and the sweep sorts rows by replicate.

A Dask cluster's workers need ``fadad-agents`` installed (the same version); scenarios
travel inside the batches as YAML text, so workers need no scenario or model files.

Batches are submitted lazily with at most ``2 * workers`` in flight: a sweep that stops
adaptively wastes at most one window of work, and memory stays flat on long sweeps.

A sweep too small for its workers to pay off is played serially (:class:`Played`): the
first batch, played here, tells how long the rest would take. The local process pool,
how its workers start and how they end: :mod:`fadad_agents.analysis.pool`.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import shutil
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import Any, Literal

from fadad_agents.analysis.pool import (
    forks_from_here,
    forkserver_context,
    is_warm,
    main_importable,
    play,
    shutdown_workers,
)
from fadad_agents.analysis.replicates import Batch, run_batch, run_batches

__all__ = [
    "BACKENDS",
    "FORK_START_SECONDS",
    "WARM_START_SECONDS",
    "WORKER_START_SECONDS",
    "Backend",
    "BackendError",
    "Played",
    "default_workers",
    "execute",
    "local_cluster_settings",
    "shutdown_workers",
]

Backend = Literal["serial", "processes", "dask"]
BACKENDS: tuple[str, ...] = ("serial", "processes", "dask")

Done = Iterator[tuple[Batch, list[dict[str, Any]]]]


class BackendError(ValueError):
    """An unknown backend, a bad worker count, or Dask missing or unreachable."""


def default_workers() -> int:
    """Worker processes used when none are given: the CPUs this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _serial(batches: Iterable[Batch]) -> Done:
    for batch in batches:
        yield batch, run_batch(batch)


def _forks_from_server() -> bool:
    """Whether this process's LocalCluster workers can fork from the fork server."""
    return main_importable() and "forkserver" in multiprocessing.get_all_start_methods()


def _dask_client(workers: int, scheduler: str | None, scratch: str) -> tuple[Any, Any]:
    if scheduler is None and _forks_from_server():
        # The fork server imports Dask and the engine (1-2 s) while this process imports
        # Dask: started first, its import overlaps ours instead of following it.
        from multiprocessing import forkserver  # POSIX only

        forkserver_context("distributed")
        forkserver.ensure_running()
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise BackendError(
            "backend 'dask' needs dask.distributed: pip install 'fadad-agents[dask]'"
        ) from None
    if scheduler is not None:
        try:
            return Client(scheduler, timeout="10s"), None  # type: ignore[no-untyped-call]
        except (OSError, TimeoutError) as exc:
            raise BackendError(f"cannot reach the Dask scheduler at {scheduler} ({exc})") from None
    with local_cluster_settings():
        cluster = LocalCluster(  # type: ignore[no-untyped-call]
            n_workers=workers,
            threads_per_worker=1,
            processes=True,
            dashboard_address=":0",  # a free port: never clash with a running cluster
            silence_logs=logging.CRITICAL,  # a worker heartbeat racing close() logs an ERROR
            local_directory=scratch,
        )
    return Client(cluster), cluster  # type: ignore[no-untyped-call]


QUIET_MONITORING: dict[str, Any] = {
    "distributed.admin.tick.interval": "500ms",
    "distributed.admin.system-monitor.interval": "2s",
    "distributed.worker.profile.enabled": False,
}
"""Dask settings of the LocalClusters a sweep starts for itself.

Every 20 ms the scheduler and each worker check their event loop, every 10 ms each worker
samples its task's stack for the dashboard's profile, every 0.5 s everyone polls the
system: on two cores that costs a sweep about a tenth of its speed (measured with
``benchmarks``: main-process CPU per replicate 0.19 -> 0.11 ms, wall time -10 %). A
sweep's private cluster has no one watching a dashboard, so it checks less often and does
not profile. A cluster given by address keeps its own settings."""


@contextmanager
def local_cluster_settings() -> Iterator[None]:
    """Settings a sweep's own LocalCluster starts under: :data:`QUIET_MONITORING`, and
    workers forked from the fork server (the engine preloaded), not Dask's default spawn,
    where each worker imports Dask and the engine anew (1-2 s that a sweep waits for, and
    again at every new cluster) and takes ~0.5 s to stop.

    Dask's own forkserver preload list is set first (``get_mp_context`` sets it once),
    then extended with the engine. Where a child cannot re-import ``__main__`` (or there
    is no forkserver), Dask's configured start method is left alone.
    """
    import dask
    from distributed.utils import get_mp_context

    with dask.config.set(QUIET_MONITORING):
        if not _forks_from_server():
            yield
            return
        with dask.config.set({"distributed.worker.multiprocessing-method": "forkserver"}):
            get_mp_context()  # type: ignore[no-untyped-call]
            forkserver_context("distributed")
            yield


TASKS_PER_WORKER = 8
"""Dask tasks a worker gets over a sweep: batches are grouped into tasks to about this
many (each Dask task costs tens of milliseconds of scheduling, transfer and
bookkeeping; a pool's task costs a fraction of that), never fewer than one batch a task."""


def _grouped(batches: Iterator[Batch], size: int) -> Iterator[list[Batch]]:
    """Consecutive batches in lists of ``size`` (the last may be shorter)."""
    while group := [b for _, b in zip(range(size), batches, strict=False)]:
        yield group


def _scratch(near: os.PathLike[str] | str | None) -> str:
    """A fresh folder for a LocalCluster's spill and scratch files: a dot-folder inside the
    results directory (``near``), else a private temporary folder; removed after."""
    if near is None:
        import tempfile

        return tempfile.mkdtemp(prefix="fadad-dask-")
    folder = os.path.join(near, ".dask-scratch")
    shutil.rmtree(folder, ignore_errors=True)  # left by a sweep that was killed
    os.makedirs(folder)
    return folder


def _dask(
    batches: Iterable[Batch],
    workers: int,
    scheduler: str | None,
    expected: int,
    near: os.PathLike[str] | str | None = None,
) -> Done:
    from distributed import as_completed

    scratch = _scratch(near)
    try:
        client, cluster = _dask_client(workers, scheduler, scratch)
    except BaseException:
        shutil.rmtree(scratch, ignore_errors=True)
        raise
    try:
        if scheduler is not None:
            workers = max(1, len(client.scheduler_info().get("workers", {})))
        # Tasks of several consecutive batches; each batch is still yielded on its own, so
        # the parts, the adaptive-stopping checks and the rows are those of any backend.
        size = max(1, expected // (TASKS_PER_WORKER * workers))
        pending = _grouped(iter(batches), size)
        running: dict[str, list[Batch]] = {}
        queue = as_completed()  # type: ignore[no-untyped-call]

        def submit() -> None:
            group = next(pending, None)
            if group is not None:
                future = client.submit(run_batches, group, pure=False)
                running[future.key] = group
                queue.add(future)  # type: ignore[no-untyped-call]

        for _ in range(2 * workers):
            submit()
        for future in queue:
            group = running.pop(future.key)
            yield from zip(group, future.result(), strict=True)
            submit()
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
        shutil.rmtree(scratch, ignore_errors=True)


WORKER_START_SECONDS = {"processes": 2.0, "dask": 3.0}
"""About what starting the workers costs a sweep on 2 cores: the fork server importing the
engine, then each worker (a LocalCluster's scheduler and nannies too). Measured from the
first sweep of a fresh process, 4 duels a batch at a time: 1-2 s for 2 processes and
2-3 s for a LocalCluster on an idle machine, 4.7 and 7.4 s on a busy one (where serial
play slows alike)."""
FORK_START_SECONDS = 0.2
"""What starting a pool costs where its workers fork from this single-threaded process
(:func:`_forks_from_here`): no import, only the forks and the pool's threads (measured
0.03 s for 2 workers on an idle machine; a busy one pays several times that)."""
WARM_START_SECONDS = 0.1
"""What a sweep on a process pool kept from an earlier sweep pays before its first batch."""


class Played:
    """The batches as they finish (iterate it), and which backend played them.

    With ``auto_serial``, a sweep that would start its own workers plays its first batch
    here and times it (CPU time: what the play costs, not the machine's other work): when
    the whole sweep would take less time serially than the workers could save after
    paying their start, the rest is played serially too, and :attr:`note` says so. The
    rows are the same either way.

    Attributes:
        backend: the backend that plays the batches (``serial`` when chosen so).
        note: why the sweep was played serially instead of the backend asked for, or None.
    """

    def __init__(
        self,
        batches: Iterable[Batch],
        backend: str,
        workers: int,
        scheduler: str | None,
        expected: int,
        scratch: os.PathLike[str] | str | None,
        auto_serial: bool,
    ) -> None:
        self.backend = backend
        self.note: str | None = None
        self._done = self._play(iter(batches), workers, scheduler, expected, scratch, auto_serial)

    def __iter__(self) -> Done:
        return self._done

    def _play(
        self,
        batches: Iterator[Batch],
        workers: int,
        scheduler: str | None,
        expected: int,
        scratch: os.PathLike[str] | str | None,
        auto_serial: bool,
    ) -> Done:
        if self.backend != "serial" and auto_serial and scheduler is None:
            first = next(batches, None)
            if first is None:
                return
            rows, each = _timed(first)
            yield first, rows
            self.note = self._too_small(each * len(rows) * (expected - 1), workers)
            if self.note is not None:
                self.backend = "serial"
        if self.backend == "serial":
            yield from _serial(batches)
        elif self.backend == "processes":
            yield from play(batches, workers)
        else:
            yield from _dask(batches, workers, scheduler, expected, scratch)

    def _too_small(self, serial: float, workers: int) -> str | None:
        """Why the rest, ``serial`` seconds of play in this process, is better played
        serially, or None."""
        warm = self.backend == "processes" and is_warm(workers)
        if warm:
            start = WARM_START_SECONDS
        elif self.backend == "processes" and forks_from_here():
            start = FORK_START_SECONDS
        else:
            start = WORKER_START_SECONDS[self.backend]
        saved = serial * (1 - 1 / workers)  # what the workers could save, at best
        if saved > start:
            return None
        if workers == 1:
            why = "one worker plays no faster than this process"
        else:
            kind = "worker processes" if self.backend == "processes" else "Dask workers"
            play = f"about {serial:.1f} s" if serial >= 0.1 else "under 0.1 s"
            why = (
                f"{play} of play is too little for {workers} {kind} to pay off (starting "
                f"them costs about {start:.1f} s)"
            )
        return f"played serially: {why}; auto_serial=False uses them anyway"


def _timed(batch: Batch) -> tuple[list[dict[str, Any]], float]:
    """The batch's rows and the seconds a replicate takes, timed after the first one
    (which also sets up the scenario's first battle).

    Timed in this thread's CPU time, the work itself: a first batch lasts a few
    milliseconds (16 duels of a sweep of 1,000: ~2 ms), and on a busy machine one pause
    of this process read on the wall clock made it 3-6 times longer, and the sweep then
    started workers for 0.1 s of play (8 of 20 such sweeps under load 5).
    """
    start = time.thread_time()
    rows = run_batch(replace(batch, stop=batch.start + 1))
    if batch.stop - batch.start == 1:
        return rows, time.thread_time() - start
    start = time.thread_time()
    rows += run_batch(replace(batch, start=batch.start + 1))
    return rows, (time.thread_time() - start) / (batch.stop - batch.start - 1)


def execute(
    batches: Iterable[Batch],
    backend: str = "serial",
    workers: int | None = None,
    scheduler: str | None = None,
    expected: int = 0,
    scratch: os.PathLike[str] | str | None = None,
    auto_serial: bool = False,
) -> Played:
    """Play ``batches`` (consumed lazily); iterate the result for ``(batch, rows)`` as
    each finishes.

    Args:
        batches: the batches to play; the iterable is read only when a worker is free.
        backend: ``serial`` (this process), ``processes`` (a local process pool) or
            ``dask`` (a new ``distributed.LocalCluster``, or the cluster at ``scheduler``).
        workers: worker processes (default: the CPUs available; ignored by ``serial`` and
            by a remote scheduler, whose workers are counted).
        scheduler: a Dask scheduler address (``tcp://host:8786``); implies ``dask``.
        expected: how many batches there will be (0: unknown); Dask groups them into
            about :data:`TASKS_PER_WORKER` tasks a worker.
        scratch: the results directory, where a LocalCluster keeps its scratch files
            (in ``.dask-scratch``, removed after); None: a private temporary folder.
        auto_serial: play serially when workers this sweep would start cannot pay off
            (see :class:`Played`; never with a scheduler address).

    Raises:
        BackendError: unknown backend, workers < 1, Dask missing or unreachable.
    """
    if scheduler is not None and backend not in ("dask",):
        backend = "dask"
    if backend not in BACKENDS:
        raise BackendError(f"unknown backend {backend!r} (allowed: {', '.join(BACKENDS)})")
    if workers is not None and (
        isinstance(workers, bool) or not isinstance(workers, int) or workers < 1
    ):
        raise BackendError(f"workers must be a whole number >= 1, got {workers!r}")
    count = workers or default_workers()
    return Played(batches, backend, count, scheduler, expected, scratch, auto_serial)
