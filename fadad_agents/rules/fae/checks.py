"""Fae Domains percentile kernel: tests, margins, the Reaction test and the action economy.

Implements ``fae-domains.md`` section 1 (tests and margins, Modified Chance of Success,
the botch option) and section 2 (the 10-second combat turn: Reaction test, actions in
order of margin, 25 spent per short action and 50 per full one, delays, the free / short /
full action catalogue), with ``CONFLICTS.md`` C-01 (clock), C-04 (ladder bridge), C-17
(movement as speeds), C-18 (Size bridge), C-23 (margins as times inside the turn) and
A-62 (margin and botch). Attacks live in :mod:`fadad_agents.rules.fae.attack`; charges,
holds, pursuit, flight, mounts and water in :mod:`fadad_agents.rules.fae.special`.

>>> modified_chance(25, attribute=63, luck=37)
35
>>> check_result(35, 10)
FaeCheck(success=True, margin=25, botch=False)
>>> action_margins(80, ["short"] * 4), action_margins(60, ["full", "short"])
([80, 55, 30, 5], [60, 10])
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from fadad_agents.rules.core.dice import Distribution, fudge_distribution, roll_d100
from fadad_agents.rules.fae.options import FaeOptions

__all__ = [
    "ACTIONS",
    "FAE_TURN_SECONDS",
    "FULL_COST",
    "SHORT_COST",
    "ActionKind",
    "FaeAction",
    "FaeCheck",
    "FaeError",
    "FaeMovement",
    "FaeRoll",
    "Initiative",
    "action_cost",
    "action_margins",
    "action_offset",
    "action_times",
    "attribute_modifier",
    "check_outcomes",
    "check_result",
    "check_turn_actions",
    "delay",
    "fae_size_to_mass_scale",
    "first_action_times",
    "glide_offset",
    "ladder_success_probability",
    "ladder_to_percentile",
    "lift_lb",
    "max_actions",
    "modified_chance",
    "movement_speeds",
    "next_margin",
    "reaction_margin",
    "resolve_check",
    "success_probability",
    "sync_period",
    "turn_order",
    "weight_lb",
]

type ActionKind = Literal["free", "short", "full"]

FAE_TURN_SECONDS = 10
"""A Fae Domains combat turn lasts 10 seconds (SEED; C-01)."""

SHORT_COST = 25
FULL_COST = 50
_COSTS: dict[str, int] = {"free": 0, "short": SHORT_COST, "full": FULL_COST}


class FaeError(ValueError):
    """A Fae Domains input is impossible (unknown action, delay upward, bad roll ...)."""


# --- tests and margins ----------------------------------------------------------------


def attribute_modifier(value: int) -> int:
    """An attribute's test modifier: value / 10 rounded to nearest, half up (63 -> 6)."""
    return (value + 5) // 10  # floor(value / 10 + 1/2), in ints


def modified_chance(
    base: int, attribute: int | None = None, luck: int | None = None, situational: int = 0
) -> int:
    """Modified Chance of Success: skill + attribute/10 + Luck/10 + modifiers, at least 1%.

    ``base`` is the skill rating (0 for an unknown skill). ``attribute`` is the skill's
    primary attribute, ``luck`` the Luck attribute (every test adds it).
    """
    total = base + situational
    if attribute is not None:
        total += attribute_modifier(attribute)
    if luck is not None:
        total += attribute_modifier(luck)
    return max(1, total)


@dataclass(frozen=True, slots=True)
class FaeCheck:
    """Outcome of a complex test: success, margin (0 on a failure) and botch."""

    success: bool
    margin: int
    botch: bool


@dataclass(frozen=True, slots=True)
class FaeRoll:
    """A rolled test as the log shows it: the die, the chance and the outcome."""

    roll: int
    mcs: int
    check: FaeCheck


def check_result(mcs: int, roll: int, options: FaeOptions | None = None) -> FaeCheck:
    """Read a d100 roll against an MCS (A-62).

    Success iff ``roll <= mcs``; margin = MCS - roll (or the roll itself with
    ``fae.margin_mode = "roll"``); a roll >= ``fae.botch_range`` botches, and a botch
    always fails.
    """
    if not 1 <= roll <= 100:
        raise FaeError(f"d100 roll {roll} is not 1..100")
    opts = options or FaeOptions()
    if roll >= opts.botch_range:
        return FaeCheck(False, 0, True)
    if roll > mcs:
        return FaeCheck(False, 0, False)
    margin = mcs - roll if opts.margin_mode == "mcs_minus_roll" else roll
    return FaeCheck(True, margin, False)


def resolve_check(mcs: int, rng: random.Random, options: FaeOptions | None = None) -> FaeRoll:
    """Roll a complex test on ``rng``."""
    roll = roll_d100(rng)
    return FaeRoll(roll, mcs, check_result(mcs, roll, options))


def check_outcomes(mcs: int, options: FaeOptions | None = None) -> Distribution[FaeCheck]:
    """Exact distribution of :func:`resolve_check`'s outcome."""
    out: dict[FaeCheck, Fraction] = {}
    for roll in range(1, 101):
        key = check_result(mcs, roll, options)
        out[key] = out.get(key, Fraction(0)) + Fraction(1, 100)
    return list(out.items())


def success_probability(mcs: int, options: FaeOptions | None = None) -> Fraction:
    """P(success) of a test at ``mcs``."""
    return sum((p for c, p in check_outcomes(mcs, options) if c.success), Fraction(0))


def lift_lb(strength: int) -> int:
    """Pounds a character can lift: 4 x Strength (RECOVERED, *Attributes*)."""
    return 4 * strength


def weight_lb(size: int) -> int:
    """Approximate weight in pounds: 3 x Size (RECOVERED, *Attributes*)."""
    return 3 * size


# --- the Reaction test and the action economy -----------------------------------------


def reaction_margin(check: FaeCheck) -> int | None:
    """Initiative margin of a Reaction test: its margin, 0 on a failure, None on a botch."""
    if check.botch:
        return None
    return check.margin if check.success else 0


def action_cost(kind: str) -> int:
    """Margin spent by an action: free 0, short 25, full 50."""
    try:
        return _COSTS[kind]
    except KeyError:
        raise FaeError(f"unknown action kind {kind!r}; use 'free', 'short' or 'full'") from None


def next_margin(margin: int, kind: str) -> int | None:
    """The count at which a character acting now at ``margin`` acts again, or None."""
    after = margin - action_cost(kind)
    return after if after > 0 else None


def action_margins(reaction: int, kinds: Iterable[str]) -> list[int]:
    """The counts at which a character acts, given the kinds of its successive actions.

    Stops when the margin reaches 0 or less; kinds beyond that are not taken. A failed
    Reaction test (margin 0) gives one action at the end of the order.
    """
    if reaction < 0:
        raise FaeError(f"Reaction margin {reaction} is negative; failures count as 0")
    out: list[int] = []
    current: int | None = reaction
    for kind in kinds:
        if current is None:
            break
        out.append(current)
        if kind != "free":
            current = next_margin(current, kind)
    return out


def max_actions(reaction: int, kind: str) -> int:
    """How many actions of one kind fit in a turn (60 full -> 2; 80 short -> 4)."""
    cost = action_cost(kind)
    if cost == 0:
        raise FaeError("free actions cost no margin; they are unlimited alongside others")
    return 1 if reaction <= 0 else math.ceil(reaction / cost)


def delay(current: int, new: int) -> int:
    """Voluntarily lower one's margin to ``new`` (0 .. current); lost actions are forfeited."""
    if not 0 <= new <= current:
        raise FaeError(f"cannot delay from margin {current} to {new}; choose 0..{current}")
    return new


def check_turn_actions(names: Iterable[str]) -> None:
    """Reject a turn's plan the rules forbid: Move is not combined with the free walk."""
    taken = set(names)
    unknown = taken - ACTIONS.keys()
    if unknown:
        raise FaeError(f"unknown actions {sorted(unknown)}; known: {sorted(ACTIONS)}")
    if {"walk", "move"} <= taken:
        raise FaeError("Move (2 x Walk MR) cannot be combined with the free walk in one turn")


@dataclass(frozen=True, slots=True)
class Initiative:
    """One combatant's place in a turn: its current margin and Reaction attribute."""

    combatant: str
    margin: int
    reaction: int


def turn_order(entries: Sequence[Initiative]) -> list[tuple[str, ...]]:
    """Who acts when: highest margin first, then higher Reaction attribute.

    Still equal means simultaneous: those names share one tuple and their effects apply
    after all of them act. Botched combatants are simply not passed in.
    """
    groups: dict[tuple[int, int], list[str]] = {}
    for e in entries:
        groups.setdefault((e.margin, e.reaction), []).append(e.combatant)
    return [tuple(sorted(groups[key])) for key in sorted(groups, reverse=True)]


def action_offset(margin: int | Fraction, top_margin: int, turn_seconds: int = 10) -> Fraction:
    """Seconds into the turn at which an action at ``margin`` happens (C-23).

    The count runs from the turn's highest Reaction margin (at 0 s) down to 0 (just
    before the turn ends): ``turn_seconds * (top - margin) / (top + 1)``. Equal margins get
    equal times; an engine breaks the tie with the Reaction attribute.
    """
    top = max(top_margin, 0)
    if margin > top:
        raise FaeError(f"margin {margin} is above the turn's top margin {top}")
    if type(margin) is int:  # the same fraction, made once (every action asks)
        return Fraction(turn_seconds * (top - margin), top + 1)
    return Fraction(turn_seconds) * (top - Fraction(margin)) / (top + 1)


def action_times(
    reaction: int, kinds: Iterable[str], top_margin: int, turn_seconds: int = 10
) -> list[Fraction]:
    """Seconds into the turn of each planned action (the counts of :func:`action_margins`)."""
    return [action_offset(m, top_margin, turn_seconds) for m in action_margins(reaction, kinds)]


def first_action_times(
    reactions: Mapping[str, int | None], turn_seconds: int = 10
) -> dict[str, Fraction]:
    """When each combatant first acts this turn, from its Reaction margin (C-23).

    ``None`` marks a botch: that combatant does not act and is left out.
    """
    acting = {name: m for name, m in reactions.items() if m is not None}
    top = max(acting.values(), default=0)
    return {name: action_offset(m, top, turn_seconds) for name, m in acting.items()}


def glide_offset(top_margin: int, turn_seconds: int = 10) -> Fraction:
    """When unpowered flyers glide: at margin 0, after those who failed their Reaction."""
    return action_offset(Fraction(-1, 2), top_margin, turn_seconds)


@dataclass(frozen=True, slots=True)
class FaeAction:
    """One entry of the action catalogue (``fae-domains.md`` 2.1-2.3)."""

    name: str
    kind: ActionKind
    rule: str


ACTIONS: dict[str, FaeAction] = {
    a.name: a
    for a in (
        FaeAction("drop_prone", "free", "drop prone"),
        FaeAction("drop", "free", "drop an object; fragile items take a fall of base damage 10"),
        FaeAction("gesture", "free", "gesture with a free hand"),
        FaeAction("speak", "free", "speak up to 5 syllables"),
        FaeAction("walk", "free", "walk up to Walk MR yards"),
        FaeAction("command_mount", "free", "command the mount; it reacts on its next action"),
        FaeAction("glide", "free", "glide up to Fly MR, losing 1 yd altitude per 3 yd"),
        FaeAction("dive", "free", "controlled fall; Aerobatics test at +30 to level out"),
        FaeAction("fly", "free", "fly up to Fly MR with no altitude loss"),
        FaeAction("climb", "free", "up to 1/2 Fly MR up and 4/5 Fly MR horizontally"),
        FaeAction("change_position", "short", "stand, lie prone, kneel, squat, sit"),
        FaeAction("pick_up", "short", "pick up or set down an object"),
        FaeAction("ready_weapon", "short", "draw, nock an arrow, prepare or re-grip a weapon"),
        FaeAction("take_aim", "short", "+5% to the next attack, up to half the weapon skill"),
        FaeAction("move", "short", "up to 2 x Walk MR yards; not with the free walk"),
        FaeAction("dodge", "short", "dodge margin is subtracted from the attacker's margin"),
        FaeAction("block", "short", "add margin% x item DR to Armour against one attack"),
        FaeAction("acrobatic_dodge", "full", "Acrobatics margin added to the dodge test"),
        FaeAction("run", "full", "up to Run MR yards"),
        FaeAction("attack", "full", "an attack test; damage = base x margin%"),
        FaeAction("cast_spell", "full", "Magic chapter (hook; not in the seed)"),
        FaeAction("break_hold", "full", "Strength or Unarmed vs the holder (+10)"),
        FaeAction("recover", "full", "a Stamina or Willpower test to act again"),
        FaeAction("stand_on_head", "full", "an Acrobatics test"),
    )
}
"""Free, short and full actions by name, as data an engine and policies can read."""


# --- clocks, movement and bridges ---------------------------------------------------


def sync_period(*round_seconds: int) -> int:
    """Seconds after which mixed subsystems' rounds line up again (C-01): 6 and 10 -> 30."""
    if not round_seconds or min(round_seconds) < 1:
        raise FaeError("give each subsystem's round length as a positive number of seconds")
    return math.lcm(*round_seconds)


@dataclass(frozen=True, slots=True)
class FaeMovement:
    """Speeds in yards per second derived from Move Rates (C-17)."""

    walk: Fraction
    move: Fraction
    run: Fraction
    fly: Fraction | None


def movement_speeds(walk_mr: int, run_mr: int, fly_mr: int | None = None) -> FaeMovement:
    """Free walk (Walk MR), Move (2 x Walk MR) and Run (Run MR) per 10-s turn, as yd/s."""
    per = Fraction(1, FAE_TURN_SECONDS)
    fly = None if fly_mr is None else fly_mr * per
    return FaeMovement(walk_mr * per, 2 * walk_mr * per, run_mr * per, fly)


def ladder_success_probability(level: int) -> Fraction:
    """C-04 bridge: P(level + 4dF >= Fair), e.g. Fair 50/81 (61.7%), Good 66/81 (81.5%)."""
    return sum((p for v, p in fudge_distribution(4) if level + v >= 0), Fraction(0))


def ladder_to_percentile(level: int) -> int:
    """C-04 bridge: a ladder skill as a Fae percentile, rounded half up (Fair -> 62)."""
    return math.floor(100 * ladder_success_probability(level) + Fraction(1, 2))


def fae_size_to_mass_scale(size: int) -> int:
    """C-18 bridge: FADAD Mass Scale = round(log1.5(Size / 50)) half up (Size 50 -> 0)."""
    if size < 1:
        raise FaeError(f"Size {size} must be at least 1")
    return math.floor(math.log(size / 50) / math.log(1.5) + 0.5)
