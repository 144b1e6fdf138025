"""Jettisons and debris fields through the engine (SJ 7.2, 15-16, A-60)."""

from __future__ import annotations

from fadad_agents.engine import build_battle, load
from fadad_agents.engine.ships.battle import ShipBattle
from fadad_agents.engine.ships.chase import lay_debris, shot_at_pursuer, try_escape
from fadad_agents.engine.ships.close import move_ship
from fadad_agents.hexmap import Hex
from tests.engine.conftest import SCENARIOS, FixedDice

DUEL = (SCENARIOS / "ship-duel.yaml").read_text()
SALT = "        speed: 2\n        policies:\n          targeting: {name: nearest_ship}\n"
JETTISON = """        weapons:
          - {model: big-weapons/ballista-medium, arc: aft}
          - model: big-weapons/jettison
"""


def _duel(text: str, seed: int = 1) -> ShipBattle:
    battle = build_battle(load(text), seed, collect=False)
    assert isinstance(battle, ShipBattle)
    return battle


def _chase(jettison: bool = True) -> ShipBattle:
    """Saltwind (jettison aft) runs north; the Gannet follows 3 hexes astern."""
    text = DUEL.replace(SALT, SALT + JETTISON)
    text = text.replace("position: [8, -4]", "position: [0, 3]").replace(
        "        facing: 3\n        speed: 3", "        facing: 0\n        speed: 3"
    )
    if not jettison:
        text = text.replace(
            "maneuver: {name: flee}", "maneuver: {name: flee, params: {jettison: false}}"
        )
    return _duel(text)


def _events(battle: ShipBattle, action: str) -> list:
    return [e for e in battle.log if e.action == action]


def test_a_fleeing_ship_jettisons_rubble_into_her_wake() -> None:
    """She moves, a pursuer is in the jettison's arc: rubble fills the hexes she left."""
    battle = _chase()
    salt = battle.ships[0]
    battle.round = 1
    move_ship(battle, salt)
    assert salt.moved > 0
    lay_debris(battle, salt)
    event = _events(battle, "jettison")[0]
    hexes = {Hex(*h) for h in dict(event.outcome)["hexes"]}
    assert Hex(0, 0) in hexes
    assert salt.hex not in hexes
    assert hexes <= battle.jettisoned
    assert all(h in battle.debris for h in hexes)
    team = next(t for t in salt.teams if t.weapon.family == "jettison")
    assert not team.loaded  # it reloads like any big weapon


def test_no_jettison_when_the_flee_policy_says_no() -> None:
    """``flee`` with ``jettison: false`` keeps the jettison for shooting."""
    battle = _chase(jettison=False)
    salt = battle.ships[0]
    battle.round = 1
    move_ship(battle, salt)
    lay_debris(battle, salt)
    assert not _events(battle, "jettison")


def test_a_pursuer_at_speed_through_the_rubble_is_attacked_as_by_a_jettison() -> None:
    """SJ 7.2: entering a debris hex at 2-3 hexes a turn: attacked as by a small jettison."""
    battle = _chase()
    _salt, gannet = battle.ships
    battle.debris[Hex(0, 2)] = False
    battle.debris[Hex(0, 1)] = False
    battle.close_rng = FixedDice(0.99)  # the debris hits (d20 = 20), 1d4 = 4
    battle.round = 1
    move_ship(battle, gannet)
    assert gannet.moved >= 2
    hits = [e for e in _events(battle, "debris") if e.actor == "Red Gannet"]
    assert hits
    assert dict(hits[0].outcome)["damage"] == 4


def test_map_debris_fields_are_hazards_and_block_escape() -> None:
    """``map.debris`` cells start as debris; a field within 25 hexes holds a fleeing ship."""
    text = DUEL.replace(
        "  terrain: wildspace near an asteroid reef\n",
        "  terrain: wildspace near an asteroid reef\n  debris:\n    - [0, -20]\n",
    )
    text = text.replace("radius: 30", "radius: 60").replace(
        "position: [8, -4]", "position: [40, 0]"
    )
    battle = _duel(text)
    salt = battle.ships[0]
    assert Hex(0, -20) in battle.debris
    assert Hex(0, -20) not in battle.jettisoned
    try_escape(battle, salt)
    assert salt.fighting  # the field is within 25 hexes
    del battle.debris[Hex(0, -20)]
    try_escape(battle, salt)
    assert not salt.fighting


def test_jettisoned_rubble_does_not_hold_the_ship_that_dropped_it() -> None:
    """PROPOSED: jettisoned rubble (under 10 tons) does not count for the capture distance."""
    text = DUEL.replace("radius: 30", "radius: 60").replace(
        "position: [8, -4]", "position: [40, 0]"
    )
    battle = _duel(text)
    salt = battle.ships[0]
    battle.debris[Hex(0, 1)] = False
    battle.jettisoned.add(Hex(0, 1))
    try_escape(battle, salt)
    assert not salt.fighting


def test_jettisoned_shot_hits_a_pursuer_5_percent_of_the_time() -> None:
    """SJ 16: shot at spelljamming speed hits on 01-05 of d100; a hit does the jettison's dice."""
    battle = _chase()
    salt, gannet = battle.ships
    team = next(t for t in salt.teams if t.weapon.family == "jettison")
    battle.jettison_rng = FixedDice(0.04)  # d100 roll 5: a hit; 1d6 = 1
    shot_at_pursuer(battle, [team], salt.name, gannet)
    assert dict(_events(battle, "jettison_hit")[0].outcome) == {"result": "hit", "damage": 1}
    assert gannet.hull_damage == 1
    battle.jettison_rng = FixedDice(0.05)  # d100 roll 6: a miss
    shot_at_pursuer(battle, [team], salt.name, gannet)
    assert dict(_events(battle, "jettison_hit")[1].outcome)["result"] == "miss"
    assert gannet.hull_damage == 1


def test_escape_with_a_loaded_jettison_shoots_at_the_pursuer() -> None:
    """An escaping ship with a loaded jettison lets fly at each pursuer on her track."""
    text = DUEL.replace(SALT, SALT + JETTISON).replace("radius: 30", "radius: 60")
    text = text.replace("position: [8, -4]", "position: [27, 0]")
    battle = _duel(text)
    salt = battle.ships[0]
    battle.chase_rng = FixedDice(
        0.0
    )  # delay 9 rounds: d20 1 + 9 <= 12 + 2  # the navigator rolls a 1: on her track
    try_escape(battle, salt)
    assert not salt.fighting
    assert _events(battle, "pursuit")
    assert _events(battle, "jettison_hit")
    escape = dict(_events(battle, "escape")[0].outcome)
    assert (escape["mph"], escape["miles_per_day"]) == (17.0, 400)  # SR 2


def test_cutting_10_tons_loose_slows_the_pursuer() -> None:
    """SJ 16: 10+ tons cut loose: the pursuer stops 11-20 hexes short of the mass and must
    pass it; PROPOSED: it loses (stop + 25) / SR rounds, added to its delay (here lost)."""
    text = DUEL.replace("radius: 30", "radius: 60").replace(
        "position: [8, -4]", "position: [27, 0]"
    )
    text = text.replace("maneuver: {name: flee}", "maneuver: {name: flee, params: {cut_loose: 10}}")
    battle = _duel(text)
    salt = battle.ships[0]
    battle.chase_rng = FixedDice(0.0)  # the navigator rolls a 1
    battle.jettison_rng = FixedDice(0.0)  # the pursuer stops 11 hexes short
    try_escape(battle, salt)
    cut = dict(_events(battle, "cut_loose")[0].outcome)
    assert (cut["stop"], cut["rounds"]) == (11, 12)  # (11 + 25) / SR 3
    pursuit = _events(battle, "pursuit")[0]
    assert dict(pursuit.modifiers)["delay"] == 9 + 12
    assert dict(pursuit.outcome)["result"] == "loses her"  # two turns of delay


def test_under_10_tons_cut_loose_does_not_slow_a_pursuer() -> None:
    """SJ 16: less than 10 tons of mass does not stop a pursuer."""
    text = DUEL.replace("radius: 30", "radius: 60").replace(
        "position: [8, -4]", "position: [27, 0]"
    )
    text = text.replace("maneuver: {name: flee}", "maneuver: {name: flee, params: {cut_loose: 9}}")
    battle = _duel(text)
    battle.chase_rng = FixedDice(0.0)
    try_escape(battle, battle.ships[0])
    assert not _events(battle, "cut_loose")
    assert dict(_events(battle, "pursuit")[0].modifiers)["delay"] == 9


def test_escape_is_judged_at_the_start_of_her_move() -> None:
    """SJ 15: nothing within 25 hexes at the start of her movement and she leaves without
    moving; 24 hexes off she must first sail clear and leaves the next round."""
    for gap, escapes_in in ((26, 1), (24, 2)):
        text = DUEL.replace("radius: 30", "radius: 60").replace(
            "position: [8, -4]", f"position: [0, {gap}]"
        )
        text = text.replace(
            "        facing: 3\n        speed: 3", "        facing: 5\n        speed: 0"
        )
        text = text.replace("maneuver: {name: close_and_ram}", "maneuver: {name: hold}")
        battle = _duel(text)
        while battle.ships[0].fighting and battle.round < 5:
            battle.step()
        (escape,) = _events(battle, "escape")
        assert escape.round == escapes_in
        moves = [e for e in _events(battle, "maneuver") if e.actor == "Saltwind"]
        assert [e.round for e in moves] == list(range(1, escapes_in))
