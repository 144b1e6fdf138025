"""Ship morale with the modifier table; striking colours on a failed check (SJ 18)."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import replace

import pytest

from fadad_agents.agents.core.base import Status
from fadad_agents.agents.ships.ship import FireState
from fadad_agents.engine import build_battle, load, run
from fadad_agents.engine.ships import chase as ship_chase
from fadad_agents.engine.ships import morale
from fadad_agents.engine.ships.battle import ShipBattle
from fadad_agents.engine.ships.morale import check_morale, end_of_round, morale_events
from fadad_agents.policies.ships.defaults import NeverStrike, StrikeColours
from fadad_agents.rules.ships.crew import MoraleEvent, MoraleTrigger, morale_target
from fadad_agents.schema import ScenarioError
from tests.engine.conftest import SCENARIOS, FixedDice, duel_yaml, fighter

DUEL_TEXT = (SCENARIOS / "ship-duel.yaml").read_text()


def _duel() -> ShipBattle:
    battle = build_battle(load(SCENARIOS / "ship-duel.yaml"), 1, collect=False)
    assert isinstance(battle, ShipBattle)
    return battle


def test_ex_sj_15_modifiers_from_the_ship_state() -> None:
    """EX-SJ-15: seamen 11, 50% hull damage -4 (not -6), captain on deck +4, fire -2 -> 9."""
    battle = _duel()
    salt = battle.ships[0]
    salt.hull_damage = salt.spec.hull_points // 2
    salt.fire_list.append(FireState(1))
    events = morale_events(battle, salt, {MoraleTrigger.CRITICAL_HIT})
    example = {MoraleEvent.HULL_50, MoraleEvent.CAPTAIN_ON_DECK, MoraleEvent.ON_FIRE}
    assert example <= set(events)
    assert MoraleEvent.HULL_25 not in events
    assert morale_target(11, example) == 9
    # the table's HD entry also holds for 1-HD sailors (-1), and no enemy is slain yet (+2)
    assert set(events) - example == {MoraleEvent.HD_1_OR_LESS, MoraleEvent.NO_ENEMY_SLAIN}


def test_failed_morale_check_strikes_the_colours() -> None:
    """A critical this round, 2d10 = 20: the check fails and the ship strikes; NPCs surrender."""
    battle = _duel()
    salt = battle.ships[0]
    battle.ship_morale_rng = FixedDice(0.99)
    salt.memory["triggers"] = {MoraleTrigger.CRITICAL_HIT}
    end_of_round(battle)
    assert salt.struck
    assert salt.status is Status.SURRENDERED
    crew = next(m for m in battle.people if m.name == "Saltwind crew")
    assert crew.status is Status.SURRENDERED
    names = [e.action for e in battle.log]
    at = names.index("ship_morale")
    assert names[at : at + 3] == ["ship_morale", "strike", "surrender"]
    assert battle.log.events[at].result == "breaks"
    assert "Saltwind strikes her colours (morale broke: a critical hit)." in battle.log.text()


def test_passed_check_and_no_trigger_keep_the_colours_flying() -> None:
    """2d10 = 2 holds; with no trigger there is no check at all."""
    battle = _duel()
    salt = battle.ships[0]
    battle.ship_morale_rng = FixedDice(0.0)
    salt.memory["triggers"] = {MoraleTrigger.CRITICAL_HIT}
    end_of_round(battle)
    end_of_round(battle)
    assert salt.fighting
    assert not salt.struck
    assert [e.action for e in battle.log].count("ship_morale") == 1


def test_colours_policies_differ() -> None:
    """fight_to_the_end never checks; strike_colours strikes by choice at low hull."""
    battle = _duel()
    salt, gannet = battle.ships
    battle.ship_morale_rng = FixedDice(0.99)
    salt.ship_policies = replace(salt.ship_policies, colours=NeverStrike())
    salt.memory["triggers"] = {MoraleTrigger.CRITICAL_HIT}
    gannet.ship_policies = replace(gannet.ship_policies, colours=StrikeColours(0.5))
    gannet.hull_damage = gannet.spec.hull_points // 2
    end_of_round(battle)
    assert salt.fighting
    assert gannet.struck
    assert not any(e.action == "ship_morale" for e in battle.log)


def test_crew_losses_trigger_checks() -> None:
    """Losing 25% of the crew calls a check at the end of the round (SJ 18)."""
    battle = _duel()
    salt = battle.ships[0]
    crew = battle.home_crews(salt)[0]
    battle.casualties(crew, 4)  # 4 of 14
    end_of_round(battle)
    check = next(e for e in battle.log if e.action == "ship_morale")
    assert "crew_25" in dict(check.outcome)["triggers"]


def test_odds_and_allies_enter_the_table() -> None:
    """Outnumbered 3:1 on the own deck -4; a friend fled: abandoned -6; first officer +2."""
    battle = build_battle(load(SCENARIOS / "boarding-action.yaml"), 1, collect=False)
    assert isinstance(battle, ShipBattle)
    greenbriar = battle.ships[0]
    for crew in battle.home_crews(greenbriar):
        battle.casualties(crew, crew.count - 3)
    events = morale_events(battle, greenbriar, set())
    assert MoraleEvent.OUTNUMBERED_3_TO_1 in events
    fleet = build_battle(load(SCENARIOS / "fleet-action.yaml"), 1, collect=False)
    assert isinstance(fleet, ShipBattle)
    resolute, _, swallow = fleet.ships[:3]
    assert MoraleEvent.ABANDONED not in morale_events(fleet, resolute, set())
    ship_chase.escape(fleet, swallow)
    assert MoraleEvent.ABANDONED in morale_events(fleet, resolute, set())


def test_player_characters_never_check_morale_on_deck() -> None:
    """SJ 12: PCs fight as long as they wish; the demo's two captains never check morale."""
    scenario = load(SCENARIOS / "boarding-action.yaml")
    captains = {"Commander Ilse Verran", "Captain Skarre"}
    checked: set[str] = set()
    for seed in range(15):
        battle = build_battle(scenario, seed, collect=False)
        battle.run_to_end()
        checked |= {e.actor for e in battle.log if "morale" in e.action}
    assert checked  # crews and ships do check
    assert not checked & captains


# --- one check a round, with the table (issue 16) ------------------------------------------


def _boarding(seed: int = 1, text: str | None = None) -> ShipBattle:
    scenario = load(text) if text is not None else load(SCENARIOS / "boarding-action.yaml")
    battle = build_battle(scenario, seed, collect=False)
    assert isinstance(battle, ShipBattle)
    return battle


def test_a_crew_checks_morale_once_a_round_with_the_table() -> None:
    """SJ 18: a ship's crew checks once at the end of a round, with the modifier table;
    no crew also rolls a bare 2d10 of its own for the same losses."""
    checks = 0
    for seed in range(25):
        battle = _boarding(seed)
        battle.run_to_end()
        assert not battle.log.of("morale")  # no crew (nor captain) checks on its own
        ship_checks = list(battle.log.of("ship_morale"))
        boarding = ("before_boarding",)  # a check before a dangerous boarding is its own
        per_round = Counter(
            (e.round, e.actor) for e in ship_checks if dict(e.outcome)["triggers"] != boarding
        )
        assert max(per_round.values(), default=1) == 1
        assert all(dict(e.modifiers)["morale"] in (10, 11, 12, 13) for e in ship_checks)
        checks += len(ship_checks)
    assert checks


def test_on_a_fadad_map_the_crew_checks_once_a_minute() -> None:
    """FADAD 1-minute ship rounds: the crew checks at the end of the ship round, as the ship
    does, not after each of the round's ten 6-second deck rounds."""
    text = (
        (SCENARIOS / "boarding-action.yaml").read_text().replace("hex_yards: 50", "hex_yards: 500")
    )
    times = []
    for seed in range(15):
        battle = _boarding(seed, text)
        battle.run_to_end()
        times += [e.time for e in battle.log if "morale" in e.action]
    assert times
    assert all(t % 60 == 0 for t in times)


def test_the_crew_checks_on_its_morale_as_a_whole() -> None:
    """SJ 18: Greenbriar's marines (13, 12 heads) and sailors (11, 18) check as one crew of
    morale 12, not at the first crew's 13."""
    battle = _boarding()
    check_morale(battle, battle.ships[0], {MoraleTrigger.CRITICAL_HIT})
    (check,) = battle.log.of("ship_morale")
    assert dict(check.modifiers)["morale"] == 12
    mods = sum(v for k, v in check.modifiers if k != "morale")
    assert dict(check.outcome)["target"] == 12 + mods


def test_a_captain_who_is_no_player_character_commands_and_can_fall() -> None:
    """SJ 18: the captain need not be a PC: on deck he is worth +4 (not a first officer's
    +2); slain, he calls a check at -2."""
    text = DUEL_TEXT.replace("        player: true\n", "", 1)
    battle = build_battle(load(text), 1, collect=False)
    assert isinstance(battle, ShipBattle)
    salt = battle.ships[0]
    events = morale_events(battle, salt, set())
    assert MoraleEvent.CAPTAIN_ON_DECK in events
    assert MoraleEvent.FIRST_OFFICER_ON_DECK not in events
    battle.take_out(next(m for m in battle.people if m.name == "Captain Mara Vell"), "slain")
    end_of_round(battle)
    (check,) = battle.log.of("ship_morale")
    assert "captain_slain" in dict(check.outcome)["triggers"]
    assert dict(check.modifiers)["captain_slain"] == -2


MATE = """      - name: Mate Orrin
        model: creatures/human
        skills: {Sword: Fair}
        attack_skill: Sword
        weapon: weapons/broadsword
        aboard: Saltwind
"""


def test_the_ships_captain_field_names_her_captain() -> None:
    """Ship.captain: naming the mate captain makes his fall 'captain slain'; without it the
    player character is captain and the mate's fall is no captain's."""
    for named, slain in ((True, True), (False, False)):
        text = DUEL_TEXT.replace(
            "      - name: Saltwind crew\n", MATE + "      - name: Saltwind crew\n"
        )
        if named:
            text = text.replace(
                "        model: ships/salt-trader\n",
                "        model: ships/salt-trader\n        captain: Mate Orrin\n",
            )
        battle = build_battle(load(text), 1, collect=False)
        assert isinstance(battle, ShipBattle)
        battle.take_out(next(m for m in battle.people if m.name == "Mate Orrin"), "slain")
        end_of_round(battle)
        triggers = [t for e in battle.log.of("ship_morale") for t in dict(e.outcome)["triggers"]]
        assert ("captain_slain" in triggers) is slain


def test_a_captain_who_is_not_aboard_is_refused() -> None:
    """Ship.captain must name a character of her side, in one clear line."""
    text = DUEL_TEXT.replace(
        "        model: ships/salt-trader\n",
        "        model: ships/salt-trader\n        captain: Mara\n",
    )
    with pytest.raises(ScenarioError, match=r"captain.*'Mara' is not a character of her side"):
        load(text)


BOSUN = """      - name: Bosun Kell
        model: creatures/human
        skills: {Sword: Fair}
        attack_skill: Sword
        weapon: weapons/broadsword
        aboard: Red Gannet
        policies: {morale: casualties}
"""


def test_characters_and_crews_fall_back_in_the_same_words() -> None:
    """SJ 12: a crew whose morale breaks on the enemy deck falls back to its own ship; its
    NPC bosun beside it does the same, logged in the same words."""
    text = DUEL_TEXT.replace("      - name: Gannet crew\n", BOSUN + "      - name: Gannet crew\n")
    battle = build_battle(load(text), 1, collect=False)
    assert isinstance(battle, ShipBattle)
    salt, gannet = battle.ships
    battle.place(gannet, salt.hex, gannet.facing)
    battle.lash(salt, gannet)
    for name in ("Gannet crew", "Bosun Kell"):
        battle.move_aboard(next(m for m in battle.people if m.name == name), salt)
    battle.ship_morale_rng = FixedDice(0.99)
    gannet.memory["triggers"] = {MoraleTrigger.CRITICAL_HIT}
    end_of_round(battle)
    lines = [
        line.split(") ", 1)[1]
        for line in battle.log.lines()
        if "falls back" in line or "fall back" in line
    ]
    assert lines == [
        "Bosun Kell falls back to Red Gannet (morale broke: a critical hit).",
        "Gannet crew fall back to Red Gannet (morale broke: a critical hit).",
    ]
    assert gannet.fighting  # her crew was abroad: it falls back, she does not strike
    assert not gannet.struck
    assert all(battle.deck_of(m) is gannet for m in battle.people if m.side == gannet.side)


def test_every_morale_check_names_its_trigger_roll_target_and_result() -> None:
    """The log explains each morale check alike, for characters, crews and ships' crews:
    what called it, the roll, what it had to reach (and the modifiers), the result."""
    crew = "\n      - {name: Cowards, kind: crew, count: 20, morale: 4, skill: Fair}\n"
    band = fighter("Thug", skill="Poor", extra="        count: 4\n")
    foes = fighter("Ann", skill="Superb") + fighter("Bea", skill="Superb")
    policy = "morale: {name: casualties, params: {at: '25%'}}"
    lines: list[str] = []
    for forces in (crew, band):
        for seed in range(4):
            result = run(duel_yaml(forces, foes, a_pol=policy), seed=seed)
            lines += [line for line in result.log.lines() if "morale (" in line]
    battle = build_battle(load(DUEL_TEXT), 1, collect=False)
    check_morale(battle, battle.ships[0], {MoraleTrigger.CRITICAL_HIT})
    lines += battle.log.lines()
    said = re.compile(
        r"^Round \d+ \([\d:]+\) (.+?) checks? morale \([^)]+\): "
        r"(2d10 \d+|morale \S+ \+ 4dF [+-]\d+ = \S+) against \S+.*: (holds|breaks)\.$"
    )
    matches = [said.match(line) for line in lines]
    assert all(matches), lines
    assert {m.group(1) for m in matches if m} == {"Cowards", "Thug", "Saltwind's crew"}


def test_unchanged_strengths_keep_the_triggers_and_play_the_same_battles(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """While no side's strength changed since a ship's last look, her triggers are read
    from what she held then (only her escape asked again): the same battles, byte for
    byte, as counting her losses, officers and the odds every round (duel with the
    superior-force trigger on, fleet action, boarding action)."""
    looked: Counter[bool] = Counter()
    command = morale._command

    def counting(battle: ShipBattle, ship: object) -> object:
        looked[morale._counts_tell] += 1
        return command(battle, ship)

    monkeypatch.setattr(morale, "_command", counting)
    odds = DUEL_TEXT.replace("rules:\n", "rules:\n  sj.superior_force_ratio: 2\n", 1)
    cases = [
        load(odds),
        load(SCENARIOS / "fleet-action.yaml"),
        load(SCENARIOS / "boarding-action.yaml"),
    ]
    for scenario in cases:
        for seed in (1, 2, 3, 4):
            monkeypatch.setattr(morale, "_counts_tell", True)
            kept = run(scenario, seed).log.to_jsonl()
            monkeypatch.setattr(morale, "_counts_tell", False)
            counted = run(scenario, seed).log.to_jsonl()
            assert kept == counted, (scenario.name, seed)
    assert looked[True] < looked[False]  # the triggers were kept where nobody fell
