"""Fire aboard: fought by the crew through the firefighting policy (EX-SJ-05), air fouling."""

from __future__ import annotations

from dataclasses import replace

from fadad_agents.agents.ships.ship import FireState, Ship
from fadad_agents.engine import build_battle, load
from fadad_agents.engine.ships.battle import ShipBattle
from fadad_agents.engine.ships.damage import burn_fires
from fadad_agents.engine.ships.gunnery import fire_guns
from fadad_agents.hexmap import DIRECTIONS
from fadad_agents.policies.ships.defaults import HalfHands, NoFirefighting
from fadad_agents.rules.ships.fire import AirQuality
from tests.engine.conftest import SCENARIOS, FixedDice


def _duel() -> tuple[ShipBattle, Ship]:
    battle = build_battle(load(SCENARIOS / "ship-duel.yaml"), 1, collect=False)
    assert isinstance(battle, ShipBattle)
    return battle, battle.ships[0]


def test_ex_sj_05_three_hands_put_out_a_three_point_fire() -> None:
    """EX-SJ-05: a fire that will do 3 this round is out with 3 firefighters, no damage."""
    battle, ship = _duel()
    ship.fire_list.append(FireState(3))
    burn_fires(battle, ship)
    assert ship.fire_list == []
    assert ship.hull_damage == 0
    event = battle.log.events[-1]
    assert (event.action, event.result, dict(event.modifiers)["firefighters"]) == ("fire", "out", 3)


def test_ex_sj_05_two_hands_knock_it_down_and_it_grows_back() -> None:
    """EX-SJ-05: with 2 people it does 3, is reduced to 1, and grows to 2 next round."""
    battle, ship = _duel()
    ship.ship_policies = replace(ship.ship_policies, firefighting=HalfHands())
    ship.hand_count = 4  # half the hands: 2 firefighters
    ship.fire_list.append(FireState(3))
    burn_fires(battle, ship)
    assert ship.hull_damage == 3
    assert [f.value for f in ship.fire_list] == [2]
    assert "2 hands fight it; it burns on (damage 3)." in battle.log.text()


def test_unfought_fire_grows_by_one_and_fouls_the_air() -> None:
    """A fire nobody fights grows +1 a round; at 10% of tonnage burnt the air fouls."""
    battle, ship = _duel()
    ship.ship_policies = replace(ship.ship_policies, firefighting=NoFirefighting())
    ship.fire_list.append(FireState(0))
    values = []
    for _ in range(3):
        values.append(ship.fire_list[0].value)
        burn_fires(battle, ship)
    assert values == [0, 1, 2]
    assert ship.hull_damage == 3
    assert ship.air == AirQuality.FRESH  # 3 < 10% of 40 tons
    burn_fires(battle, ship)  # 3 more: 6 >= 4
    assert int(ship.air) == AirQuality.FOULED


def test_fires_are_fought_in_battle() -> None:
    """In play, wildfire and crit fires start and crews fight them (some put out)."""
    outs = 0
    for seed in range(15):
        battle = build_battle(load(SCENARIOS / "boarding-action.yaml"), seed, collect=False)
        battle.run_to_end()
        outs += sum(1 for e in battle.log if e.action == "fire" and e.result == "out")
    assert outs > 0


def test_a_wildfire_hit_is_its_fires_first_round_not_an_extra_one() -> None:
    """FADAD 3.1 / SJ 7.3: the fire's damage the first round is the hit's; it burns one
    point hotter from the next round (before, the hit and the fire both did it at once)."""
    text = (
        (SCENARIOS / "ship-duel.yaml")
        .read_text()
        .replace(
            "        model: ships/reaver-longship\n",
            "        model: ships/reaver-longship\n"
            "        weapons: [{model: big-weapons/wildfire-projector, arc: any}]\n",
            1,
        )
    )
    battle = build_battle(load(text), 1, collect=False)
    assert isinstance(battle, ShipBattle)
    salt, gannet = battle.ships
    salt.ship_policies = replace(salt.ship_policies, firefighting=NoFirefighting())
    battle.place(gannet, salt.hex + DIRECTIONS[0], 3)
    battle.round = 1
    battle.gunnery_rng = FixedDice(0.75)  # a 16 hits; 2d4 = 8
    fire_guns(battle, gannet)
    assert salt.hull_damage == 8
    burn_fires(battle, salt)  # the end of the round: its first round was the hit
    assert salt.hull_damage == 8
    battle.round = 2
    burn_fires(battle, salt)
    assert salt.hull_damage == 8 + 9
