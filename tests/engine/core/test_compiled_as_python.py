"""The crowd's compiled code plays the battle its own Python source plays.

numba's debugging switch ``NUMBA_DISABLE_JIT=1`` leaves every ``njit`` function as the
Python it is written in: a way to step through the crowd's kernels in a debugger. With it,
:func:`~fadad_agents.agents.core.crowd.occupied.direct` gives the Python function (its
numpy scalars given back as Python's, as compiled code boxes them) and
:data:`~fadad_agents.agents.core.crowd.planning._fma` is worked out in fractions. A battle
in ranks played in arrays then writes the log the compiled code writes, byte for byte: an
oracle for the compiled code that no Python twin of it has to copy (numba's typing of
integers and floats, its maths functions, an LLVM intrinsic), besides the engine's own
Python path, which every other crowd test compares with.

numba reads the switch when it is imported, so each side runs in a fresh process.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from numba import njit

from fadad_agents.agents.core.crowd import planning

ROOT = Path(__file__).resolve().parents[3]

PLAY = """
import hashlib
from benchmarks.bench_engine import _melee_yaml
from fadad_agents.agents.core.crowd import waiting
from fadad_agents.engine import build_battle, load
from fadad_agents.engine.personal import melee

waiting.IN_ARRAYS_AT_LEAST = 8  # bands of 50 played in arrays
melee.MELEE_COMPILED = False  # by Python's rounds (a crowd now loads numba before its first)
turns = [0]
play = waiting.play_band_turn

def counted(*args, **kwargs):
    turns[0] += 1
    return play(*args, **kwargs)

waiting.play_band_turn = counted
text = _melee_yaml(50, bands=True, gap={gap}).replace(
    "fadad.initiative: rolled", "fadad.initiative: {initiative}, fadad.crit_effects: random"
)
battle = build_battle(load(text + {walls!r}), {seed}, collect=False)
while not battle.finished:
    battle.play_round()
log = "".join(battle.log.jsonl_lines())
print(turns[0], battle.round, hashlib.sha256(log.encode()).hexdigest())
"""


WALLED = "map: {kind: open, width: 14, height: 8}\n"
"""A 14 x 8 yard field: the ranks (10 wide) reach past its long edges, so sidesteps and
the places round a target are cut short by them."""

CASES = {
    "in contact": (None, "rolled", "", 1),
    "12 yards apart, walled": (12, "rolled", WALLED, 2),
    "12 yards apart, tied turns": (12, "static", "", 3),
}
"""Two bands of 50 in ranks with random crits (a fighter hurt before its turn leaves the
arrays): the gap between them, initiative (static: every round one turn shared by both
sides, its movers first, in arrays too), the field, and the seed."""


def _played(case: tuple[int | None, str, str, int], *, jit: bool) -> list[str]:
    """Band turns played in arrays, rounds, and the log's sha256 of the battle of
    ``case``, in a fresh process, compiled or (``jit`` False) with
    ``NUMBA_DISABLE_JIT=1``."""
    gap, initiative, walls, seed = case
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_DISABLE_JIT"}
    if not jit:
        env["NUMBA_DISABLE_JIT"] = "1"
    done = subprocess.run(
        [sys.executable, "-c", PLAY.format(gap=gap, initiative=initiative, walls=walls, seed=seed)],
        cwd=ROOT, env=env, capture_output=True, text=True, check=True,
    )  # fmt: skip
    return done.stdout.split()


@pytest.mark.parametrize("case", list(CASES))
def test_a_battle_in_arrays_is_the_same_with_numba_left_as_python(case: str) -> None:
    """A battle in ranks played to the end in arrays: the same log, compiled or left as
    Python."""
    compiled = _played(CASES[case], jit=True)
    as_python = _played(CASES[case], jit=False)
    assert int(compiled[0]) > 5, "few band turns in arrays: the test proves little"
    assert as_python == compiled


@njit
def _fused(x: float, y: float, z: float) -> float:
    return planning._fma(x, y, z)  # type: ignore[no-any-return]


def test_fma_in_fractions_is_llvm_fma() -> None:
    """``_fma``'s Python twin (``NUMBA_DISABLE_JIT``) rounds ``x * y + z`` once, as the
    LLVM intrinsic does: random doubles, products whose error is the answer (``hypot``'s
    use), signs, and subnormal results; both equal the exact sum, rounded, in fractions."""
    rng = random.Random(9)
    cases = []
    for _ in range(2000):
        x = rng.uniform(-1e3, 1e3) * 2.0 ** rng.randint(-40, 40)
        y = rng.uniform(-1e3, 1e3) * 2.0 ** rng.randint(-40, 40)
        cases += [(x, y, rng.uniform(-1e3, 1e3)), (x, x, -(x * x)), (x, y, -(x * y))]
    tiny = 2.0**-1040
    cases += [(tiny, 0.5, tiny), (3.0 * tiny, 1 / 3, 0.0), (1e-300, 1e-10, -1e-310)]
    for x, y, z in cases:
        exact = float(Fraction(x) * Fraction(y) + Fraction(z))
        assert planning._fma_exactly(x, y, z) == exact
        assert _fused(x, y, z) == exact
    assert sum(x * y + z != planning._fma_exactly(x, y, z) for x, y, z in cases) > 1000
