"""`fadad options`, `policies`, `catalog show` and `fields`: the reference drawn from the code."""

import pytest
import yaml
from typer.testing import CliRunner

from fadad_agents.cli import app
from fadad_agents.policies import REGISTRY
from fadad_agents.reference import FIELD_KINDS, field_docs
from fadad_agents.rules.options import RulesOptions
from fadad_agents.schema.catalog import default_catalog


def _fadad(*args: str):
    return CliRunner().invoke(app, list(args))


def _one_line_error(result, *words: str) -> None:
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1, result.output
    assert "Traceback" not in result.output
    for word in words:
        assert word in lines[0]


def test_options_lists_every_rules_option_with_its_default():
    """Every key of RulesOptions is listed, and its default written into a scenario's
    rules block gives the default back."""
    result = _fadad("options")
    assert result.exit_code == 0
    defaults = RulesOptions().flat()
    listed = {}
    for line in result.output.splitlines():
        if line.startswith("  ") and " = " in line and not line.startswith("   "):
            key, _, rest = line.strip().partition(" = ")
            listed[key] = yaml.safe_load(rest.split("    (")[0])
    assert set(listed) == set(defaults)
    assert RulesOptions.from_flat(listed).flat() == defaults


def test_options_shows_allowed_values_and_the_ambiguity_settled():
    """An option's line names its allowed values; its description names A-05."""
    result = _fadad("options", "fadad.initiative")
    assert result.exit_code == 0
    assert "fadad.initiative = rolled    (rolled | static)" in result.output
    assert "A-05" in result.output
    assert "fadad.target_mode" not in result.output


def test_options_prefix_selects_a_section():
    """A prefix keeps only the keys under it, under the section's heading."""
    result = _fadad("options", "sj.crash")
    assert result.exit_code == 0
    assert result.output.startswith("Spelljammer ship rules:")
    keys = [x.split()[0] for x in result.output.splitlines() if x.startswith("  sj.")]
    assert keys == ["sj.crash_dc", "sj.crash_save_dc"]


def test_unknown_option_prefix_is_one_line_with_suggestions():
    """A misspelt prefix exits 2 with one line suggesting the nearest section."""
    _one_line_error(_fadad("options", "fadd"), "fadad options:", "'fadd'", "did you mean fadad")


def test_policies_lists_every_registered_policy():
    """Every name of every decision kind in the registry is listed."""
    result = _fadad("policies")
    assert result.exit_code == 0
    for kind in REGISTRY.kinds:
        for name in REGISTRY.names(kind):
            assert f"  {name}" in result.output, (kind, name)


def test_policies_show_parameters_and_defaults():
    """A policy's parameters appear with type and default; the defaults are marked."""
    result = _fadad("policies", "targeting")
    assert result.exit_code == 0
    assert "reach: whole number = 6" in result.output
    assert "sticky   [default for characters, crews and units]" in result.output
    assert "ship targeting (registry kind gunnery):" in result.output


def test_policies_accepts_a_scenario_alias_for_a_decision():
    """`surrender` is a character's retreat and a ship's colours, so both are listed."""
    result = _fadad("policies", "surrender")
    assert result.exit_code == 0
    assert result.output.startswith("retreat:")
    assert "ship colours (registry kind colours):" in result.output


def test_unknown_decision_is_one_line_with_suggestions():
    """A misspelt decision exits 2 naming the nearest."""
    _one_line_error(_fadad("policies", "stanse"), "fadad policies:", "did you mean stance")


def test_catalog_show_prints_a_weapon_as_a_gm_reads_it():
    """A weapon's card names its FADAD bonus, FUDGE class and sharpness."""
    result = _fadad("catalog", "show", "weapons/broadsword")
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert lines[0] == "Broadsword (weapons/broadsword)"
    assert "  fadad bonus   3" in lines
    assert "  sharp         true" in lines


def test_catalog_show_ship_lists_each_weapon_and_its_arc():
    """A ship's card shows hull points and one line per mounted weapon with its arc."""
    result = _fadad("catalog", "show", "ships/war-galleon")
    assert result.exit_code == 0
    assert "hull points       60" in result.output
    weapons = [x for x in result.output.splitlines() if "(big-weapons/" in x]
    assert len(weapons) == 3
    assert weapons[0].endswith("arc port")


def test_catalog_entry_name_alone_shows_its_card():
    """`fadad catalog creatures/goblin` shows the card (it used to be an error)."""
    result = _fadad("catalog", "creatures/goblin")
    assert result.exit_code == 0
    assert "skills             Melee Weapon Mediocre" in result.output
    assert "ODM +0" in result.output


@pytest.mark.parametrize("ref", default_catalog().names())
def test_every_catalogue_entry_has_a_card(ref):
    """Every entry renders, headed by its display name and full name."""
    result = _fadad("catalog", "show", ref)
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[0].endswith(f"({ref})")


def test_unknown_catalogue_entry_is_one_line_with_suggestions():
    """A misspelt entry exits 2 naming the nearest entries."""
    _one_line_error(
        _fadad("catalog", "show", "creatures/gobln"), "fadad catalog show:", "creatures/goblin"
    )


def test_fields_without_kind_lists_every_kind():
    """`fadad fields` lists each kind of block with what it is."""
    result = _fadad("fields")
    assert result.exit_code == 0
    for kind in FIELD_KINDS:
        assert f"  {kind} " in result.output


@pytest.mark.parametrize("kind", list(FIELD_KINDS))
def test_fields_lists_every_schema_field(kind):
    """Every field the schema class declares is listed with its type."""
    result = _fadad("fields", kind)
    assert result.exit_code == 0
    for name in FIELD_KINDS[kind].model_fields:
        assert f"\n  {name}: " in result.output, name


def test_fields_shows_ladder_defaults_as_words():
    """A character's Strength is a ladder level defaulting to Fair."""
    rows = {row.name: row for row in field_docs("character")}
    assert (rows["strength"].type, rows["strength"].default) == ("ladder level", "Fair")
    assert "ODM" in rows["strength"].description


def test_unknown_field_kind_is_one_line_with_suggestions():
    """A misspelt kind exits 2 naming the nearest."""
    _one_line_error(_fadad("fields", "charactr"), "fadad fields:", "did you mean character")
