"""The compiled code of a crowd (``agents.core.crowd``: the waiting ranks' loop and the
nearest foes, numba): what its first use costs a fresh process.

The per agent-round figures (``bench_engine``) are taken with the code compiled and
loaded; a user's first big fight also pays numba's import and, once per install (the
machine code is cached beside the modules, or in ``NUMBA_CACHE_DIR``), its compilation.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile

import benchmarks.harness as harness
from benchmarks.harness import ROOT, Row, fresh_processes

_FIRST_FIGHT = """
import time
start = time.process_time()
import numba
imported = time.process_time()
from benchmarks.bench_engine import _melee_yaml
from fadad_agents.engine import build_battle, load
battle = build_battle(load(_melee_yaml(300, bands=True)), seed=1)
built = time.process_time()
battle.play_round()
print(imported - start, time.process_time() - built)
"""
"""A fresh process's numba import and first round of a fight whose bands (300 a side)
are played in arrays (CPU seconds)."""


def _first_fight(cache: str | None) -> tuple[float, float]:
    """Seconds to import numba, and the first round, in a fresh process caching in
    ``cache`` (None: where the install caches)."""
    env = dict(os.environ) if cache is None else {**os.environ, "NUMBA_CACHE_DIR": cache}
    done = subprocess.run(
        [sys.executable, "-c", _FIRST_FIGHT],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    imported, first = done.stdout.split()
    return float(imported), float(first)


@fresh_processes
def bench_compile() -> list[Row]:
    """The first round of a 300 v 300 fight in a fresh process, first with an empty
    numba cache (it compiles the loop), then with the cache it left (it loads it): the
    difference is the compile time, paid once per install; and numba's import, paid by
    every process that plays a crowd. The warm run is the best of 2.

    ``--quick`` leaves the compile out (10-15 s of a one-minute run, and no target): it
    plays the fight twice with the install's own cache, which the first run fills if
    it is empty, and reports the second."""
    if harness.QUICK:
        _first_fight(None)
        imported, warm = _first_fight(None)
        return [
            Row("numba import (a crowd's first fight in a process)", imported, "s"),
            Row("first round of 300 v 300, code loaded from the cache", warm, "s"),
        ]
    with tempfile.TemporaryDirectory() as cache:
        imported, cold = _first_fight(cache)
        _, warm = min(_first_fight(cache) for _ in range(2))
    return [
        Row("numba import (a crowd's first fight in a process)", imported, "s"),
        Row("compiling the crowd code (cold cache, once per install)", cold - warm, "s"),
        Row("first round of 300 v 300, code loaded from the cache", warm, "s"),
    ]


BENCHMARKS = [bench_compile]
