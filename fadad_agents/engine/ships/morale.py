"""End of the ship round: ships taken by boarders, ship morale, striking colours; the chase;
the repair bill.

* Morale (``ships-spelljammer.md`` 18, C-16, A-57): at the end of a round a ship whose
  ``colours`` policy checks morale rolls 2d10 (``sj.crew_morale_roll``) against its crew's
  morale plus the modifier table (:func:`~fadad_agents.rules.ships.crew.morale_target`, worst
  entry per graded family) when a trigger happened this round: a critical hit, 5 hull
  points left, 25% or 50% of the crew lost or one more slain after 50%, the captain slain.
  A failure strikes the colours (:func:`~fadad_agents.rules.ships.crew.morale_failure`
  ``"ship"``). The policy may also strike by choice (``strike_colours``). Every engaged
  ship striking at the same end of round is a mutual strike: all break off.
* A ship whose deck holds enemies and none of its own people is taken (surrenders); one
  with nobody left anywhere is a derelict (out).
* Evasion (section 15): a fleeing ship with nothing within 25 hexes (ships or debris; her
  own jettisoned rubble only with ``sj.jettisoned_debris_blocks_escape``) leaves; each
  enemy whose pursuit policy says so rolls the navigator's check with the rounds it needs
  to reach the quarry's last hex as the delay (section 16).
* Repair (SJ 17 / FADAD 7, C-21): logged per damaged ship when the battle ends, and kept
  in ``battle.repairs``.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from fadad_agents.agents.core.base import Status
from fadad_agents.agents.core.character import Character
from fadad_agents.agents.ships.ship import Ship
from fadad_agents.engine.ships.jettison import loaded_jettisons, mass_delay, shot_at_pursuer
from fadad_agents.hexmap import distance
from fadad_agents.rules.core.morale import resolve_morale_check
from fadad_agents.rules.ships.chase import can_escape, repair_cost, resolve_pursuit
from fadad_agents.rules.ships.crew import (
    SEAMAN_MORALE,
    MoraleEvent,
    MoraleTrigger,
    crew_loss_event,
    crew_loss_triggers,
    hd_event,
    hull_damage_event,
    morale_failure,
    morale_target,
    mutual_strike,
)
from fadad_agents.rules.ships.fadad_damage import ShipLevel, repair_weeks, repair_worker_weeks
from fadad_agents.rules.ships.fadad_damage import repair_cost as fadad_repair_cost

__all__ = ["end_of_round", "log_repairs", "morale_events", "try_escape"]


def _captain(battle: Any, ship: Ship) -> Character | None:
    for m in battle.fighters_on(ship):
        if isinstance(m, Character) and m.side == ship.side and m.player:
            return m
    return None


def morale_events(battle: Any, ship: Ship, triggers: set[MoraleTrigger]) -> list[MoraleEvent]:
    """The modifier-table entries that hold for ``ship`` now (section 18)."""
    events: list[MoraleEvent] = []
    lost_share = 1.0 - ship.hull_fraction
    hull = hull_damage_event(round(lost_share * 100), 100)
    if hull is not None:
        events.append(hull)
    if ship.crew_start:
        loss = crew_loss_event(ship.crew_lost, ship.crew_start)
        if loss is not None:
            events.append(loss)
    if _captain(battle, ship) is not None:
        events.append(MoraleEvent.CAPTAIN_ON_DECK)
    elif any(isinstance(m, Character) and m.side == ship.side for m in battle.fighters_on(ship)):
        events.append(MoraleEvent.FIRST_OFFICER_ON_DECK)
    if MoraleTrigger.CAPTAIN_SLAIN in triggers:
        events.append(MoraleEvent.CAPTAIN_SLAIN)
    if ship.fire_list:
        events.append(MoraleEvent.ON_FIRE)
    foes = battle.enemy_ships(ship.side)
    if any(f.fire_list for f in foes):
        events.append(MoraleEvent.OPPONENT_ON_FIRE)
    if any(f.holed for f in foes):
        events.append(MoraleEvent.OPPONENT_HOLED)
    crews = battle.home_crews(ship)
    if crews:
        hd = hd_event(Fraction(crews[0].stats.hd))
        if hd is not None:
            events.append(hd)
    if len(triggers) > 1:
        events.append(MoraleEvent.MULTIPLE_CHECKS)
    return events + _balance_events(battle, ship)


def _balance_events(battle: Any, ship: Ship) -> list[MoraleEvent]:
    """Odds and allies: head counts 3:1, tonnage 10:1, damaged foes, lost or fled friends.

    Heads are those on the ship's deck while boarders are aboard, else both fleets'
    (PROPOSED reading of "crew outnumbered", ``sj.outnumbered_heads``).
    """
    out: list[MoraleEvent] = []
    side = ship.side
    if battle.options.sj.outnumbered_heads == "deck_when_boarded" and battle.boarders_on(ship):
        people = battle.fighters_on(ship)
    else:
        people = [m for m in battle.people if m.fighting]
    own = sum(m.headcount for m in people if m.side == side)
    them = sum(m.headcount for m in people if m.side != side)
    if them and 3 * own <= them:
        out.append(MoraleEvent.OUTNUMBERED_3_TO_1)
    elif own and own >= 3 * them:
        out.append(MoraleEvent.OUTNUMBER_3_TO_1)
    own_tons = sum(s.tons for s in battle.own_ships(side))
    foe_tons = sum(s.tons for s in battle.enemy_ships(side))
    if foe_tons >= 10 * own_tons:
        out.append(MoraleEvent.OUT_TONNED_10_TO_1)
    elif own_tons >= 10 * foe_tons > 0:
        out.append(MoraleEvent.OUT_TONNING_10_TO_1)
    if any(f.hull_fraction <= 0.5 for f in battle.enemy_ships(side)):
        out.append(MoraleEvent.OPPONENT_DAMAGED_50)
    friends = [s for s in battle.ships if s.side == side and s is not ship]
    if any(s.status is Status.WITHDRAWN for s in friends):
        out.append(MoraleEvent.ABANDONED)
    fleet = [s for s in battle.ships if s.side == side]
    flagship = max(fleet, key=lambda s: (s.tons, -s.unique_id))
    if flagship is not ship and flagship.status is Status.OUT:
        out.append(MoraleEvent.STRONGEST_ALLY_KILLED)
    return out


def _crew_triggers(battle: Any, ship: Ship) -> set[MoraleTrigger]:
    now = battle.own_heads(ship)
    lost = max(0, ship.crew_start - now)
    found = (
        set(crew_loss_triggers(ship.crew_lost, max(lost, ship.crew_lost), ship.crew_start))
        if ship.crew_start
        else set()
    )
    ship.crew_lost = max(lost, ship.crew_lost)
    captain = ship.memory.get("captain")
    if (
        captain is not None
        and captain.status is Status.OUT
        and not ship.memory.get("captain_mourned")
    ):
        ship.memory["captain_mourned"] = True
        found.add(MoraleTrigger.CAPTAIN_SLAIN)
    return found


def _check(battle: Any, ship: Ship, triggers: set[MoraleTrigger]) -> bool:
    """Roll the ship's morale; True if it holds."""
    crews = battle.home_crews(ship) or battle.crews_on(ship)
    base = crews[0].morale if crews else SEAMAN_MORALE
    events = morale_events(battle, ship, triggers)
    sj = battle.options.sj
    target = morale_target(base, events, sj.morale_stacking)
    res = resolve_morale_check(target, battle.ship_morale_rng, sj.crew_morale_roll)
    battle.record(
        ship.name,
        "ship_morale",
        None,
        ((sj.crew_morale_roll, res.roll),),
        tuple((e.name.lower(), e.modifier) for e in events),
        (
            ("result", "holds" if res.passed else "fails"),
            ("target", target),
            ("triggers", tuple(sorted(t.name.lower() for t in triggers))),
        ),
    )
    return res.passed


def _taken(battle: Any, ship: Ship) -> None:
    if ship.gargantuan:  # a creature has no deck to lose
        return
    people = battle.fighters_on(ship)
    own = [m for m in people if m.side == ship.side]
    if own:
        return
    if any(m.side != ship.side for m in people):
        battle.record(ship.name, "taken", None, (), (), (("result", "taken by boarders"),))
        battle.strike(ship, "her deck is lost to boarders")
    elif not any(battle.home_of(m) is ship and m.fighting for m in battle.people):
        battle.take_out(ship, "no one left aboard")


def end_of_round(battle: Any) -> None:
    """Captures, morale checks and strikes, then the mutual-strike rule."""
    struck: list[str] = []
    engaged = [s.name for s in battle.ships if s.fighting]
    for ship in list(battle.ships):
        if not ship.fighting:
            continue
        _taken(battle, ship)
        if not ship.fighting:
            struck.append(ship.name)
            continue
        if ship.struck:  # struck, a player character sails her on: no crew left to check
            continue
        triggers = ship.memory.pop("triggers", set()) | _crew_triggers(battle, ship)
        policy = ship.ship_policies.colours
        if policy.strike_now(ship, battle):
            battle.strike(ship, "by choice, the hull failing")
        elif (
            policy.checks_morale
            and triggers
            and not _check(battle, ship, triggers)
            and morale_failure("ship") == "strike"
        ):
            battle.strike(ship, "morale failed")
        if ship.struck:
            struck.append(ship.name)
    if struck and mutual_strike(struck, engaged) and len(engaged) > 1:
        battle.record("battle", "mutual_strike", None, (), (), (("result", "all break off"),))


def try_escape(battle: Any, ship: Ship) -> None:
    """Leave past the capture distance (SJ 15); enemies roll to follow (SJ 16)."""
    if not ship.ship_policies.evasion.escape(ship, battle):
        return
    near = [distance(ship.hex, f.hex) for f in battle.ships if f is not ship and f.fighting]
    rubble_counts = battle.options.sj.jettisoned_debris_blocks_escape
    near += [
        distance(ship.hex, h) for h in battle.debris if rubble_counts or h not in battle.jettisoned
    ]
    if not can_escape(min(near) if near else None):
        return
    last = ship.hex
    jettisons = loaded_jettisons(ship, battle.round)
    battle.escape(ship)
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


def log_repairs(battle: Any) -> None:
    """The repair bill of every damaged ship still afloat (C-21)."""
    fadad = battle.options.ship.damage_model == "fadad_levels"
    for ship in battle.ships:
        if ship.status is Status.OUT or ship.gargantuan:
            continue
        if fadad:
            level = ship.level
            if level == ShipLevel.UNDAMAGED or level >= ShipLevel.WRECKED:
                continue
            cost = fadad_repair_cost(ship.spec.cost_gp, int(level))
            weeks = repair_weeks(
                repair_worker_weeks(cost),
                ship.tons,
                workers_per_ton=battle.options.ship.repair_workers_per_ton,
            )
            bill = {"gold": math.ceil(cost), "days": 7 * weeks, "level": level.label}
        else:
            if ship.hull_damage == 0:
                continue
            res = repair_cost(ship.hull_damage, ship.spec.hull_points, ship.hull_damage, workers=5)
            bill = {"gold": res.gold, "days": res.days, "hull_points": ship.hull_damage}
        battle.repairs[ship.name] = bill
        battle.record(
            ship.name, "repair", None, (), (), (("result", f"{bill['gold']} gp"), *bill.items())
        )
