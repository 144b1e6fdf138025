"""Character: one named fighter (or one of a group of identical NPCs) in personal combat.

Round (personal-combat.md 1.2, PROPOSED there): at the declare step the character's
policies choose to stay or leave, to tend a fallen friend, whom to attack, and how many of
its ``fadad.actions_per_round`` actions go to attacks; the rest are defences spent as
blows come in (an attack with no defence left meets the Target only, A-07). On its turn it
makes its attacks through the kernel's :func:`~fadad_agents.rules.personal.combat.resolve_attack`.
Wounds apply at once, so a wound penalty counts for the victim's later rolls in the same
round (SEED 000 4.6, round 3).
"""

from __future__ import annotations

import random
from typing import Any

import mesa

from fadad_agents.agents.core import conditions
from fadad_agents.agents.core.base import Arena, Band, Combatant, Status
from fadad_agents.agents.core.conditions import Conditions
from fadad_agents.policies.core.policy_set import PolicySet
from fadad_agents.policies.core.protocols import MoraleChoice, Stance
from fadad_agents.rules import mass
from fadad_agents.rules.core.actions import roll_unopposed
from fadad_agents.rules.core.ladder import FAIR
from fadad_agents.rules.core.morale import MoraleResult
from fadad_agents.rules.core.wounds import Wound, WoundTrack
from fadad_agents.rules.personal.combat import NO_PROTECTION, Protection, resolve_attack
from fadad_agents.rules.personal.wound_models import record_wound

__all__ = ["Character", "attack_event", "defence_verb", "record_morale", "strike"]


_LABELS = tuple(w.label for w in Wound)

# The attack event's (name, value) pairs are shared, made once, wherever the value is
# small: a battle's log is most of what the cyclic garbage collector walks when the battle
# is dropped, and a shared pair costs it nothing.
_SPAN = 32


def _int_pairs(name: str) -> tuple[tuple[str, int], ...]:
    """``(name, v)`` at index ``v`` for ``-_SPAN <= v < _SPAN`` (negative ``v`` wraps)."""
    return tuple((name, v if v < _SPAN else v - 2 * _SPAN) for v in range(2 * _SPAN))


_DICE_ATTACK = _int_pairs("attack")
_DICE_DEFENCE = _int_pairs("defence")
_ROLLED = _int_pairs("attack")
_OPPOSED = _int_pairs("defence")
_TARGET = _int_pairs("target_level")
_RD = _int_pairs("rd")
_DAMAGE = _int_pairs("damage")
_RESULT_PAIRS = tuple(("result", label) for label in _LABELS)
_WOUND_PAIRS = tuple(("wound", label) for label in _LABELS)
_NO_EFFECTS: tuple[str, tuple[str, ...]] = ("crit_effects", ())
_NO_PENALTIES = (("attacker_penalty", 0), ("defender_penalty", 0))
PLAYER_PROTECTION = Protection(pc=True)
"""How a blow on a player character is recorded: the ``pc_death`` options apply (C-13).
Near Death needs the round to begin Incapacitated (option 2), which never happens in a
fight: an Incapacitated character is out of it."""
_VERBS = {v: ("verb", v) for v in ("swing", "punch", "shot", "attack")}
_DEFENCE_VERBS = {v: ("defence_verb", v) for v in ("parry", "block", "dodge", "defence")}


def defence_verb(skill_name: str | None) -> str:
    """How a defence reads in the narration: ``block`` (shield), ``dodge`` or ``parry``."""
    key = (skill_name or "").lower()
    if "shield" in key or "block" in key:
        return "block"
    if "dodge" in key:
        return "dodge"
    return "parry"


def strike(attacker: Combatant, fighter: Any, target: Combatant, arena: Arena) -> Any:
    """One melee attack through the kernel, logged, and absorbed by the target.

    The defender's shield covers the attacker it faces (its own target, or anyone while
    it has none): ``shield_rank`` 1, else 0 (personal-combat.md 3, PROPOSED there).
    The log event is deferred (:func:`attack_event` makes it when the log is read).
    """
    defended = target.use_defence()
    a_pen, d_pen = attacker.penalty, target.penalty
    facing = target.target
    track = target.melee_track()
    protection = target.protection
    res = resolve_attack(
        fighter,
        target.fighter,
        track,
        attacker.rng,
        arena.combat_rules,
        attacker_penalty=a_pen,
        defender_penalty=d_pen,
        defended=defended,
        shield_rank=1 if facing is None or facing is attacker else 0,
        protection=protection,
    )
    arena.defer(
        attack_event,
        (
            attacker.name,
            target.name,
            res,
            a_pen,
            d_pen,
            defended,
            attacker.verb,
            target.defence_verb,
        ),
    )
    if protection is not NO_PROTECTION and res.hit and res.track.level >= Wound.NEAR_DEATH:
        res = target.spend_ite_point(res, track, arena)
    target.absorb(res, arena)
    return res


def attack_event(
    actor: str,
    target: str,
    res: Any,
    a_pen: int,
    d_pen: int,
    defended: bool,
    verb: str,
    d_verb: str,
) -> tuple[str, str, str, Any, Any, Any]:
    """The (actor, action, target, dice, modifiers, outcome) of one :func:`strike`."""
    hit, effects, span = res.hit, res.crit_effects, _SPAN
    a_dice, d_dice, rolled, level, rd, damage = (
        res.attack_dice, res.defence_dice, res.attack_rolled, res.target, res.rd, res.damage
    )  # fmt: skip
    opposed = res.defence_rolled if defended else level
    return (
        actor,
        "attack",
        target,
        (
            _DICE_ATTACK[a_dice] if -span <= a_dice < span else ("attack", a_dice),
            ("defence", None)
            if d_dice is None
            else (_DICE_DEFENCE[d_dice] if -span <= d_dice < span else ("defence", d_dice)),
            ("damage", res.damage_dice),
        ),
        (("attacker_penalty", a_pen), ("defender_penalty", d_pen))
        if a_pen or d_pen
        else _NO_PENALTIES,
        (
            _RESULT_PAIRS[res.wound] if hit else ("result", "miss"),
            _ROLLED[rolled] if -span <= rolled < span else ("attack", rolled),
            _OPPOSED[opposed]
            if opposed is not None and -span <= opposed < span
            else ("defence", opposed),
            ("defended", True) if defended else ("defended", False),
            _TARGET[level] if -span <= level < span else ("target_level", level),
            _RD[rd] if -span <= rd < span else ("rd", rd),
            ("hit", True) if hit else ("hit", False),
            ("crits", res.crits) if res.crits else ("crits", 0),
            ("crit_effects", tuple([e.name for e in effects])) if effects else _NO_EFFECTS,
            _DAMAGE[damage] if -span <= damage < span else ("damage", damage),
            _WOUND_PAIRS[res.wound],
            _VERBS.get(verb) or ("verb", verb),
            _DEFENCE_VERBS.get(d_verb) or ("defence_verb", d_verb),
            *_taken(res),
        ),
    )


def _taken(res: Any) -> tuple[tuple[str, str], ...]:
    """``("taken", level)`` when the blow left its victim less hurt than its severity (a
    protected player character, a full npc3 track, overflow kept at Near Death)."""
    if res.hit:
        level = res.track.level
        if level < res.wound:
            return (("taken", level.label),)
    return ()


class Character(Combatant):
    """An individual fighter with a kernel ``Fighter`` and a wound track."""

    kind = "character"

    __slots__ = (
        "armed",
        "bare",
        "conditions",
        "defence_verb",
        "fighter",
        "first_aid",
        "ite_points",
        "morale",
        "pending",
        "pending_crits",
        "player",
        "protection",
        "stabilised",
        "start_ite_points",
        "start_track",
        "track",
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
    ) -> None:
        self.start_track = track  # tracks are immutable: a blow makes a new one
        self.start_ite_points = ite_points
        self.armed = fighter
        self.bare = fighter if bare is None else bare  # its fighter with a thing dropped
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
        super().restart(rng, targeting_rng)
        self.track = self.start_track
        self.pending: WoundTrack | None = None
        self.pending_crits: list[Any] | None = None
        self.stabilised = False
        self.ite_points = self.start_ite_points
        self.fighter = self.armed
        self.conditions: Conditions | None = None

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
        arena.record(
            self.name,
            "ite_point",
            None,
            (),
            (),
            (("result", saved.level.label), ("instead_of", blow.label), ("left", self.ite_points)),
        )
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

    def declare(self, arena: Arena) -> None:
        """Stay or leave, tend or fight, choose a target and split the action budget."""
        budget = arena.options.fadad.actions_per_round
        if self.conditions is not None:  # unconscious, or owing actions (crits)
            budget = self.conditions.start_round(self, budget, arena)
        self.attacks_planned, self.defences_left = 0, budget
        if not budget:
            return
        pol = self.policies  # a policy with a constant answer is not asked (PolicySet)
        if not pol.holds:
            choice = pol.retreat.decide(self, arena)
            if choice is not MoraleChoice.HOLD:
                arena.leave(self, choice, Wound(self.wound).label)
                return
        if self.first_aid is not None and self._tend(arena, budget):
            return
        target = pol.targeting.choose_target(self, arena, self.targeting_rng)
        self.target = target  # type: ignore[assignment]
        if target is None or (
            not pol.always_attacks
            and pol.stance.choose_stance(self, target, arena) is Stance.ALL_OUT_DEFENCE
        ):
            return
        n = pol.attack_count or pol.multi_attack.attacks(self, target, arena, budget)
        if n > budget:  # max(1, min(budget, n)), without the two calls
            n = budget
        if n < 1:
            n = 1
        self.attacks_planned, self.defences_left = n, budget - n

    def _tend(self, arena: Arena, budget: int) -> bool:
        patient = self.policies.first_aid.patient(self, arena)
        if not isinstance(patient, Character) or patient.memory.get("tended_by"):
            return False
        patient.memory["tended_by"] = self.name
        self.defences_left = budget - 1
        arena.start_action(self, "first_aid", 6, lambda: self._finish_aid(patient, arena))
        return True

    def _finish_aid(self, patient: Character, arena: Arena) -> None:
        """First aid on a Near Death friend: a Fair result stabilises (A-31, PROPOSED)."""
        assert self.first_aid is not None
        ok, degree, dice = roll_unopposed(self.first_aid, FAIR, self.rng, self.penalty)
        patient.stabilised = patient.stabilised or ok
        arena.record(
            self.name,
            "first_aid",
            patient.name,
            (("first_aid", dice),),
            (("penalty", self.penalty),),
            (("result", "stabilised" if ok else "failed"), ("degree", degree)),
        )

    def act(self, arena: Arena) -> None:
        """Make the planned attacks, re-targeting if the target fell meanwhile; first pay
        the actions a crit took since it declared (rising, picking up, a stagger)."""
        fighting = Status.FIGHTING  # x.status is fighting == x.fighting, inlined (hot)
        found = self.conditions
        if found is not None:
            if found.unconscious:
                return
            if found.owed:
                self.attacks_planned = found.pay(self, self.attacks_planned, arena)
        for _ in range(self.attacks_planned):
            target = self.target
            if target is None or target.status is not fighting:
                target = self.policies.targeting.choose_target(self, arena, self.targeting_rng)  # type: ignore[assignment]
                self.target = target
                if target is None:
                    return
            strike(self, self.fighter, target, arena)
            if self.status is not fighting:
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
        res = mass.resolve_unit_morale(self.morale, FAIR, arena.morale_rng)
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
