"""Ship decisions: helm, maneuver, gunnery, reloading, firefighting, boarding, pursuit,
evasion and striking colours, with their registry of built-ins.
"""
