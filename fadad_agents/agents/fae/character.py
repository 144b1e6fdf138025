"""FaeCharacter: a Fae Domains combatant acting at margin-derived times inside 10-s turns.

``fae-domains.md`` sections 2-8. The engine's turn driver calls :meth:`reaction_test`
at the start of each turn and :func:`fadad_agents.agents.fae.actions.take_action` each
time the count reaches this combatant's margin (``rules.fae.action_offset``); every
action spends its cost from :attr:`margin`. Decisions go to the Fae policies
(``policies.fae``): what to do at this count, how to defend, which called shot, which
flight or mount manoeuvre. Attacks, defences and their effects live in
:mod:`fadad_agents.agents.fae.combat`; a rider's mount is an agent of its own
(:mod:`fadad_agents.agents.fae.mount`) sharing its place.

Against FADAD fighters (mixed scenes) the agent also shows the kernel's melee face
(:attr:`fighter`, :meth:`use_defence`, :meth:`melee_track`, :meth:`absorb`) through the
bridges of :mod:`fadad_agents.agents.fae.bridge`.
"""

from __future__ import annotations

import math
import random
from fractions import Fraction
from typing import Any

import mesa

from fadad_agents.agents.core.base import Arena, Band, Combatant
from fadad_agents.agents.fae.arena import FaeArena
from fadad_agents.agents.fae.bridge import FadadFace
from fadad_agents.agents.fae.hands import Hands
from fadad_agents.policies.core.protocols import MoraleChoice
from fadad_agents.policies.fae.defaults import FaePolicySet
from fadad_agents.rules.core.wounds import Wound
from fadad_agents.rules.fae.arcs import heading_from_degrees, unit
from fadad_agents.rules.fae.attack import (
    AttackSituation,
    FaeHealth,
    aim_cap,
    apply_damage,
    attack_modifier,
)
from fadad_agents.rules.fae.checks import (
    FaeError,
    action_cost,
    modified_chance,
    reaction_margin,
    resolve_check,
)
from fadad_agents.rules.fae.options import FaeOptions
from fadad_agents.rules.fae.special import (
    FlightState,
    held_move_rate,
    two_handed_grip,
    underwater_dodge_skill,
)
from fadad_agents.schema.fae import FaeCharacter as FaeStats
from fadad_agents.schema.fae import FaeGear

__all__ = ["FIST", "FaeCharacter", "position_xy"]

FIST = FaeGear(item="weapon", name="Fists", skill="Unarmed", base_damage=20, damage_kind="blunt")
"""The unarmed fallback when no weapon is in hand (ORIGINAL base damage)."""


class FaeCharacter(FadadFace, Combatant):
    """A Fae Domains fighter (percentile tests, margins, Wounds and Fatigue)."""

    kind = "fae"

    __slots__ = (
        "_xy",
        "aim",
        "armour_dr",
        "charging",
        "effects",
        "fae_policies",
        "fleeing",
        "flew",
        "flight",
        "free_used",
        "hands",
        "heading",
        "health",
        "held_by",
        "hold_kind",
        "hold_limb",
        "holding",
        "kneeling",
        "margin",
        "mount",
        "moved",
        "opts",
        "owed",
        "prone",
        "ran_turn",
        "shield_dr",
        "spent",
        "stats",
        "walked",
    )

    def __init__(
        self,
        model: mesa.Model,
        *,
        name: str,
        side: int,
        index: int,
        policies: FaePolicySet,
        rng: random.Random,
        targeting_rng: random.Random,
        stats: FaeStats,
        options: FaeOptions,
        band: Band | None = None,
    ) -> None:
        super().__init__(
            model,
            name=name,
            side=side,
            index=index,
            policies=policies.base,
            rng=rng,
            targeting_rng=targeting_rng,
            reaction=stats.attributes.reaction,
            band=band,
        )
        self.fae_policies = policies
        self.stats = stats
        self.opts = options
        self.health = FaeHealth(stats.wound_points, stats.fatigue_points)
        self.hands = Hands(stats.weapons)
        self.armour_dr = stats.armour.dr if stats.armour else 0
        self.shield_dr = stats.shield.dr if stats.shield else 0
        self.margin: int | None = 0
        self.spent = False
        self.owed = 0
        self.aim = 0
        self.ran_turn = -9
        self.charging = False  # its next action may be a charge (3.3): it has just run
        self.fleeing = False  # withdrawing, pursued (section 5)
        self.walked = self.moved = -1  # the turns it last took the free walk, or a Move
        self.free_used = 0  # free actions taken at this count
        self.prone = False
        self.kneeling = False
        self.effects: dict[str, Any] = {}
        self.holding: FaeCharacter | None = None
        self.held_by: FaeCharacter | None = None
        self.hold_kind = ""  # the hold it is in (section 4): basic, limb or submission
        self.hold_limb: str | None = None
        self.flight = FlightState(stats.altitude)
        self.flew = False
        self.mount: FaeCharacter | None = None  # the mount's own agent (agents.fae_mount)
        pos = stats.position
        self._xy: tuple[float, float] = (
            (0.0, 0.0) if pos is None else (float(pos[0]), float(pos[1]))
        )
        self.position = pos
        self.heading: tuple[float, float] | None = (
            None if stats.facing is None else heading_from_degrees(stats.facing)
        )
        """The way it faces (a horizontal unit vector); None until the battle starts."""

    # --- place: a rider and its mount move as one ------------------------------------

    @property
    def xy(self) -> tuple[float, float]:
        """Yards (x, y) on open ground; setting it carries the rider or mount along."""
        return self._xy

    @xy.setter
    def xy(self, value: tuple[float, float]) -> None:
        self._xy = value
        partner = self.partner
        if partner is not None:
            partner._xy = value
            partner.position = (round(value[0]), round(value[1]))

    @property
    def partner(self) -> FaeCharacter | None:
        """The mount this rider sits on (a mount's agent answers with its rider)."""
        return self.mount

    def turn(self, dx: float, dy: float) -> None:
        """Face along (dx, dy) (no direction: no change); a rider and mount face as one."""
        way = unit(dx, dy)
        if way is None:
            return
        self.heading = way
        if self.partner is not None:
            self.partner.heading = way

    def face(self, other: Any) -> None:
        """Turn to face ``other`` (PROPOSED: free, whenever one acts against a foe)."""
        ox, oy = getattr(other, "xy", None) or position_xy(other)
        self.turn(ox - self.xy[0], oy - self.xy[1])

    # --- the view policies read ------------------------------------------------------

    @property
    def wound(self) -> int:
        """Wounds as a ladder-like level for shared policies and dashboards (PROPOSED):
        up to 1/4 of WP Scratch, 1/2 Hurt, more Very Hurt; unconscious Incapacitated."""
        h = self.health
        if h.dead:
            return int(Wound.DEAD)
        if h.unconscious:
            return int(Wound.INCAPACITATED)
        if h.wounds <= 0:
            return 0
        share = Fraction(h.wounds, h.wound_points)
        return 1 if share <= Fraction(1, 4) else 2 if share <= Fraction(1, 2) else 3

    @property
    def track(self) -> FaeHealth:
        """Wounds and Fatigue (``.dead`` is read by results as a wound track's is)."""
        return self.health

    @property
    def weapon(self) -> FaeGear:
        """The readied weapon (fists when none is in hand).

        With the weapon arm useless (section 7 limb shot) the other hand fights: the next
        one-handed weapon if any, else the fist (attacks count as offhand, PROPOSED).
        """
        ready = self.hands.ready
        if ready is not None and self.limb_useless("arm"):
            spare = [w for w in self.hands.weapons[1:] if w.hands == 1 and not w.ranged]
            return spare[0] if spare else FIST
        return ready or FIST

    @property
    def weapons(self) -> list[FaeGear]:
        """Every weapon it carries, the readied one first."""
        return self.hands.weapons

    def weapon_chance(self, weapon: FaeGear) -> int:
        """MCS of a blow with ``weapon`` held as if readied: skill, attribute and Luck, its
        size and grip (3.1), before the situation's modifiers (what policies weigh)."""
        two, large = two_handed_grip(
            weapon.hands == 2, weapon.large, self.opts.two_handed_grip, weapon.ranged
        )
        size = attack_modifier(AttackSituation(large_weapon=large, two_handed=two))
        return self.chance(weapon.skill or "", size)

    def limb_useless(self, limb: str) -> bool:
        """The ``arm`` (weapon arm) or ``leg`` is hurt (:meth:`limb_hurt`) or held in a limb
        hold (section 4)."""
        return self.limb_hurt(limb) or (self.held_by is not None and self.hold_limb == limb)

    def limb_hurt(self, limb: str) -> bool:
        """The ``arm`` or ``leg`` is severed, mangled, or numb this turn (section 7)."""
        if self.effects.get(limb) in ("limb_severed", "limb_mangled"):
            return True
        return int(self.effects.get(f"{limb}_numb_until", -1)) >= int(
            getattr(self.model, "fae_turn", 0)
        )

    @property
    def can_run(self) -> bool:
        """Running needs both legs (PROPOSED; ``fae.useless_leg_runs`` allows it halved); a
        leg in a hold only halves movement (section 4)."""
        return self.opts.useless_leg_runs or not self.limb_hurt("leg")

    @property
    def ranged(self) -> bool:
        return self.weapon.ranged

    @property
    def reach(self) -> float:
        w = self.weapon
        if w.ranged:
            return float(w.max_range or (w.range_rating or 1) * 10)
        return float(self.opts.melee_reach)

    @property
    def aim_limit(self) -> int:
        return aim_cap(self.skill(self.weapon.skill))

    @property
    def walk_mr(self) -> int:
        """Walk MR (the mount's when riding); halved by a useless leg, as a held one (4, 7)."""
        if self.mount is not None:
            return self.mount.walk_mr
        return held_move_rate(self.stats.walk_mr, self.limb_useless("leg"))

    @property
    def run_mr(self) -> int:
        if self.mount is not None:
            return self.mount.run_mr
        return held_move_rate(self.stats.run_mr, self.limb_useless("leg"))

    @property
    def fly_mr(self) -> int | None:
        if self.mount is not None and self.mount.stats.fly_mr is not None:
            return int(self.mount.stats.fly_mr)
        return self.stats.fly_mr

    @property
    def altitude(self) -> int:
        return self.flight.altitude

    @property
    def mounted(self) -> bool:
        return self.mount is not None

    @property
    def ran(self) -> bool:
        """It ran (or its mount charged, or it dived) this turn or the last, and has taken
        no action since: its next attack is a charge (3.3)."""
        turn = getattr(self.model, "fae_turn", 0)
        return self.charging and self.ran_turn >= turn - 1

    @property
    def may_walk(self) -> bool:
        """The free walk is left this turn: not yet taken, and no Move taken (2.1, 2.2)."""
        turn = getattr(self.model, "fae_turn", 0)
        return self.walked != turn and self.moved != turn

    @property
    def may_move(self) -> bool:
        """A Move (2 x Walk MR) is allowed: not combined with the free walk this turn."""
        return self.walked != getattr(self.model, "fae_turn", 0)

    def take_free(self) -> bool:
        """Take one free action at this count, if ``fae.free_actions_per_count`` allows."""
        if self.free_used >= self.opts.free_actions_per_count:
            return False
        self.free_used += 1
        return True

    @property
    def size(self) -> int:
        return self.stats.attributes.size

    def distance(self, other: Any) -> float:
        """Yards to ``other``, altitude included (a FADAD fighter stands at altitude 0)."""
        ox, oy = getattr(other, "xy", None) or position_xy(other)
        alt = getattr(other, "altitude", 0)
        return math.dist((self.xy[0], self.xy[1], self.altitude), (ox, oy, alt))

    def skill(self, name: str | None) -> int:
        """A skill's percent (0 when unknown)."""
        return self.stats.skill(name)

    def chance(self, use: str, situational: int = 0) -> int:
        """MCS of ``attack`` (readied weapon), ``dodge``, ``block``, ``acrobatics``,
        ``reaction`` or any skill name, with the Luck modifier (section 1)."""
        a = self.stats.attributes
        if use == "reaction":
            return modified_chance(a.reaction, luck=a.luck, situational=situational)
        if use.endswith("_attr"):  # an attribute test: Strength, Stamina, Willpower ...
            value = int(getattr(a, use.removesuffix("_attr")))
            return modified_chance(value, luck=a.luck, situational=situational)
        name = {"attack": self.weapon.skill, "dodge": "Dodge", "acrobatics": "Acrobatics"}.get(
            use, use
        )
        if use == "block":
            if self.stats.shield is not None:
                name = "Shield"
            else:  # parry with a melee weapon, else an unarmed block (DR = Agility)
                name = "Unarmed" if self.weapon.ranged else self.weapon.skill
        base = self.skill(name)
        if self.stats.underwater and use == "dodge":
            base = underwater_dodge_skill(base, self.skill("Swim"))
        return modified_chance(base, self.stats.primary(name), a.luck, situational)

    def test(self, use: str, situational: int = 0) -> Any:
        """Roll a complex test of ``use`` on this combatant's stream."""
        return resolve_check(self.chance(use, situational), self.rng, self.opts)

    # --- the turn ---------------------------------------------------------------------

    @property
    def has_action(self) -> bool:
        """An action is left this turn (a failed Reaction still gives one)."""
        m = self.margin
        return m is not None and (m > 0 or not self.spent)

    def reaction_test(self, arena: FaeArena) -> int | None:
        """Start of a turn: the Reaction test (margin; 0 on a failure; None on a botch)."""
        roll = self.test("reaction")
        self.margin = reaction_margin(roll.check)
        self.spent = False
        self.flew = False
        arena.record(
            self.name,
            "reaction_test",
            None,
            (("d100", roll.roll),),
            (("mcs", roll.mcs),),
            (
                ("result", "botch" if roll.check.botch else self.margin),
                ("at", round(float(arena.now), 3)),
                ("turn", arena.fae_turn),
            ),
        )
        return self.margin

    def dismount(self, arena: FaeArena, why: str) -> None:
        """Off the mount (it fell or bolted): on foot, prone, back on the ground (6)."""
        if self.mount is None:
            return
        self.mount = None
        self.prone = True
        self.flight = FlightState(0)
        arena.record(
            self.name,
            "unhorsed",
            None,
            (),
            (),
            (("result", why), ("at", round(float(arena.now), 3)), ("turn", arena.fae_turn)),
        )

    def spend(self, kind: str) -> None:
        """Pay an action's cost from the margin (free 0, short 25, full 50)."""
        if self.margin is None:
            raise FaeError(f"{self.name} botched its Reaction test and cannot act this turn")
        self.margin -= action_cost(kind)
        self.spent = True

    def spend_defence(self, kind: str, arena: FaeArena) -> None:
        """Pay a dodge or block; when the blow falls at this fighter's own tied count, after
        the action it takes at that count (simultaneous actions, section 2)."""
        if arena.simultaneous(self):
            self.owed += action_cost(kind)
        else:
            self.spend(kind)

    def pay_deferred(self) -> None:
        """Pay the defences put off until this fighter's simultaneous action was taken."""
        if self.owed and self.margin is not None:
            self.margin -= self.owed
            self.spent = True
        self.owed = 0

    def wait(self) -> None:
        """Delay: lower the margin by ``fae.wait_cost`` (PROPOSED 25, a short action's worth)."""
        if self.margin is None:
            raise FaeError(f"{self.name} botched its Reaction test and cannot act this turn")
        self.margin -= self.opts.wait_cost
        self.spent = True

    def declare(self, arena: Arena) -> None:
        """FADAD rounds do not drive Fae combatants (their 10-s turn does)."""

    def act(self, arena: Arena) -> None:
        """FADAD rounds do not drive Fae combatants."""

    def choose_target(self, arena: Arena) -> Any:
        """Keep or pick a target through the shared targeting policy."""
        target = self.policies.targeting.choose_target(self, arena, self.targeting_rng)
        self.target = target  # type: ignore[assignment]
        return target

    def retreat_choice(self, arena: Arena) -> MoraleChoice:
        """The shared retreat policy (wound levels as :attr:`wound`)."""
        return self.policies.retreat.decide(self, arena)

    def apply(self, arena: FaeArena, amount: int, stun: bool, cause: str) -> None:
        """Add damage to Wounds (Fatigue when stunning); dead or unconscious leave the fight."""
        self.health = apply_damage(self.health, amount, stun)
        if self.health.dead:
            arena.take_out(self, "dead")
        elif self.health.unconscious:
            arena.take_out(self, "unconscious")


def position_xy(other: Any) -> tuple[float, float]:
    """A fighter's (x, y) where it has no ``xy`` (a FADAD one): its position, else the
    origin."""
    pos = getattr(other, "position", None)
    return (0.0, 0.0) if pos is None else (float(pos[0]), float(pos[1]))
