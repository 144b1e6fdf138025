"""A battle is built with Python's garbage collector paused (engine.core.clock.
collector_paused with ``full``): no collection runs inside a build, a build that leaves
many objects ends with the one full collection they make due, and the caller's collector
is left as it was found."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from typing import Any

import pytest

from fadad_agents.engine import build_battle, load
from fadad_agents.engine.core import build, clock


def _melee(per_side: int) -> Any:
    """``per_side`` v ``per_side`` band melee, formed up in ranks."""

    def side(name: str) -> str:
        return f"""
  - name: {name}
    forces:
      - name: {name}
        skills: {{Sword: Good}}
        attack_skill: Sword
        weapon: weapons/broadsword
        count: {per_side}
"""

    return load(f"name: melee\nsides:{side('Red')}{side('Blue')}")


@pytest.fixture
def collections() -> Iterator[list[int]]:
    """The generation of every collection run while the test runs, the collector on."""
    seen: list[int] = []

    def note(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            seen.append(info["generation"])

    # A build first, uncounted: once numba is loaded (by an earlier test), the field's
    # mirror in arrays is made at placement, and a process's first loads numba's code.
    build_battle(_melee(2), seed=1).dispose()
    was = gc.isenabled()
    gc.enable()
    gc.collect()
    gc.callbacks.append(note)
    try:
        yield seen
    finally:
        gc.callbacks.remove(note)
        (gc.enable if was else gc.disable)()


def test_a_small_build_ends_with_one_young_collection(collections: list[int]) -> None:
    """A 300 v 300 build makes some 6,000 objects, far more than the young generation's
    threshold of 700, yet no collection runs until it is over: then one young collection
    (generation 0), the build's own, not left to the battle's first round; the collector
    is on again after it."""
    scenario = _melee(300)
    gc.collect()
    collections.clear()
    battle = build_battle(scenario, seed=1)
    ran, left = len(collections), gc.get_count()[0]  # before anything else allocates
    assert ran == 1
    assert collections[0] == 0
    assert left < 700
    assert gc.isenabled()
    battle.dispose()


def test_a_big_build_ends_with_one_full_collection(
    collections: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A build that leaves FULL_COLLECTION_AT new objects or more ends with exactly one
    collection, a full one (generation 2), which leaves nothing young behind."""
    monkeypatch.setattr(clock, "FULL_COLLECTION_AT", 1_000)
    scenario = _melee(300)
    gc.collect()
    collections.clear()
    battle = build_battle(scenario, seed=1)
    ran, left = len(collections), gc.get_count()[0]
    assert ran == 1
    assert collections[0] == 2
    assert left < 1_000
    battle.dispose()


def test_a_build_below_the_mark_runs_no_full_collection(
    collections: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same build with the mark above its objects: no full collection, the young one."""
    monkeypatch.setattr(clock, "FULL_COLLECTION_AT", 1_000_000)
    scenario = _melee(300)
    gc.collect()
    collections.clear()
    battle = build_battle(scenario, seed=1)
    ran = len(collections)
    assert ran == 1
    assert collections[0] == 0
    battle.dispose()


def test_a_collector_turned_off_stays_off_and_runs_nothing(
    collections: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A caller who turned the collector off gets no collection from a build, however
    big, and finds it still off."""
    monkeypatch.setattr(clock, "FULL_COLLECTION_AT", 1_000)
    scenario = _melee(300)
    gc.disable()
    collections.clear()
    battle = build_battle(scenario, seed=1)
    ran = len(collections)
    assert ran == 0
    assert not gc.isenabled()
    battle.dispose()


def test_a_failed_build_turns_the_collector_on_again(
    collections: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A build that raises leaves the collector on."""

    def broken(*_: Any) -> None:
        raise RuntimeError("no battle")

    monkeypatch.setattr(build, "_build", broken)
    with pytest.raises(RuntimeError, match="no battle"):
        build_battle(_melee(2), seed=1)
    assert gc.isenabled()


def test_the_same_battle_whatever_the_collector_does(monkeypatch: pytest.MonkeyPatch) -> None:
    """A build ended by a full collection plays the same battle, byte for byte, as one
    whose objects wait for the young collections."""
    scenario = _melee(60)

    def log_of() -> list[Any]:
        battle = build_battle(scenario, seed=4)
        battle.run_to_end()
        return [battle.log.text(), *map(tuple, battle.log)]  # (raw rows may hold arrays)

    monkeypatch.setattr(clock, "FULL_COLLECTION_AT", 10**9)
    plain = log_of()
    monkeypatch.setattr(clock, "FULL_COLLECTION_AT", 0)
    assert log_of() == plain
