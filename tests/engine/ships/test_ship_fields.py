"""A ship's stat block at engine level: each field, at two values on the same seed and
dice, changes what the ship does the way its rule says."""

from __future__ import annotations

from typing import Any

from fadad_agents.engine.ships import aftermath
from fadad_agents.engine.ships.close import crash, ram
from fadad_agents.engine.ships.damage import fadad_hit, hull_hit
from fadad_agents.engine.ships.gunnery import fire_guns
from fadad_agents.engine.ships.hull_attacks import cast_spells
from fadad_agents.hexmap import DIRECTIONS
from tests.engine.conftest import WIZARD
from tests.engine.engine_options_helpers import (
    DUEL,
    FADAD_RULES,
    FLEET,
    FixedDice,
    aboard_saltwind,
    events,
    ships,
)
from tests.engine.ships.helpers import FADAD_DUEL, fadad_shots, fleet_ram, ship_named

SALT = "        speed: 2\n        policies:\n          targeting: {name: nearest_ship}\n"
QUIET = DUEL.replace("maneuver: {name: close_and_ram}", "maneuver: {name: hold}").replace(
    "position: [8, -4]", "position: [0, 22]"
)
"""The duel with the reaver holding far off: nobody interferes with the merchant's helm."""
QUIET_WELL = QUIET.replace(
    SALT, SALT + "        gravity_well: {size: B, weather: strong_winds, landed: false}\n"
)

CLOSE = DUEL.replace("position: [8, -4]", "position: [0, -3]")
"""The duel with the reaver 3 hexes from the merchant (facing her: side 3)."""


def _spec(battle: Any, index: int, **update: object) -> Any:
    """Ship ``index`` of ``battle`` with her stat block changed by ``update``."""
    ship = battle.ships[index]
    ship.spec = ship.spec.model_copy(update=update)
    return ship


def _set(index: int, **update: object) -> Any:
    return lambda battle: _spec(battle, index, **update)


def _sj_shot(gannet_update: dict[str, object], salt_update: dict[str, object], roll: float) -> Any:
    """The reaver's d20 broadside at the merchant one hex ahead (every d20 from ``roll``)."""
    battle = ships(DUEL)
    salt, gannet = battle.ships
    _spec(battle, 0, **salt_update)
    _spec(battle, 1, **gannet_update)
    battle.place(gannet, salt.hex + DIRECTIONS[0], 3)
    battle.round = 1
    battle.gunnery_rng = FixedDice(roll)
    fire_guns(battle, gannet)
    return battle


def test_tons_set_the_target_of_a_big_weapon() -> None:
    """Ship.tons: FADAD base Target by volume: the same shot 4 hexes off needs less against
    a 400-ton hull than against the 40-ton merchant."""
    target = {t: fadad_shots({}, 4, _set(0, tons=t))[0]["target"] for t in (40, 400)}
    assert target[400] < target[40]


def test_mass_scale_and_armour_lower_a_rams_damage_number() -> None:
    """Ship.mass_scale, Ship.armour: a rammed ship's damage number is the ram's base + 4dF
    less her armour and her Mass Scale: each point of either is a point less."""
    hurt = {}
    for key, extra in (("base", 0), ("mass_scale", 2), ("armour", 2)):

        def heavier(battle: Any, key: str = key, extra: int = extra) -> None:
            hawthorn = ship_named(battle, "Hawthorn")
            if extra:
                value = getattr(hawthorn.spec, key) + extra
                hawthorn.spec = hawthorn.spec.model_copy(update={key: value})

        battle = fleet_ram({}, "Hawthorn", 0.99, heavier)
        hurt[key] = {e.actor: dict(e.outcome)["damage"] for e in events(battle, "ship_damage")}
    assert (
        hurt["mass_scale"]["Hawthorn"] == hurt["armour"]["Hawthorn"] == hurt["base"]["Hawthorn"] - 2
    )


def test_hull_points_decide_when_she_breaks_up() -> None:
    """Ship.hull_points: 30 points of damage break up the 30-point reaver; with 60 she
    holds together."""
    for points, afloat in ((30, False), (60, True)):
        battle = ships(DUEL)
        gannet = _spec(battle, 1, hull_points=points)
        hull_hit(battle, gannet, 30, source="test")
        assert gannet.fighting is afloat


def test_armour_class_decides_whether_a_shot_hits() -> None:
    """Ship.armour_class: the reaver's ballista rolling 11 hits the merchant at AC 10 and
    misses her at AC 25."""
    for ac, hit in ((10, True), (25, False)):
        battle = _sj_shot({}, {"armour_class": ac}, 0.5)
        shot = events(battle, "gunnery", "Red Gannet")[0]
        assert (shot.result != "miss") is hit


def test_maneuverability_and_helm_skill_decide_whether_a_crash_is_avoided() -> None:
    """Ship.maneuverability, Ship.helm_skill: on a d20 of 1 the reaver avoids a crash at
    class A (+8) with her Great helm, not at class F (-2), nor at class A under a
    Terrible helm."""
    cases = (("A", "Great", "avoided"), ("F", "Great", "crash"), ("A", "Terrible", "crash"))
    for letter, helm, result in cases:
        battle = ships(DUEL.replace("helm_skill: Great", f"helm_skill: {helm}"))
        salt, gannet = battle.ships
        _spec(battle, 1, maneuverability=letter)
        battle.close_rng = FixedDice(0.0)
        crash(battle, gannet, salt)
        assert events(battle, "crash")[0].result == result, (letter, helm)


def test_fadad_mc_crew_skill_and_familiar_set_her_dodge() -> None:
    """Ship.fadad_mc, Ship.crew_skill, Ship.familiar: the merchant's Maneuvering Skill
    (the helm and crew skills averaged, plus her MC, halved) sets her dodge of the same
    shot: a Great MC beats a Terrible one; a Great crew beats a Terrible one; helm and crew
    unfamiliar with each other halve their odd sum down, not up, and dodge worse."""

    def dodge(**update: object) -> int:
        return int(fadad_shots({}, 1, _set(0, **update))[0]["dodge"])

    assert dodge(fadad_mc=2) > dodge(fadad_mc=-3)
    assert dodge(crew_skill=3) > dodge(crew_skill=-3)
    assert dodge(familiar=False, crew_skill=2) < dodge(familiar=True, crew_skill=2)


def test_crew_skill_is_her_gunners_skill() -> None:
    """Ship.crew_skill: under FADAD her gunners shoot with it (PROPOSED)."""
    skill = {s: fadad_shots({}, 1, _set(1, crew_skill=s))[0]["skill"] for s in (-1, 2)}
    assert skill == {-1: -1, 2: 2}


def test_sr_sets_how_far_she_moves() -> None:
    """Ship.sr: in the fleet action the Iron Sow makes 3 hexes in round 1 at SR 3, 1 at
    SR 1."""

    def hexes(sr: int) -> int:
        battle = ships(FLEET)
        sow = ship_named(battle, "Iron Sow")
        sow.spec = sow.spec.model_copy(update={"sr": sr})
        battle.step()
        return sum(str(e.result).count("F") for e in events(battle, "maneuver", "Iron Sow"))

    assert (hexes(3), hexes(1)) == (3, 1)


def test_speed_at_the_start_counts_in_a_ram() -> None:
    """Ship.speed: rammed as she comes on at speed 3, the Hawthorn meets Wolf's Tooth at a
    relative speed of 3 and takes 8; lying still (speed 0) she takes 5 (FADAD 5.1)."""
    hit = {}
    for speed in (3, 0):
        text = FLEET.replace(
            "position: [-2, 1], facing: 1, speed: 3}",
            f"position: [-2, 1], facing: 1, speed: {speed}}}",
        )
        battle = fleet_ram({}, "Hawthorn", 0.99, text=text)
        relative = dict(events(battle, "ram")[0].modifiers)["relative_sr"]
        hurt = {e.actor: dict(e.outcome)["damage"] for e in events(battle, "ship_damage")}
        hit[speed] = (relative, hurt["Hawthorn"])
    assert hit == {3: (3, 8), 0: (0, 5)}


def test_min_crew_makes_a_short_handed_ship_sail_worse() -> None:
    """Ship.min_crew: the reaver's 30 hands sail her at her listed class (Average) with a
    minimum of 20, a class worse (SJ 6.2) with a minimum of 40."""
    mc = {}
    for minimum in (20, 40):
        battle = ships(DUEL)
        mc[minimum] = _spec(battle, 1, min_crew=minimum).mc
    assert mc[40] < mc[20]


def test_ram_and_ram_dice_set_what_a_ram_does() -> None:
    """Ship.ram, Ship.ram_dice: a ship without a ram never rams; the reaver's piercing ram
    rolls her ram dice (3d6 listed; 1d4 given; at any speed, sj.ram_dice_by_speed off)."""
    logged = {}
    for update in ({"ram": "none"}, {}, {"ram_dice": "1d4"}):
        battle = ships(DUEL, {"sj.ram_dice_by_speed": False})
        salt, gannet = battle.ships
        _spec(battle, 1, **update)
        battle.place(gannet, salt.hex, (salt.facing + 1) % 6)
        battle.initiative_side = gannet.side
        battle.close_rng = FixedDice(0.95)
        ram(battle, gannet, salt)
        rams = events(battle, "ram")
        logged[str(update)] = dict(rams[0].modifiers)["dice"] if rams else None
    assert logged == {"{'ram': 'none'}": None, "{}": "3d6", "{'ram_dice': '1d4'}": "1d4"}


def test_cost_gp_sets_the_repair_bill() -> None:
    """Ship.cost_gp: FADAD repairs cost a share of her price: a ship of ten times the
    price costs ten times as much to mend."""
    gold = {}
    for cost in (10_000, 100_000):
        battle = ships(FADAD_DUEL, FADAD_RULES)
        salt = _spec(battle, 0, cost_gp=cost)
        fadad_hit(battle, salt, 5, source="test")
        aftermath.log_repairs(battle)
        gold[cost] = battle.repairs["Saltwind"]["gold"]
    assert gold[100_000] > gold[10_000] > 0


def test_weapons_arm_her() -> None:
    """Ship.weapons: with her catalogue weapons the reaver fires; given none she cannot."""
    unarmed = CLOSE.replace(
        "        model: ships/reaver-longship\n",
        "        model: ships/reaver-longship\n        weapons: []\n",
    )
    fired = {}
    for name, text in (("armed", CLOSE), ("unarmed", unarmed)):
        battle = ships(text)
        battle.round = 1
        fire_guns(battle, battle.ships[1])
        fired[name] = len(events(battle, "gunnery", "Red Gannet"))
    assert fired["armed"] > 0 == fired["unarmed"]


def _fore_shots(text: str) -> int:
    battle = ships(text)
    battle.round = 1
    fire_guns(battle, battle.ships[1])
    return sum("fore" in str(dict(e.modifiers)["weapon"]) for e in events(battle, "gunnery"))


def test_facing_decides_which_guns_bear() -> None:
    """Ship.facing: the reaver's bow ballista bears on the merchant 3 hexes ahead when she
    faces her (side 3), not when she faces away (side 0)."""
    assert (_fore_shots(CLOSE), _fore_shots(CLOSE.replace("facing: 3", "facing: 0"))) == (1, 0)


def test_position_sets_where_she_starts() -> None:
    """Ship.position: from 3 hexes off the reaver's guns reach the merchant at once; from
    the duel's 8 hexes her bow ballista (7 hexes of range) does not."""
    where = ships(CLOSE).ships[1].hex
    assert (where.q, where.r) == (0, -3)
    assert (_fore_shots(CLOSE), _fore_shots(DUEL)) == (1, 0)


def test_ship_policies_override_her_sides() -> None:
    """Ship.policies: the merchant's own gunnery policy may hold her wizard's spells; with
    her side's policy (spells at hulls) he casts."""
    wizard = aboard_saltwind(WIZARD)
    held = wizard.replace("params: {small_arms: hull}", "params: {small_arms: hull, spells: hold}")
    cast = {}
    for text in (wizard, held):
        battle = ships(text)
        cast_spells(battle, battle.ships[0])
        cast[text is held] = bool(events(battle, "spell"))
    assert cast == {False: True, True: False}


def test_landing_decides_whether_she_can_set_down() -> None:
    """Ship.landing: aloft in a gravity well, a merchant built to land on water sets down
    through the well; one that cannot land safely (none) stays aloft."""
    results = {}
    for landing in ("water", "none"):
        text = QUIET_WELL.replace("maneuver: {name: flee}", "maneuver: {name: land}")
        battle = ships(text.replace(SALT, SALT + f"        landing: {landing}\n"))
        battle.step()
        results[landing] = bool(events(battle, "landing_start", "Saltwind"))
    assert results == {"water": True, "none": False}


def test_gravity_well_size_and_weather_set_the_climb() -> None:
    """Ship.gravity_well, GravityWell.size, GravityWell.weather (SJ 1.2, EX-SJ-12): aloft
    in no well she makes her first move at once; in the well of a size A body she climbs 1
    round, of a size D body 3, and 4 times as long in a storm."""

    def climb(well: str | None) -> int | None:
        text = QUIET if well is None else QUIET.replace(SALT, SALT + well)
        battle = ships(text)
        battle.step()
        start = events(battle, "take_off_start", "Saltwind")
        return dict(start[0].outcome)["climb"] if start else None

    def well(size: str, weather: str) -> str:
        return f"        gravity_well: {{size: {size}, weather: {weather}, landed: false}}\n"

    assert climb(None) is None
    assert (climb(well("A", "normal")), climb(well("D", "normal"))) == (1, 3)
    assert climb(well("D", "storm")) == 12


def test_gargantuan_makes_a_ram_roll_d4s() -> None:
    """Ship.gargantuan (SJ 9, EX-SJ-07): the reaver's 3d6 ram rolls 3d4 against a
    gargantuan creature."""
    dice = {}
    for flag in (False, True):
        battle = ships(DUEL, {"sj.ram_dice_by_speed": False})
        salt, gannet = battle.ships
        _spec(battle, 0, gargantuan=flag)
        battle.place(gannet, salt.hex, (salt.facing + 1) % 6)
        battle.initiative_side = gannet.side
        battle.close_rng = FixedDice(0.95)
        ram(battle, gannet, salt)
        dice[flag] = dict(events(battle, "ram")[0].modifiers)["dice"]
    assert dice == {False: "3d6", True: "3d4"}
