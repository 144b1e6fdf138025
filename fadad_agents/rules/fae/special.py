"""Fae Domains special combat: charges, multiple attacks, throwing, holds, pursuit, flight,
mounts and water.

Implements ``fae-domains.md`` section 3.3 (charge, multiple attacks), 3.4 (thrown weapons
and objects), 4 (holds: basic, limb and submission; keeping, breaking and reversing them),
5 (pursuit), 6 (aerial combat: glide, dive,
fly, climb, swoop, altitude and speed; mounted combat and mount commands; underwater
combat), with ``CONFLICTS.md`` A-66 (thrown range in yards; mounted charge bonus) and
A-68 (pursuit chart dropped: PROPOSED skills as data). Halving rounds down throughout,
as EX-FAE-05 proposes for the dodge distance.

>>> charge_bonus(attacker_size=50), charge_bonus(attacker_size=50, mount_size=150)
(25, 100)
>>> break_hold(FaeCheck(True, 30, False), FaeCheck(True, 10, False))
'reversed'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Literal

from fadad_agents.rules.fae.attack import range_penalty
from fadad_agents.rules.fae.checks import FaeCheck, FaeError, lift_lb, weight_lb
from fadad_agents.rules.fae.options import FaeOptions

__all__ = [
    "DIVE_LEVEL_OUT_BONUS",
    "HOLDER_BREAK_BONUS",
    "HOLD_ATTACK_BONUS",
    "HOLD_KINDS",
    "PURSUIT_SKILLS",
    "THROWN_RANGE_RATING",
    "FlightState",
    "PursuitResult",
    "break_hold",
    "can_drag",
    "charge_bonus",
    "charged_base_damage",
    "climb",
    "dive",
    "dragging_load",
    "end_of_turn_glide",
    "fly",
    "glide",
    "held_may_act",
    "held_move_rate",
    "hold_damage",
    "hold_seize_modifier",
    "maintain_hold",
    "mount_action_margin",
    "multiple_attack_skills",
    "object_base_damage",
    "pursuit_gap",
    "resolve_pursuit",
    "thrown_max_range",
    "thrown_range_penalty",
    "two_handed_grip",
    "underwater_dodge_skill",
    "underwater_melee_skill",
    "underwater_missile_skill",
]

HOLD_ATTACK_BONUS = 25
"""The holder's Unarmed test to keep a hold (and damage) is at +25."""

HOLDER_BREAK_BONUS = 10
"""The holder's +10 when the target tries to break free."""

THROWN_RANGE_RATING = 10
"""Range rating of a thrown object, in yards."""

DIVE_LEVEL_OUT_BONUS = 30
"""Aerobatics test at +30 to level out of a dive."""

PURSUIT_SKILLS: dict[str, tuple[str, ...]] = {
    "running": ("Athletics", "Agility"),
    "flying": ("Aerobatics",),
    "swimming": ("Swim",),
    "riding": ("Riding",),
}
"""A-68: the dropped pursuit chart, PROPOSED: movement type -> skills (first preferred)."""


# --- charge and multiple attacks ------------------------------------------------------


def charge_bonus(
    attacker_size: int, mount_size: int | None = None, options: FaeOptions | None = None
) -> int:
    """Base-damage bonus of a charge or swoop: half the Size (A-66 for a mounted charge)."""
    if mount_size is None:
        return attacker_size // 2
    if (options or FaeOptions()).mounted_charge == "half_sum":
        return (attacker_size + mount_size) // 2
    return attacker_size // 2 + mount_size


def charged_base_damage(
    base: int,
    attacker_size: int,
    ran: bool,
    mount_size: int | None = None,
    options: FaeOptions | None = None,
) -> int:
    """Base Damage of an attack: + the charge bonus right after a Run (this or last turn)."""
    return base + charge_bonus(attacker_size, mount_size, options) if ran else base


def multiple_attack_skills(skills: Sequence[int], max_weapons: int = 2) -> list[int]:
    """Each readied weapon's skill divided by the number of attacks (humans: two)."""
    n = len(skills)
    if not 1 <= n <= max_weapons:
        raise FaeError(f"{n} attacks; this attacker can use 1..{max_weapons} readied weapons")
    return [s // n for s in skills]


def two_handed_grip(
    two_hands: bool, large: bool, mode: str, missile: bool = False
) -> tuple[bool, bool]:
    """(two-handed +20 applies, large -20 applies) under ``fae.two_handed_grip`` (3.1).

    The seed: a two-handed grip adds 20, "usually used to offset the penalty for large
    weapons, but some weapons like the bastard sword use this effect to give the character
    a slight edge". ``always_bonus`` (the seed's reading): +20 for any two-handed grip;
    ``cancels_large``: the +20 only offsets a large weapon's -20; ``cancels_and_bonus``:
    the grip removes the -20 and still adds +20. A bow's two hands are no grip on "a handle
    that is large enough to be used two handed": for missile weapons they only offset a
    long bow's size, whatever the mode (PROPOSED).

    >>> bastard_sword, shortbow = (True, False, "always_bonus"), (True, False, "always_bonus", True)
    >>> two_handed_grip(*bastard_sword), two_handed_grip(*shortbow)
    ((True, False), (False, False))
    """
    if missile or mode == "cancels_large":
        return two_hands and large, large
    if mode == "always_bonus":
        return two_hands, large
    return two_hands, large and not two_hands


# --- thrown weapons and objects --------------------------------------------------------


def thrown_max_range(
    strength: int, weight: Fraction | int | None = None, size: int | None = None
) -> Fraction:
    """Maximum throwing range in yards (A-66): Strength / (2 x weight), or / (6 x Size)."""
    if weight is None:
        if size is None:
            raise FaeError("give the thrown object's weight (lb) or its Size")
        weight = Fraction(3 * size)
    if weight <= 0:
        raise FaeError(f"object weight {weight} must be positive")
    return Fraction(strength) / (2 * Fraction(weight))


def thrown_range_penalty(distance: int, max_range: Fraction) -> int | None:
    """Range penalty of a throw (range rating 10 yd); None beyond the maximum range."""
    if distance > max_range:
        return None
    return range_penalty(distance, THROWN_RANGE_RATING)


def object_base_damage(size: int | None = None, weight: int | None = None) -> int:
    """Base damage of an object with no damage rating: its Size, or weight / 3 (half up)."""
    if size is not None:
        return size
    if weight is None:
        raise FaeError("give the object's Size or its weight (lb)")
    return (2 * weight + 3) // 6


# --- holds ----------------------------------------------------------------------------

type HoldKind = Literal["basic", "limb", "submission"]
HOLD_KINDS: tuple[HoldKind, ...] = ("basic", "limb", "submission")
"""Section 4: a basic hold (the target acts on, dragging the holder), a limb hold (the same,
but the held limb is useless; a held leg halves movement) and a submission hold (the target
can only try to break it)."""


def hold_seize_modifier(kind: HoldKind, options: FaeOptions | None = None) -> int:
    """The modifier of the Unarmed attack test that seizes a hold of ``kind``.

    The maneuver list that would give it was dropped (A-68): PROPOSED a basic hold at 0,
    a limb hold at ``fae.limb_hold_modifier`` (-20, aimed like a called shot), a submission
    hold at ``fae.submission_hold_modifier`` (-40).
    """
    opts = options or FaeOptions()
    if kind not in HOLD_KINDS:
        raise FaeError(f"unknown hold {kind!r}; use one of {', '.join(HOLD_KINDS)}")
    return {"basic": 0, "limb": opts.limb_hold_modifier}.get(kind, opts.submission_hold_modifier)


def held_may_act(kind: HoldKind) -> bool:
    """A basic or limb hold leaves the target its normal actions (and defences); a
    submission hold leaves it nothing but trying to break free."""
    return kind != "submission"


def hold_damage(strength: int) -> int:
    """Base damage a held target takes per full action the holder spends: STR / 2."""
    return strength // 2


def maintain_hold(holder: FaeCheck, strength: int) -> int | None:
    """A holder's full action: its Unarmed test (at +25) deals STR / 2, or None = broken."""
    return hold_damage(strength) if holder.success else None


def break_hold(target: FaeCheck, holder: FaeCheck) -> Literal["held", "broken", "reversed"]:
    """A break-free attempt: Strength/Unarmed each, holder at +10 (already in its chance).

    The higher margin wins and ties keep the hold; a failed test ranks below any success.
    A target margin at least twice the holder's reverses the hold.
    """
    if not target.success:
        return "held"
    if holder.success and target.margin <= holder.margin:
        return "held"
    if not holder.success or target.margin >= 2 * holder.margin:
        return "reversed"
    return "broken"


def held_move_rate(move_rate: int, leg_held: bool) -> int:
    """A held leg halves movement."""
    return move_rate // 2 if leg_held else move_rate


def dragging_load(load: int, holder_weight: int) -> int:
    """A held target that acts drags its holder: the holder's weight joins its load."""
    return load + holder_weight


def can_drag(strength: int, holder_size: int, load: int = 0) -> bool:
    """Whether a held fighter can move at all, dragging its holder (section 4).

    PROPOSED (the encumbrance rules were not recovered): it can while the load with the
    holder's weight (3 x Size lb) is within what it can lift (4 x Strength lb, RECOVERED).
    """
    return dragging_load(load, weight_lb(holder_size)) <= lift_lb(strength)


# --- pursuit ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PursuitResult:
    """Who won a pursuit turn (``"a"``, ``"b"`` or None on a tie) and by how many yards."""

    winner: Literal["a", "b"] | None
    distance: int


def pursuit_gap(winner_margin: int, loser_margin: int, winner_move_rate: int) -> int:
    """(winner margin - loser margin)% x winner's Move Rate, half up."""
    diff = max(0, winner_margin - loser_margin)
    return (2 * diff * winner_move_rate + 100) // 200


def resolve_pursuit(a: FaeCheck, b: FaeCheck, a_move_rate: int, b_move_rate: int) -> PursuitResult:
    """The winner may open or close the gap by up to the distance (failures count as 0)."""
    ma = a.margin if a.success else 0
    mb = b.margin if b.success else 0
    if ma == mb:
        return PursuitResult(None, 0)
    if ma > mb:
        return PursuitResult("a", pursuit_gap(ma, mb, a_move_rate))
    return PursuitResult("b", pursuit_gap(mb, ma, b_move_rate))


# --- aerial combat ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class FlightState:
    """A flyer's altitude (yd), last speed (yd per turn) and glide limits.

    Attributes:
        altitude: yards above the ground.
        speed: yards covered by the last flight action.
        glide_cap: longest next glide (a short glide caps the next one); None = full MR.
        after_dive: the last flight action was a dive.
    """

    altitude: int
    speed: int = 0
    glide_cap: int | None = None
    after_dive: bool = False


def glide(
    state: FlightState, distance: int, fly_mr: int, keep_altitude: bool = False
) -> FlightState:
    """Glide ``distance`` yd: up to Fly MR (Walk MR for non-flyers), -1 yd altitude per 3 yd.

    Right after a dive the glide may reach 1.5 x MR and may keep its altitude. A glide
    shorter than full MR caps the next glide at that length.
    """
    limit = fly_mr * 3 // 2 if state.after_dive else min(fly_mr, _cap(state, fly_mr))
    if not 0 <= distance <= limit:
        raise FaeError(f"glide of {distance} yd; allowed 0..{limit} yd now")
    if keep_altitude and not state.after_dive:
        raise FaeError("only a glide right after a dive may ignore the altitude loss")
    loss = 0 if keep_altitude else distance // 3
    cap = None if distance >= fly_mr else distance
    return FlightState(max(0, state.altitude - loss), distance, cap, False)


def end_of_turn_glide(state: FlightState, fly_mr: int) -> FlightState:
    """A flyer that took no flight action glides straight ahead as far as it may (margin 0)."""
    limit = fly_mr * 3 // 2 if state.after_dive else min(fly_mr, _cap(state, fly_mr))
    return glide(state, limit, fly_mr)


def _cap(state: FlightState, fly_mr: int) -> int:
    return fly_mr if state.glide_cap is None else state.glide_cap


def dive(state: FlightState, drop: int) -> FlightState:
    """A controlled fall of ``drop`` yd; level out with Aerobatics at +30."""
    if not 0 < drop <= state.altitude:
        raise FaeError(f"dive of {drop} yd from altitude {state.altitude}; 1..altitude allowed")
    return replace(state, altitude=state.altitude - drop, after_dive=True)


def fly(state: FlightState, distance: int, fly_mr: int) -> FlightState:
    """Powered flight up to Fly MR with no altitude loss; regains full gliding speed."""
    if not 0 <= distance <= fly_mr:
        raise FaeError(f"flight of {distance} yd; allowed 0..{fly_mr} yd (Fly MR)")
    return FlightState(state.altitude, distance, None, False)


def climb(state: FlightState, up: int, horizontal: int, fly_mr: int) -> FlightState:
    """Climb up to 1/2 Fly MR while moving up to 4/5 Fly MR (needs flight or an updraft)."""
    if not 0 <= up <= fly_mr // 2 or not 0 <= horizontal <= fly_mr * 4 // 5:
        raise FaeError(
            f"climb {up} up / {horizontal} across; allowed 0..{fly_mr // 2} / "
            f"0..{fly_mr * 4 // 5} yd"
        )
    return FlightState(state.altitude + up, horizontal, None, False)


# --- mounts and water -------------------------------------------------------------------


def mount_action_margin(mount_margins: Sequence[int], command_margin: int) -> int | None:
    """The count at which a mount obeys a command: its own next action after the order.

    ``mount_margins`` are the mount's remaining action counts this turn; commanding is a
    free action of the rider at ``command_margin``. None: the order waits for next turn.
    """
    later = [m for m in mount_margins if m <= command_margin]
    return max(later) if later else None


def underwater_melee_skill(skill: int) -> int:
    """Melee attacks underwater use half the skill."""
    return skill // 2


def underwater_dodge_skill(dodge: int, swim: int) -> int:
    """Dodging underwater uses the average of Dodge and Swim, half up."""
    return (dodge + swim + 1) // 2


def underwater_missile_skill(skill: int, options: FaeOptions | None = None) -> int | None:
    """Missiles underwater are nearly useless: skill / ``fae.underwater_missile_divisor``.

    None when the divisor is 0 (no missile attacks underwater).
    """
    divisor = (options or FaeOptions()).underwater_missile_divisor
    return None if divisor == 0 else skill // divisor
