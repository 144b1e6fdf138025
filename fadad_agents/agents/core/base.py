"""The agent base class, the side roster, and the arena protocol agents act through.

DESIGN.md (Agents and policies): agents hold state as plain slotted attributes and
delegate every decision to their :class:`~fadad_agents.policies.PolicySet`; every roll
goes through the rules kernel. Agents never import the engine: they act on an
:class:`Arena` (the battle, structurally) that logs, times and takes fighters out.

Later agent kinds (WeaponTeam, Ship) subclass :class:`Combatant` and implement
:meth:`Combatant.declare` and :meth:`Combatant.act` (and the melee face if they can be
struck: :attr:`Combatant.fighter`, :meth:`Combatant.use_defence`,
:meth:`Combatant.absorb`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from enum import StrEnum
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

import mesa

from fadad_agents.policies.core.defaults import NoMorale
from fadad_agents.policies.core.policy_set import PolicySet
from fadad_agents.policies.core.protocols import MoraleChoice
from fadad_agents.rules.options import RulesOptions
from fadad_agents.rules.personal.combat import NO_PROTECTION

if TYPE_CHECKING:
    from fadad_agents.policies.core.protocols import CombatantView

__all__ = ["Arena", "Band", "Combatant", "SideRoster", "Status"]


class Status(StrEnum):
    """Where a combatant stands in the battle."""

    FIGHTING = "fighting"
    OUT = "out"  # taken out by wounds or losses
    WITHDRAWN = "withdrawn"
    ROUTED = "routed"  # a group whose morale broke and withdrew
    SURRENDERED = "surrendered"


class SideRoster:
    """One side's members with an O(1) live list of those still fighting.

    ``active`` is swap-removed (order changes deterministically); ``strength`` is the
    head count still fighting, kept incrementally.
    """

    __slots__ = (
        "_slot",
        "_start_slot",
        "active",
        "downed",
        "index",
        "initial_strength",
        "members",
        "name",
        "routed",
        "strength",
    )

    def __init__(self, index: int, name: str) -> None:
        self.index = index
        self.name = name
        self.members: list[Combatant] = []
        self.active: list[Combatant] = []
        self.downed: list[Combatant] = []
        self._slot: dict[int, int] = {}
        self._start_slot: dict[int, int] = {}  # _slot with every member fighting (restart)
        self.initial_strength = 0
        self.strength = 0
        self.routed = 0  # heads withdrawn or routed, kept by the battle

    def add(self, member: Combatant) -> None:
        """Enlist a member (at set-up)."""
        self._start_slot[id(member)] = len(self.members)  # its slot when all fight
        self.members.append(member)
        self._slot[id(member)] = len(self.active)
        self.active.append(member)
        self.initial_strength += member.headcount
        self.strength += member.headcount

    def restart(self) -> None:
        """Every member fighting again, in set-up order (:meth:`Battle.reset`)."""
        self.active = self.members.copy()
        self._slot = self._start_slot.copy()
        self.downed = []
        self.strength = self.initial_strength
        self.routed = 0

    def deactivate(self, member: Combatant) -> None:
        """Drop a member from the live list in O(1) (swap with the last)."""
        slot = self._slot.pop(id(member))
        last = self.active.pop()
        if last is not member:
            self.active[slot] = last
            self._slot[id(last)] = slot

    @property
    def fraction(self) -> float:
        """Share of the starting head count still fighting."""
        return self.strength / self.initial_strength if self.initial_strength else 0.0

    def count(self, status: Status) -> int:
        """Head count of members in ``status`` (members' starting heads for groups)."""
        return sum(m.initial_headcount for m in self.members if m.status is status)


class Band:
    """Fighters who act as one NPC group: one initiative roll, one morale check.

    A scenario entry with ``count: N`` becomes N characters in one band; every other
    agent is a band of one. A band reads as a combatant view for morale policies.
    """

    __slots__ = ("_looked", "_single", "members", "memory", "name", "side")

    def __init__(self, name: str, side: int) -> None:
        self.name = name
        self.side = side
        self.members: list[Combatant] = []
        self.memory: dict[str, Any] = {}
        self._looked, self._single = -1, False  # members looked over, and all single then

    def _all_single(self) -> bool:
        """Whether every member is one fighter (one head at the start, one while it
        fights: :class:`Combatant`'s own head counts, no group's), looked over again only
        once members were added (at set-up): a band's morale check reads its heads every
        round."""
        members = self.members
        if self._looked != len(members):
            self._single = all(
                type(m).headcount is _HEADCOUNT and type(m).initial_headcount is _INITIAL
                for m in members
            )
            self._looked = len(members)
        return self._single

    def lead(self) -> Combatant | None:
        """The first member still fighting (rolls and checks for the band)."""
        for m in self.members:
            if m.status is Status.FIGHTING:
                return m
        return None

    @property
    def fighting(self) -> bool:
        """Someone in the band still fights."""
        return self.lead() is not None

    @property
    def headcount(self) -> int:
        """Heads still fighting."""
        if self._all_single():  # one head each while fighting: no property call each
            return [m.status is _FIGHTING for m in self.members].count(True)
        return sum(m.headcount for m in self.members)

    @property
    def initial_headcount(self) -> int:
        """Heads at the start."""
        if self._all_single():
            return len(self.members)
        return sum(m.initial_headcount for m in self.members)

    @property
    def wound(self) -> int:
        """The worst wound among those still fighting."""
        return max((m.wound for m in self.members if m.fighting), default=0)

    @property
    def target(self) -> Combatant | None:
        """A band has no single target."""
        return None


class Arena(Protocol):
    """What agents need from the battle they fight in (the engine implements it)."""

    options: RulesOptions
    combat_rules: Any
    round: int
    morale_rng: random.Random
    field: Any
    """The personal battle's :class:`~fadad_agents.agents.core.field.Field`, or None."""

    def foes(self, side: int) -> Sequence[CombatantView]: ...
    def foes_in_reach(
        self, actor: Any, *, nearest_next: bool = True
    ) -> Sequence[CombatantView]: ...
    def nearest_foe(self, actor: Any, *, room: bool = False) -> Any: ...
    def engage_point(self, actor: Any, target: Any) -> tuple[float, float] | None: ...
    def friends(self, side: int) -> Sequence[CombatantView]: ...
    def side_fraction(self, side: int) -> float: ...
    def downed(self, side: int) -> Sequence[CombatantView]: ...
    def record(
        self,
        actor: str,
        action: str,
        target: str | None,
        dice: tuple[tuple[str, Any], ...],
        modifiers: tuple[tuple[str, Any], ...],
        outcome: tuple[tuple[str, Any], ...],
    ) -> None: ...
    def defer(self, make: Any, args: tuple[Any, ...]) -> None:
        """Record an event now whose (actor, action, target, dice, modifiers, outcome)
        ``make(*args)`` returns when the log is read (pure ``make``, immutable ``args``)."""
        ...

    def casualties(self, member: Combatant, lost: int) -> int: ...
    def take_out(self, member: Combatant, reason: str) -> None: ...
    def leave(self, member: Combatant, choice: MoraleChoice, reason: str) -> None: ...
    def start_action(self, member: Combatant, name: str, seconds: int, on_done: Any) -> None:
        """Start a durative action; ``on_done()`` runs unless the member is interrupted."""
        ...


class Combatant(mesa.Agent):  # type: ignore[misc]
    """Base of every fighting agent: side, status, policies, streams, processes."""

    kind: ClassVar[str] = "combatant"
    verb: str = "attack"
    """How its attacks read in the narration (characters: swing, punch, shot)."""
    defence_verb: str = "defence"
    """How its defences read (characters: parry, block, dodge)."""
    protection: Any = NO_PROTECTION
    """How a blow on it is recorded beyond the options: player characters are protected
    by the ``pc_death`` options (C-13), every other combatant is not."""
    engaged: list[Combatant] | None = None
    """Melee attackers this round; None: room for everyone (a group is many bodies).
    Characters keep a list (``agents.core.moving.admit``)."""
    engaged_round: int = -1
    """The round ``engaged`` counts."""
    roomy: bool | None = True
    """Every attacker finds a place round it, all battle long: none is counted
    (``agents.core.moving.never_crowded``; characters find out on their first blow)."""
    gait: str | None = None
    """How fast it moved this round (walk, jog, run), for the moving-target bonus."""
    all_out: bool = False
    """Attacking all out this round (+1 to hit); characters only."""
    size_value: int | None = None
    """Weapon + shield value for the FUDGE size comparison; None: not compared."""
    radius: float = 0.5
    """Yards from its centre to the edge of the space it takes (characters: by Scale)."""
    start_bearing: float | None = None
    """Characters: the direction faced at the start (radians); None: not on a field."""
    aim: Any = None
    """How it means its blows this round (characters: ``agents.core.aims``); None: plain."""
    plain: bool | None
    """Its declare and act are played on the plain melee path
    (:mod:`~fadad_agents.agents.core.plain.round`); characters only, found once a battle
    (None until then), else False. An instance attribute with no class default: CPython
    3.12 caches no look-up of an instance attribute that shadows a class one, and the
    round reads this one for every fighter."""
    spirit: Any = None
    """Characters in spirit combat: their :class:`~fadad_agents.agents.core.spirit.Spirit`
    figures (personal-combat.md 8); None: none."""

    __slots__ = (
        "attacks_planned",
        "band",
        "checks_morale",
        "defences_left",
        "fighting",
        "index",
        "memory",
        "name",
        "placed",
        "policies",
        "position",
        "processes",
        "reaction",
        "rng",
        "side",
        "start_position",
        "status",
        "target",
        "targeting_rng",
    )

    def __init__(
        self,
        model: mesa.Model,
        *,
        name: str,
        side: int,
        index: int,
        policies: PolicySet,
        rng: random.Random,
        targeting_rng: random.Random,
        reaction: int = 0,
        band: Band | None = None,
    ) -> None:
        super().__init__(model)
        object.__setattr__(self, "plain", False)  # a dict entry, as Character.mark_plain
        self.name = name
        self.side = side
        self.index = index
        self.policies = policies
        # End-of-round morale work is skipped for those who never check (NoMorale).
        self.checks_morale = not isinstance(policies.morale, NoMorale)
        self.reaction = reaction
        self.band = band if band is not None else Band(name, side)
        self.band.members.append(self)
        self.start_position: tuple[float, float] | None = None
        self.position: tuple[float, float] | None = None
        self.placed = False  # on the field of a personal battle (engine.core.space)
        self.restart(rng, targeting_rng)

    def restart(self, rng: random.Random, targeting_rng: random.Random) -> None:
        """Back to the state the combatant starts a battle in, drawing on new streams
        (set-up, and :meth:`~fadad_agents.engine.core.battle.Battle.reset`)."""
        self.rng = rng
        self.targeting_rng = targeting_rng
        self.status = Status.FIGHTING
        self.fighting = True  # still in the fight: status is FIGHTING (read by every policy)
        self.target: Combatant | None = None
        self.position = self.start_position
        self.memory: dict[str, Any] = {}
        self.processes: list[Any] = []
        self.attacks_planned = 0
        self.defences_left = 0

    # --- the read-only view policies see ------------------------------------------------

    @property
    def wound(self) -> int:
        """Current wound level (``rules.wounds.Wound`` as int)."""
        return 0

    @property
    def headcount(self) -> int:
        """Members still standing (1 or 0 for an individual)."""
        return 1 if self.status is Status.FIGHTING else 0

    @property
    def initial_headcount(self) -> int:
        """Members at the start."""
        return 1

    @property
    def penalty(self) -> int:
        """Wound penalty on every roll."""
        return 0

    # --- the round ------------------------------------------------------------------

    def declare(self, arena: Arena) -> None:
        """Plan the round (personal-combat.md 1.2 step 1): leave, aid, target, stance."""
        raise NotImplementedError

    def act(self, arena: Arena) -> None:
        """Carry out the plan on this combatant's turn in the order of action."""
        raise NotImplementedError

    def end_round(self, arena: Arena) -> None:
        """End-of-round bookkeeping (morale checks for groups)."""

    def hold_turn(self) -> None:
        """A simultaneous turn begins (personal-combat.md 1.2): until :meth:`release_turn`
        the combatant acts, and is struck, as it stood now."""

    def release_turn(self, arena: Arena) -> None:
        """The simultaneous turn is over: what struck the combatant during it applies."""

    # --- being attacked ---------------------------------------------------------------

    def use_defence(self) -> bool:
        """Spend a defence action if one is left; False means the attack meets Target only."""
        if self.defences_left > 0:
            self.defences_left -= 1
            return True
        return False

    def leave_fight(self, status: Status) -> None:
        """Mark the combatant as out of the fight and end its processes."""
        self.status = status
        self.fighting = False
        self.target = None
        for proc in self.processes:
            if proc.is_alive:
                proc.interrupt(status.value)
        self.processes.clear()


_FIGHTING = Status.FIGHTING
_HEADCOUNT, _INITIAL = Combatant.headcount, Combatant.initial_headcount
"""A single fighter's head counts (:meth:`Band._all_single`)."""
