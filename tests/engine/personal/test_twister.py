"""The compiled Mersenne Twister against CPython's own ``random.Random``, the oracle.

Seeded states word for word, draws exactly (``==``, never approximately) across many
twists, streams handed mid-way from Python to compiled code and back, and 4dF rolls.
"""

from __future__ import annotations

import random
from math import floor

import numpy as np
import pytest
from numba import njit

from fadad_agents.engine.personal import twister
from fadad_agents.rules.core.dice import TABLE_4DF

_EDGE_SEEDS = [0, 1, -5, 2**32 - 1, 2**32, 2**64 + 12345, 2**127 + 3, 2**192 - 1]
_DRAWS = 5_000  # 10,000 words: 16 twists
_TABLE = np.array(TABLE_4DF, dtype=np.int64)


def _seeded(n: int) -> np.ndarray:
    streams = np.zeros((1, twister.N + 1), dtype=np.uint32)
    twister.seed(streams, [n])
    return streams[0]


def _state_of(rng: random.Random) -> np.ndarray:
    """A Python stream's state as a compiled stream: ``getstate()[1]``, the same layout."""
    return np.fromiter(rng.getstate()[1], dtype=np.uint32, count=twister.N + 1)


def _set_state(rng: random.Random, state: np.ndarray) -> None:
    """Put a compiled stream's state into ``rng`` (its ``gauss_next`` kept)."""
    version, _, gauss_next = rng.getstate()
    rng.setstate((version, tuple(state.tolist()), gauss_next))


@njit
def _genrand_uint32(state: np.ndarray) -> int:
    """The stream's next 32-bit word: the twister's own, inlined into this oracle."""
    return twister._word(state)


def _words(state: np.ndarray) -> list[int]:
    return [int(word) for word in state]


@pytest.mark.parametrize("n", _EDGE_SEEDS)
def test_seeded_state_equals_cpython(n: int) -> None:
    assert _words(_seeded(n)) == list(random.Random(n).getstate()[1])


def test_seeded_state_equals_cpython_for_random_128_bit_seeds() -> None:
    picker = random.Random(20240601)
    for _ in range(200):
        n = picker.getrandbits(128)
        assert _words(_seeded(n)) == list(random.Random(n).getstate()[1]), n


@pytest.mark.parametrize("n", [0, 1, 2**32 - 1, 2**127 + 3, 987654321987654321])
def test_draws_equal_cpython_across_twists(n: int) -> None:
    state = _seeded(n)
    oracle = random.Random(n)
    for draw in range(_DRAWS):
        assert twister.random(state) == oracle.random(), (n, draw)
    assert _words(state) == list(oracle.getstate()[1])


@njit
def _draw_in_compiled_loop(state: np.ndarray, table: np.ndarray, out: np.ndarray) -> None:
    for i in range(0, out.shape[0], 2):
        out[i] = twister.random(state)
        out[i + 1] = twister.roll_4df(state, table)


def test_draws_from_a_compiled_caller_equal_cpython() -> None:
    """Called from another compiled function (the melee's way), not through the dispatcher."""
    state = _seeded(2**64 + 12345)
    oracle = random.Random(2**64 + 12345)
    out = np.zeros(3_000, dtype=np.float64)
    _draw_in_compiled_loop(state, _TABLE, out)
    for i in range(0, out.shape[0], 2):
        assert out[i] == oracle.random()
        assert out[i + 1] == TABLE_4DF[floor(oracle.random() * 81.0)]
    assert _words(state) == list(oracle.getstate()[1])


def test_words_equal_cpython_getrandbits_32() -> None:
    state = _seeded(42)
    oracle = random.Random(42)
    assert [_genrand_uint32(state) for _ in range(2_000)] == [
        oracle.getrandbits(32) for _ in range(2_000)
    ]


@pytest.mark.parametrize("words", [True, False])
@pytest.mark.parametrize("k", [0, 1, 311, 312, 623, 624, 1000])
def test_streams_hand_over_both_ways_mid_stream(k: int, words: bool) -> None:
    """Python draws ``k`` times, compiled code continues, then Python continues again.

    A draw is one word (``getrandbits(32)``: the index lands odd or even, so a compiled
    ``random()`` may straddle a twist) or two (``random()``).
    """
    python = random.Random(2**100 + k)
    for _ in range(k):
        python.getrandbits(32) if words else python.random()
    oracle = random.Random()
    oracle.setstate(python.getstate())
    state = _state_of(python)
    assert state.dtype == np.uint32
    assert state.shape == (twister.N + 1,)
    assert int(state[twister.N]) == python.getstate()[1][twister.N]
    for _ in range(700):
        assert twister.random(state) == oracle.random()
    _set_state(python, state)
    assert python.getstate() == oracle.getstate()
    for _ in range(700):
        assert python.random() == oracle.random()


def test_roll_4df_equals_the_python_roll() -> None:
    state = _seeded(2**127 + 3)
    oracle = random.Random(2**127 + 3)
    rolls = [twister.roll_4df(state, _TABLE) for _ in range(10_000)]
    assert rolls == [TABLE_4DF[floor(oracle.random() * 81.0)] for _ in range(10_000)]
    assert set(rolls) == set(range(-4, 5))


def test_truncation_is_floor_at_the_edges() -> None:
    """``int`` (compiled) and ``floor`` (Python) agree on the extremes of ``random() * 81``."""
    largest = 1.0 - 2.0**-53
    for x in (0.0, 2.0**-53, 1.0 / 81.0, 80.0 / 81.0, largest):
        assert int(x * 81.0) == floor(x * 81.0)
    assert int(largest * 81.0) == 80


def test_seed_streams_seeds_many_streams_as_random_random_does() -> None:
    """Streams seeded together, keys of one to five words mixed, in any order (more of one
    length than a block seeds at once): each the state ``random.Random(seed)`` holds,
    word for word."""
    rng = random.Random(7)
    seeds = [
        0,
        1,
        2**32,
        2**64 + 5,
        *(rng.getrandbits(rng.choice((32, 96, 128, 160))) for _ in range(100)),
    ]
    streams = np.zeros((len(seeds), twister.N + 1), dtype=np.uint32)
    twister.seed(streams, seeds)
    for stream, seed in zip(streams, seeds, strict=True):
        assert tuple(stream.tolist()) == random.Random(seed).getstate()[1]


@pytest.mark.parametrize("rows", [[0, 1, 6, 7], [3, 4, 5, 6], [8, 2, 0, 5]])
def test_seed_puts_each_stream_in_its_row_and_leaves_the_rest(rows: list[int]) -> None:
    """Streams seeded into rows apart (a battle's named streams: initiative and targeting
    first, morale and movement after its fighters'), side by side or in any order, in one
    call: each the state ``random.Random(seed)`` holds, the other rows untouched."""
    seeds = [2**127 + 3, 5, 2**64 + 12345, 2**32 - 1]
    streams = np.full((9, twister.N + 1), 7, dtype=np.uint32)
    twister.seed(streams, seeds, rows)
    for row, seed in zip(rows, seeds, strict=True):
        assert tuple(streams[row].tolist()) == random.Random(seed).getstate()[1]
    assert (streams[[r for r in range(9) if r not in rows]] == 7).all()


@pytest.mark.parametrize("base", [0, 7 << 32, random.Random(3).getrandbits(128) << 32])
def test_a_block_of_fighters_streams_is_seeded_as_streams_for_index_seeds_them(
    base: int,
) -> None:
    """A fighter's ``melee`` stream seeded as its block first draws (``seed_block``): each
    stream of the block not seeded yet, from the battle's base seed and the fighter's
    index (``Streams.for_index``: ``base | index``, the index taken below ``2**32``), is
    ``random.Random(base | index)``'s; one seeded already, and the next block, untouched."""
    block = twister._AT_ONCE
    indices = [*range(block), 2**32 + 5, *range(block + 1, 2 * block + 8)]
    drawn = block + 4
    words, length = twister.key_words(base)
    keys = np.array([[i & 0xFFFFFFFF, *words, length] for i in indices], dtype=np.int64)
    streams = np.zeros((len(indices), twister.N + 1), dtype=np.uint32)
    streams[drawn, twister.N] = 600  # drawn from already
    streams[drawn, 0] = 99
    twister.seed_block(streams, keys, block + 3)
    for row, index in enumerate(indices):
        if block <= row < 2 * block and row != drawn:
            seeded = random.Random(base | (index & 0xFFFFFFFF)).getstate()[1]
            assert tuple(streams[row].tolist()) == seeded, row
        else:
            assert streams[row, twister.N] == (600 if row == drawn else 0)
    assert streams[drawn, 0] == 99


@pytest.mark.parametrize("fighters", [1, 2, 3, 4, 5, 6])
def test_a_small_block_is_seeded_as_a_big_one(fighters: int) -> None:
    """A block of a few fighters' streams (a duel's, a small party's), seeded side by side
    as a big one: each stream ``random.Random(base | index)``'s, word for word."""
    base = random.Random(11).getrandbits(128) << 32
    words, length = twister.key_words(base)
    keys = np.array([[i, *words, length] for i in range(fighters)], dtype=np.int64)
    streams = np.zeros((fighters, twister.N + 1), dtype=np.uint32)
    twister.seed_block(streams, keys, fighters - 1)
    for row in range(fighters):
        seeded = random.Random(base | row).getstate()[1]
        assert tuple(streams[row].tolist()) == seeded, row


@pytest.mark.parametrize("count", [1, 2, 4, 5, 6])
def test_few_streams_seeded_one_by_one_are_as_side_by_side(count: int) -> None:
    """``seed`` of fewer streams than ``_SIDE_BY_SIDE`` seeds them one by one, of more side
    by side: either way each is ``random.Random(seed)``'s, word for word."""
    seeds = [random.Random(k).getrandbits(127) | 1 << 127 for k in range(count)]  # 4 words
    streams = np.zeros((count, twister.N + 1), dtype=np.uint32)
    twister.seed(streams, seeds)
    for stream, seed in zip(streams, seeds, strict=True):
        assert tuple(stream.tolist()) == random.Random(seed).getstate()[1]
