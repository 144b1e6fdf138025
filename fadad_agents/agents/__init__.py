"""fadad_agents.agents (see DESIGN.md)."""
