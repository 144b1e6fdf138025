"""Built-in ship maneuver policies: where a ship moves each round (issue 5).

``ships-spelljammer.md`` section 2 (tactical movement) with the ends a maneuver serves:
closing to board (12), ram (9) or shear (11), standing off to shoot (4), fleeing and
escape (15), landing in a gravity well (1.2), holding station. Each policy scores the
:class:`~fadad_agents.policies.ships.protocols.MoveOption` list the engine offers against
the nearest enemy ship; scores are pure functions of positions, ties broken by plan length
and plan, so a choice never depends on iteration order or dice. Registered by name in
:mod:`fadad_agents.policies.ships.defaults`.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any, Literal

from fadad_agents.hexmap import DIRECTIONS, Hex, distance, in_arc, in_bow_cone, sector
from fadad_agents.policies.ships.protocols import FleetView, MoveOption, MoveOptions, ShipView

__all__ = [
    "CloseIn",
    "Flee",
    "Hold",
    "Land",
    "StandOff",
    "bears",
    "close_and_board",
    "close_and_ram",
    "line_ahead",
    "nearest_enemy",
    "shear",
]

type Order = Literal["first", "last"]
type Position = tuple[int, int] | None
"""A ship's hex as its ``(q, r)`` (``ShipView.position``)."""


@lru_cache(maxsize=4096)  # hexes are immutable: scoring a dozen moves makes none anew
def _hex(pos: tuple[int, int] | None) -> Hex:
    return Hex(*pos) if pos is not None else Hex(0, 0)


def nearest_enemy(ship: ShipView, battle: FleetView) -> ShipView | None:
    """The closest enemy ship (ties: the lower name)."""
    foes = battle.enemy_ships(ship.side)
    if len(foes) < 2:  # a duel: no distances to weigh
        return foes[0] if foes else None
    return _nearest(_hex(ship.position), foes)


def _nearest(here: Hex, foes: Sequence[ShipView]) -> ShipView:
    """The closest of ``foes`` to ``here`` (ties: the lower name); apart from
    :func:`nearest_enemy`, whose every call (a duel's, every move) would otherwise make a
    closure cell for ``here``."""
    return min(foes, key=lambda s: (distance(here, _hex(s.position)), s.name))


def _off_the_bow(sector: int) -> int:
    """Sectors between the bow and ``sector`` (0 dead ahead .. 3 astern)."""
    return min(sector, 6 - sector)


def _order(value: str) -> Order:
    if value not in ("first", "last"):
        raise ValueError(f"order must be 'first' or 'last', got {value!r}")
    return "first" if value == "first" else "last"


# --- maneuver --------------------------------------------------------------------------


class _Maneuver:
    """A maneuver scores every move in a situation (the foe's hex as its ``(q, r)`` and
    what else of the ship the score reads, read once a turn: a ship weighs dozens of
    moves) and takes the lowest. A situation holds positions rather than hexes: it keys
    a memo every turn, and a tuple of ints hashes in C where a Hex calls Python."""

    __slots__ = ("_memo", "intent", "order")
    _memo: tuple[Any, ...] | None  # its memo key (_memo_key), None for a subclass; set at first use

    def __init__(self, intent: str, order: str) -> None:
        self.intent = intent
        self.order = _order(order)

    def move_order(self, ship: ShipView, battle: FleetView) -> Order:
        return self.order

    def situation(self, ship: ShipView, foe: ShipView) -> Any:
        """Everything the score of a move reads besides the move and this policy (a
        built-in's: the foe's position first, or nothing)."""
        return ()

    def score(self, situation: Any, option: MoveOption) -> tuple[int, ...]:
        """The move's score in ``situation``, lowest best (ties: the shorter plan, then
        the plan)."""
        return (len(option.plan),)

    def choose_move(
        self, ship: ShipView, battle: FleetView, options: Sequence[MoveOption]
    ) -> MoveOption:
        foe = nearest_enemy(ship, battle)
        if foe is None:
            return options[0]
        situation = self.situation(ship, foe)
        try:
            memo = self._memo
        except AttributeError:  # its first choice (a subclass sets its fields after ours)
            memo = self._memo = self._memo_key() if type(self) in _PURE else None
        if memo is None:  # a subclass may score by more than the situation
            return self._best(situation, options)
        if (
            isinstance(options, MoveOptions)
            and options.shape is not None
            and (not situation or situation[0] is not None)  # (a foe off the map: no offset)
        ):
            return self._shifted(memo, situation, options)
        # The built-in scores read the situation and the move alone, and the engine offers
        # one options object per ship state (its own cache): a sweep replays these often.
        key = (memo, situation, id(options))
        held = _CHOICES.get(key)
        if held is not None and held[0] is options:
            return held[1]
        best = self._best(situation, options)
        if len(_CHOICES) >= _CHOICES_MAX:
            _CHOICES.clear()
        _CHOICES[key] = (options, best)  # holding ``options`` keeps its id from reuse
        return best

    def _shifted(self, memo: tuple[Any, ...], situation: Any, options: MoveOptions) -> MoveOption:
        """:meth:`choose_move` of a built-in among moves of a shape: the built-in scores
        read positions only as offsets between them (distances, arcs), so the moves of one
        shape from another hex, against a foe as far off the same way, score alike, and
        the choice is the move in the same place of the list (ships meet the same
        geometry at many places of the map)."""
        if situation:
            (q, r), (q0, r0) = situation[0], options.origin
            situation_here = ((q - q0, r - r0), *situation[1:])
        else:
            situation_here = situation
        key = (memo, situation_here, options.shape)
        place = _PLACES.get(key)
        if place is not None:
            return options[place]
        best = self._best(situation, options)
        if len(_PLACES) >= _CHOICES_MAX:
            _PLACES.clear()
        _PLACES[key] = options.index(best)
        return best

    def lead(self, situation: Any, option: MoveOption) -> int:
        """The first entry of the move's :meth:`score`, for a maneuver of :data:`_LEADING`
        (cheaper than the whole score)."""
        return self.score(situation, option)[0]

    def _best(self, situation: Any, options: Sequence[MoveOption]) -> MoveOption:
        score = self.score
        if type(self) in _LEADING:
            # The lowest score is among the moves of the lowest lead (its first entry): the
            # whole score is worked out for those few, not for the dozens offered.
            lead = self.lead
            leads = [lead(situation, o) for o in options]
            least = min(leads)
            options = [o for o, n in zip(options, leads, strict=True) if n == least]
        return min(options, key=lambda o: (*score(situation, o), len(o.plan), o.plan))

    def _memo_key(self) -> tuple[Any, ...]:
        """What besides the situation and the options the built-in scores read."""
        return (type(self), self.intent)


class CloseIn(_Maneuver):
    """Close with the nearest enemy and end in its hex (to board, ram or shear it)."""

    __slots__ = ()

    def __init__(self, intent: str = "board", order: str = "last") -> None:
        super().__init__(intent, order)

    def situation(self, ship: ShipView, foe: ShipView) -> tuple[Position, bool]:
        """The foe's position; whether she means to ram a foe already in her own hex."""
        return foe.position, self.intent == "ram" and ship.position == foe.position

    def lead(self, situation: tuple[Position, bool], option: MoveOption) -> int:
        """How near the foe the move ends (its score's first entry). To ram a foe already
        in her hex she must leave it and come back (SJ 9): back in it having moved, else
        one hex off to come in next turn."""
        at, ramming_alongside = situation
        d = distance(_hex(option.end), _hex(at))
        if ramming_alongside:
            back = d == 0 and "F" in option.plan
            return 0 if back else 1 + abs(d - 1)
        return d

    def score(self, situation: tuple[Position, bool], option: MoveOption) -> tuple[int, ...]:
        """Nearest the foe (:meth:`lead`), then bow on."""
        there, end = _hex(situation[0]), _hex(option.end)
        ahead = 0 if end == there else _off_the_bow(sector(end, option.facing, there))
        return (self.lead(situation, option), ahead)


def close_and_board(order: str = "last") -> CloseIn:
    """Close with the nearest enemy ship, grapple and board it."""
    return CloseIn("board", order)


def close_and_ram(order: str = "last") -> CloseIn:
    """Close with the nearest enemy ship and ram it (the side with initiative only)."""
    return CloseIn("ram", order)


def shear(order: str = "last") -> CloseIn:
    """Close with the nearest enemy ship and shear its rigging."""
    return CloseIn("shear", order)


def bears(arcs: Sequence[str], end: Hex, facing: int, there: Hex) -> bool:
    """Whether a weapon of one of ``arcs`` at ``end`` facing ``facing`` would bear on
    ``there`` (fields of fire, SJ 7.4; range aside)."""
    alongside = end.q == there.q and end.r == there.r
    for arc in arcs:
        if arc == "any" or alongside:
            return True
        if arc in ("fore", "aft"):
            if in_bow_cone(end, facing if arc == "fore" else (facing + 3) % 6, there):
                return True
        elif in_arc(end, facing, there, arc):
            return True
    return False


class StandOff(_Maneuver):
    """Keep the nearest enemy at ``range`` hexes where her guns bear, and shoot."""

    __slots__ = ("range",)

    def __init__(self, range: int = 3, order: str = "last") -> None:
        if range < 0:
            raise ValueError("range must be >= 0 hexes")
        super().__init__("shoot", order)
        self.range = range

    def situation(self, ship: ShipView, foe: ShipView) -> tuple[Position, tuple[str, ...]]:
        """The foe's position; the arcs of her working guns."""
        return foe.position, tuple(ship.weapon_arcs)

    def _memo_key(self) -> tuple[Any, ...]:
        return (type(self), self.intent, self.range)

    def lead(self, situation: tuple[Position, tuple[str, ...]], option: MoveOption) -> int:
        """How far off ``range`` from the foe the move ends (its score's first entry)."""
        return abs(distance(_hex(option.end), _hex(situation[0])) - self.range)

    def score(
        self, situation: tuple[Position, tuple[str, ...]], option: MoveOption
    ) -> tuple[int, ...]:
        """At ``range`` from the foe (:meth:`lead`), then with a gun bearing on her."""
        at, arcs = situation
        aimed = 0 if bears(arcs, _hex(option.end), option.facing, _hex(at)) else 1
        return (self.lead(situation, option), aimed)


def line_ahead(range: int = 2, order: str = "last") -> StandOff:
    """Hold the line at ``range`` hexes from the nearest enemy, broadside on."""
    return StandOff(range, order)


class Flee(_Maneuver):
    """Open the range from the nearest enemy as fast as possible; with ``jettison`` drop
    rubble astern from a loaded jettison when a pursuer is in its arc (SJ 7.2); cut
    ``cut_loose`` tons adrift when she escapes (10+ slows pursuers, SJ 16)."""

    __slots__ = ("cut_loose", "jettison")

    def __init__(self, order: str = "first", jettison: bool = True, cut_loose: int = 0) -> None:
        if cut_loose < 0:
            raise ValueError("cut_loose must be >= 0 tons")
        super().__init__("flee", order)
        self.jettison = jettison
        self.cut_loose = cut_loose

    def situation(self, ship: ShipView, foe: ShipView) -> tuple[Position, int]:
        """The foe's position; the hexes of her full move next round (at least one)."""
        return foe.position, max(1, ship.sr)

    def score(self, situation: tuple[Position, int], option: MoveOption) -> tuple[int, ...]:
        """Farthest from the foe where her heading leads her next round (a full move on her
        end facing), then farthest now: a ship facing the foe turns away though that costs
        a hex now (a Poor ship must first move ahead before she may turn)."""
        at, reach = situation
        there, end, step = _hex(at), _hex(option.end), DIRECTIONS[option.facing]
        ahead = Hex(end.q + step.q * reach, end.r + step.r * reach)
        return (-distance(ahead, there), -distance(end, there))


class Land(_Maneuver):
    """Run for the ground: a ship in a gravity well descends and lands, leaving the fight
    (SJ 1.2, 15: near a planet escape means landing); elsewhere she holds."""

    __slots__ = ()

    def __init__(self, order: str = "first") -> None:
        super().__init__("land", order)


class Hold(_Maneuver):
    """Stay where the ship is (a ship at anchor or lashed alongside)."""

    __slots__ = ()

    def __init__(self, order: str = "last") -> None:
        super().__init__("hold", order)


_PURE = frozenset({CloseIn, StandOff, Flee, Land, Hold})
"""Maneuvers whose choice is a pure function of (policy, situation, options)."""

_LEADING = frozenset({CloseIn, StandOff})
"""Built-in maneuvers whose :meth:`~_Maneuver.lead` (the first entry of their score) is
worth working out alone first: their score's other entries cost more."""

_CHOICES: dict[tuple[Any, ...], tuple[Sequence[MoveOption], MoveOption]] = {}
_PLACES: dict[tuple[Any, ...], int] = {}
"""The place of the choice in moves of a shape (:meth:`_Maneuver._shifted`)."""
_CHOICES_MAX = 8192
