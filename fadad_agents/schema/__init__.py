"""fadad_agents.schema (see DESIGN.md)."""
