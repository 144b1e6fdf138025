"""One ``typing.Protocol`` per ship decision, and the read-only views ship policies see.

DESIGN.md (Agents and policies): a ship delegates every decision to its policies. Ship
policies sit below agents and the engine, so they read ships and the battle through the
small views here (:class:`ShipView`, :class:`FleetView`); the engine's classes satisfy
them structurally.

Decisions (issue 5, ``ships-spelljammer.md`` and ``ships-fadad.md``):

* maneuver: where to move this round (close and board, stand off and shoot, ram, flee)
  and whether the side moves first or last when it wins initiative;
* targeting (gunnery): which ship to shoot at, and whether at its hull or its crew;
* reload: how many hands work each big weapon (the rest sail the ship);
* firefighting: how many hands fight a fire;
* boarding: whether to swarm across to a grappled ship, and whether to cut lines;
* colours: when a ship checks morale and whether it strikes its colours by choice;
* pursuit and evasion: leaving the map past the 25-hex capture rule, following a quarry.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal, NamedTuple, Protocol, runtime_checkable

__all__ = [
    "SHIP_KINDS",
    "BoardingPolicy",
    "ColoursPolicy",
    "EvasionPolicy",
    "FirefightingPolicy",
    "FleetView",
    "GunneryPolicy",
    "ManeuverPolicy",
    "MoveOption",
    "MoveOptions",
    "PursuitPolicy",
    "ReloadPolicy",
    "ShipView",
]

type Aim = Literal["hull", "crew"]


class MoveOption(NamedTuple):
    """A legal move: the plan (``F``/``L``/``R`` steps), where it ends, the facing after."""

    plan: str
    end: tuple[int, int]
    facing: int


class MoveOptions(tuple[MoveOption, ...]):
    """The moves a ship is offered from ``origin`` (her hex as ``(q, r)``), in order.

    ``shape``: ``None``, or a key the moves offered from any hex share when they are these
    moves shifted by the offset between the two hexes, in the same order (what a policy
    that scores moves against positions alone may remember, wherever the ship is)."""

    origin: tuple[int, int]
    shape: tuple[int, ...] | None

    @classmethod
    def of(
        cls, moves: Sequence[MoveOption], origin: tuple[int, int], shape: tuple[int, ...] | None
    ) -> MoveOptions:
        options = cls(moves)
        options.origin, options.shape = origin, shape
        return options


class ShipView(Protocol):
    """What a ship policy may read about a ship."""

    @property
    def name(self) -> str: ...
    @property
    def side(self) -> int: ...
    @property
    def fighting(self) -> bool: ...
    @property
    def position(self) -> tuple[int, int] | None: ...
    @property
    def facing(self) -> int: ...
    @property
    def tons(self) -> int: ...
    @property
    def sr(self) -> int:
        """Hexes she may make this round (her Ship Rating now)."""
        ...

    @property
    def weapon_arcs(self) -> tuple[str, ...]:
        """Fields of fire of her working big weapons (``any``, ``fore``, ``aft``, ``port``,
        ``starboard``)."""
        ...

    @property
    def hull_fraction(self) -> float:
        """Share of the hull left (1.0 undamaged, 0.0 broken up), either damage model."""
        ...

    @property
    def hands(self) -> int:
        """Own crew aboard (heads), officers excluded."""
        ...

    @property
    def min_crew(self) -> int: ...
    @property
    def memory(self) -> dict[str, Any]: ...
    def grappled_with(self, other: Any) -> bool: ...
    def boarders_on_deck(self) -> int:
        """Enemy heads fighting on this ship's deck."""
        ...


class FleetView(Protocol):
    """What a ship policy may read about the battle."""

    @property
    def round(self) -> int: ...
    def enemy_ships(self, side: int) -> Sequence[ShipView]:
        """Enemy ships still in the fight (not struck, broken up or gone)."""
        ...

    def own_ships(self, side: int) -> Sequence[ShipView]: ...
    def range_between(self, a: ShipView, b: ShipView) -> int:
        """Hexes between two ships."""
        ...


@runtime_checkable
class ManeuverPolicy(Protocol):
    """Where to move, and first or last when the side wins initiative."""

    intent: str
    """``board``, ``shoot``, ``ram``, ``shear``, ``flee``, ``land`` or ``hold`` (read by the
    engine)."""

    def choose_move(
        self, ship: ShipView, battle: FleetView, options: Sequence[MoveOption]
    ) -> MoveOption: ...

    def move_order(self, ship: ShipView, battle: FleetView) -> Literal["first", "last"]: ...


@runtime_checkable
class GunneryPolicy(Protocol):
    """Which enemy ship a weapon shoots at, and at its hull or its crew."""

    def choose_ship_target(
        self, ship: ShipView, battle: FleetView, candidates: Sequence[ShipView]
    ) -> tuple[ShipView, Aim] | None: ...


@runtime_checkable
class ReloadPolicy(Protocol):
    """Hands per weapon (the rest sail): ``needs[i]`` is weapon i's full crew."""

    def assign(self, hands: int, min_crew: int, needs: Sequence[int]) -> list[int]: ...


@runtime_checkable
class FirefightingPolicy(Protocol):
    """Hands sent against a fire that will do ``value`` this round."""

    def firefighters(self, ship: ShipView, value: int, hands: int) -> int: ...


@runtime_checkable
class BoardingPolicy(Protocol):
    """Swarm across to a grappled enemy, and cut the lines or not."""

    def board(self, ship: ShipView, enemy: ShipView, battle: FleetView) -> bool: ...
    def cut_lines(self, ship: ShipView, enemy: ShipView, battle: FleetView) -> bool: ...


@runtime_checkable
class ColoursPolicy(Protocol):
    """Whether the ship checks morale on the section 18 triggers, and strikes by choice."""

    checks_morale: bool

    def strike_now(self, ship: ShipView, battle: FleetView) -> bool: ...


@runtime_checkable
class EvasionPolicy(Protocol):
    """Accelerate to spelljamming speed and leave when the capture rule allows it."""

    def escape(self, ship: ShipView, battle: FleetView) -> bool: ...


@runtime_checkable
class PursuitPolicy(Protocol):
    """Follow a quarry that escaped; the navigator's Intelligence and proficiency."""

    def pursue(self, ship: ShipView, quarry: ShipView, battle: FleetView) -> bool: ...
    @property
    def intelligence(self) -> int: ...
    @property
    def navigation(self) -> bool: ...


SHIP_KINDS: dict[str, type] = {
    "maneuver": ManeuverPolicy,
    "targeting": GunneryPolicy,
    "reload": ReloadPolicy,
    "firefighting": FirefightingPolicy,
    "boarding": BoardingPolicy,
    "colours": ColoursPolicy,
    "evasion": EvasionPolicy,
    "pursuit": PursuitPolicy,
}
"""Ship decision kinds a scenario can set, with the protocol a policy of that kind meets."""
