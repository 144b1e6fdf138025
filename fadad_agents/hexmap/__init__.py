"""fadad_agents.hexmap (see DESIGN.md)."""
