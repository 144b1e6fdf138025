"""The engine's core: a Mesa model owning the SimPy clock and the 6-second personal round.

:class:`~fadad_agents.engine.core.battle.Battle`, building a battle from a scenario and
the registry of rule systems' engines (:mod:`~fadad_agents.engine.core.build`), the clock
and its phases, random streams, the battle log and its narration, round data, results,
and recycling of finished battles. Knows no other rule system by name.
"""
