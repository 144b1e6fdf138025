"""``make bench`` plays each benchmark in a process of its own (``benchmarks.__main__``):
no benchmark reads the heap, the garbage or the caches another one left."""

from __future__ import annotations

import gc
import os

import pytest

from benchmarks.__main__ import own_process
from benchmarks.harness import Row

HERE = "tests.interfaces.test_bench_processes"


def _about_its_process() -> list[Row]:
    """A benchmark reporting its process and how many objects its collector tracks."""
    return [
        Row("pid", os.getpid(), ""),
        Row("objects", len(gc.get_objects()), "", "any", True),
    ]


def _failing() -> list[Row]:
    raise ValueError("this benchmark fails")


def test_each_benchmark_plays_in_a_new_process_without_what_this_one_holds() -> None:
    held = [[i] for i in range(200_000)]  # what earlier benchmarks left, say
    tracked_here = len(gc.get_objects())
    first, second = (
        own_process(f"{HERE}:_about_its_process"),
        own_process(f"{HERE}:_about_its_process"),
    )
    pids = {os.getpid(), first[0].value, second[0].value}
    assert len(pids) == 3  # this process and two new ones, one a benchmark
    for rows in (first, second):
        assert rows[1] == Row("objects", rows[1].value, "", "any", True)  # rows come back whole
        assert rows[1].value < tracked_here - len(held)
    del held


def test_a_failing_benchmark_stops_the_run_naming_it(capfd: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(RuntimeError, match=f"benchmark {HERE}:_failing failed"):
        own_process(f"{HERE}:_failing")
    assert "ValueError: this benchmark fails" in capfd.readouterr().err
