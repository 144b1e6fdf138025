"""Built-in ship policies: plain slotted classes, registered by name (issue 5).

Each ship decision has a sensible default and at least one alternative:

=============  ==========================  =============================================
decision       default                     alternatives
=============  ==========================  =============================================
maneuver       ``close_and_board``         ``stand_off``, ``line_ahead``,
                                           ``close_and_ram``, ``shear``, ``flee``,
                                           ``hold``, ``land``
targeting      ``nearest_ship``            ``focus_fire``, ``sweep_decks`` (aim at crew)
reload         ``guns_first``              ``sail_first``
firefighting   ``all_hands``               ``half_hands``, ``none``
boarding       ``board_when_grappled``     ``repel_boarders`` (never board, cut lines)
colours        ``sj_morale``               ``strike_colours``, ``fight_to_the_end``
evasion        ``run_when_clear``          ``stay``
pursuit        ``pursue``                  ``let_go``
=============  ==========================  =============================================

Gunnery policies double as personal targeting policies (a side's ``targeting:
nearest_ship`` also reaches its crews, who then keep to the foe they fight), and
``strike_colours`` as a personal retreat policy (a crew never strikes on its own; the
ship does). Scores are pure functions of positions and hull, ties broken by name, so a
choice never depends on iteration order or dice.

The maneuver policies live in :mod:`fadad_agents.policies.ships.maneuver` (re-exported
here); this module holds the others (``ships-spelljammer.md`` sections 4, 6, 7.3, 8, 12,
15, 16 and 18) and registers every ship built-in when imported.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Literal

from fadad_agents.policies.core.defaults import HoldGround, StickyTargeting
from fadad_agents.policies.core.protocols import BattleView, CombatantView, MoraleChoice
from fadad_agents.policies.core.registry import REGISTRY
from fadad_agents.policies.ships.maneuver import (
    CloseIn,
    Flee,
    Hold,
    Land,
    StandOff,
    close_and_board,
    close_and_ram,
    line_ahead,
    shear,
)
from fadad_agents.policies.ships.protocols import Aim, FleetView, ShipView
from fadad_agents.policies.ships.registry import SHIP_REGISTRY

__all__ = [
    "AllHands",
    "BoardWhenGrappled",
    "CloseIn",
    "Flee",
    "FocusFire",
    "GunsFirst",
    "HalfHands",
    "Hold",
    "Land",
    "LetGo",
    "NearestShip",
    "NeverStrike",
    "NoFirefighting",
    "Pursue",
    "RepelBoarders",
    "RunWhenClear",
    "SailFirst",
    "SjMorale",
    "StandOff",
    "Stay",
    "StrikeColours",
    "StrikeColoursRetreat",
    "SweepDecks",
]


# --- gunnery ---------------------------------------------------------------------------


class _Gunnery:
    """Ship gunnery that also serves as the crews' personal targeting (sticky).

    ``small_arms``: where hands with bows and axes aim at an enemy ship, ``crew`` or
    ``hull`` (scattered arrows do nothing to a hull; an axe at one spot does, EX-SJ-06).
    ``spells``: ``hull`` (spellcasters cast at enemy ships in reach) or ``hold``.
    ``reply``: fire out of turn at an enemy that has just moved, when a loaded weapon
    bears (and, if she entered this ship's hex, with hand missiles and spells too: SJ 3
    step 6, 8); ``False`` = fire only in her own turn.
    """

    __slots__ = ("reply", "small_arms", "spells")
    aim: Aim = "hull"
    _personal = StickyTargeting()

    def __init__(
        self,
        small_arms: Literal["crew", "hull"] = "crew",
        spells: Literal["hull", "hold"] = "hull",
        reply: bool = True,
    ) -> None:
        if small_arms not in ("crew", "hull") or spells not in ("hull", "hold"):
            raise ValueError("small_arms must be 'crew' or 'hull'; spells 'hull' or 'hold'")
        self.small_arms = small_arms
        self.spells = spells
        self.reply = reply

    def key(self, ship: ShipView, battle: FleetView, foe: ShipView) -> tuple[Any, ...]:
        return (battle.range_between(ship, foe), foe.hull_fraction, foe.name)

    def choose_ship_target(
        self, ship: ShipView, battle: FleetView, candidates: Sequence[ShipView]
    ) -> tuple[ShipView, Aim] | None:
        if len(candidates) < 2:  # most shots (a duel): nothing to rank, no key to read
            return (candidates[0], self.aim) if candidates else None
        return self._best(ship, battle, candidates), self.aim

    def _best(self, ship: ShipView, battle: FleetView, candidates: Sequence[ShipView]) -> ShipView:
        """The candidate of the lowest :meth:`key` (apart from :meth:`choose_ship_target`,
        whose every call, a shot's, would otherwise make closure cells for its key)."""
        return min(candidates, key=lambda f: self.key(ship, battle, f))

    def choose_target(
        self, actor: CombatantView, battle: BattleView, rng: random.Random
    ) -> CombatantView | None:
        return self._personal.choose_target(actor, battle, rng)


class NearestShip(_Gunnery):
    """Shoot the nearest enemy ship in the weapon's arc and range (its hull)."""

    __slots__ = ()


class FocusFire(_Gunnery):
    """Shoot the most damaged enemy ship in arc and range, to finish it off."""

    __slots__ = ()

    def key(self, ship: ShipView, battle: FleetView, foe: ShipView) -> tuple[Any, ...]:
        return (foe.hull_fraction, battle.range_between(ship, foe), foe.name)


class SweepDecks(_Gunnery):
    """Shoot at the nearest enemy ship's crew instead of its hull (hit points, SJ 4)."""

    __slots__ = ()
    aim: Aim = "crew"


# --- reload and crew assignment --------------------------------------------------------


class GunsFirst:
    """Every weapon gets its full crew in mount order; whoever is left sails the ship."""

    __slots__ = ()

    def assign(self, hands: int, min_crew: int, needs: Sequence[int]) -> list[int]:
        out: list[int] = []
        for need in needs:
            n = min(need, hands)
            out.append(n)
            hands -= n
        return out


class SailFirst:
    """The listed minimum crew sails the ship first; the rest man the guns in order."""

    __slots__ = ()

    def assign(self, hands: int, min_crew: int, needs: Sequence[int]) -> list[int]:
        return GunsFirst().assign(max(0, hands - min_crew), 0, needs)


# --- firefighting ----------------------------------------------------------------------


class AllHands:
    """Send one hand per point of the fire (enough to put it out) while hands last."""

    __slots__ = ()

    def firefighters(self, ship: ShipView, value: int, hands: int) -> int:
        return max(0, min(value, hands))


class HalfHands:
    """Send at most half the hands against a fire; the rest keep sailing and shooting."""

    __slots__ = ()

    def firefighters(self, ship: ShipView, value: int, hands: int) -> int:
        return max(0, min(value, hands // 2))


class NoFirefighting:
    """Let it burn."""

    __slots__ = ()

    def firefighters(self, ship: ShipView, value: int, hands: int) -> int:
        return 0


# --- boarding --------------------------------------------------------------------------


class BoardWhenGrappled:
    """Swarm across the round after grappling, once the own deck is clear of boarders."""

    __slots__ = ()

    def board(self, ship: ShipView, enemy: ShipView, battle: FleetView) -> bool:
        return ship.grappled_with(enemy) and ship.boarders_on_deck() == 0

    def cut_lines(self, ship: ShipView, enemy: ShipView, battle: FleetView) -> bool:
        return False


class RepelBoarders:
    """Never board; cut the enemy's grappling lines whenever possible."""

    __slots__ = ()

    def board(self, ship: ShipView, enemy: ShipView, battle: FleetView) -> bool:
        return False

    def cut_lines(self, ship: ShipView, enemy: ShipView, battle: FleetView) -> bool:
        return True


# --- colours ---------------------------------------------------------------------------


class SjMorale:
    """Check morale on the section 18 triggers; strike the colours when a check fails.

    ``sail_on``: when she strikes, a player character aboard with a helm skill may take
    the helm and sail her on (she flees instead of surrendering).
    """

    __slots__ = ("sail_on",)
    checks_morale = True

    def __init__(self, sail_on: bool = False) -> None:
        self.sail_on = sail_on

    def strike_now(self, ship: ShipView, battle: FleetView) -> bool:
        return False


class StrikeColours:
    """As ``sj_morale``, and strike by choice once the hull is down to ``hull_fraction``."""

    __slots__ = ("hull_fraction", "sail_on")
    checks_morale = True

    def __init__(self, hull_fraction: float = 0.25, sail_on: bool = False) -> None:
        if not 0.0 <= hull_fraction < 1.0:
            raise ValueError("hull_fraction must be in [0, 1)")
        self.hull_fraction = hull_fraction
        self.sail_on = sail_on

    def strike_now(self, ship: ShipView, battle: FleetView) -> bool:
        return ship.hull_fraction <= self.hull_fraction


class NeverStrike:
    """Fight to the end: no morale checks, never strike (neogi, undead crews)."""

    __slots__ = ()
    checks_morale = False

    def strike_now(self, ship: ShipView, battle: FleetView) -> bool:
        return False


class StrikeColoursRetreat(HoldGround):
    """A crew never leaves by choice: its ship strikes the colours (ship ``colours``)."""

    __slots__ = ()

    def __init__(self, hull_fraction: float = 0.25, sail_on: bool = False) -> None:
        if not 0.0 <= hull_fraction < 1.0:
            raise ValueError("hull_fraction must be in [0, 1)")

    def decide(self, actor: CombatantView, battle: BattleView) -> MoraleChoice:
        return MoraleChoice.HOLD


# --- evasion and pursuit ---------------------------------------------------------------


class RunWhenClear:
    """A fleeing ship leaves as soon as nothing is within the capture distance (SJ 15)."""

    __slots__ = ()

    def escape(self, ship: ShipView, battle: FleetView) -> bool:
        return True


class Stay:
    """Never leave the battle map."""

    __slots__ = ()

    def escape(self, ship: ShipView, battle: FleetView) -> bool:
        return False


class Pursue:
    """Follow an escaping quarry; the navigator's Intelligence and Navigation (SJ 16)."""

    __slots__ = ("_int", "_nav")

    def __init__(self, intelligence: int = 12, navigation: bool = True) -> None:
        if not 1 <= intelligence <= 25:
            raise ValueError("intelligence must be 1..25")
        self._int, self._nav = intelligence, navigation

    @property
    def intelligence(self) -> int:
        return self._int

    @property
    def navigation(self) -> bool:
        return self._nav

    def pursue(self, ship: ShipView, quarry: ShipView, battle: FleetView) -> bool:
        return True


class LetGo(Pursue):
    """Let an escaping quarry go."""

    __slots__ = ()

    def pursue(self, ship: ShipView, quarry: ShipView, battle: FleetView) -> bool:
        return False


_SHIP_BUILTINS: tuple[tuple[str, str, Any], ...] = (
    ("maneuver", "close_and_board", close_and_board),
    ("maneuver", "close_and_ram", close_and_ram),
    ("maneuver", "shear", shear),
    ("maneuver", "stand_off", StandOff),
    ("maneuver", "line_ahead", line_ahead),
    ("maneuver", "flee", Flee),
    ("maneuver", "hold", Hold),
    ("maneuver", "land", Land),
    ("targeting", "nearest_ship", NearestShip),
    ("targeting", "focus_fire", FocusFire),
    ("targeting", "sweep_decks", SweepDecks),
    ("reload", "guns_first", GunsFirst),
    ("reload", "sail_first", SailFirst),
    ("firefighting", "all_hands", AllHands),
    ("firefighting", "half_hands", HalfHands),
    ("firefighting", "none", NoFirefighting),
    ("boarding", "board_when_grappled", BoardWhenGrappled),
    ("boarding", "repel_boarders", RepelBoarders),
    ("colours", "sj_morale", SjMorale),
    ("colours", "strike_colours", StrikeColours),
    ("colours", "fight_to_the_end", NeverStrike),
    ("evasion", "run_when_clear", RunWhenClear),
    ("evasion", "stay", Stay),
    ("pursuit", "pursue", Pursue),
    ("pursuit", "let_go", LetGo),
)
for _kind, _name, _factory in _SHIP_BUILTINS:
    # Parameters only, nothing kept between calls: one instance per (name, params) serves
    # every ship and battle, and a ship battle may be recycled (engine.core.recycle).
    SHIP_REGISTRY.register(_kind, _name, _factory, stateless=True)


def hold_ground(sail_on: bool = False) -> HoldGround:
    """The crews' side of ``sj_morale``: hold (the ship checks morale and strikes)."""
    return HoldGround()


_PERSONAL: tuple[tuple[str, str, Any], ...] = (
    ("targeting", "nearest_ship", NearestShip),
    ("targeting", "focus_fire", FocusFire),
    ("targeting", "sweep_decks", SweepDecks),
    ("retreat", "strike_colours", StrikeColoursRetreat),
    ("retreat", "sj_morale", hold_ground),
    ("retreat", "fight_to_the_end", HoldGround),
)
for _kind, _name, _factory in _PERSONAL:
    REGISTRY.register(_kind, _name, _factory, replace=True, stateless=True)
