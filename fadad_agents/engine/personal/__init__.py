"""The personal (FADAD) engine's own room: the plain melee played whole in compiled code
(numba), the same battles as the engine's Python, byte for byte; it registers itself with
the round clock (``engine.core.clock.whole_battles``) when the engine is imported."""

from fadad_agents.engine.core import clock
from fadad_agents.engine.personal import melee

clock.whole_battles = melee
