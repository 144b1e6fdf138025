"""A spell against a hull at engine level (SJ 8.1, EX-SJ-06): each field of a ship spell,
at two values, changes what the merchant's wizard does to the reaver."""

from __future__ import annotations

from typing import Any

from fadad_agents.engine.ships.hull_attacks import cast_spells
from tests.engine.conftest import WIZARD
from tests.engine.engine_options_helpers import aboard_saltwind, events, ships

FIREBALL = '{name: fireball, damage: "30", range_ft: 2000, ignites: true, uses: 1}'


def _cast(spell: str, times: int = 1) -> Any:
    """The wizard on the merchant casts ``spell`` (in place of his fireball) ``times``
    rounds running; returns the battle."""
    battle = ships(aboard_saltwind(WIZARD.replace(FIREBALL, spell)))
    for _ in range(times):
        battle.round += 1
        cast_spells(battle, battle.ships[0])
    return battle


def test_damage_sets_the_hull_points_a_spell_does() -> None:
    """ShipSpell.damage: 1 hull point per 10 points: 30 points do 3, 50 do 5."""
    hull = {d: _cast(FIREBALL.replace('"30"', f'"{d}"')).ships[1].hull_damage for d in (30, 50)}
    assert hull == {30: 3, 50: 5}


def test_ignites_starts_a_fire() -> None:
    """ShipSpell.ignites: a fireball sets the reaver ablaze; the same blast that does not
    ignite leaves no fire."""
    fires = {
        flag: len(_cast(FIREBALL.replace("ignites: true", f"ignites: {flag}")).ships[1].fire_list)
        for flag in ("true", "false")
    }
    assert fires == {"true": 1, "false": 0}


def test_range_ft_decides_whether_the_reaver_is_in_reach() -> None:
    """ShipSpell.range_ft: 2,000 ft reaches the reaver 8 hexes off; 150 ft does not."""
    cast = {
        r: bool(events(_cast(FIREBALL.replace("range_ft: 2000", f"range_ft: {r}")), "spell"))
        for r in (2000, 150)
    }
    assert cast == {2000: True, 150: False}


def test_uses_set_how_often_it_is_cast() -> None:
    """ShipSpell.uses: a spell of one use is cast once in two rounds; of two uses, twice."""
    cast = {
        u: len(events(_cast(FIREBALL.replace("uses: 1", f"uses: {u}"), times=2), "spell"))
        for u in (1, 2)
    }
    assert cast == {1: 1, 2: 2}


def test_effect_picks_what_the_spell_does_to_a_hull() -> None:
    """ShipSpell.effect: a damage spell burns the reaver; disintegrate holes her hull
    instead (SJ 8.1)."""
    blast = _cast(FIREBALL).ships[1]
    hole = _cast(
        FIREBALL.replace("name: fireball,", "name: disintegrate, effect: disintegrate,")
    ).ships[1]
    assert (blast.holed, hole.holed) == (False, True)
    assert blast.hull_damage == 3
