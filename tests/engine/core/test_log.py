"""The battle log: frozen events rendered as narration, JSON lines and a DataFrame."""

from __future__ import annotations

import json

import pytest

from fadad_agents.engine import BattleLog, LogEvent, build_battle, clock, load, narrate, run
from fadad_agents.rules.core.wounds import Wound
from tests.engine.conftest import duel_yaml


def _snorri_round_3() -> LogEvent:
    return LogEvent(
        18, 3, "Snorri", "attack", "Brynhild",
        (("attack", 0), ("defence", 0), ("damage", (2,))),
        (("attacker_penalty", 0), ("defender_penalty", 0)),
        (("result", "Very Hurt"), ("attack", 2), ("defence", 1), ("defended", True),
         ("target", -1), ("rd", 1), ("hit", True), ("crits", 0), ("crit_effects", ()),
         ("damage", 6), ("wound", "Very Hurt"), ("verb", "swing"), ("defence_verb", "block")),
    )  # fmt: skip


def test_narration_reads_like_a_game_master() -> None:
    """EX-PC-04 as narrated text (issue 4's example sentence)."""
    assert narrate(_snorri_round_3()) == (
        "Round 3 (0:18) Snorri's swing is Great; Brynhild's block Good; hit by 1, damage 6: "
        "Very Hurt."
    )


@pytest.mark.parametrize(
    ("seconds", "text"), [(0, "0:00"), (18, "0:18"), (66, "1:06"), (3723, "1:02:03")]
)
def test_clock(seconds: int, text: str) -> None:
    """Sim time reads m:ss (h:mm:ss past an hour)."""
    assert clock(seconds) == text


def test_events_are_frozen() -> None:
    """A logged event cannot be changed afterwards."""
    event = _snorri_round_3()
    with pytest.raises(AttributeError):
        event.time = 0  # type: ignore[misc]


def test_jsonl_has_one_parsable_line_per_event() -> None:
    """JSON lines keep every field; dice tuples become lists."""
    log = BattleLog()
    log.append(_snorri_round_3())
    (line,) = log.to_jsonl().splitlines()
    data = json.loads(line)
    assert data["time"] == 18
    assert data["dice"]["damage"] == [2]
    assert data["outcome"]["wound"] == "Very Hurt"
    assert list(data) == [
        "time",
        "round",
        "actor",
        "action",
        "target",
        "dice",
        "modifiers",
        "outcome",
    ]


def test_battle_log_as_dataframe_and_round_rows() -> None:
    """One DataFrame row per event; the DataCollector keeps one row per round."""
    result = run(duel_yaml(), seed=12)
    frame = result.log.to_dataframe()
    assert len(frame) == len(result.log)
    assert {"time", "round", "actor", "action", "target", "result", "rd"} <= set(frame.columns)
    rounds = result.round_data
    assert rounds is not None
    assert len(rounds) == result.rounds
    assert list(rounds.index) == list(range(1, result.rounds + 1))
    assert list(rounds["time"]) == [6 * r for r in rounds.index]
    assert list(rounds.columns) == [
        "time",
        "Red.strength",
        "Red.wounded",
        "Red.routed",
        "Blue.strength",
        "Blue.wounded",
        "Blue.routed",
    ]
    assert rounds["Red.strength"].iloc[0] <= 1


def test_log_time_is_whole_seconds_and_rounds_are_six_seconds() -> None:
    """Every round's events carry time 6 x round (integer seconds)."""
    result = run(duel_yaml(), seed=4)
    for e in result.log:
        assert isinstance(e.time, int)
        assert e.time == 6 * e.round


def test_groups_take_plural_verbs_and_individuals_singular() -> None:
    """A crew or unit checks morale in the plural; a lone fighter in the singular."""
    from fadad_agents.engine.core.log import agree

    assert agree("Black Tern boarders checks morale (25%).", "Black Tern boarders", True) == (
        "Black Tern boarders check morale (25%)."
    )
    assert agree("Snorri checks morale.", "Snorri", False) == "Snorri checks morale."
    assert agree("Fire aboard Saltwind.", "Saltwind", True) == "Fire aboard Saltwind."
    event = LogEvent(6, 1, "Ford levy", "out", None, (), (), (("result", "routed"),))
    assert narrate(event, plural={"Ford levy"}) == (
        "Round 1 (0:06) Ford levy are out of the fight (routed)."
    )
    assert narrate(event) == "Round 1 (0:06) Ford levy is out of the fight (routed)."


def test_every_event_of_a_ship_round_carries_the_round_time() -> None:
    """Ship rounds: gunnery at the round's start, deck fights and morale later, one label."""
    from pathlib import Path

    scenarios = Path(__file__).parents[3] / "scenarios"
    result = run(scenarios / "boarding-action.yaml", seed=1)
    lines = result.log.lines()
    assert any("Black Tern's crew checks morale" in line for line in lines)
    for event, line in zip(result.log, lines, strict=True):
        assert line.startswith(f"Round {event.round} ({clock(event.round * 6)}) "), line
    assert len({e.time for e in result.log if e.round == 1}) > 1  # the data keep each instant


def test_fae_events_are_headed_by_their_turn_to_the_tenth() -> None:
    """A Fae event reads 'Turn 2 (0:13.3)': its own turn and exact time, once."""
    event = LogEvent(
        13, 2, "Morwen", "reaction_test", None, (("d100", 25),), (),
        (("result", 61), ("at", 13.28), ("turn", 2)),
    )  # fmt: skip
    assert narrate(event).startswith("Turn 2 (0:13.3) Morwen's Reaction test")
    assert "[turn" not in narrate(event)


def _parts(actor: str, target: str) -> tuple[str, str, str, tuple[()], tuple[()], tuple[()]]:
    return (actor, "attack", target, (), (), (("result", "miss"),))


def test_deferred_events_are_made_in_place_once_when_read() -> None:
    """A deferred entry becomes the same LogEvent, in its place, the first time it is read,
    whether it is read mid-battle or after a pickle round trip."""
    import pickle

    log = BattleLog()
    log.append(_snorri_round_3())
    log.defer(24, 4, _parts, ("Brynhild", "Snorri"))
    assert len(log) == 2
    clone = pickle.loads(pickle.dumps(log))
    first = log.events
    assert first[1] == LogEvent(
        24, 4, "Brynhild", "attack", "Snorri", (), (), (("result", "miss"),)
    )
    assert log.events[1] is first[1]  # made once, kept
    log.defer(30, 5, _parts, ("Snorri", "Brynhild"))
    assert [e.round for e in log] == [3, 4, 5]
    assert clone.events == first[:2]


def test_a_battle_read_mid_way_logs_what_one_read_at_the_end_does() -> None:
    """Reading the log between rounds (a dashboard) changes nothing in the final log."""
    from fadad_agents.engine import build_battle, load

    scenario = load(duel_yaml())
    peeked = build_battle(scenario, seed=5)
    while not peeked.finished:
        peeked.play_round()
        assert all(isinstance(e, LogEvent) for e in peeked.log.events)
    assert list(peeked.log.jsonl_lines()) == list(run(scenario, seed=5).log.jsonl_lines())


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_wound_narrates_the_running_state_a_gm_reads_aloud(seed: int) -> None:
    """Issue 18: a hit says the victim's state after it (``damage 1: Scratch, now Hurt``),
    so the last state narrated of each wounded fighter is the wound it ends the battle with
    (a crit to a hit location wounds the limb instead, and is left out here)."""
    battle = build_battle(load("scenarios/tavern-brawl.yaml"), seed=seed).run_to_end()
    level = {w.label: w for w in Wound}
    last: dict[str, str] = {}
    for event in battle.log.events:
        o = dict(event.outcome)
        if event.action != "attack" or not o["hit"]:
            continue
        if "now" in o:
            assert level[o["now"]] > level[o["wound"]]
            assert narrate(event).endswith(f", now {o['now']}.")
        last[event.target] = o.get("now", o.get("taken", o["wound"]))
    assert any("now" in dict(e.outcome) for e in battle.log.events)
    limbs = {e.actor for e in battle.log.events if str(e.outcome).count("hit in the")}
    final = {m.name: m.track.level.label for s in battle.sides for m in s.members}
    kept = {name: state for name, state in last.items() if name not in limbs}
    assert kept
    assert {name: final[name] for name in kept} == kept


@pytest.mark.parametrize("stem", ["tavern-brawl", "fae-mixed-melee", "boarding-action"])
def test_takedowns_are_every_out_event_however_the_log_was_made(stem: str) -> None:
    """Who went out, when and by whose hand, from the out events a battle notes as it
    writes them: the same as a scan of every event, and the same for the log appended
    event by event, read back from a pickle, or not yet read (its deferred swings looked
    at where they lie)."""
    import pickle

    battle = build_battle(load(f"scenarios/{stem}.yaml"), 3, collect=False).run_to_end()
    unread = battle.log.takedowns()
    events = battle.log.events
    outs = [e for e in events if e.action == "out"]
    assert outs  # someone went out: the check below has something to find
    expected = {}
    for i, event in enumerate(events):
        if event.action == "out" and event.actor not in expected:
            hands = [
                e.actor for e in events[:i] if e.time == event.time and e.target == event.actor
            ]
            expected[event.actor] = (event.round, hands[-1] if hands else None)
    appended = BattleLog()
    for event in events:
        appended.append(event)
    assert unread == expected
    for log in (battle.log, appended, pickle.loads(pickle.dumps(battle.log))):
        assert log.takedowns() == expected
