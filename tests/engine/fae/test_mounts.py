"""Fae mounts as combatants (fae-domains.md section 6, A-66): a mount has its own Reaction
test, counts, Wound Points and weapon; it obeys its rider's free commands at its own next
count, delays waiting for orders, fights on its own margin, and can be struck down."""

from __future__ import annotations

import pytest

from fadad_agents.agents.fae.character import FaeCharacter
from fadad_agents.agents.fae.mount import FaeMountAgent
from fadad_agents.engine import build_battle, load, run
from fadad_agents.engine.fae.battle import FaeBattle
from tests.engine.conftest import SCENARIOS, fix_reactions

MOUNT = """        mount:
          name: destrier
          attributes: {strength: 150, agility: 45, size: 150, reaction: 45}
          skills: {Kick: 60, Dodge: 20}
          weapon: fae/hooves
          wound_points: 90
          fatigue_points: 120
          walk_mr: 15
          run_mr: 60
"""


def _scene(rider_x: int, foe_x: int, rider_policies: str = "{}", foe_policies: str = "{}") -> str:
    return f"""
name: fae mounts
ruleset: fae
sides:
  - name: Red
    forces:
      - name: Knight
        attributes: {{reaction: 60, luck: 50, size: 55}}
        skills: {{Lance: 60, Dodge: 20}}
        wound_points: 60
        fatigue_points: 60
        weapons: [fae/lance]
        position: [{rider_x}, 0]
        policies: {rider_policies}
{MOUNT}
  - name: Blue
    forces:
      - name: Troll
        attributes: {{reaction: 50, luck: 50}}
        skills: {{Spear: 60, Dodge: 20}}
        wound_points: 400
        fatigue_points: 400
        weapons: [fae/spear]
        position: [{foe_x}, 0]
        policies: {foe_policies}
stop: {{max_rounds: 6}}
"""


def _build(text: str, seed: int = 1) -> tuple[FaeBattle, FaeCharacter, FaeMountAgent, FaeCharacter]:
    battle = build_battle(load(text), seed=seed)
    assert isinstance(battle, FaeBattle)
    knight, mount, troll = battle.fae_members
    assert isinstance(knight, FaeCharacter)
    assert isinstance(mount, FaeMountAgent)
    assert isinstance(troll, FaeCharacter)
    return battle, knight, mount, troll


def test_mount_is_a_combatant_beside_its_rider() -> None:
    """The mount is enlisted on the rider's side right after it, shares its place, makes
    its own Reaction test and lends its Move Rates to the rider."""
    battle, knight, mount, _ = _build(_scene(0, 80))
    assert (mount.side, mount.index, mount.name) == (
        knight.side,
        knight.index + 1,
        "Knight's destrier",
    )
    assert knight.mount is mount
    assert mount.rider is knight
    assert (knight.walk_mr, knight.run_mr) == (15, 60)
    assert mount.health.wound_points == 90
    battle.step()
    tests = [e.actor for e in battle.log.events if e.action == "reaction_test"]
    assert tests == ["Knight", "Knight's destrier", "Troll"]
    assert knight.xy == mount.xy
    knight.xy = (3.0, 4.0)
    assert (mount.xy, mount.position) == ((3.0, 4.0), (3, 4))


def test_mount_waits_for_orders_then_charges(monkeypatch: pytest.MonkeyPatch) -> None:
    """A mount with the higher count delays to just below its rider's; the rider's free
    command (a Run becomes a charge order) is obeyed at that count; the rider's next blow
    is a mounted charge (+ (55 + 150) / 2 base damage, A-66)."""
    fix_reactions(monkeypatch, {"Knight": 60, "Knight's destrier": 80, "Troll": 0})
    battle, knight, _, troll = _build(_scene(0, 50, foe_policies="{fae_action: passive}"))
    battle.step()
    seq = [
        (e.actor, e.action, e.result, dict(e.modifiers).get("count"))
        for e in battle.log.events
        if e.action in ("mount_waits", "command_mount", "mount_obeys", "delay", "fae_attack")
    ]
    assert seq[:4] == [
        ("Knight's destrier", "mount_waits", "waits for orders", 80),
        ("Knight", "command_mount", "mount will charge", 60),
        ("Knight", "delay", "rides on", 60),
        ("Knight's destrier", "mount_obeys", "charge", 59),
    ]
    assert knight.distance(troll) <= knight.reach
    lance = next(e for e in battle.log.events if e.action == "fae_attack" and e.actor == "Knight")
    assert dict(lance.modifiers)["base"] == knight.weapon.base_damage + (55 + 150) // 2


def test_mount_fights_on_its_own_margin(monkeypatch: pytest.MonkeyPatch) -> None:
    """With no order and a foe in reach, the mount kicks with its own weapon and skill."""
    fix_reactions(monkeypatch, {"Knight": 0, "Knight's destrier": 80, "Troll": 0})
    battle, _, mount, _ = _build(_scene(0, 1, rider_policies="{fae_action: passive}"))
    battle.step()
    kicks = [e for e in battle.log.events if e.action == "fae_attack" and e.actor == mount.name]
    assert [dict(e.modifiers)["count"] for e in kicks] == [80, 30]
    assert all(dict(e.outcome)["weapon"] == "Hooves" for e in kicks)


def test_mount_can_be_struck_and_its_fall_unhorses_the_rider() -> None:
    """Blows land on the mount's own Wound Points; when it falls the rider is unhorsed:
    prone, on foot (its own Move Rates)."""
    battle, knight, mount, _ = _build(_scene(0, 80))
    mount.apply(battle, 40, False, "test")
    assert (mount.health.wounds, knight.health.wounds) == (40, 0)
    mount.apply(battle, 60, False, "test")
    assert not mount.fighting
    assert knight.fighting
    assert knight.mount is None
    assert knight.prone
    assert (knight.walk_mr, knight.run_mr) == (knight.stats.walk_mr, knight.stats.run_mr)
    assert [e.result for e in battle.log.events if e.action == "unhorsed"] == ["mount down"]


def test_riderless_mount_bolts() -> None:
    """A mount whose rider is out of the fight bolts: out too, so a side of dead riders is
    destroyed, not routed (PROPOSED)."""
    battle, knight, mount, _ = _build(_scene(0, 80))
    battle.take_out(knight, "dead")
    assert not mount.fighting
    outs = [(e.actor, e.result) for e in battle.log.events if e.action == "out"]
    assert outs == [("Knight", "dead"), (mount.name, "bolts (riderless)")]
    assert battle.side_out_kind(battle.sides[0]) == "destroyed"


def test_mounted_charge_scenario_mounts_act() -> None:
    """In the mounted-charge scenario the destriers obey orders and kick on their own."""
    log = run(SCENARIOS / "fae-mounted-charge.yaml").log
    assert any(e.action == "mount_obeys" and e.result == "charge" for e in log)
    assert any(e.action == "fae_attack" and e.actor.endswith("destrier") for e in log)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_mounts_obey_only_after_a_command(seed: int) -> None:
    """Every obeyed order follows a command of the mount's rider, at the same count or a
    later one; riders and mounts that still ride together share one place."""
    battle = build_battle(load((SCENARIOS / "fae-mounted-charge.yaml").read_text()), seed=seed)
    assert isinstance(battle, FaeBattle)
    battle.run_to_end()
    commanded: dict[str, float] = {}
    for e in battle.log.events:
        at = dict(e.outcome).get("at")
        if e.action == "command_mount":
            commanded.setdefault(e.actor, at)
        elif e.action == "mount_obeys":
            rider = e.actor.removesuffix("'s destrier")
            assert rider in commanded
            assert at >= commanded[rider]
    for m in battle.fae_members:
        if isinstance(m, FaeMountAgent) and m.rider is not None:
            assert m.xy == m.rider.xy
