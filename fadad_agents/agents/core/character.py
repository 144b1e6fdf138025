"""Character: one named fighter (or one of a group of identical NPCs) in personal combat.

Round (personal-combat.md 1.2, PROPOSED there): at the declare step the character's
policies choose to stay or leave, to tend a fallen friend, whom to attack, and how many of
its ``fadad.actions_per_round`` actions go to attacks; the rest are defences spent as
blows come in (an attack with no defence left meets the Target only, A-07). On its turn it
makes its attacks through the kernel (:func:`~fadad_agents.agents.core.blows.strike`).
Wounds apply at once, so a wound penalty counts for the victim's later rolls in the same
round (SEED 000 4.6, round 3).
"""

from __future__ import annotations

import random
from typing import Any

import mesa

from fadad_agents.agents.core import aid, aims, conditions, moving, shooting
from fadad_agents.agents.core.base import Arena, Band, Combatant
from fadad_agents.agents.core.blows import attack_event, defence_verb, strike
from fadad_agents.agents.core.conditions import Conditions
from fadad_agents.agents.core.field.measures import SQUARES_HIGH, SQUARES_LOW
from fadad_agents.policies.core.defaults import random_foe_told
from fadad_agents.policies.core.policy_set import PolicySet
from fadad_agents.policies.core.protocols import PLAIN, MoraleChoice, Stance
from fadad_agents.rules import mass
from fadad_agents.rules.core.ladder import FAIR
from fadad_agents.rules.core.morale import MoraleResult
from fadad_agents.rules.core.wounds import Wound, WoundTrack
from fadad_agents.rules.personal.combat import NO_PROTECTION, Protection
from fadad_agents.rules.personal.wound_models import record_wound

__all__ = ["Character", "attack_event", "defence_verb", "record_morale", "strike"]


PLAYER_PROTECTION = Protection(pc=True)
"""How a blow on a player character is recorded: the ``pc_death`` options apply (C-13).
Near Death needs the round to begin Incapacitated (option 2), which never happens in a
fight: an Incapacitated character is out of it."""


ASK_ONCE = True
"""A fighter whose new target (:func:`~fadad_agents.policies.core.defaults.random_foe`'s)
was none in reach, and which it measures out of reach, does not ask for another foe in
reach: none was a moment ago, and nobody moved since. False (tests only): it asks again;
the same battle."""


class Character(Combatant):
    """An individual fighter with a kernel ``Fighter`` and a wound track."""

    kind = "character"

    # At most 512 bytes an instance, headers included (``sys.getsizeof``): CPython's own
    # small-object allocator serves it; one slot more hands every character to malloc and
    # made the 20,000-agent fight 4-5% slower. A flag set once a play (``plain``) lives in the
    # instance dict instead (tests/engine/core/test_character_size.py).
    __slots__ = (
        "aim",
        "all_out",
        "armed",
        "bare",
        "bearing",
        "blocks_missiles",
        "conditions",
        "defence_verb",
        "engaged",
        "engaged_round",
        "facing",
        "fighter",
        "first_aid",
        "force_index",
        "gait",
        "ite_points",
        "missile",
        "missile_fighter",
        "morale",
        "move_actions",
        "pending",
        "pending_crits",
        "player",
        "protection",
        "radius",
        "reach",
        "roomy",
        "size_value",
        "spirit",
        "stabilised",
        "start_bearing",
        "start_ite_points",
        "start_track",
        "start_verb",
        "stepped",
        "stride",
        "track",
        "unarmed",
        "verb",
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
        fighter: Any,
        track: WoundTrack,
        reaction: int = 0,
        band: Band | None = None,
        player: bool = False,
        verb: str = "swing",
        defence_verb: str = "parry",
        first_aid: int | None = None,
        morale: int = FAIR,
        ite_points: int = 0,
        bare: Any = None,
        radius: float = 0.5,
        reach: float = 1.0,
        stride: float = 1.0,
        facing: int | None = None,
        missile: tuple[Any, ...] | None = None,
        missile_fighter: Any = None,
        blocks_missiles: bool = False,
        unarmed: Any = None,
        size_value: int | None = None,
        spirit: Any = None,
    ) -> None:
        self.start_track = track  # tracks are immutable: a blow makes a new one
        self.start_ite_points = ite_points
        self.armed = fighter
        self.bare = fighter if bare is None else bare  # its fighter with a thing dropped
        self.radius, self.reach, self.stride = radius, reach, stride
        self.facing = facing
        # a missile weapon, its state this battle (agents.core.shooting.Missile)
        self.missile = None if missile is None else shooting.Missile(*missile)
        self.missile_fighter = missile_fighter  # its defence against missiles
        self.unarmed = unarmed  # its fists, once its missile weapon has no shots left
        self.spirit = spirit  # its spirit-combat figures (agents.core.spirit), or None
        self.start_verb = verb
        self.blocks_missiles = blocks_missiles  # that defence is a shield block
        self.size_value = size_value  # weapon + shield value (fadad.weapon_size_comparison)
        self.start_bearing = 0.0
        self.force_index = 0
        self.roomy: bool | None = None  # admit admits all (moving.never_crowded); None: unknown
        super().__init__(
            model,
            name=name,
            side=side,
            index=index,
            policies=policies,
            rng=rng,
            targeting_rng=targeting_rng,
            reaction=reaction,
            band=band,
        )
        self.mark_plain(None)  # found at the first round it plays, once a battle
        self.player = player
        self.protection = PLAYER_PROTECTION if player else NO_PROTECTION
        self.verb = verb
        self.defence_verb = defence_verb
        self.first_aid = first_aid
        self.morale = morale
        if player:  # SJ 12: morale checks are only for two-dimensional NPCs
            self.checks_morale = False

    def restart(self, rng: random.Random, targeting_rng: random.Random) -> None:
        """Unhurt and unstabilised, on new streams (:meth:`Combatant.restart`)."""
        Combatant.restart(self, rng, targeting_rng)  # named: super() costs more, ten a reset
        self.track = self.start_track
        self.pending: WoundTrack | None = None
        self.pending_crits: list[Any] | None = None
        self.stabilised = False
        self.ite_points = self.start_ite_points
        self.fighter = self.armed
        self.aim = None  # how it means its blows this round (agents.core.aims)
        self.conditions: Conditions | None = None
        self.all_out = False
        self.bearing = self.start_bearing
        self.gait: str | None = None
        self.move_actions = 0
        self.stepped = False  # moved already this turn (moving.move_first)
        self.engaged: list[Combatant] = []  # melee attackers this round (moving.admit)
        self.engaged_round = -1
        if self.missile is not None:
            self.missile.restart()
            self.verb = self.start_verb

    @property
    def shoots(self) -> bool:
        """It fights with a missile weapon and has shots left."""
        return self.missile is not None and self.missile.left != 0

    def can_reach(self, other: Combatant) -> bool:
        """Whether this character can attack ``other`` from where it stands: within its
        missile weapon's range, else in melee contact."""
        if self.shoots:
            return shooting.in_range(self, other)
        return moving.touches(self, other)

    def conditions_now(self) -> Conditions:
        """Its crit conditions, made on the first that lands."""
        found = self.conditions
        if found is None:
            found = self.conditions = Conditions(self.model.options.fadad.knockdown_penalty)
        return found

    @property
    def wound(self) -> int:
        """Current wound level (a :class:`~fadad_agents.rules.core.wounds.Wound`, an int)."""
        return self.track.level

    @property
    def penalty(self) -> int:
        """Hurt -1, Very Hurt -2 (kernel wound track); prone or a Hurt weapon arm."""
        found = self.conditions
        if found is None:
            return self.track.penalty
        return self.track.penalty + found.penalty

    def melee_track(self) -> WoundTrack:
        """The track a blow against this character is recorded on (in a simultaneous
        turn, the wounds of the turn so far)."""
        pending = self.pending
        return self.track if pending is None else pending

    def absorb(self, result: Any, arena: Arena) -> None:
        """Take the kernel's new track; out of the fight at Incapacitated or worse. In a
        simultaneous turn the wound waits for the turn's end (:meth:`release_turn`)."""
        if not result.hit:
            return
        track, effects = result.track, result.crit_effects
        if effects and conditions.spares_the_body(effects, arena):
            track = self.melee_track()  # a Called Location: the arm takes the blow
        if self.pending is not None:
            self.pending = track
            if effects:
                self.pending_crits = [*(self.pending_crits or ()), result]
            return
        self._wounded(track, arena)
        if effects:
            conditions.suffer(self, result, arena)

    def spend_ite_point(self, res: Any, track: WoundTrack, arena: Arena) -> Any:
        """A blow that would leave this player character Near Death or Dead: with an Ité
        point left, ``pc_death.point_spend`` on and its Ité policy willing, spend one and
        take the blow as Incapacitated (FADAD 4.5.9, A-29); logged. Returns the result
        with the track the character keeps."""
        rules = arena.combat_rules.wounds
        if not self.ite_points or not rules.point_spend:
            return res
        blow = res.track.level
        if not self.policies.ite_points.spend(self, blow, arena):
            return res
        self.ite_points -= 1
        saved = record_wound(rules, track, res.wound, pc=True, point_spent=True)
        outcome = (("result", saved.level.label), ("instead_of", blow.label))
        arena.record(self.name, "ite_point", None, (), (), (*outcome, ("left", self.ite_points)))
        return res._replace(track=saved)

    def _wounded(self, track: WoundTrack, arena: Arena) -> None:
        self.track = track
        if track.out_of_fight and self.fighting:
            arena.take_out(self, track.level.label)

    def hold_turn(self) -> None:
        """Wounds taken in a simultaneous turn go on a pending track; the character
        fights on with the penalty it began the turn with."""
        self.pending = self.track

    def release_turn(self, arena: Arena) -> None:
        """The turn's wounds apply at once (and may take the character out)."""
        pending, self.pending = self.pending, None
        crits, self.pending_crits = self.pending_crits, None
        if pending is not None and pending is not self.track:
            self._wounded(pending, arena)
        for result in crits or ():
            conditions.suffer(self, result, arena)

    def mark_plain(self, plain: bool | None) -> None:
        """Whether its declare and act are played on the plain melee path (:mod:`~fadad_
        agents.core.plain.round`); None until found, at the first round it plays: the
        same for every play of its battle, as it depends on nothing a play changes. The
        flag lives in the instance dict, not a slot (see ``__slots__``: it keeps a
        character under 512 bytes)."""
        object.__setattr__(self, "plain", plain)

    def round_budget(self, arena: Arena) -> int:
        """The declare step's start: this round's actions less what its conditions take,
        every one a defence until it plans otherwise; 0 when it has nothing to plan (no
        actions left, or stunned)."""
        budget = arena.options.fadad.actions_per_round
        found = self.conditions
        if found is not None:  # unconscious, stunned, or owing actions (crits)
            budget = found.start_round(self, budget, arena)
        self.attacks_planned, self.defences_left = 0, budget
        self.move_actions = 0
        self.all_out = False
        return 0 if found is not None and found.stunned else budget

    def with_room(self, target: Any, arena: Arena) -> Any:
        """``target``, or, when its places are claimed this round already and none is
        left for this character, another foe in reach with one (a local look-up)."""
        if (
            self.placed
            and target is not None
            and target.engaged_round == arena.round  # someone already claimed a place
            and not moving.has_room(target, self, arena)
        ):
            return moving.roomy_foe_in_reach(self, arena) or target
        return target

    def declare(self, arena: Arena) -> None:
        """Stay or leave, tend or fight, choose a target and split the action budget."""
        budget = self.round_budget(arena)
        if not budget:
            return
        pol = self.policies  # a policy with a constant answer is not asked (PolicySet)
        if not pol.holds:
            choice = pol.retreat.decide(self, arena)
            if choice is not MoraleChoice.HOLD:
                arena.leave(self, choice, Wound(self.wound).label)
                return
        if self.first_aid is not None and aid.tend(self, arena, budget):
            return
        target: Any = self.target  # a policy that keeps a fighting target is not asked
        if not (pol.keeps_target and target is not None and target.fighting):
            target = pol.targeting.choose_target(self, arena, self.targeting_rng)
        self.target = target = self.with_room(target, arena)
        if target is None:
            return
        all_out = False  # a constant plain attack: no stance asked for, nor compared
        if not pol.always_attacks:
            stance = pol.stance.choose_stance(self, target, arena)
            if stance is Stance.ALL_OUT_DEFENCE:
                return
            all_out = stance is Stance.ALL_OUT_ATTACK
        self.aim = None if pol.aim_now is PLAIN else aims.choose(self, target, arena)  # hot
        n = pol.attack_count or pol.multi_attack.attacks(self, target, arena, budget)
        if n > budget:  # max(1, min(budget, n)), without the two calls
            n = budget
        if n < 1:
            n = 1
        if all_out:  # +1 to hit; every action attacks
            self.all_out = True
            if not arena.options.fadad.all_out_attack_defends:
                n = budget
        if self.missile is not None and self.shoots:  # every action readies or shoots
            if self.placed:
                moving.plan_move(self, target, arena, budget, 0)
            self.attacks_planned, self.defences_left = budget - self.move_actions, 0
            return
        if self.placed and not (pol.closes and arena.field.all_touching):  # touches, inlined
            here: Any = self.position
            (ax, ay), there = here, target.position
            reach = self.radius + self.reach + target.radius
            if not (
                pol.closes
                and (there is None or (ax - there[0]) ** 2 + (ay - there[1]) ** 2 <= reach**2)
            ):
                n = moving.plan_move(self, target, arena, budget, n)
        self.attacks_planned, self.defences_left = n, budget - n - self.move_actions

    def ready(self, arena: Arena) -> bool:
        """Whether its conditions let it act on its turn (neither unconscious nor
        stunned), once it has paid from its planned attacks what a crit took since it
        declared (rising, picking up, a stagger)."""
        found = self.conditions
        if found is not None:
            if found.unconscious or found.stunned:
                return False
            if found.owed:
                self.attacks_planned = found.pay(self, self.attacks_planned, arena)
        return True

    def act(self, arena: Arena) -> None:
        """Move as planned, then make the planned attacks on foes in reach, re-targeting
        if the target fell, moved away or has no room left round it; first pay the
        actions a crit took since it declared (rising, picking up, a stagger)."""
        if self.conditions is not None and not self.ready(arena):
            return
        measure = self.placed
        target: Any
        if measure:
            target = self.target
            if self.stepped:  # moved with the others of a shared turn
                self.stepped = False
            elif self.move_actions or target is None:
                self.gait = None
                moving.advance(self, arena)
            elif arena.field.all_touching or not target.placed:  # in contact: no measuring
                self.gait = None
            else:  # moving.in_contact and touches, inlined (once a turn)
                mine: Any = self.position
                (ax, ay), (bx, by) = mine, target.position
                reach = self.radius + self.reach + target.radius
                self.gait = None
                dx, dy, limit = ax - bx, ay - by, reach * reach + 1e-6
                d = dx * dx + dy * dy  # ``**`` (pow, several products) only within a hair
                if d > limit * SQUARES_HIGH or (d >= limit * SQUARES_LOW and dx**2 + dy**2 > limit):
                    moving.advance(self, arena)
            measure = not arena.field.all_touching  # one melee: every foe in reach
            if measure:
                here: Any = self.position
                (x, y), reach = here, self.radius + self.reach
        if self.missile is not None and self.shoots:
            shooting.shoot_round(self, arena, self.attacks_planned)
            return
        admit = moving.admit
        for _ in range(self.attacks_planned):
            target = self.target
            in_reach = True  # some foe may be: another is looked for where this one is not
            if target is None or not target.fighting:
                pol = self.policies
                if pol.random_in_reach and ASK_ONCE:  # its choose_target, inlined
                    target, in_reach = random_foe_told(self, arena, self.targeting_rng)
                else:
                    target = pol.targeting.choose_target(self, arena, self.targeting_rng)
                self.target = target
                if target is None:
                    return
            if measure and target.placed:  # moving.touches, inlined (once a swing)
                there = target.position
                limit = reach + target.radius
                dx, dy, limit = x - there[0], y - there[1], limit * limit + 1e-6
                d = dx * dx + dy * dy  # by products, ``**`` within a hair (as above)
                if d > limit * SQUARES_HIGH or (d >= limit * SQUARES_LOW and dx**2 + dy**2 > limit):
                    if not in_reach:  # none was a moment ago, and nobody moved since
                        return
                    target = moving.another_in_reach(self, arena)
                    if target is None:
                        return
            if target.roomy is not True and not admit(target, self, arena):  # places counted
                if not in_reach:
                    return
                target = moving.another_in_reach(self, arena)
                if target is None:
                    return
            strike(self, self.fighter if self.missile is None else self.unarmed, target, arena)
            if not self.fighting:
                return

    def end_round(self, arena: Arena) -> None:
        """The band's lead checks the band's morale when its morale policy says so.

        The roll is the FADAD unit morale check (trait + 4dF against Fair, A-70) with the
        lead's morale trait; a broken band leaves together (withdraws or surrenders). A
        player character never checks: "Morale checks are used only for two-dimensional
        NPCs" (SJ 12), whatever morale policy the side gives its fighters.
        """
        band = self.band
        if self.player or band.lead() is not self:
            return
        view = band if len(band.members) > 1 else self
        morale = self.policies.morale
        reason = morale.check_reason(view, arena)  # type: ignore[arg-type]
        if reason is None:
            return
        res = mass.resolve_unit_morale(self.morale, FAIR, arena.morale_rng, self.name)
        record_morale(arena, band.name, reason, "4dF", self.morale, res)
        if res.passed:
            return
        choice = morale.on_break(view, arena)  # type: ignore[arg-type]
        for member in list(band.members):
            if member.fighting:
                arena.leave(member, choice, f"morale broke: {reason}")


def record_morale(
    arena: Arena, who: str, reason: str, dice: str, morale: int, res: MoraleResult
) -> None:
    """Log one morale check as every checker logs it: the ``dice`` and their roll, the
    ``morale`` number or trait, what it had to reach, why it was rolled, the result."""
    arena.record(
        who,
        "morale",
        None,
        ((dice, res.roll),),
        (("morale", morale),),
        (
            ("result", "holds" if res.passed else "breaks"),
            ("check", reason),
            ("target", res.target),
        ),
    )
