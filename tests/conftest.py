"""Settings for the whole test suite.

Hypothesis runs without its per-example deadline: the standard keeps speed in
``benchmarks/``, never in timed asserts, and on a loaded machine (several test runs on two
cores) a 200 ms deadline fails property tests at random. A test that needs a hang guard
sets its own deadline.
"""

from hypothesis import settings

settings.register_profile("fadad", deadline=None)
settings.load_profile("fadad")
