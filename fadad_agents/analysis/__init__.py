"""fadad_agents.analysis (see DESIGN.md)."""
