"""Melee: Target by relative Scale, shields, melee modifiers, moving targets, hit locations.

Implements ``personal-combat.md`` sections 2 (melee modifiers, RECOVERED from FUDGE),
3 (Target by Scale and shields, SEED FADAD 4.3.2), 4 (hit locations, SEED 4.3.3) and the
moving-target bonus of section 5, with ``CONFLICTS.md`` C-11 (option ``shield_mode``),
A-04 (``fadad.weapon_size_comparison``), A-08 (``move.target_bonus``) and A-09
(``location.*``). The opposed roll itself is :func:`fadad_agents.rules.core.actions.opposed`.

>>> defender_target(0, 0, shield="medium")   # Brynhild behind her medium shield
-1
>>> from fadad_agents.rules.core.actions import opposed
>>> called_shot(opposed(1, -2), "arm").location   # EX-PC-06 case A
'arm'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from fadad_agents.rules.core.actions import Opposed

__all__ = [
    "ALL_OUT_ATTACK_BONUS",
    "LOCATIONS",
    "LOCATION_STATES",
    "SHIELDS",
    "CalledShot",
    "Location",
    "LocationState",
    "MeleeError",
    "Shield",
    "ShieldMode",
    "ShieldSize",
    "ShieldStats",
    "called_shot",
    "defender_target",
    "get_location",
    "location_penalty",
    "location_severity",
    "melee_attack_modifier",
    "melee_defence_modifier",
    "moving_target_bonus",
    "positional_modifier",
    "scale_target",
    "shield_attack_penalty",
    "shield_covers",
    "shield_skill_penalty",
    "shield_target_bonus",
    "size_comparison_modifier",
]

type ShieldSize = Literal["buckler", "small", "medium", "large"]
type ShieldMode = Literal["fadad_target", "fudge_skill_penalty"]
type LocationState = Literal["none", "scratched", "hurt", "incapacitated"]

LOCATION_STATES: tuple[LocationState, ...] = ("none", "scratched", "hurt", "incapacitated")
ALL_OUT_ATTACK_BONUS = 1
"""All-out attack: +1 to hit (SEED 001 section 4.63 example)."""

# (upper bound of defender Scale - attacker Scale, Target); above the last bound: -4.
_SCALE_TARGET_BANDS: tuple[tuple[int, int], ...] = (
    (-14, 1),  # Good: mouse
    (-10, 0),  # Fair: pixie
    (-6, -1),  # Mediocre: rabbit, cat
    (-2, -2),  # Poor: hobbit
    (2, -3),  # Terrible: adult human
)
_TARGET_OF_GIANTS = -4  # Terrible-1: ogre


class MeleeError(ValueError):
    """A melee input is outside what the rules allow."""


def scale_target(defender_scale: int, attacker_scale: int) -> int:
    """Target from (defender Scale - attacker Scale), section 3 table.

    >>> [scale_target(d, 0) for d in (-15, -12, -7, -4, 0, 4)]
    [1, 0, -1, -2, -3, -4]
    """
    difference = defender_scale - attacker_scale
    for upper, target in _SCALE_TARGET_BANDS:
        if difference <= upper:
            return target
    return _TARGET_OF_GIANTS


# --- shields (section 3 and C-11) -------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ShieldStats:
    """What a shield does in either shield mode.

    Attributes:
        target_bonus: FADAD Target bonus against covered attackers.
        attackers: how many attackers on the shield side it covers.
        own_attack_penalty: FADAD modifier to the bearer's attack skills.
        fudge_melee: FUDGE value subtracted from a covered melee opponent's skill.
        fudge_ranged: FUDGE value subtracted from a ranged attacker's skill.
        ranged_needs_impervious: the FUDGE ranged value needs an impervious shield.
    """

    target_bonus: int
    attackers: int
    own_attack_penalty: int
    fudge_melee: int
    fudge_ranged: int
    ranged_needs_impervious: bool


SHIELDS: dict[ShieldSize, ShieldStats] = {
    # FUDGE lists no buckler; it does nothing there either.
    "buckler": ShieldStats(0, 1, 0, 0, 0, False),
    "small": ShieldStats(1, 1, 0, 1, 0, False),
    "medium": ShieldStats(2, 1, 0, 1, 1, True),
    "large": ShieldStats(3, 2, -1, 2, 2, False),
}


type Shield = str | ShieldStats
"""A shield: a size name of :data:`SHIELDS`, or a shield's own figures (a stat block's)."""


def _shield(shield: Shield) -> ShieldStats:
    if isinstance(shield, ShieldStats):
        return shield
    try:
        return SHIELDS[shield]  # type: ignore[index]
    except KeyError:
        raise MeleeError(f"unknown shield {shield!r}; allowed: {', '.join(SHIELDS)}") from None


def _check_shield_mode(mode: str) -> ShieldMode:
    if mode == "fadad_target":
        return "fadad_target"
    if mode == "fudge_skill_penalty":
        return "fudge_skill_penalty"
    raise MeleeError(f"unknown shield_mode {mode!r}; allowed: fadad_target, fudge_skill_penalty")


def shield_covers(shield: Shield, shield_rank: int) -> bool:
    """Whether a shield covers an attacker.

    ``shield_rank`` is 0 for an attacker not on the shield side, else 1 for the first
    attacker on that side, 2 for the second... A large shield covers two, others one.
    """
    if shield_rank < 0:
        raise MeleeError(
            f"shield_rank must be >= 0 (0 = not on the shield side), got {shield_rank}"
        )
    return 1 <= shield_rank <= _shield(shield).attackers


def shield_target_bonus(
    shield: Shield | None, shield_rank: int = 1, *, shield_mode: str = "fadad_target"
) -> int:
    """FADAD Target bonus of a shield against one attacker (0 in ``fudge_skill_penalty``)."""
    if shield is None or _check_shield_mode(shield_mode) != "fadad_target":
        return 0
    return _shield(shield).target_bonus if shield_covers(shield, shield_rank) else 0


def shield_skill_penalty(
    shield: Shield | None,
    shield_rank: int = 1,
    *,
    ranged: bool = False,
    impervious: bool = False,
    shield_mode: str = "fadad_target",
) -> int:
    """FUDGE shield value subtracted from a covered opponent's skill (0 in ``fadad_target``).

    Small +1 melee only; medium +1 melee and +1 ranged if impervious; large +2 in all combat.
    """
    if shield is None or _check_shield_mode(shield_mode) != "fudge_skill_penalty":
        return 0
    stats = _shield(shield)
    if not shield_covers(shield, shield_rank):
        return 0
    if not ranged:
        return stats.fudge_melee
    if stats.ranged_needs_impervious and not impervious:
        return 0
    return stats.fudge_ranged


def shield_attack_penalty(shield: Shield | None, *, shield_mode: str = "fadad_target") -> int:
    """Modifier to the bearer's own attacks: -1 for a FADAD large shield, else 0."""
    if shield is None or _check_shield_mode(shield_mode) != "fadad_target":
        return 0
    return _shield(shield).own_attack_penalty


def moving_target_bonus(gait: str | None, bonus: tuple[int, int] = (1, 2)) -> int:
    """Target bonus of a quickly moving defender (A-08, option ``move.target_bonus``).

    ``bonus`` is (jogging, running); standing or walking gives 0.
    """
    if gait in (None, "walk"):
        return 0
    if gait == "jog":
        return bonus[0]
    if gait == "run":
        return bonus[1]
    raise MeleeError(f"unknown gait {gait!r}; allowed: None, walk, jog, run")


def defender_target(
    defender_scale: int,
    attacker_scale: int,
    *,
    shield: Shield | None = None,
    shield_rank: int = 1,
    shield_cap: int | None = None,
    gait: str | None = None,
    move_bonus: tuple[int, int] = (1, 2),
    shield_mode: str = "fadad_target",
) -> int:
    """A defender's Target against one attacker.

    Scale Target (section 3) + FADAD shield bonus if the shield covers this attacker
    (``shield_rank``, see :func:`shield_covers`), limited to ``shield_cap`` (the GM's cap
    for small characters; it never lowers the Scale Target) + moving-target bonus.
    """
    base = scale_target(defender_scale, attacker_scale)
    shielded = base + shield_target_bonus(shield, shield_rank, shield_mode=shield_mode)
    if shield_cap is not None:
        shielded = max(base, min(shielded, shield_cap))
    return shielded + moving_target_bonus(gait, move_bonus)


# --- melee modifiers (section 2.1, A-04) -----------------------------------------------


def positional_modifier(disadvantage: int) -> int:
    """Positional disadvantage (footing, elevation, light in the eyes...): 0, -1 or -2.

    ``disadvantage`` is how badly the fighter is placed: 0, 1 or 2 steps.
    """
    if not 0 <= disadvantage <= 2:
        raise MeleeError(f"positional disadvantage must be 0, 1 or 2 steps, got {disadvantage}")
    return -disadvantage


def size_comparison_modifier(
    own_weapon: int, own_shield: int, other_weapon: int, other_shield: int
) -> int:
    """FUDGE weapon + shield size comparison: -1 if the opponent's total is 2+ higher.

    Optional (``fadad.weapon_size_comparison``). Two-handed sword +4 vs knife +1 and
    shield +1: the knife wielder is -1.

    >>> size_comparison_modifier(1, 1, 4, 0), size_comparison_modifier(4, 0, 1, 1)
    (-1, 0)
    """
    return -1 if (other_weapon + other_shield) - (own_weapon + own_shield) >= 2 else 0


def melee_attack_modifier(
    *,
    wound_penalty: int = 0,
    positional: int = 0,
    all_out_attack: bool = False,
    own_shield: Shield | None = None,
    size_modifier: int = 0,
    opponent_shield: Shield | None = None,
    opponent_shield_rank: int = 1,
    shield_mode: str = "fadad_target",
) -> int:
    """Total modifier to a melee attack roll.

    Sums the wound penalty (<= 0, from the wound track), positional disadvantage steps,
    all-out attack +1, the large-shield -1 (FADAD), the size comparison (already computed
    with :func:`size_comparison_modifier` when that option is on) and, in
    ``fudge_skill_penalty`` mode, minus the opponent's shield value.
    """
    return (
        wound_penalty
        + positional_modifier(positional)
        + (ALL_OUT_ATTACK_BONUS if all_out_attack else 0)
        + shield_attack_penalty(own_shield, shield_mode=shield_mode)
        + size_modifier
        - shield_skill_penalty(opponent_shield, opponent_shield_rank, shield_mode=shield_mode)
    )


def melee_defence_modifier(
    *, wound_penalty: int = 0, positional: int = 0, size_modifier: int = 0
) -> int:
    """Total modifier to a melee defence roll (wounds, position, size comparison)."""
    return wound_penalty + positional_modifier(positional) + size_modifier


# --- hit locations (section 4, A-09, A-10) ---------------------------------------------


@dataclass(frozen=True, slots=True)
class Location:
    """A body part for a called shot: minimum relative degree and Target to hit it."""

    name: str
    min_rd: int
    target: int


LOCATIONS: dict[str, Location] = {
    "leg": Location("leg", 1, -2),
    "arm": Location("arm", 2, -1),
    "head": Location("head", 3, -1),
    "eye": Location("eye", 4, 2),
}
"""The SEED human location table (A-10 keeps Leg at RD 1)."""


def get_location(location: Location | str) -> Location:
    """A :class:`Location` from itself or a name in :data:`LOCATIONS`."""
    if isinstance(location, Location):
        return location
    try:
        return LOCATIONS[location]
    except KeyError:
        allowed = ", ".join(LOCATIONS)
        raise MeleeError(f"unknown location {location!r}; allowed: {allowed}") from None


@dataclass(frozen=True, slots=True)
class CalledShot:
    """The outcome of a called shot.

    Attributes:
        hit: the attack hit at all.
        location: the called location's name if it was hit, else ``None``.
        defender_names_location: the attack hit but not the called location, so the
            defender names what is hit (usually general body, the shield or an off-hand).
    """

    hit: bool
    location: str | None
    defender_names_location: bool


def called_shot(result: Opposed, location: Location | str) -> CalledShot:
    """Whether an announced called shot hit its location (section 4).

    It does if the attack hit, won by at least the location's minimum RD, and the
    rolled degree meets the location's Target.
    """
    loc = get_location(location)
    if not result.hit:
        return CalledShot(False, None, False)
    if result.rd >= loc.min_rd and result.attack_rolled >= loc.target:
        return CalledShot(True, loc.name, False)
    return CalledShot(True, None, True)


def location_severity(
    damage: int,
    rd: int,
    min_rd: int,
    scale_advantage: int,
    *,
    thresholds: tuple[int, int, int] = (1, 3, 7),
    cap_scale: int = 3,
) -> LocationState:
    """Damage state of a hit location from the normal damage number (A-09, PROPOSED).

    ``damage`` below ``thresholds[0]`` (default 1) does nothing; then Scratched, Hurt
    from ``thresholds[1]`` (3), Incapacitated from ``thresholds[2]`` (7). A hit winning by
    exactly the minimum RD is capped at Hurt unless the attacker's Scale advantage
    (attacker Scale - defender Scale) is at least ``cap_scale`` (options
    ``location.severity_thresholds``, ``location.minimum_margin_cap_scale``).

    >>> location_severity(8, 2, 2, 0), location_severity(8, 3, 2, 0)
    ('hurt', 'incapacitated')
    """
    level = (damage >= thresholds[0]) + (damage >= thresholds[1]) + (damage >= thresholds[2])
    if rd == min_rd and scale_advantage < cap_scale:
        level = min(level, 2)
    return LOCATION_STATES[level]


def location_penalty(state: str) -> int:
    """Modifier to using a damaged part: Hurt -1; Scratched and none 0.

    An Incapacitated part cannot be used at all; callers must check that state.
    """
    if state not in LOCATION_STATES:
        raise MeleeError(f"unknown location state {state!r}; allowed: {LOCATION_STATES}")
    return -1 if state == "hurt" else 0
