"""The plain melee round: the declare and act steps of fighters with nothing to decide,
played in one loop over the round's turns instead of a chain of calls each.

A fighter is **plain** (:func:`is_plain`, found at the first round its battle plays) when it
is a :class:`~fadad_agents.agents.core.character.Character` with a melee weapon alone (no
missile, no first aid, no spirit figures) whose policies all
answer the same every round (:class:`~fadad_agents.policies.core.policy_set.PolicySet`:
it holds, attacks, plainly, a fixed number of times, and closes with its target). While
it stands in one melee (or off the field), its declare is a few assignments and its act
the attack loop with the common blow inlined (:func:`~fadad_agents.agents.core.blows.
strike` on a character without spirit figures); a crit's conditions are paid as its own
methods pay them. Every other fighter, and a plain one that must move, goes through its
own :meth:`~fadad_agents.agents.core.base.Combatant.declare` and
:meth:`~fadad_agents.agents.core.base.Combatant.act`; a turn with a unit or crew in it is
played as the battle plays it.

The Mesa agents hold all the state; only the call layers go. The same dice are drawn in
the same order and the same log is written, byte for byte (a test plays battles with
:data:`PLAIN_ROUNDS` on and off).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from math import floor
from typing import Any

from fadad_agents.agents.core.blows import attack_event, land, strike
from fadad_agents.agents.core.character import Character
from fadad_agents.agents.core.crowd import declaring, waiting
from fadad_agents.agents.core.moving import (
    admit,
    another_in_reach,
)
from fadad_agents.agents.core.shields import shield_rank
from fadad_agents.policies.core.defaults import random_foe
from fadad_agents.policies.core.protocols import PLAIN
from fadad_agents.rules.personal.combat import NO_PROTECTION, AttackResult, resolve_attack
from fadad_agents.rules.personal.melee import moving_target_bonus, size_comparison_modifier

__all__ = ["PLAIN_ROUNDS", "is_plain", "mark_plain", "play_round"]

PLAIN_ROUNDS = True
"""Play plain fighters' declare and act here (False: every fighter by its own methods;
the tests compare both)."""

Turn = Sequence[Any]

_HIT, _CRIT_EFFECTS, _TRACK = map(AttackResult._fields.index, ("hit", "crit_effects", "track"))
"""Where an :class:`AttackResult` holds the fields every swing reads: read by index, as
CPython 3.12 never specialises a named tuple's field read by name (a generic attribute
look-up, about 0.4 k machine instructions, where an index takes a few dozen)."""


def is_plain(member: Any, arena: Any) -> bool:
    """Whether ``member`` is a character whose declare and act ask its policies nothing
    but a new target, and reach for no missile, first aid or spirit figures."""
    if type(member) is not Character:
        return False
    return _plain_policies(member.policies) and _plain_kit(member)


def _plain_policies(pol: Any) -> bool:
    """:func:`is_plain`'s part that is the policy set's: it holds, attacks, plainly, a
    fixed number of times, and closes with its target."""
    return bool(
        pol.holds
        and pol.always_attacks
        and pol.aim_now is PLAIN
        and pol.attack_count > 0
        and pol.closes
    )


def _plain_kit(member: Any) -> bool:
    """:func:`is_plain`'s part that is the character's own: no missile, first aid or
    spirit figures."""
    return member.missile is None and member.first_aid is None and member.spirit is None


def mark_plain(turns: Sequence[Turn], arena: Any) -> None:
    """Find which characters of ``turns`` not yet marked are plain (:func:`is_plain`) and
    mark them: each policy set asked once (a band's members share one), each member's
    own kit read in the loop (a band of 10,000 is marked in a few milliseconds)."""
    found: dict[int, bool] = {}  # a policy set's answer by its id (all alive meanwhile)
    for turn in turns:
        for member in turn:
            if type(member) is Character and member.plain is None:
                pol = member.policies
                plain = found.get(id(pol))
                if plain is None:
                    plain = found[id(pol)] = _plain_policies(pol)
                # Character.mark_plain and _plain_kit, inlined: two calls less a member
                member.plain = plain and (  # type: ignore[misc]  # a dict entry, not a slot
                    member.missile is None and member.first_aid is None and member.spirit is None
                )


def play_round(
    arena: Any, turns: Sequence[Turn], shared: type, play_turn: Callable[[Turn], None]
) -> None:
    """Declare, then act, for every fighter of the round's ``turns`` in the order of
    action: plain fighters here, the others by their own methods; a turn of the
    ``shared`` type together (its movers first, its effects held to its end), and one
    with a member other than a character as the battle plays it (``play_turn``)."""
    if arena.round == 1:  # agents join only before the first round: found once a battle
        mark_plain(turns, arena)
    field = arena.field
    near = field is None or field.all_touching  # nobody moves while declaring
    actions = arena.options.fadad.actions_per_round
    for turn in turns:
        if not near and declaring.DECLARE_TOGETHER:  # on a field where not all touch
            declaring.declare_turn(turn, arena, actions, _declare)
            continue
        for member in turn:
            if member.fighting:
                if member.plain is True and (near or not member.placed):
                    _declare(member, arena, actions)
                else:
                    member.declare(arena)
    now = int(arena.env.now)  # no time passes in a round's steps
    for turn in turns:
        if len(turn) > 1:
            for member in turn:
                if type(member) is not Character:
                    play_turn(turn)  # a unit or crew: the battle's own way
                    break
            else:
                if type(turn) is shared:
                    _play_together(turn, arena, now)
                elif waiting.in_arrays(turn, arena):
                    waiting.play_band_turn(turn, arena, _acting(arena, now))
                else:
                    for member in turn:
                        if member.fighting:
                            if member.placed and not field.all_touching:  # _act's first
                                member.act(arena)  # answer, without its call
                            else:
                                _act(member, arena, now)
        elif turn[0].fighting:
            _act(turn[0], arena, now)


def _acting(arena: Any, now: int) -> Callable[[Any], None]:
    """:func:`_act` of a member in ``arena`` at ``now``, its own act called at once where
    it stands on a field not all in one melee (what :func:`_act` would call)."""
    field = arena.field

    def act(member: Any) -> None:
        if member.placed and not field.all_touching:
            member.act(arena)
        else:
            _act(member, arena, now)

    return act


def _play_together(turn: Turn, arena: Any, now: int) -> None:
    """:func:`~fadad_agents.engine.core.turns.play_shared` of characters: the movers
    move first; wounds wait on each one's pending track until every member has acted,
    then apply, then the take-outs and departures held in the turn."""
    field = arena.field
    if field is not None:
        near = field.all_touching
        for member in turn:  # waiting.move_first's movers: none in one melee, all with targets
            if (
                member.placed
                and member.fighting
                and (member.move_actions or not near or member.target is None)
            ):
                waiting.move_first(turn, arena)
                break
    held: list[tuple[Callable[..., Any], tuple[Any, ...]]] = []
    arena.held = held
    for member in turn:
        member.pending = member.track
    try:
        for member in turn:
            if member.fighting:
                _act(member, arena, now)
    finally:
        arena.held = None
    for member in turn:
        if member.pending_crits is not None:
            member.release_turn(arena)
            continue
        pending, member.pending = member.pending, None
        if pending is not None and pending is not member.track:
            member.track = pending
            if pending.out_of_fight and member.fighting:
                arena.take_out(member, pending.level.label)
    for effect, args in held:
        effect(*args)


def _new_target(member: Any, arena: Any) -> Any:
    """Its targeting policy's new target: :func:`~fadad_agents.policies.core.defaults.
    random_foe`'s, drawn without asking the policy, when that is the policy's choice
    (``random_in_reach``), else the policy's choice. Where every foe is in reach of a
    plain fighter (no field, off it, or one melee: what
    :meth:`~fadad_agents.engine.core.space.OnTheField.foes_in_reach` then gives),
    random_foe's one draw among them is made here."""
    pol = member.policies
    if pol.random_in_reach:
        field = arena.field
        if field is None or field.all_touching or not member.placed:
            foes = arena.foes(member.side)  # none left: random_foe finds none either
            if not foes:
                return None
            rng = member.targeting_rng  # its class's random: as resolve_attack draws
            return foes[floor(type(rng).random(rng) * len(foes))]
        return random_foe(member, arena, member.targeting_rng)
    return pol.targeting.choose_target(member, arena, member.targeting_rng)


def _declare(member: Any, arena: Any, actions: int) -> None:
    """:meth:`Character.declare` of a plain fighter in one melee with its round's
    ``actions``: pay what its conditions owe, keep or choose a target, split the action
    budget."""
    if member.conditions is None:  # Character.round_budget's answer, without its call
        budget = actions
        member.move_actions = 0
        member.all_out = False
    else:
        budget = member.round_budget(arena)
        if not budget:
            return
    pol = member.policies
    target = member.target
    if not (pol.keeps_target and target is not None and target.fighting):
        target = _new_target(member, arena)
    if target is not None and target.engaged_round == arena.round:  # places claimed
        target = member.with_room(target, arena)
    member.target = target
    if target is None:  # every action a defence
        member.attacks_planned, member.defences_left = 0, budget
        return
    member.aim = None
    n = pol.attack_count
    if n > budget:
        n = budget
    member.attacks_planned, member.defences_left = n, budget - n


def _act(member: Any, arena: Any, now: int) -> None:
    """:meth:`Character.act` of a plain fighter in one melee with a target, with
    :func:`strike` inlined for a blow on a character without spirit figures (no aim or
    all-out attack: it is plain; sizes compared where the rules compare them); any other
    fighter by its own method."""
    if (
        member.plain is not True
        or member.stepped
        or member.move_actions
        or member.target is None
        or (member.placed and not arena.field.all_touching)
    ):
        member.act(arena)
        return
    found = member.conditions
    if found is not None and not member.ready(arena):
        return
    if member.placed:
        member.gait = None
    a_pen = member.track.penalty if found is None else member.track.penalty + found.penalty
    rnd = arena.round
    rules = arena.combat_rules
    size = member.size_value if rules.weapon_size_comparison else None
    left = member.attacks_planned
    while left:  # for each planned attack (a range's iterator costs more than the count)
        left -= 1
        target = member.target
        if target is None or not target.fighting:
            target = member.target = _new_target(member, arena)
            if target is None:
                return
        if target.roomy is not True and not admit(target, member, arena):
            target = another_in_reach(member, arena)
            if target is None:
                return
        if type(target) is not Character or target.spirit is not None:
            strike(member, member.fighter, target, arena)
            if not member.fighting:
                return
            continue
        defended = target.defences_left > 0
        if defended:
            target.defences_left -= 1
        found = target.conditions
        d_pen = target.track.penalty if found is None else target.track.penalty + found.penalty
        pending = target.pending
        track = target.track if pending is None else pending
        protection = target.protection
        gait = target.gait
        rank = (
            1
            if target.target is member or target.fighter.shield is None
            else shield_rank(target, member, rnd)
        )
        bonus = moving_target_bonus(gait, arena.options.move.target_bonus) if gait else 0
        modifier = 0
        if size is not None and target.size_value is not None:  # as strike compares
            theirs = target.size_value
            modifier = size_comparison_modifier(size, 0, theirs, 0)
            d_pen += size_comparison_modifier(theirs, 0, size, 0)
        res: Any = resolve_attack(  # in order, not by keyword: one call a swing
            member.fighter, target.fighter, track, member.rng, rules,
            a_pen, d_pen, defended, modifier, rank, protection, bonus,
        )  # fmt: skip
        log = arena.log
        if log.keeps:  # arena.defer's entry, without a call
            log.raw.append(
                (now, rnd, attack_event, member.name, target.name, res, a_pen, d_pen, defended,
                 member.verb, target.defence_verb, None)
            )  # fmt: skip
        if not res[_HIT]:
            continue
        if protection is not NO_PROTECTION:
            land(target, res, track, protection, arena)
        elif res[_CRIT_EFFECTS]:
            target.absorb(res, arena)
        elif target.pending is not None:  # Character.absorb and _wounded, inlined
            target.pending = res[_TRACK]
        else:
            track = target.track = res[_TRACK]
            if track.out_of_fight and target.fighting:
                arena.take_out(target, track.level.label)
        if not member.fighting:
            return
