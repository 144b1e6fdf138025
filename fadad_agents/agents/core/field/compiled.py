"""When a process loads its compiled code (numba): once its fights on a field, or whole
melees, have cost in Python what loading it costs.

Once numba is loaded, a mover's search, a re-target's foes in reach and the nearest foes of
a side are worked out in compiled code over the field mirrored in arrays
(:mod:`~fadad_agents.agents.core.crowd`), and the battle is the same, byte for byte, either
way. A band's turn of 256 members or more loads numba at once
(:mod:`~fadad_agents.agents.core.crowd.waiting`): such a crowd pays for it in its first
round, or just before it where the compiled melee may play the battle from its start
(:func:`fadad_agents.engine.personal.melee._crowd_loads`). Smaller fights on a field gain
too (3-12 µs an agent-round, from 5 v 5 to 100 v 100, measured on 2026-12-05), but the load
costs about 0.45 s a process (numba's import and its code read from the cache), many times
one such battle. So a process keeps count of the agent-rounds it has played on a field in
Python (:func:`played`, called at the start of every personal round on a field not all in
one melee) and loads numba once :data:`LOAD_AFTER` are played: by then it has spent in
Python about what the load costs, so whether the fights then stop or go on, it never pays
more than about twice what the best choice made in hindsight would have cost (the rule of
renting skis until their price is spent, then buying). A ``run`` loop of 200-fighter
battles gets there after some twenty battles and plays the rest at about two thirds of the
cost; a sweep, which knows how many battles it will play, loads it after its first when the
rest will pay (:func:`expect`); one battle never does.

A whole battle all in one melee, played to its end in Python, counts too
(:func:`played_off_field`), a quarter an agent-round (:data:`MELEE_SHARE`): the compiled
melee (:mod:`fadad_agents.engine.personal`) plays such battles whole once numba is loaded,
about 2.5 us an agent-round cheaper. A ``run`` loop of 5 v 5 fights in contact loads it
after some 2,500 battles, a sweep of more than about 2,500 after its first; rounds played
one at a time (a game master's table) never count.

The first load on an install compiles the code (10-20 s on these machines, the melee's
about 20 s more; cached beside the modules from then on), and says so once on standard
error.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

__all__ = [
    "LOAD_AFTER", "LOAD_WHEN_PAID", "MELEE_SHARE", "counted", "expect", "load", "played",
    "played_off_field",
]  # fmt: skip

LOAD_WHEN_PAID = True
"""Load numba once :data:`LOAD_AFTER` agent-rounds are played on a field in Python (False:
only a crowd loads it; the tests compare both)."""

LOAD_AFTER = 40_000
"""Agent-rounds on a field played in Python after which the process loads numba: its load
(about 0.45 s) over what it saves an agent-round in a fight of 100 v 100 (about 11 µs)."""

counting = True
"""Whether :func:`played` still counts (False once numba is loaded, by anyone)."""

_played = 0
"""Agent-rounds played on a field in Python by this process so far."""

_loaded = False
"""Whether :func:`load` has loaded numba."""

_told = False
"""Whether the notice of a first compile was given (once a process)."""


def played(turns: Sequence[Sequence[Any]]) -> None:
    """Count a round of ``turns`` (its members) played on a field, and load numba once
    :data:`LOAD_AFTER` are counted, or stop counting if it is loaded already."""
    global _played, counting
    if "numba" in sys.modules:
        counting = False
        return
    _played += sum(map(len, turns))
    if _played >= LOAD_AFTER and LOAD_WHEN_PAID:
        load()


MELEE_SHARE = 0.25
"""What the compiled melee (:mod:`fadad_agents.engine.personal`) saves an agent-round of a
battle all in one melee, as a share of what the field's compiled paths save an agent-round
on a field (about 2.5 us against 11: a 5 v 5 of 65 agent-rounds, 440 us in Python, 275
compiled, measured 2026-12-06): such agent-rounds count this much toward
:data:`LOAD_AFTER`."""


def played_off_field(agent_rounds: int) -> None:
    """Count ``agent_rounds`` of a battle all in one melee just played in Python, that the
    compiled melee would have played (at :data:`MELEE_SHARE`), and load numba once
    :data:`LOAD_AFTER` are counted."""
    global _played
    _played += round(agent_rounds * MELEE_SHARE)
    if _played >= LOAD_AFTER and LOAD_WHEN_PAID:
        load()


def counted() -> int:
    """The agent-rounds this process has played on a field in Python so far (counting
    stops once numba is loaded)."""
    return _played


def expect(agent_rounds: int) -> None:
    """Load numba now if this process expects to play ``agent_rounds`` more on a field
    that would pay for it (:data:`LOAD_AFTER` or more): a sweep knows, once its first
    battle is played, about how many its others will play."""
    if counting and LOAD_WHEN_PAID and agent_rounds >= LOAD_AFTER and "numba" not in sys.modules:
        load()


def load(*, notice: bool = True) -> None:
    """Import numba (once a process; it is then used wherever it helps), listening for its
    first compile of this package's code to say so (a fresh install: the cache is empty),
    unless not to give the ``notice`` (``fadad compile`` says what it compiles)."""
    global counting, _loaded
    if _loaded:
        return
    _loaded, counting = True, False
    from numba.core import event

    if notice:
        event.register("numba:compile", _notice(event.Listener))  # type: ignore[no-untyped-call]


NOTICE = "fadad-agents: compiling its fast paths for this install, once (1-2 min; cached after)"
"""What the first compile of an install says on standard error."""


def _say(text: str) -> None:
    """``text`` on a line of its own on standard error: through tqdm where it is loaded,
    which lifts any progress bar shown (a sweep's, a long battle's) above the line."""
    bars = sys.modules.get("tqdm")
    if bars is None:
        print(text, file=sys.stderr)
    else:
        bars.tqdm.write(text, file=sys.stderr)


def _notice(listener: type) -> Any:
    """A :class:`numba.core.event.Listener` (``listener``, numba's, imported only by
    :func:`load`) that says once, when numba starts compiling code of this package's,
    that it is compiling and for how long."""

    class Notice(listener):  # type: ignore[misc]  # numba's class, given
        def on_start(self, event: Any) -> None:
            global _told
            function = getattr(event.data.get("dispatcher"), "py_func", None)
            if not _told and getattr(function, "__module__", "").startswith("fadad_agents."):
                _told = True
                _say(NOTICE)

        def on_end(self, event: Any) -> None:
            """Nothing: the notice is given as the compile starts."""

    return Notice()
