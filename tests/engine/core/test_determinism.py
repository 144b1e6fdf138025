"""Reproducibility: same scenario and seed, same bytes; common random numbers; no leaks."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

from fadad_agents.engine import Streams, build_battle, load, run
from tests.engine.conftest import SCENARIOS, duel_yaml, fighter, played_order

ROOT = Path(__file__).resolve().parents[3]
SCRIPT = (
    "import sys; from fadad_agents.engine import run; "
    "sys.stdout.write(run(sys.argv[1], seed=int(sys.argv[2])).log.to_jsonl())"
)


def _jsonl_in_subprocess(scenario: Path, seed: int, hashseed: str) -> bytes:
    env = {**os.environ, "PYTHONHASHSEED": hashseed}
    out = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(scenario), str(seed)],
        cwd=ROOT, env=env, capture_output=True, check=True, timeout=120,
    )  # fmt: skip
    return out.stdout


def test_same_seed_gives_byte_identical_jsonl_in_two_processes() -> None:
    """Two interpreters with different PYTHONHASHSEED write the same JSON-lines log."""
    scenario = SCENARIOS / "tavern-brawl.yaml"
    a = _jsonl_in_subprocess(scenario, 77, "0")
    b = _jsonl_in_subprocess(scenario, 77, "4242")
    assert a
    assert a == b
    assert a.decode() == run(scenario, seed=77).log.to_jsonl()


RECYCLED = (
    "import sys; from fadad_agents.engine import load, run; "
    "scenario = load(sys.argv[1]); logs = {s: run(scenario, seed=s).log.to_jsonl() "
    "for s in (5, int(sys.argv[2]), 3)}; sys.stdout.write(logs[int(sys.argv[2])])"
)


def test_a_recycled_battle_writes_the_same_bytes_as_a_fresh_one_in_another_process() -> None:
    """A process that played other seeds first (``run`` recycles the battle) writes the
    log a fresh process writes for the seed."""
    scenario = SCENARIOS / "tavern-brawl.yaml"
    out = subprocess.run(
        [sys.executable, "-c", RECYCLED, str(scenario), "77"],
        cwd=ROOT, env={**os.environ, "PYTHONHASHSEED": "99"},
        capture_output=True, check=True, timeout=120,
    )  # fmt: skip
    assert out.stdout == _jsonl_in_subprocess(scenario, 77, "0")


def test_different_seeds_give_different_battles() -> None:
    """The seed matters (the log is not constant)."""
    scenario = SCENARIOS / "tavern-brawl.yaml"
    assert run(scenario, seed=1).log.to_jsonl() != run(scenario, seed=2).log.to_jsonl()


def test_no_state_leaks_between_runs() -> None:
    """Running other battles in between does not change a battle's log."""
    scenario = load(SCENARIOS / "tavern-brawl.yaml")
    first = run(scenario, seed=31).log.to_jsonl()
    run(SCENARIOS / "boarding-action.yaml", seed=5)
    run(scenario, seed=32)
    assert run(scenario, seed=31).log.to_jsonl() == first
    assert build_battle(scenario, seed=31).run_to_end().log.to_jsonl() == first


def test_streams_depend_on_seed_and_name_only() -> None:
    """Named streams: fixed by (seed, name), independent of creation order."""
    a, b = Streams(99), Streams(99)
    b.get("morale")
    assert a.get("melee").random() == b.get("melee").random()
    assert a.for_index("melee", 3).random() == b.for_index("melee", 3).random()
    assert Streams(99).for_index("melee", 3).random() != Streams(99).for_index("melee", 4).random()


def _pairs(cat_policy: str) -> str:
    def duellist(name: str, x: int, policies: str = "") -> str:
        extra = f"        position: [{x}, 0]\n"
        pol = "{targeting: duel" + (", " + policies if policies else "") + "}"
        return fighter(name, skill="Fair", policies=pol, extra=extra)

    red = duellist("Ann", 0) + duellist("Cat", 100, cat_policy)
    blue = duellist("Bob", 1) + duellist("Dan", 101)
    return duel_yaml(red, blue, stop="max_rounds: 40, when_side: [destroyed]")


def test_changed_morale_policy_keeps_an_unrelated_pairs_dice() -> None:
    """Common random numbers: Cat leaving early does not change Ann and Bob's dice."""
    hold = run(_pairs("retreat: hold"), seed=13)
    flee = run(_pairs("retreat: {name: wounded, params: {level: Scratch}}"), seed=13)
    assert [e.actor for e in flee.log.of("withdraw")] == ["Cat"]  # the change took effect

    def duel(result: object) -> list[tuple[object, ...]]:
        return [
            (e.time, e.actor, e.dice, e.outcome)
            for e in result.log.of("attack")  # type: ignore[attr-defined]
            if {e.actor, e.target} == {"Ann", "Bob"}
        ]

    assert duel(hold)
    assert duel(hold) == duel(flee)
    cat_dan = [e.dice for e in hold.log.of("attack") if e.actor in ("Cat", "Dan")]
    cat_dan_flee = [e.dice for e in flee.log.of("attack") if e.actor in ("Cat", "Dan")]
    assert cat_dan != cat_dan_flee


MIXED_SEEDS = (0, 3, 5, 8, 13, 21)
MIXED = (
    "import sys; from fadad_agents.agents.core.crowd import waiting; "
    "from tests.engine.core.test_determinism import _mixed_logs; "
    "waiting.IN_ARRAYS_AT_LEAST = 8; "
    "print(*_mixed_logs([int(s) for s in sys.argv[1:]], other_heap=True))"
)


def _mixed_logs(seeds: list[int], *, other_heap: bool = False) -> list[str]:
    """The sha256 of each mixed-forces battle (``test_mixed_forces_shortcuts``) played to
    its end on its seed; with ``other_heap``, played
    last seed first, other objects made between battles (the fighters land elsewhere in
    memory, as in a notebook that did other work)."""
    from tests.engine.core.test_mixed_forces_shortcuts import mixed_forces
    from tests.engine.core.test_ranks_in_arrays import _played

    logs = {}
    for seed in played_order(seeds, other_heap=other_heap):
        text, events, states = _played(mixed_forces(seed), seed)
        logs[seed] = hashlib.sha256((text + repr(events) + repr(states)).encode()).hexdigest()
    return [logs[seed] for seed in seeds]


def test_mixed_forces_play_the_same_battles_in_another_process(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Random mixed forces, band turns in arrays, play the same battles in a process with
    another hash seed that plays them in the other order, its memory laid out otherwise:
    nothing of the engine's speed (arrays, memos, orders) hangs on where objects lie."""
    monkeypatch.setattr("fadad_agents.agents.core.crowd.waiting.IN_ARRAYS_AT_LEAST", 8)
    here = _mixed_logs(list(MIXED_SEEDS))
    out = subprocess.run(
        [sys.executable, "-c", MIXED, *map(str, MIXED_SEEDS)],
        cwd=ROOT, env={**os.environ, "PYTHONHASHSEED": "4242"},
        capture_output=True, check=True, timeout=300, text=True,
    )  # fmt: skip
    assert out.stdout.split() == here
    assert len(set(here)) == len(MIXED_SEEDS)  # six battles, not one
