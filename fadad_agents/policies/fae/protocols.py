"""The Fae Domains decisions as protocols, and the view of a Fae combatant they read.

``fae-domains.md`` sections 2-3, 6-7: what to do at a count, how to meet a blow, where to
aim, how to fly or ride. :data:`FAE_KINDS` names them for the policy registry; the
built-ins are in :mod:`fadad_agents.policies.fae.defaults`.
"""

from __future__ import annotations

from typing import Any, Literal, Protocol, runtime_checkable

from fadad_agents.policies.core.protocols import BattleView, CombatantView

__all__ = [
    "FAE_KINDS",
    "FaeActionPolicy",
    "FaeCalledShotPolicy",
    "FaeDefence",
    "FaeDefencePolicy",
    "FaeTacticsPolicy",
    "FaeView",
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

    @property
    def may_walk(self) -> bool:
        """The free walk is left this turn (taken once, never with a Move)."""
        ...

    @property
    def may_move(self) -> bool:
        """A Move is allowed this turn (not with the free walk)."""
        ...

    @property
    def weapon(self) -> Any:
        """The weapon it strikes with now (fists when none is in hand)."""
        ...

    @property
    def weapons(self) -> list[Any]:
        """Every weapon it carries, the readied one first."""
        ...

    def weapon_chance(self, weapon: Any) -> int:
        """Its chance with ``weapon`` held as if readied (size and grip, before the rest)."""
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
    """Spend a short action to dodge or block this blow, the next full action on an
    acrobatic dodge, or take it. ``margin`` is the attack margin of the blow, which hit:
    the defence is chosen knowing it, as the dodge is rolled after the attack (2.2)."""

    def defend(
        self, actor: FaeView, attacker: CombatantView, battle: BattleView, margin: int
    ) -> FaeDefence: ...


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
