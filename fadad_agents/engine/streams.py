"""Random streams of one battle: one ``SeedSequence``, one named stream per subsystem.

DESIGN.md (Randomness): a battle owns one :class:`numpy.random.SeedSequence`; each
subsystem (initiative, melee, morale, ...) draws from its own stream, so two policies
compared on the same seed see the same dice elsewhere (common random numbers).

A stream's seed depends only on the battle seed and the stream's *name* (a CRC-32 of the
name is the spawn key), never on creation order, the process or ``PYTHONHASHSEED``.
Per-agent streams (``melee`` dice of one attacker) add the agent's stable index to the
key, so a morale choice elsewhere cannot shift the dice of an unrelated pair.
"""

from __future__ import annotations

import random
import secrets
import zlib

import numpy as np

__all__ = ["STREAMS", "Streams", "fresh_seed"]

STREAMS: tuple[str, ...] = ("initiative", "melee", "morale", "targeting", "mass", "first_aid")
"""The subsystems with a stream of their own (more may be asked for by name)."""


def fresh_seed() -> int:
    """A new 63-bit battle seed from the OS, for runs given no seed (recorded in results)."""
    return secrets.randbits(63)


def _key(name: str) -> int:
    return zlib.crc32(name.encode("utf-8"))


class Streams:
    """Named ``random.Random`` streams spawned from one battle seed.

    >>> a, b = Streams(7), Streams(7)
    >>> a.get("melee").random() == b.get("melee").random()
    True
    >>> Streams(7).get("melee").random() == Streams(7).get("morale").random()
    False
    """

    __slots__ = ("_cache", "_sub_bases", "seed", "seed_sequence")

    def __init__(self, seed: int) -> None:
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise ValueError(f"a battle seed must be a non-negative integer, got {seed!r}")
        self.seed = seed
        self.seed_sequence = np.random.SeedSequence(seed)
        self._cache: dict[str, random.Random] = {}
        self._sub_bases: dict[str, int] = {}

    def _spawned(self, name: str) -> np.random.SeedSequence:
        root = self.seed_sequence
        return np.random.SeedSequence(root.entropy, spawn_key=(*root.spawn_key, _key(name)))

    def seed_of(self, name: str) -> int:
        """The 128-bit integer seed of stream ``name`` (from the spawned ``generate_state``)."""
        words = self._spawned(name).generate_state(4, np.uint32)
        return int.from_bytes(words.astype("<u4").tobytes(), "little")

    def get(self, name: str) -> random.Random:
        """The stream of subsystem ``name`` (one object per name and battle)."""
        stream = self._cache.get(name)
        if stream is None:
            stream = self._cache[name] = random.Random(self.seed_of(name))
        return stream

    def for_index(self, name: str, index: int) -> random.Random:
        """A fresh stream for member ``index`` of subsystem ``name`` (e.g. one attacker).

        The seed is the subsystem's 128-bit seed with the index appended, so it is fixed by
        (battle seed, name, index) alone; ``random.Random`` scrambles every seed bit.
        """
        base = self._sub_bases.get(name)
        if base is None:
            base = self._sub_bases[name] = self.seed_of(name) << 32
        return random.Random(base | (index & 0xFFFFFFFF))
