"""The engine's clock parts: the personal round, same-instant phases, timed events,
durative actions, the garbage-collector pause a battle plays under, and the driver that
plays a battle's rounds on its clock (:class:`RoundClock`).

DESIGN.md (engine): ``env.now`` is the one clock, in whole seconds for FADAD rounds (exact
fractions for Fae Domains turns). Same-instant work is ordered by explicit priorities,
never by scheduling luck: :class:`At` is an event at ``now + delay`` with the priority
its caller gives (a :class:`Phase`, or a subsystem's own integer above them).
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from enum import IntEnum
from fractions import Fraction
from itertools import count
from typing import Any, Self

import simpy
from simpy.events import Event, Initialize

from fadad_agents.agents.core.base import SideRoster
from fadad_agents.engine.core.ending import BattleStateError

__all__ = [
    "FULL_COLLECTION_AT",
    "PERSONAL_ROUND_SECONDS",
    "At",
    "Clock",
    "DurativeAction",
    "Phase",
    "RoundClock",
    "collector_paused",
    "round_seconds",
    "seconds_per_round",
]

PERSONAL_ROUND_SECONDS = 6
"""FADAD personal round (SEED 000 4.2, C-01)."""


def round_seconds(battle: Any) -> int:
    """A round's length: a personal round, or ``mass.round_seconds`` in a battle fought by
    units and crews alone (C-01; PROPOSED, the seed gives mass combat none)."""
    for side in battle.sides:  # the first fighter tells a personal battle: no list of all
        for member in side.members:
            if member.kind not in _MASS_KINDS:
                return PERSONAL_ROUND_SECONDS
    kinds = [m.kind for side in battle.sides for m in side.members]
    return seconds_per_round(kinds, battle.options)


_MASS_KINDS = ("unit", "crew")
"""The kinds of combatant a battle of mass combat rounds is fought by alone."""


def seconds_per_round(kinds: Sequence[str], options: Any) -> int:
    """:func:`round_seconds` of a battle whose combatants are of ``kinds`` (agents' or
    stat blocks' ``kind``: the same words), before it is built."""
    if kinds and all(kind in _MASS_KINDS for kind in kinds):
        return int(options.mass.round_seconds)
    return PERSONAL_ROUND_SECONDS


whole_battles: Any = None
"""What plays a battle whole at once where it can (the compiled melee, ``engine.personal.
melee``, registers itself when the engine is imported): its ``play(battle)`` says whether
it played the battle, at its start, to its end; ``plays(battle)`` whether it would play one
just reset; ``count(battle)`` is told of a battle just played round by round in Python.
None: every battle plays its rounds here."""


class Phase(IntEnum):
    """SimPy priorities of same-instant work (lower runs first; SimPy uses 0 and 1)."""

    ACTIONS_DONE = 2
    """Durative actions that finish at this instant complete before the round is played."""
    ROUND = 3
    """The round driver: initiative, declare, act, end-of-round checks."""


FULL_COLLECTION_AT = 50_000
"""New objects (``gc.get_count()[0]``) from which :func:`collector_paused` with
``full=True`` ends with a full collection: a build of about 2,700 fighters and up (9-10
objects a fighter; the heap after the engine's imports holds about 150,000)."""


def collector_paused(*, full: bool = False) -> AbstractContextManager[None]:
    """Pause Python's cyclic garbage collector while a battle is built or plays.

    The log and kernel results are acyclic; without the pause, large battles pay for
    repeated full scans of a growing heap (20-35 % of a 1,000 v 1,000 battle). The
    previous state is restored, and the battle's own cycles go at the next collection.

    With ``full`` (a build), a pause that leaves :data:`FULL_COLLECTION_AT` or more new
    objects ends with a full collection, if the collector was on: the one that so many
    long-lived objects soon make due, paid here rather than in whichever later round
    the collector's counts reach it. A smaller build that leaves a young collection due
    ends with it (else it would run in the battle's first round).
    """
    return _BuildPause() if full else _CollectorPause()


class _CollectorPause:
    """:func:`collector_paused` as a plain class (a generator-made context manager costs
    a microsecond a battle)."""

    __slots__ = ("enabled",)

    def __enter__(self) -> None:
        self.enabled = gc.isenabled()
        gc.disable()

    def __exit__(self, *_: object) -> None:
        if self.enabled:
            gc.enable()


class _BuildPause(_CollectorPause):
    """:func:`collector_paused` with ``full``: counts the objects the pause leaves."""

    __slots__ = ("before",)

    def __enter__(self) -> None:
        super().__enter__()
        self.before = gc.get_count()[0]

    def __exit__(self, *_: object) -> None:
        if self.enabled:
            made = gc.get_count()[0] - self.before
            if made >= FULL_COLLECTION_AT:
                gc.collect()
            elif gc.get_count()[0] > gc.get_threshold()[0]:  # due at the next allocation
                gc.collect(0)  # the build's, not the first round's
        super().__exit__()


class Clock(simpy.Environment):
    """SimPy's environment with one shortcut for a process whose timer is the next event,
    and a rewind to time 0 for a battle played again."""

    def rewind(self) -> None:
        """Back to what ``Clock()`` is: time 0, nothing scheduled, event ids from 0, no
        process active (a reset battle's clock: cheaper than making one)."""
        self._now = 0
        self._queue.clear()
        self._eid = count()
        self._active_proc = None

    @property
    def idle(self) -> bool:
        """Nothing is scheduled: ``peek()`` is infinite (told without the IndexError it
        catches on an empty queue, once a battle)."""
        return not self._queue

    def moved_on(self, delay: int) -> bool:
        """Move the clock ``delay`` on at once if nothing is due until then, and say so.

        What yielding a timer of ``delay`` does when nothing is scheduled up to its time
        (SimPy pops it next and resumes the process at once), without the event: a battle
        whose rounds share the clock with nothing else plays them without a SimPy step.
        A process waiting on a round (:meth:`RoundClock.play_round`), an action or a stop
        time due by then are events, so the timer is yielded and they keep their order.
        """
        due = self._now + delay
        if self.peek() <= due:
            return False
        self._now = due
        return True

    def every(self, delay: int, play: Callable[[], bool]) -> bool:
        """Move the clock ``delay`` on and call ``play()``, again and again, while nothing
        else is due by then (:meth:`moved_on` each time, in a plain loop): True once
        ``play()`` says it is done, False when an event is due by the next ``delay`` (the
        clock not moved: the caller waits on SimPy for it)."""
        queue = self._queue  # SimPy's heap of (time, priority, id, event): peek's
        while not queue or queue[0][0] > self._now + delay:
            self._now += delay
            if play():
                return True
        return False


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


class RoundClock:
    """How a battle is played on its clock: a SimPy process (the round driver) plays a
    round every round's length; :meth:`play_round` advances it by one, :meth:`run_to_end`
    to the end (beginning it outside SimPy when nothing else is on the clock).
    :class:`~fadad_agents.engine.core.battle.Battle` plays the rounds and decides the end
    (``_play_round``, ``_check_end``, ``_finish``)."""

    name: str
    seed: int
    sides: list[SideRoster]
    ending: Any
    env: Clock
    _started: bool
    _round_over: Event | None
    _driver_process: simpy.Process | None
    _seconds: int | None = None  # a round's length (round_seconds), found at the first start

    def _play_round(self) -> None:
        raise NotImplementedError

    def _check_end(self) -> bool:
        raise NotImplementedError

    def _finish(self) -> None:
        raise NotImplementedError

    def _round_length(self) -> int:
        seconds = self._seconds
        if seconds is None:  # the same for every play of this battle: its members are set
            seconds = self._seconds = round_seconds(self)
        return seconds

    def _driver(self) -> Any:
        seconds, env = self._round_length(), self.env
        while True:
            if not env.moved_on(seconds):
                yield At(env, seconds, Phase.ROUND)
            if self._round():
                return

    def _round(self) -> bool:
        """Play a round and close it (:meth:`_close_round`): True when the battle is finished."""
        self._play_round()
        return self._close_round()

    def _close_round(self) -> bool:
        """End the round just played: finish the battle if it is over and wake a
        :meth:`play_round` waiting on this round. True when the battle is finished."""
        finished = self._check_end()
        if finished:
            self._finish()
        # The next play_round makes its own event (run_to_end waits on the driver, so a
        # whole battle makes none per round).
        done, self._round_over = self._round_over, None
        if done is not None:
            done.succeed()
        return finished

    @property
    def finished(self) -> bool:
        """The battle has ended."""
        return self.ending is not None

    def round_driver(self) -> Any:
        """The body of the SimPy process that drives the battle (FADAD rounds every 6 s);
        a subclass with another clock returns its own generator."""
        return self._driver()

    def wake_step(self) -> None:
        """Let a :meth:`play_round` waiting on the current step return."""
        done, self._round_over = self._round_over, None
        if done is not None and not done.triggered:
            done.succeed()

    def stop_driver(self) -> None:
        """Interrupt the driver process (the battle ended between its ticks), unless it is
        the process running now."""
        driver = self._driver_process
        if driver is not None and driver.is_alive and driver is not self.env.active_process:
            driver.interrupt("finished")

    def _start(self) -> None:
        if self._started:
            return
        self._check_sides()
        self._started = True
        self._driver_process = self.env.process(self.round_driver())

    def _check_sides(self) -> None:
        if not all(s.members for s in self.sides):
            empty = [s.name for s in self.sides if not s.members]
            raise BattleStateError(f"sides without fighters: {', '.join(empty)}")

    def play_round(self) -> None:
        """Advance the clock by one personal round (6 s) and play it."""
        if self.finished:
            raise BattleStateError(
                f"battle {self.name!r} (seed {self.seed}) has finished; build a new Battle "
                "from the scenario and seed to play it again"
            )
        self._start()
        if self._round_over is None:
            self._round_over = self.env.event()
        with collector_paused():
            self.env.run(until=self._round_over)

    def step(self) -> None:
        """Mesa's step: one personal round."""
        self.play_round()

    def run_to_end(self) -> Self:
        """Play rounds until the battle ends; raises :class:`BattleStateError` if it had."""
        if self.finished:
            self.play_round()  # raises the clear error
        env = self.env
        with collector_paused():
            if not self._started and env.idle:
                # Nothing else on the clock: the driver's first step is taken here, as the
                # start of its process would take it, and it becomes a SimPy process only
                # if it waits (_Resumed; events keep their order). A ship battle's driver
                # most often plays the whole battle in that step (reloads_until).
                self._check_sides()
                self._started = True
                if _plain_driver(type(self)):
                    # The personal rounds are played in a plain loop, the clock moved on
                    # as the driver's timer would move it (Clock.every), until a round
                    # leaves an event due by the next one's time (an action started);
                    # the driver's first step then waits on that round's timer.
                    whole = whole_battles
                    if whole is not None and whole.play(self):  # at once (compiled)
                        return self
                    if env.every(self._round_length(), self._round):
                        if whole is not None:
                            whole.count(self)
                        return self  # the whole battle without a SimPy step
                self._driver_process = _first_step(env, self.round_driver())
                if self._driver_process is None:
                    return self  # the whole battle in its first step
            else:
                self._start()
            # One env.run for the whole battle: the driver process ends with the battle.
            env.run(until=self._driver_process)
        return self


def _plain_driver(kind: type[RoundClock]) -> bool:
    """Whether ``kind`` drives its battle by the personal round driver, whose rounds
    :meth:`RoundClock.run_to_end` may play in a plain loop (:meth:`Clock.every`)."""
    return kind.round_driver is RoundClock.round_driver and kind._driver is RoundClock._driver


def _first_step(env: simpy.Environment, driver: Any) -> simpy.Process | None:
    """Take ``driver``'s first step outside SimPy, on a clock with nothing else on it (as
    the Initialize event of ``env.process(driver)`` would take it, its first event; the
    events the step books draw ids one lower, in the same order): the process waiting on
    the event it yielded (:class:`_Resumed`), or None if it ended.

    A process that ends has its own event booked (NORMAL, now), and ``env.run`` until it
    plays what is due before it; what the step left due now (a reload recomputed at
    URGENT, say) is played so, up to an event booked in its place.
    """
    try:
        waiting_on = driver.send(None)
    except StopIteration:
        queue = env._queue  # SimPy's heap, as Clock.idle
        if queue and queue[0][0] <= env.now:
            ended = env.event()
            ended.succeed()  # booked as Process._resume books a process that ends
            env.run(until=ended)
        return None
    return _Resumed(env, driver, waiting_on)


class _Resumed(simpy.Process):
    """A driver begun outside SimPy, handed to it as a process waiting on the event it
    yielded: what ``env.process(driver)`` would be after its first step (no Initialize
    event: the start already happened)."""

    def __init__(self, env: simpy.Environment, driver: Any, waiting_on: Event) -> None:
        # simpy.Process.__init__ without scheduling the start.
        self.env = env
        self.callbacks = []
        self._generator = driver
        self._target = waiting_on
        waiting_on.callbacks.append(self._resume)
