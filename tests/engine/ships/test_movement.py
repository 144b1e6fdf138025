"""Ships on the map: facing rules per class, crew shortage, MS, fields of fire, speed."""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from typing import Any

from fadad_agents.agents.ships.ship import Ship
from fadad_agents.engine import build_battle, load
from fadad_agents.engine.ships.battle import ShipBattle
from fadad_agents.engine.ships.close import move_options
from fadad_agents.engine.ships.gunnery import bearing, big_weapon
from fadad_agents.engine.ships.maneuver import _reachable_from, fadad_plans, sj_plans
from fadad_agents.hexmap import DIRECTIONS, Hex
from fadad_agents.rules.ships.fadad_combat import artillery_target, maneuver_row
from fadad_agents.rules.ships.movement import ManeuverClass, legal_moves
from fadad_agents.schema.loader import catalog_model
from tests.engine.conftest import SCENARIOS

SEGMENTS = ("", "L", "R", "LL", "RR", "RRR")


def _battle(name: str) -> ShipBattle:
    battle = build_battle(load(SCENARIOS / name), 1, collect=False)
    assert isinstance(battle, ShipBattle)
    return battle


def _ship(battle: ShipBattle, name: str) -> Ship:
    return next(s for s in battle.ships if s.name == name)


def test_ex_sj_02_crew_shortage_downgrades_the_class() -> None:
    """EX-SJ-02: minimum 10: 10 full, 6-9 one class down, 3-5 two, 1-2 three (never below Poor)."""
    battle = _battle("fleet-action.yaml")
    hawthorn = _ship(battle, "Hawthorn")  # MC B = Good, minimum crew 12
    hawthorn.spec = hawthorn.spec.model_copy(update={"min_crew": 10, "maneuverability": "A"})
    for t in hawthorn.teams:
        t.set_crew(0)
        t.disabled = True
    expected = {10: 3, 9: 2, 6: 2, 5: 1, 3: 1, 2: 0, 1: 0}
    for crew, mc in expected.items():
        hawthorn.hand_count = crew
        assert hawthorn.mc == ManeuverClass(mc), crew


def test_ex_sj_09_sr_3_average_moves() -> None:
    """EX-SJ-09: SR 3, Average: move-turn-move, three straight, or two and a turn are legal."""
    battle = _battle("ship-duel.yaml")
    gannet = _ship(battle, "Red Gannet")  # Reaver longship: MC C = Average, SR 3
    assert (gannet.sr, gannet.mc) == (3, ManeuverClass.AVERAGE)
    ends = {(o.end, o.facing) for o, _ in move_options(battle, gannet)}
    start, f = gannet.hex, gannet.facing
    step = DIRECTIONS[f]
    ahead = start + step * 3
    assert ((ahead.q, ahead.r), f) in ends  # FFF
    right = (f + 1) % 6
    flf = start + step + DIRECTIONS[right]
    assert ((flf.q, flf.r), right) in ends  # FRF (move, turn, move) then no free turn
    assert all(abs(e[0][0] - start.q) <= 3 for e in ends)


def test_poor_ships_cannot_turn_first() -> None:
    """A Poor ship must move into the hex it faces before turning (SJ 2)."""
    battle = _battle("ship-duel.yaml")
    salt = _ship(battle, "Saltwind")  # MC D = Poor, SR 2
    assert salt.mc == ManeuverClass.POOR
    here = (salt.hex.q, salt.hex.r)
    turned_in_place = [
        o for o, _ in move_options(battle, salt) if o.end == here and o.facing != salt.facing
    ]
    assert turned_in_place == []


def test_ex_shf_01_maneuvering_skill_of_a_ship() -> None:
    """EX-SHF-01: helm Great, crew Good, MC Fair, familiar -> MS Good (+1)."""
    battle = _battle("fleet-action.yaml")
    resolute = _ship(battle, "Resolute")  # helm Great, crew Good, MC D (Mediocre)
    resolute.spec = resolute.spec.model_copy(update={"maneuverability": "C"})
    assert resolute.ms == 1
    resolute.hand_count = sum(t.crew for t in resolute.teams) + 8  # 8 sailing of 20: -2
    assert resolute.ms == -1


def test_ex_shf_02_catalogue_weapon_and_target() -> None:
    """EX-SHF-02: a medium catapult at range 3 against a 50-ton ship: Target +2."""
    catapult = catalog_model("big-weapons/catapult-medium")
    assert artillery_target(50, big_weapon(catapult), 3) == 2


def test_fixed_bow_weapons_bear_ahead_only() -> None:
    """SJ 7.4: a fore ballista bears inside the bow cone (+2 dead ahead), not astern."""
    battle = _battle("ship-duel.yaml")
    salt, gannet = battle.ships
    bow = next(t for t in gannet.teams if t.weapon.arc == "fore")
    facing = gannet.facing
    battle.place(salt, gannet.hex + DIRECTIONS[facing] * 3, 0)
    assert bearing(gannet, bow, salt) == 2
    battle.place(salt, gannet.hex + DIRECTIONS[(facing + 3) % 6] * 3, 0)
    assert bearing(gannet, bow, salt) is None
    any_arc = next(t for t in gannet.teams if t.weapon.arc == "any")
    assert bearing(gannet, any_arc, salt) == 0


def test_fadad_speed_changes_by_the_max_acceleration() -> None:
    """FADAD: speed changes by at most the MS row's maximum acceleration per ship round."""
    battle = _battle("fleet-action.yaml")
    sow = _ship(battle, "Iron Sow")  # bastion barge, SR 1
    sow.spec = sow.spec.model_copy(update={"sr": 4})
    sow.speed = 1
    assert sow.ms is not None
    acc = maneuver_row(sow.ms).max_acceleration
    assert acc < 3
    hexes = {len(p) for _, p in move_options(battle, sow)}
    assert hexes == set(range(max(0, 1 - acc), 1 + acc + 1))


# --- the plan search: every end state, as enumerating every plan finds it -----------------


def _walk(plan: str) -> tuple[tuple[Hex, ...], int]:
    pos, facing, path = Hex(0, 0), 0, []
    for step in plan:
        if step == "F":
            pos = pos + DIRECTIONS[facing]
            path.append(pos)
        else:
            facing = (facing + (1 if step == "R" else -1)) % 6
    return tuple(path), facing


def _enumerated(plans: Iterable[str]) -> dict[tuple[Hex, int], tuple[str, tuple[Hex, ...]]]:
    """Every plan walked, the first shortest kept per end state (the old engine's way)."""
    seen: dict[tuple[Hex, int], tuple[str, tuple[Hex, ...]]] = {}
    for plan in plans:
        path, facing = _walk(plan)
        key = (path[-1] if path else Hex(0, 0), facing)
        if key not in seen or len(plan) < len(seen[key][0]):
            seen[key] = (plan, path)
    return seen


def _searched(plans: Iterable[tuple[str, tuple[Hex, ...], int]]) -> dict[Any, Any]:
    return {(path[-1] if path else Hex(0, 0), f): (plan, path) for plan, path, f in plans}


def test_the_plan_search_finds_what_enumerating_every_plan_finds() -> None:
    """For SR 0-4, every class and both readings of the free turn, the engine's search
    keeps the same plan per end state as trying all 6^(hexes+1) of them (SJ 2, A-61)."""
    for sr in range(5):
        for mc in ManeuverClass:
            for free in (True, False):
                want = _enumerated(legal_moves(sr, mc, free))
                assert _searched(sj_plans(sr, mc, free)) == want, (sr, mc, free)
        for faces in range(6):
            every = (
                "F".join(segs)
                for hexes in range(sr + 1)
                for segs in itertools.product(SEGMENTS, repeat=hexes + 1)
                if sum(len(s) for s in segs) <= faces
            )
            assert _searched(fadad_plans(sr, faces)) == _enumerated(every), (sr, faces)


def test_a_wyrm_at_sr_12_under_fadad_rules_plays_to_its_end() -> None:
    """Issue 16: the wyrm at SR 12 under the FADAD ship rules, the merchant cutting loose:
    each move is a search, not an enumeration of 6^13 plans, so the battle ends."""
    text = (SCENARIOS / "wyrm-at-the-moonlet.yaml").read_text()
    for old, new in (
        ("ship.damage_model: sj_hull_points", "ship.damage_model: fadad_levels"),
        ("ship.crit_table: sj_d20", "ship.crit_table: fadad_6dF"),
        ("model: ships/space-wyrm\n", "model: ships/space-wyrm\n        sr: 12\n"),
        ("params: {jettison: true}", "params: {jettison: true, cut_loose: 10}"),
    ):
        assert old in text
        text = text.replace(old, new)
    battle = build_battle(load(text), 1, collect=False)
    assert battle.ships[1].spec.sr == 12
    battle.run_to_end()
    assert battle.finished


def test_free_turn_counts_toward_the_turns_per_hex_by_option() -> None:
    """sj.free_turn_counts_toward_hex_limit: an Average ship turns one side per hex, the free
    end turn among them; off, it may add the free turn to one already made there."""
    text = (SCENARIOS / "ship-duel.yaml").read_text()
    for counts, two_sides in ((True, False), (False, True)):
        rules = f"rules:\n  sj.free_turn_counts_toward_hex_limit: {str(counts).lower()}\n"
        battle = build_battle(load(text.replace("rules:\n", rules)), 1, collect=False)
        assert isinstance(battle, ShipBattle)
        gannet = battle.ships[1]  # C = Average, SR 3
        ahead = gannet.hex + DIRECTIONS[gannet.facing]
        ends = {(o.end, o.facing) for o, _ in move_options(battle, gannet)}
        assert (((ahead.q, ahead.r), (gannet.facing + 2) % 6) in ends) is two_sides


def test_moves_far_from_the_edge_are_the_moves_the_edge_check_keeps() -> None:
    """A ship whose moves cannot reach the map's edge is offered her moves unchecked: the
    moves every plan's end checked against the edge leaves her, near the edge and far."""
    key = (False, 4, int(ManeuverClass.AVERAGE), 2, True)
    for q, r in ((0, 0), (3, -2), (6, 0), (5, 4), (-8, 1), (9, -9)):
        everywhere = _reachable_from(key, q, r, 0, 4, None)[0]
        for radius in (6, 9, 12):
            inside = [m for m in everywhere if Hex(*m.end).length() <= radius]
            assert list(_reachable_from(key, q, r, 0, 4, radius)[0]) == inside
            assert list(_reachable_from(key, q, r, 2, 3, radius)[0]) == [
                m
                for m in inside
                if len(_reachable_from(key, q, r, 0, 4, None)[1][m.plan]) in (2, 3)
            ]
