"""The shared rules kernel: pure, deterministic functions of (inputs, rng).

No framework imports: ``import fadad_agents.rules`` loads neither Mesa, SimPy nor pandas.
One room per rule system over a small shared core, one module per rule domain:

* :mod:`~fadad_agents.rules.core`: dice, the trait ladder, opposed actions, the wound
  track, the FADAD damage number, the morale roll, the option base;
* :mod:`~fadad_agents.rules.personal`: FADAD and FUDGE personal combat, wounds,
  criticals, healing, spirit;
* :mod:`~fadad_agents.rules.ships`: Spelljammer and FADAD ship rules;
* :mod:`~fadad_agents.rules.mass`: FADAD units and Spelljammer rapid resolution;
* :mod:`~fadad_agents.rules.fae`: the Fae Domains percentile system.

Rule systems import only the core, never each other; :class:`RulesOptions`
(:mod:`~fadad_agents.rules.options`) composes each system's options. Import the module
you need, e.g. ``from fadad_agents.rules.core import dice, ladder``.
"""

from fadad_agents.rules.core import dice, ladder
from fadad_agents.rules.options import RulesOptions

__all__ = ["RulesOptions", "dice", "ladder"]
