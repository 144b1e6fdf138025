"""The catalogue in models/: every entry validates, names resolve, the wheel layout works."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from fadad_agents.schema import (
    KIND_CLASSES,
    KINDS,
    Catalog,
    CatalogError,
    Creature,
    Ship,
    Weapon,
    default_catalog,
    load_entry,
    validate_path,
)
from fadad_agents.schema.catalog import model_roots
from fadad_agents.schema.loader import catalog_model
from tests.schema.conftest import MODELS, ROOT


@pytest.mark.parametrize("path", MODELS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_catalogue_file_validates(path: Path) -> None:
    """Each shipped catalogue file validates as the schema class of its folder."""
    assert validate_path(path) == []
    assert isinstance(load_entry(path, path.parent.name), KIND_CLASSES[path.parent.name])


def test_every_kind_has_entries() -> None:
    """The catalogue has at least one entry of every kind, and only known folders."""
    cat = default_catalog()
    for kind in KINDS:
        assert cat.names(kind), kind
    folders = {p.name for p in (ROOT / "models").iterdir() if p.is_dir()}
    assert folders == set(KINDS)


def test_seed_weapon_tables_are_complete() -> None:
    """Every weapon in the FADAD bonus table and the FUDGE class list is in the catalogue."""
    cat = default_catalog()
    fadad = {
        "punch": -1, "gauntlet": 0, "thrown-rock": 0, "kick": 0, "dagger": 1, "billy-club": 1,
        "armoured-boot": 1, "sling": 1, "shortsword": 2, "spear-one-handed": 2, "mace": 2,
        "hatchet": 2, "bow": 2, "broadsword": 3, "spear-two-handed": 3, "war-maul": 3,
        "axe": 3, "morningstar": 3, "quarterstaff": 3, "greatsword": 4, "battleaxe": 4,
    }  # fmt: skip
    for name, bonus in fadad.items():
        assert catalog_model(f"weapons/{name}", catalog=cat).fadad_bonus == bonus, name
    fudge = {
        "punch": -1, "unarmed-fighting": 0, "blackjack": 0, "knife": 1, "brass-knuckles": 0,
        "sling": 0, "kick": 0, "mace": 1, "shortsword": 2, "spear-one-handed": 1,
        "bow-bodkin": 1, "longsword": 3, "axe": 3, "spear-two-handed": 2, "poleaxe": 2,
        "bow": 2, "broadsword": 3, "greatsword": 4, "battleaxe": 4, "war-maul": 3,
    }  # fmt: skip
    for name, value in fudge.items():
        assert catalog_model(f"weapons/{name}", catalog=cat).fudge_value == value, name


def test_armour_and_shield_tables() -> None:
    """Armour DDM values (4.2) and shield Target bonuses (personal-combat.md 3)."""
    cat = default_catalog()
    armour = {"leather": 1, "heavy-cloth": 1, "heavy-leather": 2, "scale-mail": 2,
              "cuir-bouilli": 2, "chain-mail": 2, "coat-of-plates": 3, "plate": 4}  # fmt: skip
    for name, value in armour.items():
        assert catalog_model(f"armour/{name}", catalog=cat).ddm == value, name
    shields = {"buckler": (0, 1, 0), "small": (1, 1, 0), "medium": (2, 1, 0), "large": (3, 2, -1)}
    for name, (bonus, attackers, penalty) in shields.items():
        shield = catalog_model(f"shields/{name}", catalog=cat)
        assert (shield.target_bonus, shield.attackers, shield.attack_penalty) == (
            bonus,
            attackers,
            penalty,
        )


def test_big_weapon_table() -> None:
    """The FADAD big-weapon table (ships-fadad.md 3.1), including X = out of range."""
    cat = default_catalog()
    medium = catalog_model("big-weapons/catapult-medium", catalog=cat)
    assert (medium.crew, medium.reload_rounds, medium.damage) == (3, 2, 22)
    assert medium.range_mods == (-3, -1, 1, 2, 4, 6, 8, None)
    assert medium.max_range == 6
    wildfire = catalog_model("big-weapons/wildfire-projector", catalog=cat)
    assert (wildfire.sets_fire, wildfire.max_range, wildfire.damage) == (True, 2, 16)
    assert catalog_model("big-weapons/ballista-light", catalog=cat).damage_vs_flesh == 1


def test_creature_scales() -> None:
    """Creature Scales match the Target table examples (EX-PC-07)."""
    cat = default_catalog()
    scales = {"human": 0, "hobbit": -4, "ogre": 4, "pixie": -12, "mouse": -15, "cat": -6,
              "rabbit": -7, "leprechaun": -3, "dragon": 6}  # fmt: skip
    for name, scale in scales.items():
        creature = catalog_model(f"creatures/{name}", catalog=cat)
        assert isinstance(creature, Creature)
        assert creature.scale == scale, name


def test_leprechaun_defence_matches_ex_wnd_06() -> None:
    """EX-WND-06: McMurtree the leprechaun has defensive factor -3."""
    assert catalog_model("creatures/leprechaun").ddm == -3


def test_ship_catalogue_entries_resolve_their_weapons() -> None:
    """Ship entries name big weapons by catalogue reference; they resolve with arcs."""
    galleon = catalog_model("ships/war-galleon")
    assert isinstance(galleon, Ship)
    assert [w.arc for w in galleon.weapons] == ["port", "starboard", "fore"]
    assert galleon.weapons[0].model == "big-weapons/catapult-medium"
    assert galleon.mc_level == -1  # D = Mediocre


def test_unknown_name_suggests_the_nearest() -> None:
    """A misspelt name fails with the closest names offered."""
    with pytest.raises(CatalogError, match="did you mean weapons/broadsword"):
        default_catalog().full_name("weapons/brodsword")


def test_short_names_need_the_kind() -> None:
    """`broadsword` resolves when the kind is known; another kind's name is refused."""
    cat = default_catalog()
    assert cat.full_name("broadsword", "weapons") == "weapons/broadsword"
    with pytest.raises(CatalogError, match="is a ships entry, but a weapons entry is needed"):
        cat.full_name("ships/war-galleon", "weapons")
    with pytest.raises(CatalogError, match="not a catalogue kind"):
        cat.names("spaceships")


def test_installed_wheel_layout(tmp_path: Path) -> None:
    """A catalogue root shaped like the wheel's fadad_agents/_models is read the same way."""
    (tmp_path / "weapons").mkdir()
    (tmp_path / "weapons" / "stick.yaml").write_text("name: Stick\nfudge_class: 0\n")
    cat = Catalog([tmp_path])
    assert cat.names() == ["weapons/stick"]
    stick = catalog_model("weapons/stick", catalog=cat)
    assert isinstance(stick, Weapon)
    assert (stick.name, stick.model, stick.fudge_value) == ("Stick", "weapons/stick", 0)


def test_source_tree_is_a_root() -> None:
    """In a checkout the repository's models/ folder is one of the catalogue roots."""
    assert any(Path(str(root)) == ROOT / "models" for root in model_roots())


def test_listing_has_one_line_per_entry() -> None:
    """`fadad catalog ships` lists name and display name."""
    lines = default_catalog().listing("ships")
    assert len(lines) == len(default_catalog().names("ships"))
    assert any(line.startswith("ships/war-galleon") and "War galleon" in line for line in lines)


def test_catalogue_found_inside_an_installed_package(tmp_path: Path) -> None:
    """Laid out as the wheel installs it (fadad_agents/_models, no models/ beside it), the
    catalogue is found through importlib.resources and scenarios resolve against it."""
    site = tmp_path / "site"
    shutil.copytree(
        ROOT / "fadad_agents", site / "fadad_agents", ignore=shutil.ignore_patterns("__pycache__")
    )
    shutil.copytree(ROOT / "models", site / "fadad_agents" / "_models")
    script = (
        "import sys; sys.path.insert(0, sys.argv[1])\n"
        "from fadad_agents.schema import default_catalog, load_scenario\n"
        "from fadad_agents.schema.catalog import model_roots\n"
        "import fadad_agents\n"
        "assert fadad_agents.__file__.startswith(sys.argv[1]), fadad_agents.__file__\n"
        "print(len(model_roots()), len(default_catalog().names()))\n"
        "print(load_scenario(sys.argv[2]).name)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script, str(site), str(ROOT / "scenarios" / "fleet-action.yaml")],
        capture_output=True,
        text=True,
        check=True,
        cwd=tmp_path,
    )
    roots, entries = result.stdout.splitlines()[0].split()
    assert roots == "1"  # only the packaged _models: no source tree beside this copy
    assert int(entries) == len(default_catalog().names())
    assert result.stdout.splitlines()[1] == "Action at Cold Harbour"


def test_module_doctests() -> None:
    """The catalogue module's doctests hold."""
    import doctest

    from fadad_agents.schema import catalog

    result = doctest.testmod(catalog)
    assert result.attempted > 0
    assert result.failed == 0


def test_entries_can_derive_from_entries() -> None:
    """An entry with `model:` starts from that entry and overrides fields."""
    chief = catalog_model("creatures/orc-chieftain")
    orc = catalog_model("creatures/orc")
    assert chief.model == "creatures/orc-chieftain"
    assert (chief.strength, chief.weapon, chief.scale) == (2, orc.weapon, orc.scale)
    assert chief.armour is not None
    assert chief.armour.name == "Chain mail"


def test_derivation_cycles_are_refused(tmp_path: Path) -> None:
    """An entry deriving from itself through others is a CatalogError, not a hang."""
    (tmp_path / "weapons").mkdir()
    (tmp_path / "weapons" / "a.yaml").write_text("model: weapons/b\nname: A\n")
    (tmp_path / "weapons" / "b.yaml").write_text("model: weapons/a\nname: B\n")
    with pytest.raises(CatalogError, match="derives from itself"):
        Catalog([tmp_path]).resolved("weapons/a")
