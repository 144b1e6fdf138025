"""The Fae Domains percentile system (``fae-domains.md``).

Checks and margins, the action economy (:mod:`~fadad_agents.rules.fae.checks`), attacks,
defences and damage (:mod:`~fadad_agents.rules.fae.attack`), flight, mounts, holds, falls
and swimming (:mod:`~fadad_agents.rules.fae.special`) and the ``fae.*`` options. Imports
only :mod:`fadad_agents.rules.core`.
"""
