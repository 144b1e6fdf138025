"""WeaponTeam: one big weapon aboard a ship and the hands working it; reload as a process.

``ships-spelljammer.md`` 6.1 (EX-SJ-01) with ``ships-fadad.md`` 3.1 (A-37): a weapon
with its full crew reloads and fires in its listed rounds (RoF 1/3 -> 3 ship rounds);
each missing crewman adds one round (:func:`~fadad_agents.rules.ships.crew.reload_rounds`;
``ship.reload_rule = "proportional"`` scales the time instead). A crewman lost during a
reload counts as lost from its start: the reload is interrupted with a small frozen
:class:`CrewChange` cause and its total recomputed with the rounds already spent
(:func:`~fadad_agents.rules.ships.crew.reload_remaining`). A weapon that loses its whole
crew stops; when a new crew takes over, loading starts over.

The reload is a SimPy process on the battle's clock; it finishes at ``Phase`` priority
NORMAL (1), before the ship-round driver (3) at the same instant, so a weapon whose
reload ends exactly at a round's start is loaded for that round.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import mesa
import simpy

from fadad_agents.rules.ships.crew import reload_remaining, reload_rounds
from fadad_agents.schema.equipment import ShipWeapon

__all__ = ["CrewChange", "WeaponTeam"]


@dataclass(frozen=True, slots=True)
class CrewChange:
    """Why a reload was interrupted: the hands at the weapon went from ``before`` to ``after``."""

    before: int
    after: int


class WeaponTeam(mesa.Agent):  # type: ignore[misc]
    """A big weapon, its hands and its reload state.

    Attributes:
        weapon: the catalogue weapon (range, damage, crew, reload rounds, arc).
        ship: the ship carrying it (any object with ``name``).
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
        self.fired_round = -1
        self.process: simpy.Process | None = None
        self.reload_started: int | None = None

    @property
    def needed(self) -> int:
        """Full crew for the listed rate of fire."""
        return self.weapon.crew

    @property
    def reloading(self) -> bool:
        """A reload is under way (or waits for hands)."""
        return self.process is not None and self.process.is_alive

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
        """The shot is away: start reloading."""
        self.loaded = False
        self.fired_round = round_no
        self._start()

    def set_crew(self, crew: int) -> None:
        """Hands at the weapon change; a loss mid-reload interrupts and recomputes it."""
        before, self.crew = self.crew, max(0, crew)
        proc = self.process
        if proc is None or not proc.is_alive or self.crew == before:
            return
        if self.crew < before or before == 0:
            proc.interrupt(CrewChange(before, self.crew))

    def stop(self) -> None:
        """The weapon is out of the fight (ship lost, weapon destroyed): end its process."""
        self.disabled = True
        proc = self.process
        if proc is not None and proc.is_alive:
            proc.interrupt(CrewChange(self.crew, 0))
        self.process = None

    def _start(self) -> None:
        self.process = self.env.process(self._reload())

    def _reload(self) -> Any:
        """Work the reload; casualties recompute its end, no hands stop it (start over)."""
        env, secs = self.env, self.round_seconds
        start = int(env.now)
        self.reload_started = start
        while True:
            if self.disabled:
                return
            if self.crew < 1:
                try:  # nobody at the weapon: wait for a new crew, then start over
                    yield env.event()
                except simpy.Interrupt:
                    start = int(env.now)
                    self.reload_started = start
                    continue
            spent = (int(env.now) - start) // secs
            left = self.remaining_rounds(self.crew, spent)
            done_at = start + (spent + left) * secs
            try:
                yield env.timeout(max(0, done_at - int(env.now)))
            except simpy.Interrupt:
                continue  # recompute with the hands now at the weapon
            break
        self.loaded = True
        self.reload_started = None
        if self.on_loaded is not None:
            self.on_loaded(self, (int(env.now) - start) // secs)
