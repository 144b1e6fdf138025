"""The personal (FADAD) engine's own room: the plain melee played whole in compiled code
(numba), the same battles as the engine's Python, byte for byte."""
