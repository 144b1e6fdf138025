"""Fae Domains decisions: what to do with each action, how to defend, where to aim, how to fly.

``fae-domains.md`` sections 2-3, 6-7. Four decision kinds join the registry
(:data:`FAE_KINDS`), so scenarios pick them by name like every other policy::

    policies:
      fae_action: {name: archer, params: {aim: 3}}
      fae_defence: best
      fae_called_shot: {name: special, params: {shot: head}}
      fae_tactics: swoop

Policies read the actor through :class:`~fadad_agents.policies.fae.protocols.FaeView` (the
Fae agent satisfies it) and keep per-agent notes in ``actor.memory``; every built-in is
stateless. The decision protocols live in :mod:`fadad_agents.policies.fae.protocols`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from fadad_agents.policies.core.policy_set import ALIASES, PolicySet, build_policy_set
from fadad_agents.policies.core.protocols import BattleView, CombatantView
from fadad_agents.policies.core.registry import REGISTRY
from fadad_agents.policies.fae.protocols import (
    FAE_KINDS,
    FaeActionPolicy,
    FaeCalledShotPolicy,
    FaeDefence,
    FaeDefencePolicy,
    FaeTacticsPolicy,
    FaeView,
)
from fadad_agents.rules.fae.checks import SHORT_COST
from fadad_agents.rules.fae.defence import acrobatic_dodge_outcomes, dodge_outcomes, margin_left

__all__ = [
    "FAE_DEFAULTS",
    "FAE_KINDS",
    "AimThenShoot",
    "BestDefence",
    "CalledShot",
    "ChargeIn",
    "FaePolicySet",
    "FixedDefence",
    "GroundTactics",
    "LancerTactics",
    "MeleeFighter",
    "NoCalledShot",
    "Passive",
    "SwoopTactics",
    "Wrestler",
    "build_fae_policy_set",
]

REGISTRY.add_kinds(FAE_KINDS)


# --- actions ---------------------------------------------------------------------------


def _closing(actor: FaeView, gap: float) -> str:
    """Close a gap: the free walk if it covers it and is left this turn, else Move (short,
    not in a turn with the walk), else Run (full)."""
    if gap <= actor.walk_mr and getattr(actor, "may_walk", True):
        return "walk"
    if gap <= 2 * actor.walk_mr and getattr(actor, "may_move", True):
        return "move"
    return "run"


def _blow_worth(actor: FaeView, weapon: Any) -> int:
    """A blow's worth with ``weapon``: its chance squared times its base damage (the
    expected damage of a d100 test by margin, up to a constant factor)."""
    chance = max(0, actor.weapon_chance(weapon))
    return chance * chance * int(weapon.damage_base)


def _best_melee(actor: FaeView, weapons: list[Any]) -> Any:
    """The melee weapon of ``weapons`` worth most blow for blow, or None."""
    return max(
        (w for w in weapons if not w.ranged), key=lambda w: _blow_worth(actor, w), default=None
    )


def _better_weapon(actor: FaeView) -> Any:
    """A carried melee weapon worth more blow for blow than the one in hand, or None."""
    ready = actor.weapon
    best = _best_melee(actor, [w for w in actor.weapons[1:] if w is not ready])
    if best is None or _blow_worth(actor, best) <= _blow_worth(actor, ready):
        return None
    return best


class MeleeFighter:
    """Close in (walk, move or run) and attack; with ``dual`` attack with two readied
    melee weapons at once (each skill halved, section 3.3). With ``switch``, once in reach
    and with no charge to deliver, drop the weapon in hand (a free action) and ready a
    carried one that is worth more blow for blow (a short action): the lance after the
    charge, a bow in a melee."""

    __slots__ = ("dual", "switch")

    def __init__(self, dual: bool = False, switch: bool = True) -> None:
        self.dual = dual
        self.switch = switch

    def choose_action(self, actor: FaeView, target: FaeView | None, battle: BattleView) -> str:
        if target is None:
            return "wait"
        gap = actor.distance(target) - actor.reach
        hands = getattr(actor, "hands", None)
        if self.switch and hands is not None and hands.ready is None and hands.unready:
            best = _best_melee(actor, actor.weapons)  # dropped the old one: draw the best
            return f"ready_weapon:{best.name}" if best is not None else "ready_weapon"
        if gap <= 0:
            if self.switch and not self.dual and not actor.ran and _better_weapon(actor):
                return "drop"
            return "attack"
        step = _closing(actor, gap)
        return "attack_after_walk" if step == "walk" else step


class ChargeIn:
    """Run at the foe when not in reach (the next attack is a charge), then attack."""

    __slots__ = ()

    def choose_action(self, actor: FaeView, target: FaeView | None, battle: BattleView) -> str:
        if target is None:
            return "wait"
        if actor.distance(target) <= actor.reach:
            return "attack"
        return "run"


class AimThenShoot:
    """Take aim up to ``aim`` times (never past the weapon's cap), then shoot; close in
    if too far; with ``kneel``, kneel first (+5% with missiles, 3.1)."""

    __slots__ = ("aims", "kneel")

    def __init__(self, aim: int = 2, kneel: bool = False) -> None:
        if aim < 0:
            raise ValueError("aim must be 0 or more aim actions")
        self.aims = aim
        self.kneel = kneel

    def choose_action(self, actor: FaeView, target: FaeView | None, battle: BattleView) -> str:
        if target is None:
            return "wait"
        gap = actor.distance(target) - actor.reach
        if gap > 0:
            step = _closing(actor, gap)
            return "attack_after_walk" if step == "walk" else step
        if self.kneel and not getattr(actor, "kneeling", False) and actor.ranged:
            return "kneel"
        if actor.aim < min(5 * self.aims, actor.aim_limit):
            return "take_aim"
        return "attack"


class Wrestler:
    """Close in and seize a ``hold`` (``basic``, ``limb`` or ``submission``; a limb hold on
    ``limb``, the weapon ``arm`` or a ``leg``), then spend full actions squeezing it;
    caught in a hold itself, break free (section 4)."""

    __slots__ = ("choice",)

    def __init__(self, hold: str = "basic", limb: str = "arm") -> None:
        if hold not in ("basic", "limb", "submission"):
            raise ValueError("hold must be basic, limb or submission")
        if limb not in ("arm", "leg"):
            raise ValueError("limb must be arm or leg")
        self.choice = "hold" if hold == "basic" else f"hold:{hold}"
        if hold == "limb":
            self.choice += f":{limb}"

    def choose_action(self, actor: FaeView, target: FaeView | None, battle: BattleView) -> str:
        if target is None:
            return "wait"
        if getattr(actor, "held_by", None) is not None:
            return "break_hold"
        gap = actor.distance(target) - actor.reach
        if gap > 0:
            step = _closing(actor, gap)
            return "move" if step == "walk" else step  # the free walk would end in a blow
        return "attack" if getattr(actor, "holding", None) is target else self.choice


class Passive:
    """Never act: wait out every count (a bystander, a prisoner, a test dummy)."""

    __slots__ = ()

    def choose_action(self, actor: FaeView, target: FaeView | None, battle: BattleView) -> str:
        return "wait"


# --- defence ---------------------------------------------------------------------------


class BestDefence:
    """Dodge or block, whichever has the higher chance; with ``acrobatic`` an acrobatic
    dodge instead of the dodge when it pays: when it costs no action a dodge would have
    left (25 or less of the margin remains, so either ends the turn's actions) and its
    exact odds (``rules.fae.defence``) leave less of this blow's margin than a dodge's."""

    __slots__ = ("acrobatic",)

    def __init__(self, acrobatic: bool = True) -> None:
        self.acrobatic = acrobatic

    def defend(
        self, actor: FaeView, attacker: CombatantView, battle: BattleView, margin: int
    ) -> FaeDefence:
        if actor.chance("block") > actor.chance("dodge"):
            return "block"
        if self.acrobatic and actor.margin <= SHORT_COST and _acrobatics_pay(actor, margin):
            return "acrobatic_dodge"
        return "dodge"


def _acrobatics_pay(actor: FaeView, margin: int) -> bool:
    """An acrobatic dodge leaves less of the blow's margin, on average, than a dodge."""
    opts = getattr(actor, "opts", None)
    dodge = actor.chance("dodge")
    acro = acrobatic_dodge_outcomes(dodge, actor.chance("acrobatics"), opts)
    return margin_left(margin, acro) < margin_left(margin, dodge_outcomes(dodge, opts))


class FixedDefence:
    """Always the same defence (``dodge``, ``block``, ``acrobatic_dodge`` or ``none``)."""

    __slots__ = ("choice",)

    def __init__(self, defence: str = "dodge") -> None:
        if defence not in ("dodge", "block", "acrobatic_dodge", "none"):
            raise ValueError("defence must be dodge, block, acrobatic_dodge or none")
        self.choice: FaeDefence = defence  # type: ignore[assignment]

    def defend(
        self, actor: FaeView, attacker: CombatantView, battle: BattleView, margin: int
    ) -> FaeDefence:
        return self.choice


def _no_defence() -> FixedDefence:
    """Never spend an action defending (all-out attack)."""
    return FixedDefence("none")


def _dodge() -> FixedDefence:
    """Always dodge."""
    return FixedDefence("dodge")


def _block() -> FixedDefence:
    """Always block or parry."""
    return FixedDefence("block")


# --- called shots ------------------------------------------------------------------------

SHOTS = ("disarm", "item_break", "head", "limb", "chest", "abdomen", "nerve_center", "plain")


class NoCalledShot:
    """Plain attacks; wounding, or stunning when ``stun`` is set."""

    __slots__ = ("stunning",)

    def __init__(self, stun: bool = False) -> None:
        self.stunning = stun

    def choose_shot(self, actor: FaeView, target: FaeView, battle: BattleView) -> str | None:
        return None

    def stun(self, actor: FaeView, target: FaeView, battle: BattleView) -> bool:
        return self.stunning


class CalledShot:
    """Call ``shot`` whenever the attack chance after the -20% is still at least
    ``min_chance``; else a plain attack. A ``limb`` shot aims at ``limb``: ``arm`` (the
    weapon arm) or ``leg``."""

    __slots__ = ("limb", "min_chance", "shot", "stunning")

    def __init__(
        self, shot: str = "head", min_chance: int = 40, stun: bool = False, limb: str = "arm"
    ) -> None:
        if shot not in SHOTS:
            raise ValueError(f"shot must be one of {', '.join(SHOTS)}")
        if limb not in ("arm", "leg"):
            raise ValueError("limb must be arm or leg")
        self.shot, self.min_chance, self.stunning, self.limb = shot, min_chance, stun, limb

    def choose_shot(self, actor: FaeView, target: FaeView, battle: BattleView) -> str | None:
        return self.shot if actor.chance("attack") - 20 >= self.min_chance else None

    def stun(self, actor: FaeView, target: FaeView, battle: BattleView) -> bool:
        return self.stunning


# --- aerial and mounted tactics -------------------------------------------------------------


class GroundTactics:
    """No flight or mount manoeuvres (flyers glide at the end of the turn)."""

    __slots__ = ()

    def manoeuvre(self, actor: FaeView, target: FaeView | None, battle: BattleView) -> str:
        return "none"


class SwoopTactics:
    """Flyers: climb to ``altitude`` yards when far, then dive onto the target (a swoop
    is a charge); fly level when the foe is out of reach."""

    __slots__ = ("height",)

    def __init__(self, altitude: int = 10) -> None:
        if altitude < 1:
            raise ValueError("altitude must be at least 1 yard")
        self.height = altitude

    def manoeuvre(self, actor: FaeView, target: FaeView | None, battle: BattleView) -> str:
        if actor.fly_mr is None or target is None:
            return "none"
        if actor.altitude > target.altitude + 1 and actor.distance(target) <= actor.fly_mr:
            return "dive"
        if actor.altitude < self.height and actor.distance(target) > actor.fly_mr:
            return "climb"
        return "fly" if actor.distance(target) > actor.reach else "none"


class LancerTactics:
    """Riders: command the mount to charge while the foe is beyond reach."""

    __slots__ = ()

    def manoeuvre(self, actor: FaeView, target: FaeView | None, battle: BattleView) -> str:
        if not actor.mounted or target is None:
            return "none"
        return "command_mount" if actor.distance(target) > actor.reach else "none"


_BUILTINS: tuple[tuple[str, str, Any], ...] = (
    ("fae_action", "fighter", MeleeFighter),
    ("fae_action", "charger", ChargeIn),
    ("fae_action", "archer", AimThenShoot),
    ("fae_action", "wrestler", Wrestler),
    ("fae_action", "passive", Passive),
    ("fae_defence", "best", BestDefence),
    ("fae_defence", "fixed", FixedDefence),
    ("fae_defence", "dodge", _dodge),
    ("fae_defence", "block", _block),
    ("fae_defence", "none", _no_defence),
    ("fae_called_shot", "none", NoCalledShot),
    ("fae_called_shot", "special", CalledShot),
    ("fae_tactics", "ground", GroundTactics),
    ("fae_tactics", "swoop", SwoopTactics),
    ("fae_tactics", "lancer", LancerTactics),
)
for _kind, _name, _factory in _BUILTINS:
    REGISTRY.register(_kind, _name, _factory, replace=True, stateless=True)

FAE_DEFAULTS: dict[str, str] = {
    "fae_action": "fighter",
    "fae_defence": "best",
    "fae_called_shot": "none",
    "fae_tactics": "ground",
}
"""Defaults of the Fae decisions."""


@dataclass(frozen=True, slots=True)
class FaePolicySet:
    """The shared decisions (targeting, retreat, morale ...) and the four Fae ones."""

    base: PolicySet
    action: FaeActionPolicy
    defence: FaeDefencePolicy
    called_shot: FaeCalledShotPolicy
    tactics: FaeTacticsPolicy


def build_fae_policy_set(
    layers: Sequence[tuple[str, Mapping[str, Any]]],
    defaults: Mapping[str, str],
    *,
    ignore: frozenset[str] = frozenset(),
) -> FaePolicySet:
    """Merge policy layers (later wins) and build the shared set plus the Fae decisions.

    Raises:
        PolicyError: an unknown decision or policy, or bad params (names the field).
    """
    shared: list[tuple[str, Mapping[str, Any]]] = []
    chosen: dict[str, tuple[str, str, Mapping[str, Any]]] = {
        k: (f"defaults.{k}", n, {}) for k, n in FAE_DEFAULTS.items()
    }
    for path, mapping in layers:
        plain = {}
        for key, value in mapping.items():
            kind = ALIASES.get(key, key)
            if kind in FAE_KINDS:
                name = value if isinstance(value, str) else getattr(value, "name", None)
                params = {} if isinstance(value, str) else dict(getattr(value, "params", {}))
                if isinstance(value, Mapping):
                    name, params = value.get("name"), dict(value.get("params") or {})
                chosen[kind] = (f"{path}.{key}", str(name), params)
            else:
                plain[key] = value
        shared.append((path, plain))
    base = build_policy_set(shared, defaults, ignore=ignore)
    built = {k: REGISTRY.create(k, n, p, field=f) for k, (f, n, p) in chosen.items()}
    return FaePolicySet(
        base,
        built["fae_action"],
        built["fae_defence"],
        built["fae_called_shot"],
        built["fae_tactics"],
    )
