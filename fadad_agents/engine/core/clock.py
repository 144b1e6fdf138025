"""The engine's clock parts: the personal round, same-instant phases, timed events,
durative actions, and the garbage-collector pause a battle plays under.

DESIGN.md (engine): ``env.now`` is the one clock, in whole seconds for FADAD rounds (exact
fractions for Fae Domains turns). Same-instant work is ordered by explicit priorities,
never by scheduling luck: :class:`At` is an event at ``now + delay`` with the priority
its caller gives (a :class:`Phase`, or a subsystem's own integer above them).
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from enum import IntEnum
from fractions import Fraction
from typing import Any

import simpy
from simpy.events import Event, Initialize

__all__ = [
    "PERSONAL_ROUND_SECONDS",
    "At",
    "Clock",
    "DurativeAction",
    "Phase",
    "collector_paused",
    "round_seconds",
    "seconds_per_round",
]

PERSONAL_ROUND_SECONDS = 6
"""FADAD personal round (SEED 000 4.2, C-01)."""


def round_seconds(battle: Any) -> int:
    """A round's length: a personal round, or ``mass.round_seconds`` in a battle fought by
    units and crews alone (C-01; PROPOSED, the seed gives mass combat none)."""
    kinds = [m.kind for side in battle.sides for m in side.members]
    return seconds_per_round(kinds, battle.options)


def seconds_per_round(kinds: Sequence[str], options: Any) -> int:
    """:func:`round_seconds` of a battle whose combatants are of ``kinds`` (agents' or
    stat blocks' ``kind``: the same words), before it is built."""
    if kinds and all(kind in ("unit", "crew") for kind in kinds):
        return int(options.mass.round_seconds)
    return PERSONAL_ROUND_SECONDS


class Phase(IntEnum):
    """SimPy priorities of same-instant work (lower runs first; SimPy uses 0 and 1)."""

    ACTIONS_DONE = 2
    """Durative actions that finish at this instant complete before the round is played."""
    ROUND = 3
    """The round driver: initiative, declare, act, end-of-round checks."""


@contextmanager
def collector_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector while a battle plays.

    The log and kernel results are acyclic; without the pause, large battles pay for
    repeated full scans of a growing heap (20-35 % of a 1,000 v 1,000 battle). The
    previous state is restored, and the battle's own cycles go at the next collection.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


class Clock(simpy.Environment):
    """SimPy's environment with one shortcut for a process whose timer is the next event."""

    def moved_on(self, delay: int) -> bool:
        """Move the clock ``delay`` on at once if nothing is due until then, and say so.

        What yielding a timer of ``delay`` does when nothing is scheduled up to its time
        (SimPy pops it next and resumes the process at once), without the event: a battle
        whose rounds share the clock with nothing else plays them without a SimPy step.
        A process waiting on a round (:meth:`Battle.play_round`), an action or a stop
        time due by then are events, so the timer is yielded and they keep their order.
        """
        due = self._now + delay
        if self.peek() <= due:
            return False
        self._now = due
        return True


class At(Event):
    """An event at ``now + delay`` with an explicit same-instant priority.

    Built like ``simpy.Timeout`` (which sets the outcome and schedules itself) so the
    priority is ours instead of NORMAL.
    """

    def __init__(self, env: simpy.Environment, delay: Fraction | int, priority: int) -> None:
        # Event.__init__ inlined, as simpy.Timeout does (one a round, one an action).
        self.env = env
        self.callbacks = []
        self._ok = True
        self._value = None
        env.schedule(self, priority, delay)  # type: ignore[arg-type]


class DurativeAction:
    """A durative action's process with a cancel that is safe before it starts."""

    __slots__ = ("cancelled", "process")

    def __init__(self) -> None:
        self.cancelled: str | None = None
        self.process: simpy.Process | None = None

    @classmethod
    def start(
        cls,
        env: simpy.Environment,
        seconds: int,
        on_done: Callable[[], None],
        on_interrupt: Callable[[str], None],
    ) -> DurativeAction:
        """The action as a process: ``on_done()`` after ``seconds`` (finishing before a
        round due at the same instant), or ``on_interrupt(cause)`` if interrupted first."""
        action = cls()

        def body() -> Any:
            try:
                if action.cancelled is None:
                    yield At(env, seconds, Phase.ACTIONS_DONE)
            except simpy.Interrupt as stop:
                action.cancelled = str(stop.cause)
            if action.cancelled is not None:
                on_interrupt(action.cancelled)
                return
            on_done()

        action.process = env.process(body())
        return action

    @property
    def is_alive(self) -> bool:
        return self.process is not None and self.process.is_alive

    def interrupt(self, cause: str) -> None:
        proc = self.process
        if proc is None or not proc.is_alive:
            return
        if isinstance(proc.target, Initialize):
            self.cancelled = cause  # not started yet: it sees the flag on its first step
        else:
            proc.interrupt(cause)
