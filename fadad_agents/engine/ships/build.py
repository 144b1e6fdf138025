"""From a Scenario with ships to a ready :class:`~fadad_agents.engine.ships.battle.ShipBattle`.

Characters, crews and units are built exactly as for a personal battle (the personal
builder of :mod:`fadad_agents.engine.core.build`, same streams by set-up index); ships get their
:class:`~fadad_agents.policies.ships.registry.ShipPolicySet` from the side's and the ship's
``policies`` (ship decisions; personal keys are left to the crews), one
:class:`~fadad_agents.agents.ships.weapon_team.WeaponTeam` per mount, and the damage track of
``ship.damage_model``.

Who stands where (PROPOSED, documented for the lead): a force with ``aboard: <ship>``
stands on that ship; its *own* ship is that ship if it is of the same side, else the own
side's ship in the same hex (boarders already across), else the side's first ship. A force
without ``aboard`` in a ship battle stands on its side's first ship. Ships of different
sides that start in one hex start grappled (lashed together), so boarders may cross in
round 1. A ship without a ``position`` is placed by the encounter roll (SJ 15: 1d10+10
hexes away, 1d6 direction) from the first placed ship of another side, facing it.
"""

from __future__ import annotations

from typing import Any

from fadad_agents.agents.ships.ship import Ship
from fadad_agents.agents.ships.weapon_team import WeaponTeam
from fadad_agents.engine.core.build import ForceBuilder, UnsupportedForce, battle_args
from fadad_agents.engine.ships.battle import ShipBattle, ship_round_seconds
from fadad_agents.policies.core.policy_set import GROUP_DEFAULTS
from fadad_agents.policies.ships.registry import build_ship_policies
from fadad_agents.rules.core.wound_marks import with_marks
from fadad_agents.schema import forces as schema_forces
from fadad_agents.schema.scenario import Scenario
from fadad_agents.schema.starting import SHIP_LEVELS, parse_mark

__all__ = ["SHIP_DECISIONS", "build_ship_battle", "has_ships"]

SHIP_DECISIONS = frozenset(
    {"reload", "firefighting", "maneuver", "boarding", "pursuit", "evasion", "helm", "gunnery"}
    | {"colours", "crew"}  # ship colours (strike) and crew assignment (issue 5)
)
"""Decisions the ship engine owns; personal-scale policy sets skip them."""


def has_ships(scenario: Scenario) -> bool:
    """The scenario has at least one ship."""
    return any(isinstance(f, schema_forces.Ship) for side in scenario.sides for f in side.forces)


def _ship(
    battle: ShipBattle, builder: ForceBuilder, si: int, fi: int, force: schema_forces.Ship
) -> Ship:
    scenario = builder.scenario
    layers = [
        (f"sides.{si}.policies", scenario.sides[si].policies),
        (f"sides.{si}.forces.{fi}.policies", force.policies),
    ]
    opts = battle.options
    ship = Ship(
        battle,
        spec=force,
        side=si,
        policies=builder.policies(si, fi, force, GROUP_DEFAULTS),
        ship_policies=build_ship_policies(layers),
        boxes=force.damage_boxes or opts.ship.fadad_boxes,
        **builder.next_streams(),
    )
    # damage brought from an earlier battle: every play of this battle starts with it
    ship.start_hull_damage = ship.hull_damage = force.hull_damage
    if force.damage_marks:
        marks = (parse_mark(m, SHIP_LEVELS) for m in force.damage_marks)
        ship.start_track = ship.track = with_marks(ship.track, marks, SHIP_LEVELS)
    for weapon in force.weapons:
        for n in range(weapon.count):
            label = weapon.name if weapon.count == 1 else f"{weapon.name} {n + 1}"
            team = WeaponTeam(
                battle,
                weapon=weapon,
                ship=ship,
                label=f"{label} ({weapon.arc})",
                env=battle.env,
                round_seconds=battle.round_seconds,
                proportional=opts.ship.reload_rule == "proportional",
            )
            team.on_loaded = _loaded_logger(battle)
            if not opts.sj.weapons_start_loaded:
                team.start_unloaded()
            ship.teams.append(team)
    battle.add_ship(ship)
    return ship


def _loaded_logger(battle: ShipBattle) -> Any:
    def loaded(team: WeaponTeam, rounds: int) -> None:
        if rounds > team.weapon.reload_rounds:
            battle.record(
                team.ship.name,
                "reload",
                None,
                (),
                (("crew", team.crew), ("needed", team.needed)),
                (("result", "loaded late"), ("weapon", team.label), ("rounds", rounds)),
            )

    return loaded


def _home(ships: list[Ship], side: int, deck: Ship | None) -> Ship | None:
    own = [s for s in ships if s.side == side]
    if deck is not None and deck.side == side:
        return deck
    if deck is not None:
        for s in own:
            if s.hex == deck.hex:
                return s
    return own[0] if own else None


def build_ship_battle(
    scenario: Scenario, seed: int | None = None, *, collect: bool = True
) -> ShipBattle:
    """A fresh, ready-to-play ShipBattle for ``scenario`` and ``seed``.

    Raises:
        PolicyError: an unknown policy or bad parameters (names the scenario field).
        UnsupportedForce: a side with fighters but no ship to stand on.
    """
    hex_map = scenario.map
    battle = ShipBattle(
        **battle_args(scenario, seed, collect),
        round_seconds=ship_round_seconds(hex_map.hex_yards),
        hex_yards=hex_map.hex_yards,
        map_radius=hex_map.radius if hex_map.kind == "hex" else None,
    )
    battle.log.round_seconds = battle.round_seconds  # label each round with its time
    builder = ForceBuilder(battle, scenario)
    ships: dict[str, Ship] = {}
    for si, side in enumerate(scenario.sides):
        for fi, force in enumerate(side.forces):
            if isinstance(force, schema_forces.Ship):
                ships[force.name] = _ship(battle, builder, si, fi, force)
    fleet = list(ships.values())
    battle.sight_newcomers()
    battle.add_debris([tuple(cell) for cell in hex_map.debris])
    for si, side in enumerate(scenario.sides):
        for fi, force in enumerate(side.forces):
            if isinstance(force, schema_forces.Ship):
                continue
            before = len(battle.sides[si].members)
            builder.add(si, fi, force)
            deck = ships.get(getattr(force, "aboard", None) or "")
            home = _home(fleet, si, deck)
            if deck is None:
                deck = home
            if deck is None:
                raise UnsupportedForce(
                    f"sides.{si}.forces.{fi}: {force.name!r} has no ship to stand on; in a "
                    "battle with ships every side needs a ship (or give 'aboard: <ship name>')"
                )
            for member in battle.sides[si].members[before:]:
                battle.put_aboard(member, deck, home)
                battle.set_role(member, getattr(force, "role", "mixed"))
                battle.note_person(member, force)
                weapon = getattr(force, "weapon", None)
                if isinstance(force, schema_forces.Crew) and weapon is not None and weapon.ranged:
                    battle.set_missile(member)
    battle.open_scene()
    return battle
