"""The shared vocabulary of ship-critical effects (``CONFLICTS.md`` C-03).

Both critical tables, FADAD 6dF (``ships-fadad.md`` section 6) and Spelljammer d20
(``ships-spelljammer.md`` section 5), translate their results into these frozen values,
so one set of effect handlers in the engine applies either table. Each effect carries
the numbers its source table fixes (damage, checks, durations); dice the table rolls
when the crit happens (1d10 rounds of SR loss, 1d4 days of coma) are rolled by the
table's resolver and stored here as plain ints.

Durations are a count of rounds *plus the round length they are written in*
(``round_seconds``; C-01): a Spelljammer "1d10 rounds" is 6-second rounds, a FADAD
"one turn" is a 60-second ship round. ``rounds=None`` means "until a recovery check or
repair succeeds" (FADAD's open-ended losses); the effect then names that check.

>>> loss = SpeedLoss(sr=1, rounds=7, round_seconds=SJ_ROUND_SECONDS)
>>> loss.seconds
42
>>> isinstance(loss, SHIP_EFFECT_TYPES)
True
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Literal

from fadad_agents.rules.core.dice import roll_4df

__all__ = [
    "D20_BONUS",
    "FADAD_SHIP_ROUND_SECONDS",
    "SHIP_EFFECT_TYPES",
    "SJ_ROUND_SECONDS",
    "Check",
    "CrewHitKind",
    "DeckCrew",
    "Fire",
    "HelmMalfunction",
    "HelmShock",
    "HullHoled",
    "HullLoss",
    "InteriorCrew",
    "ManeuverLoss",
    "Shaken",
    "ShipEffect",
    "ShipEffectError",
    "SpeedLoss",
    "WeaponDamaged",
    "convert_rounds",
    "d20_bonus",
    "passes",
]

SJ_ROUND_SECONDS = 6
"""A Spelljammer tactical round (C-01, C-19)."""

FADAD_SHIP_ROUND_SECONDS = 60
"""A FADAD ship round = 10 personal rounds (C-01)."""


def convert_rounds(rounds: int, from_seconds: int, to_seconds: int) -> int:
    """Rounds of ``from_seconds`` expressed in whole rounds of ``to_seconds``, rounded up.

    An effect never ends early because the clock that applies it ticks more coarsely:
    7 Spelljammer rounds (42 s) last 1 FADAD ship round.

    >>> convert_rounds(7, SJ_ROUND_SECONDS, FADAD_SHIP_ROUND_SECONDS)
    1
    >>> convert_rounds(1, FADAD_SHIP_ROUND_SECONDS, SJ_ROUND_SECONDS)
    10
    """
    if rounds < 0 or from_seconds <= 0 or to_seconds <= 0:
        raise ValueError(
            f"cannot convert {rounds} rounds of {from_seconds} s into rounds of "
            f"{to_seconds} s: rounds must be >= 0 and round lengths > 0"
        )
    return math.ceil(rounds * from_seconds / to_seconds)


class ShipEffectError(ValueError):
    """An effect was built with impossible numbers (negative damage, zero-length rounds)."""


def _check_duration(name: str, amount: int, rounds: int | None, round_seconds: int) -> None:
    if amount < 1 or round_seconds < 1 or (rounds is not None and rounds < 1):
        raise ShipEffectError(
            f"{name} needs an amount >= 1, rounds >= 1 (or None) and round_seconds >= 1; "
            f"got amount={amount}, rounds={rounds}, round_seconds={round_seconds}"
        )


@dataclass(frozen=True, slots=True)
class Check:
    """A roll the engine asks of a character when an effect lands.

    Attributes:
        trait: what is rolled, e.g. ``"rete"``, ``"spelljamming"``, ``"dexterity"``
            (FADAD) or ``"will"``, ``"fortitude"``, ``"dexterity"`` (d20).
        difficulty: a ladder level to meet (FADAD, e.g. ``GREAT`` = 2) or a DC (d20).
        system: ``"ladder"`` (trait + 4dF >= difficulty) or ``"d20"`` (d20 + bonus >= DC).
        modifier: added to the roll (FADAD ballista-type deck hit: dodge at -2).
    """

    trait: str
    difficulty: int
    system: Literal["ladder", "d20"]
    modifier: int = 0


@dataclass(frozen=True, slots=True)
class Fire:
    """A fire starts (C-08): ``points`` damage in its first round, then +``growth`` a round.

    A critical-hit fire does 0 the first round in both tables; a wildfire hit starts at
    the weapon's listed damage (FADAD 16).
    """

    points: int = 0
    growth: int = 1

    def __post_init__(self) -> None:
        if self.points < 0 or self.growth < 0:
            raise ShipEffectError(f"Fire needs points >= 0 and growth >= 0, got {self}")


@dataclass(frozen=True, slots=True)
class HelmShock:
    """Spelljammer shock (C-22): the helmsman saves or falls into a coma.

    Attributes:
        save: the helmsman's roll (FADAD: Great Reté; d20: Will DC 15, A-50).
        coma_days: days of coma on a failed save (FADAD 3+1dF, d20 1d4), already rolled.
        drive_stop_days: days a non-helm drive (furnace, forge, unknown) simply stops, no
            save (d20 1d4); 0 where the table does not say.
        helmless_inoperative: FADAD: a helm without a helmsman is inoperative until
            repaired; d20: with no replacement the ship drops to SR 0 and drifts.
    """

    save: Check
    coma_days: int
    drive_stop_days: int = 0
    helmless_inoperative: bool = False


@dataclass(frozen=True, slots=True)
class SpeedLoss:
    """The ship loses ``sr`` points of Ship Rating (never below SR 1).

    Attributes:
        sr: SR lost (cumulative with other losses).
        rounds: how long, in rounds of ``round_seconds`` (d20: 1d10 six-second rounds);
            ``None`` = until ``recovery`` succeeds (FADAD: Great spelljamming check each
            round).
        round_seconds: the round length ``rounds`` (and the recovery cadence) is written in.
        recovery: the check that ends an open-ended loss.
    """

    sr: int
    rounds: int | None
    round_seconds: int
    recovery: Check | None = None

    def __post_init__(self) -> None:
        _check_duration("SpeedLoss", self.sr, self.rounds, self.round_seconds)

    @property
    def seconds(self) -> int | None:
        """Duration in seconds, ``None`` for open-ended losses."""
        return None if self.rounds is None else self.rounds * self.round_seconds


@dataclass(frozen=True, slots=True)
class HullHoled:
    """A new hole in the hull (the ship may be unable to land on water)."""

    location: str | None = None


@dataclass(frozen=True, slots=True)
class Shaken:
    """Ship shaken: everyone not seated or tied down may fall and lose that round's actions.

    Attributes:
        check: who may resist and how (FADAD: Good Dexterity for all hands; d20: Dex DC
            10 for PCs and important NPCs, A-50).
        npc_fall_pct: flat chance an ordinary NPC falls without a check (d20: 40); ``None``
            when every one makes ``check``.
    """

    check: Check
    npc_fall_pct: int | None = None


type CrewHitKind = Literal["blast", "bolt"]
"""``blast``: everyone in an area takes ``damage`` (FADAD catapult-type; d20 victim plus
bystanders who fail their save); ``bolt``: one random crewman dodges or dies (FADAD
ballista-type)."""


@dataclass(frozen=True, slots=True)
class DeckCrew:
    """Exposed crew on deck are hit (deck crew casualty).

    Attributes:
        damage: damage each victim takes, as a personal damage number (FADAD: ship's
            damage - 20, A-41) or hit points (d20: the attack's hull damage, A-50).
        kind: ``"blast"`` or ``"bolt"`` (see :data:`CrewHitKind`).
        radius_ft: radius of the area around the random victim (FADAD 10-ft diameter = 5;
            d20 "within 5 ft" = 5).
        bystander_save: d20: others in the radius save (Fortitude DC 15) or take
            ``damage``; FADAD blast: ``None`` (all in the area are hit). For a bolt, the
            victim's dodge (Fair attack, dodge at -2).
    """

    damage: int
    kind: CrewHitKind = "blast"
    radius_ft: int = 5
    bystander_save: Check | None = None


@dataclass(frozen=True, slots=True)
class InteriorCrew:
    """Anyone aboard (prisoners, captain, helmsman) is hit by debris inside the ship.

    Same fields as :class:`DeckCrew`; the victim is drawn from everyone aboard.
    """

    damage: int
    kind: CrewHitKind = "blast"
    radius_ft: int = 5
    bystander_save: Check | None = None


@dataclass(frozen=True, slots=True)
class WeaponDamaged:
    """A random large weapon is out of action until repaired.

    Attributes:
        may_be_destroyed: FADAD "destroyed or damaged" (the engine or GM decides);
            d20: damaged only.
        crew_hit: its crew's casualties (FADAD: as Deck Crew Hit); ``None`` = crew unhurt
            (d20).
    """

    may_be_destroyed: bool = False
    crew_hit: DeckCrew | None = None


@dataclass(frozen=True, slots=True)
class ManeuverLoss:
    """The ship's manoeuvrability drops ``classes`` steps (never below the worst class).

    Attributes:
        classes: steps lost (d20 classes Perfect..Poor; FADAD MC letters A..F).
        rounds: how long, in rounds of ``round_seconds`` (d20: 1d10, A-50); ``None`` =
            until repaired (FADAD: one ship round of work and a Great repair roll, A-42).
        round_seconds: the round length ``rounds`` is written in.
        repair: the check that ends an open-ended loss.
    """

    classes: int
    rounds: int | None
    round_seconds: int
    repair: Check | None = None

    def __post_init__(self) -> None:
        _check_duration("ManeuverLoss", self.classes, self.rounds, self.round_seconds)

    @property
    def seconds(self) -> int | None:
        """Duration in seconds, ``None`` for losses that last until repaired."""
        return None if self.rounds is None else self.rounds * self.round_seconds


@dataclass(frozen=True, slots=True)
class HullLoss:
    """``n`` hull points lost on top of the attack's damage (d20 entries 1, 9, 18)."""

    n: int

    def __post_init__(self) -> None:
        if self.n < 1:
            raise ShipEffectError(f"HullLoss needs n >= 1 hull points, got {self.n}")


@dataclass(frozen=True, slots=True)
class HelmMalfunction:
    """The helm stops working (SR 0) for ``rounds`` (d20 *dispel magic* on the helm, 8.1)."""

    rounds: int
    round_seconds: int

    def __post_init__(self) -> None:
        _check_duration("HelmMalfunction", 1, self.rounds, self.round_seconds)

    @property
    def seconds(self) -> int:
        """Duration in seconds."""
        return self.rounds * self.round_seconds


type ShipEffect = (
    Fire
    | HelmShock
    | SpeedLoss
    | HullHoled
    | Shaken
    | DeckCrew
    | InteriorCrew
    | WeaponDamaged
    | ManeuverLoss
    | HullLoss
    | HelmMalfunction
)
"""Any ship effect; ``match`` on the class to handle it."""

SHIP_EFFECT_TYPES: tuple[type, ...] = (
    Fire,
    HelmShock,
    SpeedLoss,
    HullHoled,
    Shaken,
    DeckCrew,
    InteriorCrew,
    WeaponDamaged,
    ManeuverLoss,
    HullLoss,
    HelmMalfunction,
)
"""The classes of :data:`ShipEffect`, for ``isinstance`` checks."""


D20_BONUS = (3, 2)
"""Default of ``engine.ladder_d20_bonus``: d20 bonus at Fair, and per ladder level."""


def d20_bonus(ladder: int, scale: tuple[int, int] = D20_BONUS) -> int:
    """A FADAD ladder skill as a d20 bonus: Fair +3, Good +5, Great +7 (PROPOSED, C-04;
    ``scale`` is ``engine.ladder_d20_bonus``)."""
    return scale[0] + scale[1] * ladder


def passes(
    check: Check | None, ladder: int, rng: random.Random, scale: tuple[int, int] = D20_BONUS
) -> bool:
    """Roll a check: ladder ``skill + 4dF >= difficulty``; d20 ``d20 + bonus >= DC`` with the
    skill as a d20 bonus on ``scale`` (``engine.ladder_d20_bonus``). No check: it fails."""
    if check is None:
        return False
    if check.system == "ladder":
        return ladder + check.modifier + roll_4df(rng) >= check.difficulty
    bonus = d20_bonus(ladder, scale)
    return int(rng.random() * 20) + 1 + bonus + check.modifier >= check.difficulty
