"""A loop or a sweep of crowd-less field battles in this fresh process, timed by
:func:`benchmarks.bench_engine.bench_fresh_loop`.

``python -m benchmarks.fresh RUNS LOAD [sweep]`` plays RUNS battles of two bands of 100
formed up in ranks, with ``agents.core.field.compiled.LOAD_WHEN_PAID`` set to LOAD
(``on``/``off``): seeds 0 to RUNS - 1, each built and played to its end, as a ``run()``
loop does, printing the loop's CPU seconds, its agent-rounds and the battle during which
numba was loaded (-1: never); with ``sweep``, a serial ``sweep()`` of RUNS from seed 0,
printing its CPU seconds and whether numba was loaded. Nothing else loads numba: no band
reaches a crowd's 256.
"""

from __future__ import annotations

import sys
import time


def main(argv: list[str]) -> int:
    from benchmarks.bench_engine import _melee_yaml
    from benchmarks.harness import BIG
    from fadad_agents.agents.core.field import compiled
    from fadad_agents.engine import build_battle, load

    runs, when_paid = int(argv[1]), argv[2] == "on"
    compiled.LOAD_WHEN_PAID = when_paid
    if argv[3:] == ["sweep"]:
        return _sweep(runs, _melee_yaml(100, bands=True))
    scenario = load(_melee_yaml(100, bands=True), BIG)
    acted, loaded_in = 0, -1
    start = time.process_time()
    for seed in range(runs):
        battle = build_battle(scenario, seed=seed)
        while not battle.finished:
            acted += sum(len(side.active) for side in battle.sides)
            battle.play_round()
        if loaded_in < 0 and "numba" in sys.modules:
            loaded_in = seed
    print(time.process_time() - start, acted, loaded_in)
    return 0


def _sweep(runs: int, text: str) -> int:
    import tempfile
    from pathlib import Path

    from fadad_agents.analysis import sweep

    with tempfile.TemporaryDirectory(prefix="fadad-bench-") as folder:
        path = Path(folder) / "fight.yaml"
        path.write_text(text, encoding="utf-8")
        start = time.process_time()
        assert len(sweep(path, runs, 0, progress=False).frame) == runs
        print(time.process_time() - start, "numba" in sys.modules)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
