"""One case whose peak resident memory :func:`benchmarks.harness.peak_rss_mb` measures.

``python -m benchmarks.rss CASE [ARG]`` runs the case in this fresh process and prints
its peak RSS in MiB (``VmHWM``): the interpreter and every import included, as a
user's process would hold them.

Cases:
    imports: import the engine and the sweeps, nothing else (the floor).
    fight AGENTS: build a melee of AGENTS characters (two bands in ranks) and play 3
        rounds.
    sweep RUNS: a serial sweep of RUNS replicates of the personal duel, rows kept, its
        compiled code loaded first (a long sweep of it loads numba after its first
        battle, a short one never: loaded in every process, sweeps of any length compare
        like with like).
    run NAME: one battle of ``scenarios/NAME.yaml`` to its end.
"""

from __future__ import annotations

import sys


def main(argv: list[str]) -> int:
    from benchmarks.harness import BIG, own_peak_rss_mb
    from fadad_agents.analysis import sweep
    from fadad_agents.engine import build_battle, load, run

    case = argv[1]
    if case == "fight":
        from benchmarks.bench_engine import _melee_yaml

        agents = int(argv[2])
        battle = build_battle(load(_melee_yaml(agents // 2, bands=True), BIG), seed=4)
        for _ in range(3):
            battle.play_round()
    elif case == "sweep":
        from fadad_agents.agents.core.field import compiled

        compiled.load()
        result = sweep("scenarios/snorri-vs-brynhild.yaml", int(argv[2]), 1, progress=False)
        assert len(result.frame) == int(argv[2])
    elif case == "run":
        run(f"scenarios/{argv[2]}.yaml", seed=1, collect=False)
    elif case != "imports":
        raise SystemExit(f"unknown case {case!r} (imports, fight AGENTS, sweep RUNS, run NAME)")
    print(f"{own_peak_rss_mb():.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
