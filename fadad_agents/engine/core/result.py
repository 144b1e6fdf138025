"""BattleResult: who won, how it ended, how long it took, what each side kept and lost.

Beyond that, a result tells the battle's story: its log, header, closing tally and rounds
table (its :class:`Record`). ``fadad_agents.run`` keeps none of the last three while the
battle plays unless asked (``collect=True``), nor the log of a small battle (at most
:data:`~fadad_agents.engine.core.recycle.RECYCLE_MAX_AGENTS` agents, the battles ``run``
plays on a recycled battle): a battle is its scenario and seed, byte for byte, so the
record is made when first read, by playing the battle again with collection on. A loop
that keeps thousands of results keeps no logs for Python's garbage collector to walk
again and again (each a hundred objects or more).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from fadad_agents.agents.core.base import SideRoster, Status
from fadad_agents.engine.core.ending import NO_WINNER_REASONS, wins
from fadad_agents.engine.core.log import BattleLog
from fadad_agents.engine.core.recycle import RECYCLE_MAX_AGENTS
from fadad_agents.engine.core.report import header_lines, tally_lines
from fadad_agents.engine.core.rounds_table import ROUNDS_TABLE
from fadad_agents.schema.text import escaped

if TYPE_CHECKING:
    import mesa
    import pandas as pd

    from fadad_agents.engine.core.battle import Battle

__all__ = [
    "SIDE_COUNTS",
    "BattleResult",
    "Record",
    "SideResult",
    "outcome",
    "result_of",
    "side_counts",
]


@dataclass(frozen=True, slots=True)
class SideResult:
    """One side's head counts at the end of the battle.

    Attributes:
        name: the side's name.
        strength: head count at the start.
        fighting: still in the fight at the end.
        casualties: taken out by wounds or losses (incapacitated, near death, dead).
        dead: of the casualties, individuals killed outright (wound track Dead).
        withdrawn: left the fight by choice or rout.
        surrendered: gave up.
    """

    name: str
    strength: int
    fighting: int
    casualties: int
    dead: int
    withdrawn: int
    surrendered: int

    @property
    def survivors(self) -> int:
        """Everyone not a casualty."""
        return self.strength - self.casualties

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready mapping."""
        return {
            "name": self.name,
            "strength": self.strength,
            "fighting": self.fighting,
            "survivors": self.survivors,
            "casualties": self.casualties,
            "dead": self.dead,
            "withdrawn": self.withdrawn,
            "surrendered": self.surrendered,
        }


SIDE_COUNTS = (
    "strength",
    "fighting",
    "survivors",
    "casualties",
    "dead",
    "withdrawn",
    "surrendered",
)
"""The head counts :func:`side_counts` gives, in order (:meth:`SideResult.as_dict`'s)."""


def side_counts(roster: SideRoster) -> tuple[int, int, int, int, int, int, int]:
    """A side's head counts at the end, in :data:`SIDE_COUNTS` order (what
    :class:`SideResult` holds, without making one: a sweep's row takes them as they are)."""
    fighting = casualties = dead = withdrawn = surrendered = 0
    out, fights, gave_up = Status.OUT, Status.FIGHTING, Status.SURRENDERED
    for m in roster.members:
        heads, status = m.initial_headcount, m.status
        if heads == 1:  # one head (most members): where it went, no counts to read
            if status is fights:
                fighting += 1
            elif status is out:
                casualties += 1
                track = getattr(m, "track", None)
                dead += bool(track is not None and track.dead)
            elif status is gave_up:
                surrendered += 1
            else:
                withdrawn += 1
            continue
        left = getattr(m, "count", 1 if status is not out else 0)
        casualties += heads - left if heads > 1 else 0
        if status is fights:
            fighting += left if heads > 1 else 1
        elif status is out:
            casualties += left if heads > 1 else 1
            track = getattr(m, "track", None)
            dead += bool(track is not None and track.dead)
        elif status is gave_up:
            surrendered += left if heads > 1 else 1
        else:
            withdrawn += left if heads > 1 else 1
    strength = roster.initial_strength
    return strength, fighting, strength - casualties, casualties, dead, withdrawn, surrendered


def _side_result(roster: SideRoster) -> SideResult:
    """The side's result; an equal one made before is given again (results are frozen,
    and a frozen dataclass costs a microsecond to make: most battles of a scenario end
    in one of a few ways)."""
    counts = (roster.name, *side_counts(roster))
    made = _SIDE_RESULTS.get(counts)
    if made is None:
        if len(_SIDE_RESULTS) >= 4096:
            _SIDE_RESULTS.clear()
        name, strength, fighting, _, casualties, dead, withdrawn, surrendered = counts
        made = _SIDE_RESULTS[counts] = SideResult(
            name, strength, fighting, casualties, dead, withdrawn, surrendered
        )
    return made


_SIDE_RESULTS: dict[tuple[Any, ...], SideResult] = {}


def outcome(battle: Battle) -> tuple[str | None, str, str | None]:
    """A finished battle's winner, ending and loser (side names, or None), as
    :class:`BattleResult` gives them."""
    sides = battle.sides
    winner, out = battle.winner, battle.out_side
    ending = str(battle.ending) if battle.ending is not None else "unfinished"
    return (
        None if winner is None else sides[winner].name,
        ending,
        None if out is None else sides[out].name,
    )


class Record:
    """A battle's header, closing tally and rounds table, and its log: kept as it played,
    or made on first read by ``replay`` (the battle played again collecting: a result
    whose record is kept), and kept from then on."""

    __slots__ = ("_kept", "_log", "_replay")

    def __init__(
        self,
        header: tuple[str, ...] = (),
        tally: tuple[str, ...] = (),
        collector: mesa.DataCollector | None = None,
        log: BattleLog | None = None,
        *,
        replay: Callable[[], BattleResult] | None = None,
    ) -> None:
        self._kept = header, tally, collector
        self._log = log
        self._replay = replay

    @property
    def kept(self) -> tuple[tuple[str, ...], tuple[str, ...], mesa.DataCollector | None]:
        """The header, the tally and the DataCollector (replayed now if not kept)."""
        if self._replay is not None:
            self._played_again()
        return self._kept

    @property
    def log(self) -> BattleLog:
        """The battle's log (replayed now if not kept)."""
        log = self._log
        if log is None:
            self._played_again()
            log = self._log
            assert log is not None  # a record without its log has a replay
        return log

    def _played_again(self) -> None:
        replay, self._replay = self._replay, None
        assert replay is not None
        played = replay().record
        self._kept = played.kept
        if self._log is None:
            self._log = played.log


@dataclass(frozen=True, slots=True)
class BattleResult:
    """The outcome of one battle (``fadad_agents.run``).

    Attributes:
        scenario: scenario name.
        seed: the battle seed (replay with the same scenario and seed).
        winner: name of the winning side, or None (stopped, mutual, several left).
        ending: how it ended: destroyed, routed, surrendered, mutual or stopped.
        loser: the side whose defeat ended it, if any.
        rounds: personal rounds played.
        duration: sim time in seconds.
        sides: per-side head counts.
        stop_note: why the battle stopped at the runner's round cap (its scenario sets no
            ``stop.max_rounds``), or None.
        record: the battle's log, header, tally and rounds table (read them through
            :attr:`log`, :attr:`header`, :attr:`tally`, :attr:`collector` and
            :attr:`round_data`).

    A result of ``fadad_agents.run`` without ``collect=True`` makes its record on the
    first read of any of the last four, and of a small battle's log: the battle is
    played again from its scenario and seed with collection on (the same battle, byte
    for byte, so the same log, header, tally and rows), once.
    """

    scenario: str
    seed: int
    winner: str | None
    ending: str
    loser: str | None
    rounds: int
    duration: int
    sides: tuple[SideResult, ...]
    stop_note: str | None = None
    record: Record = field(default_factory=Record, repr=False, compare=False)

    @property
    def log(self) -> BattleLog:
        """The battle log (as :attr:`header`)."""
        return self.record.log

    @property
    def header(self) -> tuple[str, ...]:
        """The battle, its sides and forces and the options that differ from the defaults
        (``fadad_agents.run`` gives it; sweeps leave it empty)."""
        return self.record.kept[0]

    @property
    def tally(self) -> tuple[str, ...]:
        """Each side's characters, groups and ships at the end: wounds, fate and who took
        them out, and the healing bill (as :attr:`header`)."""
        return self.record.kept[1]

    @property
    def collector(self) -> mesa.DataCollector | None:
        """The battle's Mesa DataCollector (one row per round), or None."""
        return self.record.kept[2]

    @property
    def round_data(self) -> pd.DataFrame | None:
        """One row per round (Mesa DataCollector): strength, wounded, routed per side."""
        collector = self.collector
        if collector is None:
            return None
        frame: pd.DataFrame = collector.get_table_dataframe(ROUNDS_TABLE)
        return frame.set_index("round")

    def side(self, name: str) -> SideResult:
        """The result of the side called ``name``."""
        for s in self.sides:
            if s.name == name:
                return s
        raise KeyError(name)

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready summary (the log is written separately as JSON lines)."""
        return {
            "scenario": self.scenario,
            "seed": self.seed,
            "winner": self.winner,
            "ending": self.ending,
            "loser": self.loser,
            "rounds": self.rounds,
            "duration": self.duration,
            "sides": [s.as_dict() for s in self.sides],
            "events": len(self.log),
            "stop_note": self.stop_note,
        }

    def narrate(self) -> str:
        """The whole battle as a GM reads it aloud: the header, every event, the closing
        tally and the one-line summary."""
        return "\n".join([*self.header, *self.log.lines(), *self.tally, self.summary()])

    def summary(self) -> str:
        """One line a human reads: who won, how, after how long."""
        from fadad_agents.engine.core.log import clock

        who = wins(self.winner) if self.winner else "No winner"
        how = f"{self.loser} {self.ending}" if self.loser else self.ending
        reason = None if self.winner else self.stop_note or NO_WINNER_REASONS.get(self.ending)
        how = f"{how}: {reason}" if reason else how
        word = self.log.round_word.lower()  # "turn" in a pure Fae Domains battle
        rounds = f"{self.rounds} {word}{'s' if self.rounds != 1 else ''}"
        return escaped(f"{who} ({how}) after {rounds} ({clock(self.duration)}).")


def replays_its_log(battle: Battle) -> bool:
    """Whether a result of ``battle`` given a ``replay`` (:func:`result_of`) keeps no log
    of its own, but plays the battle again to read one: a battle of at most
    :data:`~fadad_agents.engine.core.recycle.RECYCLE_MAX_AGENTS` agents. Its play need
    keep no log (``fadad_agents.run``: :attr:`~fadad_agents.engine.core.log.BattleLog.
    keeps`)."""
    return len(battle.agents) <= RECYCLE_MAX_AGENTS


def result_of(
    battle: Battle, *, report: bool = False, replay: Callable[[], BattleResult] | None = None
) -> BattleResult:
    """Collect the result of a finished battle: with its header and tally if ``report``,
    with its round data if it collected any.

    ``replay``: for a battle that is exactly its scenario and seed (nothing stepped or
    changed it by hand), what plays it again collecting (``fadad_agents.run`` with
    ``collect=True``); the result then keeps no record now and makes it from the replay
    when first read (``report`` is moot), nor the log of a battle of at most
    :data:`~fadad_agents.engine.core.recycle.RECYCLE_MAX_AGENTS` agents (replayed as
    cheaply as it played; a bigger battle's log is kept: playing it again would cost
    more than keeping it).
    """
    if replay is not None:
        log = None if replays_its_log(battle) else battle.log
        record = Record(log=log, replay=replay)
    elif report or battle.datacollector is not None:
        header = tuple(header_lines(battle)) if report else ()
        tally = tuple(tally_lines(battle)) if report else ()
        record = Record(header, tally, battle.datacollector, battle.log)
    else:
        record = Record(log=battle.log)
    winner, ending, loser = outcome(battle)
    return BattleResult(
        scenario=battle.name,
        seed=battle.seed,
        winner=winner,
        ending=ending,
        loser=loser,
        rounds=battle.round,
        duration=int(battle.env.now),
        sides=tuple(map(_side_result, battle.sides)),
        stop_note=battle.stop.note(battle.ending, battle.round),
        record=record,
    )
