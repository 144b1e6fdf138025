"""The local process pool of ``backend="processes"``: its workers, how they start, how
they end.

A pool's workers fork from the sweep's own process when it runs no other Python thread
(the engine already imported: no start cost to speak of), else from a fork server that
imports the engine once (1-2 s). Pools are kept per worker count, so a notebook or
dashboard that sweeps again and again starts them once.

Worker processes die with the process that started them, however it ends: each watches
its starter (:func:`_watch_starter`: a pidfd on Linux, else a poll) and exits when it is
gone, so a sweep killed by SIGKILL or SIGTERM leaves no worker, fork server or resource
tracker behind (the fork server and the tracker end when their last client does). A worker
takes the default action for SIGTERM and ignores SIGINT, whatever its starter does with
them (:func:`_start_worker`): the sweep decides when its workers end.
"""

from __future__ import annotations

import atexit
import multiprocessing
import os
import select
import signal
import sys
import threading
import time
import warnings
from collections.abc import Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from contextlib import contextmanager
from typing import Any

from fadad_agents.analysis.replicates import Batch, run_batch

__all__ = [
    "forks_from_here",
    "forkserver_context",
    "is_warm",
    "main_importable",
    "play",
    "process_context",
    "shutdown_workers",
]

_STARTER_POLL = 0.5
"""Seconds between a worker's checks that its starter lives, where no pidfd tells it."""

_WORKER_MODULE = "fadad_agents.analysis.replicates"
"""What a worker runs (:func:`run_batch`): preloaded by the fork server."""


def main_importable() -> bool:
    """Whether a forkserver (or spawn) child can re-import ``__main__`` by its path; a
    main module read from stdin or ``-c`` cannot (a notebook kernel's can)."""
    main = sys.modules.get("__main__")
    path = getattr(main, "__file__", None)
    return path is None or os.path.exists(path)


def forkserver_context(*preload: str) -> Any:
    """The forkserver context, its server preloading the engine (and ``preload``).

    Children fork from one clean, single-threaded server that imported the engine once
    (about a second), never from this process, which may hold threads (tqdm, Dask,
    Jupyter). The server starts on first use and serves every later pool and cluster of
    this process; its preload list is read then, so the first caller's list is kept.
    """
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload([*preload, _WORKER_MODULE])
    return context


def forks_from_here() -> bool:
    """Whether a pool's workers fork from this process: it runs no Python thread but this
    one (a fork then copies no lock another thread of ours holds) on a platform that
    forks. They then start at once, the engine already imported, instead of from the fork
    server, which imports it anew (1-2 s).

    The C libraries' own threads (OpenBLAS's pool, jemalloc's background thread) do not
    count: both libraries make themselves safe across a fork (``pthread_atfork``), though
    Python warns of any thread at all (:data:`_FORK_WARNING`)."""
    return "fork" in multiprocessing.get_all_start_methods() and threading.active_count() == 1


_FORK_WARNING = r"This process \(pid=\d+\) is multi-threaded, use of fork\(\) may lead to deadlocks"
"""Python's warning at a fork from a process with any OS thread besides the main one."""


@contextmanager
def _launching() -> Iterator[None]:
    """Around the first submission to a new pool, which forks its workers: Python's
    warning about other threads is silenced where only the C libraries' threads run
    (see :func:`forks_from_here`)."""
    with warnings.catch_warnings():
        if forks_from_here():
            warnings.filterwarnings("ignore", _FORK_WARNING, DeprecationWarning)
        yield


def process_context() -> Any:
    """fork from this process where it is single-threaded; else forkserver where possible;
    a main module that a child cannot re-import means fork (the pool's workers then start
    from this process)."""
    if forks_from_here() or not main_importable():
        return multiprocessing.get_context("fork")
    if "forkserver" not in multiprocessing.get_all_start_methods():  # Windows
        return multiprocessing.get_context("spawn")
    return forkserver_context()


# Starting worker processes costs 1-2 s (each imports the engine); a notebook or dashboard
# sweeps again and again, so pools are kept per worker count until shutdown_workers() or
# exit. A worker keeps no battle state between batches (each replicate builds its own).
_POOLS: dict[int, ProcessPoolExecutor] = {}


def _starter_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except (ProcessLookupError, PermissionError):  # gone (or the pid reused by another user)
        return False
    return True


def _wait_for_exit(pid: int) -> None:
    """Return when process ``pid`` has ended."""
    try:
        fd = os.pidfd_open(pid)  # Linux 5.3+: readable once the process ends
    except (AttributeError, OSError):
        while _starter_alive(pid):
            time.sleep(_STARTER_POLL)
        return
    select.select([fd], [], [])


def _start_worker(pid: int) -> None:
    """Pool initializer: a worker ends on SIGTERM and leaves Ctrl-C to its sweep, and ends
    the moment process ``pid`` (the sweep) ends.

    A worker forked from the sweep inherits its signal handlers. The command line's SIGTERM
    handler raises an exception; in a worker, the pool would catch it as the batch's
    failure and play on, so :func:`shutdown_workers` terminating it would wait on a worker
    that never ends. Ctrl-C reaches every process of the terminal's group: the sweep
    handles it and ends its workers, which must not stop mid-batch on their own.
    """
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _watch_starter(pid)


def _watch_starter(pid: int) -> None:
    """End this worker the moment process ``pid`` (the sweep) ends."""

    def watch() -> None:
        _wait_for_exit(pid)
        os._exit(1)  # the sweep is gone: nobody wants this worker's rows

    threading.Thread(target=watch, name="fadad-watch-starter", daemon=True).start()


def _pool(workers: int) -> ProcessPoolExecutor:
    pool = _POOLS.get(workers)
    if pool is None or getattr(pool, "_broken", False):
        pool = _POOLS[workers] = ProcessPoolExecutor(
            workers,
            mp_context=process_context(),
            initializer=_start_worker,
            initargs=(os.getpid(),),
        )
    return pool


def shutdown_workers(*, now: bool = False) -> None:
    """Stop the worker processes kept for ``backend="processes"`` (started again on use).

    ``now``: end them at once (a sweep interrupted or terminated), without waiting for
    the batches they are playing.
    """
    while _POOLS:
        _, pool = _POOLS.popitem()
        if now:
            processes = list(getattr(pool, "_processes", {}).values())
            results = getattr(pool, "_result_queue", None)  # shutdown() lets go of it
            pool.shutdown(wait=False, cancel_futures=True)
            for process in processes:
                process.terminate()
            for process in processes:
                process.join(timeout=5)
            _cut_off(results)
        else:
            pool.shutdown(wait=True, cancel_futures=True)


def _cut_off(results: Any) -> None:
    """Close this process's end for writing of a terminated pool's result pipe.

    A worker terminated while it sent its batch's rows leaves half a message in the pipe.
    The pool's thread reading it waits for the rest, and the pipe never ends while a
    writer lives: the pool keeps one here, though only workers write to it (CPython 3.12
    and 3.13). That thread then never returns, and the interpreter waits for it at exit:
    a terminated sweep that never ends. With this end closed and the workers gone, the
    read meets the end of the pipe, the pool counts itself broken, and its thread ends.
    """
    writer = getattr(results, "_writer", None)
    if writer is not None:
        writer.close()


atexit.register(shutdown_workers)


def is_warm(workers: int) -> bool:
    """Whether a pool of ``workers`` is kept from an earlier sweep (no start to pay)."""
    return workers in _POOLS


def play(batches: Iterable[Batch], workers: int) -> Iterator[tuple[Batch, list[dict[str, Any]]]]:
    """Play ``batches`` on the pool of ``workers`` (at most ``2 * workers`` in flight);
    yield each with its rows as it finishes."""
    pending = iter(batches)
    pool = _pool(workers)
    running: dict[Future[list[dict[str, Any]]], Batch] = {}

    def top_up() -> None:
        while len(running) < 2 * workers:
            batch = next(pending, None)
            if batch is None:
                return
            running[pool.submit(run_batch, batch)] = batch

    try:
        with _launching():
            top_up()
        while running:
            finished, _ = wait(running, return_when=FIRST_COMPLETED)
            for future in sorted(finished, key=lambda f: (running[f].variant, running[f].start)):
                batch = running.pop(future)
                yield batch, future.result()
            top_up()
    finally:
        for future in running:  # stopped early or interrupted: drop queued work
            future.cancel()
