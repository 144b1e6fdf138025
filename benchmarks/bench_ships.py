"""Ship benchmarks (issues 5 and 19): the odds a GM asks for, through a serial ``sweep``.

* the ship duel (SJ, 6-s rounds): at least 1,000 battles a second;
* the 3 v 3 fleet action (FADAD): at least 100 battles a second;
* 1,000 boarding actions: no slower than before issue 19 (:data:`BOARDING_BEFORE`).

Each figure is the CPU time of this process for the whole sweep (its fixed cost
included), the best of three passes for the duel and two for the fleet action: a pass
of a second is easily slowed 5-10% by the neighbours of a shared machine, and the best
of three reads the code rather than the load (``--quick``: one pass, of sweeps as long:
the rate of a ship sweep grows with its length, as the engine remembers the ship states
it has worked out, so a shorter sweep would read slower against the same target; the
boarding actions alone are a shorter sweep, 200, far inside their target).

Run with ``python -m benchmarks ships``.
"""

from __future__ import annotations

from benchmarks.harness import Row, best_cpu, fresh_processes, peak_rss_mb, quick
from fadad_agents.analysis import sweep

__all__ = ["BENCHMARKS"]

SCENARIOS = "scenarios"
BOARDING_BEFORE = 3.9
"""CPU seconds of 1,000 boarding actions before issue 19's work: this benchmark on commit
c451105, on a busy machine (load average 7.5 on 2 CPUs)."""


def _sweep_cpu(name: str, runs: int, passes: int) -> tuple[float, float]:
    """Best CPU seconds of a serial sweep of ``runs`` battles, and its mean rounds.

    Each pass sweeps from its own root seed: a pass never replays the battles of another
    (the ship engine remembers what it worked out for ship states seen before, and a
    replayed sweep would find all of them)."""
    path = f"{SCENARIOS}/{name}.yaml"
    rounds: list[float] = []
    seeds = iter(range(1, passes + 1))

    def play() -> None:
        frame = sweep(path, runs, next(seeds), progress=False).frame
        rounds.append(float(frame["rounds"].mean()))

    sweep(path, 2, 0, progress=False)  # warm-up: the scenario, its plans, imports
    return best_cpu(play, passes), rounds[-1]


def bench_ship_odds() -> list[Row]:
    """Ship duel and fleet action battles per second, 1,000 boarding actions in seconds."""
    rows = []
    for name, runs, target, passes in (
        ("ship-duel", 1_000, 1000, 3),
        ("fleet-action", 100, 100, 2),
    ):
        seconds, rounds = _sweep_cpu(name, runs, quick(passes, 1))
        rate = runs / seconds
        rows.append(
            Row(
                f"ships: {name} sweep x{runs:,}",
                rate,
                "battles/s",
                f">= {target:,}",
                rate >= target,
            )
        )
        rows.append(Row(f"ships: {name} mean ship rounds", rounds, "rounds"))
    runs = quick(1_000, 200)
    seconds, rounds = _sweep_cpu("boarding-action", runs, 1)
    per_thousand = seconds * 1000 / runs
    rows += [
        Row(
            f"ships: 1,000 boarding actions{'' if runs == 1000 else ' (from 200)'}",
            per_thousand,
            "s CPU",
            f"<= {BOARDING_BEFORE:.1f}",
            per_thousand <= BOARDING_BEFORE,
        ),
        Row("ships: boarding action mean ship rounds", rounds, "rounds"),
    ]
    return rows


@fresh_processes
def bench_memory() -> list[Row]:
    """Peak resident memory of a whole process that plays one fleet action to its end."""
    return [Row("ships: fleet action, peak RSS", peak_rss_mb("run", "fleet-action"), "MiB")]


BENCHMARKS = [bench_ship_odds, bench_memory]
