"""Small helpers shared by the benchmarks: timing, peak memory and the results table.

Figures are measured, never estimated. On the shared 2-core machines here other work
only ever slows a run down, so a rate is the best of several passes (as ``timeit``
takes the best repeat), and single-process rates are CPU time of this process (less
disturbed by neighbours than the wall clock; a target that says "wall clock" is timed
on the wall clock). :data:`QUICK` (``python -m benchmarks --quick``) takes fewer and
smaller passes.
"""

from __future__ import annotations

import os
import platform
import resource
import subprocess
import sys
import sysconfig
import time
from collections.abc import Callable
from dataclasses import dataclass, fields, replace
from pathlib import Path

from fadad_agents.schema.limits import DEFAULT_LIMITS, Limits

__all__ = [
    "BIG",
    "QUICK",
    "Row",
    "best_cpu",
    "fresh_processes",
    "load_note",
    "machine_note",
    "peak_rss_mb",
    "print_table",
    "quick",
]

QUICK = False
"""Set by ``--quick``: fewer passes and smaller sweeps (``make bench-quick``)."""


BIG: Limits = replace(
    DEFAULT_LIMITS,
    **{f.name: 10**9 for f in fields(Limits) if f.name not in ("file_bytes", "seconds")},
)
"""The benchmarks' largest battles are past the default limits, knowingly."""


def quick[T](full: T, short: T) -> T:
    """``short`` under ``--quick``, else ``full``."""
    return short if QUICK else full


@dataclass(frozen=True, slots=True)
class Row:
    """One measured figure, with the target it is held against (if any)."""

    name: str
    value: float
    unit: str
    target: str = ""
    ok: bool | None = None


def fresh_processes[F: Callable[[], list["Row"]]](bench: F) -> F:
    """Mark a benchmark that measures only fresh processes of its own (their peak memory,
    or CPU time each reads of itself): ``python -m benchmarks`` runs these two at a time,
    after the benchmarks timed in its own process, so that none of them shares a core with
    a CPU-timed figure."""
    bench.fresh = True  # type: ignore[attr-defined]
    return bench


def best_cpu(fn: Callable[[], object], repeat: int) -> float:
    """The least CPU time of this process, in seconds, that ``fn()`` took in ``repeat``
    calls (after none: warm it up first)."""
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        fn()
        best = min(best, time.process_time() - start)
    return best


ROOT = Path(__file__).resolve().parents[1]


def peak_rss_mb(*case: str) -> float:
    """Peak resident memory, in MiB, of a fresh Python process that imports what ``case``
    needs and runs it (``python -m benchmarks.rss CASE ...``): the whole process, the
    interpreter and every import included."""
    done = subprocess.run(
        [sys.executable, "-m", "benchmarks.rss", *case],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    return float(done.stdout.split()[-1])


def own_peak_rss_mb() -> float:
    """This process's peak resident memory so far, in MiB.

    Linux's ``VmHWM``: the peak of this program alone. ``ru_maxrss`` would not do in a
    process started by another: Linux carries it across ``exec``, so a child of a
    300 MiB benchmark run reports at least 300 MiB whatever it holds itself."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024  # kB
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux


def load_note() -> str:
    """The machine's load as the benchmarks saw it (1-minute load average, CPUs)."""
    one, _, _ = os.getloadavg()
    return f"load average {one:.1f} on {os.cpu_count()} CPUs"


def machine_note() -> str:
    """What read the figures: the interpreter, the flags it was built with that speed it
    up (PGO, LTO; a build that records neither may still have had them, as Debian's does
    not record its own) and the processor. Python 3.13.5 built here with PGO and LTO ran
    a pure-Python loop 28% quicker than pyenv's 3.13.0, and the engine within 10% of
    pyenv's 3.12.1 (2026-12-05): rows from two machines are compared knowing both."""
    flags = (
        f"{sysconfig.get_config_var('CONFIG_ARGS')} {sysconfig.get_config_var('PY_CFLAGS_NODIST')}"
    )
    built = [
        name
        for name, flag in (("PGO", "--enable-optimizations"), ("LTO", "-flto"))
        if flag in flags
    ]
    build = " and ".join(built) + " recorded" if built else "no PGO or LTO recorded"
    return (
        f"{platform.python_implementation()} {platform.python_version()} ({build}) "
        f"on {_processor()}"
    )


def _processor() -> str:
    """The processor's model name (Linux's ``/proc/cpuinfo``), else what ``platform`` says."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            for line in info:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "an unknown processor"


def print_table(rows: list[Row]) -> None:
    """Print the rows as an aligned table."""
    header = ("benchmark", "value", "unit", "target", "met")
    body = [
        (
            r.name,
            f"{r.value:,.3f}" if abs(r.value) < 100 else f"{r.value:,.0f}",
            r.unit,
            r.target,
            "" if r.ok is None else ("yes" if r.ok else "NO"),
        )
        for r in rows
    ]
    widths = [max(len(str(c)) for c in col) for col in zip(header, *body, strict=False)]
    for line in (header, tuple("-" * w for w in widths), *body):
        print("  ".join(str(c).ljust(w) for c, w in zip(line, widths, strict=True)))
