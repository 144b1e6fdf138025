"""Fae Domains turns on the battle clock: scenarios end to end, margin-derived action times,
delayed deaths, the registry's Fae decisions (fae-domains.md section 2, C-01, C-23)."""

from __future__ import annotations

import itertools
from collections import defaultdict
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fadad_agents.agents.fae.character import FaeCharacter
from fadad_agents.agents.fae.combat import delayed_death
from fadad_agents.engine import Ending, build_battle, load, narrate, run
from fadad_agents.engine.fae.battle import FaeBattle
from fadad_agents.policies import PolicyError
from fadad_agents.rules.fae.attack import ShotEffect
from fadad_agents.rules.fae.checks import action_offset, glide_offset
from tests.engine.conftest import SCENARIOS, fix_reactions

FAE_SCENARIOS = (
    "fae-duel.yaml",
    "fae-aerial-skirmish.yaml",
    "fae-mounted-charge.yaml",
    "fae-mixed-melee.yaml",
)
OWN_ACTIONS = {
    "fae_attack", "take_aim", "move", "run", "delay", "ready_weapon", "hold", "break_hold",
    "change_position", "recovery_test", "pick_up", "stand_on_head", "drop_prone", "cast_spell",
    "flee",
}  # fmt: skip
DEFENCES = {"dodge", "block", "acrobatic_dodge"}
"""Defences spend from the defender's margin too (logged with its count before paying)."""


def _dummy(name: str, x: int, extra: str = "") -> str:
    return f"""
      - name: {name}
        ruleset: fae
        attributes: {{reaction: 60, luck: 50}}
        skills: {{Sword: 50, Dodge: 40}}
        wound_points: 40
        fatigue_points: 40
        weapons: [fae/longsword]
        position: [{x}, 0]
{extra}"""


def _scene(a: str, b: str, stop: str = "max_rounds: 20") -> str:
    return f"""
name: fae test
sides:
  - name: Red
    forces:{a}
  - name: Blue
    forces:{b}
stop: {{{stop}}}
"""


@pytest.mark.parametrize("name", FAE_SCENARIOS)
def test_fae_scenarios_run_end_to_end(name: str) -> None:
    """The duel, aerial skirmish and mounted charge play to an end, with Fae attacks logged."""
    result = run(SCENARIOS / name)
    assert result.ending in {e.value for e in Ending}
    assert result.ending != "unfinished"
    kinds = {e.action for e in result.log}
    assert {"reaction_test", "fae_attack", "end"} <= kinds
    text = result.log.text()  # every event narrates
    assert "Reaction test" in text


def test_aerial_skirmish_flies_and_swoops() -> None:
    """Flyers climb or fly and dive on their prey (section 6)."""
    kinds = {e.action for e in run(SCENARIOS / "fae-aerial-skirmish.yaml").log}
    assert "dive" in kinds
    assert kinds & {"fly", "climb", "glide"}


def test_mounted_charge_commands_the_mount() -> None:
    """Riders command their mounts (a free action) and charge (3.3, A-66)."""
    log = run(SCENARIOS / "fae-mounted-charge.yaml").log
    assert any(e.action == "command_mount" for e in log)


def _turns(log: list) -> dict[int, list]:
    by_turn: dict[int, list] = defaultdict(list)
    for e in log:
        o = dict(e.outcome)
        if "turn" in o:
            by_turn[o["turn"]].append(e)
    return by_turn


@pytest.mark.parametrize("seed", [1, 2, 3, 4006])
def test_actions_happen_at_their_margin_times_in_order(seed: int) -> None:
    """C-23: an action at count m happens 10 (top - m) / (top + 1) s into the turn,
    the Reaction margins set the top, and the log runs forward in time."""
    log = run(SCENARIOS / "fae-duel.yaml", seed=seed).log.events
    checked = 0
    for turn, events in _turns(log).items():
        start = 10 * (turn - 1)
        margins = [dict(e.outcome)["result"] for e in events if e.action == "reaction_test"]
        top = max([m for m in margins if m != "botch"], default=0)
        ats = [dict(e.outcome)["at"] for e in events]
        assert ats == sorted(ats)
        assert all(start <= a <= start + 10 for a in ats)  # a death may fall at the end
        for e in events:
            if e.action in OWN_ACTIONS:
                count = max(0, dict(e.modifiers)["count"])
                expected = start + action_offset(count, top)
                assert dict(e.outcome)["at"] == round(float(expected), 3)
                assert e.time == int(expected)
                checked += 1
    assert checked >= 2


def test_higher_margin_acts_first_and_short_actions_come_back_sooner() -> None:
    """Counts run down: every actor's successive actions are 25 or 50 apart (EX-FAE-04)."""
    log = run(SCENARIOS / "fae-aerial-skirmish.yaml", seed=11).log.events
    for events in _turns(log).values():
        seen: dict[str, list[int]] = defaultdict(list)
        for e in events:
            if e.action in OWN_ACTIONS | DEFENCES:
                seen[e.actor].append(dict(e.modifiers)["count"])
        for counts in seen.values():
            steps = {a - b for a, b in itertools.pairwise(counts)}
            assert steps <= {25, 50}


def test_botched_reaction_does_not_act() -> None:
    """A botched Reaction test (roll 100 by default) means no action that turn."""
    seen = 0
    for seed in range(40):
        log = run(SCENARIOS / "fae-aerial-skirmish.yaml", seed=seed).log.events
        for turn, events in _turns(log).items():
            botched = {
                e.actor for e in events if e.action == "reaction_test" and e.result == "botch"
            }
            seen += len(botched)
            for e in events:
                if e.action in OWN_ACTIONS:
                    assert e.actor not in botched, (seed, turn)
    assert seen  # botches happened (1% a test) and were honoured


def test_delayed_death_fires_at_its_time() -> None:
    """A chest wound kills at the end of the d10-th turn: the death is a timed callback
    logged at the time announced (section 7)."""
    passive = "        policies: {fae_action: passive, fae_defence: none}\n"
    scenario = load(_scene(_dummy("Ann", 0, passive), _dummy("Bob", 1, passive)))
    battle = build_battle(scenario, seed=5)
    assert isinstance(battle, FaeBattle)
    battle.step()  # turn 1 played: now at 10 s
    ann, bob = battle.fae_members
    assert isinstance(ann, FaeCharacter)
    assert isinstance(bob, FaeCharacter)
    delayed_death(ann, bob, battle, ShotEffect("dies_in_turns", delay_unit="turns"))
    announced = next(e for e in battle.log.events if e.action == "mortal_wound")
    due = dict(announced.outcome)["dies_at"]
    assert due % 10 == 0
    assert 10 < due <= 110
    battle.run_to_end()
    death = next(e for e in battle.log.events if e.action == "delayed_death")
    assert dict(death.outcome)["at"] == due
    assert not bob.fighting
    assert bob.health.dead
    assert battle.winner == 0
    assert "dies of the wound" in narrate(death)


def test_delayed_death_in_minutes_asks_willpower_for_every_action() -> None:
    """An abdomen wound kills in 1d10 minutes and bars actions behind Willpower tests."""
    passive = "        policies: {fae_action: passive, fae_defence: none}\n"
    battle = build_battle(load(_scene(_dummy("Ann", 0, passive), _dummy("Bob", 1, passive),
                                      "max_rounds: 80")), seed=9)  # fmt: skip
    battle.step()
    ann, bob = battle.fae_members
    delayed_death(ann, bob, battle, ShotEffect("dies_in_minutes", delay_unit="minutes"))
    assert bob.effects["action_test"] is True
    due = bob.effects["dies_at"]
    assert Fraction(due) - 10 in {Fraction(60 * k) for k in range(1, 11)}
    battle.run_to_end()
    assert bob.health.dead
    assert (
        dict(next(e for e in battle.log.events if e.action == "delayed_death").outcome)["at"] == due
    )


def test_unknown_fae_policy_names_the_field() -> None:
    """Fae decisions are registry names; a typo is a one-line PolicyError with the path."""
    bad = "        policies: {fae_tactics: barrel_roll}\n"
    with pytest.raises(PolicyError) as err:
        build_battle(load(_scene(_dummy("Ann", 0, bad), _dummy("Bob", 1))), seed=1)
    assert "sides.0.forces.0.policies.fae_tactics" in str(err.value)
    assert "swoop" in str(err.value)


def test_step_advances_one_fae_turn() -> None:
    """In a pure Fae battle a step is one 10-s turn and ``round`` counts turns."""
    battle = build_battle(load(SCENARIOS / "fae-duel.yaml"), seed=3)
    battle.step()
    assert battle.round == 1
    assert battle.env.now == 10
    if not battle.finished:
        battle.step()
        assert battle.round == 2
        assert battle.env.now == 20


def test_round_data_has_one_row_per_turn() -> None:
    """The DataCollector table holds one row per Fae turn in a pure Fae battle."""
    result = run(SCENARIOS / "fae-mounted-charge.yaml", seed=2)
    frame = result.round_data
    assert frame is not None
    assert len(frame) in (result.rounds, result.rounds - 1)


def test_fadad_run_cli_plays_a_fae_scenario(tmp_path: Path) -> None:
    """``fadad run`` plays a Fae scenario and prints who won."""
    from typer.testing import CliRunner

    from fadad_agents.cli import app

    out = CliRunner().invoke(app, ["run", str(SCENARIOS / "fae-duel.yaml"), "--seed", "5"])
    assert out.exit_code == 0, out.output
    assert "wins" in out.output or "No winner" in out.output


def test_ex_fae_04_action_economy_on_the_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """EX-FAE-04 on the engine: margin 80 taking short actions acts at 80, 55, 30, 5; margin
    60 attacking (full) acts at 60 and 10; a failed test (0) acts once, last; a botch never.
    Each count happens 10 (top - m) / (top + 1) s into the turn (C-23)."""
    waiter = "        policies: {fae_action: passive, fae_defence: none}\n"
    striker = "        policies: {fae_defence: none}\n"
    a = _dummy("Quick", 0, waiter) + _dummy("Late", 0, waiter)
    b = _dummy("Strong", 1, striker) + _dummy("Botcher", 1, striker)
    scenario = load(_scene(a, b).replace("wound_points: 40", "wound_points: 5000"))
    fix_reactions(monkeypatch, {"Quick": 80, "Strong": 60, "Late": 0, "Botcher": None})
    battle = build_battle(scenario, seed=1)
    battle.step()
    own = [e for e in battle.log.events if e.action in OWN_ACTIONS]
    counts = {
        name: [dict(e.modifiers)["count"] for e in own if e.actor == name]
        for name in ("Quick", "Strong", "Late", "Botcher")
    }
    assert counts == {"Quick": [80, 55, 30, 5], "Strong": [60, 10], "Late": [0], "Botcher": []}
    for e in own:
        expected = action_offset(dict(e.modifiers)["count"], 80)
        assert dict(e.outcome)["at"] == round(float(expected), 3)
    assert own[-1].actor == "Late"  # the failed test acts after everyone else
    times = [dict(e.outcome)["at"] for e in own]
    assert times == sorted(times)


def test_results_count_fae_deaths() -> None:
    """Wounds above Wound Points are deaths in the battle result (3.2 step 5)."""
    for seed in range(5):
        result = run(SCENARIOS / "fae-duel.yaml", seed=seed)
        outs = [e for e in result.log.events if e.action == "out"]
        dead = sum(1 for e in outs if e.result == "dead")
        assert sum(s.dead for s in result.sides) == dead
        assert sum(s.casualties for s in result.sides) == len(outs)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32))
def test_fae_log_invariants(seed: int) -> None:
    """Any seed: exact times never run backwards, nobody acts after leaving the fight, and
    within a turn each actor's counts fall by 25 or 50 (C-23, section 2)."""
    log = run(SCENARIOS / "fae-aerial-skirmish.yaml", seed=seed).log.events
    ats = [dict(e.outcome)["at"] for e in log if "at" in dict(e.outcome)]
    assert ats == sorted(ats)
    gone: set[str] = set()
    for e in log:
        if e.action in OWN_ACTIONS:
            assert e.actor not in gone
        if e.action in ("out", "withdraw", "surrender"):
            gone.add(e.actor)
    for events in _turns(log).values():
        seen: dict[str, list[int]] = defaultdict(list)
        for e in events:
            if e.action in OWN_ACTIONS | DEFENCES:
                seen[e.actor].append(dict(e.modifiers)["count"])
        for counts in seen.values():
            assert all(a - b in (25, 50) for a, b in itertools.pairwise(counts))


def test_gliders_glide_at_the_end_of_the_turn() -> None:
    """A glider that takes no flight action glides at margin 0, losing 1 yd per 3 yd (6)."""
    glider = "        can_glide: true\n        altitude: 9\n        walk_mr: 12\n"
    passive = "        policies: {fae_action: passive}\n"
    battle = build_battle(load(_scene(_dummy("Ann", 0, glider + passive), _dummy("Bob", 50))), 1)
    battle.step()
    glides = [e for e in battle.log.events if e.action == "glide"]
    assert len(glides) == 1
    assert glides[0].result == 12
    assert dict(glides[0].outcome)["altitude"] == 5
    margins = [e.result for e in battle.log.events if e.action == "reaction_test"]
    top = max([m for m in margins if m != "botch"], default=0)
    assert dict(glides[0].outcome)["at"] == round(float(glide_offset(top)), 3)
