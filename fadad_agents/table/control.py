"""Taking control of an agent: its policies wrapped by ones that ask the table.

An agent delegates every decision to its policies (``policies/``). A controlled agent's
policies are wrapped, one wrapper per decision kind: the wrapper first asks the wrapped
policy (so every stream is drawn exactly as in a battle nobody controls), offers the
legal choices with that answer as the default, and returns what the GM chose.

Decision kinds plug in by policy-set class and field (:func:`register_decision`): the
personal, ship and Fae Domains wrappers register themselves from
:mod:`~fadad_agents.table.personal`, :mod:`~fadad_agents.table.ships` and
:mod:`~fadad_agents.table.fae`; a decision no wrapper is registered for stays with its
policy (:func:`take_control` lists those).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Protocol

from fadad_agents.table.questions import Choice

__all__ = [
    "POLICY_ATTRIBUTES",
    "Asking",
    "Table",
    "ask_yes_no",
    "register_decision",
    "take_control",
]

POLICY_ATTRIBUTES = ("policies", "ship_policies", "fae_policies")
"""The attributes an agent keeps its policy sets in (every rule system's)."""


class Table(Protocol):
    """Where a wrapper puts a decision (the session)."""

    def decide(
        self, who: str, kind: str, prompt: str, choices: Sequence[Choice], default: Any
    ) -> Any:
        """The value of the choice taken; ``default`` is the policy's own answer."""
        ...


type Wrapper = Callable[[Any, Table, str], Any]
"""``wrapper(policy, table, who)``: the policy of agent ``who``, asking the table."""

_WRAPPERS: dict[type, dict[str, Wrapper]] = {}


def register_decision(policy_set: type, field: str, wrapper: Wrapper) -> None:
    """Ask the table for decision ``field`` of ``policy_set`` (a frozen dataclass of
    policies: ``PolicySet``, ``ShipPolicySet`` ...) through ``wrapper`` (a later
    registration replaces)."""
    _WRAPPERS.setdefault(policy_set, {})[field] = wrapper


class Asking:
    """Base of the wrappers: the wrapped policy answers every attribute the engine reads
    (``intent``, ``checks_morale`` ...) except ``constant``, which would let the agent skip
    the call (and the question)."""

    __slots__ = ("inner", "table", "who")

    def __init__(self, inner: Any, table: Table, who: str) -> None:
        self.inner = inner
        self.table = table
        self.who = who
        """The controlled agent (for decisions whose call does not name it)."""

    def __getattr__(self, name: str) -> Any:
        if name == "constant":
            raise AttributeError(name)
        return getattr(self.inner, name)


def ask_yes_no(
    table: Table, who: str, kind: str, prompt: str, yes: str, no: str, default: bool
) -> bool:
    """A yes-or-no decision: ``yes`` and ``no`` are the two choices' labels."""
    return bool(table.decide(who, kind, prompt, (Choice(yes, True), Choice(no, False)), default))


def _wrapped(policy_set: Any, table: Table, who: str, done: dict[int, Any], left: list[str]) -> Any:
    """``policy_set`` with every registered decision asking ``table`` (policy sets nested
    in it, as a Fae set holds the shared one, wrapped too, each once)."""
    if id(policy_set) in done:
        return done[id(policy_set)]
    wrappers = _WRAPPERS.get(type(policy_set), {})
    changes: dict[str, Any] = {}
    for field in dataclasses.fields(policy_set):
        if not field.init:
            continue
        value = getattr(policy_set, field.name)
        if dataclasses.is_dataclass(value) and type(value) in _WRAPPERS:
            changes[field.name] = _wrapped(value, table, who, done, left)
        elif field.name in wrappers:
            changes[field.name] = wrappers[field.name](value, table, who)
        elif not isinstance(value, bool):
            left.append(field.name)
    done[id(policy_set)] = result = dataclasses.replace(policy_set, **changes)
    return result


def take_control(agents: Iterable[Any], table: Table) -> list[str]:
    """Wrap the policies of ``agents`` to ask ``table``; returns the decision kinds left
    to their policies (no wrapper registered), sorted."""
    left: list[str] = []
    for agent in agents:
        done: dict[int, Any] = {}
        for attribute in POLICY_ATTRIBUTES:
            policy_set = getattr(agent, attribute, None)
            if policy_set is not None and type(policy_set) in _WRAPPERS:
                setattr(agent, attribute, _wrapped(policy_set, table, agent.name, done, left))
    return sorted(set(left))
