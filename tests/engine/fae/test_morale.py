"""Morale in Fae scenes: an NPC band checks when its morale policy says so, with a
Willpower test of its lead (PROPOSED: the seed has no morale rule); a player character never
rolls NPC morale (``player: true``)."""

from __future__ import annotations

from fadad_agents.engine import build_battle, load
from tests.engine.conftest import fae_scene


def _fae(name: str, x: int, extra: str = "", wp: int = 60) -> str:
    return f"""
      - name: {name}
        attributes: {{reaction: 60, luck: 50, willpower: 20}}
        skills: {{Sword: 70, Dodge: 20}}
        wound_points: {wp}
        fatigue_points: 60
        weapons: [fae/longsword]
        position: [{x}, 0]
{extra}"""


def _scene(player: bool) -> str:
    """Red: Ann (a PC or not) and frail Cid with a morale check at 50% losses, against
    Bob who strikes Cid first."""
    who = "        player: true\n" if player else ""
    red = _fae("Ann", 0, who + "        policies: {fae_action: passive}\n") + _fae("Cid", 1, wp=1)
    text = fae_scene(red, _fae("Bob", 2, "        policies: {targeting: nearest}\n"),
                     name="morale", rounds=8)  # fmt: skip
    return text.replace(
        "  - name: Red\n",
        "  - name: Red\n    policies: {morale: {name: break_at_losses, params: {fraction: 0.5}}}\n",
    )


def _played(player: bool) -> list[list]:
    battles = []
    for seed in range(8):
        battle = build_battle(load(_scene(player)), seed=seed)
        battle.run_to_end()
        battles.append(battle.log.events)
    return battles


def test_npc_bands_check_morale_with_a_willpower_test() -> None:
    """Once Cid falls, Ann (an NPC) tests her nerve; Willpower 20 often breaks her, and a
    broken fighter leaves the fight at once."""
    broke = 0
    for events in _played(player=False):
        checks = [e for e in events if e.action == "fae_morale"]
        assert {e.actor for e in checks} <= {"Ann"}
        for e in checks:
            assert dict(e.modifiers)["mcs"] == 20 + 5  # Willpower + Luck / 10
            if e.result == "breaks":
                broke += 1
                assert any(x.actor == "Ann" and x.action == "withdraw" for x in events)
    assert broke


def test_player_characters_never_roll_npc_morale() -> None:
    """The same battles with Ann a player character: no morale check at all."""
    assert not [e for events in _played(player=True) for e in events if e.action == "fae_morale"]
