"""The engine's PROPOSED readings are options: each one, set off its default, changes play
the way its description says (``engine.*``, ``sj.*``, ``ship.*``, ``mass.*``, ``fae.*``)."""

from __future__ import annotations

import json
import random
from typing import Any

from fadad_agents.agents.groups import Crew, Unit
from fadad_agents.engine import build_battle, load
from fadad_agents.engine.fae_battle import FaeBattle
from fadad_agents.engine.ship_battle import ShipBattle
from fadad_agents.engine.ship_close import board, crash, move_options, move_ship, towed_by
from fadad_agents.engine.ship_damage import apply_effect, break_up, crew_hit
from fadad_agents.engine.ship_gunnery import fire_guns
from fadad_agents.engine.ship_helm import helm_lost
from fadad_agents.engine.ship_hull_attacks import cast_spells, chop_hull, hull_shots
from fadad_agents.engine.ship_jettison import mass_delay
from fadad_agents.engine.ship_morale import morale_events, try_escape
from fadad_agents.hexmap import Hex
from fadad_agents.policies import REGISTRY
from fadad_agents.rules import ship_effects as fx
from fadad_agents.rules.ships_fadad import maneuver_row
from fadad_agents.rules.sj_crew import MoraleEvent
from tests.engine.conftest import SCENARIOS, duel_yaml, fighter

DUEL = (SCENARIOS / "ship-duel.yaml").read_text()
FLEET = (SCENARIOS / "fleet-action.yaml").read_text()
MOONLET = (SCENARIOS / "wyrm-at-the-moonlet.yaml").read_text()
SALT = "        speed: 2\n        policies:\n          targeting: {name: nearest_ship}\n"
MARA = "        aboard: Saltwind\n      - name: Saltwind crew\n"
FADAD_RULES = {"ship.damage_model": "fadad_levels", "ship.crit_table": "fadad_6dF"}


class _Dice(random.Random):
    """A stream that always rolls the same fraction."""

    def __init__(self, value: float) -> None:
        super().__init__(0)
        self.value = value

    def random(self) -> float:
        return self.value


def _with_rules(text: str, rules: dict[str, Any]) -> str:
    """``text`` (a scenario with a block ``rules:`` mapping) with ``rules`` added to it."""
    assert "\nrules:\n" in text
    lines = "".join(f"  {key}: {json.dumps(value)}\n" for key, value in rules.items())
    return text.replace("\nrules:\n", "\nrules:\n" + lines, 1)


def _ships(text: str = DUEL, rules: dict[str, Any] | None = None, seed: int = 1) -> ShipBattle:
    battle = build_battle(load(_with_rules(text, rules or {})), seed, collect=False)
    assert isinstance(battle, ShipBattle)
    return battle


def _events(battle: Any, action: str, actor: str | None = None) -> list[Any]:
    return [e for e in battle.log if e.action == action and actor in (None, e.actor)]


def _member(battle: Any, name: str) -> Any:
    return next(m for m in battle.people if m.name == name)


def _aboard_saltwind(extra: str, text: str = DUEL) -> str:
    """The duel with ``extra`` forces standing on Saltwind, aiming small arms at hulls."""
    text = text.replace(
        MARA, "        aboard: Saltwind\n" + extra + "      - name: Saltwind crew\n"
    )
    return text.replace(
        "          targeting: {name: nearest_ship}",
        "          targeting: {name: nearest_ship, params: {small_arms: hull}}",
    )


# --- engine.* ----------------------------------------------------------------------------

THUGS = """
      - name: Thugs
        kind: crew
        count: 10
        morale: 20
        attack_bonus: 2
        armour_class: 10
        skill: Fair
"""


def test_max_on_one_limits_the_members_that_attack_one_fighter() -> None:
    """engine.max_on_one: 3 members of a crew strike a lone fighter a round; with 1 only one."""
    for limit in (3, 1):
        text = duel_yaml(THUGS, fighter("Bob", skill="Legendary"))
        text = text.replace("rules: {}", f"rules: {{engine.max_on_one: {limit}}}")
        battle = build_battle(load(text), 3, collect=False)
        battle.step()
        blows = [e for e in battle.log if e.actor == "Thugs" and e.round == 1]
        assert blows
        assert len(blows) == limit


def test_ladder_d20_bonus_scales_a_helmsmans_save() -> None:
    """engine.ladder_d20_bonus: Good +5 makes a d20 10 pass a DC 15 helm-shock save; with
    (0, 0) the same roll fails and the helmsman falls into a coma."""
    shock = fx.HelmShock(save=fx.Check("will", 15, "d20"), coma_days=2)
    for scale, shrugs in (((3, 2), True), ((0, 0), False)):
        battle = _ships(rules={"engine.ladder_d20_bonus": scale})
        salt = battle.ships[0]
        salt.helm = 1  # Good
        battle.crit_rng = _Dice(0.45)  # d20 = 10
        apply_effect(battle, salt, shock, "test")
        (effect,) = _events(battle, "effect", "Saltwind")
        assert ("shrugs off" in effect.result) is shrugs
        assert ("coma" in effect.result) is not shrugs


# --- sj.* --------------------------------------------------------------------------------


def test_tow_capacity_one_leaves_no_ship_able_to_tow() -> None:
    """sj.tow_capacity: at 2x her tonnage the stronger helm tows a grappled ship; at 1x she
    cannot move her own and the other's tonnage."""
    text = DUEL.replace("maneuver: {name: close_and_ram}", "maneuver: {name: hold}")
    for capacity, tows in ((2, True), (1, False)):
        battle = _ships(text, {"sj.tow_capacity": capacity})
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
        battle = _ships(text, {"sj.very_dangerous_boarding_odds": odds})
        salt, gannet = battle.ships
        battle.place(salt, gannet.hex, salt.facing)
        battle.lash(gannet, salt)
        _member(battle, "Gannet crew").morale_rng = _Dice(0.99)  # 2d10 = 20: fails
        board(battle, gannet, salt)
        assert bool(_events(battle, "refuse", "Gannet crew")) is refused
        assert bool(_events(battle, "board", "Red Gannet")) is not refused


def test_crewman_hit_points_per_hd_decides_who_dies_in_a_crash() -> None:
    """sj.crewman_hit_points_per_hd: 20 points kill a 1-HD crewman at 4.5 a HD; at 30 a HD
    every crewman of the crashing ship lives."""
    for per_hd, survivors in ((4.5, 0), (30, 30)):
        battle = _ships(rules={"sj.crewman_hit_points_per_hd": per_hd})
        salt, gannet = battle.ships
        battle.close_rng = _Dice(0.0)  # no avoiding it, no saves, every die a 1: 20 points
        crash(battle, gannet, salt)
        assert battle.crew_heads_on(gannet) == survivors


def test_weapons_start_unloaded_and_reload_when_hands_reach_them() -> None:
    """sj.weapons_start_loaded: ships meet loaded; off, every weapon starts its reload when
    its hands arrive and is loaded after its listed rounds."""
    loaded = _ships()
    assert all(t.loaded for s in loaded.ships for t in s.teams)
    battle = _ships(rules={"sj.weapons_start_loaded": False})
    teams = [t for s in battle.ships for t in s.teams]
    assert not any(t.loaded for t in teams)
    battle.step()
    assert not any(t.can_fire(battle.round) for t in teams)
    assert not _events(battle, "gunnery")
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
        battle = _ships(QUIET, {"sj.new_helmsman_warmup": warmup})
        salt = battle.ships[0]
        battle.helm_rng = _Dice(0.3)  # 1d8 = 3
        helm_lost(battle, salt, "helm shock")
        assert salt.helmsman is not None
        battle.step()
        assert salt.warming is warmup
        assert (salt.sr == 0) is warmup
        assert bool(_events(battle, "helm_warmup")) is warmup
        assert bool(_events(battle, "maneuver", "Saltwind")) is not warmup


def test_jettisoned_rubble_holds_the_ship_by_option() -> None:
    """sj.jettisoned_debris_blocks_escape: rubble she jettisoned does not hold a fleeing ship;
    on, it counts for the 25-hex capture distance like any debris."""
    text = DUEL.replace("radius: 30", "radius: 60").replace(
        "position: [8, -4]", "position: [40, 0]"
    )
    for blocks in (False, True):
        battle = _ships(text, {"sj.jettisoned_debris_blocks_escape": blocks})
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
        battle = _ships(text, {"sj.cut_loose_adds_capture": adds})
        salt, gannet = battle.ships
        battle.jettison_rng = _Dice(0.0)  # the pursuer stops 11 hexes short
        assert mass_delay(battle, salt, gannet) == rounds


def _debris_run(rules: dict[str, Any]) -> ShipBattle:
    """The Gannet runs at 3 hexes through two debris hexes with a middling d20 (11) and dice."""
    text = DUEL.replace("position: [8, -4]", "position: [0, 3]").replace(
        "        facing: 3\n        speed: 3", "        facing: 0\n        speed: 3"
    )
    battle = _ships(text, rules)
    battle.debris[Hex(0, 2)] = False
    battle.debris[Hex(0, 1)] = False
    battle.close_rng = _Dice(0.5)
    battle.round = 1
    move_ship(battle, battle.ships[1])
    assert battle.ships[1].moved >= 2
    return battle


def test_debris_attack_bonus_decides_whether_debris_strikes() -> None:
    """sj.debris_attack_bonus: a d20 11 + 0 misses the Gannet's AC; + 20 always strikes."""
    for bonus, struck in ((0, False), (20, True)):
        hits = _events(_debris_run({"sj.debris_attack_bonus": bonus}), "debris", "Red Gannet")
        assert hits
        assert (hits[0].result == "struck") is struck


def test_debris_hull_dice_set_the_damage_of_a_debris_hit() -> None:
    """sj.debris_hull_dice: small debris does 1d4 (3 on this roll); as '7' it does 7."""
    for dice, damage in (("1d4", 3), ("7", 7)):
        rules = {"sj.debris_attack_bonus": 20, "sj.debris_hull_dice": [dice, "1d6", "1d8"]}
        hits = _events(_debris_run(rules), "debris", "Red Gannet")
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
        battle = _ships(_aboard_saltwind(ARCHER), {"sj.hull_shot_dice": dice})
        salt, gannet = battle.ships
        battle.hull_rng = _Dice(0.99)  # d20 = 20: a hit; 1d6 = 6
        hull_shots(battle, salt, gannet)
        tarro = _member(battle, "Bowman Tarro")
        shot = dict(_events(battle, "hull_shot", "Bowman Tarro")[0].outcome)
        assert shot["points"] == points + max(0, tarro.fighter.odm)
        assert shot["hull"] == shot["points"] // 10


def test_chop_dice_set_a_blows_points() -> None:
    """sj.chop_dice: an axe blow at one spot is 1d8 (8 on a top roll) + ODM; as '1' it is
    1 + ODM."""
    for dice, per_blow in (("1d8", 8), ("1", 1)):
        battle = _ships(_aboard_saltwind(""), {"sj.chop_dice": dice})
        salt, gannet = battle.ships
        battle.place(gannet, salt.hex, gannet.facing)
        battle.lash(salt, gannet)
        battle.hull_rng = _Dice(0.99)
        chop_hull(battle, salt, gannet)
        mara = _member(battle, "Captain Mara Vell")
        chop = _events(battle, "hull_chop", "Captain Mara Vell")[0]
        assert set(dict(chop.dice)["blows"]) == {max(0, per_blow + mara.fighter.odm)}


WIZARD = """      - name: Magister Orlen
        skills: {Staff: Fair}
        attack_skill: Staff
        weapon: weapons/quarterstaff
        aboard: Saltwind
        spells:
          - {name: fireball, damage: "30", range_ft: 2000, ignites: true, uses: 1}
"""


def test_spells_need_an_attack_roll_by_option() -> None:
    """sj.spell_attack: a fireball at a hull hits with no roll; with 'd20_vs_ac' a d20 of 1
    misses and the spell is spent for nothing."""
    for mode, hull in (("automatic", 3), ("d20_vs_ac", 0)):
        battle = _ships(_aboard_saltwind(WIZARD), {"sj.spell_attack": mode})
        salt, gannet = battle.ships
        battle.hull_rng = _Dice(0.0)
        cast_spells(battle, salt)
        spell = _events(battle, "spell", "Magister Orlen")[0]
        assert dict(spell.outcome)["hull"] == hull
        assert gannet.hull_damage == hull
        assert battle.spells_of(_member(battle, "Magister Orlen"))[0][1] == 0


def test_a_slain_gargantuan_leaves_debris_by_option() -> None:
    """sj.gargantuan_carcass_debris: a slain space wyrm leaves no debris; on, its hex and the
    next fill with it as a broken-up ship's do."""
    for carcass in (False, True):
        battle = _ships(MOONLET, {"sj.gargantuan_carcass_debris": carcass})
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
        battle = _ships(text, {"sj.packed_crew_factor": factor})
        assert _events(battle, "reaction", "Red Gannet")[0].result == seen


def test_gunner_attack_bonus_adds_the_crews_bonus_to_big_weapons() -> None:
    """sj.gunner_attack_bonus: a d20 weapon attack adds the crewmen's +1; off, the weapon's
    own modifier only."""
    bonus = {}
    for on in (True, False):
        battle = _ships(rules={"sj.gunner_attack_bonus": on})
        gannet = battle.ships[1]
        battle.place(gannet, Hex(1, -1), 3)
        battle.round = 1
        fire_guns(battle, gannet)
        bonus[on] = [dict(e.modifiers)["bonus"] for e in _events(battle, "gunnery")]
        assert bonus[on]
    assert [b - 1 for b in bonus[True]] == bonus[False]


def test_outnumbered_counted_over_both_fleets_by_option() -> None:
    """sj.outnumbered_heads: with boarders on her deck Saltwind counts heads there (her
    captain alone against 30: outnumbered 3:1); counting both fleets (15 v 30) she is not."""
    for mode, outnumbered in (("deck_when_boarded", True), ("fleets", False)):
        battle = _ships(rules={"sj.outnumbered_heads": mode})
        salt, gannet = battle.ships
        battle.move_aboard(_member(battle, "Gannet crew"), salt)
        battle.move_aboard(_member(battle, "Saltwind crew"), gannet)
        events = morale_events(battle, salt, set())
        assert (MoraleEvent.OUTNUMBERED_3_TO_1 in events) is outnumbered


RIGGERS = """      - name: Saltwind riggers
        model: crews/sailors
        count: 4
        role: rigging
        aboard: Saltwind
"""


def test_riggers_board_by_option() -> None:
    """sj.riggers_stay_aboard: a rigging crew stays when the rest board; off, it crosses too."""
    for stay in (True, False):
        battle = _ships(_aboard_saltwind(RIGGERS), {"sj.riggers_stay_aboard": stay})
        riggers = _member(battle, "Saltwind riggers")
        assert (riggers in battle.boarding_party(battle.ships[0])) is not stay


def test_crew_morale_roll_1d20() -> None:
    """sj.crew_morale_roll: middling dice make 2d10 = 12 (fails morale 11) but 1d20 = 11
    (holds); the ship's morale check logs the die it rolled."""
    for dice, holds in (("2d10", False), ("1d20", True)):
        battle = _ships(rules={"sj.crew_morale_roll": dice})
        crew = _member(battle, "Saltwind crew")
        assert isinstance(crew, Crew)
        crew.morale = 11
        crew.morale_rng = _Dice(0.5)
        assert crew.morale_holds("test") is holds


# --- ship.* ------------------------------------------------------------------------------


def _fadad_duel(rules: dict[str, Any]) -> ShipBattle:
    text = DUEL.replace("  ship.damage_model: sj_hull_points\n  ship.crit_table: sj_d20\n", "")
    return _ships(text, {**FADAD_RULES, **rules})


def test_blast_victims_set_how_many_hands_a_blast_hits() -> None:
    """ship.blast_victims: a FADAD blast (damage 9) takes 3 hands; set to 1 it takes one."""
    for victims in (3, 1):
        battle = _fadad_duel({"ship.blast_victims": victims})
        gannet = battle.ships[1]
        lost = crew_hit(battle, gannet, fx.DeckCrew(9, "blast", 5, None))
        assert lost == victims


def test_crewman_dies_at_damage_sets_the_lethal_damage_number() -> None:
    """ship.crewman_dies_at_damage: a FADAD crew hit of damage 5 is not lethal at 7
    (Incapacitated); at 5 it kills."""
    for at, lost in ((7, 0), (5, 3)):
        battle = _fadad_duel({"ship.crewman_dies_at_damage": at})
        gannet = battle.ships[1]
        assert crew_hit(battle, gannet, fx.DeckCrew(5, "blast", 5, None)) == lost


def test_hull_points_per_damage_number_under_fadad_levels() -> None:
    """ship.hull_points_per_damage_number: 6 hull points lost are damage number 3 under
    FADAD levels; at 1 they are 6."""
    for per, number in ((2, 3), (1, 6)):
        battle = _fadad_duel({"ship.hull_points_per_damage_number": per})
        salt = battle.ships[0]
        apply_effect(battle, salt, fx.HullLoss(6), "test")
        assert salt.fadad_damage == number


def test_shaken_ship_fires_by_option() -> None:
    """ship.shaken_stops_guns: a Ship Shaken result stops her guns this round; off, they fire."""
    for stops in (True, False):
        battle = _ships(rules={"ship.shaken_stops_guns": stops})
        gannet = battle.ships[1]
        battle.place(gannet, Hex(1, -1), 3)
        battle.round = 1
        gannet.shaken_round = 1
        fire_guns(battle, gannet)
        assert bool(_events(battle, "gunnery")) is not stops


def test_fadad_acceleration_limit_can_be_lifted() -> None:
    """ship.fadad_acceleration_limit: from speed 1 the barge makes 1 +- its acceleration
    hexes; without the limit any speed 0..SR."""
    for limit in (True, False):
        battle = _ships(FLEET, {"ship.fadad_acceleration_limit": limit})
        sow = next(s for s in battle.ships if s.name == "Iron Sow")
        sow.spec = sow.spec.model_copy(update={"sr": 4})
        sow.speed = 1
        assert sow.ms is not None
        acc = maneuver_row(sow.ms).max_acceleration
        hexes = {len(p) for _, p in move_options(battle, sow)}
        assert hexes == (set(range(max(0, 1 - acc), 2 + acc)) if limit else set(range(5)))


# --- mass.* and fae.* --------------------------------------------------------------------

UNIT = """
      - name: {name}
        kind: unit
        count: 50
        skill: Fair
        morale: Fair
"""


def test_morale_check_level_sets_the_level_a_unit_must_meet() -> None:
    """mass.morale_check_level: a Fair unit rolling 0 on 4dF holds against Fair; against
    Great (2) it breaks."""
    for level, holds in ((0, True), (2, False)):
        text = duel_yaml(UNIT.format(name="Levy"), UNIT.format(name="Guard"))
        text = text.replace("rules: {}", f"rules: {{mass.morale_check_level: {level}}}")
        battle = build_battle(load(text), 1, collect=False)
        levy = _member_of(battle, "Levy")
        assert isinstance(levy, Unit)
        levy.morale_rng = _Dice(0.5)  # 4dF = 0
        assert levy.morale_holds("test") is holds


def _member_of(battle: Any, name: str) -> Any:
    return next(m for side in battle.sides for m in side.members if m.name == name)


class _Chatter:
    """Always says something: only free actions, as many as a count allows."""

    def choose_action(self, actor: Any, target: Any, battle: Any) -> str:
        return "speak:hold"


def _fae(name: str, x: int, policies: str = "{}") -> str:
    return f"""
      - name: {name}
        attributes: {{strength: 60, agility: 60, luck: 50, reaction: 60}}
        skills: {{Sword: 70, Dodge: 40}}
        wound_points: 60
        fatigue_points: 60
        weapons: [fae/longsword]
        position: [{x}, 0]
        policies: {policies}
"""


def test_free_actions_per_count_caps_the_free_actions_beside_an_action() -> None:
    """fae.free_actions_per_count: a fighter that only speaks says 3 things at its first
    count, then waits; at 1 it says one."""
    REGISTRY.register("fae_action", "test_chatter", _Chatter, replace=True)
    for cap in (3, 1):
        text = f"""
name: chatter
ruleset: fae
rules: {{fae.free_actions_per_count: {cap}}}
sides:
  - name: Red
    forces:{_fae("Ann", 0, "{fae_action: test_chatter}")}
  - name: Blue
    forces:{_fae("Bob", 40)}
stop: {{max_rounds: 1}}
"""
        battle = build_battle(load(text), 1, collect=False)
        assert isinstance(battle, FaeBattle)
        battle.step()
        ann = [e for e in battle.log.events if e.actor == "Ann" and e.action != "reaction_test"]
        first = dict(ann[0].modifiers)["count"]
        at_first = [e.action for e in ann if dict(e.modifiers)["count"] == first]
        assert at_first == ["speak"] * cap + ["delay"]
