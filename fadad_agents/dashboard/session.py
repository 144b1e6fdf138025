"""A replayable battle for the dashboards: configuration, command log, replay.

DESIGN.md (engine): a model holding SimPy generators cannot be deep-copied, so rewind and
what-if replay rebuild the battle from (scenario, seed, command log). A
:class:`BattleSession` keeps exactly those three things plus the live :class:`Battle`;
every reset, rewind or change of settings builds a fresh battle and replays the
commands. Nothing here imports ipywidgets: the widgets in
:mod:`fadad_agents.dashboard.battle` only call this class.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from fadad_agents.engine import Battle, build_battle, load
from fadad_agents.engine.core.build import scenario_seed
from fadad_agents.policies import (
    KINDS,
    REGISTRY,
    PolicyError,
)
from fadad_agents.policies.ships.protocols import SHIP_KINDS
from fadad_agents.policies.ships.registry import SHIP_REGISTRY
from fadad_agents.schema import character as schema_character
from fadad_agents.schema import forces as schema_forces
from fadad_agents.schema.base import PolicyRef
from fadad_agents.schema.scenario import Scenario

__all__ = [
    "PERSONAL_DECISIONS",
    "SCENARIO_DIR",
    "BattleSession",
    "Command",
    "Overrides",
    "SessionError",
    "apply_overrides",
    "choosable_policies",
    "decisions",
    "force_sliders",
    "has_ships",
    "scenario_files",
]

SCENARIO_DIR = Path(__file__).resolve().parents[2] / "scenarios"
"""The repository's scenarios folder (the picker lists its ``*.yaml`` files)."""

type Command = Literal["step", "run"]
"""What the user asked for: one round, or play to the end."""

COMMANDS: frozenset[str] = frozenset({"step", "run"})


class SessionError(ValueError):
    """A dashboard request the battle cannot honour (unknown command, bad override)."""


@dataclass(frozen=True, slots=True)
class Overrides:
    """Settings the dashboard lays over the scenario file.

    Attributes:
        policies: ``{side index: {decision: policy name}}``, replacing the side's choice.
        counts: ``{(side, force): head count}`` for forces with a ``count``.
        magic: ``{(side, force): magic plus}`` for forces with a weapon.
    """

    policies: Mapping[int, Mapping[str, str]] = field(default_factory=dict)
    counts: Mapping[tuple[int, int], int] = field(default_factory=dict)
    magic: Mapping[tuple[int, int], int] = field(default_factory=dict)


def _ship_policies(kind: str) -> list[str]:
    """Ship policies of ``kind`` that build without parameters."""
    names = []
    for name in SHIP_REGISTRY.names(kind):
        try:
            SHIP_REGISTRY.create(kind, name)
        except PolicyError:
            continue
        names.append(name)
    return names


def choosable_policies(kind: str, *, ships: bool = False) -> list[str]:
    """Registered ``kind`` policies that need no parameters (a dropdown can pick them).

    Ship decisions (``maneuver``, ``colours`` ...) are the registry's ship kinds. With
    ``ships``, a decision both ships and crews take (``targeting``: a side's choice aims
    its guns and its crews) offers only the names both accept.
    """
    if kind in SHIP_KINDS and kind not in KINDS:
        return _ship_policies(kind)
    names = [
        name
        for name in REGISTRY.names(kind)
        if not any(f.is_required() for f in REGISTRY.spec(kind, name).params.model_fields.values())
    ]
    if ships and kind in SHIP_KINDS:
        both = set(_ship_policies(kind))
        names = [n for n in names if n in both]
    return names


def has_ships(scenario: Scenario) -> bool:
    """The scenario has ships (its sides then take ship decisions too)."""
    return any(isinstance(f, schema_forces.Ship) for s in scenario.sides for f in s.forces)


PERSONAL_DECISIONS = (
    "targeting",
    "stance",
    "multi_attack",
    "retreat",
    "morale",
    "first_aid",
    "ite_points",
)
"""The FADAD personal decisions the odds dashboard offers (Fae Domains ones are not)."""


def decisions(scenario: Scenario, personal: Sequence[str] = PERSONAL_DECISIONS) -> list[str]:
    """``personal`` decisions, plus every ship-only decision when the scenario has ships."""
    extra = [k for k in SHIP_KINDS if k not in personal] if has_ships(scenario) else []
    return [*personal, *extra]


def scenario_files(folder: Path = SCENARIO_DIR) -> list[Path]:
    """The scenario files the picker offers, sorted by name."""
    return sorted(folder.glob("*.yaml"))


def _force_update(force: Any, count: int | None, magic: int | None) -> Any:
    update: dict[str, Any] = {}
    if count is not None:
        update["count"] = count
    if magic is not None and getattr(force, "weapon", None) is not None:
        update["weapon"] = force.weapon.model_copy(update={"magic_plus": magic})
    return force.model_copy(update=update) if update else force


def apply_overrides(scenario: Scenario, overrides: Overrides) -> Scenario:
    """``scenario`` with the dashboard's policies, head counts and weapon magic applied.

    Raises:
        SessionError: an override names a side or force the scenario does not have.
    """
    sides = list(scenario.sides)
    keys = set(overrides.counts) | set(overrides.magic)
    for si, fi in keys:
        if not (0 <= si < len(sides) and 0 <= fi < len(sides[si].forces)):
            raise SessionError(f"no force sides.{si}.forces.{fi} in {scenario.name!r}")
    for si in overrides.policies:
        if not 0 <= si < len(sides):
            raise SessionError(f"no side {si} in {scenario.name!r} (it has {len(sides)})")
    for si, side in enumerate(sides):
        forces = [
            _force_update(f, overrides.counts.get((si, fi)), overrides.magic.get((si, fi)))
            for fi, f in enumerate(side.forces)
        ]
        chosen = overrides.policies.get(si, {})
        policies = dict(side.policies)
        for kind, name in chosen.items():
            policies[kind] = PolicyRef(name=name)
        sides[si] = side.model_copy(update={"forces": forces, "policies": policies})
    return scenario.model_copy(update={"sides": sides})


@dataclass(frozen=True, slots=True)
class Slider:
    """A meaningful numeric setting of one force (head count or weapon magic)."""

    side: int
    force: int
    name: str
    what: Literal["count", "magic"]
    value: int
    low: int
    high: int


def force_sliders(scenario: Scenario) -> list[Slider]:
    """Head counts of groups (count > 1) and the magic plus of named fighters' weapons."""
    out: list[Slider] = []
    for si, side in enumerate(scenario.sides):
        for fi, f in enumerate(side.forces):
            if isinstance(f, schema_forces.Ship):
                continue
            count = getattr(f, "count", 1)
            if count > 1:
                out.append(Slider(si, fi, f.name, "count", count, 1, max(2 * count, 10)))
            weapon = getattr(f, "weapon", None)
            if isinstance(f, schema_character.Character) and count == 1 and weapon is not None:
                out.append(Slider(si, fi, f.name, "magic", weapon.magic_plus, 0, 10))
    return out


class BattleSession:
    """One scenario, seed, overrides and command log, and the battle they replay to.

    >>> s = BattleSession("scenarios/snorri-vs-brynhild.yaml", seed=4006)  # doctest: +SKIP
    >>> s.step(); s.battle.round                                             # doctest: +SKIP
    1
    """

    def __init__(
        self,
        scenario: Scenario | str | Path,
        seed: int | None = None,
        overrides: Overrides | None = None,
    ) -> None:
        self.source = scenario
        self.base = load(scenario)
        self.seed = scenario_seed(self.base, seed)  # a fresh seed is kept for replay
        self.overrides = overrides or Overrides()
        self.commands: list[Command] = []
        self.scenario = apply_overrides(self.base, self.overrides)
        self.battle = self._fresh()
        self.strength: list[tuple[int, ...]] = []
        self.hull: list[tuple[float, ...]] = []
        self._record()

    # --- building and replaying ----------------------------------------------------------

    def _fresh(self) -> Battle:
        return build_battle(self.scenario, self.seed)

    def _record(self) -> None:
        """Per-side head count and summed ship hull (fraction left) after each round."""
        sides = self.battle.sides
        self.strength.append(tuple(int(s.strength) for s in sides))
        self.hull.append(
            tuple(
                sum(float(m.hull_fraction) for m in s.members if getattr(m, "kind", "") == "ship")
                for s in sides
            )
        )

    @property
    def has_ships(self) -> bool:
        """The battle has ship agents (the dashboard then charts hulls too)."""
        return any(getattr(m, "kind", "") == "ship" for s in self.battle.sides for m in s.members)

    def _apply(self, command: str) -> None:
        battle = self.battle
        if command == "step":
            if not battle.finished:
                battle.step()
                self._record()
        elif command == "run":
            while not battle.finished:
                battle.step()
                self._record()
        else:
            raise SessionError(f"unknown command {command!r}; use one of: run, step")

    def replay(self, commands: Sequence[str]) -> None:
        """Build a fresh battle and apply ``commands`` (the new command log)."""
        bad = [c for c in commands if c not in COMMANDS]
        if bad:
            raise SessionError(f"unknown command {bad[0]!r}; use one of: run, step")
        self.scenario = apply_overrides(self.base, self.overrides)
        self.battle = self._fresh()
        self.strength, self.hull = [], []
        self._record()
        self.commands = []
        for c in commands:
            self.commands.append(c)  # type: ignore[arg-type]
            self._apply(c)

    # --- what the dashboard asks --------------------------------------------------------

    def step(self) -> bool:
        """Play one round; False if the battle had already ended (nothing logged)."""
        if self.battle.finished:
            return False
        self.commands.append("step")
        self._apply("step")
        return True

    def run(self) -> None:
        """Play to the end."""
        if not self.battle.finished:
            self.commands.append("run")
            self._apply("run")

    def reset(self) -> None:
        """Back to round 0 of the same scenario, seed and settings."""
        self.replay([])

    def rewind(self, rounds: int = 1) -> None:
        """Go back ``rounds`` rounds by replaying one step fewer from the start."""
        target = max(0, self.battle.round - rounds)
        self.replay(["step"] * target)

    def configure(self, *, seed: int | None = None, overrides: Overrides | None = None) -> None:
        """Change the seed or the overrides and replay the command log (a what-if)."""
        if seed is not None:
            self.seed = seed
        if overrides is not None:
            self.overrides = overrides
        self.replay(list(self.commands))

    @property
    def round(self) -> int:
        """Rounds played."""
        return int(self.battle.round)

    @property
    def finished(self) -> bool:
        """The battle has ended."""
        return bool(self.battle.finished)

    def narration(self, last: int | None = None) -> list[str]:
        """The narrated log (the ``last`` lines only, if given)."""
        return self.battle.log.lines(last)
