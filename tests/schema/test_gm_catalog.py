"""The GM's own catalogue (issue 17 item 5): a ``models/`` folder beside the scenario, the
``FADAD_CATALOG`` folders, merged over the built-in catalogue; an override of a built-in
entry is allowed and said, a name defined twice among the GM's folders is a clash."""

from __future__ import annotations

from pathlib import Path

import pytest

from fadad_agents.schema.catalog import CATALOG_ENV, catalog_for
from fadad_agents.schema.loader import ScenarioError, load_scenario

DUEL = """name: GM duel
sides:
  - name: Red
    forces: [{name: Ann, skills: {Sword: Good}, attack_skill: Sword, weapon: weapons/%s}]
  - name: Blue
    forces: [{name: Bob, skills: {Sword: Good}, attack_skill: Sword, weapon: weapons/axe}]
"""


def _entry(folder: Path, name: str, text: str) -> Path:
    path = folder / "weapons" / f"{name}.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture(autouse=True)
def _no_gm_folders(monkeypatch: pytest.MonkeyPatch) -> None:
    """No GM folders from outside; whatever --catalog adds is undone after the test."""
    monkeypatch.setenv(CATALOG_ENV, "")


def test_models_beside_the_scenario_are_found(tmp_path: Path) -> None:
    """A scenario names an entry of the models/ folder beside it as a built-in one."""
    _entry(tmp_path / "models", "runeblade", "model: weapons/broadsword\nmagic_plus: 2\n")
    (tmp_path / "duel.yaml").write_text(DUEL % "runeblade", encoding="utf-8")
    weapon = load_scenario(tmp_path / "duel.yaml").sides[0].forces[0].weapon
    assert (weapon.model, weapon.magic_plus, weapon.name) == ("weapons/runeblade", 2, "Broadsword")


def test_an_override_of_a_built_in_is_used_and_said(tmp_path: Path) -> None:
    """The GM's weapons/broadsword replaces the built-in one, and may build on it by naming
    itself; the catalogue lists it among its overrides."""
    _entry(tmp_path / "models", "broadsword", "model: weapons/broadsword\nmagic_plus: 3\n")
    (tmp_path / "duel.yaml").write_text(DUEL % "broadsword", encoding="utf-8")
    weapon = load_scenario(tmp_path / "duel.yaml").sides[0].forces[0].weapon
    assert (weapon.name, weapon.magic_plus) == ("Broadsword", 3)
    assert catalog_for(tmp_path / "duel.yaml").overrides == ["weapons/broadsword"]


def test_one_name_in_two_gm_folders_is_a_clash(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """weapons/runeblade in FADAD_CATALOG's folder and in models/ beside the scenario: one
    line naming both files."""
    mine = _entry(tmp_path / "mine", "runeblade", "model: weapons/broadsword\n")
    beside = _entry(tmp_path / "models", "runeblade", "model: weapons/axe\n")
    monkeypatch.setenv(CATALOG_ENV, str(tmp_path / "mine"))
    (tmp_path / "duel.yaml").write_text(DUEL % "runeblade", encoding="utf-8")
    with pytest.raises(ScenarioError) as caught:
        load_scenario(tmp_path / "duel.yaml")
    assert caught.value.problems == [
        f"{beside}: weapons/runeblade is defined twice in the GM's catalogue (also in {mine}); "
        "keep one"
    ]


def test_a_folder_that_is_no_kind_and_a_missing_folder_are_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """models/weapon (not a kind) suggests weapons; a FADAD_CATALOG folder that does not
    exist is named."""
    (tmp_path / "models" / "weapon").mkdir(parents=True)
    (tmp_path / "duel.yaml").write_text(DUEL % "broadsword", encoding="utf-8")
    with pytest.raises(ScenarioError) as caught:
        load_scenario(tmp_path / "duel.yaml")
    (line,) = caught.value.problems
    assert line.endswith("'weapon' is not a catalogue kind (allowed: weapons, armour, "
                         "shields, big-weapons, ships, creatures, crews, units, tables, fae); "
                         "did you mean 'weapons'?")  # fmt: skip
    monkeypatch.setenv(CATALOG_ENV, str(tmp_path / "nowhere"))
    with pytest.raises(ScenarioError) as caught:
        load_scenario(DUEL % "axe")
    assert caught.value.problems == [
        f"{tmp_path / 'nowhere'}: no such folder for the GM's catalogue (named in "
        "FADAD_CATALOG or by --catalog)"
    ]


def test_the_environment_variable_adds_folders_to_text_and_mappings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A scenario given as text has no folder beside it: FADAD_CATALOG's folders serve."""
    _entry(tmp_path / "mine", "runeblade", "model: weapons/broadsword\nmagic_plus: 2\n")
    monkeypatch.setenv(CATALOG_ENV, str(tmp_path / "mine"))
    assert load_scenario(DUEL % "runeblade").sides[0].forces[0].weapon.magic_plus == 2
