"""The Mesa side of a battle: Mesa's own generators, re-seeded on reset, and disposal.

:class:`~fadad_agents.engine.core.battle.Battle` is a ``mesa.Model``. Game dice never use
Mesa's generators (named streams do, DESIGN.md Randomness), but a policy may read
``model.random`` or ``model.rng``, so a reset battle re-seeds them exactly as
``Model(rng=seed)`` seeds them. Mesa's numpy Generator is made only when read: making
one (SeedSequence, PCG64) cost a third of a small battle's reset.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import mesa
import numpy as np

__all__ = ["MesaModel"]


class _SeededOnUse(random.Random):
    """Mesa's ``random.Random``, re-seeded on a reset only when next used (seeding a
    Mersenne Twister costs microseconds, and a battle's dice never use it): every
    draw, state read or state change first seeds it as ``seed`` would have."""

    _later: int | None = None

    def seed_later(self, seed: int) -> None:
        """What ``seed(seed)`` does, done on next use (its cached Gaussian goes now)."""
        self._later = seed
        self.gauss_next = None

    def _settle(self) -> None:
        later, self._later = self._later, None
        if later is not None:
            super().seed(later)

    def seed(self, a: Any = None, version: int = 2) -> None:
        self._later = None
        super().seed(a, version)

    def random(self) -> float:
        self._settle()
        return super().random()

    def getrandbits(self, k: int) -> int:
        self._settle()
        return super().getrandbits(k)

    def getstate(self) -> tuple[Any, ...]:
        self._settle()
        return super().getstate()

    def setstate(self, state: tuple[Any, ...]) -> None:
        self._later = None
        super().setstate(state)


class MesaModel(mesa.Model):  # type: ignore[misc]
    """``mesa.Model`` with its generators on demand, a re-seed, and a dispose."""

    seed: int
    running: bool
    # Mesa's numpy Generator (``Model.rng``) and its starting state (``Model._rng``, what
    # ``reset_rng()`` returns to): set by Mesa's own __init__ and reset_rng through the
    # properties below; None after reseed_mesa until first read.
    _numpy_rng: np.random.Generator | None
    _numpy_rng_start: Mapping[str, Any] | None
    _python_rng: _SeededOnUse

    @property
    def random(self) -> random.Random:
        """Mesa's ``random.Random`` (not used for game dice; seeded on first use)."""
        return self._python_rng

    @random.setter
    def random(self, value: random.Random) -> None:
        # Mesa's __init__ sets a seeded random.Random: the same generator, seeded on use
        # from now on (the subclass adds no fields, so its class can change).
        if type(value) is random.Random:
            value.__class__ = _SeededOnUse
        self._python_rng = value  # type: ignore[assignment]

    @property
    def rng(self) -> np.random.Generator:
        """Mesa's numpy generator (not used for game dice; made on first use)."""
        if self._numpy_rng is None:
            self._numpy_rng = np.random.default_rng(self.seed)
            self._numpy_rng_start = self._numpy_rng.bit_generator.state
        return self._numpy_rng

    @rng.setter
    def rng(self, value: np.random.Generator) -> None:
        self._numpy_rng = value

    @property
    def _rng(self) -> Mapping[str, Any]:
        if self._numpy_rng_start is None:
            self._numpy_rng_start = self.rng.bit_generator.state
        return self._numpy_rng_start

    @_rng.setter
    def _rng(self, value: Mapping[str, Any]) -> None:
        self._numpy_rng_start = value

    def reseed_mesa(self, seed: int) -> None:
        """Mesa's generators as ``Model(rng=seed)`` seeds them (``self.seed`` is ``seed``):
        its Random in place (its agent sets hold it), its numpy Generator when first read."""
        self._python_rng.seed_later(seed)
        self._seed = seed
        self._numpy_rng = self._numpy_rng_start = None
        running, self.running = self.running, False  # Mesa's scenario takes a new rng
        self.scenario.rng = seed  # only between runs
        self.running = running

    def dispose(self) -> None:
        """Break the battle's reference cycles once its result is taken; the battle is
        unusable afterwards.

        A battle is cyclic (agents and model, bands and members, processes and the clock,
        Mesa's bound methods), so dropping it leaves hundreds of objects for the cyclic
        garbage collector, which costs a small battle about as much as its set-up.
        Released, it is freed at once by reference counting. For callers that keep only
        the result (``run``, sweeps); the log and round data the result holds are acyclic
        and untouched. A second call does nothing.
        """
        state = self.__dict__
        for side in state.get("sides", ()):
            for member in side.members:
                member.band.members.clear()
                member.processes.clear()
                member.memory.clear()
                member.target = None
        env = state.get("env")
        if env is not None:
            env.__dict__.clear()
        state.clear()
