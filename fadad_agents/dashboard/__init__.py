"""fadad_agents.dashboard (see DESIGN.md)."""
