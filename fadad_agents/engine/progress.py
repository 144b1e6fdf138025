"""A long battle's progress on standard error: its round and how many still fight, shown
once it has lasted :data:`PROGRESS_AFTER` seconds (``fadad run`` of thousands of
fighters, a minute or so).

A thread of its own looks at the battle every :data:`POLL` seconds and reads two numbers
(a list's length is read whole under the interpreter's lock); the battle is not touched,
so it plays the same, byte for byte, shown or not. A battle over before then shows
nothing.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

__all__ = ["POLL", "PROGRESS_AFTER", "shown"]

PROGRESS_AFTER = 1.0
"""Seconds a battle plays before its progress shows."""

POLL = 0.25
"""Seconds between two looks at the battle."""


@contextmanager
def shown(battle: Any) -> Iterator[None]:
    """Show ``battle``'s progress while the block plays it (from :data:`PROGRESS_AFTER`
    seconds on), and take the bar away when it ends."""
    stop = threading.Event()
    watcher = threading.Thread(
        target=_watch, args=(battle, stop), name="fadad-progress", daemon=True
    )
    watcher.start()
    try:
        yield
    finally:
        stop.set()
        watcher.join()


def _watch(battle: Any, stop: threading.Event) -> None:
    """After :data:`PROGRESS_AFTER` seconds (a battle over by then: nothing, not even
    tqdm's import), update a bar of ``battle``'s rounds until ``stop`` is set."""
    began = time.time()  # tqdm's clock: the bar counts from the battle's start
    if stop.wait(PROGRESS_AFTER):
        return
    from tqdm.auto import tqdm

    class Bar(tqdm):  # type: ignore[misc]
        monitor_interval = 0  # no monitor thread of its own: this one is enough

    shape = "battle: round {n} [{elapsed}{postfix}]"  # no total: a battle's length is unknown
    rounds = battle.round
    with Bar(
        bar_format=shape, initial=rounds, postfix=_fighting(battle), leave=False,
        mininterval=0,  # POLL paces it
    ) as bar:  # fmt: skip
        bar.start_t = began
        while not stop.wait(POLL):
            rounds = battle.round
            if rounds > bar.n:
                bar.set_postfix_str(_fighting(battle), refresh=False)
                bar.update(rounds - bar.n)


def _fighting(battle: Any) -> str:
    """How many of ``battle``'s sides' members still fight, said (0 where it keeps no such
    list)."""
    fighting = sum(len(getattr(side, "active", ())) for side in getattr(battle, "sides", ()))
    return f"{fighting:,} fighting"
