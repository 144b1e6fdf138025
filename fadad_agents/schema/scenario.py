"""A battle: sides, forces, map, rules options, policies, stop conditions and seed.

A scenario file (``scenarios/*.yaml``) validates into :class:`Scenario`:

* ``rules`` - :class:`~fadad_agents.rules.options.RulesOptions`, nested
  (``fadad: {initiative: static}``) or dotted (``fadad.initiative: static``);
* ``map`` - :class:`MapSpec` (``open`` ground in yards or a ``hex`` map; Fae scenes may
  set :class:`Obstacle` s that gliders fly into);
* ``sides`` - two or more :class:`Side`, each with ``forces``: a list of
  :data:`Force` = Character | Crew | Unit | Ship. An entry's kind comes from its ``kind``
  key, else from its ``model:`` folder (``ships/...`` is a ship), else ``character``;
* ``policies`` - per side defaults, overridden per force (decision -> name + params);
* ``stop`` - :class:`StopConditions`;
* ``seed`` - the battle's root seed (None = choose at run time).

Cross-checks: names are unique across the scenario; ``aboard`` names a ship of the same
side (or, for prisoners and boarders, any side); ``leader`` names a character; a ship's
``captain`` names a character of her side; a ship
carries no more of her own side than ``max_crew`` (PROPOSED without one: a person a ton,
as every hull of the catalogue does); ships sail a hex map, not open ground in yards;
and the battle is within the runner's :class:`~fadad_agents.schema.limits.Limits`
(``info.context["limits"]``, default :data:`~fadad_agents.schema.limits.DEFAULT_LIMITS`).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import (
    Discriminator,
    Field,
    PrivateAttr,
    Tag,
    ValidationInfo,
    field_validator,
    model_validator,
)
from pydantic_core import PydanticCustomError

from fadad_agents.rules.options import RulesOptions
from fadad_agents.schema.base import Name, Policies, Position, Record, Text
from fadad_agents.schema.character import Character
from fadad_agents.schema.fae import FaeCharacter
from fadad_agents.schema.forces import Crew, Ship, Unit
from fadad_agents.schema.limits import DEFAULT_LIMITS, WORK, Limits
from fadad_agents.schema.starting import starting_problems
from fadad_agents.schema.suggest import nearest

__all__ = [
    "FORCE_CLASSES",
    "OBSTACLE_SIZE",
    "Force",
    "MapSpec",
    "Obstacle",
    "Scenario",
    "Side",
    "StopConditions",
    "force_kind",
]

FORCE_CLASSES: dict[str, type[Character | Crew | Unit | Ship | FaeCharacter]] = {
    "character": Character,
    "crew": Crew,
    "unit": Unit,
    "ship": Ship,
    "fae": FaeCharacter,
}
"""Schema class of each force kind."""

_FOLDER_KIND = {"creatures": "character", "crews": "crew", "units": "unit", "ships": "ship"}


def force_kind(data: Any) -> str:
    """Discriminator: ``kind``, else ``ruleset: fae``, else the ``model:`` folder, else
    ``character``."""
    if isinstance(data, Record):
        return str(getattr(data, "kind", "character"))
    if isinstance(data, dict):
        kind = data.get("kind")
        if kind is not None:
            return str(kind)
        if data.get("ruleset") == "fae":
            return "fae"
        ref = data.get("model")
        if isinstance(ref, str) and "/" in ref:
            return _FOLDER_KIND.get(ref.split("/")[0], "character")
    return "character"


Force = Annotated[
    Annotated[Character, Tag("character")]
    | Annotated[Crew, Tag("crew")]
    | Annotated[Unit, Tag("unit")]
    | Annotated[Ship, Tag("ship")]
    | Annotated[FaeCharacter, Tag("fae")],
    Discriminator(
        force_kind,
        custom_error_type="bad_kind",
        custom_error_message="not a force kind (allowed: character, crew, unit, ship, fae)",
    ),
]
"""One entry of ``Side.forces``."""


OBSTACLE_SIZE = 100
"""PROPOSED: the Fae Size of an obstacle that gives no ``size`` (a wall or a tree trunk):
a glider flying into it takes base damage 50, half of it, as from a Size-100 fighter."""


class Obstacle(Record):
    """A tree, tower or cliff on open ground that Fae gliders may fly into (fae-domains 6)."""

    name: Name = Field(description="What the log calls it: the old oak, the watchtower.")
    position: Position = Field(description="Centre, yards (x, y) on open ground.")
    radius: float = Field(ge=0.5, le=10_000, description="Yards from the centre to its edge.")
    height: int = Field(ge=1, le=100_000, description="Yards above the ground.")
    size: int = Field(
        OBSTACLE_SIZE,
        ge=1,
        le=100_000,
        description="Fae Size for collision damage (PROPOSED default 100: a wall or trunk).",
    )


class MapSpec(Record):
    """The battlefield. Personal fights use ``open`` ground in yards; ships a hex map."""

    kind: Literal["open", "hex"] = Field(
        "open", description="open: yards on open ground (personal scale); hex: ship hexes."
    )
    radius: int | None = Field(None, ge=1, le=10_000, description="Hex map radius in cells.")
    width: int | None = Field(None, ge=1, le=1_000_000, description="Open map, yards.")
    height: int | None = Field(None, ge=1, le=1_000_000, description="Open map, yards.")
    hex_yards: int = Field(50, ge=1, le=10_000, description="Yards per hex (FADAD ship 500).")
    max_attackers: int | None = Field(
        None,
        ge=1,
        le=20,
        description="Most fighters that can attack one defender in melee here (a doorway 1 or "
        "2, a corridor 2 or 3); None = as many as fit round the defender (six round a man).",
    )
    terrain: Text = Field("", max_length=200, description="Free text: tavern, plain, wildspace ...")
    debris: list[Position] = Field(
        default_factory=list,
        max_length=10_000,
        description="Hexes of debris fields: hazards to ships (SJ 7.2).",
    )
    obstacles: list[Obstacle] = Field(
        default_factory=list,
        max_length=1_000,
        description="Trees, towers, cliffs: Fae gliders below their height fly into them.",
    )

    def outside(self, position: tuple[int, int]) -> str | None:
        """Why ``position`` is off the map, or None if it is on it (or the map is unbounded)."""
        a, b = position
        radius = self.radius
        if self.kind == "hex" and radius is not None and max(abs(a), abs(b), abs(a + b)) > radius:
            return (
                f"[{a}, {b}] is off the hex map (radius {radius}: "
                "max(|q|, |r|, |q + r|) must be <= radius)"
            )
        if self.kind == "open":
            for value, size, axis in ((a, self.width, "x"), (b, self.height, "y")):
                if size is not None and not 0 <= value <= size:
                    return f"[{a}, {b}] is off the map ({axis} must be 0..{size} yards)"
        return None


class StopConditions(Record):
    """When the battle ends: whichever comes first."""

    max_rounds: int | None = Field(
        100,
        ge=1,
        le=1_000_000,
        description="Rounds (Fae turns) at most; null: the runner's cap (Limits.round_cap).",
    )
    max_seconds: int | None = Field(None, ge=1, le=10**9, description="Game seconds at most.")
    when_side: tuple[Literal["destroyed", "routed", "surrendered"], ...] = Field(
        ("destroyed", "routed", "surrendered"),
        max_length=3,
        description="Stop when the first side is out in one of these ways.",
    )


class Side(Record):
    """One party to the battle."""

    name: Name
    description: Text = ""
    policies: Policies
    forces: list[Force] = Field(min_length=1, max_length=1_000)


class Scenario(Record):
    """A validated battle description."""

    name: Name
    description: Text = ""
    ruleset: Literal["fadad", "fae"] = Field(
        "fadad", description="Default ruleset of forces without a kind (fae: Fae Domains)."
    )
    rules: RulesOptions = Field(default_factory=RulesOptions)
    map: MapSpec = Field(default_factory=MapSpec)
    sides: list[Side] = Field(min_length=2, max_length=16)
    stop: StopConditions = Field(default_factory=StopConditions)
    seed: int | None = Field(None, ge=0, lt=2**63)

    _limits: Limits = PrivateAttr(default=DEFAULT_LIMITS)
    _source: tuple[str, dict[tuple[str, ...], int]] = PrivateAttr(default=("<scenario>", {}))

    @model_validator(mode="before")
    @classmethod
    def _default_ruleset(cls, data: Any) -> Any:
        """``ruleset: fae`` makes every force without ``kind``/``ruleset`` a Fae combatant."""
        if not isinstance(data, dict) or data.get("ruleset") != "fae":
            return data
        sides = data.get("sides")
        if not isinstance(sides, list):
            return data
        out = []
        for side in sides:
            forces = side.get("forces") if isinstance(side, dict) else None
            if isinstance(forces, list):
                forces = [
                    {**f, "ruleset": "fae"}
                    if isinstance(f, dict) and "kind" not in f and "ruleset" not in f
                    else f
                    for f in forces
                ]
                side = {**side, "forces": forces}
            out.append(side)
        return {**data, "sides": out}

    @model_validator(mode="before")
    @classmethod
    def _ships_sail_hexes(cls, data: Any) -> Any:
        """A battle with ships is on a hex map unless the file says otherwise (and then it
        is refused: ships do not fight on open ground in yards)."""
        if not isinstance(data, dict) or not isinstance(data.get("sides"), list):
            return data
        forces = [
            f
            for side in data["sides"]
            if isinstance(side, dict) and isinstance(side.get("forces"), list)
            for f in side["forces"]
        ]
        spec = data.get("map", {})
        if isinstance(spec, dict) and "kind" not in spec and "ship" in map(force_kind, forces):
            return {**data, "map": {**spec, "kind": "hex"}}
        return data

    @field_validator("rules", mode="before")
    @classmethod
    def _dotted_rules(cls, value: Any) -> Any:
        """``fadad.initiative: static`` is ``fadad: {initiative: static}``; both forms may
        be mixed, but no option may be given twice."""
        if not isinstance(value, dict) or not any(isinstance(k, str) and "." in k for k in value):
            return value
        nested = {k: v for k, v in value.items() if not (isinstance(k, str) and "." in k)}
        problems: list[tuple[str, str]] = []
        for key, item in value.items():
            if not (isinstance(key, str) and "." in key):
                continue
            head, _, tail = key.partition(".")
            section = nested.setdefault(head, {})
            if not isinstance(section, dict):
                problems.append((key, f"'{head}' is a single option, not a section of options"))
            elif tail in section:
                problems.append((key, f"given twice (as {key} and inside {head}:)"))
            else:
                nested[head] = {**section, tail: item}
        if problems:
            raise _errors(problems)
        return nested

    @model_validator(mode="after")
    def _names_and_references(self, info: ValidationInfo) -> Scenario:
        limits = (info.context or {}).get("limits") or DEFAULT_LIMITS
        problems = [
            *self._duplicate_names(),
            *self._dangling_references(),
            *self._ships_hold_their_people(),
            *starting_problems(self),
            *self._within(limits),
        ]
        if problems:
            raise _errors(problems)
        self._limits = limits
        return self

    @property
    def agents(self) -> int:
        """Agents the battle holds (see :attr:`Limits.agents`)."""
        return sum(n for n, _ in map(_agents_and_work, (f for _, f in self.forces)))

    @property
    def work_per_round(self) -> int:
        """Fighter-rounds one round of the battle costs (see :data:`WORK`)."""
        return sum(w for _, w in map(_agents_and_work, (f for _, f in self.forces)))

    @property
    def limits(self) -> Limits:
        """The limits this scenario was validated against."""
        return self._limits

    def __eq__(self, other: object) -> bool:
        """Equal fields make equal scenarios, wherever and under whichever limits each
        was read."""
        if not isinstance(other, Scenario):
            return NotImplemented
        return self.__dict__ == other.__dict__

    __hash__ = None  # type: ignore[assignment]  # mutable mappings inside: never hashable

    @property
    def source(self) -> tuple[str, dict[tuple[str, ...], int]]:
        """Where the scenario was read: the file name (``<text>``, ``<mapping>``,
        ``<scenario>``) and the 1-based line of every field path written there."""
        return self._source

    def set_source(self, filename: str, lines: dict[tuple[str, ...], int]) -> None:
        """Record where the scenario was read (the loader does, for later messages)."""
        self._source = (filename, lines)

    @property
    def round_cap(self) -> int | None:
        """The rounds the battle stops at when the file sets no ``stop.max_rounds`` (None
        when it does): :meth:`Limits.round_cap` of its agents."""
        if self.stop.max_rounds is not None:
            return None
        return self._limits.round_cap(self.work_per_round)

    def _within(self, limits: Limits) -> list[tuple[str, str]]:
        agents, work, stop = self.agents, self.work_per_round, self.stop
        if agents > limits.agents:
            return [
                (
                    "sides",
                    f"{agents:,} fighters in all is more than the limit of {limits.agents:,} "
                    f"agents (group NPCs as crews or units, or {limits.hint('agents')})",
                )
            ]
        problems = []
        if stop.max_rounds is not None and stop.max_rounds > limits.rounds:
            problems.append(
                (
                    "stop.max_rounds",
                    f"{stop.max_rounds:,} is more than the limit of {limits.rounds:,} rounds "
                    f"({limits.hint('rounds')})",
                )
            )
        elif stop.max_rounds is not None and work * stop.max_rounds > limits.work:
            problems.append(
                (
                    "stop.max_rounds",
                    f"{stop.max_rounds:,} rounds of {work:,} fighter-rounds each is more work "
                    f"than the limit of {limits.work:,} (at most {limits.round_cap(work):,} "
                    f"rounds; {limits.hint('work')})",
                )
            )
        if stop.max_seconds is not None and stop.max_seconds > limits.seconds:
            problems.append(
                (
                    "stop.max_seconds",
                    f"{stop.max_seconds:,} is more than the limit of {limits.seconds:,} seconds "
                    f"({limits.hint('seconds')})",
                )
            )
        return problems

    def _ships_hold_their_people(self) -> list[tuple[str, str]]:
        """A ship carries at most ``max_crew`` of her own side; ships sail hex maps."""
        problems: list[tuple[str, str]] = []
        for si, side in enumerate(self.sides):
            ships = {f.name: f for f in side.forces if isinstance(f, Ship)}
            aboard: dict[str, int] = {}
            for fi, force in enumerate(side.forces):
                if not isinstance(force, Character | Crew):
                    continue
                ship = ships.get(force.aboard or "")
                if ship is None or ship.gargantuan:
                    continue
                heads = aboard[ship.name] = aboard.get(ship.name, 0) + force.count
                room = ship.max_crew if ship.max_crew is not None else ship.tons
                if heads > room > heads - force.count:  # said once, where it overflows
                    why = "max_crew" if ship.max_crew is not None else "a person a ton"
                    problems.append(
                        (
                            f"sides.{si}.forces.{fi}.aboard",
                            f"{heads:,} of side '{side.name}' aboard '{ship.name}' is more than "
                            f"she carries (at most {room:,}: {why})",
                        )
                    )
        if self.map.kind == "open" and any(isinstance(f, Ship) for _, f in self.forces):
            problems.append(
                ("map.kind", "'open' is ground in yards; ships fight on a hex map (kind: hex)")
            )
        return problems

    def _duplicate_names(self) -> list[tuple[str, str]]:
        problems: list[tuple[str, str]] = []
        side_names: set[str] = set()
        for si, side in enumerate(self.sides):
            if side.name in side_names:
                problems.append(
                    (f"sides.{si}.name", f"'{side.name}' names two sides (names must be unique)")
                )
            side_names.add(side.name)
        places: dict[str, tuple[int, int]] = {}
        for si, side in enumerate(self.sides):
            for fi, force in enumerate(side.forces):
                if force.name in places:
                    a, b = places[force.name]
                    problems.append(
                        (
                            f"sides.{si}.forces.{fi}.name",
                            f"'{force.name}' is already used by sides[{a}].forces[{b}] "
                            "(names must be unique; use count: N for identical fighters)",
                        )
                    )
                places.setdefault(force.name, (si, fi))
        return problems

    def _dangling_references(self) -> list[tuple[str, str]]:
        problems: list[tuple[str, str]] = []
        ships = {f.name for s in self.sides for f in s.forces if isinstance(f, Ship)}
        people = {f.name for s in self.sides for f in s.forces if isinstance(f, Character)}
        for si, side in enumerate(self.sides):
            for fi, force in enumerate(side.forces):
                where = f"sides.{si}.forces.{fi}"
                aboard = getattr(force, "aboard", None)
                if aboard is not None and aboard not in ships:
                    problems.append((f"{where}.aboard", _unknown(aboard, "ship", ships)))
                own = {f.name for f in side.forces if isinstance(f, Character)}
                if isinstance(force, Ship) and force.captain and force.captain not in own:
                    problems.append(
                        (f"{where}.captain", _unknown(force.captain, "character of her side", own))
                    )
                if isinstance(force, Unit) and force.leader and force.leader not in people:
                    problems.append(
                        (f"{where}.leader", _unknown(force.leader, "character", people))
                    )
                off_map = force.position and self.map.outside(force.position)
                if off_map:
                    problems.append((f"{where}.position", off_map))
        for di, cell in enumerate(self.map.debris):
            off_map = self.map.outside(cell)
            if off_map:
                problems.append((f"map.debris.{di}", off_map))
        for oi, obstacle in enumerate(self.map.obstacles):
            off_map = self.map.outside(obstacle.position)
            if off_map:
                problems.append((f"map.obstacles.{oi}.position", off_map))
        return problems

    @property
    def forces(self) -> list[tuple[Side, Character | Crew | Unit | Ship | FaeCharacter]]:
        """Every force with its side, in file order."""
        return [(side, force) for side in self.sides for force in side.forces]


def _agents_and_work(force: Character | Crew | Unit | Ship | FaeCharacter) -> tuple[int, int]:
    """The agents a force becomes and the fighter-rounds a round of them costs."""
    if isinstance(force, FaeCharacter):
        members = force.count * (2 if force.mount is not None else 1)
        return members, members * WORK["fae"]
    if isinstance(force, Character):
        return force.count, force.count * WORK["character"]
    if isinstance(force, Ship):
        mounts = sum(w.count for w in force.weapons)
        return 1 + mounts, WORK["ship"] + mounts * WORK["weapon_mount"]
    return 1, WORK[force.kind]


def _unknown(name: str, what: str, known: set[str]) -> str:
    close = nearest(name, sorted(known))
    hint = f"did you mean {' or '.join(repr(c) for c in close)}?" if close else ""
    listed = ", ".join(sorted(known)) or "none"
    return f"'{name}' is not a {what} in this scenario ({hint or what + 's: ' + listed})"


def _errors(problems: list[tuple[str, str]]) -> PydanticCustomError:
    """One pydantic error carrying several problems; the loader prints one line each."""
    (where, message), *more = problems
    return PydanticCustomError(
        "bad_reference", "{msg}", {"where": where, "msg": message, "more": more}
    )
