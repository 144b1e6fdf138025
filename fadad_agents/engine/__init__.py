"""fadad_agents.engine (see DESIGN.md)."""
