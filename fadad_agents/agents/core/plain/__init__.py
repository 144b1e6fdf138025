"""The plain melee round: declare and act for fighters with nothing to decide, in one
loop over the round's turns (:mod:`~fadad_agents.agents.core.plain.round`), each fighter
left as its own declare and act would leave it, so a battle plays the same whichever path
plays it."""
