"""The Spelljammer kernel's docstring examples run and hold."""

import doctest
import importlib

import pytest

MODULES = [
    "fadad_agents.rules.ships.effects",
    "fadad_agents.rules.ships.movement",
    "fadad_agents.rules.ships.combat",
    "fadad_agents.rules.ships.crits",
    "fadad_agents.rules.ships.crew",
    "fadad_agents.rules.ships.fire",
    "fadad_agents.rules.ships.close",
    "fadad_agents.rules.ships.chase",
]


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name):
    """Every example in the module's docstrings gives the printed result."""
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0
    assert result.failed == 0


@pytest.mark.parametrize("name", MODULES)
def test_public_api_is_declared(name):
    """Every name in __all__ exists in the module."""
    module = importlib.import_module(name)
    missing = [n for n in module.__all__ if not hasattr(module, n)]
    assert missing == []
