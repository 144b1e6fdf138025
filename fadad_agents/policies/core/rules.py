"""Declarative ``condition -> choice`` rules written in scenario files.

A rules policy is chosen like any other (``name: rules``) and reads its rules from one
string parameter, first match wins; ``else`` (or ``always``) matches anything::

    policies:
      targeting: {name: rules, params: {rules: "wound >= Very Hurt -> strongest; else -> weakest"}}
      retreat:   {name: rules, params: {rules: "wound >= Very Hurt -> withdraw"}}
      stance:    {name: rules, params: {rules: "outnumbered and wound >= Hurt -> all_out_defence"}}

Conditions are comparisons joined by ``and``; the quantities are ``wound`` (own wound
level, compared with a level name), ``round``, ``side`` (share of the own side still
fighting: ``side < 50%``), ``losses`` (share of the own group down), ``foes`` and
``friends`` (active counts); ``outnumbered`` is true when foes outnumber friends.
Rules are parsed once when the scenario is loaded; nothing is ``eval``-ed.
"""

from __future__ import annotations

import operator
import random
import re
from collections.abc import Callable
from dataclasses import dataclass

from fadad_agents.policies.core.defaults import (
    FixedTargeting,
    RandomTargeting,
    StickyTargeting,
    StrongestTargeting,
    WeakestTargeting,
    wound_level,
)
from fadad_agents.policies.core.protocols import (
    BattleView,
    CombatantView,
    MoraleChoice,
    Stance,
    TargetingPolicy,
)

__all__ = ["Rule", "RulesRetreat", "RulesStance", "RulesTargeting", "parse_rules"]

type Getter = Callable[[CombatantView, BattleView], float]
type Test = Callable[[CombatantView, BattleView], bool]

_OPS: dict[str, Callable[[float, float], bool]] = {
    ">=": operator.ge,
    "<=": operator.le,
    "==": operator.eq,
    "!=": operator.ne,
    ">": operator.gt,
    "<": operator.lt,
}
_COMPARISON = re.compile(r"^\s*([a-z_]+)\s*(>=|<=|==|!=|>|<)\s*(.+?)\s*$")


def _losses(a: CombatantView, b: BattleView) -> float:
    return 1.0 - a.headcount / a.initial_headcount if a.initial_headcount else 1.0


_QUANTITIES: dict[str, Getter] = {
    "wound": lambda a, b: a.wound,
    "round": lambda a, b: b.round,
    "side": lambda a, b: b.side_fraction(a.side),
    "losses": _losses,
    "foes": lambda a, b: len(b.foes(a.side)),
    "friends": lambda a, b: len(b.friends(a.side)),
}


def _outnumbered(a: CombatantView, b: BattleView) -> bool:
    return len(b.foes(a.side)) > len(b.friends(a.side))


def _value(quantity: str, text: str) -> float:
    if quantity == "wound":
        return wound_level(text)
    if text.endswith("%"):
        return float(text[:-1]) / 100.0
    try:
        return float(text)
    except ValueError:
        raise ValueError(f"{text!r} is not a number for {quantity!r}") from None


type Term = tuple[str, str, float]
"""A condition's comparison as written: its quantity, operator and value (``outnumbered``:
``("outnumbered", "", 0.0)``), for code that evaluates rules without calling them (the
compiled melee)."""


def _comparison(part: str) -> tuple[Test, Term]:
    if part == "outnumbered":
        return _outnumbered, ("outnumbered", "", 0.0)
    match = _COMPARISON.match(part)
    if not match:
        raise ValueError(
            f"cannot read condition {part!r}; write e.g. 'wound >= Very Hurt', 'side < 50%', "
            "'outnumbered' or 'else'"
        )
    quantity, op, raw = match.groups()
    getter = _QUANTITIES.get(quantity)
    if getter is None:
        raise ValueError(f"unknown quantity {quantity!r}; known: {', '.join(_QUANTITIES)}")
    compare, value = _OPS[op], _value(quantity, raw)
    return (lambda a, b: compare(getter(a, b), value)), (quantity, op, float(value))


def _condition(text: str) -> tuple[Test, tuple[Term, ...]]:
    text = text.strip().lower()
    if text in ("else", "always", ""):
        return (lambda a, b: True), ()
    parts = [_comparison(p.strip()) for p in re.split(r"\band\b", text)]
    tests = [test for test, _ in parts]
    return (lambda a, b: all(t(a, b) for t in tests)), tuple(term for _, term in parts)


@dataclass(frozen=True, slots=True)
class Rule:
    """One compiled rule: a test, the choice it makes, and the test's comparisons as
    written (all must hold; none: ``else``)."""

    text: str
    test: Test
    choice: str
    terms: tuple[Term, ...] = ()


def parse_rules(text: str, choices: tuple[str, ...]) -> tuple[Rule, ...]:
    """Compile ``"cond -> choice; cond -> choice"``; choices must be in ``choices``."""
    rules: list[Rule] = []
    for raw in re.split(r"[;\n]", text):
        if not raw.strip():
            continue
        if "->" not in raw:
            raise ValueError(f"rule {raw.strip()!r} has no '->' (write 'condition -> choice')")
        cond, _, choice = raw.rpartition("->")
        choice = choice.strip().lower().replace(" ", "_")
        if choice not in choices:
            raise ValueError(
                f"unknown choice {choice!r} in rule {raw.strip()!r}; allowed: {', '.join(choices)}"
            )
        test, terms = _condition(cond)
        rules.append(Rule(raw.strip(), test, choice, terms))
    if not rules:
        raise ValueError("no rules given")
    return tuple(rules)


def _first(rules: tuple[Rule, ...], actor: CombatantView, battle: BattleView) -> str | None:
    for rule in rules:
        if rule.test(actor, battle):
            return rule.choice
    return None


class RulesTargeting:
    """Targeting by rules: choices ``weakest``, ``strongest``, ``random``, ``sticky``, ``first``.

    When no rule matches, keeps the current target (``sticky``).
    """

    __slots__ = ("rules", "selectors")

    def __init__(self, rules: str, reach: int = 6) -> None:
        self.selectors: dict[str, TargetingPolicy] = {
            "weakest": WeakestTargeting(reach),
            "strongest": StrongestTargeting(reach),
            "random": RandomTargeting(),
            "sticky": StickyTargeting(),
            "first": FixedTargeting(),
        }
        self.rules = parse_rules(rules, tuple(self.selectors))

    def choose_target(
        self, actor: CombatantView, battle: BattleView, rng: random.Random
    ) -> CombatantView | None:
        choice = _first(self.rules, actor, battle) or "sticky"
        return self.selectors[choice].choose_target(actor, battle, rng)


class RulesRetreat:
    """Retreat by rules: choices ``withdraw``, ``surrender``, ``hold``; no match holds."""

    __slots__ = ("rules",)

    def __init__(self, rules: str) -> None:
        self.rules = parse_rules(rules, tuple(c.value for c in MoraleChoice))

    def decide(self, actor: CombatantView, battle: BattleView) -> MoraleChoice:
        return MoraleChoice(_first(self.rules, actor, battle) or "hold")


class RulesStance:
    """Stance by rules: choices ``attack``, ``all_out_defence``; no match attacks."""

    __slots__ = ("rules",)

    def __init__(self, rules: str) -> None:
        self.rules = parse_rules(rules, tuple(s.value for s in Stance))

    def choose_stance(
        self, actor: CombatantView, target: CombatantView, battle: BattleView
    ) -> Stance:
        return Stance(_first(self.rules, actor, battle) or "attack")
