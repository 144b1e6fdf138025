"""Ship morale with the modifier table; striking colours on a failed check (SJ 18)."""

from __future__ import annotations

from dataclasses import replace

from fadad_agents.agents.core.base import Status
from fadad_agents.agents.ships.ship import FireState
from fadad_agents.engine import build_battle, load
from fadad_agents.engine.ships.battle import ShipBattle
from fadad_agents.engine.ships.morale import end_of_round, morale_events
from fadad_agents.policies.ships.defaults import NeverStrike, StrikeColours
from fadad_agents.rules.ships.crew import MoraleEvent, MoraleTrigger, morale_target
from tests.engine.conftest import SCENARIOS, FixedDice


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
    # the table's HD entry also holds for 1-HD sailors (-1)
    assert set(events) - example == {MoraleEvent.HD_1_OR_LESS}


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
    assert battle.log.events[at].result == "fails"
    assert "Saltwind strikes her colours (morale failed)." in battle.log.text()


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
    fleet.escape(swallow)
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
