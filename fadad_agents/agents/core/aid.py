"""First aid in the middle of a fight: a character stops fighting to tend a fallen friend.

Rules: ``wounds-and-healing.md`` 13.2 and A-31 (PROPOSED): first aid on a Near Death
friend takes the round (a durative action of 6 seconds) and a Fair result stabilises.
"""

from __future__ import annotations

from typing import Any

from fadad_agents.rules.core.actions import roll_unopposed
from fadad_agents.rules.core.ladder import FAIR

__all__ = ["finish_aid", "tend"]


def tend(medic: Any, arena: Any, budget: int) -> bool:
    """Start tending the friend the first-aid policy names, if any not yet tended; the
    medic keeps one action less for defence. Returns whether it tends someone."""
    patient = medic.policies.first_aid.patient(medic, arena)
    if patient is None or getattr(patient, "track", None) is None:
        return False
    if patient.memory.get("tended_by"):
        return False
    patient.memory["tended_by"] = medic.name
    medic.defences_left = budget - 1
    arena.start_action(medic, "first_aid", 6, lambda: finish_aid(medic, patient, arena))
    return True


def finish_aid(medic: Any, patient: Any, arena: Any) -> None:
    """First aid on a Near Death friend: a Fair result stabilises (A-31, PROPOSED)."""
    ok, degree, dice = roll_unopposed(medic.first_aid, FAIR, medic.rng, medic.penalty, "first aid")
    patient.stabilised = patient.stabilised or ok
    arena.record(
        medic.name,
        "first_aid",
        patient.name,
        (("first_aid", dice),),
        (("penalty", medic.penalty),),
        (("result", "stabilised" if ok else "failed"), ("degree", degree)),
    )
