"""The engine's compiled code (numba) compiled now, not in a first big fight: ``fadad
compile``.

A fresh install compiles its fast paths the first time a battle takes them (a crowd on
open ground, a whole melee in a sweep): a minute or two on these machines, said once on
standard error (:data:`~fadad_agents.agents.core.field.compiled.NOTICE`), then read from
numba's cache beside the modules. :func:`compile_fast_paths` plays a few small battles
that take each of those paths, whole and round by round, so that the code is compiled
and cached before a game master's table or a sweep needs it (``make test`` runs it while
the linters do, so that the tests' two workers read the cache instead of each compiling
the same code). Afterwards it costs the half second numba's import and the cache's read
take a process.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context

from fadad_agents.agents.core.crowd.waiting import IN_ARRAYS_AT_LEAST
from fadad_agents.agents.core.field import compiled
from fadad_agents.engine.core.battle import Battle
from fadad_agents.engine.core.build import build_battle, load

__all__ = ["GROUPS", "PATHS", "compile_fast_paths"]


def _melee(per_side: int, *, band: bool = True, gap: int | None = None, sides: int = 2) -> str:
    """``per_side`` v ``per_side`` Good swordsmen: each side one band (formed up in ranks,
    the front ranks in contact; with ``gap``, its front ``gap`` yards from the other's), or
    single fighters given no place (all in one melee, each in reach of every foe)."""

    def side(name: str, x: int) -> str:
        entry = f"""
      - name: {name}{{i}}
        reaction_speed: Fair
        skills: {{{{Sword: Good}}}}
        attack_skill: Sword
        weapon: weapons/broadsword
        armour: armour/heavy-leather
        count: {{count}}"""
        if not band:
            return "".join(entry.format(i=i, count=1) for i in range(per_side))
        placed = "" if gap is None else f"\n        position: [{x}, 0]"
        return entry.format(i="", count=per_side) + placed

    colours = ("Red", "Blue", "Green")[:sides]
    listed = "".join(
        f"\n  - name: {name}\n    forces:{side(name, k * (gap or 0))}"
        for k, name in enumerate(colours)
    )
    return f"""
name: compiling
rules: {{fadad.initiative: rolled}}
sides:{listed}
stop: {{max_rounds: 60}}
"""


PATHS: dict[str, tuple[str, bool]] = {
    "a crowd on open ground": (_melee(60), True),
    "two crowds closing in": (_melee(40, gap=12), True),
    "a melee all in reach": (_melee(5, band=False), True),
    "three crowds": (_melee(IN_ARRAYS_AT_LEAST, sides=3), False),
}
"""The battles played, each whole (if so marked) and its first rounds one at a time: the
compiled melee on open ground and all in one melee; and, where the compiled melee does
not play (three sides on a map), Python's rounds with the crowd's compiled searches and
its compiled turns of a big band (:data:`~fadad_agents.agents.core.crowd.waiting.
IN_ARRAYS_AT_LEAST` members or more)."""


GROUPS = (
    ("a crowd on open ground", "two crowds closing in"),
    ("a melee all in reach", "three crowds"),
)
""":data:`PATHS` by the process that compiles them when two or more work at once: the
compiled melee on open ground (about 70 s alone on these machines), and the rest (about
45 s), whose code is compiled apart."""


def compile_fast_paths(say: Callable[[str], None] | None = None, workers: int = 2) -> float:
    """Load numba and compile (or read from its cache) the code each of :data:`PATHS`'s
    battles takes, in ``workers`` processes at once (at most one a group of
    :data:`GROUPS`; 1: in this one); ``say`` is told of each as it begins. The seconds it
    took."""
    start = time.perf_counter()
    if workers <= 1:
        for name in PATHS:
            _compile(name, say)
        return time.perf_counter() - start
    spawned = get_context("spawn")  # (a fork of a process that loaded numba is not safe)
    with ProcessPoolExecutor(min(workers, len(GROUPS)), mp_context=spawned) as pool:
        done = []
        for group in GROUPS:
            if say is not None:
                for name in group:
                    say(name)
            done.append(pool.submit(_compile_all, group))
        for future in done:
            future.result()
    return time.perf_counter() - start


def _compile_all(names: tuple[str, ...]) -> None:
    """:func:`_compile` each of ``names`` (in a process of the pool)."""
    for name in names:
        _compile(name, None)


def _compile(name: str, say: Callable[[str], None] | None) -> tuple[Battle | None, Battle]:
    """Play :data:`PATHS`' battle ``name``: whole (if so marked), and its first rounds one
    at a time in another; the two battles (the first None if not played whole)."""
    compiled.load(notice=False)  # (what is compiled is said here)
    if say is not None:
        say(name)
    text, whole = PATHS[name]
    scenario = load(text)
    played = build_battle(scenario, seed=1, collect=False).run_to_end() if whole else None
    battle = build_battle(scenario, seed=2, collect=False)
    for _ in range(3 if whole else 2):
        if not battle.finished:
            battle.play_round()
    return played, battle
