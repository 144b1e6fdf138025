"""A big weapon's stat block at engine level: each field, at two values on the same dice,
changes the reaver's broadside the way its rule says (SJ 4-7, FADAD 3)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from fadad_agents.engine.ships.gunnery import fire_guns
from fadad_agents.hexmap import DIRECTIONS
from fadad_agents.policies.ships.defaults import SweepDecks
from tests.engine.engine_options_helpers import DUEL, FADAD_RULES, FixedDice, events, ships
from tests.engine.ships.helpers import FADAD_DUEL

BALLISTA = "{model: big-weapons/ballista-medium, arc: any"
"""The reaver's one gun in these tests (a field is added and the brace closed)."""


def _armed(weapon: str, text: str) -> str:
    return text.replace(
        "        model: ships/reaver-longship\n",
        f"        model: ships/reaver-longship\n        weapons: [{weapon}]\n",
        1,
    )


def _broadside(
    weapon: str,
    *,
    fadad: bool = False,
    hexes: int = 1,
    roll: float = 0.99,
    text: str | None = None,
    facing: int = 3,
    rules: dict[str, object] | None = None,
) -> Any:
    """The reaver, armed with ``weapon`` alone, fires at the merchant ``hexes`` ahead
    (every die from ``roll``); returns the battle."""
    base = text if text is not None else (FADAD_DUEL if fadad else DUEL)
    battle = ships(_armed(weapon, base), {**(FADAD_RULES if fadad else {}), **(rules or {})})
    salt, gannet = battle.ships
    battle.place(gannet, salt.hex + DIRECTIONS[0] * hexes, facing)
    battle.round = 1
    battle.gunnery_rng = FixedDice(roll)
    fire_guns(battle, gannet)
    return battle


def _shots(battle: Any) -> list[dict[str, object]]:
    return [dict((*e.modifiers, *e.outcome)) for e in events(battle, "gunnery", "Red Gannet")]


def test_count_mounts_that_many_guns() -> None:
    """ShipWeapon.count: two identical mounts fire two shots a broadside."""
    one, two = (_shots(_broadside(BALLISTA + extra)) for extra in ("}", ", count: 2}"))
    assert (len(one), len(two)) == (1, 2)


def test_arc_decides_whether_a_gun_bears() -> None:
    """ShipWeapon.arc: a bow gun bears on the merchant dead ahead; a stern gun does not."""
    fore = _shots(_broadside("{model: big-weapons/ballista-medium, arc: fore}"))
    aft = _shots(_broadside("{model: big-weapons/ballista-medium, arc: aft}"))
    assert (len(fore), len(aft)) == (1, 0)


def test_same_hex_decides_whether_a_gun_fires_into_its_own_hex() -> None:
    """ShipWeapon.same_hex: a ballista fires at a ship sharing her hex; one that cannot
    (as catapults, SJ 4) does not."""
    can, cannot = (
        _shots(_broadside(BALLISTA + extra, hexes=0)) for extra in ("}", ", same_hex: false}")
    )
    assert (len(can), len(cannot)) == (1, 0)


def test_sj_attack_mod_and_hull_damage_set_a_d20_shot() -> None:
    """ShipWeapon.sj_attack_mod, ShipWeapon.sj_hull_damage: the shot's d20 bonus grows by
    the weapon's modifier, and a hit (every die high) does its own dice: 2d6 12, 1d4 4."""
    plain = _shots(_broadside(BALLISTA + "}"))[0]
    tuned = _shots(_broadside(BALLISTA + ", sj_attack_mod: 3, sj_hull_damage: 1d4}"))[0]
    assert tuned["bonus"] == plain["bonus"] + 3
    assert (plain["hull"], tuned["hull"]) == (12, 4)


def test_damage_and_range_mods_set_a_fadad_shot() -> None:
    """ShipWeapon.damage, ShipWeapon.range_mods: under FADAD a hit's damage number grows
    with the weapon's damage; its range table sets the Target 4 hexes off."""
    plain = _shots(_broadside(BALLISTA + "}", fadad=True))[0]
    heavy = _shots(_broadside(BALLISTA + ", damage: 22}", fadad=True))[0]
    assert heavy["damage"] == plain["damage"] + 5
    near = _shots(_broadside(BALLISTA + "}", fadad=True, hexes=4, roll=0.0))[0]
    far = _shots(
        _broadside(BALLISTA + ", range_mods: [0, 0, 0, 0, 3]}", fadad=True, hexes=4, roll=0.0)
    )[0]
    assert far["target"] > near["target"]


def test_family_sets_the_dodge_against_the_projectile() -> None:
    """ShipWeapon.family: a ballista bolt is -2 to dodge (FADAD 3, the seed); a bombard's
    shot takes what ship.bombard_wildfire_dodge_penalty says, here nothing."""
    none = {"ship.bombard_wildfire_dodge_penalty": 0}
    bolt = _shots(_broadside(BALLISTA + "}", fadad=True, roll=0.5, rules=none))[0]
    shot = _shots(_broadside(BALLISTA + ", family: bombard}", fadad=True, roll=0.5, rules=none))[0]
    assert shot["dodge"] == bolt["dodge"] + 2


def test_sets_fire_sets_the_target_ablaze() -> None:
    """ShipWeapon.sets_fire: a hit (a d20 of 19, no critical) from a weapon that sets fire
    starts a fire aboard; from one that does not, none."""
    ablaze = {}
    for flag in ("false", "true"):
        battle = _broadside(BALLISTA + f", sets_fire: {flag}}}", roll=0.9)
        ablaze[flag] = bool(battle.ships[0].fire_list)
    assert ablaze == {"false": False, "true": True}


def test_damage_vs_flesh_adds_to_a_bolt_that_strikes_a_person() -> None:
    """ShipWeapon.damage_vs_flesh: a bolt that strikes the merchant's captain (alone on
    her deck) does its bonus against flesh on top of its damage."""
    alone = FADAD_DUEL.replace(
        "      - name: Saltwind crew\n        model: crews/sailors\n        count: 14\n"
        "        aboard: Saltwind\n",
        "",
    )
    struck = {}
    for bonus in (0, 5):
        battle = ships(_armed(BALLISTA + f", damage_vs_flesh: {bonus}}}", alone), FADAD_RULES)
        salt, gannet = battle.ships
        gannet.ship_policies = replace(gannet.ship_policies, targeting=SweepDecks())
        battle.place(gannet, salt.hex + DIRECTIONS[0], 3)
        battle.round = 1
        battle.gunnery_rng = FixedDice(0.99)
        fire_guns(battle, gannet)
        struck[bonus] = dict(events(battle, "struck", "Captain Mara Vell")[0].modifiers)["damage"]
    assert struck[5] == struck[0] + 5


def test_crew_and_reload_rounds_set_when_the_gun_is_loaded_again() -> None:
    """ShipWeapon.reload_rounds, ShipWeapon.crew: with 2 hands left aboard, a gun of 1/3
    needing 2 is loaded again after 3 rounds, one of 1/1 after 1; one needing 4 hands
    after 3 + 2 (SJ 6.1: a round more per missing hand)."""
    loaded_at = {}
    for extra in (
        ", crew: 2, reload_rounds: 1/3}",
        ", crew: 2, reload_rounds: '1'}",
        ", crew: 4, reload_rounds: 1/3}",
    ):
        battle = ships(_armed(BALLISTA + extra, DUEL))
        gannet = battle.ships[1]
        crew = battle.home_crews(gannet)[0]
        battle.casualties(crew, crew.count - 2)
        battle.refresh_crews()
        team = gannet.teams[0]
        team.fire(0)
        seconds = 0
        while not team.loaded and seconds < 120:
            seconds += battle.round_seconds
            battle.env.run(until=seconds + 1)
        loaded_at[extra] = seconds // battle.round_seconds
    assert list(loaded_at.values()) == [3, 1, 5]
