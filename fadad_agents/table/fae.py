"""The Fae Domains decisions a controlled Fae combatant takes at the table.

One wrapper per Fae decision of :class:`~fadad_agents.policies.fae.defaults.FaePolicySet`
(``fae-domains.md`` 2-3, 6-7): the action at each count, the defence against an attack,
a called shot and attacking to stun, the free flight or mount action. The shared
decisions (whom to attack, retreat, morale) are the personal ones
(:mod:`~fadad_agents.table.personal`).
"""

from __future__ import annotations

from typing import Any

from fadad_agents.policies.fae.defaults import FaePolicySet
from fadad_agents.table.control import Asking, ask_yes_no, register_decision
from fadad_agents.table.questions import Choice

__all__ = ["ACTIONS", "SHOTS", "AskFaeAction", "AskFaeCalledShot", "AskFaeDefence", "AskFaeTactics"]

ACTIONS: tuple[tuple[str, str], ...] = (
    ("attack", "attack"),
    ("attack_after_walk", "walk in and attack"),
    ("take_aim", "take aim (+5%)"),
    ("move", "move (2 x Walk MR toward the foe)"),
    ("run", "run (Run MR toward the foe)"),
    ("hold", "grapple (hold)"),
    ("ready_weapon", "ready a weapon"),
    ("wait", "wait"),
)
"""The actions offered at a count (the policy's own, if another, is offered too)."""

SHOTS: tuple[tuple[str | None, str], ...] = (
    (None, "a normal attack"),
    ("plain", "a called shot (+20 margin only)"),
    ("head", "called shot: head"),
    ("limb", "called shot: a limb"),
    ("chest", "called shot: chest"),
    ("abdomen", "called shot: abdomen"),
    ("nerve_center", "called shot: nerve centre"),
    ("disarm", "called shot: disarm"),
    ("item_break", "called shot: break an item"),
)
"""The called shots offered (``fae-domains.md`` 3.5)."""

_DEFENCES = (
    ("dodge", "dodge (short action)"),
    ("block", "block (short action)"),
    ("acrobatic_dodge", "acrobatic dodge (full action)"),
    ("none", "take it"),
)
_TACTICS = (
    ("none", "no flight or mount action"),
    ("fly", "fly"),
    ("climb", "climb"),
    ("dive", "dive"),
    ("glide", "glide"),
    ("command_mount", "command the mount"),
)


def _offered(options: tuple[tuple[Any, str], ...], default: Any) -> list[Choice]:
    """The options as choices, with the policy's own answer added if it is another."""
    choices = [Choice(label, value) for value, label in options]
    if default not in [c.value for c in choices]:
        choices.insert(0, Choice(f"{default} (the policy's)", default))
    return choices


class AskFaeAction(Asking):
    """The action at this count (free actions the policy returns are offered as its
    choice)."""

    __slots__ = ()

    def choose_action(self, actor: Any, target: Any, battle: Any, *rest: Any) -> str:
        default = self.inner.choose_action(actor, target, battle, *rest)
        against = "" if target is None else f" ({target.name} at {actor.distance(target):.0f} yd)"
        prompt = f"what does {actor.name} do{against}?"
        return str(
            self.table.decide(actor.name, "fae_action", prompt, _offered(ACTIONS, default), default)
        )


class AskFaeDefence(Asking):
    """Dodge, block, acrobatic dodge, or take the blow."""

    __slots__ = ()

    def defend(self, actor: Any, attacker: Any, battle: Any, *rest: Any) -> str:
        default = self.inner.defend(actor, attacker, battle, *rest)
        margin = f" (margin {rest[0]})" if rest else ""
        prompt = f"{attacker.name} hits {actor.name}{margin}: defend?"
        return str(
            self.table.decide(
                actor.name, "fae_defence", prompt, _offered(_DEFENCES, default), default
            )
        )


class AskFaeCalledShot(Asking):
    """A called shot for this attack, and whether to attack to stun."""

    __slots__ = ()

    def choose_shot(self, actor: Any, target: Any, battle: Any, *rest: Any) -> str | None:
        default = self.inner.choose_shot(actor, target, battle, *rest)
        prompt = f"{actor.name} attacks {target.name}: a called shot?"
        shot = self.table.decide(
            actor.name, "fae_called_shot", prompt, _offered(SHOTS, default), default
        )
        return None if shot is None else str(shot)

    def stun(self, actor: Any, target: Any, battle: Any, *rest: Any) -> bool:
        default = bool(self.inner.stun(actor, target, battle, *rest))
        return ask_yes_no(
            self.table, actor.name, "fae_stun", f"does {actor.name} attack {target.name} to stun?",
            "to stun", "to harm", default,
        )  # fmt: skip


class AskFaeTactics(Asking):
    """A free flight or mount action before the next action."""

    __slots__ = ()

    def manoeuvre(self, actor: Any, target: Any, battle: Any, *rest: Any) -> str:
        default = self.inner.manoeuvre(actor, target, battle, *rest)
        able = {"none"}
        if getattr(actor, "fly_mr", None):
            able |= {"fly", "climb", "dive", "glide"}
        if getattr(actor, "mounted", False):
            able.add("command_mount")
        options = tuple((value, label) for value, label in _TACTICS if value in able)
        prompt = f"{actor.name}: a flight or mount action first?"
        choices = _offered(options, default)
        return str(self.table.decide(actor.name, "fae_tactics", prompt, choices, default))


for _field, _wrapper in (
    ("action", AskFaeAction),
    ("defence", AskFaeDefence),
    ("called_shot", AskFaeCalledShot),
    ("tactics", AskFaeTactics),
):
    register_decision(FaePolicySet, _field, _wrapper)
