"""RulesOptions: every CONFLICTS.md option key exists with a documented default."""

import pytest
from pydantic import ValidationError

from fadad_agents.rules.options import RulesOptions

CONFLICTS_KEYS = """fadad.target_mode fadad.initiative fadad.actions_per_round shield_mode
range.extreme_literal move.target_bonus location.also_general_wound wound_model
fudge.damage_roll fudge.double_rd overflow_past_near_death scratch_cap wound_track
pc_death.max_three_levels pc_death.no_near_death_unless_incap pc_death.point_spend
healing_model ship.damage_model ship.crit_table ship.crit_triggers
fire.sj_firefighting sj.crash_dc sj.crash_save_dc sj.lock_pct_per_10_tons fae.margin_mode
fae.botch_range""".split()
RETIRED_KEYS = ("fadad.ms_table_literal", "mass.engine")
"""CONFLICTS.md keys no rule of the engine reads (issue 15): refused with what to do."""


def test_every_conflicts_key_is_an_option():
    """CONFLICTS.md section 3 lists these keys; each is a RulesOptions field."""
    flat = RulesOptions().flat()
    missing = [k for k in CONFLICTS_KEYS if k not in flat]
    assert missing == []


@pytest.mark.parametrize("key", RETIRED_KEYS)
def test_a_retired_conflicts_key_is_refused_with_its_reason(key: str) -> None:
    """A file still setting a retired key gets one message saying why it went and to
    remove it (never a silent default)."""
    assert key not in RulesOptions().flat()
    with pytest.raises(ValidationError, match=f"{key} is gone .*; remove it"):
        RulesOptions.from_flat({key: True})


def test_every_option_is_documented():
    """Every option field carries a description naming its rule or conflict."""
    opts = RulesOptions()
    for name, field in type(opts).model_fields.items():
        value = getattr(opts, name)
        if hasattr(type(value), "model_fields"):
            for sub, subfield in type(value).model_fields.items():
                assert subfield.description, f"{name}.{sub} has no description"
        else:
            assert field.description, f"{name} has no description"


def test_flat_round_trip_and_frozen():
    """from_flat(flat()) is identity, and options cannot be changed in place."""
    opts = RulesOptions.from_flat({"fadad.initiative": "static", "wound_model": "fudge_numeric"})
    assert RulesOptions.from_flat(opts.flat()) == opts
    with pytest.raises(ValidationError):
        opts.wound_model = "fadad"  # type: ignore[misc]


def test_unknown_option_is_refused():
    """A misspelt option is an error, never a silent default."""
    with pytest.raises(ValidationError, match="extra"):
        RulesOptions.from_flat({"fadad.target_mod": "x"})
