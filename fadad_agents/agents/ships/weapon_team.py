"""WeaponTeam: one big weapon aboard a ship and the hands working it, and its reload.

``ships-spelljammer.md`` 6.1 (EX-SJ-01) with ``ships-fadad.md`` 3.1 (A-37): a weapon
with its full crew reloads and fires in its listed rounds (RoF 1/3 -> 3 ship rounds);
each missing crewman adds one round (:func:`~fadad_agents.rules.ships.crew.reload_rounds`;
``ship.reload_rule = "proportional"`` scales the time instead). A crewman lost during a
reload counts as lost from its start: the reload is interrupted and its total
recomputed with the rounds already spent
(:func:`~fadad_agents.rules.ships.crew.reload_remaining`). A weapon that loses its whole
crew stops; when a new crew takes over, loading starts over.

The reload runs on the battle's SimPy clock as a :class:`Reload` of events with callbacks
rather than a process (a process costs a generator and three events a shot: most of a
duel's events). Its start and each crew change it must hear of are handled at URGENT
priority at the instant they happen, after the step that caused them, where a process
would start and take its interrupts, so every event keeps a process's order; its end is
booked at NORMAL (1), before the ship-round driver (3) at the same instant, so a weapon
whose reload ends exactly at a round's start is loaded for that round. Where the driver
would wait and nothing but these events is due, it plays them itself in the same order
(:func:`reloads_until`): a duel's rounds take no SimPy step. The ends of the reloads a
ship phase starts are not put on the clock's queue at all: the driver holds them in a
heap of its own, entries as the queue's, until they are played or it hands them over
to SimPy to wait (most shots: no event made).
"""

from __future__ import annotations

import math
from heapq import heappop, heappush
from typing import Any

import mesa
import simpy
from simpy.events import NORMAL, URGENT, EventPriority

from fadad_agents.rules.ships.crew import reload_remaining, reload_rounds
from fadad_agents.schema.equipment import ShipWeapon

__all__ = ["Held", "Reload", "WeaponTeam", "hand_over", "reloads_until"]


class WeaponTeam(mesa.Agent):  # type: ignore[misc]
    """A big weapon, its hands and its reload state.

    Attributes:
        weapon: the catalogue weapon (range, damage, crew, reload rounds, arc).
        ship: the ship carrying it (any object with ``name`` and ``guns_manned()``, told
            when its hands or its working state change).
        crew: hands working it now.
        loaded: ready to fire.
        disabled: damaged or destroyed by a critical; never fires again this battle.
        fired_round: the ship round it last fired (each weapon fires once a turn).
    """

    __slots__ = (
        "crew",
        "disabled",
        "env",
        "fired_round",
        "label",
        "loaded",
        "on_loaded",
        "process",
        "proportional",
        "reload_started",
        "round_seconds",
        "ship",
        "weapon",
    )

    def __init__(
        self,
        model: mesa.Model,
        *,
        weapon: ShipWeapon,
        ship: Any,
        label: str,
        env: simpy.Environment,
        round_seconds: int,
        proportional: bool = False,
    ) -> None:
        super().__init__(model)
        self.weapon = weapon
        self.ship = ship
        self.label = label
        self.round_seconds = round_seconds
        self.proportional = proportional
        self.on_loaded: Any = None
        self.restart(env)

    def restart(self, env: simpy.Environment) -> None:
        """Her state at set-up on the battle's clock ``env``: loaded, unmanned, working."""
        self.env = env
        self.crew = 0
        self.loaded = True  # PROPOSED: ships meet with their weapons loaded (SJ 15);
        # ``sj.weapons_start_loaded = False`` calls :meth:`start_unloaded` at set-up
        self.disabled = False
        self.ship.guns_manned()
        self.fired_round = -1
        self.process: Reload | None = None
        self.reload_started: int | None = None

    @property
    def needed(self) -> int:
        """Full crew for the listed rate of fire."""
        return self.weapon.crew

    @property
    def reloading(self) -> bool:
        """A reload is under way (or waits for hands)."""
        return self.process is not None and self.process.alive

    def total_rounds(self, crew: int) -> int:
        """Ship rounds to reload and fire with ``crew`` hands (A-37, EX-SJ-01)."""
        base, need = self.weapon.reload_rounds, self.weapon.crew
        if self.proportional:
            return math.ceil(base * need / min(crew, need))
        return reload_rounds(base, need, crew)

    def remaining_rounds(self, crew: int, spent: int) -> int:
        """Rounds still to go with ``crew`` hands after ``spent`` whole rounds of work."""
        if self.proportional:
            return max(0, self.total_rounds(crew) - spent)
        return reload_remaining(self.weapon.reload_rounds, self.weapon.crew, crew, spent)

    def can_fire(self, round_no: int) -> bool:
        """Loaded, worked by at least one hand, not damaged, not yet fired this turn."""
        return self.loaded and self.crew > 0 and not self.disabled and self.fired_round != round_no

    def start_unloaded(self) -> None:
        """At set-up (``sj.weapons_start_loaded`` false): the weapon starts empty and its
        first reload begins when hands reach it."""
        self.loaded = False
        self._start()

    def fire(self, round_no: int) -> None:
        """The shot is away: start reloading (:meth:`_start`, inline: every shot)."""
        self.loaded = False
        self.fired_round = round_no
        self.process = Reload(self, getattr(self.model, "reload_begins", None))

    def set_crew(self, crew: int) -> None:
        """Hands at the weapon change; a loss mid-reload interrupts and recomputes it."""
        before, self.crew = self.crew, max(0, crew)
        if self.crew != before:
            self.ship.guns_manned()
        reload = self.process
        if reload is None or not reload.alive or self.crew == before:
            return
        if self.crew < before or before == 0:
            reload.interrupt()

    def stop(self) -> None:
        """The weapon is out of the fight (ship lost, weapon destroyed): end its reload."""
        self.disabled = True
        self.ship.guns_manned()
        reload = self.process
        if reload is not None:
            reload.alive = False
        self.process = None

    def _start(self) -> None:
        self.process = Reload(self, getattr(self.model, "reload_begins", None))


class _Call(simpy.Event):
    """An event that calls ``then``, triggered as simpy's own Initialize and Timeout are,
    built without Event.__init__'s call (as clock.At): :func:`_call` books it on the
    queue, :func:`hand_over` puts a held reload's end there."""

    def __init__(self, env: simpy.Environment, then: Any) -> None:
        self.env = env
        self.callbacks = [then]
        self._ok = True
        self._value = None


def _call(env: simpy.Environment, delay: int, priority: EventPriority, then: Any) -> _Call:
    """A :class:`_Call` of ``then`` booked ``delay`` seconds from now at ``priority``."""
    event = _Call(env, then)
    env.schedule(event, priority, delay)
    return event


Held = list[tuple[float, EventPriority, int, "Reload"]]
"""Reload ends the ship-round driver holds off the clock's queue: a heap of entries as
SimPy's own, ``(time, NORMAL, event id, reload)``, the id drawn from the clock's count
when the end is booked (:meth:`Reload.begin`), as ``env.schedule`` draws it."""


def reloads_until(env: simpy.Environment, due: float, held: Held) -> bool:
    """Play every event due on ``env`` up to ``due`` as SimPy's steps would, and move the
    clock to ``due``, if they are all reload events: ends ``held`` off the queue and
    :class:`_Call` events on it (at URGENT or NORMAL: all before a round driver's event
    at ``due``), merged in the queue's order; True when done. False when anything else is
    due by then (nothing played), or if a reload's callback ever booked another kind of
    event (none does): the ``held`` ends are then handed to the queue
    (:func:`hand_over`), and the caller waits for ``due`` on the clock, where SimPy
    plays what is left.

    The ship-round driver calls it where it would wait for a round's end: most rounds
    nothing but reloads is due, and a reload event's step is a callback, not a process.
    """
    queue = env._queue  # SimPy's heap of (time, priority, id, event), as Clock.moved_on
    for when, _, _, event in queue:
        if when <= due and type(event) is not _Call:
            hand_over(env, held)
            return False
    while True:
        # The next of the two heaps, by (time, priority, id) as SimPy orders its queue.
        if queue and queue[0][0] <= due and not (held and held[0][:3] < queue[0][:3]):
            if type(queue[0][3]) is not _Call:
                hand_over(env, held)
                return False
            env._now, _, _, event = heappop(queue)  # what Environment.step does
            callbacks = event.callbacks
            event.callbacks = None  # type: ignore[assignment]  # processed, as SimPy marks it
            for callback in callbacks:
                callback(event)
        elif held and held[0][0] <= due:
            entry = heappop(held)
            env._now = entry[0]
            entry[3]._done(entry)
        else:
            env._now = due
            return True


def hand_over(env: simpy.Environment, held: Held) -> None:
    """Put the ``held`` reload ends on the clock's queue as the events they stand for,
    each with its own id and place (the queue then holds what booking them there would
    have left), for SimPy to play while the driver waits."""
    queue = env._queue
    for entry in held:
        when, priority, eid, reload = entry
        event = _Call(env, reload._done)
        if reload.due is entry:
            reload.due = event
        heappush(queue, (when, priority, eid, event))
    held.clear()


class Reload:
    """One reload of a weapon team: it starts, waits for hands or books its end, and is
    recomputed when hands are lost (or come back to an empty weapon); casualties recompute
    its end, no hands stop it (it starts over when hands return).

    Its start runs at URGENT priority after the step that fired the shot; a ship battle
    passes ``begins``, the list of the starts its ship phase owes, and calls :meth:`begin`
    on each as that phase ends (the end of its step: no SimPy event a shot). A start
    joins the list only while nothing is due now at URGENT priority (an interrupt, a
    process starting): then none can come between the shot and its start, as an event of
    its own would keep them; otherwise it is that event.
    """

    __slots__ = ("alive", "due", "team", "waiting")

    def __init__(self, team: WeaponTeam, begins: list[Reload] | None = None) -> None:
        self.team = team
        self.alive = True
        self.waiting = False  # no hands at the weapon: it starts over when some come
        self.due: object = None  # the booked end (an event, or held); an interrupt makes it stale
        # Nothing due now at URGENT priority: SimPy's queue holds (time, priority, id,
        # event), nothing earlier than now, so such an event would be first.
        queue = team.env._queue
        if begins is not None and not (
            queue and queue[0][1] == URGENT and queue[0][0] == team.env._now
        ):
            begins.append(self)
        else:
            self._soon(self._begin)

    def _soon(self, then: Any) -> None:
        """``then`` at URGENT priority now, after the step running now (as a process's
        start or interrupt)."""
        _call(self.team.env, 0, URGENT, then)

    def begin(self, held: Held) -> None:
        """Start now (what the URGENT event would have done): a ship battle's ship phase
        calls it at its end for each start it was handed. :meth:`_begin` and :meth:`_book`
        inline (every shot): with hands at the weapon its end is booked whole rounds on,
        none spent yet, in ``held`` (the driver's: :data:`Held`), with the id
        ``env.schedule`` would have given its event."""
        team = self.team
        env = team.env
        now = env._now
        team.reload_started = int(now)  # (env.now, without its property call)
        if team.disabled:
            self.alive = False
        elif team.crew < 1:
            self.waiting = True
        else:
            rounds = team.remaining_rounds(team.crew, 0)
            end = (now + rounds * team.round_seconds, NORMAL, next(env._eid), self)
            self.due = end
            heappush(held, end)

    def interrupt(self) -> None:
        """The hands at the weapon changed: recompute (as a process interrupt)."""
        self._soon(self._interrupted)

    def _begin(self, _: Any) -> None:
        team = self.team
        team.reload_started = int(team.env._now)  # (env.now, without its property call)
        self._book()

    def _interrupted(self, _: Any) -> None:
        if not self.alive:
            return
        self.due = None
        if self.waiting:  # a new crew starts over
            self.waiting = False
            self.team.reload_started = int(self.team.env.now)
        self._book()

    def _book(self) -> None:
        """Book the end with the hands at the weapon now, counting whole rounds spent."""
        team = self.team
        if team.disabled:
            self.alive = False
            return
        if team.crew < 1:
            self.waiting = True
            return
        env, secs, start = team.env, team.round_seconds, team.reload_started
        assert start is not None
        now = int(env._now)
        spent = (now - start) // secs
        done_at = start + (spent + team.remaining_rounds(team.crew, spent)) * secs
        self.due = _call(env, max(0, done_at - now), NORMAL, self._done)  # as env.timeout

    def _done(self, due: object) -> None:
        """The end booked as ``due`` (its event, or its held entry) has come."""
        if due is not self.due or not self.alive:
            return  # interrupted since it was booked
        self.alive = False
        team = self.team
        start = team.reload_started
        assert start is not None
        team.loaded = True
        team.reload_started = None
        if team.process is self:
            team.process = None
        if team.on_loaded is not None:
            team.on_loaded(team, (int(team.env._now) - start) // team.round_seconds)
