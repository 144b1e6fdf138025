"""How the table reads a combatant: a short state for choices, a line each for the table.

Shared by the command line (the combatants' state after each round) and the notebook's
:class:`~fadad_agents.dashboard.table.TableDashboard` (its status table).
"""

from __future__ import annotations

from typing import Any

from fadad_agents.rules.core.wounds import Wound

__all__ = ["condition", "named", "status_lines", "status_rows"]


def condition(agent: Any) -> str:
    """What shape ``agent`` is in: ``Hurt``, ``12 of 20 left``, ``hull 80%, 1 fire``."""
    if getattr(agent, "kind", "") == "ship":
        text = f"hull {float(agent.hull_fraction):.0%}"
        fires = int(getattr(agent, "fires", 0) or 0)
        return text + (f", {fires} fire{'s' if fires > 1 else ''}" if fires else "")
    start = int(agent.initial_headcount)
    if start > 1:
        return f"{int(agent.headcount)} of {start} left"
    return Wound(min(max(int(agent.wound), 0), int(Wound.DEAD))).label


def named(agent: Any) -> str:
    """``Brynhild (Hurt)``: a name with its condition, as choices read."""
    return f"{agent.name} ({condition(agent)})"


def status_rows(battle: Any) -> list[dict[str, Any]]:
    """One row per combatant: side, name, condition, status and what it has left."""
    rows = []
    for roster in battle.sides:
        for agent in roster.members:
            extra = []
            points = getattr(agent, "ite_points", None)
            if getattr(agent, "player", False) and points is not None:
                extra.append(f"{points} Ité point{'s' if points != 1 else ''}")
            rows.append(
                {
                    "side": roster.name,
                    "name": agent.name,
                    "condition": condition(agent),
                    "status": str(agent.status),
                    "notes": ", ".join(extra),
                }
            )
    return rows


def status_lines(battle: Any) -> list[str]:
    """The combatants' state as aligned text lines (side, name, condition, status)."""
    rows = status_rows(battle)
    if not rows:
        return []
    width = {k: max(len(str(r[k])) for r in rows) for k in ("side", "name", "condition")}
    return [
        f"  {r['side']:<{width['side']}}  {r['name']:<{width['name']}}  "
        f"{r['condition']:<{width['condition']}}  {r['status']}"
        + (f"  ({r['notes']})" if r["notes"] else "")
        for r in rows
    ]
