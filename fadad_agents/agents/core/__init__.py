"""The fighters every rule system fields: Mesa agents of the 6-second personal round.

:class:`~fadad_agents.agents.core.base.Combatant` and the arena it sees, a
:class:`~fadad_agents.agents.core.character.Character`, and crews and units as bulk
groups (:mod:`~fadad_agents.agents.core.groups`). Ship decks and Fae-bridged melee field
these same agents, so they are the core of the layer rather than a rule system of it.
"""
