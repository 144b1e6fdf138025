"""Shared set-up of the engine-option tests: scenario text with extra rules, fixed dice."""

from __future__ import annotations

import json
from typing import Any

from fadad_agents.engine import build_battle, load
from fadad_agents.engine.ships.battle import ShipBattle
from tests.engine.conftest import SCENARIOS, FixedDice

__all__ = [
    "DUEL",
    "FADAD_RULES",
    "FLEET",
    "MOONLET",
    "FixedDice",
    "aboard_saltwind",
    "events",
    "member",
    "ships",
    "with_rules",
]

DUEL = (SCENARIOS / "ship-duel.yaml").read_text()
FLEET = (SCENARIOS / "fleet-action.yaml").read_text()
MOONLET = (SCENARIOS / "wyrm-at-the-moonlet.yaml").read_text()
MARA = "        aboard: Saltwind\n      - name: Saltwind crew\n"
FADAD_RULES = {"ship.damage_model": "fadad_levels", "ship.crit_table": "fadad_6dF"}


def with_rules(text: str, rules: dict[str, Any]) -> str:
    """``text`` (a scenario with a block ``rules:`` mapping) with ``rules`` added to it."""
    assert "\nrules:\n" in text
    lines = "".join(f"  {key}: {json.dumps(value)}\n" for key, value in rules.items())
    return text.replace("\nrules:\n", "\nrules:\n" + lines, 1)


def ships(text: str = DUEL, rules: dict[str, Any] | None = None, seed: int = 1) -> ShipBattle:
    """A ship battle of ``text`` (the duel) with ``rules`` added, ready to play."""
    battle = build_battle(load(with_rules(text, rules or {})), seed, collect=False)
    assert isinstance(battle, ShipBattle)
    return battle


def events(battle: Any, action: str, actor: str | None = None) -> list[Any]:
    """Logged events of ``action`` (by ``actor`` if given)."""
    return [e for e in battle.log if e.action == action and actor in (None, e.actor)]


def member(battle: Any, name: str) -> Any:
    """The person (character or crew) called ``name`` in a ship battle."""
    return next(m for m in battle.people if m.name == name)


def aboard_saltwind(extra: str, text: str = DUEL) -> str:
    """The duel with ``extra`` forces standing on Saltwind, aiming small arms at hulls."""
    text = text.replace(
        MARA, "        aboard: Saltwind\n" + extra + "      - name: Saltwind crew\n"
    )
    return text.replace(
        "          targeting: {name: nearest_ship}",
        "          targeting: {name: nearest_ship, params: {small_arms: hull}}",
    )
