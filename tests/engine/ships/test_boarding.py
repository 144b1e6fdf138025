"""Grappling, then boarding the round after; the deck fight runs in 6-s rounds inside."""

from __future__ import annotations

from typing import Any

from fadad_agents.agents.core.base import Status
from fadad_agents.engine import build_battle, load, run
from fadad_agents.engine.ships.battle import ShipBattle
from fadad_agents.engine.ships.close import board
from fadad_agents.engine.ships.deck import deck_round
from fadad_agents.engine.ships.morale import end_of_round
from fadad_agents.engine.ships.state import ShipBattleState
from tests.engine.conftest import SCENARIOS, FixedDice
from tests.engine.engine_options_helpers import DUEL, member

CHASE = """
name: Grapple test
rules: {ship.damage_model: sj_hull_points}
map: {kind: hex, radius: 10, hex_yards: 500}
sides:
  - name: Raiders
    policies:
      maneuver: {name: close_and_board}
      surrender: {name: fight_to_the_end}
    forces:
      - {name: Wolf, model: ships/reaver-longship, position: [0, 2], facing: 0}
      - {name: Wolf crew, model: crews/pirates, count: 30, aboard: Wolf}
      - {name: Grik, model: creatures/human, skills: {Sword: Good}, attack_skill: Sword,
         weapon: weapons/broadsword, aboard: Wolf, player: true}
  - name: Traders
    policies:
      maneuver: {name: hold}
      boarding: {name: board_when_grappled}
      surrender: {name: fight_to_the_end}
    forces:
      - {name: Cog, model: ships/salt-trader, position: [0, 0], facing: 3}
      - {name: Cog crew, model: crews/sailors, count: 20, aboard: Cog}
stop: {max_rounds: 30}
"""


def test_boarders_cross_the_round_after_grappling() -> None:
    """SJ 12: the grapple holds in round n, boarders swarm across in round n + 1."""
    for seed in range(5):
        battle = build_battle(load(CHASE), seed, collect=False)
        assert isinstance(battle, ShipBattle)
        wolf, cog = battle.ships
        grappled_round = None
        while not battle.finished and battle.round < 30:
            battle.step()
            boards = [e for e in battle.log if e.action == "board"]
            if grappled_round is None and wolf.grappled_with(cog):
                grappled_round = battle.round
                assert boards == []
            if boards:
                assert grappled_round is not None
                assert boards[0].round == grappled_round + 1
                assert boards[0].actor == "Wolf"
                assert boards[0].target == "Cog"
                assert set(dict(boards[0].outcome)["who"]) == {"Wolf crew", "Grik"}
                break
        assert grappled_round is not None


def test_the_deck_fight_runs_in_six_second_rounds_inside_the_ship_round() -> None:
    """Ten personal rounds of deck fighting fit in a 1-minute ship round (C-01)."""
    battle = build_battle(load(CHASE), 0, collect=False)
    assert isinstance(battle, ShipBattle)
    while not battle.finished and not any(e.action == "board" for e in battle.log):
        battle.step()
    board_round = next(e.round for e in battle.log if e.action == "board")
    fights = [e for e in battle.log if e.action in ("attack", "volley") and e.round == board_round]
    assert fights
    start = (board_round - 1) * 60
    times = sorted({e.time for e in fights})
    assert all(start < t <= start + 60 and (t - start) % 6 == 0 for t in times)
    assert len(times) > 1 or battle.finished


def test_lines_can_be_cut_by_a_crew_that_refuses_the_fight() -> None:
    """repel_boarders cuts lines (AC 10, 5 hp); too few lines and the ships part."""
    text = CHASE.replace(
        "boarding: {name: board_when_grappled}", "boarding: {name: repel_boarders}"
    )
    cuts = 0
    for seed in range(6):
        battle = build_battle(load(text), seed, collect=False)
        battle.run_to_end()
        cuts += sum(dict(e.outcome)["cut"] for e in battle.log if e.action == "cut_lines")
    assert cuts > 0


def _watch_decks(battle: ShipBattle, strays: list[tuple[str, str]]) -> None:
    """Note every melee blow or volley whose attacker and target stand on different decks."""
    who = {m.name: m for m in battle.people}
    record, defer = battle.record, battle.defer

    def check(actor: str, target: str | None) -> None:
        a, t = who.get(actor), who.get(target or "")
        if a is not None and t is not None and battle.deck_of(a) is not battle.deck_of(t):
            strays.append((actor, target or ""))

    def on_record(actor: str, action: str, target: str | None, *rest: Any) -> None:
        if action == "volley":
            check(actor, target)
        record(actor, action, target, *rest)

    def on_defer(make: Any, args: tuple[Any, ...]) -> None:
        check(str(args[0]), str(args[1]))
        defer(make, args)

    battle.record, battle.defer = on_record, on_defer  # type: ignore[method-assign]


def test_no_blow_reaches_across_decks() -> None:
    """A fighter whose foe fell back to its own ship stops attacking it: every melee blow
    and volley is struck at someone on the attacker's own deck."""
    scenario = load(SCENARIOS / "boarding-action.yaml")
    strays: list[tuple[str, str]] = []
    retreats = 0
    for seed in range(40):
        battle = build_battle(scenario, seed, collect=False)
        assert isinstance(battle, ShipBattle)
        _watch_decks(battle, strays)
        battle.run_to_end()
        retreats += len(battle.log.of("retreat"))
    assert retreats  # crews did fall back to their own ships
    assert strays == []


def test_a_struck_ship_held_by_a_player_character_is_boarded_and_taken() -> None:
    """SJ 18: Greenbriar strikes while her commander fights on; the pirates board her to
    take her (their fallen-back boarders too) instead of waiting to the round limit."""
    scenario = load(SCENARIOS / "boarding-action.yaml")
    for seed in (287, 348):  # Greenbriar strikes in round 1, Verran fights on
        battle = build_battle(scenario, seed, collect=False)
        battle.run_to_end()
        assert battle.ending == "surrendered"
        assert battle.round < 10
        boards = [e for e in battle.log.of("board") if e.target == "Greenbriar" and e.round > 1]
        assert boards


def test_holdouts_whom_no_foe_can_reach_give_up() -> None:
    """A player character fighting on aboard a struck ship that no enemy can reach (her
    lines cut) gives up at the end of the round."""
    battle = build_battle(load(CHASE), 0, collect=False)
    assert isinstance(battle, ShipBattle)
    wolf = battle.ships[0]
    grik = next(m for m in battle.people if m.name == "Grik")
    cog_crew = next(m for m in battle.people if m.name == "Cog crew")
    battle.move_aboard(cog_crew, wolf)
    battle.strike(wolf, "test")  # Cog's crew is on her deck: Grik fights on
    assert grik.fighting
    battle.take_out(cog_crew, "gone")
    end_of_round(battle)  # nobody on her deck, and Cog is not alongside
    assert grik.status is Status.SURRENDERED


def _prize() -> tuple[ShipBattle, Any, Any, Any]:
    """Saltwind has struck to the reavers standing on her deck, the Gannet alongside."""
    battle = build_battle(load(SCENARIOS / "ship-duel.yaml"), 1, collect=False)
    assert isinstance(battle, ShipBattle)
    salt, gannet = battle.ships
    battle.place(gannet, salt.hex, gannet.facing)
    battle.lash(gannet, salt)
    crew = next(m for m in battle.people if m.name == "Gannet crew")
    battle.move_aboard(crew, salt)
    battle.take_out(next(m for m in battle.people if m.name == "Captain Mara Vell"), "test")
    battle.strike(salt, "test")
    return battle, salt, gannet, crew


def test_victors_go_back_to_their_ship_from_a_taken_prize() -> None:
    """PROPOSED: the reavers on the merchant that struck, with nobody of hers fighting
    there, go back aboard the Gannet alongside at the next round (her hands to sail)."""
    battle, _, gannet, crew = _prize()
    battle.step()
    assert battle.deck_of(crew) is gannet
    assert battle.log.of("return")


def test_victors_with_no_ship_alongside_sail_off_with_the_prize() -> None:
    """Prize crews whose own ship is no longer alongside are out of the fight: they sail
    off with the prize (no stall to the round limit)."""
    battle, salt, gannet, crew = _prize()
    battle.cast_off(gannet, salt)
    end_of_round(battle)
    assert crew.status is Status.ROUTED  # a group that withdraws


def test_ex_sj_14_rapid_resolution_dice_on_deck() -> None:
    """EX-SJ-14: 30 pirates (1 HD, max damage 8) against 12 marines (2 HD, max damage 10)
    on Saltwind's deck: the pirates roll 30/2 = 15 d20, the marines 12/1 = 12; once 5
    pirates are killed the pirates roll 25/2 = 12."""
    text = DUEL.replace(
        "        model: crews/sailors\n        count: 14\n", "        model: crews/marines\n"
    )
    cut = text.index("      - name: Captain Mara Vell")
    text = text[:cut] + text[text.index("      - name: Saltwind crew") :]
    battle = build_battle(load(text), 1, collect=False)
    assert isinstance(battle, ShipBattle)
    salt, gannet = battle.ships
    pirates, marines = member(battle, "Gannet crew"), member(battle, "Saltwind crew")
    battle.place(gannet, salt.hex, gannet.facing)
    battle.lash(gannet, salt)
    board(battle, gannet, salt)
    pirates.rng = marines.rng = FixedDice(0.0)  # every d20 a 1: nobody falls yet
    deck_round(battle, salt)
    battle.casualties(pirates, 5)
    deck_round(battle, salt)
    d20s = [(e.actor, dict(e.dice)["d20s"]) for e in battle.log if e.action == "volley"]
    assert sorted(d20s[:2]) == [("Gannet crew", 15), ("Saltwind crew", 12)]
    assert sorted(d20s[2:]) == [("Gannet crew", 12), ("Saltwind crew", 12)]


def test_decks_are_scanned_only_once_someone_stands_on_another_sides_ship(
    monkeypatch: Any,
) -> None:
    """Until someone stands on a ship of another side no deck is fought over and no deck
    holds boarders (``foreign_decks``): the same battles, byte for byte, as scanning every
    deck every round (duels that end in boarding, boarding actions, a fleet action)."""
    played: dict[tuple[str, int], str] = {}
    for name in ("ship-duel", "boarding-action", "fleet-action"):
        for seed in (1, 2, 3, 4):
            played[name, seed] = run(SCENARIOS / f"{name}.yaml", seed).log.to_jsonl()
    assert any('"deck_fight"' in log for log in played.values())  # decks were fought over
    always = property(lambda self: True, lambda self, value: None)
    monkeypatch.setattr(ShipBattleState, "foreign_decks", always, raising=False)
    for (name, seed), log in played.items():
        assert run(SCENARIOS / f"{name}.yaml", seed).log.to_jsonl() == log, (name, seed)
