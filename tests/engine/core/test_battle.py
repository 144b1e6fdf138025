"""The battle engine end to end: scenarios, the clock, the order of action, replay rules."""

from __future__ import annotations

import pytest

from fadad_agents.agents import Character, Status
from fadad_agents.engine import (
    Battle,
    BattleStateError,
    Ending,
    build_battle,
    load,
    run,
)
from fadad_agents.engine.core.battle import ROUNDS_TABLE
from fadad_agents.engine.core.clock import Clock
from tests.engine.conftest import SCENARIOS, duel_yaml, fighter

ENDINGS = {e.value for e in Ending}


def test_snorri_vs_brynhild_runs_to_the_end() -> None:
    """EX-PC-01: the FADAD duel plays through the engine until one fighter is out."""
    result = run(SCENARIOS / "snorri-vs-brynhild.yaml", seed=4006)
    assert result.ending in ENDINGS
    assert result.duration == 6 * result.rounds
    attacks = result.log.of("attack")
    assert attacks
    assert {(e.actor, e.target) for e in attacks} <= {
        ("Snorri", "Brynhild"),
        ("Brynhild", "Snorri"),
    }
    assert result.log.events[-1].action == "end"
    if result.ending != Ending.STOPPED:
        assert result.winner in {"Snorri", "Brynhild"}
        assert result.side(result.loser).fighting == 0  # type: ignore[arg-type]


def test_snorri_acts_first_with_static_initiative() -> None:
    """EX-PC-01: the better reaction speed acts first each round ('static' initiative)."""
    result = run(SCENARIOS / "snorri-vs-brynhild.yaml", seed=1)
    firsts = {}
    for e in result.log.of("attack"):
        firsts.setdefault(e.round, e.actor)
    assert set(firsts.values()) == {"Snorri"}


def test_tavern_brawl_runs_to_the_end() -> None:
    """The 20 v 20 brawl (bands of identical NPCs) ends with a side out or the round cap."""
    result = run(SCENARIOS / "tavern-brawl.yaml")
    assert [s.strength for s in result.sides] == [20, 20]
    for side in result.sides:
        parts = side.fighting + side.casualties + side.withdrawn + side.surrendered
        assert parts == side.strength
    assert result.ending in ENDINGS


@pytest.mark.parametrize("name", ["field-battle.yaml", "boarding-action.yaml"])
def test_bulk_scenarios_run_to_the_end(name: str) -> None:
    """Units (FADAD mass combat) and crews (rapid resolution) play through the engine."""
    result = run(SCENARIOS / name)
    assert result.ending in ENDINGS
    assert result.log.of("volley")


def test_step_advances_one_six_second_round() -> None:
    """Battle.step() plays one personal round: env.now moves 6 s and round counts up."""
    battle = build_battle(load(duel_yaml()), seed=3)
    assert (battle.env.now, battle.round) == (0, 0)
    battle.step()
    assert (battle.env.now, battle.round) == (6, 1)
    battle.step()
    assert (battle.env.now, battle.round) == (12, 2)
    assert {e.time for e in battle.log if e.round == 2} <= {12}


def test_static_initiative_orders_by_trait_then_unique_id() -> None:
    """Total order (-initiative, -trait, unique_id): ties keep set-up order."""
    text = duel_yaml(
        fighter("Ann", extra="        reaction_speed: Fair\n")
        + fighter("Cat", extra="        reaction_speed: Great\n"),
        fighter("Bob", extra="        reaction_speed: Fair\n"),
        rules="fadad.initiative: static",
    )
    battle = build_battle(load(text), seed=1)
    assert [m.name for m in battle.initiative()] == ["Cat", "Ann", "Bob"]


def test_the_engine_orders_bands_exactly_as_the_kernel_does() -> None:
    """The engine's order of action is the kernel's ``initiative_order`` over the same
    rolls (one per band, in set-up order), round after round, ties and bands included."""
    import random

    from fadad_agents.rules.core.actions import InitiativeEntry, initiative_order, roll_initiative

    speeds = ["Fair", "Good", "Fair", "Great", "Good", "Fair"]
    forces = [
        fighter(f"F{i}", extra=f"        reaction_speed: {s}\n        count: {1 + i % 3}\n")
        for i, s in enumerate(speeds)
    ]
    battle = build_battle(load(duel_yaml("".join(forces[:3]), "".join(forces[3:]))), seed=8)
    bands: list[list[Character]] = []
    for side in battle.sides:
        for m in side.members:
            if not bands or bands[-1][0].band is not m.band:
                bands.append([])
            bands[-1].append(m)
    for _ in range(20):
        replay = random.Random()
        replay.setstate(battle._init_rng.getstate())
        entries = [
            InitiativeEntry(b[0].unique_id, roll_initiative(b[0].reaction, replay, "rolled"),
                            b[0].reaction)
            for b in bands
        ]  # fmt: skip
        by_uid = {b[0].unique_id: b for b in bands}
        expected = [m for e in initiative_order(entries) for m in by_uid[e.uid]]
        assert battle.initiative() == expected


def test_a_band_rolls_one_initiative_and_acts_together() -> None:
    """Group initiative: the members of a `count: N` entry are contiguous in the order."""
    text = duel_yaml(
        fighter("Thug", extra="        count: 5\n") + fighter("Ann"),
        fighter("Bob") + fighter("Guard", extra="        count: 3\n"),
    )
    battle = build_battle(load(text), seed=11)
    for _ in range(3):
        names = [m.name.split(" ")[0] for m in battle.initiative()]
        runs = [n for i, n in enumerate(names) if i == 0 or names[i - 1] != n]
        assert sorted(runs) == ["Ann", "Bob", "Guard", "Thug"]


def test_a_finished_battle_cannot_run_again() -> None:
    """No state leaks: replay needs a new Battle from (scenario, seed)."""
    battle = build_battle(load(duel_yaml()), seed=5).run_to_end()
    with pytest.raises(BattleStateError, match="has finished"):
        battle.run_to_end()
    with pytest.raises(BattleStateError):
        battle.step()


def test_stop_condition_ends_with_stopped() -> None:
    """The scenario's round cap ends the battle as 'stopped' without a winner."""
    text = duel_yaml(
        stop="max_rounds: 1",
        a_pol="stance: {name: rules, params: {rules: 'else -> all_out_defence'}}",
        b_pol="stance: {name: rules, params: {rules: 'else -> all_out_defence'}}",
    )
    result = run(text, seed=2)
    assert (result.ending, result.winner, result.rounds) == ("stopped", None, 1)
    assert not result.log.of("attack")


def _medic_battle() -> tuple[Battle, Character, list[str]]:
    battle = build_battle(load(duel_yaml()), seed=9)
    ann = battle.sides[0].members[0]
    assert isinstance(ann, Character)
    done: list[str] = []
    battle.start_action(ann, "first_aid", 6, lambda: done.append("done"))
    return battle, ann, done


def test_durative_action_completes_before_the_round_at_the_same_instant() -> None:
    """Phase priorities: an action ending at 0:06 finishes before round 1 is played."""
    battle, _, done = _medic_battle()
    battle.env.run(until=1)  # start the process
    battle.step()
    assert done == ["done"]


def test_rounds_run_to_the_end_keep_the_clock_and_its_phases() -> None:
    """Rounds with nothing else due skip SimPy's steps, never its order: an action ending
    at 0:06 still finishes before round 1, and round n is logged at 6n seconds."""
    battle = build_battle(load(duel_yaml()), seed=9)
    ann = battle.sides[0].members[0]
    finished_in: list[int] = []
    battle.start_action(ann, "first_aid", 6, lambda: finished_in.append(battle.round))
    battle.run_to_end()
    assert finished_in == [0]
    assert battle.round > 1
    assert all(e.time == 6 * e.round for e in battle.log)


@pytest.mark.parametrize(
    "scenario", ["snorri-vs-brynhild.yaml", "tavern-brawl.yaml", "field-battle.yaml"]
)
def test_a_battle_played_round_by_round_is_the_battle_run_to_its_end(scenario: str) -> None:
    """A table steps rounds one at a time (each a SimPy step); run_to_end moves the clock
    on at once when nothing else is due: the same log, byte for byte, and round data."""
    for seed in (1, 2):
        whole = build_battle(load(SCENARIOS / scenario), seed).run_to_end()
        stepped = build_battle(load(SCENARIOS / scenario), seed)
        while not stepped.finished:
            stepped.play_round()
        assert stepped.log.to_jsonl() == whole.log.to_jsonl()
        assert (stepped.round, stepped.env.now) == (whole.round, whole.env.now)
        rows = [b.datacollector.get_table_dataframe(ROUNDS_TABLE) for b in (stepped, whole)]
        assert rows[0].equals(rows[1])


def _action_in_round_one(done: list[int]) -> Battle:
    """A duel whose first round starts a one-round action (as first aid does)."""
    battle = build_battle(load(duel_yaml()), seed=9)
    ann, play = battle.sides[0].members[0], battle._play_round

    def round_starting_an_action() -> None:
        play()
        if battle.round == 1:
            battle.start_action(ann, "first_aid", 6, lambda: done.append(battle.round))

    battle._play_round = round_starting_an_action  # type: ignore[method-assign]
    return battle


def test_a_battle_whose_round_starts_an_action_plays_alike_both_ways() -> None:
    """run_to_end plays rounds outside SimPy until one starts an action, then hands its
    driver to SimPy: the same log as round by round, the action done before round 2."""
    done: list[int] = []
    whole = _action_in_round_one(done).run_to_end()
    stepped = _action_in_round_one(done)
    while not stepped.finished:
        stepped.play_round()
    assert whole._driver_process is not None  # it waited on SimPy
    assert done == [1, 1]
    assert stepped.log.to_jsonl() == whole.log.to_jsonl()


def test_the_clock_moves_on_at_once_only_when_nothing_is_due() -> None:
    """Clock.moved_on: no event up to the timer's time moves the clock; one due by then
    (even at that very instant) leaves the timer to SimPy."""
    env = Clock()
    moves = [env.moved_on(6), env.now]
    env.timeout(6)
    moves += [env.moved_on(6), env.now, env.moved_on(5), env.now]
    assert moves == [True, 6, False, 6, True, 11]


def test_the_clock_plays_rounds_at_once_until_an_event_is_due() -> None:
    """Clock.every: rounds every 6 s while nothing else is due; a timer due by the next
    round's time (even at that very instant) stops it with the clock not moved on."""
    env = Clock()
    times: list[int] = []

    def play() -> bool:
        times.append(int(env.now))
        if len(times) == 2:
            env.timeout(6)  # due at 18: the round at 18 waits on SimPy
        return len(times) == 5

    assert env.every(6, play) is False
    assert (times, env.now) == ([6, 12], 12)
    env.step()  # the timer at 18
    assert env.every(6, play) is True
    assert (times, env.now) == ([6, 12, 24, 30, 36], 36)


@pytest.mark.parametrize(
    "scenario", ["snorri-vs-brynhild.yaml", "tavern-brawl.yaml", "goblin-ambush.yaml"]
)
def test_rounds_played_at_once_are_the_rounds_played_on_simpy_timers(
    scenario: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """run_to_end plays a battle's rounds in a plain loop while nothing else is on the
    clock (Clock.every, moved_on): the same log, byte for byte, and round data as a
    driver waiting on a SimPy timer every round."""
    played = [build_battle(load(SCENARIOS / scenario), seed).run_to_end() for seed in (1, 2)]
    assert all(b._driver_process is None for b in played)  # no SimPy step taken
    monkeypatch.setattr(Clock, "every", lambda env, delay, play: False)
    monkeypatch.setattr(Clock, "moved_on", lambda env, delay: False)
    for seed, at_once in zip((1, 2), played, strict=True):
        timed = build_battle(load(SCENARIOS / scenario), seed).run_to_end()
        assert timed._driver_process is not None
        assert timed.log.to_jsonl() == at_once.log.to_jsonl()
        assert (timed.round, timed.env.now) == (at_once.round, at_once.env.now)
        rows = [b.datacollector.get_table_dataframe(ROUNDS_TABLE) for b in (timed, at_once)]
        assert rows[0].equals(rows[1])


def test_leaving_the_fight_ends_an_agents_processes() -> None:
    """A fighter taken out mid-action is interrupted; the action never completes. It
    stays one of the model's agents (fallen fighters can still be tended)."""
    battle, ann, done = _medic_battle()
    battle.env.run(until=1)
    battle.take_out(ann, "test")
    battle.env.run(until=2)
    assert done == []
    assert ann.status is Status.OUT
    assert ann in battle.agents
    assert ann not in battle.sides[ann.side].active
    assert [e.outcome for e in battle.log.of("first_aid")] == [
        (("result", "interrupted"), ("cause", "out"))
    ]


def test_an_action_cancelled_before_it_starts_never_runs() -> None:
    """Interrupting a process that has not started yet is safe (cancel flag)."""
    battle, ann, done = _medic_battle()
    battle.take_out(ann, "test")
    battle.env.run(until=7)
    assert done == []
    assert battle.log.of("first_aid")[0].result == "interrupted"


def test_units_of_a_side_act_on_one_initiative_and_strike_in_bulk() -> None:
    """FADAD units of one side form one band: contiguous in the order, batch-resolved."""
    battle = build_battle(load(SCENARIOS / "field-battle.yaml"), seed=3)
    order = battle.initiative()
    units = [m for m in order if m.kind == "unit"]
    sides = [m.side for m in units]
    assert sides in (sorted(sides), sorted(sides, reverse=True))
    battle.run_to_end()
    for side in battle.sides:
        assert 0 <= side.strength <= side.initial_strength
    volleys = battle.log.of("volley")
    assert volleys
    assert all(dict(e.outcome)["casualties"] >= 0 for e in volleys)


def test_the_result_summary_counts_rounds_or_fae_turns() -> None:
    """One line a human reads: personal rounds for FADAD, turns for a pure Fae battle."""
    duel = run(SCENARIOS / "snorri-vs-brynhild.yaml", seed=1)
    from fadad_agents.engine import clock

    assert duel.summary().endswith(f"after {duel.rounds} rounds ({clock(duel.duration)}).")
    fae = run(SCENARIOS / "fae-duel.yaml", seed=1)
    assert f"after {fae.rounds} turn" in fae.summary()
    assert "round" not in fae.summary()
