"""Dotted rules keys and nested sections mix, and no option is given twice (issue 20 point 10).

``rules: {fadad.initiative: static, fadad: {actions_per_round: 2}}`` once played
``rolled``: the nested ``fadad:`` section replaced the dotted key, and a bad dotted value
then validated "ok".
"""

from __future__ import annotations

import pytest

from fadad_agents.engine import run
from fadad_agents.schema import ScenarioError, load_scenario
from tests.engine.conftest import duel_yaml


def test_a_dotted_key_and_a_nested_section_of_the_same_head_both_count() -> None:
    """The mixed form is the battle of the nested form, seed for seed, and not of the
    default initiative."""
    mixed = duel_yaml(rules="fadad.initiative: static, fadad: {actions_per_round: 3}")
    nested = duel_yaml(rules="fadad: {initiative: static, actions_per_round: 3}")
    rolled = duel_yaml(rules="fadad: {actions_per_round: 3}")
    options = load_scenario(mixed).rules.fadad
    assert (options.initiative, options.actions_per_round) == ("static", 3)
    logs = {
        k: [run(t, seed=s).log.to_jsonl() for s in (1, 2, 3)]
        for k, t in (("mixed", mixed), ("nested", nested), ("rolled", rolled))
    }
    assert logs["mixed"] == logs["nested"]
    assert logs["mixed"] != logs["rolled"]


def test_a_bad_dotted_value_beside_a_section_is_refused() -> None:
    """The dotted value is validated, not dropped."""
    with pytest.raises(ScenarioError, match=r"rules\.fadad\.initiative: 'sometimes' is not"):
        load_scenario(duel_yaml(rules="fadad.initiative: sometimes, fadad: {actions_per_round: 2}"))


def test_an_option_given_twice_is_refused_at_its_dotted_key() -> None:
    """The same option dotted and nested, or a dotted key under a single option."""
    with pytest.raises(ScenarioError) as twice:
        load_scenario(duel_yaml(rules="fadad.initiative: static, fadad: {initiative: rolled}"))
    assert twice.value.problems == [
        "<text>:3 rules.fadad.initiative: given twice (as fadad.initiative and inside fadad:)"
    ]
    with pytest.raises(ScenarioError, match="'wound_model' is a single option, not a section"):
        load_scenario(duel_yaml(rules="wound_model: fadad, wound_model.x: 1"))
