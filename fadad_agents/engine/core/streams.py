"""Random streams of one battle: one ``SeedSequence``, one named stream per subsystem.

DESIGN.md (Randomness): a battle owns one :class:`numpy.random.SeedSequence`; each
subsystem (initiative, melee, morale, ...) draws from its own stream, so two policies
compared on the same seed see the same dice elsewhere (common random numbers).

A stream's seed depends only on the battle seed and the stream's *name* (a CRC-32 of the
name is the spawn key), never on creation order, the process or ``PYTHONHASHSEED``.
Per-agent streams (``melee`` dice of one attacker) add the agent's stable index to the
key, so a morale choice elsewhere cannot shift the dice of an unrelated pair.

The seeds are numpy's ``SeedSequence(seed)`` spawned with key ``(crc32(name),)`` and its
``generate_state(4, uint32)``, computed here in plain integers, or as arrays for a
sweep's batch (:func:`mix_ahead`), by numpy's hash-mix (numpy/random/bit_generator.pyx)
without a numpy object per stream. The root pool is mixed once per battle, each name
mixes only its own key word. Checked equal to numpy's for thousands of seeds and names.
"""

from __future__ import annotations

import _random
import random
import secrets
import zlib
from collections.abc import Callable, Collection, Iterable, Sequence
from typing import Any

import numpy as np

__all__ = [
    "STREAMS",
    "NamedStream",
    "Streams",
    "forget_named_streams",
    "fresh_seed",
    "mix_ahead",
    "spawn_states",
]

STREAMS: tuple[str, ...] = ("initiative", "melee", "morale", "targeting", "mass", "first_aid")
"""The subsystems with a stream of their own (more may be asked for by name)."""

# numpy's SeedSequence constants (pool size 4, 32-bit words).
_MASK = 0xFFFFFFFF
_POOL = 4
_INIT_A = 0x43B0D7E5
_MULT_A = 0x931E8875
_INIT_B = 0x8B51F9DD
_MULT_B = 0x58F38DED
_MIX_L = 0xCA01F9DD
_MIX_R = 0x4973F715


_new_random = random.Random.__new__
_seed_random = _random.Random.seed


def _stream(seed: int, into: random.Random | None = None) -> random.Random:
    """``random.Random(seed)`` for an int seed, without the Python-level ``seed`` method
    (its type checks only matter for str, bytes and float seeds): the C generator is
    seeded from the same int, so the state is identical (tests compare them). With
    ``into``, that generator is re-seeded in place and returned instead of a new one."""
    stream = _new_random(random.Random) if into is None else into
    _seed_random(stream, seed)
    stream.gauss_next = None  # type: ignore[attr-defined]  # set by Random.seed, untyped
    return stream


class _SeededOnUse(random.Random):
    """An agent's stream re-seeded by a reset, its seeding put off until it is first used:
    most agents of a ship battle never roll (a ship, a crew that never fights on a deck),
    and seeding a generator costs more than most of their rolls. Its first draw (every
    ``random.Random`` method draws through :meth:`random` or :meth:`getrandbits`) or state
    read seeds it as :func:`_stream` would have and makes it a plain ``random.Random`` again,
    so later draws cost nothing extra; a state change drops the pending seed."""

    _pending: int

    def random(self) -> float:
        _settle(self)
        return _random.Random.random(self)

    def getrandbits(self, k: int) -> int:
        _settle(self)
        return _random.Random.getrandbits(self, k)

    def getstate(self) -> tuple[Any, ...]:
        _settle(self)
        return random.Random.getstate(self)

    def setstate(self, state: tuple[Any, ...]) -> None:
        _settle(self)
        random.Random.setstate(self, state)

    def seed(self, a: Any = None, version: int = 2) -> None:
        _settle(self)
        random.Random.seed(self, a, version)


def _settle(stream: random.Random) -> None:
    """Seed a :class:`_SeededOnUse` stream now and make it a plain ``random.Random``. A
    method bound before the first use (``draw = rng.random``) may still be called after
    it: only the first call seeds."""
    if stream.__class__ is _SeededOnUse:
        stream.__class__ = random.Random  # type: ignore[assignment]  # narrowed above
        _stream(stream.__dict__.pop("_pending"), stream)


def _seed_on_use(seed: int, stream: random.Random) -> random.Random:
    """``_stream(seed, into=stream)``, the seeding done on the stream's first use when it
    is a plain ``random.Random`` (:class:`_SeededOnUse`); a table's dice are seeded now."""
    if stream.__class__ is random.Random or stream.__class__ is _SeededOnUse:
        stream.__class__ = _SeededOnUse
        stream._pending = seed  # type: ignore[attr-defined]
        stream.gauss_next = None  # type: ignore[attr-defined]  # a half-used pair goes now
        return stream
    return _stream(seed, stream)


def fresh_seed() -> int:
    """A new 63-bit battle seed from the OS, for runs given no seed (recorded in results)."""
    return secrets.randbits(63)


def _key(name: str) -> int:
    return zlib.crc32(name.encode("utf-8"))


def _words(value: int) -> list[int]:
    """A non-negative int as little-endian 32-bit words (0 is one zero word), as numpy."""
    if value == 0:
        return [0]
    out = []
    while value:
        out.append(value & _MASK)
        value >>= 32
    return out


type _Root = tuple[int, int, int, int, int, int, int, int, int]
"""A battle seed's mixed pool (4 words) and the 5 hash constants a spawn key's word is
mixed in with (the same for every key: they follow from the pool's mixing alone)."""


def _mix_in(pool: list[int], word: int, h: int) -> int:
    """Mix entropy word ``word`` into each word of ``pool`` with hash constant ``h`` and
    its successors (numpy's ``hashmix`` and ``mix``); the constant after them."""
    for dst in range(_POOL):
        v = word ^ h
        h = (h * _MULT_A) & _MASK
        v = (v * h) & _MASK
        r = (_MIX_L * pool[dst] - _MIX_R * (v ^ (v >> 16))) & _MASK
        pool[dst] = r ^ (r >> 16)
    return h


def _hash_constants(count: int) -> list[int]:
    """The first ``count`` hash constants of a pool's mixing, from ``_INIT_A`` on: each
    step takes the next, whatever the entropy, so they are computed once."""
    hs = [_INIT_A]
    while len(hs) < count:
        hs.append((hs[-1] * _MULT_A) & _MASK)
    return hs


_H = _hash_constants(2 * _POOL + _POOL * (_POOL - 1) + 1)
"""The hash constants of a 128-bit seed's mixing: 4 for its words, 12 for the pool's
mixing (each step the constant before and after), and the 5 of its :data:`_Root`."""

_MIX_STEPS = tuple(
    (src, dst, _H[k], _H[k + 1])
    for k, (src, dst) in enumerate(
        ((src, dst) for src in range(_POOL) for dst in range(_POOL) if src != dst), _POOL
    )
)
"""The pool's mixing of word ``src`` into word ``dst``, in numpy's order, with its two
hash constants."""


def _root_pool(seed: int) -> _Root:
    """SeedSequence(seed)'s pool mixed from all its entropy words (the first 4 zero-padded,
    as numpy pads whenever a spawn key follows), and the hash constants after it
    (:data:`_Root`): a spawned child only mixes its key word in. Every battle mixes one:
    the constants are precomputed (:data:`_H`)."""
    entropy = _words(seed)
    entropy += [0] * (_POOL - len(entropy))
    hs = _H
    pool = []
    for i in range(_POOL):
        v = ((entropy[i] ^ hs[i]) * hs[i + 1]) & _MASK
        pool.append(v ^ (v >> 16))
    for src, dst, ha, hb in _MIX_STEPS:
        v = ((pool[src] ^ ha) * hb) & _MASK
        r = (_MIX_L * pool[dst] - _MIX_R * (v ^ (v >> 16))) & _MASK
        pool[dst] = r ^ (r >> 16)
    if len(entropy) == _POOL:
        p0, p1, p2, p3 = pool
        return p0, p1, p2, p3, hs[16], hs[17], hs[18], hs[19], hs[20]
    h = hs[16]
    for word in entropy[_POOL:]:  # a seed over 128 bits
        h = _mix_in(pool, word, h)
    return _root_of(pool, h)


def _root_of(pool: list[int], h: int) -> _Root:
    """The :data:`_Root` of a mixed ``pool`` whose next hash constant is ``h``."""
    hs = [h]
    for _ in range(_POOL):
        hs.append((hs[-1] * _MULT_A) & _MASK)
    p0, p1, p2, p3 = pool
    h0, h1, h2, h3, h4 = hs
    return p0, p1, p2, p3, h0, h1, h2, h3, h4


# generate_state's hash constants, the same for every pool.
_B0 = _INIT_B
_B1 = (_B0 * _MULT_B) & _MASK
_B2 = (_B1 * _MULT_B) & _MASK
_B3 = (_B2 * _MULT_B) & _MASK
_B4 = (_B3 * _MULT_B) & _MASK
_B = (_B0, _B1, _B2, _B3, _B4)


def _spawned_state(root: _Root, key: int) -> int:
    """``generate_state(4, uint32)`` of the root spawned with ``spawn_key=(key,)``, as
    one little-endian 128-bit integer. Written out word by word: every named stream of
    every battle pays it."""
    p0, p1, p2, p3, h0, h1, h2, h3, h4 = root
    if key > _MASK:  # a key of several words (a sweep's replicate index, never a name's)
        *first, last = _words(key)
        pool, h = list(root[:_POOL]), root[_POOL]
        for word in first:
            h = _mix_in(pool, word, h)
        return _spawned_state(_root_of(pool, h), last)
    v = ((key ^ h0) * h1) & _MASK
    r = (_MIX_L * p0 - _MIX_R * (v ^ (v >> 16))) & _MASK
    p0 = r ^ (r >> 16)
    v = ((key ^ h1) * h2) & _MASK
    r = (_MIX_L * p1 - _MIX_R * (v ^ (v >> 16))) & _MASK
    p1 = r ^ (r >> 16)
    v = ((key ^ h2) * h3) & _MASK
    r = (_MIX_L * p2 - _MIX_R * (v ^ (v >> 16))) & _MASK
    p2 = r ^ (r >> 16)
    v = ((key ^ h3) * h4) & _MASK
    r = (_MIX_L * p3 - _MIX_R * (v ^ (v >> 16))) & _MASK
    p3 = r ^ (r >> 16)
    v0 = ((p0 ^ _B0) * _B1) & _MASK
    v1 = ((p1 ^ _B1) * _B2) & _MASK
    v2 = ((p2 ^ _B2) * _B3) & _MASK
    v3 = ((p3 ^ _B3) * _B4) & _MASK
    return (
        (v0 ^ (v0 >> 16))
        | (v1 ^ (v1 >> 16)) << 32
        | (v2 ^ (v2 >> 16)) << 64
        | (v3 ^ (v3 >> 16)) << 96
    )


def spawn_states(seed: int, keys: Iterable[int]) -> list[int]:
    """For each key, ``generate_state(4, uint32)`` of ``SeedSequence(seed)`` spawned with
    ``spawn_key=(key,)`` (as numpy's ``SeedSequence(seed).spawn(n)[key]``), as one
    little-endian 128-bit integer: a sweep's replicate seeds without a numpy object each.
    Its low 64 bits are ``generate_state(1, uint64)``."""
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ValueError(f"a seed must be a non-negative integer, got {seed!r}")
    root = _root_pool(seed)
    keys = list(keys)
    if len(keys) < _ARRAYS_FROM or max(keys) > _MASK or min(keys) < 0:
        return [_spawned_state(root, key) for key in keys]
    return _spawned_arrays(np.array(root[:_POOL], dtype=_W).reshape(-1, 1), root[_POOL:], keys)


_ARRAYS_FROM = 16
"""Keys from which :func:`spawn_states` mixes them as arrays (~2 us of integer work a key)."""

_W = np.uint32
_W_L, _W_R, _W16 = _W(_MIX_L), _W(_MIX_R), _W(16)
# A pool's mixing as array steps, one a source word: numpy mixes word ``s`` into each other
# word in turn with the next constants, ``s`` unchanged meanwhile (rows: the other words).
_WH = np.array(_H, dtype=_W).reshape(-1, 1)  # the constants as columns, to broadcast
_W_SPREAD = [
    (s, [d for d in range(_POOL) if d != s], _WH[k : k + 3], _WH[k + 1 : k + 4])
    for s, k in ((s, _POOL + 3 * s) for s in range(_POOL))
]
_WB = np.array(_B, dtype=_W).reshape(-1, 1, 1)


def _hashed(v: Any, ha: Any, hb: Any) -> Any:
    """numpy's ``hashmix`` of uint32 array ``v`` (wrapping as in C) by constants ``ha``, ``hb``."""
    v = (v ^ ha) * hb
    return v ^ (v >> _W16)


def _mixed(into: Any, v: Any) -> Any:
    """numpy's ``mix`` of a hashed word ``v`` into pool word ``into`` (uint32 arrays)."""
    r = _W_L * into - _W_R * v
    return r ^ (r >> _W16)


def _spawned_arrays(pool: Any, hs: Sequence[int], keys: Sequence[int]) -> list[int]:
    """``_spawned_state`` of each of ``n`` roots (``pool``: their words, 4 x ``n`` uint32;
    ``hs``: their 5 hash constants) with each one-word key: row by row, ``n * len(keys)``."""
    h = np.array(hs, dtype=_W).reshape(-1, 1)
    key = _hashed(np.array(keys, dtype=_W), h[:_POOL], h[1:])
    w = _hashed(_mixed(pool[:, :, None], key[:, None, :]), _WB[:_POOL], _WB[1:])
    low = (w[0] | w[1].astype(np.uint64) << np.uint64(32)).ravel().tolist()
    high = (w[2] | w[3].astype(np.uint64) << np.uint64(32)).ravel().tolist()
    return [lo | hi << 64 for lo, hi in zip(low, high, strict=True)]


_AHEAD: dict[int, tuple[_Root, dict[str, int]]] = {}
"""Battle seeds mixed ahead (:func:`mix_ahead`): root and named streams' seeds, taken by the
:class:`Streams` reseeded to it (whoever takes it, even another thread, gets the same)."""
_NOT_AHEAD: tuple[_Root | None, dict[str, int]] = (None, {})


def mix_ahead(seeds: Sequence[int], names: Collection[str]) -> None:
    """Mix the root of each battle seed in ``seeds`` and its streams ``names`` now, as
    arrays, for the battles about to play them (a sweep's batch): their :class:`Streams`
    take the seeds instead of mixing each alone (~6 us a root, ~2 us a name; here ~2 us a
    battle in a batch of 80, 3 names). A name not mixed is mixed as ever. Too few seeds and
    names to repay the arrays' ~0.1 ms, or a seed over 64 bits, leave all to the battles."""
    if not names or len(seeds) * (len(names) + 2) < 36 or min(seeds) < 0 or max(seeds) >> 64:
        return
    s = np.array(seeds, dtype=np.uint64)
    words = np.zeros((_POOL, len(seeds)), dtype=_W)  # numpy pads to 4 words
    words[0], words[1] = s.astype(_W), (s >> np.uint64(32)).astype(_W)
    pool = _hashed(words, _WH[:_POOL], _WH[1 : _POOL + 1])
    for src, others, ha, hb in _W_SPREAD:
        pool[others] = _mixed(pool[others], _hashed(pool[src], ha, hb))
    hs = _H[-(_POOL + 1) :]  # the root constants of every seed of at most 128 bits
    named = list(names)
    states = _spawned_arrays(pool, hs, [_key(name) for name in named])
    if len(_AHEAD) + len(seeds) > 4096:  # a batch that failed midway left its rest
        _AHEAD.clear()
    m = len(named)
    for j, (seed, root) in enumerate(zip(seeds, pool.T.tolist(), strict=True)):
        _AHEAD[seed] = ((*root, *hs), dict(zip(named, states[j * m : (j + 1) * m], strict=True)))


class Streams:
    """Named ``random.Random`` streams spawned from one battle seed.

    >>> a, b = Streams(7), Streams(7)
    >>> a.get("melee").random() == b.get("melee").random()
    True
    >>> Streams(7).get("melee").random() == Streams(7).get("morale").random()
    False
    """

    __slots__ = ("_ahead", "_cache", "_root", "_sub_bases", "on_new", "seed")

    def __init__(self, seed: int) -> None:
        self._cache: dict[str, random.Random] = {}
        self.on_new: Callable[[random.Random], object] | None = None
        """Called with each stream made from now on (a table session turns them into
        :class:`~fadad_agents.rules.core.dice.TableDice`); None for plain battles."""
        self.reseed(seed)

    def reseed(self, seed: int) -> None:
        """Start again from battle seed ``seed``: what ``Streams(seed)`` gives. The named
        streams made so far are dropped, each made anew when next asked for (most battles
        of a sweep roll on only some of them; seeding one costs more than most rolls): a
        holder of an old one must ask again (a reset battle does, :func:`forget_named_streams`
        and :meth:`for_agent`)."""
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise ValueError(f"a battle seed must be a non-negative integer, got {seed!r}")
        self.seed = seed
        # Its root and named seeds mixed with its batch (mix_ahead), else when first asked.
        self._root, self._ahead = _AHEAD.pop(seed, _NOT_AHEAD) if _AHEAD else _NOT_AHEAD
        self._sub_bases: dict[str, int] = {}
        self._cache.clear()

    @property
    def seed_sequence(self) -> np.random.SeedSequence:
        """The battle's numpy ``SeedSequence`` (made on request; the streams' seeds are
        computed without it)."""
        return np.random.SeedSequence(self.seed)

    def seed_of(self, name: str) -> int:
        """The 128-bit integer seed of stream ``name`` (from the spawned ``generate_state``)."""
        state = self._ahead.get(name)
        if state is not None:
            return state
        root = self._root
        if root is None:
            root = self._root = _root_pool(self.seed)
        return _spawned_state(root, _key(name))

    def get(self, name: str, *, on_use: bool = False) -> random.Random:
        """The stream of subsystem ``name`` (one object per name and battle); with
        ``on_use``, a new one is seeded on its first use (a reset ship battle's
        ``targeting``, which most never roll) unless a table turns it into its dice."""
        stream = self._cache.get(name)
        if stream is None:
            if on_use and self.on_new is None:
                fresh = _new_random(random.Random)
                stream = self._cache[name] = _seed_on_use(self.seed_of(name), fresh)
                return stream
            stream = self._cache[name] = _stream(self.seed_of(name))
            if self.on_new is not None:
                self.on_new(stream)
        return stream

    @property
    def asked(self) -> list[str]:
        """The names whose seeds were asked for since the last reseed (what
        :func:`mix_ahead` mixes for the next battles of the same scenario)."""
        return [*self._cache, *self._sub_bases]

    @property
    def named(self) -> list[random.Random]:
        """The named streams made so far (``get``), in the order they were made."""
        return list(self._cache.values())

    def for_index(
        self, name: str, index: int, into: random.Random | None = None, on_use: bool = True
    ) -> random.Random:
        """A fresh stream for member ``index`` of subsystem ``name`` (e.g. one attacker);
        with ``into``, that generator re-seeded in place instead of a new one, seeded on its
        first use (a reset ship battle re-seeds every agent's, most are never rolled) or,
        with ``on_use=False``, now (a personal battle's fighters all strike: seeding on first
        use would only add its cost). A reset passes both in order: keywords cost more.

        The seed is the subsystem's 128-bit seed with the index appended, so it is fixed by
        (battle seed, name, index) alone; ``random.Random`` scrambles every seed bit.
        """
        try:  # a subscript, not get: no method call (ten a reset)
            base = self._sub_bases[name]
        except KeyError:
            base = self._sub_bases[name] = self.seed_of(name) << 32
        seed = base | (index & 0xFFFFFFFF)
        if into is not None:
            if on_use:
                return _seed_on_use(seed, into)
            if into.__class__ is _SeededOnUse:  # never rolled last play: its pending seed goes
                into.__class__ = random.Random  # type: ignore[assignment]  # narrowed above
                del into._pending
            _seed_random(into, seed)  # _stream(seed, into), inlined: ten a reset
            into.gauss_next = None  # type: ignore[attr-defined]  # set by Random.seed, untyped
            return into
        stream = _stream(seed)
        if self.on_new is not None:
            self.on_new(stream)
        return stream

    def for_agent(
        self, index: int, *, into: random.Random | None = None, on_use: bool = True
    ) -> tuple[random.Random, random.Random]:
        """The dice of the agent with set-up index ``index`` (its ``rng`` and
        ``targeting_rng``): its own ``melee`` stream (common random numbers per attacker;
        ``into`` re-seeds its old one in place, ``on_use`` as :meth:`for_index`) and the
        battle's shared ``targeting``."""
        return self.for_index("melee", index, into=into, on_use=on_use), self.get("targeting")

    def morale_of(self, index: int, *, into: random.Random | None = None) -> random.Random:
        """The ``morale`` stream of the group with set-up index ``index`` (its own checks:
        another group's break cannot shift them); ``into`` re-seeds its old one in place."""
        return self.for_index("morale", index, into=into)


class NamedStream:
    """A battle's attribute that is its stream ``name`` (``battle.streams.get(name)``),
    made the first time it is read: a battle never pays for the dice it does not roll.
    A stream's numbers depend on the battle seed and its name alone, never on when it
    was made, so reading it late changes no roll.

    The stream read is kept in the battle's own attributes (which win over this
    descriptor: later reads are plain ones) until :func:`forget_named_streams`."""

    __slots__ = ("attribute", "name")

    def __init__(self, name: str) -> None:
        self.name = name
        self.attribute = ""

    def __set_name__(self, owner: type, attribute: str) -> None:
        self.attribute = attribute

    def __get__(self, battle: Any, owner: type | None = None) -> Any:
        if battle is None:
            return self
        stream = battle.__dict__[self.attribute] = battle.streams.get(self.name)
        return stream


def forget_named_streams(battle: object) -> None:
    """Drop the streams ``battle``'s :class:`NamedStream` attributes keep, so each is read
    from its :class:`Streams` again (after :meth:`Streams.reseed`, made anew)."""
    kind = type(battle)
    attributes = _NAMED_ATTRIBUTES.get(kind)
    if attributes is None:  # once per class: its NamedStream attributes and its bases'
        found = {n for c in kind.__mro__ for n, v in vars(c).items() if isinstance(v, NamedStream)}
        attributes = _NAMED_ATTRIBUTES[kind] = tuple(sorted(found))
    for attribute in attributes:
        battle.__dict__.pop(attribute, None)


_NAMED_ATTRIBUTES: dict[type, tuple[str, ...]] = {}
