"""The chase: escape past the capture distance, pursuit, and the jettisons of a fleeing ship.

``ships-spelljammer.md`` 7.2 (debris), 15-16 (escape, pursuit), A-60 (jettison data):

* :func:`try_escape` (section 15): a fleeing ship with nothing within 25 hexes **at the
  start of her movement** (ships or debris; her own jettisoned rubble only with
  ``sj.jettisoned_debris_blocks_escape``) accelerates to spelljamming speed and leaves
  instead of moving; each enemy whose pursuit policy says so rolls the navigator's check
  with the rounds it needs to reach the quarry's last hex as the delay (section 16).
  :func:`escape` takes her out of the fight with everyone aboard and logs her long-range
  pace.
* :func:`lay_debris`: a fleeing ship (maneuver ``flee``, its ``jettison`` parameter true, the
  default) with a loaded, manned jettison that bears on an enemy (field of fire and range
  of the weapon, as gunnery) jettisons instead of shooting: rubble fills the hexes she
  left this round (only a ship that moved; a landed or held ship drops nothing). Any ship
  entering such a hex at 2+ hexes a round is attacked as by a small, medium or large
  jettison by its speed
  (:func:`~fadad_agents.rules.ships.combat.debris_hazard`, in
  :mod:`~fadad_agents.engine.ships.maneuver`), as in every debris field of the map
  (``map.debris``). PROPOSED: jettisoned rubble is too small a mass (under 10 tons,
  :func:`~fadad_agents.rules.ships.chase.mass_slows_pursuer`) to hold a ship near it, so it
  does not count against the 25-hex capture distance; wrecks and map fields do
  (``sj.jettisoned_debris_blocks_escape``).
* :func:`mass_delay`: a fleeing ship whose ``flee`` policy cuts loose ``cut_loose`` tons as
  she accelerates away slows a pursuer when it meets the mass if that is 10 tons or more
  (:func:`~fadad_agents.rules.ships.chase.mass_slows_pursuer`): the pursuer stops 11-20
  hexes short of it (:func:`~fadad_agents.rules.ships.chase.roll_pursuer_stop`) and must pass
  it before accelerating; PROPOSED: it loses the rounds to cover those hexes plus the
  25-hex capture distance past the mass (``sj.cut_loose_adds_capture``) at its SR, added
  to its delay (SJ 16).
* :func:`shot_at_pursuer`: when a ship with a loaded jettison escapes, each pursuer that
  stays on her track is hit by jettisoned small shot only 5% of the time
  (:func:`~fadad_agents.rules.ships.chase.resolve_jettison_hit`); a hit does the jettison's
  hull dice (the damage number under FADAD levels).
"""

from __future__ import annotations

import math
from functools import cache
from typing import Any

from fadad_agents.agents.ships.ship import Ship
from fadad_agents.agents.ships.weapon_team import WeaponTeam
from fadad_agents.engine.ships.damage import damage_ship
from fadad_agents.engine.ships.gunnery import bearing
from fadad_agents.hexmap import Hex, distance
from fadad_agents.rules.ships.chase import (
    CAPTURE_HEXES,
    can_escape,
    mass_slows_pursuer,
    resolve_jettison_hit,
    resolve_pursuit,
    roll_pursuer_stop,
)
from fadad_agents.rules.ships.combat import Dice
from fadad_agents.rules.ships.movement import miles_per_day, travel_mph

__all__ = [
    "escape",
    "lay_debris",
    "loaded_jettisons",
    "mass_delay",
    "shot_at_pursuer",
    "try_escape",
    "wake_of",
]


@cache
def _dice(text: str) -> Dice:
    return Dice.parse(text)


def loaded_jettisons(ship: Ship, round_no: int) -> list[WeaponTeam]:
    """The ship's jettisons that could be let go now."""
    return [t for t in ship.teams if t.weapon.family == "jettison" and t.can_fire(round_no)]


def lay_debris(battle: Any, ship: Ship) -> None:
    """A fleeing ship jettisons rubble into her wake when a pursuer is in the jettison's arc."""
    if not getattr(ship.ship_policies.maneuver, "jettison", True):
        return
    jettisons = loaded_jettisons(ship, battle.round)  # most ships carry none
    wake = tuple(ship.memory.get("wake", ())) if jettisons else ()
    for team in jettisons if wake else ():
        foes = [
            f
            for f in battle.enemy_ships(ship.side)
            if f.hex != ship.hex and bearing(ship, team, f) is not None
        ]
        if not foes:
            continue
        team.fire(battle.round)
        cells = [h for h in wake if h != ship.hex]
        for h in cells:
            if h not in battle.debris:
                battle.debris[h] = False
                battle.jettisoned.add(h)
        battle.record(
            ship.name,
            "jettison",
            None,
            (),
            (("weapon", team.label),),
            (
                ("result", "rubble astern"),
                ("hexes", tuple((h.q, h.r) for h in cells)),
                ("pursuers", tuple(sorted(f.name for f in foes))),
            ),
        )


def mass_delay(battle: Any, quarry: Ship, pursuer: Ship) -> int:
    """Rounds a pursuer loses to the mass the quarry cut loose (0 if under 10 tons)."""
    tons = int(getattr(quarry.ship_policies.maneuver, "cut_loose", 0))
    if not mass_slows_pursuer(tons):
        return 0
    stop = roll_pursuer_stop(battle.jettison_rng)
    past = CAPTURE_HEXES if battle.options.sj.cut_loose_adds_capture else 0
    lost = math.ceil((stop + past) / max(1, pursuer.sr))
    battle.record(
        quarry.name,
        "cut_loose",
        pursuer.name,
        (("stop", stop),),
        (("tons", tons),),
        (("result", "slowed"), ("stop", stop), ("rounds", lost)),
    )
    return lost


def shot_at_pursuer(battle: Any, jettisons: list[WeaponTeam], quarry: str, pursuer: Ship) -> None:
    """Jettisoned shot at high speed: each loaded jettison hits a pursuer 5% of the time."""
    for team in jettisons:
        if not pursuer.fighting:
            return
        hit = resolve_jettison_hit(battle.jettison_rng)
        dmg = _dice(team.weapon.sj_hull_damage or "1d6").roll(battle.jettison_rng) if hit else 0
        battle.record(
            quarry,
            "jettison_hit",
            pursuer.name,
            (),
            (("weapon", team.label),),
            (("result", "hit" if hit else "miss"), ("damage", dmg)),
        )
        if dmg:
            damage_ship(battle, pursuer, dmg, dmg, quarry)


def wake_of(start: Hex, path: tuple[Hex, ...]) -> tuple[Hex, ...]:
    """The hexes a ship left behind this round: where she started and all but her last."""
    return (start, *path[:-1]) if path else ()


def escape(battle: Any, ship: Ship) -> None:
    """The ship accelerates to spelljamming speed and leaves with everyone aboard.

    The log gives her long-range pace (SJ 1.1, A-45) for the chase that follows:
    ``travel_mph`` and ``miles_per_day`` at her listed SR.
    """
    sr = ship.spec.sr
    battle.record(
        ship.name,
        "escape",
        None,
        (),
        (("sr", sr),),
        (
            ("result", "escapes"),
            ("mph", float(travel_mph(sr))),
            ("miles_per_day", miles_per_day(sr)),
        ),
    )
    battle.withdraw_ship(ship, "escaped")


def try_escape(battle: Any, ship: Ship) -> bool:
    """At the start of her movement: leave past the capture distance (SJ 15); enemies roll
    to follow (SJ 16). True if she escaped."""
    if not ship.ship_policies.evasion.escape(ship, battle):
        return False
    # The nearest body is within the capture distance if any one is: each is asked in
    # turn, and most turns the first, her pursuer, answers (no list of distances, no min).
    here = ship.hex
    for f in battle.ships:
        if f is not ship and f.fighting and not can_escape(distance(here, f.hex)):
            return False
    rubble_counts = battle.options.sj.jettisoned_debris_blocks_escape
    for h in battle.debris:
        if (rubble_counts or h not in battle.jettisoned) and not can_escape(distance(here, h)):
            return False
    last = ship.hex
    jettisons = loaded_jettisons(ship, battle.round)
    escape(battle, ship)
    turn = battle.options.sj.pursuit_turn_rounds
    for foe in battle.enemy_ships(ship.side):
        pursuit = foe.ship_policies.pursuit
        if not pursuit.pursue(foe, ship, battle):
            continue
        delay = math.ceil(distance(foe.hex, last) / max(1, foe.sr))
        delay += mass_delay(battle, ship, foe)
        ok = resolve_pursuit(
            pursuit.intelligence, pursuit.navigation, delay, battle.chase_rng, turn
        )
        battle.record(
            foe.name,
            "pursuit",
            ship.name,
            (),
            (("delay", delay),),
            (
                ("result", "on her track" if ok else "loses her"),
                ("reappears_after", delay if ok else None),
            ),
        )
        if ok:
            shot_at_pursuer(battle, jettisons, ship.name, foe)
    return True
