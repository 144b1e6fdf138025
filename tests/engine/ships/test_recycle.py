"""A reset ship battle is the battle ``build_battle`` gives; recycled runs match fresh ones.

``run`` and sweeps replay a ship scenario on one recycled battle
(:func:`fadad_agents.engine.play_through`, :meth:`ShipBattle.reset`), as they do small
personal battles: after a reset every attribute of the battle, its ships, weapons, decks,
grapples and people equals a freshly built battle's, and the logs are the same byte for
byte.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from fadad_agents.agents.ships.ship import Ship
from fadad_agents.agents.ships.weapon_team import WeaponTeam
from fadad_agents.engine import build_battle, load, play_through, run
from fadad_agents.engine.ships.battle import ShipBattle
from tests.engine.core.test_recycle import _plain, _slots, _state

SCENARIOS = Path(__file__).resolve().parents[3] / "scenarios"

_STREAMS = (
    "gunnery",
    "crits",
    "fire",
    "close",
    "chase",
    "ship_morale",
    "deck_initiative",
    "ship_initiative",
    "helm",
    "jettison",
    "hull_attacks",
    "aftermath",
    "shaken",
)


def _newcomer() -> str:
    """The duel with the reaver sighted by the encounter roll, weapons starting empty and
    the merchant bringing damage from an earlier fight."""
    text = (SCENARIOS / "ship-duel.yaml").read_text()
    text = text.replace("        position: [8, -4]\n", "")
    text = text.replace(
        "        position: [0, 0]\n", "        position: [0, 0]\n        hull_damage: 3\n"
    )
    return text.replace(
        "  fire.sj_firefighting: true\n",
        "  fire.sj_firefighting: true\n  sj.weapons_start_loaded: false\n",
    )


def _team(team: WeaponTeam) -> dict[str, Any]:
    """A weapon's state: its clock and reload process by what they are, not by identity."""
    return {
        **{
            n: _plain(getattr(team, n))
            for n in WeaponTeam.__slots__
            if n not in ("env", "process", "on_loaded", "ship")
        },
        "reloading": team.reloading,
        "unique_id": team.unique_id,
    }


def _agent(member: Any) -> dict[str, Any]:
    """:func:`_slots` of an agent; a ship's weapons by :func:`_team`, her helm's process
    by whether it runs."""
    slots = _slots(member)
    if isinstance(member, Ship):
        slots["teams"] = [_team(t) for t in member.teams]
        helm = member.helm_process  # a process of its own battle's clock
        slots["helm_process"] = None if helm is None else helm.is_alive
    return slots


def _ship_state(battle: Any) -> dict[str, Any]:
    """Everything a ship battle's play depends on besides :func:`_state`'s."""
    assert isinstance(battle, ShipBattle)
    kept = {
        n: _plain(v)
        for n, v in vars(battle).items()
        if n.startswith(("_deck", "_home", "_aboard", "_lines", "_role", "_missile", "_people"))
        or n
        in (
            "_grappled_at",
            "_dexterity",
            "_helm_skill",
            "_spells",
            "_set_up",
            "casters",
            "spots",
            "jettisoned",
            "debris",
            "start_hex",
            "turn_order",
            "initiative_side",
            "crews_changed",
            "repairs",
            "incapacitated",
            "round_seconds",
        )
    }
    return {
        **_state(battle),
        **kept,
        "log_round_seconds": battle.log.round_seconds,
        "agents": [_agent(m) for side in battle.sides for m in side.members],
        # Mesa's agents: a lost ship's weapons stay among them, as she does (a reset
        # restarts them where they are)
        "mesa agents": sorted(a.unique_id for a in battle.agents),
        "named streams": {n: battle.streams.get(n).getstate() for n in _STREAMS},
        "positions": [m.position for m in battle.people],
    }


SOURCES = [
    "ship-duel.yaml",
    "fleet-action.yaml",
    "boarding-action.yaml",
    "wyrm-at-the-moonlet.yaml",
]


@pytest.mark.parametrize("source", [*SOURCES, "newcomer"])
def test_a_reset_ship_battle_is_the_built_battle(source: str) -> None:
    """After a whole battle and a reset, every attribute equals a fresh build's for the new
    seed, before and after both are played to the end."""
    scenario = load(_newcomer() if source == "newcomer" else SCENARIOS / source)
    played = build_battle(scenario, 11, collect=True)
    played.run_to_end()
    assert played.resettable
    played.reset(22, collect=False)
    fresh = build_battle(scenario, 22, collect=False)
    assert _ship_state(played) == _ship_state(fresh)
    played.run_to_end()
    fresh.run_to_end()
    assert played.round > 1
    assert _ship_state(played) == _ship_state(fresh)


@pytest.mark.parametrize("source", [*SOURCES, "newcomer"])
def test_recycled_ship_runs_match_fresh_battles(source: str) -> None:
    """Plays of one ship scenario object reuse one battle; each play's log is a fresh
    battle's, byte for byte (ships lost, struck or escaped in one play sail again in the next)."""
    scenario = load(_newcomer() if source == "newcomer" else SCENARIOS / source)
    seen = set()
    for seed in (5, 1, 9, 2, 5):
        fresh = build_battle(scenario, seed, collect=False).run_to_end()
        with play_through(scenario, seed, collect=False) as battle:
            seen.add(id(battle))
            assert battle.run_to_end().log.to_jsonl() == fresh.log.to_jsonl()
        assert run(scenario, seed=seed).log.to_jsonl() == fresh.log.to_jsonl()
    assert len(seen) == 1


def test_a_ship_battle_with_a_stateful_ship_policy_is_built_afresh() -> None:
    """A ship policy that may keep state between calls (a plug-in not marked stateless)
    makes the battle unfit for recycling: every play builds anew."""
    from fadad_agents.policies.ships.maneuver import Flee
    from fadad_agents.policies.ships.registry import SHIP_REGISTRY

    class Wary(Flee):
        """A plug-in maneuver that might count the rounds it fled."""

    SHIP_REGISTRY.register("maneuver", "wary_test", Wary)
    text = (SCENARIOS / "ship-duel.yaml").read_text().replace("{name: flee}", "{name: wary_test}")
    scenario = load(text)
    with play_through(scenario, 1) as first:
        first.run_to_end()
        assert not first.resettable
    with play_through(scenario, 2) as second:
        assert second is not first
