"""Parameter grids: path syntax, validated one-line errors, common random numbers."""

from __future__ import annotations

from pathlib import Path

import pytest

from fadad_agents.analysis import GridError, expand_grid, parse_path, replicate_seeds, sweep
from fadad_agents.analysis.grid import parse_grid_option, set_path
from fadad_agents.engine import load
from fadad_agents.schema.character import Character
from fadad_agents.schema.loader import load_scenario

DUEL = Path(__file__).parents[2] / "scenarios" / "snorri-vs-brynhild.yaml"
BRAWL = Path(__file__).parents[2] / "scenarios" / "tavern-brawl.yaml"


def test_parse_path_keys_indices_and_names() -> None:
    """Dots split keys; [i] is a list index; [Name] an item by name or a key."""
    assert parse_path("rules.fadad.initiative") == ("rules", "fadad", "initiative")
    assert parse_path("sides[0].forces[Big Hulda].skills[Melee Weapon]") == (
        "sides",
        0,
        "forces",
        "[Big Hulda]",
        "skills",
        "[Melee Weapon]",
    )


@pytest.mark.parametrize(
    ("path", "message"),
    [
        ("", "is empty"),
        ("sides..name", "bad segment ''"),
        ("sides[].name", r"empty brackets \[\]"),
    ],
)
def test_bad_path_syntax(path: str, message: str) -> None:
    """Malformed paths are refused with the rule for writing one."""
    with pytest.raises(GridError, match=message):
        parse_path(path)


def test_set_path_by_index_and_by_name() -> None:
    """An item is reached by position or by its name."""
    data = load(DUEL).model_dump(mode="json")
    set_path(data, "sides[Brynhild].forces[0].skills.Axe", 3)
    set_path(data, "sides[0].forces[Snorri].count", 2)
    assert data["sides"][1]["forces"][0]["skills"]["Axe"] == 3
    assert data["sides"][0]["forces"][0]["count"] == 2


@pytest.mark.parametrize(
    ("grid", "message"),
    [
        (
            {"sides[3].name": ["x"]},
            r"grid path 'sides\[3\].name': sides has no item 3 \(2 items, 0..1; "
            r"names: Snorri, Brynhild\)",
        ),
        ({"sides[Bob].name": ["x"]}, "sides has no item named 'Bob'"),
        (
            {"sides[0].forces[0].skills.Sward": ["Good"]},
            r"sides\[0\].forces\[0\].skills has no 'Sward' \(keys: Sword\); did you mean 'Sword'\?",
        ),
        ({"rules.fadad.initiativ": ["static"]}, "did you mean 'initiative'"),
        (
            {"rules.fadad.initiative": ["sideways"]},
            r"grid rules.fadad.initiative=sideways: rules.fadad.initiative: 'sideways' is not "
            r"allowed \(allowed: 'rolled' or 'static'\)",
        ),
        (
            {"sides[0].forces[0].skills.Sword": ["Grate"]},
            "'Grate' is not a ladder level",
        ),
        ({"rules.fadad.initiative": []}, "the list of values is empty"),
        ({"rules.fadad.initiative": "static"}, "give a list of values"),
        ({"sides[0].name": ["Ragnar"]}, "may not rename, add or reorder sides or ships"),
    ],
)
def test_bad_grids_are_one_line_errors(grid: dict[str, object], message: str) -> None:
    """Every bad path or value raises GridError: one line naming path, value and fix."""
    with pytest.raises(GridError, match=message) as caught:
        sweep(DUEL, 2, grid=grid, progress=False)  # type: ignore[arg-type]
    assert "\n" not in str(caught.value)


def test_grid_is_a_cartesian_product_in_order() -> None:
    """Two paths of two values make four variants, first path slowest."""
    variants = expand_grid(
        load(DUEL),
        {"rules.fadad.initiative": ["rolled", "static"], "sides[0].forces[0].skills.Sword": [1, 2]},
    )
    assert [v.label for v in variants] == [
        "rules.fadad.initiative=rolled, sides[0].forces[0].skills.Sword=1",
        "rules.fadad.initiative=rolled, sides[0].forces[0].skills.Sword=2",
        "rules.fadad.initiative=static, sides[0].forces[0].skills.Sword=1",
        "rules.fadad.initiative=static, sides[0].forces[0].skills.Sword=2",
    ]
    last = load_scenario(variants[3].text)
    assert last.rules.fadad.initiative == "static"
    snorri = last.sides[0].forces[0]
    assert isinstance(snorri, Character)
    assert snorri.skills == {"Sword": 2}


def test_no_grid_is_one_base_variant() -> None:
    """Without a grid the scenario itself is the only variant."""
    (variant,) = expand_grid(load(DUEL), None)
    assert (variant.index, variant.label, variant.values) == (0, "base", ())
    assert load_scenario(variant.text) == load(DUEL)


def test_variants_share_replicate_seeds() -> None:
    """Common random numbers: replicate k has the same seed in every variant."""
    frame = sweep(
        DUEL, 6, 5, grid={"sides[Snorri].forces[0].skills.Sword": ["Good", "Great"]}, progress=False
    ).frame
    by_variant = [list(part["seed"]) for _, part in frame.groupby("variant")]
    assert by_variant == [replicate_seeds(5, 6)] * 2
    assert list(frame["sides[Snorri].forces[0].skills.Sword"]) == ["Good"] * 6 + ["Great"] * 6


def test_identical_variants_give_identical_battles() -> None:
    """Two variants that change nothing play exactly the same battles (same dice)."""
    frame = sweep(
        DUEL, 10, 1, grid={"sides[0].forces[0].skills.Sword": [2, "Great"]}, progress=False
    ).frame
    a, b = (
        part.drop(columns=["variant", "label", "sides[0].forces[0].skills.Sword"])
        for _, part in frame.groupby("variant")
    )
    assert a.reset_index(drop=True).equals(b.reset_index(drop=True))


def test_policy_comparison_on_common_random_numbers() -> None:
    """Comparing targeting policies: same seeds, and the choice changes some battles."""
    result = sweep(
        BRAWL,
        12,
        3,
        grid={"sides[Ship's crew].policies.targeting": ["weakest", "nearest"]},
        progress=False,
    )
    weakest, nearest = (part for _, part in result.frame.groupby("variant"))
    assert list(weakest["seed"]) == list(nearest["seed"])
    columns = ["Dockhands.casualties", "Ship's crew.casualties", "rounds"]
    assert weakest[columns].to_numpy().tolist() != nearest[columns].to_numpy().tolist()


def test_grid_option_from_the_command_line() -> None:
    """PATH=V1,V2 reads each value as YAML; [..] takes a YAML list."""
    assert parse_grid_option("sides[0].forces[0].count=2, 3") == (
        "sides[0].forces[0].count",
        [2, 3],
    )
    assert parse_grid_option("sides[0].policies.targeting=[nearest, {name: weakest}]") == (
        "sides[0].policies.targeting",
        ["nearest", {"name": "weakest"}],
    )
    with pytest.raises(GridError, match="write PATH=V1,V2"):
        parse_grid_option("rules.fadad.initiative")
