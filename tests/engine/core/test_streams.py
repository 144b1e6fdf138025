"""Stream seeds: the plain-integer derivation equals numpy's SeedSequence spawn."""

import zlib

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from fadad_agents.engine.core import streams as streams_module
from fadad_agents.engine.core.streams import (
    NamedStream,
    Streams,
    forget_named_streams,
    mix_ahead,
    spawn_states,
)


def _numpy_seed(seed: int, name: str) -> int:
    child = np.random.SeedSequence(seed, spawn_key=(zlib.crc32(name.encode("utf-8")),))
    words = child.generate_state(4, dtype=np.uint32)
    return sum(int(w) << (32 * i) for i, w in enumerate(words))


@settings(max_examples=300, deadline=None)
@given(
    seed=st.one_of(st.integers(0, 2**64), st.integers(0, 2**300)),
    name=st.one_of(
        st.sampled_from(["initiative", "melee", "morale", "targeting", "mass", "first_aid"]),
        st.text(min_size=0, max_size=12),
    ),
)
def test_seed_of_equals_numpy_seed_sequence(seed, name):
    """Streams(seed).seed_of(name) is numpy's SeedSequence(seed) spawned with the name's
    CRC-32 as key, generate_state(4, uint32) read little-endian (DESIGN.md: one
    SeedSequence per battle, one stream per subsystem)."""
    assert Streams(seed).seed_of(name) == _numpy_seed(seed, name)


@settings(max_examples=200, deadline=None)
@given(
    seed=st.one_of(st.integers(0, 2**64), st.integers(0, 2**300)),
    key=st.one_of(st.integers(0, 2**32 - 1), st.integers(0, 2**140)),
)
def test_spawned_states_equal_numpy_for_keys_of_any_size(seed, key):
    """spawn_states(seed, [key]) is numpy's SeedSequence(seed, spawn_key=(key,)) state, for
    a key of one 32-bit word (a stream's name) or of several (a sweep's replicate index)."""
    child = np.random.SeedSequence(seed, spawn_key=(key,))
    words = child.generate_state(4, dtype=np.uint32)
    assert spawn_states(seed, [key]) == [sum(int(w) << (32 * i) for i, w in enumerate(words))]


@settings(max_examples=60, deadline=None)
@given(
    seed=st.one_of(st.integers(0, 2**64), st.integers(0, 2**300)),
    start=st.one_of(st.integers(0, 2**16), st.integers(2**32 - 40, 2**32 + 40)),
    count=st.integers(0, 80),
)
def test_a_batch_of_keys_spawns_what_each_key_does_alone(seed, start, count):
    """spawn_states over a run of keys (a sweep's batch of replicates, mixed as one array)
    gives each key's state alone, also across the 32-bit boundary of the keys."""
    keys = range(start, start + count)
    assert spawn_states(seed, keys) == [spawn_states(seed, [key])[0] for key in keys]
    if count:  # and numpy's, for the last key
        child = np.random.SeedSequence(seed, spawn_key=(keys[-1],))
        words = child.generate_state(4, dtype=np.uint32)
        last = sum(int(w) << (32 * i) for i, w in enumerate(words))
        assert spawn_states(seed, keys)[-1] == last


@settings(max_examples=40, deadline=None)
@given(
    seeds=st.lists(st.integers(0, 2**64 - 1), min_size=16, max_size=40, unique=True),
    names=st.lists(st.text(max_size=8), min_size=1, max_size=4),
    other=st.text(max_size=8),
)
def test_seeds_mixed_ahead_for_a_batch_are_the_seeds_each_mixes_alone(seeds, names, other):
    """mix_ahead (a sweep's batch, mixed as arrays) gives every battle seed the root and
    stream seeds numpy's SeedSequence gives it, for the names mixed and any other; each
    seed's entry is taken by the Streams reseeded to it."""
    mix_ahead(seeds, names)
    for seed in seeds:
        streams = Streams(seed)
        assert streams._ahead  # taken from the batch, not mixed alone
        for name in [*names, other]:
            assert streams.seed_of(name) == _numpy_seed(seed, name)
    assert not streams_module._AHEAD


def test_too_few_or_too_large_seeds_are_left_to_their_battles():
    """Too few seeds and names to repay the arrays, or a seed over 64 bits, mix nothing
    ahead; a few seeds with many names do."""
    mix_ahead(list(range(11)), ["melee"])
    mix_ahead(list(range(20)), [])
    mix_ahead([*range(20), 2**64], ["melee"])
    assert not streams_module._AHEAD
    assert Streams(2**64).seed_of("melee") == _numpy_seed(2**64, "melee")
    mix_ahead([5, 6, 7, 8], ["a", "b", "c", "d", "e", "f", "g"])
    assert sorted(streams_module._AHEAD) == [5, 6, 7, 8]
    assert Streams(5).seed_of("g") == _numpy_seed(5, "g")
    streams_module._AHEAD.clear()


def test_streams_are_independent_of_creation_order():
    """A stream's dice depend on the battle seed and its name only."""
    a, b = Streams(11), Streams(11)
    a.get("morale")
    assert a.get("melee").random() == b.get("melee").random()


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 2**64), name=st.text(max_size=8), index=st.integers(0, 2**32 - 1))
def test_streams_are_the_random_objects_their_seeds_make(seed, name, index):
    """A stream is exactly ``random.Random(seed_of(name))`` (per index: the seed with the
    index appended): same state, same draws, gauss included."""
    import random

    streams = Streams(seed)
    for stream, expected in (
        (streams.get(name), random.Random(streams.seed_of(name))),
        (streams.for_index(name, index), random.Random(streams.seed_of(name) << 32 | index)),
    ):
        assert type(stream) is random.Random
        assert stream.getstate() == expected.getstate()
        assert [stream.gauss(0, 1), stream.random()] == [expected.gauss(0, 1), expected.random()]


@settings(max_examples=50, deadline=None)
@given(first=st.integers(0, 2**64), seed=st.integers(0, 2**64), index=st.integers(0, 99))
def test_reseeded_streams_are_the_new_seeds(first, seed, index):
    """``reseed`` (a reset battle) gives what ``Streams(seed)`` gives: named streams made
    anew, an agent's re-seeded in its own object."""
    streams = Streams(first)
    named = streams.get("targeting")
    named.gauss(0, 1)  # a half-used gauss pair must not survive the reseed
    old = streams.for_index("melee", index)
    old.gauss(0, 1)
    streams.reseed(seed)
    fresh = Streams(seed)
    assert streams.get("targeting") is not named
    assert streams.get("targeting").getstate() == fresh.get("targeting").getstate()
    assert streams.for_index("melee", index, into=old) is old
    assert old.getstate() == fresh.for_index("melee", index).getstate()
    assert streams.seed_of("morale") == fresh.seed_of("morale")


class _Battle:
    """The least a battle needs for its named streams: ``streams``, and its attributes."""

    gunnery = NamedStream("gunnery")
    crits = NamedStream("crits")

    def __init__(self, seed: int) -> None:
        self.streams = Streams(seed)


def test_a_named_stream_is_made_on_first_read_and_kept_until_forgotten():
    """A NamedStream attribute is its battle's stream of that name, made when first read
    (a battle never seeds the dice it does not roll), the same object on every later read;
    after a reseed, forgetting makes the next read the new seed's stream."""
    battle = _Battle(5)
    assert battle.streams.named == []
    gunnery = battle.gunnery
    assert battle.streams.named == [gunnery]
    assert battle.gunnery is gunnery
    assert gunnery.getstate() == Streams(5).get("gunnery").getstate()
    battle.streams.reseed(6)
    forget_named_streams(battle)
    assert battle.gunnery is not gunnery
    assert battle.gunnery.getstate() == Streams(6).get("gunnery").getstate()
    assert battle.streams.named == [battle.gunnery]


_DRAWS = {
    "random": lambda r: r.random(),
    "gauss": lambda r: (r.gauss(0, 1), r.gauss(0, 1), r.gauss(0, 1)),
    "getrandbits": lambda r: r.getrandbits(77),
    "randrange": lambda r: r.randrange(1, 21),
    "choice": lambda r: r.choice("abcdef"),
    "shuffle": lambda r: (lambda xs: (r.shuffle(xs), xs)[1])(list(range(9))),
    "sample": lambda r: r.sample(range(50), 5),
    "uniform": lambda r: r.uniform(0, 3),
    "randbytes": lambda r: r.randbytes(5),
    "getstate": lambda r: r.getstate(),
}


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**64),
    index=st.integers(0, 99),
    draws=st.lists(st.sampled_from(sorted(_DRAWS)), min_size=1, max_size=6),
)
def test_an_agent_stream_reseeded_in_place_draws_as_a_fresh_one(seed, index, draws):
    """An agent's stream re-seeded by a reset (its seeding put off to its first use) gives
    what a freshly made stream gives, draw for draw, whatever is drawn first: a method
    taken before the first draw included, and after it a plain ``random.Random``."""
    import random

    streams = Streams(seed + 1)
    old = streams.for_index("melee", index)
    old.gauss(0, 1)  # a half-used gauss pair must not survive the reseed
    streams.reseed(seed)
    reseeded = streams.for_index("melee", index, into=old)
    fresh = Streams(seed).for_index("melee", index)
    first_draw = reseeded.random  # bound while its seeding is still put off
    assert first_draw() == fresh.random()
    assert type(reseeded) is random.Random
    assert first_draw() == fresh.random()
    assert [_DRAWS[d](reseeded) for d in draws] == [_DRAWS[d](fresh) for d in draws]


@given(seed=st.integers(0, 2**64), draw=st.sampled_from(sorted(_DRAWS)))
@settings(max_examples=30, deadline=None)
def test_a_reseeded_agent_stream_is_seeded_by_its_first_use_of_any_kind(seed, draw):
    """Whatever its first use, a reseeded agent stream is the new seed's from it on (and a
    state set on it before any draw is kept)."""
    import random

    streams = Streams(seed)
    stream = streams.for_index("morale", 3)
    streams.reseed(seed + 1)
    streams.for_index("morale", 3, into=stream)
    fresh = Streams(seed + 1).for_index("morale", 3)
    assert _DRAWS[draw](stream) == _DRAWS[draw](fresh)
    assert stream.getstate() == fresh.getstate()
    other = streams.for_index("morale", 3, into=random.Random(0))
    other.setstate(random.Random(9).getstate())
    assert other.random() == random.Random(9).random()


@given(seed=st.integers(0, 2**64), index=st.integers(0, 99))
@settings(max_examples=30, deadline=None)
def test_an_agent_stream_reseeded_now_drops_a_seed_still_put_off(seed, index):
    """A personal battle's reset seeds its agents' streams now (``on_use=False``): one
    still waiting for its first use from an earlier reset is the new seed's stream."""
    import random

    streams = Streams(seed)
    stream = streams.for_index("melee", index)
    streams.reseed(seed + 1)
    streams.for_index("melee", index, into=stream)  # seeding put off, never rolled
    streams.reseed(seed + 2)
    assert streams.for_index("melee", index, into=stream, on_use=False) is stream
    assert type(stream) is random.Random
    fresh = Streams(seed + 2).for_index("melee", index)
    assert stream.getstate() == fresh.getstate()


@given(seed=st.integers(0, 2**64), draw=st.sampled_from(sorted(_DRAWS)))
@settings(max_examples=30, deadline=None)
def test_a_named_stream_seeded_on_its_first_use_draws_as_one_seeded_now(seed, draw):
    """A named stream whose seeding waits for its first use (a reset ship battle's
    ``targeting``, most never rolled) draws what one seeded at once draws, and is the
    same object later asks get; a table's is seeded at once and handed to it."""
    import random

    streams = Streams(seed)
    lazy = streams.get("targeting", on_use=True)
    fresh = Streams(seed).get("targeting")
    assert streams.get("targeting") is lazy
    assert _DRAWS[draw](lazy) == _DRAWS[draw](fresh)
    assert type(lazy) is random.Random
    assert lazy.getstate() == fresh.getstate()
    table, made = Streams(seed), []
    table.on_new = made.append
    assert made == [table.get("targeting", on_use=True)]
    assert type(made[0]) is random.Random
