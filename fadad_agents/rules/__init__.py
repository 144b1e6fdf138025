"""The shared rules kernel: pure, deterministic functions of (inputs, rng).

No framework imports: ``import fadad_agents.rules`` loads neither Mesa, SimPy nor pandas.
One module per rule domain; import the module you need, e.g.
``from fadad_agents.rules import dice, ladder``.
"""

from fadad_agents.rules import dice, ladder
from fadad_agents.rules.options import RulesOptions

__all__ = ["RulesOptions", "dice", "ladder"]
