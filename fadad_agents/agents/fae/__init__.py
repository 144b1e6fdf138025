"""Fae Domains agents: a combatant acting at margin-derived counts, its attacks, moves,
called shots, mount and the FADAD bridge of mixed scenes.

The module graph runs one way: ``character`` <- ``moves`` <- ``called_shots`` <-
``combat`` <- ``mount`` <- ``actions``. Builds on :mod:`fadad_agents.agents.core`; never
imports the ship agents.
"""
