"""The engine's PROPOSED Spelljammer readings are options (``sj.*``): each one, set off its
default, changes play the way its description says."""

from __future__ import annotations

from typing import Any

from fadad_agents.engine.ships.battle import ShipBattle
from fadad_agents.engine.ships.chase import mass_delay, try_escape
from fadad_agents.engine.ships.close import board, crash, move_ship, towed_by
from fadad_agents.engine.ships.damage import break_up
from fadad_agents.engine.ships.gunnery import fire_guns
from fadad_agents.engine.ships.helm import helm_lost
from fadad_agents.engine.ships.hull_attacks import cast_spells, chop_hull, hull_shots
from fadad_agents.engine.ships.morale import check_morale, morale_events
from fadad_agents.engine.ships.turn import missile_fire
from fadad_agents.hexmap import DIRECTIONS, Hex
from fadad_agents.rules.ships.crew import MoraleEvent, MoraleTrigger
from tests.engine.conftest import WIZARD
from tests.engine.engine_options_helpers import (
    DUEL,
    MOONLET,
    FixedDice,
    aboard_saltwind,
    events,
    member,
    ships,
)

# --- sj.* --------------------------------------------------------------------------------


def test_tow_capacity_one_leaves_no_ship_able_to_tow() -> None:
    """sj.tow_capacity: at 2x her tonnage the stronger helm tows a grappled ship; at 1x she
    cannot move her own and the other's tonnage."""
    text = DUEL.replace("maneuver: {name: close_and_ram}", "maneuver: {name: hold}")
    for capacity, tows in ((2, True), (1, False)):
        battle = ships(text, {"sj.tow_capacity": capacity})
        salt, gannet = battle.ships
        battle.place(gannet, salt.hex, gannet.facing)
        battle.lash(salt, gannet)
        salt.spec = salt.spec.model_copy(update={"sr": 4})
        assert (towed_by(battle, salt) == [gannet]) is tows


def test_very_dangerous_boarding_odds_decide_when_crews_check_morale() -> None:
    """sj.very_dangerous_boarding_odds: 7 pirates boarding a deck of 15 is very dangerous at
    2:1 (the crew fails its check and refuses); at 3:1 it is not and all cross."""
    text = DUEL.replace("        count: 30\n", "        count: 7\n")
    for odds, refused in ((2, True), (3, False)):
        battle = ships(text, {"sj.very_dangerous_boarding_odds": odds})
        salt, gannet = battle.ships
        battle.place(salt, gannet.hex, salt.facing)
        battle.lash(gannet, salt)
        battle.ship_morale_rng = FixedDice(0.99)  # 2d10 = 20: the crew's check fails
        board(battle, gannet, salt)
        assert bool(events(battle, "refuse", "Gannet crew")) is refused
        assert bool(events(battle, "board", "Red Gannet")) is not refused


def test_crewman_hit_points_per_hd_decides_who_dies_in_a_crash() -> None:
    """sj.crewman_hit_points_per_hd: 20 points kill a 1-HD crewman at 4.5 a HD; at 30 a HD
    every crewman of the crashing ship lives."""
    for per_hd, survivors in ((4.5, 0), (30, 30)):
        battle = ships(rules={"sj.crewman_hit_points_per_hd": per_hd})
        salt, gannet = battle.ships
        battle.close_rng = FixedDice(0.0)  # no avoiding it, no saves, every die a 1: 20 points
        crash(battle, gannet, salt)
        assert battle.crew_heads_on(gannet) == survivors


def test_weapons_start_unloaded_and_reload_when_hands_reach_them() -> None:
    """sj.weapons_start_loaded: ships meet loaded; off, every weapon starts its reload when
    its hands arrive and is loaded after its listed rounds."""
    loaded = ships()
    assert all(t.loaded for s in loaded.ships for t in s.teams)
    battle = ships(rules={"sj.weapons_start_loaded": False})
    teams = [t for s in battle.ships for t in s.teams]
    assert not any(t.loaded for t in teams)
    battle.step()
    assert not any(t.can_fire(battle.round) for t in teams)
    assert not events(battle, "gunnery")
    slowest = max(t.total_rounds(t.crew) for t in teams if t.crew)
    while battle.round < slowest + 1 and not battle.finished:
        battle.step()
    assert all(t.loaded or t.fired_round > 0 for t in teams if t.crew)


QUIET = DUEL.replace("maneuver: {name: close_and_ram}", "maneuver: {name: hold}").replace(
    "position: [8, -4]", "position: [0, 22]"
)


def test_a_new_helmsman_needs_no_warm_up_by_option() -> None:
    """sj.new_helmsman_warmup: after a helm shock the captain warms the helm up 1d8 rounds
    (SR 0 meanwhile); off, she takes over a warm helm and the ship moves at once."""
    for warmup in (True, False):
        battle = ships(QUIET, {"sj.new_helmsman_warmup": warmup})
        salt = battle.ships[0]
        battle.helm_rng = FixedDice(0.3)  # 1d8 = 3
        helm_lost(battle, salt, "helm shock")
        assert salt.helmsman is not None
        battle.step()
        assert salt.warming is warmup
        assert (salt.sr == 0) is warmup
        assert bool(events(battle, "helm_warmup")) is warmup
        assert bool(events(battle, "maneuver", "Saltwind")) is not warmup


def test_jettisoned_rubble_holds_the_ship_by_option() -> None:
    """sj.jettisoned_debris_blocks_escape: rubble she jettisoned does not hold a fleeing ship;
    on, it counts for the 25-hex capture distance like any debris."""
    text = DUEL.replace("radius: 30", "radius: 60").replace(
        "position: [8, -4]", "position: [40, 0]"
    )
    for blocks in (False, True):
        battle = ships(text, {"sj.jettisoned_debris_blocks_escape": blocks})
        salt = battle.ships[0]
        battle.debris[Hex(0, 1)] = False
        battle.jettisoned.add(Hex(0, 1))
        try_escape(battle, salt)
        assert salt.fighting is blocks


def test_cut_loose_delay_without_the_capture_distance() -> None:
    """sj.cut_loose_adds_capture: a pursuer stopped 11 hexes short of the mass loses
    (11 + 25) / SR 3 = 12 rounds; off, 11 / 3 = 4."""
    text = DUEL.replace("maneuver: {name: flee}", "maneuver: {name: flee, params: {cut_loose: 10}}")
    for adds, rounds in ((True, 12), (False, 4)):
        battle = ships(text, {"sj.cut_loose_adds_capture": adds})
        salt, gannet = battle.ships
        battle.jettison_rng = FixedDice(0.0)  # the pursuer stops 11 hexes short
        assert mass_delay(battle, salt, gannet) == rounds


def _debris_run(rules: dict[str, Any]) -> ShipBattle:
    """The Gannet runs at 3 hexes through two debris hexes with a middling d20 (11) and dice."""
    text = DUEL.replace("position: [8, -4]", "position: [0, 3]").replace(
        "        facing: 3\n        speed: 3", "        facing: 0\n        speed: 3"
    )
    battle = ships(text, rules)
    battle.debris[Hex(0, 2)] = False
    battle.debris[Hex(0, 1)] = False
    battle.close_rng = FixedDice(0.5)
    battle.round = 1
    move_ship(battle, battle.ships[1])
    assert battle.ships[1].moved >= 2
    return battle


def test_debris_attack_bonus_decides_whether_debris_strikes() -> None:
    """sj.debris_attack_bonus: a d20 11 + 0 misses the Gannet's AC; + 20 always strikes."""
    for bonus, struck in ((0, False), (20, True)):
        hits = events(_debris_run({"sj.debris_attack_bonus": bonus}), "debris", "Red Gannet")
        assert hits
        assert (hits[0].result == "struck") is struck


def test_debris_hull_dice_set_the_damage_of_a_debris_hit() -> None:
    """sj.debris_hull_dice: small debris does 1d4 (3 on this roll); as '7' it does 7."""
    for dice, damage in (("1d4", 3), ("7", 7)):
        rules = {"sj.debris_attack_bonus": 20, "sj.debris_hull_dice": [dice, "1d6", "1d8"]}
        hits = events(_debris_run(rules), "debris", "Red Gannet")
        assert dict(hits[0].outcome)["damage"] == damage


ARCHER = """      - name: Bowman Tarro
        skills: {Bow: Good}
        attack_skill: Bow
        weapon: weapons/bow
        aboard: Saltwind
"""


def test_hull_shot_dice_set_a_single_shots_points() -> None:
    """sj.hull_shot_dice: a hit does 1d6 (6 on a top roll) + ODM at one spot; as '20' it
    does 20 + ODM, two hull points."""
    for dice, points in (("1d6", 6), ("20", 20)):
        battle = ships(aboard_saltwind(ARCHER), {"sj.hull_shot_dice": dice})
        salt, gannet = battle.ships
        battle.hull_rng = FixedDice(0.99)  # d20 = 20: a hit; 1d6 = 6
        hull_shots(battle, salt, gannet)
        tarro = member(battle, "Bowman Tarro")
        shot = dict(events(battle, "hull_shot", "Bowman Tarro")[0].outcome)
        assert shot["points"] == points + max(0, tarro.fighter.odm)
        assert shot["hull"] == shot["points"] // 10


def test_chop_dice_set_a_blows_points() -> None:
    """sj.chop_dice: an axe blow at one spot is 1d8 (8 on a top roll) + ODM; as '1' it is
    1 + ODM."""
    for dice, per_blow in (("1d8", 8), ("1", 1)):
        battle = ships(aboard_saltwind(""), {"sj.chop_dice": dice})
        salt, gannet = battle.ships
        battle.place(gannet, salt.hex, gannet.facing)
        battle.lash(salt, gannet)
        battle.hull_rng = FixedDice(0.99)
        chop_hull(battle, salt, gannet)
        mara = member(battle, "Captain Mara Vell")
        chop = events(battle, "hull_chop", "Captain Mara Vell")[0]
        assert set(dict(chop.dice)["blows"]) == {max(0, per_blow + mara.fighter.odm)}


def test_spells_need_an_attack_roll_by_option() -> None:
    """sj.spell_attack: a fireball at a hull hits with no roll; with 'd20_vs_ac' a d20 of 1
    misses and the spell is spent for nothing."""
    for mode, hull in (("automatic", 3), ("d20_vs_ac", 0)):
        battle = ships(aboard_saltwind(WIZARD), {"sj.spell_attack": mode})
        salt, gannet = battle.ships
        battle.hull_rng = FixedDice(0.0)
        cast_spells(battle, salt)
        spell = events(battle, "spell", "Magister Orlen")[0]
        assert dict(spell.outcome)["hull"] == hull
        assert gannet.hull_damage == hull
        assert battle.spells_of(member(battle, "Magister Orlen"))[0][1] == 0


def test_a_slain_gargantuan_leaves_debris_by_option() -> None:
    """sj.gargantuan_carcass_debris: a slain space wyrm leaves no debris; on, its hex and the
    next fill with it as a broken-up ship's do."""
    for carcass in (False, True):
        battle = ships(MOONLET, {"sj.gargantuan_carcass_debris": carcass})
        wyrm = battle.ships[1]
        where = wyrm.hex
        break_up(battle, wyrm, "test")
        assert not wyrm.fighting
        assert (where in battle.debris) is carcass


def test_packed_crew_factor_sets_when_a_newcomer_looks_hostile() -> None:
    """sj.packed_crew_factor: 30 pirates are 2x a longship's minimum crew of 8 (hostile, all
    guns loaded); at 10x they are not packed to the gunwales (threatening)."""
    text = DUEL.replace("        position: [8, -4]\n", "")
    for factor, seen in ((2, "hostile"), (10, "threatening")):
        battle = ships(text, {"sj.packed_crew_factor": factor})
        assert events(battle, "reaction", "Red Gannet")[0].result == seen


def test_gunner_attack_bonus_adds_the_crews_bonus_to_big_weapons() -> None:
    """sj.gunner_attack_bonus: a d20 weapon attack adds the crewmen's +1; off, the weapon's
    own modifier only."""
    bonus = {}
    for on in (True, False):
        battle = ships(rules={"sj.gunner_attack_bonus": on})
        gannet = battle.ships[1]
        battle.place(gannet, Hex(1, -1), 3)
        battle.round = 1
        fire_guns(battle, gannet)
        bonus[on] = [dict(e.modifiers)["bonus"] for e in events(battle, "gunnery")]
        assert bonus[on]
    assert [b - 1 for b in bonus[True]] == bonus[False]


def test_outnumbered_counted_over_both_fleets_by_option() -> None:
    """sj.outnumbered_heads: with boarders on her deck Saltwind counts heads there (her
    captain alone against 30: outnumbered 3:1); counting both fleets (15 v 30) she is not."""
    for mode, outnumbered in (("deck_when_boarded", True), ("fleets", False)):
        battle = ships(rules={"sj.outnumbered_heads": mode})
        salt, gannet = battle.ships
        battle.move_aboard(member(battle, "Gannet crew"), salt)
        battle.move_aboard(member(battle, "Saltwind crew"), gannet)
        found = morale_events(battle, salt, set())
        assert (MoraleEvent.OUTNUMBERED_3_TO_1 in found) is outnumbered


RIGGERS = """      - name: Saltwind riggers
        model: crews/sailors
        count: 4
        role: rigging
        aboard: Saltwind
"""


def test_riggers_board_by_option() -> None:
    """sj.riggers_stay_aboard: a rigging crew stays when the rest board; off, it crosses too."""
    for stay in (True, False):
        battle = ships(aboard_saltwind(RIGGERS), {"sj.riggers_stay_aboard": stay})
        riggers = member(battle, "Saltwind riggers")
        assert (riggers in battle.boarding_party(battle.ships[0])) is not stay


def test_crew_morale_roll_1d20() -> None:
    """sj.crew_morale_roll: middling dice make 2d10 = 12 but 1d20 = 11; the crew's check
    rolls and logs that die against the same target."""
    for dice, roll in (("2d10", 12), ("1d20", 11)):
        battle = ships(rules={"sj.crew_morale_roll": dice})
        battle.ship_morale_rng = FixedDice(0.5)
        held = check_morale(battle, battle.ships[0], {MoraleTrigger.CRITICAL_HIT})
        (check,) = events(battle, "ship_morale", "Saltwind")
        assert check.dice == ((dice, roll),)
        assert held is (roll <= dict(check.outcome)["target"])


def test_deck_missile_modifier_changes_a_volley_across_the_hex() -> None:
    """sj.deck_missile_modifier: 30 pirate archers at +1 hit the merchant's crew; at -30
    every d20 misses."""
    text = DUEL.replace(
        "        model: crews/pirates\n        count: 30\n",
        "        model: crews/pirates\n        count: 30\n        weapon: weapons/bow\n",
    )
    for modifier, bonus in ((0, 1), (-30, -29)):
        battle = ships(text, {"sj.deck_missile_modifier": modifier})
        salt, gannet = battle.ships
        battle.place(gannet, salt.hex, gannet.facing)
        missile_fire(battle, gannet, salt)
        volley = events(battle, "volley", "Gannet crew")[0]
        assert dict(volley.modifiers)["attack_bonus"] == bonus
        assert (dict(volley.outcome)["hits"] > 0) is (modifier == 0)


def test_crews_start_armed_decides_how_an_unloaded_newcomer_looks() -> None:
    """sj.crews_start_armed: a newcomer with nothing loaded but arms shown is indifferent;
    with an unarmed crew she looks friendly."""
    text = DUEL.replace("        position: [8, -4]\n", "")
    for armed, seen in ((True, "indifferent"), (False, "friendly")):
        rules = {"sj.weapons_start_loaded": False, "sj.crews_start_armed": armed}
        battle = ships(text, rules)
        assert events(battle, "reaction", "Red Gannet")[0].result == seen


def test_gunnery_range_step_brings_the_range_table_to_the_d20() -> None:
    """sj.gunnery_range_step: the reaver's ballista (range table -3 at 1 hex, +3 at 7)
    rolls an 11: at 2 points a step it hits the merchant (AC 12) from 1 hex and misses
    from 7; at 0 range does not matter and it hits from both."""
    for step, hits in ((2, {1: True, 7: False}), (0, {1: True, 7: True})):
        for hexes, hit in hits.items():
            battle = ships(rules={"sj.gunnery_range_step": step})
            salt, gannet = battle.ships
            battle.place(gannet, salt.hex + DIRECTIONS[0] * hexes, 3)  # her bow on Saltwind
            battle.round = 1
            battle.gunnery_rng = FixedDice(0.5)
            fire_guns(battle, gannet)
            shot = next(
                e for e in events(battle, "gunnery") if "Ballista" in dict(e.modifiers)["weapon"]
            )
            assert (shot.result == "hit") is hit, (step, hexes)


def test_a_deck_at_her_max_crew_is_packed_to_the_gunwales() -> None:
    """Ship.max_crew: 30 pirates are short of 10x the longship's minimum (80), so she looks
    merely threatening; with a max crew of 30 she is full to the gunwales: hostile."""
    text = DUEL.replace("        position: [8, -4]\n", "")
    for max_crew, seen in ((45, "threatening"), (30, "hostile")):
        battle = ships(
            text.replace(
                "        model: ships/reaver-longship\n",
                f"        model: ships/reaver-longship\n        max_crew: {max_crew}\n",
            ),
            {"sj.packed_crew_factor": 10},
        )
        assert events(battle, "reaction", "Red Gannet")[0].result == seen
