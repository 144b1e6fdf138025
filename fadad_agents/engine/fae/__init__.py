"""Fae Domains battles: 10-second turns of percentile actions at margin-derived counts,
beside FADAD rounds for bridged FADAD fighters in mixed scenes.

Importing this package registers the Fae engine with the core
(:func:`fadad_agents.engine.core.build.register_ruleset`): any scenario with a Fae
Domains combatant is played here, before the ship engine is asked.
"""

from fadad_agents.engine.core.build import Ruleset, register_ruleset
from fadad_agents.engine.fae.build import build_fae_battle, is_fae

__all__ = ["build_fae_battle", "is_fae"]

register_ruleset(Ruleset("fae", plays=is_fae, build=build_fae_battle, precedence=10))
