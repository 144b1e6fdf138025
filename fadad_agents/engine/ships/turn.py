"""A ship's turn in the ship round (``ships-spelljammer.md`` 3 step 4-8, A-47).

In moving order each ship: cuts lines if its policy says so; a fleeing ship with nothing
within 25 hexes at the start of her move escapes (SJ 15-16,
:mod:`~fadad_agents.engine.ships.chase`); she starts landing (maneuver ``land``), moves
(:mod:`~fadad_agents.engine.ships.maneuver`), jettisons rubble astern if fleeing, fires
every loaded weapon that bears (:mod:`~fadad_agents.engine.ships.gunnery`), her
spellcasters cast at enemy hulls (:mod:`~fadad_agents.engine.ships.hull_attacks`); then
the ship whose hex she entered and every other enemy may answer (SJ 3 step 6, 8); last she
closes: hand missiles (at crew or hull), axes at one spot of a grappled hull, rams (d4s
for d6s on a gargantuan creature), shears or grapples an enemy in her hex (SJ 8).

The round around it (initiative, boarding, deck fights, morale) is
:class:`~fadad_agents.engine.ships.battle.ShipBattle`'s.
"""

from __future__ import annotations

from typing import Any

from fadad_agents.agents.core.base import Status
from fadad_agents.agents.ships.ship import Ship
from fadad_agents.engine.ships import chase as ship_chase
from fadad_agents.engine.ships import close as ship_close
from fadad_agents.engine.ships import helm as ship_helm
from fadad_agents.engine.ships import hull_attacks as ship_hull_attacks
from fadad_agents.engine.ships import maneuver as ship_maneuver
from fadad_agents.engine.ships.deck import breathe
from fadad_agents.engine.ships.gunnery import fire_guns

__all__ = ["missile_fire", "ship_turn"]

_FIGHTING = Status.FIGHTING


def ship_turn(battle: Any, ship: Ship) -> None:
    """``ship``'s turn: lines, escape, move, fire, the enemies' answers, close action."""
    maneuver = ship.ship_policies.maneuver
    for foe in list(ship.grapples) if ship.grapples else ():
        if not (foe.fighting and ship.grappled_with(foe)):
            continue  # loose lines part when she moves off
        away = maneuver.intent in ("flee", "shoot")
        if not (away or ship.ship_policies.boarding.cut_lines(ship, foe, battle)):
            continue
        if battle.is_locked(ship, foe):  # only her helmsman's pull parts a lock (SJ 9)
            ship_close.separate(battle, ship, foe)
        if not battle.boarders_on(ship):  # boarders aboard: no axes free
            ship_close.cut_lines(battle, ship, foe)
    if maneuver.intent == "flee" and ship_chase.try_escape(battle, ship):
        return  # clear of everything at the start of her move: she leaves (SJ 15)
    if maneuver.intent == "land":
        ship_helm.start_landing(battle, ship)
    ship_maneuver.move_ship(battle, ship)
    if not ship.fighting:
        return
    if maneuver.intent == "flee":
        ship_chase.lay_debris(battle, ship)
    fire_guns(battle, ship)
    if battle._spells:  # a battle without ship spells: no call
        ship_hull_attacks.cast_spells(battle, ship)
    at, side = ship.position, ship.side  # enemy_ships in her hex (its (q, r)), in one pass
    here = [
        f for f in battle.ships if f.side != side and f.status is _FIGHTING and f.position == at
    ]
    alongside = _close_fire(battle, ship, here) if here else None  # (most turns: none)
    _replies(battle, ship, here)
    if alongside is not None and ship.fighting and alongside.fighting:
        _close_in(battle, ship, alongside, maneuver.intent)


def _close_fire(battle: Any, ship: Ship, here: list[Ship]) -> Ship | None:
    """Hand missiles and axes at the enemy in her hex (the most damaged of ``here``)."""
    if not ship.fighting:
        return None
    foe = min(here, key=lambda f: (f.hull_fraction, f.unique_id))
    missile_fire(battle, ship, foe)
    if ship.fighting and foe.fighting:
        ship_hull_attacks.chop_hull(battle, ship, foe)
    return foe


def _replies(battle: Any, mover: Ship, here: list[Ship]) -> None:
    """SJ 3 step 6, 8: once a ship has moved and fired, the ship whose hex she entered
    may answer with hand missiles, big weapons and magic; then every other enemy may
    fire at her, in the order of initiative; each weapon, crew and caster once a turn.
    Whether a ship answers is her gunnery policy's ``reply`` (default yes). ``here``: the
    enemies that were fighting in her hex after she fired (nobody has moved since)."""
    side, at = mover.side, mover.hex
    near: list[Ship] = []  # the enemies in the hex she entered (enemy_ships there)
    start = battle.start_hex.get(mover)  # where she began: compared as ints, not Hexes
    if here and (start is None or start.q != at.q or start.r != at.r):
        near = [f for f in here if f.fighting]
    if near:  # then every other enemy, in the order of initiative
        foes = near + [f for f in battle.turn_order if f.side != side and f not in near]
    else:  # (most turns: she entered no enemy's hex; her own side is passed over below)
        foes = battle.turn_order
    for foe in foes:
        if not mover.fighting:
            return
        if foe.side == side or not foe.fighting:
            continue
        if not getattr(foe.ship_policies.targeting, "reply", True):
            continue
        if foe in near:
            missile_fire(battle, foe, mover)
        fire_guns(battle, foe, mover)  # (only=mover, passed in order: a keyword call costs more)
        if foe in near:
            ship_hull_attacks.cast_spells(battle, foe, only=mover)


def _close_in(battle: Any, ship: Ship, foe: Ship, intent: str) -> None:
    """After all fire, the mover rams (with initiative), shears or grapples (SJ 8)."""
    if intent == "ram" and ship.spec.ram != "none":
        ship_close.ram(battle, ship, foe)
    elif intent == "shear":
        ship_close.shear(battle, ship, foe)
    if (
        ship.fighting
        and foe.fighting
        and intent in ("board", "ram")
        and not ship.grappled_with(foe)
    ):
        ship_close.grapple(battle, ship, foe)


def missile_fire(battle: Any, ship: Ship, foe: Ship) -> None:
    """Hand-held missile fire across a shared hex (SJ 8) by rapid resolution (SJ 13).

    Crews with missile weapons on their own deck, not in a deck fight there, shoot at a
    crew on the enemy's deck (medium range, short in contact: no modifier, PROPOSED
    ``sj.deck_missile_modifier``).
    When the ship's gunnery policy aims small arms at the hull (``small_arms: hull``)
    they shoot at her side instead: scattered hits, one spot each (EX-SJ-06,
    :func:`~fadad_agents.engine.ships.hull_attacks.hull_volley`), and so do named
    characters with missile weapons (:func:`~fadad_agents.engine.ships.hull_attacks.
    hull_shots`).
    """
    if battle.boarders_on(ship) or ship.memory.get("missiles") == battle.round:
        return
    ship.memory["missiles"] = battle.round  # her hands loose once a turn
    at_hull = ship_hull_attacks.small_arms_aim(ship) == "hull"
    for crew in battle.home_crews(ship):
        if not battle.missile(crew) or not foe.fighting:
            continue
        if at_hull:
            ship_hull_attacks.hull_volley(battle, crew, foe)
            continue
        targets = battle.crews_on(foe)
        targets = [t for t in targets if t.side != ship.side]
        if not targets:
            return
        target = targets[int(battle.gunnery_rng.random() * len(targets))]
        breathe(battle, (crew,))
        crew.volley(target, battle, battle.options.sj.deck_missile_modifier)
    if at_hull and foe.fighting:
        ship_hull_attacks.hull_shots(battle, ship, foe)
    if battle.crews_changed:
        battle.refresh_crews()
