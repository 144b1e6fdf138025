"""fadad_agents.policies (see DESIGN.md)."""
