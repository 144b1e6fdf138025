"""Close action between ships: ramming, crashes, shearing, grappling, towing, boarding.

Implements ``ships-spelljammer.md`` sections 9-12 and 14 with ``CONFLICTS.md`` C-07 and
A-51..A-54. Ram damage dice are data (A-52); attacks use ``sj_combat.resolve_attack``.

>>> ram_size_check(100, 10, "piercing"), ram_size_check(100, 301, "blunt")
('target_crashes', 'rammer_crashes')
>>> lines_to_grapple(50, 30)
3
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Literal

from fadad_agents.rules.core.dice import Distribution
from fadad_agents.rules.ships.combat import AttackResult, Dice, attack_outcomes, resolve_attack
from fadad_agents.rules.ships.effects import Check, HullHoled, Shaken, ShipEffect

__all__ = [
    "CHAIN",
    "CRASH_MODIFIER",
    "LINE",
    "CloseError",
    "CrashResult",
    "CutResult",
    "GrappleLine",
    "RamOutcome",
    "RamType",
    "ShearResult",
    "board_allowed",
    "counter_ram_allowed",
    "crash_avoid_probability",
    "crash_crew_damage_dice",
    "crash_damage",
    "crashing_ship",
    "cut_line",
    "is_grappled",
    "lines_to_grapple",
    "lock_outcomes",
    "lock_percent",
    "ram_allowed",
    "ram_damage_dice",
    "ram_outcome",
    "ram_size_check",
    "rammer_keeps_moving",
    "resolve_crash_avoidance",
    "resolve_crash_crew_damage",
    "resolve_lock",
    "resolve_separation",
    "resolve_shear",
    "shear_outcomes",
    "tow",
]

type RamType = Literal["piercing", "blunt", "grappling"]


class CloseError(ValueError):
    """A close-action input is outside what the rules allow."""


# --- ramming (section 9, C-07, A-52) ---------------------------------------------------


def ram_size_check(
    rammer_tons: int, target_tons: int, ram: RamType
) -> Literal["ok", "target_crashes", "rammer_crashes"]:
    """Whether a ram is possible by size (EX-SJ-08).

    A ship cannot ram one of 10% or less of its tonnage (the small ship checks for a
    crash) nor one of more than 3x its tonnage (the rammer checks for a crash). A
    grappling ram may target smaller ships of any size.
    """
    if rammer_tons < 1 or target_tons < 1:
        raise CloseError(f"tonnages must be >= 1, got {rammer_tons}, {target_tons}")
    if target_tons > 3 * rammer_tons:
        return "rammer_crashes"
    if ram != "grappling" and 10 * target_tons <= rammer_tons:
        return "target_crashes"
    return "ok"


def ram_allowed(
    *,
    has_initiative: bool,
    same_hex_at_start: bool = False,
    left_and_reentered: bool = False,
    grappled_with_target: bool = False,
    rammed_this_turn: bool = False,
    head_on_counter: bool = False,
) -> bool:
    """Whether a ship may attempt a ram this turn (section 9).

    Only the side with initiative rams, except the head-on counter-ram; never a ship that
    shared the hex at the start of the turn unless it left and re-entered; never a ship
    it is grappled with; one attempt a turn.
    """
    if rammed_this_turn or grappled_with_target:
        return False
    if same_hex_at_start and not left_and_reentered:
        return False
    return has_initiative or head_on_counter


def counter_ram_allowed(head_on: bool, ram_hit: bool) -> bool:
    """A head-on target of a missed ram may ram back at once, at last turn's speed."""
    return head_on and not ram_hit


def ram_damage_dice(dice: Dice, gargantuan_target: bool) -> Dice:
    """Ram damage dice against the target: d6s become d4s on a gargantuan creature (EX-SJ-07)."""
    if gargantuan_target and dice.sides == 6:
        return Dice(dice.count, 4, dice.bonus)
    return dice


def lock_percent(rammer_tons: int, per_10_tons: bool = False) -> int:
    """Chance (%) a piercing ram locks the ships: 5% per ton of the rammer, at most 100.

    Option ``sj.lock_pct_per_10_tons`` (A-52) reads it as 5% per 10 tons (tons/10 rounded
    up, as A-53 rounds tonnage tenths).
    """
    if rammer_tons < 1:
        raise CloseError(f"rammer tonnage must be >= 1, got {rammer_tons}")
    units = math.ceil(rammer_tons / 10) if per_10_tons else rammer_tons
    return min(100, 5 * units)


def resolve_lock(pct: int, rng: random.Random) -> bool:
    """Roll d100 <= ``pct`` for a piercing ram's lock."""
    return int(rng.random() * 100) + 1 <= pct


def lock_outcomes(pct: int) -> Distribution[bool]:
    """Exact distribution of :func:`resolve_lock`."""
    p = Fraction(min(100, max(0, pct)), 100)
    return [(True, p), (False, 1 - p)]


@dataclass(frozen=True, slots=True)
class RamOutcome:
    """What a ram that hits does besides its damage dice.

    Attributes:
        effects: critical effects the target suffers automatically.
        random_crits: further d20 criticals to roll (blunt ram: 1; more if damage demands).
        lock_pct: chance the ships lock (piercing); locked ships count as grappled.
        grappled: the ships are grappled outright (grappling ram).
        does_damage: whether the ram's damage dice apply (not for a grappling ram).
    """

    effects: tuple[ShipEffect, ...]
    random_crits: int
    lock_pct: int
    grappled: bool
    does_damage: bool


@cache  # immutable, of the rammer's ram and tons and two options: a few per scenario
def ram_outcome(
    ram: RamType, rammer_tons: int, per_10_tons: bool = False, shaken_dex_dc: int = 10
) -> RamOutcome:
    """The automatic results of a ram that hits (section 9, C-07)."""
    shaken = Shaken(check=Check("dexterity", shaken_dex_dc, "d20"), npc_fall_pct=40)
    if ram == "piercing":
        return RamOutcome(
            (HullHoled(), shaken), 0, lock_percent(rammer_tons, per_10_tons), False, True
        )
    if ram == "blunt":
        return RamOutcome((shaken,), 1, 0, False, True)
    if ram == "grappling":
        return RamOutcome((), 0, 0, True, False)
    raise CloseError(f"unknown ram type {ram!r}; use piercing, blunt or grappling")


def resolve_separation(helmsman_bonus: int, other_ship_ac: int, rng: random.Random) -> AttackResult:
    """Locked ships part when a helmsman of either ship hits the other ship's AC (SJ 9:
    "an attack roll to pull them apart"; the target number PROPOSED): its ``hit``."""
    return resolve_attack(helmsman_bonus, other_ship_ac, rng, crit_from=None)


def rammer_keeps_moving(hit: bool, target_destroyed: bool, locked_or_grappled: bool) -> bool:
    """After a ram the rammer may finish its move if it missed or destroyed the target."""
    return (not hit or target_destroyed) and not locked_or_grappled


# --- crashes (section 10, A-51) --------------------------------------------------------

CRASH_MODIFIER: dict[str, int] = {"A": 8, "B": 6, "C": 4, "D": 2, "E": 0, "F": -2}
"""Helm Pilot modifier by manoeuvrability rating letter (section 10)."""


def _pilot_total_bonus(pilot_bonus: int | None, mc_letter: str) -> int:
    letter = mc_letter.strip().upper()
    if letter not in CRASH_MODIFIER:
        raise CloseError(f"unknown MC letter {mc_letter!r}; use A..F")
    # Nobody flying counts as 1 rank in Helm Pilot.
    return (1 if pilot_bonus is None else pilot_bonus) + CRASH_MODIFIER[letter]


def resolve_crash_avoidance(
    pilot_bonus: int | None, mc_letter: str, rng: random.Random, dc: int = 15
) -> bool:
    """The helmsman's Helm Pilot check to avoid a crash (DC option ``sj.crash_dc``, A-51).

    ``pilot_bonus=None``: nobody is flying (counts as 1 rank).
    """
    return int(rng.random() * 20) + 1 + _pilot_total_bonus(pilot_bonus, mc_letter) >= dc


def crash_avoid_probability(pilot_bonus: int | None, mc_letter: str, dc: int = 15) -> Fraction:
    """Exact P(:func:`resolve_crash_avoidance` succeeds); skill checks have no auto-success."""
    need = dc - _pilot_total_bonus(pilot_bonus, mc_letter)
    return Fraction(min(20, max(0, 21 - need)), 20)


def crashing_ship(tons_a: int, tons_b: int) -> Literal["a", "b"]:
    """In a crash the smaller ship crashes into the larger (ties: ``a``, the mover)."""
    return "b" if tons_b < tons_a else "a"


@dataclass(frozen=True, slots=True)
class CrashResult:
    """Hull damage of a crash (EX-SJ-03).

    Attributes:
        crasher_loss: hull points the crashing ship loses (half its original).
        crasher_hull_left: what it has left; 0 = it breaks up.
        other_damage: hull damage to the ship crashed into (crasher's current hull points).
        other_shaken: people aboard the ship crashed into suffer Ship Shaken.
    """

    crasher_loss: int
    crasher_hull_left: int
    other_damage: int
    other_shaken: bool = True

    @property
    def crasher_breaks_up(self) -> bool:
        """The crashing ship is at 0 hull points."""
        return self.crasher_hull_left == 0


def crash_damage(crasher_hull_now: int, crasher_hull_max: int) -> CrashResult:
    """Hull damage when a ship crashes into another (section 10, EX-SJ-03).

    Half of an odd original is rounded down (d20 convention, PROPOSED).
    """
    if not 0 <= crasher_hull_now <= crasher_hull_max:
        raise CloseError(
            f"need 0 <= hull now <= hull max, got {crasher_hull_now}, {crasher_hull_max}"
        )
    loss = crasher_hull_max // 2
    return CrashResult(
        crasher_loss=loss,
        crasher_hull_left=max(0, crasher_hull_now - loss),
        other_damage=crasher_hull_now,
    )


def crash_crew_damage_dice(tons: int, saved: bool) -> tuple[Dice, bool]:
    """Damage to each person aboard a crashing ship: 1d6 per ton, max 20d6; half on a
    Reflex save (DC ``sj.crash_save_dc``). Returns the dice and whether to halve."""
    if tons < 1:
        raise CloseError(f"tonnage must be >= 1, got {tons}")
    return Dice(min(20, tons), 6), saved


def resolve_crash_crew_damage(
    tons: int, reflex_bonus: int, rng: random.Random, dc: int = 15
) -> tuple[bool, int]:
    """One person aboard a crashing ship: (saved, damage taken); half, rounded down, on a
    Reflex save against ``dc`` (option ``sj.crash_save_dc``, A-51)."""
    saved = int(rng.random() * 20) + 1 + reflex_bonus >= dc
    dice, halve = crash_crew_damage_dice(tons, saved)
    damage = dice.roll(rng)
    return saved, damage // 2 if halve else damage


# --- shearing (section 11, A-54) -------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ShearResult:
    """A shearing pass: hit, whether the target loses an MC class, critical, shear-back."""

    hit: bool
    mc_loss: bool
    critical: bool
    shear_back_allowed: bool


def shear_outcomes(
    bonus: int, target_ac: int, shear_losses_so_far: int
) -> Distribution[ShearResult]:
    """Exact distribution of :func:`resolve_shear`."""
    merged: dict[ShearResult, Fraction] = {}
    for (hit, critical), p in attack_outcomes(bonus, target_ac, crit_from=20):
        r = _shear(hit, critical, shear_losses_so_far)
        merged[r] = merged.get(r, Fraction(0)) + p
    return list(merged.items())


def _shear(hit: bool, critical: bool, losses: int) -> ShearResult:
    return ShearResult(
        hit=hit, mc_loss=hit and losses < 2, critical=critical, shear_back_allowed=not hit
    )


def resolve_shear(
    bonus: int, target_ac: int, shear_losses_so_far: int, rng: random.Random
) -> ShearResult:
    """The helmsman's attack vs the target's AC (A-54); at most two MC losses per ship
    from shearing; a natural 20 is a critical; a failure lets the target shear back."""
    attack = resolve_attack(bonus, target_ac, rng, crit_from=20)
    return _shear(attack.hit, attack.critical, shear_losses_so_far)


# --- grappling and boarding (section 12, A-53) -----------------------------------------


def lines_to_grapple(tons_a: int, tons_b: int, rounding: Literal["ceil", "floor"] = "ceil") -> int:
    """Lines needed to grapple: 1/10 of the smaller ship's tonnage (A-53, EX-SJ-04).

    ``rounding`` is option ``sj.grapple_lines_rounding``; at least 1 line.
    """
    if tons_a < 1 or tons_b < 1:
        raise CloseError(f"tonnages must be >= 1, got {tons_a}, {tons_b}")
    smaller = min(tons_a, tons_b)
    n = math.ceil(smaller / 10) if rounding == "ceil" else smaller // 10
    return max(1, n)


def is_grappled(
    lines: int, tons_a: int, tons_b: int, rounding: Literal["ceil", "floor"] = "ceil"
) -> bool:
    """Ships are grappled once the lines reach :func:`lines_to_grapple` (``rounding`` as
    there); with fewer, either ship breaks them all by leaving the hex."""
    return lines >= lines_to_grapple(tons_a, tons_b, rounding)


@dataclass(frozen=True, slots=True)
class GrappleLine:
    """A grappling line or chain: the AC to hit it and its hit points."""

    name: str
    ac: int
    hp: int


LINE = GrappleLine("line", ac=10, hp=5)
CHAIN = GrappleLine("chain", ac=4, hp=20)


@dataclass(frozen=True, slots=True)
class CutResult:
    """One blow at a line: hit, damage dealt, hit points left, cut through."""

    hit: bool
    damage: int
    hp_left: int
    cut: bool


def cut_line(
    bonus: int, damage: Dice, line: GrappleLine, hp_left: int, rng: random.Random
) -> CutResult:
    """Attack a line (AC 10, 5 hp) or chain (AC 4, 20 hp) and deal weapon damage."""
    attack = resolve_attack(bonus, line.ac, rng, crit_from=None)
    dealt = max(0, damage.roll(rng)) if attack.hit else 0
    left = max(0, hp_left - dealt)
    return CutResult(hit=attack.hit, damage=dealt, hp_left=left, cut=left == 0)


def board_allowed(rounds_since_grappled: int, at_gunwale_at_round_start: bool) -> bool:
    """Boarders cross the round after grappling, if at the gunwale when the round began."""
    return rounds_since_grappled >= 1 and at_gunwale_at_round_start


# --- towing (section 14) ---------------------------------------------------------------


def tow(
    sr_a: int, sr_b: int, capacity_a: int, capacity_b: int, tons_a: int, tons_b: int
) -> Literal["a", "b"] | None:
    """Which grappled ship's helm moves both, or ``None`` if neither moves.

    Only the stronger device (higher current SR) works; equal SR: neither moves while both
    helms work. The working helm must move the combined tonnage (``capacity`` = tons the
    helm can move).
    """
    if sr_a == sr_b:
        return None
    mover: Literal["a", "b"] = "a" if sr_a > sr_b else "b"
    capacity = capacity_a if mover == "a" else capacity_b
    return mover if capacity >= tons_a + tons_b else None
