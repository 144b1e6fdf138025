"""Campaigns: a battle's end state written out, rested, and carried into the next battle.

The end state (:class:`EndState`, a versioned JSON file) holds each survivor's wound
boxes, Ité points, shots and lasting crit effects, each crew's and unit's heads left, and
each ship's hull, damage boxes, crew losses, fires, criticals and repair bill, with who
was captured or fled::

    >>> from fadad_agents import campaign                     # doctest: +SKIP
    >>> result, state = campaign.play_for_state("scenarios/ship-duel.yaml", seed=1)
    >>> state, changes = campaign.rest(state, days=14)         # heal and repair
    >>> campaign.write_state(state, "after.json")
    >>> nxt = campaign.apply_state(campaign.read_state("after.json"), "next.yaml")
    >>> open("next-start.yaml", "w").write(nxt.text); nxt.notes

The command line: ``fadad run SCENARIO --state-out STATE``, ``fadad rest STATE --days N``
and ``fadad aftermath STATE --into NEXT.yaml --out NEXT-start.yaml``.
"""

from __future__ import annotations

from fadad_agents.campaign.aftermath import Aftermath, apply_state
from fadad_agents.campaign.ending import end_state, play_for_state
from fadad_agents.campaign.rest import rest
from fadad_agents.campaign.state import (
    CharacterState,
    EndState,
    GroupState,
    ShipState,
    read_state,
    state_text,
    write_state,
)

__all__ = [
    "Aftermath",
    "CharacterState",
    "EndState",
    "GroupState",
    "ShipState",
    "apply_state",
    "end_state",
    "play_for_state",
    "read_state",
    "rest",
    "state_text",
    "write_state",
]
