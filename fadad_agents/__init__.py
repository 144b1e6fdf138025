"""fadad-agents: an agent-based battle simulator for FUDGE-based FADAD combat.

The rules kernel (:mod:`fadad_agents.rules`) is importable on its own and loads no
simulation framework; the engine and interfaces are imported lazily on first use so
that ``import fadad_agents.rules`` stays light.
"""

from __future__ import annotations

import importlib
from typing import Any

__version__ = "0.1.0"
__all__ = ["Limits", "ScenarioError", "__version__", "load", "run", "sweep"]

_LAZY = {
    "load": "fadad_agents.engine",
    "run": "fadad_agents.engine",
    "sweep": "fadad_agents.analysis",
    "ScenarioError": "fadad_agents.schema",  # what a bad scenario raises, anywhere
    "Limits": "fadad_agents.schema",  # how large a battle the runner allows
}


def __getattr__(name: str) -> Any:
    # Lazy: the engine pulls in Mesa and SimPy, which the kernel must not load.
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'fadad_agents' has no attribute {name!r}")
