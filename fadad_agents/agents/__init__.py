"""Agents: Mesa agents holding live state and delegating decisions to policies (DESIGN.md).

:class:`Character` is one fighter; :class:`Crew` and :class:`Unit` are many featureless
fighters as one agent with a head count, resolved in bulk (all in
:mod:`~fadad_agents.agents.core`). Ships and their weapon teams live in
:mod:`~fadad_agents.agents.ships`, Fae Domains combatants in :mod:`~fadad_agents.agents.fae`;
both subclass :class:`Combatant`.
"""

from fadad_agents.agents.core.base import Arena, Band, Combatant, SideRoster, Status
from fadad_agents.agents.core.character import Character, defence_verb, strike
from fadad_agents.agents.core.groups import Crew, Group, Unit

__all__ = [
    "Arena",
    "Band",
    "Character",
    "Combatant",
    "Crew",
    "Group",
    "SideRoster",
    "Status",
    "Unit",
    "defence_verb",
    "strike",
]
