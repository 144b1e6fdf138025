"""A character stays a small object for CPython's allocator.

CPython serves objects of at most 512 bytes (headers included) from its own pools and
hands bigger ones to the system's malloc, which places them farther apart. One slot too
many on :class:`~fadad_agents.agents.core.character.Character` crossed that line
(de0a8f4) and made the 20,000-agent fight 4-5% slower, every round. No timing here: the
size is the fact to keep (the speed is in ``benchmarks/``).
"""

from __future__ import annotations

import sys

from benchmarks.bench_engine import _melee_yaml
from fadad_agents.agents.core.character import Character
from fadad_agents.engine import build_battle, load

SMALL_REQUEST_THRESHOLD = 512
"""CPython's largest object served by its small-object allocator (Objects/obmalloc.c)."""


def test_a_character_fits_the_small_object_allocator() -> None:
    """Every character of a battle, headers included, takes at most 512 bytes."""
    battle = build_battle(load(_melee_yaml(5, bands=True)), 1, collect=False)
    battle.run_to_end()  # the flags a play sets (the plain round's) are set by now
    characters = [m for side in battle.sides for m in side.members if type(m) is Character]
    assert characters
    sizes = {sys.getsizeof(m) for m in characters}
    assert max(sizes) <= SMALL_REQUEST_THRESHOLD, sizes
