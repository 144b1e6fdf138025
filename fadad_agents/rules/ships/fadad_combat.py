"""FADAD ship combat (4dF, 1-minute rounds): time, Maneuvering Skill, artillery and the hit.

Implements ``ships-fadad.md`` sections 1-3 and 5.2-5.3 with ``CONFLICTS.md`` C-05 (MC
letters), C-06 (crew shortage, shared with :mod:`fadad_agents.rules.ships.crew`), C-19 (speed
units), C-20 (hitting a ship) and A-33..A-37. Ship damage, rams, wildfire and repair are
:mod:`fadad_agents.rules.ships.fadad_damage`; critical hits (section 6) are
:mod:`fadad_agents.rules.ships.fadad_crits`.

Every PROPOSED reading is a keyword argument whose default is the ``ShipOptions`` /
``FireOptions`` default; the engine reads ``RulesOptions`` once and passes plain values.

>>> maneuvering_skill(2, 1, 0, familiar=True)                 # EX-SHF-01
1
>>> maneuvering_skill(1, -1, -2, familiar=True, crew_present=4, minimum_crew=10)
-3
>>> artillery_target(300, BIG_WEAPONS["ballista_light"], 0)   # EX-SHF-03: floor -4
-4
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from fadad_agents.rules.core import actions
from fadad_agents.rules.core.dice import Distribution, roll_4df
from fadad_agents.rules.core.ladder import FAIR, GOOD, GREAT, MEDIOCRE, POOR, SUPERB, TERRIBLE
from fadad_agents.rules.ships.crew import crew_shortage_steps, reload_rounds
from fadad_agents.rules.ships.effects import FADAD_SHIP_ROUND_SECONDS

__all__ = [
    "BIG_WEAPONS",
    "HEX_YARDS",
    "MC_LETTERS",
    "MPH_PER_SR",
    "SHIP_ROUND_SECONDS",
    "TARGET_FLOOR",
    "BigWeapon",
    "ManeuverRow",
    "ShipAttack",
    "ShipRulesError",
    "artillery_target",
    "attack_outcomes",
    "base_target",
    "crew_shortage_steps",
    "dodge_penalty",
    "familiar_average",
    "maneuver_row",
    "maneuvering_skill",
    "mc_from_letter",
    "modal_crew_skill",
    "non_ship_target",
    "range_modifier",
    "reduce_mc",
    "resolve_ship_attack",
    "rounds_to_fire",
    "ship_attack",
    "ship_hit_probability",
    "small_arms_target",
]

SHIP_ROUND_SECONDS = FADAD_SHIP_ROUND_SECONDS
"""One FADAD ship combat round = 1 minute = 10 personal rounds (section 1, C-01)."""

MPH_PER_SR = 17
"""1 SR = 17 mph (SEED section 4.8.3)."""

HEX_YARDS = 500
"""DERIVED: a FADAD ship hex is 500 yards (SR hexes per minute at 25 ft/s per SR, C-19)."""

TARGET_FLOOR = -4
"""A ship's Target is never worse than Terrible-1 (section 3)."""


class ShipRulesError(ValueError):
    """An impossible ship-rules input (negative crew, unknown weapon, out of range ...)."""


# --- Maneuvering Skill (section 2, A-33, A-34, C-05, C-06) -----------------------------


def familiar_average(helm_skill: int, crew_skill: int, *, familiar: bool) -> int:
    """(helm + crew) / 2, halves rounded up if they know each other, else down (A-34).

    Up and down mean toward +infinity and -infinity, so -1.5 gives -1 (familiar) or -2.
    """
    total = helm_skill + crew_skill
    return (total + 1) // 2 if familiar else total // 2


def _ceil_half(x: int, rounding: str) -> int:
    if rounding == "toward_positive":
        return -(-x // 2)
    if rounding == "away_from_zero":
        return -((-x + 1) // 2) if x < 0 else (x + 1) // 2
    raise ShipRulesError(
        f"MS rounding {rounding!r} unknown; use 'toward_positive' or 'away_from_zero'"
    )


def maneuvering_skill(
    helm_skill: int,
    crew_skill: int,
    mc: int,
    *,
    familiar: bool,
    crew_present: int | None = None,
    minimum_crew: int | None = None,
    rounding: Literal["toward_positive", "away_from_zero"] = "toward_positive",
) -> int:
    """The ship's Maneuvering Skill as a ladder value (section 2).

    ``MS = ceil((familiar_average(helm, crew) + MC) / 2) - crew_shortage_steps``. Fractions
    round up toward +infinity by default (A-34, ``ship.ms_rounding``). The crew count
    includes the helmsman; leave it ``None`` for a fully crewed ship.
    """
    ms = _ceil_half(familiar_average(helm_skill, crew_skill, familiar=familiar) + mc, rounding)
    if crew_present is not None or minimum_crew is not None:
        if crew_present is None or minimum_crew is None:
            raise ShipRulesError("give both crew_present and minimum_crew, or neither")
        ms -= crew_shortage_steps(crew_present, minimum_crew)
    return ms


def modal_crew_skill(skills: list[int]) -> int:
    """The crew's effective skill: the most common level, ties to the lower (A-34)."""
    if not skills:
        raise ShipRulesError("a crew with no members has no effective skill")
    counts: dict[int, int] = {}
    for s in skills:
        counts[s] = counts.get(s, 0) + 1
    return min(counts, key=lambda s: (-counts[s], s))


@dataclass(frozen=True, slots=True)
class ManeuverRow:
    """One row of the MS table: turning and acceleration per 1-minute ship round.

    Attributes:
        ms: the ladder level of the row (Terrible..Superb).
        mc_letter: the equivalent Maneuverability Class letter, ``None`` for Superb.
        faces: hex sides the ship may turn per ship round.
        rounds_per_90: personal combat rounds to turn 90 degrees.
        max_acceleration: SR change per ship round.
    """

    ms: int
    mc_letter: str | None
    faces: int
    rounds_per_90: int
    max_acceleration: int


_MS_TABLE: dict[int, ManeuverRow] = {
    SUPERB: ManeuverRow(SUPERB, None, 5, 3, 3),
    GREAT: ManeuverRow(GREAT, "A", 4, 4, 3),
    GOOD: ManeuverRow(GOOD, "B", 3, 5, 3),
    FAIR: ManeuverRow(FAIR, "C", 3, 5, 3),
    MEDIOCRE: ManeuverRow(MEDIOCRE, "D", 2, 8, 2),
    POOR: ManeuverRow(POOR, "E", 2, 8, 2),
    TERRIBLE: ManeuverRow(TERRIBLE, "F", 1, 15, 1),
}

MC_LETTERS: dict[str, int] = {
    row.mc_letter: ms for ms, row in _MS_TABLE.items() if row.mc_letter is not None
}
"""MC letters as ladder values: A Great (+2) .. F Terrible (-3) (SEED, C-05)."""


def maneuver_row(ms: int, *, literal: bool = False) -> ManeuverRow:
    """The MS table row for ``ms``; above Superb reads Superb, below Terrible reads Terrible.

    ``literal`` (A-33) reads the printed table, 7 rounds per 90 degrees for Poor (the
    catalogue's copy of the table is checked against it); by default Mediocre and Poor
    both take 8 (15 / 2 rounded up).
    """
    row = _MS_TABLE[max(TERRIBLE, min(SUPERB, ms))]
    if literal and row.ms == POOR:
        return ManeuverRow(POOR, "E", 2, 7, 2)
    return row


def mc_from_letter(letter: str) -> int:
    """Ladder value of an MC letter A..F."""
    try:
        return MC_LETTERS[letter.strip().upper()]
    except KeyError:
        raise ShipRulesError(
            f"MC letter {letter!r} unknown; use A (Great) .. F (Terrible)"
        ) from None


def reduce_mc(mc: int, steps: int = 1) -> int:
    """MC after ``steps`` MC-loss crits: never worse than F / Terrible (section 6)."""
    return max(TERRIBLE, mc - steps)


# --- artillery: Target, dodge and the hit (section 3, A-36, A-37, C-20) ----------------

# Upper volume (SJ tons) of each base-Target band; the last two are the A-36 extension
# (bands grow x3.375 = 1.5**3), and everything heavier is -4.
_TARGET_BANDS: tuple[tuple[int, int], ...] = (
    (6, 2),
    (22, 1),
    (75, 0),
    (253, -1),
    (854, -2),
    (2883, -3),
)


def base_target(volume_tons: int, *, extended: bool = True) -> int:
    """Base Target of a ship from its volume in SJ tons (section 3).

    ``extended`` (``ship.target_bands_extended``, A-36) continues the table past 854 tons
    with -3 and -4; without it every ship over 253 tons is -2 as printed.
    """
    if volume_tons < 1:
        raise ShipRulesError(f"ship volume {volume_tons} tons must be at least 1")
    bands = _TARGET_BANDS if extended else _TARGET_BANDS[:4]
    for top, target in bands:
        if volume_tons <= top:
            return target
    return TARGET_FLOOR if extended else -2


type WeaponKind = Literal["ballista", "catapult", "bombard", "wildfire"]


@dataclass(frozen=True, slots=True)
class BigWeapon:
    """A row of the big-weapon table (section 3.1).

    Attributes:
        key: catalogue key, e.g. ``"catapult_medium"``.
        name: display name.
        kind: ``ballista`` (bolt: deck hits pick one victim), ``catapult``, ``bombard`` or
            ``wildfire`` (blast: deck hits blast an area).
        crew: crew for the listed rate of fire.
        rounds_per_shot: ship rounds per shot (RoF 1/2 -> 2, A-37).
        damage: weapon damage added to the damage number.
        range_mods: Target modifier at range 0..7 hexes; ``None`` = out of range.
        flesh_bonus: extra damage against flesh (ballista bolts +1).
        sets_fire: a hit sets the target on fire (wildfire).
    """

    key: str
    name: str
    kind: WeaponKind
    crew: int
    rounds_per_shot: int
    damage: int
    range_mods: tuple[int | None, ...]
    flesh_bonus: int = 0
    sets_fire: bool = False

    @property
    def max_range(self) -> int:
        """The longest range in hexes at which the weapon can fire."""
        return max(i for i, m in enumerate(self.range_mods) if m is not None)


def _w(
    key: str, name: str, kind: WeaponKind, crew: int, rof: int, dmg: int, mods: str
) -> BigWeapon:
    parsed = tuple(None if m == "X" else int(m) for m in mods.split())
    return BigWeapon(
        key, name, kind, crew, rof, dmg, parsed, int(kind == "ballista"), kind == "wildfire"
    )


BIG_WEAPONS: dict[str, BigWeapon] = {
    w.key: w
    for w in (
        _w("ballista_light", "Ballista, light", "ballista", 1, 2, 14, "-4 -3 -2 -1 -1 0 1 2"),
        _w("ballista_medium", "Ballista, medium", "ballista", 2, 3, 17, "-4 -3 -2 -1 0 1 2 3"),
        _w("ballista_heavy", "Ballista, heavy", "ballista", 4, 4, 20, "-4 -3 -1 0 1 2 3 4"),
        _w("catapult_light", "Catapult, light", "catapult", 1, 2, 20, "-3 -2 -1 1 2 4 6 8"),
        _w("catapult_medium", "Catapult, medium", "catapult", 3, 2, 22, "-3 -1 1 2 4 6 8 X"),
        _w("catapult_heavy", "Catapult, heavy", "catapult", 5, 3, 24, "-3 -1 2 4 6 8 X X"),
        _w("bombard", "Bombard, typical", "bombard", 3, 3, 23, "-3 -1 2 4 6 8 X X"),
        _w("wildfire_projector", "Wildfire projector", "wildfire", 3, 4, 16, "-3 1 5 X X X X X"),
    )
}
"""The big-weapon table of section 3.1 (SEED), keyed by :attr:`BigWeapon.key`."""


def range_modifier(weapon: BigWeapon, range_hexes: int) -> int:
    """Target modifier of ``weapon`` at ``range_hexes`` (A-37: the table's unit is hexes)."""
    mods = weapon.range_mods
    mod = mods[range_hexes] if 0 <= range_hexes < len(mods) else None
    if mod is None:
        raise ShipRulesError(
            f"{weapon.name} cannot fire at range {range_hexes}; its range is 0..{weapon.max_range}"
        )
    return mod


def artillery_target(
    volume_tons: int, weapon: BigWeapon, range_hexes: int, *, extended: bool = True
) -> int:
    """A ship's Target against ``weapon``: base Target + range modifier, never below -4."""
    base = base_target(volume_tons, extended=extended)
    return max(TARGET_FLOOR, base + range_modifier(weapon, range_hexes))


_NON_SHIP_BONUS = {"human": 4, "giant": 3, "small_dragon": 3}


def non_ship_target(weapon: BigWeapon, range_hexes: int, size: str) -> int:
    """Artillery Target against a creature (section 5.2): range modifier + 4 (human-size)
    or + 3 (giants, small dragons). Within ~50 yards the GM fudges it."""
    try:
        bonus = _NON_SHIP_BONUS[size]
    except KeyError:
        raise ShipRulesError(
            f"target size {size!r} unknown; use one of {sorted(_NON_SHIP_BONUS)}"
        ) from None
    return range_modifier(weapon, range_hexes) + bonus


def small_arms_target(range_modifier: int = 0) -> int:
    """A ship's Target against hand weapons and spells: Terrible-1 (-4) + range (5.3)."""
    return TARGET_FLOOR + range_modifier


def dodge_penalty(weapon: BigWeapon, *, proposed_penalty: int = -2) -> int:
    """Fast-projectile modifier to the ship's dodge roll (section 3).

    Catapult stones and ballista bolts: -2 (SEED). Wildfire and bombard shot:
    ``proposed_penalty`` (``ship.bombard_wildfire_dodge_penalty``, PROPOSED -2).
    """
    return -2 if weapon.kind in ("ballista", "catapult") else proposed_penalty


def rounds_to_fire(
    weapon: BigWeapon,
    crew_now: int,
    *,
    reload_rule: Literal["sj_plus_one", "proportional"] = "sj_plus_one",
) -> int:
    """Ship rounds per shot with ``crew_now`` hands (A-37, ``ship.reload_rule``).

    Full crew: the listed RoF. Short-handed: ``sj_plus_one`` adds one ship round per
    missing crewman (the d20 rule, ``ships-spelljammer.md`` 6.1); ``proportional`` scales
    the time by crew needed / crew present, rounded up. No crew cannot fire.
    """
    if crew_now < 1:
        raise ShipRulesError(f"{weapon.name} cannot be worked without crew")
    if reload_rule == "sj_plus_one":
        return reload_rounds(weapon.rounds_per_shot, weapon.crew, crew_now)
    if reload_rule == "proportional":
        return math.ceil(weapon.rounds_per_shot * weapon.crew / min(crew_now, weapon.crew))
    raise ShipRulesError(
        f"reload rule {reload_rule!r} unknown; use 'sj_plus_one' or 'proportional'"
    )


@dataclass(frozen=True, slots=True)
class ShipAttack:
    """One artillery shot at a ship (section 3, C-20).

    Attributes:
        attack: the firer's rolled degree (skill + 4dF + modifiers).
        dodge: the ship's dodge roll (MS + 4dF + projectile penalty); ``None`` if it
            cannot dodge (no helmsman, becalmed).
        target: the ship's Target.
        rd: ``attack - max(target, dodge)``.
        hit: ``rd >= 1``.
    """

    attack: int
    dodge: int | None
    target: int
    rd: int
    hit: bool


def ship_attack(attack: int, target: int, dodge: int | None) -> ShipAttack:
    """Resolve a shot from rolled values: the attack must exceed Target and dodge."""
    result = actions.opposed(attack, dodge, target, mode="effective_opposition")
    return ShipAttack(attack, dodge, target, result.rd, result.hit)


def resolve_ship_attack(
    skill: int, target: int, ms: int | None, penalty: int, rng: random.Random
) -> tuple[ShipAttack, int]:
    """Roll a shot: the gunner's ``skill`` + 4dF against the ship's ``ms`` + 4dF + ``penalty``.

    Returns the attack and the gunner's 4dF. ``ms=None``: the ship cannot dodge.
    """
    dice = roll_4df(rng)
    dodge = None if ms is None else ms + roll_4df(rng) + penalty
    return ship_attack(skill + dice, target, dodge), dice


def attack_outcomes(skill: int, target: int, ms: int | None, penalty: int) -> Distribution[int]:
    """Exact distribution of the shot's RD (ascending); RD >= 1 hits."""
    defence = None if ms is None else ms + penalty
    return actions.rd_distribution(skill, defence, target, mode="effective_opposition")


def ship_hit_probability(skill: int, target: int, ms: int | None, penalty: int) -> Fraction:
    """Exact probability that a shot hits."""
    return sum((p for rd, p in attack_outcomes(skill, target, ms, penalty) if rd >= 1), Fraction(0))
