"""Settings for the whole test suite.

Hypothesis runs without its per-example deadline: the standard keeps speed in
``benchmarks/``, never in timed asserts, and on a loaded machine (several test runs on two
cores) a 200 ms deadline fails property tests at random. A test that needs a hang guard
sets its own deadline.

Under ``CI=true`` (``.ci/run``) Hypothesis draws its examples from a fixed seed, so a clean
clone tests the same examples on every run, as Hypothesis's documentation advises for CI;
everywhere else each run explores new examples (and keeps any failure it finds in
``.hypothesis/`` to replay first).
"""

import os
import signal
from collections.abc import Generator

import pytest
from hypothesis import settings

settings.register_profile("fadad", deadline=None)
settings.register_profile("ci", deadline=None, derandomize=True)
settings.load_profile("ci" if os.environ.get("CI", "").lower() in {"1", "true"} else "fadad")


@pytest.hookimpl(wrapper=True, trylast=True)
def pytest_sessionfinish(session: pytest.Session) -> Generator[None]:
    """An xdist worker ignores SIGINT from the moment its tests, fixtures included, are
    done, before it sends its results: then told to exit, execnet gives the worker's pytest
    5 s to wind down and else sends its own process a SIGINT (``os.kill(os.getpid(), 2)``,
    ``WorkerGateway._terminate_execution``). On a loaded machine winding down (the
    ``gc.collect()`` of pytest's unraisable-exception check, Hypothesis's gc callback
    timing it) took longer, and a KeyboardInterrupt was raised wherever the worker then
    was (seen in ``make test CI=true``: in Hypothesis's gc callback). Ignored, the
    worker ends its wind-down; execnet still ends it 10 s later (``os._exit``) and the
    controller kills it 10 s after asking, so nothing hangs on it."""
    result = yield
    if hasattr(session.config, "workerinput"):
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    return result
