"""Mixed scenes: FADAD fighters and Fae Domains fighters on one clock (C-01, C-04, C-18, C-23)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from fadad_agents.engine import UnsupportedForce, build_battle, load, run
from fadad_agents.engine.fae.battle import FaeBattle
from fadad_agents.rules.core.wounds import Wound
from fadad_agents.rules.personal.dc_track import dc_record_blow, new_dc_track
from tests.engine.conftest import SCENARIOS

ROOT = Path(__file__).resolve().parents[3]

MIXED = """
name: mixed melee
rules: {{fae.ladder_bridge: {bridge}, fae.size_bridge: true}}
sides:
  - name: Vikings
    forces:
      - name: Snorri
        reaction_speed: Good
        strength: Good
        damage_capacity: Good
        skills: {{Sword: Great}}
        attack_skill: Sword
        defence_skill: Sword
        weapon: weapons/broadsword
        armour: armour/heavy-leather
        position: [0, 0]
  - name: Fae
    forces:
      - name: Morwen
        ruleset: fae
        attributes: {{strength: 58, agility: 65, stamina: 55, size: 50, luck: 50, reaction: 60}}
        skills: {{Sword: 60, Dodge: 45}}
        wound_points: {wp}
        fatigue_points: 55
        weapons: [fae/longsword]
        armour: fae/leather-armour
        position: [1, 0]
stop: {{max_rounds: 200}}
"""


def _mixed(bridge: str = "true", wp: int = 40) -> str:
    return MIXED.format(bridge=bridge, wp=wp)


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_fadad_fighter_and_fae_fighter_fight_to_an_end(seed: int) -> None:
    """A FADAD swordsman and a Fae swordswoman trade blows until one falls."""
    result = run(_mixed(), seed=seed)
    assert result.ending in ("destroyed", "mutual")
    kinds = {e.action for e in result.log}
    assert {"attack", "fae_attack", "reaction_test"} <= kinds
    assert result.log.text()


def test_both_clocks_tick_on_their_own_cadence() -> None:
    """FADAD rounds fall every 6 s and Fae turns start every 10 s; at 30 s (the LCM) the
    FADAD round is resolved before the next Fae turn starts."""
    # A giant (Size 20000: Mass Scale 15 through C-18) who only waits: nobody falls.
    text = _mixed().replace("stop: {max_rounds: 200}", "stop: {max_seconds: 31}")
    text = text.replace("size: 50,", "size: 20000,")
    text = text.replace(
        "        position: [1, 0]",
        "        position: [1, 0]\n        policies: {fae_action: passive}",
    )
    battle = build_battle(load(text), seed=8)
    assert isinstance(battle, FaeBattle)
    assert battle.mixed
    assert battle.period == 30
    battle.run_to_end()
    assert battle.ending == "stopped"
    assert battle.round == 6
    events = battle.log.events
    fadad = [e.time for e in events if e.action == "attack"]
    starts = [dict(e.outcome)["at"] for e in events if e.action == "reaction_test"]
    assert fadad
    assert all(t % 6 == 0 for t in fadad)
    assert starts
    assert all(t % 10 == 0 for t in starts)
    at30 = [e.action for e in events if e.time == 30 and e.action in ("attack", "reaction_test")]
    assert at30.index("attack") < at30.index("reaction_test")
    assert battle.fae_turn == 4


def test_mixed_scene_needs_the_ladder_bridge() -> None:
    """Without fae.ladder_bridge (C-04) a FADAD force cannot join a Fae scene: clear error."""
    with pytest.raises(UnsupportedForce) as err:
        build_battle(load(_mixed(bridge="false")), seed=1)
    assert "fae.ladder_bridge" in str(err.value)
    assert "sides.0.forces.0" in str(err.value)


def test_fae_fighter_shows_a_bridged_kernel_fighter() -> None:
    """C-04 inverse and C-18: the Fae fighter as a ladder Fighter for FADAD blows."""
    battle = build_battle(load(_mixed()), seed=1)
    morwen = battle.fae_members[0]
    f = morwen.fighter
    assert f.scale == 0  # Size 50 -> Mass Scale 0 (C-18)
    assert -3 <= f.attack <= 4
    assert -3 <= f.defence <= 4
    # Strength 58 -> level 1, Stamina 55 -> level 0 (round((v - 50) / 15)), Scale 0
    assert (f.odm, f.ddm) == (1, f.armour)


SCRIPT = (
    "import sys; from fadad_agents.engine import run; "
    "sys.stdout.write(run(sys.argv[1], seed=int(sys.argv[2])).log.to_jsonl())"
)


def _jsonl(scenario: Path, seed: int, hashseed: str) -> bytes:
    env = {**os.environ, "PYTHONHASHSEED": hashseed}
    out = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(scenario), str(seed)],
        cwd=ROOT, env=env, capture_output=True, check=True, timeout=120,
    )  # fmt: skip
    return out.stdout


@pytest.mark.parametrize("name", ["fae-duel.yaml", "fae-aerial-skirmish.yaml"])
def test_same_seed_gives_identical_jsonl_in_two_processes(name: str) -> None:
    """Two interpreters (different PYTHONHASHSEED) write byte-identical Fae logs."""
    a = _jsonl(SCENARIOS / name, 77, "0")
    b = _jsonl(SCENARIOS / name, 77, "999")
    assert a
    assert a == b
    assert a.decode() == run(SCENARIOS / name, seed=77).log.to_jsonl()


def test_mixed_scene_is_deterministic(tmp_path: Path) -> None:
    """A mixed FADAD/Fae scene replays byte for byte in another process."""
    path = tmp_path / "mixed.yaml"
    path.write_text(_mixed(), encoding="utf-8")
    assert _jsonl(path, 5, "1") == run(path, seed=5).log.to_jsonl().encode()


def test_different_seeds_differ() -> None:
    """The seed matters."""
    duel = SCENARIOS / "fae-duel.yaml"
    assert run(duel, seed=1).log.to_jsonl() != run(duel, seed=2).log.to_jsonl()


def test_fae_decision_on_a_fadad_only_scene_is_a_policy_error() -> None:
    """A Fae decision on a side of FADAD fighters is refused with the field named."""
    from fadad_agents.policies import PolicyError

    text = _mixed().replace(
        "  - name: Vikings\n", "  - name: Vikings\n    policies: {fae_action: fighter}\n"
    )
    battle = build_battle(load(text), seed=1)  # mixed: the Fae keys skip FADAD forces
    assert battle.mixed
    fadad_only = text.replace("ruleset: fae", "kind: character").split("      - name: Morwen")[0]
    fadad_only += "      - name: Bob\n        skills: {Sword: Good}\n        attack_skill: Sword\n"
    with pytest.raises(PolicyError) as err:
        build_battle(load(fadad_only), seed=1)
    assert "sides.0.policies.fae_action" in str(err.value)


def test_a_fae_blow_lowers_a_fadad_fighters_damage_capacity() -> None:
    """Under ``wound_track: dc_attribute`` (wounds-and-healing.md 6.4) a Fae blow that
    wounds a FADAD fighter costs him Damage Capacity as a FADAD blow does: his track is
    the Fae blows' wounds recorded on his DC in turn (the blow once crashed, recorded as
    if on wound boxes)."""
    text = _mixed().replace("size_bridge: true}", "size_bridge: true, wound_track: dc_attribute}")
    wounds = {w.label: w for w in Wound}
    lowered = 0
    for seed in range(1, 9):
        battle = build_battle(load(text), seed=seed)
        battle.run_to_end()
        (snorri,) = (a for side in battle.sides for a in side.members if a.name == "Snorri")
        expected = new_dc_track(1)  # Damage Capacity Good
        for event in battle.log.events:
            wound = dict(event.outcome).get("wound")
            if event.action == "fae_attack" and wound is not None:
                expected = dc_record_blow(expected, wounds[wound])
        assert snorri.track == expected
        lowered += expected.hit
    assert lowered >= 2
