"""Ship battles end to end: the three ship scenarios, the clock, narration, ``fadad run``."""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from fadad_agents.agents.core.base import Status
from fadad_agents.agents.core.groups import Crew
from fadad_agents.cli import app
from fadad_agents.engine import build_battle, load, run
from fadad_agents.engine.core.clock import Clock
from fadad_agents.engine.ships.battle import ShipBattle, ship_round_seconds
from tests.engine.conftest import SCENARIOS

SHIP_SCENARIOS = ["ship-duel.yaml", "boarding-action.yaml", "fleet-action.yaml"]


@pytest.mark.parametrize("name", SHIP_SCENARIOS)
def test_ship_scenarios_play_to_an_end(name: str) -> None:
    """Each ship scenario builds a ShipBattle and plays to a decided or stopped end."""
    scenario = load(SCENARIOS / name)
    battle = build_battle(scenario, 11, collect=False)
    assert isinstance(battle, ShipBattle)
    battle.run_to_end()
    assert battle.finished
    assert battle.ending in {"destroyed", "routed", "surrendered", "mutual", "stopped"}
    assert battle.env.now == battle.round * battle.round_seconds
    assert battle.log.events[-1].action == "end"


def test_round_length_follows_the_hex_size() -> None:
    """C-01/C-19: 150-ft hexes play 6-s rounds, 500-yd hexes 1-min ship rounds."""
    assert ship_round_seconds(50) == 6
    assert ship_round_seconds(500) == 60
    fleet = build_battle(load(SCENARIOS / "fleet-action.yaml"), 1, collect=False)
    assert isinstance(fleet, ShipBattle)
    assert fleet.round_seconds == 60
    fleet.step()
    assert (fleet.round, fleet.env.now) == (1, 60)


def test_fleet_action_reads_like_a_battle_report() -> None:
    """Maneuvers, volleys, damage levels and crits appear in the narration."""
    result = run(SCENARIOS / "fleet-action.yaml", seed=333)
    text = result.log.text()
    actions = {e.action for e in result.log}
    assert {"ship_initiative", "maneuver", "gunnery", "end"} <= actions
    assert re.search(r"wins? the initiative and moves? ", text)
    assert "makes" in text
    assert "hits" in text


def test_boarding_action_narrates_boarders_and_the_deck_fight() -> None:
    """Boarders cross, the deck fight is personal combat and rapid resolution, with morale."""
    seen: set[str] = set()
    texts = []
    for seed in range(6):
        result = run(SCENARIOS / "boarding-action.yaml", seed=seed)
        seen |= {e.action for e in result.log}
        texts.append(result.log.text())
    assert {"board", "attack", "volley", "ship_morale", "strike"} <= seen
    text = "\n".join(texts)
    assert "Boarders away!" in text
    assert "strikes her colours" in text
    assert "checks morale" in text


def test_ship_duel_runs_in_six_second_rounds() -> None:
    """The duel's map has 150-ft hexes: every event time is a multiple of 6 s."""
    result = run(SCENARIOS / "ship-duel.yaml", seed=5)
    assert result.duration == 6 * result.rounds
    assert all(e.time % 6 == 0 for e in result.log)
    assert any(e.action == "maneuver" for e in result.log)


def test_fadad_run_plays_the_boarding_action() -> None:
    """``fadad run scenarios/boarding-action.yaml`` narrates and summarises a ship battle."""
    out = CliRunner().invoke(app, ["run", str(SCENARIOS / "boarding-action.yaml"), "--seed", "3"])
    assert out.exit_code == 0, out.stdout
    lines = out.stdout.strip().splitlines()
    assert lines[0] == "Boarding of the Thorn (seed 3)"  # the header first
    assert lines[lines.index("") + 1].startswith("Round 1 (0:06) ")  # a round has its time
    assert " wins " in lines[-1] or "No winner" in lines[-1]


def test_repair_bills_are_logged_for_damaged_ships() -> None:
    """SJ 17: each damaged ship still afloat gets a bill in gold and days."""
    for seed in range(10):
        battle = build_battle(load(SCENARIOS / "ship-duel.yaml"), seed, collect=False)
        battle.run_to_end()
        assert isinstance(battle, ShipBattle)
        damaged = [s for s in battle.ships if s.hull_damage and s.status.value != "out"]
        assert sorted(battle.repairs) == sorted(s.name for s in damaged)
        for ship in damaged:
            bill = battle.repairs[ship.name]
            assert bill["gold"] >= 2000 * ship.hull_damage
            assert bill["days"] >= 1


def test_unplaced_ship_appears_by_the_encounter_roll() -> None:
    """SJ 15: a ship without a position appears 11-20 hexes from the enemy, facing her."""
    text = (SCENARIOS / "ship-duel.yaml").read_text().replace("        position: [8, -4]\n", "")
    text = text.replace("radius: 30", "radius: 40")
    for seed in range(5):
        battle = build_battle(load(text), seed, collect=False)
        assert isinstance(battle, ShipBattle)
        salt, gannet = battle.ships
        assert 11 <= battle.range_between(salt, gannet) <= 20
        assert [e.action for e in battle.log.events[:2]] == ["encounter", "reaction"]


def test_after_the_fight_a_share_of_each_sides_crew_casualties_lives() -> None:
    """SJ 13 step 7: 1d6 x 5% of a side's crew casualties (rounded down) were only
    incapacitated; each side with crew casualties rolls, and the result keeps the count."""
    seen = 0
    for seed in range(6):
        battle = build_battle(load(SCENARIOS / "boarding-action.yaml"), seed, collect=False)
        battle.run_to_end()
        rolls = {e.actor: e for e in battle.log if e.action == "incapacitated"}
        for roster in battle.sides:
            fallen = sum(
                m.start_count - (m.count if m.status is not Status.OUT else 0)
                for m in roster.members
                if isinstance(m, Crew)
            )
            if not fallen:
                assert roster.name not in rolls
                continue
            event = rolls[roster.name]
            d6 = dict(event.dice)["1d6"]
            assert dict(event.modifiers)["casualties"] == fallen
            assert battle.incapacitated[roster.name] == fallen * d6 * 5 // 100
            seen += 1
    assert seen


STALLED = [
    ("boarding-action", 287),  # a struck ship held by her commander alone
    ("boarding-action", 348),
    ("fleet-action", 13),  # a cutter standing off with a bow gun that never bore
    ("fleet-action", 26),  # victors left aboard a prize, their own ship empty
    ("fleet-action", 53),  # victors on a prize with no ship of their own left
    ("wyrm-at-the-moonlet", 146),  # the wyrm in her hex, never leaving to ram again
    ("wyrm-at-the-moonlet", 219),
]


@pytest.mark.parametrize(("name", "seed"), STALLED)
def test_no_ship_battle_stalls_to_its_round_limit(name: str, seed: int) -> None:
    """Issue 16: battles that once ran to the round limit with nothing left to decide end
    decided now (target: no ship battle hits the limit)."""
    battle = build_battle(load(SCENARIOS / f"{name}.yaml"), seed, collect=False)
    battle.run_to_end()
    assert battle.ending != "stopped"


def _end_state(battle: ShipBattle) -> tuple[object, ...]:
    """The log, clock and weapons a played battle leaves, and its events still to come by
    time and priority (not the one ``env.run`` stopped on: SimPy puts it back, at priority
    -1, with no callbacks left)."""
    queue = sorted((when, prio) for when, prio, *_ in battle.env._queue if prio >= 0)
    weapons = [(t.loaded, t.reload_started, t.reloading) for s in battle.ships for t in s.teams]
    return battle.log.to_jsonl(), battle.env.now, queue, weapons


@pytest.mark.parametrize(
    ("name", "seed"),
    # duel 32 and boarding action 87 end with a reload's recompute due at that instant
    [("ship-duel", 1), ("ship-duel", 32), ("boarding-action", 87), ("fleet-action", 2)],
)
def test_a_driver_begun_outside_simpy_plays_the_battle_its_process_plays(
    name: str, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """run_to_end takes a ship driver's first step itself when nothing else is on the
    clock (most duels: the whole battle, and no SimPy process): the same log, clock and
    weapons as the driver started as a SimPy process, what is due as it ends played."""
    scenario = load(SCENARIOS / f"{name}.yaml")
    own = build_battle(scenario, seed, collect=False).run_to_end()
    assert isinstance(own, ShipBattle)
    monkeypatch.setattr(Clock, "idle", property(lambda env: False))  # as if something were
    started = build_battle(scenario, seed, collect=False).run_to_end()
    assert isinstance(started, ShipBattle)
    assert started._driver_process is not None
    assert _end_state(own) == _end_state(started)
    if name == "ship-duel":
        assert own._driver_process is None  # the whole duel in the driver's first step
