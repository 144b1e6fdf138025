"""A pytest-xdist worker that winds down slowly is not interrupted (tests/conftest.py).

Told to exit, execnet gives a worker's pytest 5 s and then sends the worker's own process
a SIGINT. ``make test CI=true`` on a loaded machine once printed the KeyboardInterrupt it
raised in Hypothesis's gc callback, during the worker's final ``gc.collect()``.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).parents[1]

WINDING_DOWN = """
import os
import signal
import time
from pathlib import Path


def pytest_unconfigure(config):
    if not hasattr(config, "workerinput"):
        return
    said = Path(os.environ["WINDING_DOWN_SAID"])
    try:
        os.kill(os.getpid(), signal.SIGINT)  # what execnet sends once its 5 s are up
        time.sleep(0.5)
    except KeyboardInterrupt:
        said.write_text("interrupted")
    else:
        said.write_text("wound down")
"""


INTERRUPTIBLE = """
import os
import signal


def test_one():
    # played in an xdist worker, where Ctrl-C still interrupts a test (ignored only after)
    assert os.environ["PYTEST_XDIST_WORKER"] == "gw0"
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
"""


def _sigint_as_at_a_terminal() -> None:
    """SIGINT's default action in the child, as a run started at a terminal has it: one
    started in the background of a script inherits SIGINT ignored (a shell does that to
    its background jobs), and Python then leaves it ignored, with no KeyboardInterrupt
    to guard against and none of the checks below able to fail."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_a_worker_done_with_its_tests_winds_down_through_execnets_sigint(
    tmp_path: Path,
) -> None:
    """A worker whose tests are done gets a SIGINT while it winds down (sent by itself
    at once here, by execnet after 5 s in a real run): it winds down uninterrupted, and
    the run passes; while its test ran, SIGINT still interrupted (the test checks)."""
    (tmp_path / "winding_down.py").write_text(WINDING_DOWN)
    (tmp_path / "test_one.py").write_text(INTERRUPTIBLE)
    said = tmp_path / "said.txt"
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(REPO), str(tmp_path)]),
        "WINDING_DOWN_SAID": str(said),
    }
    env.pop("PYTEST_XDIST_WORKER", None)
    env.pop("PYTEST_ADDOPTS", None)
    plugins = ["-p", "tests.conftest", "-p", "winding_down", "-p", "no:cacheprovider"]
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-n", "1", *plugins, "test_one.py"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        preexec_fn=_sigint_as_at_a_terminal,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "1 passed" in run.stdout
    assert said.read_text() == "wound down"
    assert "KeyboardInterrupt" not in run.stderr + run.stdout
