"""From a validated :class:`~fadad_agents.schema.scenario.Scenario` to a ready Battle, and run().

Per force: policies are the side's layered under the force's own, validated through the
policy registry (errors name the scenario field); characters become kernel ``Fighter``\\ s
with wound tracks; ``count: N`` makes N characters in one band (group initiative, group
morale); crews and units become one bulk agent each. Streams are per agent index (set-up
order), so each attacker's dice depend only on (seed, its place in the scenario);
targeting choices draw from one shared ``targeting`` stream.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from fadad_agents.agents.core.base import Band
from fadad_agents.agents.core.character import Character, defence_verb
from fadad_agents.agents.core.fronts import RUN_YARDS, Front
from fadad_agents.agents.core.groups import Crew, Unit
from fadad_agents.agents.core.spirit import spirit_of
from fadad_agents.engine.core.battle import Battle, StopRule
from fadad_agents.engine.core.clock import (
    PERSONAL_ROUND_SECONDS,
    collector_paused,
    seconds_per_round,
)
from fadad_agents.engine.core.fighters import (
    bare_fighter,
    character_fighter,
    character_track,
    group_fighter,
)
from fadad_agents.engine.core.space import place_forces
from fadad_agents.engine.core.streams import fresh_seed
from fadad_agents.policies.core.policy_set import (
    GROUP_DEFAULTS,
    INDIVIDUAL_DEFAULTS,
    MISSILE_DEFAULTS,
    PolicySet,
    build_policy_set,
)
from fadad_agents.rules import mass
from fadad_agents.rules.core.ladder import FAIR
from fadad_agents.rules.core.wound_marks import with_marks
from fadad_agents.rules.core.wounds import WoundTrack, new_track
from fadad_agents.rules.options import RulesOptions
from fadad_agents.rules.personal.dc_track import Track
from fadad_agents.rules.personal.movement import MAN_REACH, footprint_radius, scaled_length
from fadad_agents.schema import character as schema_character
from fadad_agents.schema import forces as schema_forces
from fadad_agents.schema.limits import Limits
from fadad_agents.schema.loader import load_scenario
from fadad_agents.schema.scenario import Scenario

__all__ = [
    "ForceBuilder",
    "Ruleset",
    "UnsupportedForce",
    "battle_args",
    "build_battle",
    "foreign_decisions",
    "load",
    "register_ruleset",
    "rulesets",
    "scenario_seed",
]

MORALE_TRAITS = ("Morale", "Courage", "Will", "Leadership")
"""Traits read, in order, as a character's morale trait (else Fair)."""


class UnsupportedForce(ValueError):
    """A force the engine that plays its scenario cannot play (names the scenario field)."""


@dataclass(frozen=True, slots=True)
class Ruleset:
    """How a rule system's engine plays the scenarios it recognises.

    The core plays FADAD personal rounds itself and knows no other rule system by name:
    each registers one of these from its engine package (``engine.ships``, ``engine.fae``),
    as policies register by name.

    Attributes:
        name: what the rule system is called (``"ships"``).
        plays: whether a scenario needs this engine (it has ships, Fae combatants ...).
        build: ``build(scenario, seed, collect=...)``, a fresh battle of the scenario.
        decisions: policy decisions this rule system owns; the personal engine (and other
            rule systems' FADAD forces) skip them in a force's policies.
        precedence: the order in which :attr:`plays` is asked (lower first).
    """

    name: str
    plays: Callable[[Scenario], bool]
    build: Callable[..., Battle]
    decisions: frozenset[str] = frozenset()
    precedence: int = 0


_RULESETS: dict[str, Ruleset] = {}


def register_ruleset(ruleset: Ruleset) -> None:
    """Add (or replace, by name) a rule system's engine."""
    _RULESETS[ruleset.name] = ruleset
    foreign_decisions.cache_clear()


def rulesets() -> list[Ruleset]:
    """The registered rule systems' engines, in the order they are asked."""
    return sorted(_RULESETS.values(), key=lambda r: r.precedence)


@functools.cache
def foreign_decisions() -> frozenset[str]:
    """Decisions that registered rule systems own, skipped in personal policy sets."""
    return frozenset().union(*(r.decisions for r in _RULESETS.values()))


def load(
    scenario: Scenario | str | Path | Mapping[str, Any], limits: Limits | None = None
) -> Scenario:
    """A Scenario from an object, a path, YAML text or a mapping (``limits`` apply to the
    last three; a Scenario was checked when it was made). Raises ``ScenarioError``."""
    if isinstance(scenario, Scenario):
        return scenario
    return load_scenario(scenario, limits=limits)


def battle_args(scenario: Scenario, seed: int | None, collect: bool) -> dict[str, Any]:
    """What every battle class is built from: side names, seed, options, stop rule, name."""
    stop, cap = scenario.stop, scenario.round_cap
    rounds = stop.max_rounds if cap is None else cap  # a battle always stops
    return {
        "side_names": [s.name for s in scenario.sides],
        "seed": scenario_seed(scenario, seed),
        "options": scenario.rules,
        "stop": StopRule(rounds, stop.max_seconds, stop.when_side, capped=cap is not None),
        "name": scenario.name,
        "collect": collect,
    }


def scenario_seed(scenario: Scenario, seed: int | None) -> int:
    """The seed to play: the argument, else the scenario's, else a fresh one."""
    if seed is not None:
        return seed
    return scenario.seed if scenario.seed is not None else fresh_seed()


def _starting_track(force: schema_character.Character, options: RulesOptions) -> Track:
    """Its track at set-up: empty, or with the wounds it brings (``wounds``; never on the
    Damage-Capacity track: schema.starting refuses them there)."""
    track = character_track(force, options)
    if force.wounds and isinstance(track, WoundTrack):
        return with_marks(track, force.wound_marks)
    return track


def _verb(force: Any) -> str:
    weapon = force.weapon
    if weapon is None or "unarmed" in (weapon.name or "").lower():
        return "punch"
    return "shot" if weapon.ranged else "swing"


def _stride(force: schema_character.Character, options: RulesOptions) -> float:
    """Share of the movement table a character covers (personal-combat.md 5, PROPOSED
    factors): short legs and heavy metal armour each slow it."""
    stride = 1.0
    if force.short_legs:
        stride *= options.move.short_legs_factor
    if force.armour is not None and force.armour.material == "heavy_metal":
        stride *= options.move.heavy_armour_factor
    return stride


def _size_value(force: schema_character.Character, options: RulesOptions) -> int:
    """Weapon + shield value for the FUDGE size comparison (personal-combat.md 2.1): the
    weapon's value (-1 unarmed, as a punch) and the shield's FUDGE melee value."""
    weapon = force.weapon
    value = -1 if weapon is None else weapon.damage_bonus(fudge=options.wound_model != "fadad")
    return value + (0 if force.shield is None else force.shield.fudge_melee)


def _missile_spec(force: Any, options: RulesOptions) -> tuple[Any, ...] | None:
    """A missile weapon's ranges, readying actions, projectile, ammunition, where its
    Extreme range ends and the Dexterity that readies it past two actions a round (None:
    no roll, ``range.dexterity_past_two_actions``) and its area
    (``agents.core.shooting.Missile``), or None for a hand weapon."""
    weapon = force.weapon
    if weapon is None or not weapon.ranged or weapon.range_yards is None:
        return None
    dexterity = force.traits.get("Dexterity", FAIR)
    return (
        weapon.range_yards,
        weapon.actions_to_ready,
        weapon.projectile,
        weapon.ammunition if force.shots_left is None else force.shots_left,
        options.range.extreme_multiple,
        dexterity if options.range.dexterity_past_two_actions else None,
        weapon.area_ft3,
    )


def _missile_defence(force: schema_character.Character, options: RulesOptions) -> tuple[int, bool]:
    """The skill a character meets a missile with, and whether it is a shield block
    (personal-combat.md 6.3): a shield block with its Shield skill, else a dodge, else a
    parry in a heroic game (``range.parry_missiles``), else an unskilled dodge at
    Mediocre (PROPOSED, as an unskilled attack)."""
    skills = force.skills
    if force.shield is not None:
        for name in (force.defence_skill, "Shield", "Shield Block"):
            if name in skills and ("shield" in name.lower() or "block" in name.lower()):
                return skills[name], True
    if "Dodge" in skills:
        return skills["Dodge"], False
    if options.range.parry_missiles:
        return force.defence, False
    return -1, False


def _spirit_combat(scenario: Scenario) -> bool:
    """Someone in the scenario is harmed only by magic: every character then carries its
    spirit-combat figures (personal-combat.md 8)."""
    return any(
        getattr(force, "magic_to_hit", None) is not None
        for side in scenario.sides
        for force in side.forces
    )


def _morale_trait(force: schema_character.Character) -> int:
    for key in MORALE_TRAITS:
        if key in force.traits:
            return force.traits[key]
    return FAIR


_MAX_SCENARIOS = 16
"""Scenario objects a per-scenario cache keeps (the oldest is dropped first)."""
_CACHE_LOCK = threading.Lock()


def per_scenario[T](cache: dict[int, tuple[Scenario, T]], scenario: Scenario, make: type[T]) -> T:
    """``cache``'s value for this scenario object (scenarios are frozen), made on first use.

    Keyed by identity and holding the scenario itself, so a recycled id never matches;
    at most :data:`_MAX_SCENARIOS` scenarios are kept. A new entry is made under a lock:
    threads (a Dask worker's) may play scenarios at once.
    """
    entry = cache.get(id(scenario))
    if entry is None or entry[0] is not scenario:
        with _CACHE_LOCK:
            entry = cache.get(id(scenario))
            if entry is None or entry[0] is not scenario:
                if len(cache) >= _MAX_SCENARIOS:
                    cache.pop(next(iter(cache)))
                entry = cache[id(scenario)] = (scenario, make())
    return entry[1]


_PLANS: dict[int, tuple[Scenario, dict[tuple[int, int], dict[str, Any]]]] = {}
_ENGINE = (-1, -1)
"""Plans key of the rule system chosen to play a scenario (None: FADAD personal rounds)."""


def _plans(scenario: Scenario) -> dict[tuple[int, int], dict[str, Any]]:
    """Per-force set-up derived once per scenario object.

    Only immutable things are kept: kernel fighters, empty wound tracks, traits, and
    policy sets whose policies are all stateless. Every battle still gets fresh agents,
    streams and state, so nothing leaks between runs.
    """
    return per_scenario(_PLANS, scenario, dict)


class ForceBuilder:
    """Adds one scenario's forces to a battle, numbering agents in set-up order.

    The ship and Fae builders reuse it for the FADAD forces of their scenes, so every
    agent draws from the same streams by set-up index whichever engine plays it.
    """

    def __init__(self, battle: Battle, scenario: Scenario) -> None:
        self.battle = battle
        self.scenario = scenario
        self.options = scenario.rules
        self.index = 0
        self.plans = _plans(scenario)
        self.led: list[tuple[Unit, str]] = []  # units and the names of their leaders

    def next_streams(self) -> dict[str, Any]:
        """The next agent's set-up index and dice streams (advances the index)."""
        i = self.index
        self.index += 1
        rng, targeting = self.battle.streams.for_agent(i)
        return {"index": i, "rng": rng, "targeting_rng": targeting}

    def policies(self, si: int, fi: int, force: Any, defaults: dict[str, str]) -> PolicySet:
        """The force's personal policies: its side's layered under its own."""
        side = self.scenario.sides[si]
        layers = [
            (f"sides.{si}.policies", side.policies),
            (f"sides.{si}.forces.{fi}.policies", force.policies),
        ]
        return build_policy_set(layers, defaults, ignore=foreign_decisions())

    def add(self, si: int, fi: int, force: Any) -> None:
        """Add force ``fi`` of side ``si`` (ships are skipped: terrain of a boarding fight)."""
        if isinstance(force, schema_character.Character):
            self._characters(si, fi, force)
        elif isinstance(force, schema_forces.Crew):
            self._crew(si, fi, force)
        elif isinstance(force, schema_forces.Unit):
            self._unit(si, fi, force)
        elif not isinstance(force, schema_forces.Ship):  # ships: terrain of a boarding fight
            raise UnsupportedForce(
                f"sides.{si}.forces.{fi}: {type(force).__name__} forces are not played by the "
                "FADAD personal-scale engine"
            )

    def _character_plan(
        self, si: int, fi: int, force: schema_character.Character
    ) -> dict[str, Any]:
        defaults = MISSILE_DEFAULTS if force.weapon and force.weapon.ranged else INDIVIDUAL_DEFAULTS
        plan = self.plans.get((si, fi))
        if plan is not None:
            if not plan["policies"].shareable:
                plan = {**plan, "policies": self.policies(si, fi, force, defaults)}
            return plan
        weapon = force.weapon
        fighter = character_fighter(force, self.options)
        dodge, blocks = _missile_defence(force, self.options)
        plan = {
            "side": si,
            "policies": self.policies(si, fi, force, defaults),
            "fighter": fighter,
            "bare": bare_fighter(force, self.options),
            "track": _starting_track(force, self.options),
            "reaction": force.reaction_speed,
            "player": force.player,
            "ite_points": force.ite_points,
            "verb": _verb(force),
            "defence_verb": defence_verb(force.defence_skill),
            "first_aid": force.skills.get("First Aid"),
            "morale": _morale_trait(force),
            "radius": footprint_radius(force.scale),
            "reach": scaled_length(
                MAN_REACH if weapon is None else weapon.reach_yards, force.scale
            ),
            "stride": _stride(force, self.options),
            "facing": force.facing,
            "missile": _missile_spec(force, self.options),
            "missile_fighter": replace(fighter, defence=dodge),
            "unarmed": replace(fighter, odm=force.strength + force.scale - 1),
            "size_value": _size_value(force, self.options),
            "blocks_missiles": blocks,
            "spirit": spirit_of(force) if _spirit_combat(self.scenario) else None,
        }
        self.plans[(si, fi)] = plan
        return plan

    def _characters(self, si: int, fi: int, force: schema_character.Character) -> None:
        plan = self._character_plan(si, fi, force)
        band = Band(force.name, si)
        empty = character_track(force, self.options) if force.member_wounds else None
        for n in range(force.count):
            name = force.name if force.count == 1 else f"{force.name} {n + 1}"
            if isinstance(empty, WoundTrack):  # each member with its own wounds
                plan = {**plan, "track": with_marks(empty, force.member_marks(n))}
            member = Character(self.battle, name=name, band=band, **plan, **self.next_streams())
            member.start_position = member.position = force.position
            member.force_index = fi
            self.battle.enlist(member)

    def _group_common(self, si: int, fi: int, force: Any, fighter: Any) -> dict[str, Any]:
        return {
            "name": force.name,
            "side": si,
            "policies": self.policies(si, fi, force, GROUP_DEFAULTS),
            "morale_rng": self.battle.streams.morale_of(self.index),
            "fighter": fighter,
            # crews and units keep boxes (schema.starting refuses dc_attribute for them)
            "member_track": new_track(self.options.wound_track),
            **self.next_streams(),
        }

    def _crew(self, si: int, fi: int, force: schema_forces.Crew) -> None:
        fighter = group_fighter(force, self.options, force.skill)
        stats = mass.CrewGroup(
            count=force.count,
            hd=mass.average_hd([force.hit_dice]),
            ac=force.armour_class,
            attack_bonus=force.attack_bonus,
            max_damage=force.max_damage,
            incapacitating=force.incapacitating_attack,
        )
        common = self._group_common(si, fi, force, fighter)
        crew = Crew(self.battle, stats=stats, morale=force.morale, count=force.count, **common)
        self.battle.log.plural.add(force.name)
        crew.start_position = crew.position = force.position
        self.battle.enlist(crew)

    def _unit(self, si: int, fi: int, force: schema_forces.Unit) -> None:
        defence = force.skill if force.defence_skill is None else force.defence_skill
        fighter = group_fighter(force, self.options, defence)
        state = mass.UnitState(
            strength=force.count,
            attack=force.skill,
            defence=defence,
            odm=fighter.odm,
            ddm=fighter.ddm,
            morale=force.morale,
        )
        unit = Unit(self.battle, state=state, **self._group_common(si, fi, force, fighter))
        self.battle.log.plural.add(force.name)
        unit.start_position = unit.position = force.position
        unit.shot = self._shot(force)
        self.battle.enlist(unit)
        if force.leader is not None:
            self.led.append((unit, force.leader))

    def _shot(self, force: schema_forces.Unit) -> Front | None:
        """How a unit on open ground closes and strikes from afar (``agents.core.fronts``):
        the yards it runs in one of the battle's rounds, its missile weapon's Extreme range
        and range bands (0, None: hand to hand only); None where it reaches every foe
        (``mass.units_at_range`` off, no position, a hex map)."""
        options, weapon = self.options, force.weapon
        if not options.mass.units_at_range or force.position is None:
            return None
        if self.scenario.map.kind != "open":
            return None
        kinds = [f.kind for side in self.scenario.sides for f in side.forces]
        run = RUN_YARDS * seconds_per_round(kinds, options) / PERSONAL_ROUND_SECONDS
        if weapon is None or not weapon.ranged or weapon.range_yards is None:
            return Front(0.0, None, run)
        bands = weapon.range_yards
        return Front(bands[3] * options.range.extreme_multiple, bands, run)

    def link_leaders(self) -> None:
        """Each led unit follows its leader (Unit.leader: a character of the scenario)."""
        if not self.led:
            return
        people = {m.name: m for side in self.battle.sides for m in side.members}
        traits = {
            f.name: f.traits.get("Leadership")
            for side in self.scenario.sides
            for f in side.forces
            if isinstance(f, schema_character.Character)
        }
        for unit, name in self.led:
            leadership = traits.get(name)
            if name in people and leadership is not None:
                unit.follow(people[name], leadership)


def build_battle(scenario: Scenario, seed: int | None = None, *, collect: bool = True) -> Battle:
    """A fresh, ready-to-play Battle for ``scenario`` and ``seed``.

    The first registered rule system that plays the scenario builds it (ships, Fae
    Domains ...); otherwise the core plays FADAD personal rounds. The choice is made once
    per scenario object.

    Raises:
        PolicyError: an unknown policy or bad parameters (names the scenario field).
        UnsupportedForce: a force the chosen engine cannot play, or a side with no fighters.
    """
    with collector_paused(full=True):  # a 20,000-agent build: 3 s with it on, 1.2 s paused
        return _build(scenario, seed, collect)


def _build(scenario: Scenario, seed: int | None, collect: bool) -> Battle:
    """:func:`build_battle` with the collector paused."""
    plans = _plans(scenario)
    chosen = plans.get(_ENGINE)
    if chosen is None:
        ruleset = next((r for r in rulesets() if r.plays(scenario)), None)
        chosen = plans[_ENGINE] = {"ruleset": ruleset}
    if chosen["ruleset"] is not None:
        built: Battle = chosen["ruleset"].build(scenario, seed, collect=collect)
        return built
    battle = Battle(**battle_args(scenario, seed, collect))
    builder = ForceBuilder(battle, scenario)
    for si, side in enumerate(scenario.sides):
        for fi, force in enumerate(side.forces):
            builder.add(si, fi, force)
        if not battle.sides[si].members:
            raise UnsupportedForce(f"sides.{si}.forces: side {side.name!r} has no fighters")
    builder.link_leaders()
    place_forces(battle, scenario)
    return battle
