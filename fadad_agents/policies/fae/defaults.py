"""Fae Domains decisions: what to do with each action, how to defend, where to aim, how to fly.

``fae-domains.md`` sections 2-3, 6-7. Four decision kinds join the registry
(:data:`FAE_KINDS`), so scenarios pick them by name like every other policy::

    policies:
      fae_action: {name: archer, params: {aim: 3}}
      fae_defence: best
      fae_called_shot: {name: special, params: {shot: head}}
      fae_tactics: swoop

Policies read the actor through :class:`FaeView` (the Fae agent satisfies it) and keep
per-agent notes in ``actor.memory``; every built-in is stateless.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol, runtime_checkable

from fadad_agents.policies.core.policy_set import ALIASES, PolicySet, build_policy_set
from fadad_agents.policies.core.protocols import BattleView, CombatantView
from fadad_agents.policies.core.registry import REGISTRY

__all__ = [
    "FAE_DEFAULTS",
    "FAE_KINDS",
    "AimThenShoot",
    "BestDefence",
    "CalledShot",
    "ChargeIn",
    "FaeActionPolicy",
    "FaeCalledShotPolicy",
    "FaeDefencePolicy",
    "FaePolicySet",
    "FaeTacticsPolicy",
    "FaeView",
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

type FaeDefence = Literal["dodge", "block", "acrobatic_dodge", "none"]


class FaeView(CombatantView, Protocol):
    """What a Fae policy reads about a Fae combatant (the agent satisfies it)."""

    @property
    def margin(self) -> int:
        """Margin left this turn (the count at which it acts next)."""
        ...

    @property
    def ranged(self) -> bool:
        """The readied weapon is a missile or thrown weapon."""
        ...

    @property
    def reach(self) -> float:
        """Yards within which the readied weapon can hit (melee 2, missiles their range)."""
        ...

    @property
    def aim(self) -> int:
        """Aim bonus gathered so far."""
        ...

    @property
    def aim_limit(self) -> int:
        """Most aim bonus the readied weapon allows (half the skill)."""
        ...

    @property
    def walk_mr(self) -> int: ...
    @property
    def run_mr(self) -> int: ...
    @property
    def fly_mr(self) -> int | None: ...
    @property
    def altitude(self) -> int: ...
    @property
    def mounted(self) -> bool: ...
    @property
    def ran(self) -> bool:
        """Ran (or dived) this turn or the last: the next attack is a charge (3.3)."""
        ...

    def distance(self, other: CombatantView) -> float:
        """Yards to ``other`` (altitude included)."""
        ...

    def chance(self, use: str) -> int:
        """Modified chance of ``attack``, ``dodge``, ``block`` or ``acrobatics`` now."""
        ...


@runtime_checkable
class FaeActionPolicy(Protocol):
    """The next action at this count: an entry of ``rules.fae.ACTIONS`` (attack, take_aim,
    move, run, ready_weapon, break_hold, recover ...), or ``delay``/``wait``. Free actions
    come first, each followed by a new call: ``speak:<words>`` (5 syllables),
    ``gesture:<what>`` (needs a free hand), ``drop`` or ``drop:<item>`` (2.1). A mounted
    rider's move or run is an order to its mount (``agents.fae_mount``)."""

    def choose_action(self, actor: FaeView, target: FaeView | None, battle: BattleView) -> str: ...


@runtime_checkable
class FaeDefencePolicy(Protocol):
    """Spend a short action to dodge or block this attack, or take it."""

    def defend(self, actor: FaeView, attacker: CombatantView, battle: BattleView) -> FaeDefence: ...


@runtime_checkable
class FaeCalledShotPolicy(Protocol):
    """A called shot for this attack (``disarm``, ``item_break``, ``head``, ``limb``,
    ``chest``, ``abdomen``, ``nerve_center`` or ``plain``: +20 margin only), ``None`` for
    a normal attack; and whether to attack to stun."""

    def choose_shot(self, actor: FaeView, target: FaeView, battle: BattleView) -> str | None: ...
    def stun(self, actor: FaeView, target: FaeView, battle: BattleView) -> bool: ...


@runtime_checkable
class FaeTacticsPolicy(Protocol):
    """A free flight or mount action before the next action: ``fly``, ``climb``, ``dive``,
    ``glide``, ``command_mount`` or ``none`` (section 6)."""

    def manoeuvre(self, actor: FaeView, target: FaeView | None, battle: BattleView) -> str: ...


FAE_KINDS: dict[str, type] = {
    "fae_action": FaeActionPolicy,
    "fae_defence": FaeDefencePolicy,
    "fae_called_shot": FaeCalledShotPolicy,
    "fae_tactics": FaeTacticsPolicy,
}
"""The Fae decision kinds (added to the one policy registry)."""

REGISTRY.add_kinds(FAE_KINDS)


# --- actions ---------------------------------------------------------------------------


def _closing(actor: FaeView, gap: float) -> str:
    """Close a gap: the free walk if it covers it, else Move (short), else Run (full)."""
    if gap <= actor.walk_mr:
        return "walk"
    return "move" if gap <= 2 * actor.walk_mr else "run"


class MeleeFighter:
    """Close in (walk, move or run) and attack; with ``dual`` attack with two readied
    melee weapons at once (each skill halved, section 3.3)."""

    __slots__ = ("dual",)

    def __init__(self, dual: bool = False) -> None:
        self.dual = dual

    def choose_action(self, actor: FaeView, target: FaeView | None, battle: BattleView) -> str:
        if target is None:
            return "wait"
        gap = actor.distance(target) - actor.reach
        if gap <= 0:
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
    """Close in and seize a hold; then spend full actions keeping it (section 4)."""

    __slots__ = ()

    def choose_action(self, actor: FaeView, target: FaeView | None, battle: BattleView) -> str:
        if target is None:
            return "wait"
        gap = actor.distance(target) - actor.reach
        if gap > 0:
            step = _closing(actor, gap)
            return "move" if step == "walk" else step
        return "attack" if getattr(actor, "holding", None) is target else "hold"


class Passive:
    """Never act: wait out every count (a bystander, a prisoner, a test dummy)."""

    __slots__ = ()

    def choose_action(self, actor: FaeView, target: FaeView | None, battle: BattleView) -> str:
        return "wait"


# --- defence ---------------------------------------------------------------------------


class BestDefence:
    """Dodge or block, whichever has the higher chance; acrobatic dodge when asked and
    the Acrobatics chance is at least ``acrobatics_from``."""

    __slots__ = ("acrobatics_from",)

    def __init__(self, acrobatics_from: int = 1000) -> None:
        self.acrobatics_from = acrobatics_from

    def defend(self, actor: FaeView, attacker: CombatantView, battle: BattleView) -> FaeDefence:
        if actor.chance("acrobatics") >= self.acrobatics_from and actor.margin > 25:
            return "acrobatic_dodge"
        return "block" if actor.chance("block") > actor.chance("dodge") else "dodge"


class FixedDefence:
    """Always the same defence (``dodge``, ``block``, ``acrobatic_dodge`` or ``none``)."""

    __slots__ = ("choice",)

    def __init__(self, defence: str = "dodge") -> None:
        if defence not in ("dodge", "block", "acrobatic_dodge", "none"):
            raise ValueError("defence must be dodge, block, acrobatic_dodge or none")
        self.choice: FaeDefence = defence  # type: ignore[assignment]

    def defend(self, actor: FaeView, attacker: CombatantView, battle: BattleView) -> FaeDefence:
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
