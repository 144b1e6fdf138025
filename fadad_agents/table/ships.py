"""The ship decisions a controlled ship takes at the table.

One wrapper per decision of :class:`~fadad_agents.policies.ships.registry.ShipPolicySet`
(``policies/ships/protocols.py``): the helm (where to move, first or last), the guns
(which ship, hull or crew), hands at the guns, firefighting, boarding and cutting lines,
striking the colours, escaping and pursuing. The crews aboard decide as personal
fighters (:mod:`~fadad_agents.table.personal`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from fadad_agents.policies.ships.protocols import MoveOption
from fadad_agents.policies.ships.registry import ShipPolicySet
from fadad_agents.table.control import Asking, ask_yes_no, register_decision
from fadad_agents.table.questions import Choice
from fadad_agents.table.status import named

__all__ = [
    "AskBoarding",
    "AskColours",
    "AskEvasion",
    "AskFirefighting",
    "AskGunnery",
    "AskManeuver",
    "AskPursuit",
    "AskReload",
    "move_label",
]

_TURNS = {"F": "ahead", "L": "turn port", "R": "turn starboard"}


def move_label(option: MoveOption) -> str:
    """``FFL: ahead 2, turn port -> (3, -1) facing 5`` (a plan of F, L and R steps)."""
    steps: list[str] = []
    for step in option.plan:
        word = _TURNS.get(step, step)
        if steps and steps[-1].startswith(word) and word == "ahead":
            count = int(steps[-1].split()[-1]) + 1 if steps[-1] != word else 2
            steps[-1] = f"{word} {count}"
        else:
            steps.append(word)
    plan = ", ".join(steps) or "hold position"
    return f"{option.plan or '-'}: {plan} -> {option.end} facing {option.facing}"


class AskManeuver(Asking):
    """Where the ship moves this round, and first or last when her side wins initiative."""

    __slots__ = ()

    def choose_move(
        self, ship: Any, battle: Any, options: Sequence[MoveOption], *rest: Any
    ) -> MoveOption:
        default = self.inner.choose_move(ship, battle, options, *rest)
        choices = [Choice(move_label(o), o) for o in options]
        move: MoveOption = self.table.decide(
            ship.name, "maneuver", f"where does {ship.name} go?", choices, default
        )
        return move

    def move_order(self, ship: Any, battle: Any, *rest: Any) -> str:
        default = self.inner.move_order(ship, battle, *rest)
        choices = (Choice("move first", "first"), Choice("move last", "last"))
        return str(
            self.table.decide(
                ship.name, "move_order", f"{ship.name}'s side won initiative:", choices, default
            )
        )


class AskGunnery(Asking):
    """Which ship the guns shoot at, and at her hull or her crew; or hold fire."""

    __slots__ = ()

    def choose_ship_target(
        self, ship: Any, battle: Any, candidates: Sequence[Any], *rest: Any
    ) -> Any:
        default = self.inner.choose_ship_target(ship, battle, candidates, *rest)
        choices = [
            Choice(f"{aim} of {named(c)}, {battle.range_between(ship, c)} hexes", (c, aim))
            for c in candidates
            for aim in ("hull", "crew")
        ]
        choices.append(Choice("hold fire", None))
        return self.table.decide(
            ship.name, "gunnery", f"what do {ship.name}'s guns shoot at?", choices, default
        )


class AskReload(Asking):
    """Hands at each gun (the rest sail the ship)."""

    __slots__ = ()

    def assign(self, hands: int, min_crew: int, needs: Sequence[int], *rest: Any) -> list[int]:
        default = list(self.inner.assign(hands, min_crew, needs, *rest))
        spare, in_order = max(0, hands - min_crew), []
        for need in needs:
            given = min(need, spare)
            in_order.append(given)
            spare -= given
        choices = [
            Choice(f"the policy's: {_crews(default)}", default),
            Choice(f"guns in order: {_crews(in_order)}", in_order),
            Choice("nobody at the guns (all sail)", [0] * len(needs)),
        ]
        unique = [c for i, c in enumerate(choices) if c.value not in [d.value for d in choices[:i]]]
        return list(
            self.table.decide(
                self.who,
                "reload",
                f"{hands} hands, {min_crew} to sail: who mans the guns?",
                unique,
                default,
            )
        )


def _crews(hands: Sequence[int]) -> str:
    return ", ".join(str(h) for h in hands) or "no guns"


class AskFirefighting(Asking):
    """Hands sent against a fire."""

    __slots__ = ()

    def firefighters(self, ship: Any, value: int, hands: int, *rest: Any) -> int:
        default = int(self.inner.firefighters(ship, value, hands, *rest))
        counts = sorted({0, hands // 2, hands, default})
        choices = [Choice("nobody" if n == 0 else f"{n} hands", n) for n in counts]
        prompt = f"a fire aboard {ship.name} (value {value}): how many of {hands} hands fight it?"
        return int(self.table.decide(ship.name, "firefighting", prompt, choices, default))


class AskBoarding(Asking):
    """Swarm across to a grappled enemy; cut the grappling lines."""

    __slots__ = ()

    def board(self, ship: Any, enemy: Any, battle: Any, *rest: Any) -> bool:
        default = bool(self.inner.board(ship, enemy, battle, *rest))
        return ask_yes_no(
            self.table, ship.name, "board", f"{ship.name} is grappled with {enemy.name}:",
            "board her", "stay aboard", default,
        )  # fmt: skip

    def cut_lines(self, ship: Any, enemy: Any, battle: Any, *rest: Any) -> bool:
        default = bool(self.inner.cut_lines(ship, enemy, battle, *rest))
        return ask_yes_no(
            self.table, ship.name, "cut_lines", f"{ship.name} is grappled with {enemy.name}:",
            "cut the lines", "keep the lines", default,
        )  # fmt: skip


class AskColours(Asking):
    """Strike the colours by choice (the morale check on the section 18 triggers stays)."""

    __slots__ = ()

    def strike_now(self, ship: Any, battle: Any, *rest: Any) -> bool:
        default = bool(self.inner.strike_now(ship, battle, *rest))
        return ask_yes_no(
            self.table, ship.name, "colours", f"does {ship.name} strike her colours?",
            "strike", "fight on", default,
        )  # fmt: skip


class AskEvasion(Asking):
    """Accelerate to spelljamming speed and leave."""

    __slots__ = ()

    def escape(self, ship: Any, battle: Any, *rest: Any) -> bool:
        default = bool(self.inner.escape(ship, battle, *rest))
        return ask_yes_no(
            self.table, ship.name, "evasion", f"nothing near {ship.name}: does she escape?",
            "escape", "stay", default,
        )  # fmt: skip


class AskPursuit(Asking):
    """Follow a quarry that escaped."""

    __slots__ = ()

    def pursue(self, ship: Any, quarry: Any, battle: Any, *rest: Any) -> bool:
        default = bool(self.inner.pursue(ship, quarry, battle, *rest))
        return ask_yes_no(
            self.table, ship.name, "pursuit", f"{quarry.name} escapes: does {ship.name} follow?",
            "pursue", "let her go", default,
        )  # fmt: skip


for _field, _wrapper in (
    ("maneuver", AskManeuver),
    ("targeting", AskGunnery),
    ("reload", AskReload),
    ("firefighting", AskFirefighting),
    ("boarding", AskBoarding),
    ("colours", AskColours),
    ("evasion", AskEvasion),
    ("pursuit", AskPursuit),
):
    register_decision(ShipPolicySet, _field, _wrapper)
