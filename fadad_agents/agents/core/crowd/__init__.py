"""Crowds in arrays: the work of thousands of fighters in the ranks done together in numpy
(:mod:`~fadad_agents.agents.core.crowd.ahead`), each fighter left what its own turn
would have worked out, so a battle plays the same whichever path plays it."""
