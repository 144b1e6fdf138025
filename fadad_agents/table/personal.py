"""The personal decisions a controlled fighter, crew or unit takes at the table.

One wrapper per decision kind of :class:`~fadad_agents.policies.PolicySet`
(``policies/core/protocols.py``): whom to attack, attack or all-out defence, how many
attacks, hold or leave, first aid, Ité points, how to strike (a called shot, a stun blow)
and what a broken band does. Whether a
morale check is due is a rule, not a choice: it stays with the policy.
"""

from __future__ import annotations

import random
from typing import Any

from fadad_agents.policies.core.movement import CloseIn, Flee
from fadad_agents.policies.core.policy_set import PolicySet
from fadad_agents.policies.core.protocols import PLAIN, Aim, MoraleChoice, Stance
from fadad_agents.rules.core.wounds import Wound
from fadad_agents.table.control import Asking, ask_yes_no, register_decision
from fadad_agents.table.questions import Choice
from fadad_agents.table.status import named

__all__ = [
    "AskAim",
    "AskFirstAid",
    "AskItePoints",
    "AskMorale",
    "AskMovement",
    "AskMultiAttack",
    "AskRetreat",
    "AskStance",
    "AskTargeting",
    "by_setup",
]


def by_setup(agents: Any) -> list[Any]:
    """Agents in set-up order (the battle's live lists are reordered as fighters fall)."""
    return sorted(agents, key=lambda a: getattr(a, "index", 0))


class AskTargeting(Asking):
    """Whom to attack: any active foe, or no attack this round."""

    __slots__ = ()

    def choose_target(self, actor: Any, battle: Any, rng: random.Random, *rest: Any) -> Any:
        default = self.inner.choose_target(actor, battle, rng, *rest)
        foes = by_setup(battle.foes(actor.side))
        choices = [Choice(f"attack {named(f)}", f) for f in foes]
        choices.append(Choice("no attack this round", None))
        return self.table.decide(
            actor.name, "targeting", f"whom does {actor.name} attack?", choices, default
        )


class AskStance(Asking):
    """Attack, or spend every action on defence this round."""

    __slots__ = ()

    def choose_stance(self, actor: Any, target: Any, battle: Any, *rest: Any) -> Stance:
        default = self.inner.choose_stance(actor, target, battle, *rest)
        choices = (
            Choice("attack", Stance.ATTACK),
            Choice("all-out defence", Stance.ALL_OUT_DEFENCE),
        )
        return Stance(
            self.table.decide(
                actor.name, "stance", f"{actor.name} against {target.name}:", choices, default
            )
        )


class AskMultiAttack(Asking):
    """How many of the round's actions attack (the rest defend)."""

    __slots__ = ()

    def attacks(self, actor: Any, target: Any, battle: Any, budget: int, *rest: Any) -> int:
        default = max(1, min(budget, self.inner.attacks(actor, target, battle, budget, *rest)))
        choices = [
            Choice(f"{n} attack{'s' if n > 1 else ''}, {budget - n} defence"
                   f"{'s' if budget - n != 1 else ''}", n)
            for n in range(1, budget + 1)
        ]  # fmt: skip
        return int(
            self.table.decide(
                actor.name,
                "multi_attack",
                f"how does {actor.name} split its actions?",
                choices,
                default,
            )
        )


class AskRetreat(Asking):
    """Hold, withdraw or surrender (by choice: no roll)."""

    __slots__ = ()

    def decide(self, actor: Any, battle: Any, *rest: Any) -> MoraleChoice:
        default = self.inner.decide(actor, battle, *rest)
        choices = (
            Choice("fight on", MoraleChoice.HOLD),
            Choice("withdraw", MoraleChoice.WITHDRAW),
            Choice("surrender", MoraleChoice.SURRENDER),
        )
        return MoraleChoice(
            self.table.decide(
                actor.name, "retreat", f"does {actor.name} fight on?", choices, default
            )
        )


class AskMorale(Asking):
    """What a band whose morale broke does: withdraw or surrender (when a check is due
    stays the policy's: it is a rule)."""

    __slots__ = ()

    def on_break(self, actor: Any, battle: Any, *rest: Any) -> MoraleChoice:
        default = self.inner.on_break(actor, battle, *rest)
        choices = (
            Choice("withdraw", MoraleChoice.WITHDRAW),
            Choice("surrender", MoraleChoice.SURRENDER),
            Choice("hold (the GM overrules the break)", MoraleChoice.HOLD),
        )
        return MoraleChoice(
            self.table.decide(
                actor.name, "morale", f"{actor.name}'s morale breaks:", choices, default
            )
        )


class AskFirstAid(Asking):
    """Tend a fallen friend this round, or fight."""

    __slots__ = ()

    def patient(self, actor: Any, battle: Any, *rest: Any) -> Any:
        default = self.inner.patient(actor, battle, *rest)
        fallen = [f for f in by_setup(battle.downed(actor.side)) if hasattr(f, "stabilised")]
        choices = [Choice(f"tend {named(f)}", f) for f in fallen]
        choices.append(Choice("fight", None))
        return self.table.decide(
            actor.name, "first_aid", f"does {actor.name} give first aid?", choices, default
        )


class AskItePoints(Asking):
    """Spend an Ité point to take a deadly blow as Incapacitated (FADAD 4.5.9)."""

    __slots__ = ()

    def spend(self, actor: Any, blow: int, battle: Any, *rest: Any) -> bool:
        default = self.inner.spend(actor, blow, battle, *rest)
        left = getattr(actor, "ite_points", "?")
        return ask_yes_no(
            self.table, actor.name, "ite_points",
            f"a blow leaves {actor.name} {Wound(blow).label}: spend an Ité point ({left} left)?",
            "spend one: Incapacitated instead", "keep it", default,
        )  # fmt: skip


class AskMovement(Asking):
    """Where to head this round: stay, close on the target at a walk, jog or run, or run
    from the nearest foe (the policy's own, if another, is offered first)."""

    __slots__ = ()

    def destination(self, actor: Any, target: Any, battle: Any, *rest: Any) -> Any:
        default = self.inner.destination(actor, target, battle, *rest)
        choices = [Choice("stay where it is", None)]
        if target is not None:
            for gait in ("walk", "jog", "run"):
                move = CloseIn(gait).destination(actor, target, battle)
                if move is not None:
                    choices.append(Choice(f"close on {named(target)} ({gait})", move))
        away = Flee().destination(actor, target, battle)
        if away is not None:
            choices.append(Choice("run from the nearest foe", away))
        if default not in [c.value for c in choices]:
            (x, y), actions = default
            choices.insert(0, Choice(f"head for ({x:.0f}, {y:.0f}) yd, {actions} actions", default))
        return self.table.decide(
            actor.name, "movement", f"where does {actor.name} move?", choices, default
        )


_AIMS = (
    ("a plain blow", PLAIN),
    *(
        (f"a called shot at the {part}", Aim(location=part))
        for part in ("leg", "arm", "head", "eye")
    ),
    ("a stun blow", Aim(stun=True)),
    ("a stun blow at the head", Aim(location="head", stun=True)),
    ("pull its blows to a Scratch", Aim(pulled_to=Wound.SCRATCH)),
)
"""The ways to strike a GM is offered (agents.core.aims)."""


class AskAim(Asking):
    """How to strike this round: plainly, a called shot at a body part, a stun blow, or
    pulled to a Scratch (the policy's own, if another, is offered first)."""

    __slots__ = ()

    def aim(self, actor: Any, target: Any, battle: Any, edge: int, *rest: Any) -> Aim:
        default = self.inner.aim(actor, target, battle, edge, *rest)
        choices = [Choice(label, aim) for label, aim in _AIMS]
        if default not in [c.value for c in choices]:
            choices.insert(0, Choice(f"as its policy says ({default})", default))
        chosen: Aim = self.table.decide(
            actor.name, "aim", f"how does {actor.name} strike {named(target)}?", choices, default
        )
        return chosen


for _field, _wrapper in (
    ("targeting", AskTargeting),
    ("stance", AskStance),
    ("multi_attack", AskMultiAttack),
    ("retreat", AskRetreat),
    ("morale", AskMorale),
    ("first_aid", AskFirstAid),
    ("ite_points", AskItePoints),
    ("movement", AskMovement),
    ("aim", AskAim),
):
    register_decision(PolicySet, _field, _wrapper)
