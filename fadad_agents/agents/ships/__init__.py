"""Ship agents: the :class:`~fadad_agents.agents.ships.ship.Ship` and its weapon teams.

Builds on :mod:`fadad_agents.agents.core` (the crews and characters aboard); never imports
the Fae agents.
"""
