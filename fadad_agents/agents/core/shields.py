"""Which attackers a defender's shield covers (``personal-combat.md`` 3: a shield adds to
Target against attacks from one side only; a large shield covers two attackers there).

PROPOSED: a fighter's shield covers, each round, the foe it faces (its target) and, while
the shield covers more than one attacker, the next attackers on its shield side to strike
it that round, as many as the shield's ``attackers`` allow (on a field, the side it faces:
:func:`~fadad_agents.agents.core.moving.shield_rank`; without one, anyone). A fighter
facing no one covers the first attackers on that side to strike it, in order. The rank passed
to the kernel (:func:`fadad_agents.rules.personal.melee.shield_covers`) is the attacker's
place on the shield side: 1 for the faced foe, then 2, 3 ... for the others.
"""

from __future__ import annotations

from typing import Any

from fadad_agents.agents.core import moving

__all__ = ["shield_rank"]


def shield_rank(defender: Any, attacker: Any, round_: int) -> int:
    """The attacker's place on ``defender``'s shield side this round (0: not on it)."""
    if defender.fighter.shield is None:
        return 1  # no shield: the rank changes nothing
    facing = defender.target
    if facing is attacker:
        return 1
    if not moving.shield_rank(defender, attacker):
        return 0  # on a field, off the side its shield faces
    memory = defender.memory
    seen = memory.get("shield_side")
    if seen is None or seen[0] != round_:
        seen = memory["shield_side"] = (round_, [])
    others: list[Any] = seen[1]
    if attacker not in others:
        others.append(attacker)
    return others.index(attacker) + (1 if facing is None else 2)
