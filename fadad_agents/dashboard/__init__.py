"""Notebook dashboards (plain ipywidgets in importable classes; DESIGN.md, Interfaces).

* :class:`BattleDashboard` - step through one battle: hex map, status, strength, log.
* :class:`OddsDashboard` - Monte Carlo odds of a scenario, two policies side by side.
* :class:`BattleSession` - the replayable battle behind the dashboard (no widgets).
* :class:`TableDashboard` - play a table session: the GM's choices and dice by click.
"""

from fadad_agents.dashboard.battle import BattleDashboard
from fadad_agents.dashboard.hexview import MapView, Marker
from fadad_agents.dashboard.odds import OddsDashboard
from fadad_agents.dashboard.session import BattleSession, Overrides, SessionError
from fadad_agents.dashboard.table import TableDashboard

__all__ = [
    "BattleDashboard",
    "BattleSession",
    "MapView",
    "Marker",
    "OddsDashboard",
    "Overrides",
    "SessionError",
    "TableDashboard",
]
