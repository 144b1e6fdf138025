"""Ship policies: a default and alternatives per decision, chosen by name per ship."""

from __future__ import annotations

from typing import Any

import pytest

from fadad_agents.engine import build_battle, load
from fadad_agents.engine.ships.battle import ShipBattle
from fadad_agents.engine.ships.close import move_options, move_ship
from fadad_agents.engine.ships.maneuver import _reachable
from fadad_agents.engine.ships.turn import ship_turn
from fadad_agents.hexmap import DIRECTIONS, Hex
from fadad_agents.policies import PolicyError
from fadad_agents.policies.ships.defaults import CloseIn, Flee, GunsFirst, SailFirst, StandOff
from fadad_agents.policies.ships.maneuver import Hold, Land, bears, nearest_enemy
from fadad_agents.policies.ships.protocols import SHIP_KINDS
from fadad_agents.policies.ships.registry import SHIP_REGISTRY, build_ship_policies
from tests.engine.conftest import SCENARIOS, WIZARD


def test_every_ship_decision_has_a_default_and_an_alternative() -> None:
    """Each kind registers at least two policies; the defaults build."""
    build_ship_policies([])
    for kind in SHIP_KINDS:
        assert len(SHIP_REGISTRY.names(kind)) >= 2, kind


def test_scenario_policies_reach_each_ship() -> None:
    """Side policies and per-ship overrides: the duel's merchant flees, the reaver rams."""
    battle = build_battle(load(SCENARIOS / "ship-duel.yaml"), 1, collect=False)
    assert isinstance(battle, ShipBattle)
    salt, gannet = battle.ships
    assert isinstance(salt.ship_policies.maneuver, Flee)
    assert isinstance(gannet.ship_policies.maneuver, CloseIn)
    assert gannet.ship_policies.maneuver.intent == "ram"
    assert salt.ship_policies.colours.strike_now.__self__.hull_fraction == 0.25


def test_unknown_ship_policy_names_the_field() -> None:
    """A typo in a ship policy is a PolicyError naming the scenario path."""
    with pytest.raises(PolicyError, match=r"sides\.0\.policies\.maneuver\.name"):
        build_ship_policies([("sides.0.policies", {"maneuver": "zigzag"})])
    with pytest.raises(PolicyError, match=r"range"):
        build_ship_policies(
            [("sides.0.policies", {"maneuver": {"name": "stand_off", "params": {"range": -1}}})]
        )


def test_reload_policies_split_hands_differently() -> None:
    """guns_first crews every weapon first; sail_first keeps the minimum crew sailing."""
    assert GunsFirst().assign(5, 4, [2, 3, 1]) == [2, 3, 0]
    assert SailFirst().assign(5, 4, [2, 3, 1]) == [1, 0, 0]


def test_stand_off_keeps_its_range() -> None:
    """stand_off ends its move as near its range from the enemy as it can."""
    text = (
        (SCENARIOS / "ship-duel.yaml")
        .read_text()
        .replace(
            "maneuver: {name: close_and_ram}", "maneuver: {name: stand_off, params: {range: 5}}"
        )
    )
    battle = build_battle(load(text), 3, collect=False)
    assert isinstance(battle, ShipBattle)
    salt, gannet = battle.ships
    assert isinstance(gannet.ship_policies.maneuver, StandOff)
    battle.step()
    if gannet.fighting and salt.fighting:
        assert abs(battle.range_between(salt, gannet) - 5) <= 2


def test_a_custom_ship_policy_registers_by_name() -> None:
    """Plug-ins (or code) register ship policies by kind and name; scenarios pick them."""
    from fadad_agents.policies.ships.defaults import Flee

    SHIP_REGISTRY.register("maneuver", "run_for_it", Flee)
    built = build_ship_policies([("sides.0.policies", {"maneuver": "run_for_it"})])
    assert isinstance(built.maneuver, Flee)


def test_scenario_typo_in_a_ship_policy_is_a_one_line_error() -> None:
    """A bad ship policy in the YAML names the field (sides.0.policies.maneuver.name)."""
    text = (SCENARIOS / "ship-duel.yaml").read_text().replace("{name: flee}", "{name: zigzag}")
    with pytest.raises(PolicyError, match=r"sides\.0\.policies\.maneuver\.name.*zigzag"):
        build_battle(load(text), 1)


def test_fighters_need_a_ship_in_a_ship_battle() -> None:
    """A side with fighters but no ship cannot stand anywhere: UnsupportedForce, with the fix."""
    from fadad_agents.engine import UnsupportedForce

    text = (SCENARIOS / "ship-duel.yaml").read_text()
    start = text.index("      - name: Red Gannet")
    end = text.index("      - name: Gannet crew")
    text = text[:start] + text[end:].replace("        aboard: Red Gannet\n", "")
    with pytest.raises(UnsupportedForce, match="aboard"):
        build_battle(load(text), 1)


def test_ship_plug_ins_use_the_one_entry_point_group(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ship policies register through ``fadad_agents.policies``, like every other kind."""
    from fadad_agents.policies.core import registry as registry_module
    from fadad_agents.policies.core.registry import REGISTRY, PolicyRegistry
    from fadad_agents.policies.ships.defaults import Flee

    class FakeEntryPoint:
        name, value = "corsair", "plugin:register"

        def load(self) -> object:
            return lambda reg: reg.register("maneuver", "corsair", Flee)

    seen: list[str] = []

    def fake_entry_points(*, group: str) -> list[FakeEntryPoint]:
        seen.append(group)
        return [FakeEntryPoint()]

    monkeypatch.setattr(registry_module, "entry_points", fake_entry_points)
    reg = PolicyRegistry(REGISTRY.kinds)
    assert isinstance(reg.create("maneuver", "corsair"), Flee)
    assert seen == ["fadad_agents.policies"]


def test_ship_targeting_is_the_gunnery_kind_of_the_one_registry() -> None:
    """Ship targeting is the registry kind ``gunnery``; a crews-only name leaves the guns be."""
    from fadad_agents.policies.core.registry import REGISTRY
    from fadad_agents.policies.ships.defaults import NearestShip

    assert SHIP_REGISTRY.names("targeting") == REGISTRY.names("gunnery")
    assert {"nearest_ship", "focus_fire", "sweep_decks"} <= set(REGISTRY.names("gunnery"))
    assert "sticky" not in REGISTRY.names("gunnery")
    built = build_ship_policies([("sides.0.policies", {"targeting": "sticky"})])
    assert isinstance(built.targeting, NearestShip)
    with pytest.raises(PolicyError, match=r"unknown ship targeting policy 'nearst'"):
        build_ship_policies([("sides.0.policies", {"gunnery": "nearst"})])


def test_every_built_in_is_listed_from_import_time() -> None:
    """Importing the package registers ship and Fae built-ins (no first use needed)."""
    import subprocess
    import sys

    code = (
        "from fadad_agents.policies import REGISTRY;"
        "print(REGISTRY.names('maneuver'), REGISTRY.names('fae_action'))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "close_and_board" in done.stdout
    assert "fighter" in done.stdout


def _reply_duel(reply: bool) -> Any:
    text = (SCENARIOS / "ship-duel.yaml").read_text()
    text = text.replace(
        "          targeting: {name: nearest_ship}",
        f"          targeting: {{name: nearest_ship, params: {{reply: {str(reply).lower()}}}}}",
    )
    text = text.replace(
        "      - name: Saltwind crew\n", WIZARD + ARCHERS + "      - name: Saltwind crew\n"
    )
    battle = build_battle(load(text), 1, collect=False)
    assert isinstance(battle, ShipBattle)
    return battle


ARCHERS = """      - name: Saltwind archers
        model: crews/sailors
        count: 8
        weapon: weapons/bow
        aboard: Saltwind
"""


def test_a_ship_fires_out_of_turn_at_one_that_has_just_moved() -> None:
    """SJ 3 step 6: when a ship has moved and fired, any other may fire at her: the
    merchant's stern ballista answers the reaver before the merchant's own move; with
    ``reply: false`` she holds her fire for her turn."""
    for reply in (True, False):
        battle = _reply_duel(reply)
        salt, gannet = battle.ships
        battle.round = 1
        battle.place(gannet, salt.hex + DIRECTIONS[3] * 3, 0)  # 3 hexes astern of her
        battle.start_hex = {salt: salt.hex, gannet: gannet.hex}
        battle.turn_order = [gannet, salt]
        ship_turn(battle, gannet)  # the reaver moves (and fires) first
        answers = [e for e in battle.log.of("gunnery") if e.actor == "Saltwind"]
        assert bool(answers) is reply
        assert all(e.target == "Red Gannet" for e in answers)


def test_the_ship_whose_hex_was_entered_answers_with_missiles_and_magic() -> None:
    """SJ 8: the ship whose hex an enemy entered may loose missiles and spells at her,
    after the mover's fire and before the mover rams or grapples."""
    battle = _reply_duel(True)
    salt, gannet = battle.ships
    battle.round = 1
    battle.place(gannet, salt.hex + DIRECTIONS[3], 0)  # one hex astern, bow on
    battle.start_hex = {salt: salt.hex, gannet: gannet.hex}
    battle.turn_order = [gannet, salt]
    battle.initiative_side = gannet.side
    ship_turn(battle, gannet)
    actions = [(e.actor, e.action) for e in battle.log]
    assert gannet.hex == salt.hex
    assert ("Saltwind archers", "volley") in actions
    assert ("Magister Orlen", "spell") in actions
    closing = [
        i for i, (a, act) in enumerate(actions) if a == "Red Gannet" and act in ("ram", "grapple")
    ]
    assert closing
    assert actions.index(("Saltwind archers", "volley")) < closing[0]


def test_a_fleeing_poor_ship_gets_under_way() -> None:
    """flee: a Poor ship facing her pursuer must move ahead before she may turn (SJ 2), so
    she heads where a full move next round takes her farthest: the merchant is under way
    within her first three rounds in every one of 30 duels (before, she often lay still)."""
    scenario = load(SCENARIOS / "ship-duel.yaml")
    for seed in range(30):
        battle = build_battle(scenario, seed, collect=False)
        for _ in range(3):
            if not battle.finished:
                battle.step()
        moves = [e for e in battle.log.of("maneuver") if e.actor == "Saltwind"]
        assert any("F" in str(e.result) for e in moves), seed


def test_standing_off_she_turns_the_guns_she_has_to_bear() -> None:
    """stand_off: she keeps her range where a gun of hers bears: with a bow ballista only,
    the merchant ends her move with the reaver in her bow arc (not broadside on)."""
    text = (SCENARIOS / "ship-duel.yaml").read_text()
    text = text.replace("maneuver: {name: flee}", "maneuver: {name: stand_off, params: {range: 3}}")
    text = text.replace(
        "        speed: 2\n        policies:",
        "        speed: 2\n        weapons: [{model: big-weapons/ballista-medium, arc: fore}]\n"
        "        policies:",
    )
    battle = build_battle(load(text), 1, collect=False)
    assert isinstance(battle, ShipBattle)
    salt, gannet = battle.ships
    salt.spec = salt.spec.model_copy(update={"maneuverability": "A"})  # she may turn at will
    battle.round = 1
    move_ship(battle, salt)
    assert bears(("fore",), salt.hex, salt.facing, gannet.hex)


BUILT_IN_MANEUVERS = pytest.mark.parametrize(
    "maneuver",
    [CloseIn("ram"), CloseIn("board"), StandOff(2), StandOff(4), Flee(), Land(), Hold()],
    ids=lambda m: f"{type(m).__name__}-{m.intent}-{getattr(m, 'range', '')}",
)


@BUILT_IN_MANEUVERS
def test_a_move_remembered_at_one_hex_is_the_one_the_scores_pick_at_another(
    maneuver: Any,
) -> None:
    """A built-in maneuver remembers its choice among moves of one shape against a foe as
    far off the same way (scores read positions only as offsets): the fleet shifted across
    the map, each ship's choice there is still the move of the lowest score."""
    battle = build_battle(load(SCENARIOS / "fleet-action.yaml"), 3, collect=False)
    assert isinstance(battle, ShipBattle)
    for shift in (Hex(0, 0), Hex(2, -1), Hex(-3, 2), Hex(1, 3), Hex(-2, -2)):
        for ship in battle.ships:
            battle.place(ship, ship.hex + shift, ship.facing)
        for ship in battle.ships:
            foe = nearest_enemy(ship, battle)
            assert foe is not None
            moves = _reachable(battle, ship, ship.sr)[0]
            assert moves.shape is not None
            assert moves.origin == ship.position
            best = maneuver._best(maneuver.situation(ship, foe), moves)
            assert maneuver.choose_move(ship, battle, moves) == best


@BUILT_IN_MANEUVERS
def test_a_remembered_move_is_the_one_the_scores_pick(maneuver: Any) -> None:
    """A built-in maneuver remembers its choice per situation and options (sweeps replay
    them): asked again, or with the same options at another ship, it answers as scoring does;
    and its choice, scored first by its lead alone, is the move of the lowest whole score."""
    battle = build_battle(load(SCENARIOS / "fleet-action.yaml"), 3, collect=False)
    assert isinstance(battle, ShipBattle)
    for _ in range(4):
        for ship in battle.ships:
            if not ship.fighting:
                continue
            foe = nearest_enemy(ship, battle)
            options = tuple(move for move, _ in move_options(battle, ship))
            if foe is None or not options:
                continue
            situation = maneuver.situation(ship, foe)
            best = maneuver._best(situation, options)
            assert best == min(
                options, key=lambda o: (*maneuver.score(situation, o), len(o.plan), o.plan)
            )
            assert all(
                maneuver.lead(situation, o) == maneuver.score(situation, o)[0] for o in options
            )
            assert maneuver.choose_move(ship, battle, options) == best
            assert maneuver.choose_move(ship, battle, options) == best
            assert maneuver.choose_move(ship, battle, list(options)) == best
        if battle.finished:
            break
        battle.play_round()
