"""CPython's ``random.Random`` (the MT19937 Mersenne Twister) in compiled code (numba).

Dice drawn here equal the Python streams' dice: a stream seeded by :func:`seed` from ``n``
is word for word the state of ``random.Random(n)``, and
:func:`random` returns exactly the floats ``random.Random.random`` returns (CPython 3.12,
``Modules/_randommodule.c``: ``init_genrand``, ``init_by_array``, ``genrand_uint32``,
``random_random``). So a battle played in compiled code is the same battle, byte for byte,
as the engine's Python plays on the same seed. The compiled plain melee
(:mod:`fadad_agents.engine.personal`) draws its dice here.

A stream is a 1-D ``np.uint32`` array of 625 words: ``mt[0..623]`` then the index ``mti``
(624 after seeding), the layout of ``random.Random.getstate()[1]`` (the tests hand
streams between Python and compiled code mid-way, either way, through it).

Arithmetic is in int64 masked to 32 bits: every product here (a 32-bit word times a
multiplier below 2**31) stays below 2**63, so no step overflows before its mask.

Each public drawing function is one call with no call inside it: the twist and the
tempering are inlined into it once (``inline="always"`` on the private helpers, numba's own
inlining, compiled and cached once). A compiled function that calls another one numba has
not inlined must assume the call may raise, and then keeps a reference count on the stream
array that it cannot prune: two atomic operations per call, more than the draw itself. So
a ``random()`` called in a compiled loop costs about 6 ns and a 4dF roll about 8, where a
``random()`` that called a compiled word function would cost 10 and a roll calling it 21. (Inlining
the public functions too, at every call site, would save 2 to 4 ns more a draw but
costs numba seconds of compilation per call site.)
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from fadad_agents.agents.core.field.caching import njit

__all__ = ["GENRAND", "N", "key_words", "random", "roll_4df", "seed", "seed_block", "seed_streams"]

N = 624
"""Words of Mersenne Twister state; the stream array holds one more, the index."""

_M = 397
_MASK = 0xFFFFFFFF
_MATRIX_A = 0x9908B0DF
_UPPER = 0x80000000
_LOWER = 0x7FFFFFFF


@njit(cache=True, inline="always")
def _twist_word(state: np.ndarray, kk: int, after: int, far: int) -> None:
    """``mt[kk]`` from its own top bit, the low bits of ``mt[after]`` and ``mt[far]``."""
    y = (np.int64(state[kk]) & _UPPER) | (np.int64(state[after]) & _LOWER)
    mag = _MATRIX_A if y & 1 else 0
    state[kk] = np.int64(state[far]) ^ (y >> 1) ^ mag


@njit(cache=True, inline="always")
def _twist(state: np.ndarray) -> None:
    """Regenerate all 624 words of ``mt[]`` at once and rewind the index to 0.

    CPython's three loops (``kk + M`` wrapping, then ``kk + 1``), without a modulo.
    """
    for kk in range(N - _M):
        _twist_word(state, kk, kk + 1, kk + _M)
    for kk in range(N - _M, N - 1):
        _twist_word(state, kk, kk + 1, kk + _M - N)
    _twist_word(state, N - 1, 0, _M - 1)
    state[N] = 0


@njit(cache=True, inline="always")
def _word(state: np.ndarray) -> int:
    """The next 32-bit word, twisting first when spent (inlined into each public draw)."""
    if state[N] >= N:
        _twist(state)
    index = np.int64(state[N])
    y = np.int64(state[index])
    state[N] = index + 1
    y ^= y >> 11
    y ^= (y << 7) & 0x9D2C5680
    y ^= (y << 15) & 0xEFC60000
    y ^= y >> 18
    return int(y & _MASK)


@njit(cache=True, inline="always")
def _unit(state: np.ndarray) -> float:
    """The next float in [0, 1) from two words, 53 bits (inlined into each public draw)."""
    a = _word(state) >> 5
    b = _word(state) >> 6
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0)


@njit(cache=True)
def random(state: np.ndarray) -> float:
    """The next float in [0, 1), equal to ``random.Random.random()``: two words, 53 bits."""
    return _unit(state)


@njit(cache=True)
def roll_4df(state: np.ndarray, table: np.ndarray) -> int:
    """One 4dF roll: ``table[int(random() * 81.0)]``, ``table`` the 81 totals (``TABLE_4DF``).

    ``int`` truncates toward zero, which is ``floor`` for this never-negative product.
    """
    return int(table[int(_unit(state) * 81.0)])


def _genrand(seed: int) -> np.ndarray:
    """CPython's ``init_genrand(seed)``: the 624 words a seeding by key begins from."""
    words = [seed]
    for i in range(1, N):
        prev = words[-1]
        words.append((1812433253 * (prev ^ (prev >> 30)) + i) & _MASK)
    return np.array(words, dtype=np.uint32)


GENRAND = _genrand(19650218)
"""``init_genrand(19650218)``'s words, where every seeding by key begins, the same for
every seed (:func:`seed_streams` starts each stream from them)."""


def seed(streams: np.ndarray, seeds: Sequence[int], rows: Sequence[int] | None = None) -> None:
    """Seed row ``i`` of ``streams`` (or row ``rows[i]``) as ``random.Random(seeds[i])``
    seeds itself: one compiled call for them all (a battle's named streams are not side by
    side: seeded apart, each call cost a few microseconds more than its work).

    CPython's key is ``abs(seed)`` in little-endian 32-bit words, as many as its bits need
    (at least one); seeds here are below ``2**192`` (six words), as the engine's are.
    """
    if not seeds:
        return
    keys = np.frombuffer(b"".join(abs(s).to_bytes(24, "little") for s in seeds), np.uint32)
    lengths = np.array([(abs(s).bit_length() + 31) >> 5 or 1 for s in seeds], dtype=np.int64)
    if rows is not None and list(rows) == list(range(rows[0], rows[0] + len(seeds))):
        streams, rows = streams[rows[0] : rows[0] + len(seeds)], None  # side by side
    if rows is None:
        seed_streams(streams, keys.reshape(-1, 6), lengths, GENRAND)
        return
    seeded = np.empty((len(seeds), N + 1), dtype=np.uint32)
    seed_streams(seeded, keys.reshape(-1, 6), lengths, GENRAND)
    streams[list(rows)] = seeded


def key_words(base: int) -> tuple[list[int], int]:
    """The key of ``random.Random(base | index)`` but its first word (the index's: ``base``
    a multiple of ``2**32`` below ``2**192``, the index below ``2**32``), and how many
    words it has (each fighter's ``melee`` stream: ``Streams.for_index``)."""
    return [(base >> (32 * j)) & _MASK for j in range(1, 6)], (base.bit_length() + 31) >> 5 or 1


@njit(cache=True)
def seed_block(streams: np.ndarray, keys: np.ndarray, i: int) -> None:
    """Seed the streams of ``i``'s block of :data:`_AT_ONCE` not seeded yet (a stream's
    index 0: one at rest is at 1 to 624), together, each from its key row of ``keys``
    (its six words, then how many are used): a battle's fighters' streams seeded as a
    block of them first draws (most of a big battle's never do in its first rounds)."""
    first = i - i % _AT_ONCE
    rows = np.empty(_AT_ONCE, dtype=np.int64)
    m = 0
    for r in range(first, min(first + _AT_ONCE, streams.shape[0])):
        if streams[r, N] == 0:
            rows[m] = r
            m += 1
    length = int(keys[i, 6])
    if m < _SIDE_BY_SIDE:  # a duel's two, say: one by one (side by side, as many as 32)
        for g in range(m):
            _seed_one(streams[rows[g]], keys[rows[g]], length, GENRAND)
        return
    _seed_alike(streams, keys, rows[:m], length, GENRAND)


@njit(cache=True)
def seed_streams(
    streams: np.ndarray, keys: np.ndarray, lengths: np.ndarray, genrand: np.ndarray
) -> None:
    """Seed each row of ``streams`` as ``random.Random`` seeds from its key (``keys``' row,
    its first ``lengths`` words), CPython's ``init_by_array``: the streams whose keys are
    as long :data:`_AT_ONCE` at a time, step by step (each stream's steps depend on the
    one before; the streams' do not: the processor does a few at once), from
    ``genrand``, ``init_genrand(19650218)``'s words (:data:`GENRAND`)."""
    for length in range(1, keys.shape[1] + 1):
        rows = np.flatnonzero(lengths == length)
        if rows.shape[0] < _SIDE_BY_SIDE:  # a few one by one (as seed_block seeds them)
            for row in rows:
                _seed_one(streams[row], keys[row], length, genrand)
            continue
        for at in range(0, rows.shape[0], _AT_ONCE):
            _seed_alike(streams, keys, rows[at : at + _AT_ONCE], length, genrand)


_AT_ONCE = 32
"""Streams seeded at once (:func:`seed_streams`, :func:`seed_block`): their 624 words
each (``32 * 624 * 4`` bytes) stay in the processor's cache from step to step, and its
vector instructions step them together, four vectors of eight a step (2026-12-07, best of
7 x 128 calls: 0.48 us a stream, 0.92 sixteen at a time; fewer than
:data:`_SIDE_BY_SIDE` go one by one)."""

_TILE = 16
"""Words of a stream written at a time from the lanes (:func:`_seed_alike`): 624 is 39 of
them."""


@njit(cache=True)
def _seed_alike(
    streams: np.ndarray, keys: np.ndarray, rows: np.ndarray, length: int, genrand: np.ndarray
) -> None:
    """:func:`seed_streams` of ``rows`` (at most :data:`_AT_ONCE`), whose keys are ``length``
    words long: in 32-bit words, whose products and sums wrap as C's ``uint32_t`` do.

    Always :data:`_AT_ONCE` lanes (a loop of a constant count is vector instructions end
    to end; one of ``len(rows)`` steps ran its ends one by one), those past ``rows``
    stepped on the first one's key and not written. The first loop's first pass reads
    ``genrand``'s word where later passes read the lanes' (no copy of it into each
    lane); the lanes go out ``_TILE`` words of a stream at a time (a word of every
    stream at a time wrote as many rows at once, a stream at a time read its words a
    lane's width apart: 10 and 15 us against 5 for 32 streams)."""
    m = rows.shape[0]
    w = np.empty((N, _AT_ONCE), dtype=np.uint32)  # step i's words of the streams side by side
    key = np.empty((length, _AT_ONCE), dtype=np.uint32)
    for g in range(_AT_ONCE):
        row = rows[g] if g < m else rows[0]
        for j in range(length):
            key[j, g] = np.uint32(keys[row, j] + j)
        w[0, g] = genrand[0]
    j = 0
    for i in range(1, N):  # init_by_array's first loop: max(624, key length) = 624 steps,
        word = np.uint32(genrand[i])  # its first 623 from genrand's words
        for g in range(_AT_ONCE):  # (indexed, not through views of rows: a view counts
            prev = w[i - 1, g]  # references)
            mixed = np.uint32((prev ^ (prev >> np.uint32(30))) * np.uint32(1664525))
            w[i, g] = (word ^ mixed) + key[j, g]
        j += 1
        if j >= length:
            j = 0
    for g in range(_AT_ONCE):  # its last step: from the top, at word 1
        w[0, g] = w[N - 1, g]
        prev = w[0, g]
        mixed = np.uint32((prev ^ (prev >> np.uint32(30))) * np.uint32(1664525))
        w[1, g] = (w[1, g] ^ mixed) + key[j, g]
    i = 2
    for _ in range(N - 1):  # the second loop
        step = np.uint32(i)
        for g in range(_AT_ONCE):
            prev = w[i - 1, g]
            mixed = np.uint32((prev ^ (prev >> np.uint32(30))) * np.uint32(1566083941))
            w[i, g] = (w[i, g] ^ mixed) - step
        i += 1
        if i >= N:
            for g in range(_AT_ONCE):
                w[0, g] = w[N - 1, g]
            i = 1
    for first in range(0, N, _TILE):
        for g in range(m):
            r = rows[g]
            for k in range(first, first + _TILE):
                streams[r, k] = w[k, g]
    for g in range(m):
        streams[rows[g], 0] = 0x80000000
        streams[rows[g], N] = N


_SIDE_BY_SIDE = 3
"""The fewest streams :func:`seed_streams` and :func:`seed_block` seed side by side: fewer
are quicker one by one, each step's word carried in a register (2026-12-07, best of 9 x 300
calls, :data:`_AT_ONCE` lanes side by side whatever the count: two streams 5.6 us one by
one against 8.3 side by side, three 8.3 either way, four 11.0 against 8.6, eight 21.8
against 9.2)."""


@njit(cache=True)
def _seed_one(stream: np.ndarray, key: np.ndarray, length: int, genrand: np.ndarray) -> None:
    """``init_by_array`` into one ``stream`` from the first ``length`` words of ``key``:
    each step's word carried to the next in a register (side by side, a step reads the
    word the last one wrote to memory)."""
    for k in range(N):
        stream[k] = genrand[k]
    i, j = 1, 0
    prev = np.uint32(stream[0])
    for _ in range(N):
        mixed = np.uint32((prev ^ (prev >> np.uint32(30))) * np.uint32(1664525))
        prev = np.uint32((stream[i] ^ mixed) + np.uint32(key[j] + j))
        stream[i] = prev
        i += 1
        j += 1
        if j >= length:
            j = 0
        if i >= N:
            stream[0] = stream[N - 1]
            i = 1
    for _ in range(N - 1):
        mixed = np.uint32((prev ^ (prev >> np.uint32(30))) * np.uint32(1566083941))
        prev = np.uint32((stream[i] ^ mixed) - np.uint32(i))
        stream[i] = prev
        i += 1
        if i >= N:
            stream[0] = stream[N - 1]
            i = 1
    stream[0] = 0x80000000
    stream[N] = N
