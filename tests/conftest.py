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

from hypothesis import settings

settings.register_profile("fadad", deadline=None)
settings.register_profile("ci", deadline=None, derandomize=True)
settings.load_profile("ci" if os.environ.get("CI", "").lower() in {"1", "true"} else "fadad")
