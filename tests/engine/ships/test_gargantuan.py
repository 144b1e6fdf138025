"""Gargantuan creatures through the engine: a space wyrm that rams, and rams against it (SJ 9)."""

from __future__ import annotations

from fadad_agents.agents.core.base import Status
from fadad_agents.engine import build_battle, load
from fadad_agents.engine.ships.battle import ShipBattle
from fadad_agents.engine.ships.close import move_options, ram
from fadad_agents.engine.ships.damage import hull_hit
from fadad_agents.engine.ships.morale import end_of_round
from fadad_agents.hexmap import Hex, distance
from tests.engine.conftest import SCENARIOS, FixedDice

MOONLET = (SCENARIOS / "wyrm-at-the-moonlet.yaml").read_text()
MAP_DEBRIS = {Hex(-3, 6), Hex(-4, 6), Hex(-3, 5)}


def _battle(text: str = MOONLET, seed: int = 11) -> ShipBattle:
    battle = build_battle(load(text), seed, collect=False)
    assert isinstance(battle, ShipBattle)
    return battle


RAMMER = MOONLET.replace(
    "        gravity_well: {size: A, weather: rain_or_snow, landed: true}\n",
    "        ram: blunt\n        ram_dice: 4d6\n",
)
"""The moonlet battle with the merchant aloft and carrying a 4d6 blunt ram."""


def test_ex_sj_07_a_4d6_ram_does_4d4_to_a_gargantuan_creature() -> None:
    """EX-SJ-07: the ram that would do 4d6 hull points to a ship does 4d4 to a space wyrm."""
    battle = _battle(RAMMER)
    gull, wyrm = battle.ships
    assert wyrm.gargantuan
    battle.place(gull, wyrm.hex, (wyrm.facing + 1) % 6)
    gull.moved = gull.spec.sr  # she came in at full speed
    battle.initiative_side = gull.side
    battle.close_rng = FixedDice(0.99)  # d20 = 20 hits; every d4 rolls 4 (a d6 would roll 6)
    ram(battle, gull, wyrm)
    event = next(e for e in battle.log if e.action == "ram")
    assert dict(event.modifiers)["dice"] == "4d4"
    assert dict(event.outcome)["hull"] == 16
    assert "d4s for d6s against a gargantuan creature" in battle.log.text()


def test_the_wyrm_ramming_a_ship_rolls_its_own_dice() -> None:
    """The wyrm's body (4d8, data) against a ship: no d4 swap, the target is no creature."""
    battle = _battle(RAMMER)
    gull, wyrm = battle.ships
    battle.place(wyrm, gull.hex, (gull.facing + 1) % 6)
    wyrm.moved = wyrm.spec.sr
    battle.initiative_side = wyrm.side
    battle.close_rng = FixedDice(0.99)
    ram(battle, wyrm, gull)
    event = next(e for e in battle.log if e.action == "ram")
    assert dict(event.modifiers)["dice"] == "4d8"
    assert dict(event.outcome)["hull"] == 32


def test_the_wyrm_needs_no_crew_and_is_never_a_derelict() -> None:
    """A gargantuan creature sails without hands, and nobody aboard does not make it a wreck."""
    battle = _battle()
    wyrm = battle.ships[1]
    assert battle.crew_heads_home(wyrm) == 0
    assert wyrm.shortage == 0
    assert wyrm.sr == wyrm.spec.sr
    end_of_round(battle)
    assert wyrm.status is Status.FIGHTING


def test_a_slain_wyrm_leaves_no_debris_and_no_repair_bill() -> None:
    """At 0 hull points the creature is slain: no debris field, no repair bill."""
    battle = _battle()
    wyrm = battle.ships[1]
    hull_hit(battle, wyrm, wyrm.spec.hull_points, source="Gull's Rest")
    assert wyrm.status is Status.OUT
    assert any(e.action == "slain" for e in battle.log)
    assert set(battle.debris) == MAP_DEBRIS
    battle.run_to_end()
    assert "Space wyrm" not in battle.repairs


def test_the_wyrm_rams_in_play() -> None:
    """The moonlet scenario runs end to end; the wyrm rams (some seeds) and the report says so."""
    rams = 0
    for seed in range(6):
        battle = _battle(seed=seed)
        battle.run_to_end()
        rams += sum(1 for e in battle.log if e.action == "ram" and e.actor == "Space wyrm")
        assert battle.finished
    assert rams > 0


def test_to_ram_a_ship_in_her_hex_the_wyrm_leaves_and_comes_back() -> None:
    """SJ 9: no ram at a ship that shared the hex at the start of the turn unless the
    rammer left and re-entered: still in the hex, no ram; moved out and back, it rams;
    and its policy, sharing the hex, steps out to come back in."""
    for moved, rams in ((0, False), (2, True)):
        battle = _battle(RAMMER)
        gull, wyrm = battle.ships
        battle.place(wyrm, gull.hex, (gull.facing + 1) % 6)
        battle.start_hex = {gull: gull.hex, wyrm: gull.hex}
        wyrm.moved = moved
        battle.initiative_side = wyrm.side
        battle.close_rng = FixedDice(0.99)
        ram(battle, wyrm, gull)
        assert bool(battle.log.of("ram")) is rams
    battle = _battle(RAMMER)
    gull, wyrm = battle.ships
    battle.place(wyrm, gull.hex, (gull.facing + 1) % 6)
    options = move_options(battle, wyrm)
    choice = wyrm.ship_policies.maneuver.choose_move(wyrm, battle, [o for o, _ in options])
    assert distance(Hex(*choice.end), gull.hex) == 1
