"""The catalogue's tables and big weapons agree with the rules kernel they describe."""

from __future__ import annotations

from typing import Any

import pytest

from fadad_agents.rules.mass import units as mass_units
from fadad_agents.rules.personal import melee
from fadad_agents.rules.ships import crew as sj_crew
from fadad_agents.rules.ships import fadad_combat as ships_fadad
from fadad_agents.schema import ShipWeapon, Table, default_catalog
from fadad_agents.schema.forces import MC_LADDER
from fadad_agents.schema.loader import catalog_model

CAT = default_catalog()


def _table(name: str) -> list[dict[str, Any]]:
    table = catalog_model(f"tables/{name}", catalog=CAT)
    assert isinstance(table, Table)
    return [dict(zip(table.columns, row, strict=True)) for row in table.rows]


@pytest.mark.parametrize("key", sorted(ships_fadad.BIG_WEAPONS))
def test_big_weapons_match_the_kernel_table(key: str) -> None:
    """ships-fadad.md 3.1: crew, RoF, damage, range modifiers, flesh bonus, fire."""
    kernel = ships_fadad.BIG_WEAPONS[key]
    entry = catalog_model(f"big-weapons/{key.replace('_', '-')}", catalog=CAT)
    assert isinstance(entry, ShipWeapon)
    assert (entry.crew, entry.reload_rounds, entry.damage) == (
        kernel.crew,
        kernel.rounds_per_shot,
        kernel.damage,
    )
    assert entry.range_mods == kernel.range_mods
    assert (entry.damage_vs_flesh, entry.sets_fire) == (kernel.flesh_bonus, kernel.sets_fire)
    assert entry.max_range == kernel.max_range


def test_volume_target_table_matches_base_target() -> None:
    """ships-fadad.md 3: base Target by volume at both ends of every band."""
    for row in _table("ship-volume-target"):
        high = row["max_tons"] or row["min_tons"] * 10
        assert ships_fadad.base_target(row["min_tons"]) == row["target"]
        assert ships_fadad.base_target(high) == row["target"]


def test_ship_sizes_use_the_kernel_base_target() -> None:
    """The example size table's Target column is the kernel's."""
    for row in _table("ship-sizes"):
        assert ships_fadad.base_target(row["tons"]) == row["base_target"]


def test_scale_target_table_matches_melee() -> None:
    """personal-combat.md 3 (EX-PC-07): Target by Scale difference at the band edges."""
    for row in _table("target-by-scale"):
        for diff in (row["min_difference"], row["max_difference"]):
            if diff is not None:
                assert melee.scale_target(diff, 0) == row["target"]


def test_maneuvering_table_matches_the_printed_rows() -> None:
    """ships-fadad.md 2 as printed (Poor 7 rounds per 90 degrees: A-33 literal)."""
    for row in _table("maneuvering-skill"):
        kernel = ships_fadad.maneuver_row(row["ms"], literal=True)
        assert (kernel.mc_letter, kernel.faces, kernel.rounds_per_90, kernel.max_acceleration) == (
            row["mc_letter"],
            row["faces_per_round"],
            row["rounds_per_90"],
            row["max_acceleration"],
        )


def test_mc_letters_match_the_kernel() -> None:
    """C-05: A = Great ... F = Terrible, as the kernel maps them."""
    assert MC_LADDER == ships_fadad.MC_LETTERS


def test_unit_damage_table_matches_mass_units() -> None:
    """mass-combat.md 1.3: morale level and casualty cap per damage band."""
    for row in _table("unit-damage"):
        kernel = mass_units.unit_damage_row(row["min_damage"])
        assert kernel is not None
        assert (kernel.morale_level, kernel.max_casualty_pct) == (
            row["morale_check"],
            row["max_casualties_pct"],
        )


def test_unit_scale_table_matches_mass_units() -> None:
    """EX-MASS-01: unit Scale from head count (10 -> 6, 100 -> 11, 1000 -> 17)."""
    for row in _table("unit-scale"):
        assert mass_units.unit_scale(row["fighters"]) == row["rounded"]


def test_crew_shortage_table_matches_sj_crew() -> None:
    """EX-SJ-02: a 10-man minimum crew loses 0/1/2/3 steps."""
    for row in _table("crew-shortage"):
        assert sj_crew.crew_shortage_steps(row["crew_present_of_10"], 10) == row["steps"]
