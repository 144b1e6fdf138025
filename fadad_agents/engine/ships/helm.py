"""The helm: warm-up as an interruptible process, take-off from a gravity well, new helmsmen.

``ships-spelljammer.md`` 1.2 (EX-SJ-12, A-46) and 5 (helm shock, C-22):

* A ship that starts in a gravity well (``gravity_well`` in the scenario) cannot make a
  tactical move until she has climbed out: the size class's rounds times the weather's
  multiplier (:func:`~fadad_agents.rules.ships.movement.gravity_well_rounds`), after the
  1d8-round helm warm-up when she starts on the surface
  (:func:`~fadad_agents.rules.ships.movement.roll_take_off`). No take-off in a hurricane.
* A helm warms up 1d8 rounds from the moment a helmsman sits down. PROPOSED for the
  engine (``sj.new_helmsman_warmup``): a *new* helmsman in battle (the old one fell into a
  coma from a helm shock, or a named helmsman was taken out) needs the same warm-up before
  the ship maneuvers again.
* Who can take the helm (PROPOSED): a named character of the ship's side standing on her
  deck with a helm skill (``Helm``, ``Helm Pilot`` or ``Spelljamming``), best skill first.
  With nobody, the helm stays dead (SR 0, no dodge) as before.
* The warm-up and the climb run as one SimPy process per ship on the battle clock. A new
  helm shock or a change of helmsman interrupts it with a small frozen :class:`HelmChange`
  cause: the warm-up starts over (the rounds already climbed are kept); with nobody left
  at the helm it waits until someone sits down. Rounds are ship rounds; a process ending
  exactly at a round's start (NORMAL priority, before the round driver) counts for that
  round, as reloads do.
* Landing (maneuver ``land``): a ship in a gravity well descends for the same rounds and
  lands, leaving the fight with everyone aboard (near a planet, escape is landing, SJ 15);
  ships that cannot land safely (``landing: none``) or are grappled stay.
* A player character aboard a ship whose crew strikes may take (or keep) the helm and sail
  her on: :func:`sail_on` (the ship flees; her surrendered crew no longer works guns).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any

import simpy

from fadad_agents.agents.core.base import Combatant, Status
from fadad_agents.agents.core.character import Character
from fadad_agents.agents.ships.ship import Ship
from fadad_agents.policies.ships.defaults import Flee, RunWhenClear
from fadad_agents.rules.ships.movement import (
    MovementError,
    gravity_well_rounds,
    roll_helm_warmup,
    roll_take_off,
)

__all__ = [
    "HELM_SKILLS",
    "HelmChange",
    "check_helmsmen",
    "helm_lost",
    "helm_skill_of",
    "land",
    "new_helmsman",
    "sail_on",
    "start_landing",
    "start_take_offs",
]

HELM_SKILLS = ("helm", "helm pilot", "helm_pilot", "spelljamming")
"""Skill names (any case) that let a named character take the helm."""


def helm_skill_of(skills: dict[str, int]) -> int | None:
    """The best helm skill among ``skills`` (``None`` if the character cannot steer)."""
    found = [v for k, v in skills.items() if k.strip().lower() in HELM_SKILLS]
    return max(found) if found else None


@dataclass(frozen=True, slots=True)
class HelmChange:
    """Why the helm process was interrupted: who sat at the helm before and after."""

    before: str
    after: str | None


# --- the process -------------------------------------------------------------------------


def _record(battle: Any, ship: Ship, action: str, dice: Any, out: Any) -> None:
    battle.record(ship.name, action, None, dice, (("helm", ship.helm),), out)


def _helm_process(battle: Any, ship: Ship, warm: int | None, climb: int) -> Any:
    """Warm the helm up (``warm`` rounds, ``None`` = roll 1d8), then climb ``climb`` rounds.

    A change of helmsman starts the warm-up over, or (``sj.new_helmsman_warmup`` false) only
    leaves the rounds still to go of one under way.
    """
    env, secs = battle.env, battle.round_seconds
    warm_end: float | None = None
    while True:
        try:
            if ship.helm_out:
                ship.warming = True
                yield env.event()  # nobody at the helm: wait for a new helmsman
            if warm is None:
                warm = roll_helm_warmup(battle.helm_rng)
                _record(
                    battle,
                    ship,
                    "helm_warmup",
                    (("1d8", warm),),
                    (("result", "warming"), ("rounds", warm), ("who", _who(ship))),
                )
            if warm:
                ship.warming = True
                warm_end = env.now + warm * secs
                yield env.timeout(warm * secs)
                warm, warm_end = 0, None
                ship.warming = False
                _record(battle, ship, "helm_ready", (), (("result", "ready"), ("who", _who(ship))))
            ship.warming = False
            while climb > 0:  # one round at a time: the height gained is kept
                yield env.timeout(secs)
                climb -= 1
            break
        except simpy.Interrupt:
            if battle.options.sj.new_helmsman_warmup:
                warm = None  # a new helmsman warms the helm up from the start
            elif warm_end is not None:  # only the rest of the warm-up under way
                warm = max(0, math.ceil((warm_end - env.now) / secs))
            warm_end = None
    if ship.grounded:
        ship.grounded = False
        _record(battle, ship, "take_off", (), (("result", "clears the gravity well"),))


def _restart(battle: Any, ship: Ship, cause: HelmChange, *, warm: int | None, climb: int) -> None:
    proc = ship.helm_process
    if proc is not None and proc.is_alive:
        proc.interrupt(cause)
        return
    ship.warming = True
    ship.helm_process = battle.env.process(_helm_process(battle, ship, warm, climb))


def _who(ship: Ship) -> str:
    return ship.helmsman.name if ship.helmsman is not None else "her helmsman"


# --- set-up: ships in a gravity well -----------------------------------------------------


def start_take_offs(battle: Any) -> None:
    """Ships that start in a gravity well begin their take-off (SJ 1.2, EX-SJ-12); those
    whose maneuver is ``land`` stay down (landed) or begin to descend (aloft)."""
    for ship in battle.ships:
        well = ship.spec.gravity_well
        if well is None or not ship.fighting:
            continue
        ship.grounded = True
        if ship.ship_policies.maneuver.intent == "land":
            if not well.landed:
                start_landing(battle, ship)
            continue
        try:
            climb = gravity_well_rounds(well.size, well.weather)
        except MovementError as exc:  # a hurricane: she stays where she is
            _record(battle, ship, "take_off", (), (("result", f"cannot take off: {exc}"),))
            continue
        total = roll_take_off(well.size, well.weather, well.landed, battle.helm_rng)
        warm = total - climb
        _record(
            battle,
            ship,
            "take_off_start",
            (("1d8", warm),) if well.landed else (),
            (
                ("result", "begins to take off"),
                ("size", well.size),
                ("weather", well.weather),
                ("warm_up", warm),
                ("climb", climb),
                ("rounds", total),
            ),
        )
        ship.warming = warm > 0
        ship.helm_process = battle.env.process(_helm_process(battle, ship, warm, climb))


# --- landing -----------------------------------------------------------------------------


def start_landing(battle: Any, ship: Ship) -> None:
    """A ship in a gravity well descends (the climb's rounds, SJ 1.2) and lands: she leaves
    the fight with everyone aboard. A ship that cannot land safely (``landing: none``), one
    held by grapples, and any ship in a hurricane stay where they are."""
    well = ship.spec.gravity_well
    if well is None or ship.memory.get("landing") or battle.immobilised(ship):
        return
    if ship.spec.landing == "none":
        ship.memory["landing"] = "refused"
        _record(battle, ship, "landing", (), (("result", "cannot land safely"),))
        return
    try:
        rounds = gravity_well_rounds(well.size, well.weather)
    except MovementError as exc:
        ship.memory["landing"] = "refused"
        _record(battle, ship, "landing", (), (("result", f"cannot land: {exc}"),))
        return
    ship.memory["landing"] = True
    ship.grounded = True
    _record(
        battle,
        ship,
        "landing_start",
        (),
        (
            ("result", "descends"),
            ("size", well.size),
            ("weather", well.weather),
            ("rounds", rounds),
        ),
    )
    battle.env.process(_descend(battle, ship, rounds))


def _descend(battle: Any, ship: Ship, rounds: int) -> Any:
    yield battle.env.timeout(rounds * battle.round_seconds)
    if ship.fighting:
        land(battle, ship)


def land(battle: Any, ship: Ship) -> None:
    """She is down: out of the tactical fight with her people (as an escape, SJ 15)."""
    _record(battle, ship, "landed", (), (("result", "lands"),))
    battle.withdraw_ship(ship, "landed")


# --- helmsmen ----------------------------------------------------------------------------


def _candidates(battle: Any, ship: Ship) -> list[tuple[int, Combatant]]:
    out = []
    for m in battle.fighters_on(ship):
        skill = battle.helm_skill(m)
        if (
            skill is None
            or m is ship.helmsman
            or m.side != ship.side
            or battle.home_of(m) is not ship
        ):
            continue
        out.append((skill, m))
    out.sort(key=lambda c: (-c[0], c[1].unique_id))
    return out


def new_helmsman(battle: Any, ship: Ship, reason: str, *, who: Combatant | None = None) -> bool:
    """Someone (``who``, else the best hand with a helm skill) sits down at the helm.

    The helm then warms up 1d8 rounds (an interruptible process; ``sj.new_helmsman_warmup``).
    Returns False (the helm is dead) when nobody aboard can steer.
    """
    before = _who(ship)
    if who is None:
        found = _candidates(battle, ship)
        if not found:
            ship.helm_out = True
            ship.helmsman = None
            _record(battle, ship, "helm_change", (), (("result", "nobody"), ("reason", reason)))
            return False
        who = found[0][1]
    skill = battle.helm_skill(who)
    ship.helm = skill if skill is not None else ship.helm
    ship.helmsman = who
    ship.helm_out = False
    _record(
        battle,
        ship,
        "helm_change",
        (),
        (("result", "takes the helm"), ("who", who.name), ("reason", reason)),
    )
    warm = None if battle.options.sj.new_helmsman_warmup else 0
    _restart(battle, ship, HelmChange(before, who.name), warm=warm, climb=0)
    battle.crews_changed = True
    return True


def helm_lost(battle: Any, ship: Ship, reason: str) -> None:
    """The helmsman is out (helm shock coma, slain): someone else takes over if they can."""
    old = ship.helmsman
    ship.helmsman = None
    ship.helm_out = True
    ship.memory["helmsman_lost"] = True  # SJ 18: spelljamming mage slain/destroyed -3
    if isinstance(old, Character) and old.fighting:
        battle.take_out(old, reason)
    proc = ship.helm_process
    if not new_helmsman(battle, ship, reason) and proc is not None and proc.is_alive:
        proc.interrupt(HelmChange(old.name if old is not None else "her helmsman", None))


def check_helmsmen(battle: Any) -> None:
    """Round start: a named helmsman taken out or gone from the deck leaves the helm."""
    for ship in battle.ships:
        who = ship.helmsman
        if who is None or not ship.fighting:
            continue
        if not who.fighting or battle.deck_of(who) is not ship:
            if who.status is Status.OUT:
                ship.memory["helmsman_lost"] = True
            ship.helmsman = None
            ship.helm_out = True
            new_helmsman(battle, ship, f"{who.name} has left the helm")


# --- striking the colours ----------------------------------------------------------------


def sail_on(battle: Any, ship: Ship) -> Combatant | None:
    """A player character aboard a struck ship takes (or keeps) the helm and sails on.

    PROPOSED: a PC of the ship's side on her own deck, with a helm skill and no boarders on
    that deck, keeps her moving: the ship does not surrender, she flees (``flee`` and
    ``run_when_clear``); her surrendered crew no longer sails or fights. Returns the PC.
    """
    if battle.boarders_on(ship):
        return None
    pcs = [
        (skill, m)
        for skill, m in _candidates(battle, ship) + _current(battle, ship)
        if getattr(m, "player", False)
    ]
    if not pcs:
        return None
    pcs.sort(key=lambda c: (-c[0], c[1].unique_id))
    pc = pcs[0][1]
    ship.ship_policies = replace(ship.ship_policies, maneuver=Flee(), evasion=RunWhenClear())
    if ship.helmsman is not pc:
        new_helmsman(battle, ship, "the crew struck", who=pc)
    _record(battle, ship, "sail_on", (), (("result", "sails on"), ("who", pc.name)))
    return pc


def _current(battle: Any, ship: Ship) -> list[tuple[int, Combatant]]:
    who = ship.helmsman
    if who is None or not who.fighting or battle.deck_of(who) is not ship:
        return []
    return [(ship.helm, who)]
