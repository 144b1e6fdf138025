"""Replicates: independent battle seeds and one result row per battle.

Replicate ``k`` of a sweep with root seed ``s`` plays the battle seed drawn from child
``k`` of ``numpy.random.SeedSequence(s).spawn(runs)`` (63 bits, so it fits a Parquet
int64 and a scenario's ``seed:``). The child depends on ``(s, k)`` alone, so replicate
``k`` is the same battle in a sweep of any size, on any backend and worker, and whether
or not replicate ``k - 1`` was played: every replicate builds a fresh Battle from the
scenario text (no state is shared or carried over).

:func:`run_batch` is the unit of work every backend ships to a worker: a picklable
:class:`Batch` in, a list of plain row dicts out.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from typing import Any
from weakref import WeakKeyDictionary

from fadad_agents.agents.core.field import compiled
from fadad_agents.engine import Battle, BattleResult, play_through, spawn_states
from fadad_agents.engine.core.build import per_scenario
from fadad_agents.engine.core.result import SIDE_COUNTS, outcome, side_counts
from fadad_agents.engine.core.streams import mix_ahead
from fadad_agents.schema.character import Character
from fadad_agents.schema.fae import FaeCharacter
from fadad_agents.schema.forces import Ship
from fadad_agents.schema.limits import Limits
from fadad_agents.schema.loader import load_scenario
from fadad_agents.schema.scenario import Scenario

__all__ = [
    "FIGHTER_FIELDS",
    "SHIP_FIELDS",
    "SIDE_FIELDS",
    "Batch",
    "Portable",
    "fighter_names",
    "fighter_row",
    "replicate_seed",
    "replicate_seeds",
    "result_row",
    "run_batch",
    "run_replicate",
    "ship_names",
    "ship_row",
]

SIDE_FIELDS = SIDE_COUNTS
"""Per-side columns of a result row, named ``"<side>.<field>"`` (``"Snorri.survivors"``)."""

FIGHTER_FIELDS = ("down", "killed", "wound_level", "rounds_active", "taken_out_by")
"""Per-fighter columns of every named individual (a character or Fae combatant of count 1),
named ``"<fighter>.<field>"``: taken out of the fight (wounds, not withdrawal), killed,
final wound level (0 Undamaged .. 6 Dead), rounds in the fight (the round it went out, or
the battle's length), and who took it out (None when nothing did, or no blow: bleeding)."""

SHIP_FIELDS = ("hull", "crew_fighting", "struck")
"""Per-ship columns, named ``"<ship>.<field>"``: share of the hull left (0..1; FADAD: of
the damage track), own crew heads still fighting, whether she struck her colours."""

_SEED_MASK = (1 << 63) - 1


def replicate_seeds(seed: int, runs: int, start: int = 0) -> list[int]:
    """Battle seeds of replicates ``start .. runs-1`` (``SeedSequence(seed).spawn(runs)``:
    child ``k``'s ``generate_state(1, uint64)``, its low 63 bits)."""
    return [state & _SEED_MASK for state in spawn_states(seed, range(start, runs))]


def replicate_seed(seed: int, index: int) -> int:
    """Battle seed of replicate ``index`` alone (equal to ``replicate_seeds(seed, n)[index]``).

    ``SeedSequence.spawn`` gives child ``k`` the spawn key ``(k,)``, so one child is made
    directly without spawning the ones before it."""
    return replicate_seeds(seed, index + 1, index)[0]


def result_row(result: BattleResult) -> dict[str, Any]:
    """The row of one battle: winner, ending, length and per-side head counts."""
    row: dict[str, Any] = {
        "seed": result.seed,
        "winner": result.winner,
        "loser": result.loser,
        "ending": result.ending,
        "rounds": result.rounds,
        "duration_s": result.duration,
    }
    for side in result.sides:
        values = side.as_dict()
        for field in SIDE_FIELDS:
            row[f"{side.name}.{field}"] = values[field]
    return row


def _battle_row(battle: Battle, row: dict[str, Any]) -> None:
    """:func:`result_row` of the battle's result, into ``row``, without making the result."""
    winner, ending, loser = outcome(battle)
    row["seed"] = battle.seed
    row["winner"] = winner
    row["loser"] = loser
    row["ending"] = ending
    row["rounds"] = battle.round
    row["duration_s"] = int(battle.env.now)
    for side in battle.sides:
        row.update(zip(_side_columns(side.name), side_counts(side), strict=True))


def ship_row(battle: Battle, row: dict[str, Any] | None = None) -> dict[str, Any]:
    """Hull and crew left of every ship of a finished battle (none without ships), added
    to ``row`` if given."""
    row = {} if row is None else row
    for ship in getattr(battle, "ships", ()):
        row[f"{ship.name}.hull"] = float(ship.hull_fraction)
        row[f"{ship.name}.crew_fighting"] = int(battle.own_heads(ship))
        row[f"{ship.name}.struck"] = bool(ship.struck)
    return row


def fighter_row(
    battle: Battle, names: frozenset[str], row: dict[str, Any] | None = None
) -> dict[str, Any]:
    """Fate of each named individual of a finished battle (see :data:`FIGHTER_FIELDS`),
    added to ``row`` if given."""
    row = {} if row is None else row
    if not names:
        return row
    takedowns = battle.log.takedowns()
    rounds = battle.round  # not taken out: active every round, by no one's hand
    for member, (down, killed, level, active, by) in _named(battle, names):
        taken = takedowns.get(member.name)
        track = getattr(member, "track", None)
        row[down] = taken is not None
        row[killed] = track is not None and track.dead
        row[level] = int(member.wound)
        if taken is None:
            row[active] = rounds
            row[by] = None
        else:
            row[active] = int(taken[0])
            row[by] = taken[1]
    return row


def _named(battle: Battle, names: frozenset[str]) -> list[tuple[Any, tuple[str, ...]]]:
    """The battle's members named in ``names``, in roster order, each with its columns:
    found once a battle and names (a sweep's recycled battle plays many replicates; its
    agents join only before its first round)."""
    kept = _NAMED.get(battle)
    if kept is not None and (kept[0] is names or kept[0] == names):
        return kept[1]
    found = [
        (member, _fighter_columns(member.name))
        for side in battle.sides
        for member in side.members
        if member.name in names
    ]
    _NAMED[battle] = (names, found)
    return found


_NAMED: WeakKeyDictionary[Battle, tuple[frozenset[str], list[tuple[Any, tuple[str, ...]]]]] = (
    WeakKeyDictionary()
)
""":func:`_named`'s answers, by battle (kept while the battle is)."""


@lru_cache(maxsize=4096)
def _side_columns(name: str) -> tuple[str, ...]:
    """The names of a side's columns, in :data:`SIDE_FIELDS` order (made once)."""
    return tuple(f"{name}.{field}" for field in SIDE_FIELDS)


@lru_cache(maxsize=4096)
def _fighter_columns(name: str) -> tuple[str, ...]:
    """The names of a fighter's columns, in :data:`FIGHTER_FIELDS` order (made once)."""
    return tuple(f"{name}.{field}" for field in FIGHTER_FIELDS)


def run_replicate(scenario: Scenario, seed: int, index: int) -> dict[str, Any]:
    """Play replicate ``index`` of a sweep with root ``seed`` on its own (a battle in its
    starting state, recycled by :func:`~fadad_agents.engine.play_through` when small).

    The same steps as :func:`fadad_agents.engine.run` (set up, play, collect), reading the
    battle's ships before it is given back.
    """
    names = frozenset(fighter_names(scenario))
    row: dict[str, Any] = {"replicate": index}
    _replicate_row(scenario, replicate_seed(seed, index), names, row)
    return row


def _replicate_row(
    scenario: Scenario,
    battle_seed: int,
    names: frozenset[str],
    row: dict[str, Any],
    streams: set[str] | None = None,
) -> None:
    """The replicate's outcome, ships and named fighters, into ``row`` (one dict a
    replicate: the columns are written straight from the finished battle); the names of
    the random streams it rolled on into ``streams``, if given. Its log is read for the
    named fighters' fates alone (who took each out, when): without them it keeps none
    (:attr:`~fadad_agents.engine.core.log.BattleLog.keeps`)."""
    with play_through(scenario, battle_seed, collect=False) as battle:
        battle.log.keeps = bool(names)  # read for the named fighters' fates alone
        _battle_row(battle.run_to_end(), row)
        ship_row(battle, row)
        fighter_row(battle, names, row)
        if streams is not None:
            streams.update(battle.streams.asked)


def ship_names(scenario: Scenario) -> list[str]:
    """Names of the ships in a scenario, in file order (the per-ship columns)."""
    return [force.name for _, force in scenario.forces if isinstance(force, Ship)]


def fighter_names(scenario: Scenario) -> list[str]:
    """Names of the scenario's named individuals, in file order (the per-fighter columns):
    characters and Fae combatants of count 1, each name once."""
    named = [
        force.name
        for _, force in scenario.forces
        if isinstance(force, Character | FaeCharacter) and force.count == 1
    ]
    return list(dict.fromkeys(named))


class Portable:
    """A variant's scenario as a batch carries it: in the sweep's own process the
    validated object itself (a serial sweep parses nothing again), elsewhere its JSON data,
    validated once per worker process.

    Pickling (to a worker process or a Dask worker) sends the JSON text of
    ``scenario.model_dump(mode="json")``, written once per variant; validating it gives an
    equal scenario (``tests/interfaces/test_sweep_grid.py``). A worker keeps what it
    validated by that text, so its batches of one variant share one Scenario object, and
    with it the engine's per-scenario set-up and recycled battles.
    """

    __slots__ = ("_json", "_scenario", "limits")

    def __init__(self, scenario: Scenario) -> None:
        self._scenario: Scenario | None = scenario
        self._json: str | None = None
        self.limits: Limits = scenario.limits  # what it was validated against

    @property
    def json(self) -> str:
        """The scenario's plain data as canonical JSON text (sorted keys)."""
        if self._json is None:
            assert self._scenario is not None
            data = self._scenario.model_dump(mode="json")
            self._json = json.dumps(data, sort_keys=True, separators=(",", ":"))
        return self._json

    @property
    def scenario(self) -> Scenario:
        """The scenario to play (validated from the JSON text on first use in a worker)."""
        if self._scenario is None:
            assert self._json is not None
            self._scenario = _scenario(self._json, self.limits)
        return self._scenario

    def __getstate__(self) -> tuple[str, Limits]:
        return self.json, self.limits

    def __setstate__(self, state: tuple[str, Limits]) -> None:
        self._json, self.limits = state
        self._scenario = None


@dataclass(frozen=True, slots=True)
class Batch:
    """Replicates ``start .. stop-1`` of one grid variant (what a worker plays).

    Attributes:
        variant: the variant's index in the grid.
        start: first replicate index.
        stop: one past the last replicate index.
        seed: the sweep's root seed.
        source: the variant's scenario (sent to a worker as its JSON data).
        after: about how many replicates the sweep plays after this batch's, every
            variant's (whether loading the field's compiled code pays: :func:`run_batch`).
    """

    variant: int
    start: int
    stop: int
    seed: int
    source: Portable
    after: int = 0


# Validating a scenario takes ~10-20 ms (schema and catalogue); a worker plays many batches
# of the same few variants, so it keeps the validated scenarios. A Scenario is frozen, and
# every replicate builds its own Battle from it, so sharing it carries no state over.
_SCENARIOS: dict[tuple[str, Limits | None], Scenario] = {}


def _scenario(data: str, limits: Limits | None) -> Scenario:
    scenario = _SCENARIOS.get((data, limits))
    if scenario is None:
        if len(_SCENARIOS) > 64:
            _SCENARIOS.clear()
        scenario = _SCENARIOS[data, limits] = load_scenario(json.loads(data), limits=limits)
    return scenario


_STREAMS: dict[int, tuple[Scenario, set[str]]] = {}
"""The random streams each scenario's battles have rolled on so far (what a batch mixes
ahead for its replicates)."""


def run_batch(batch: Batch) -> list[dict[str, Any]]:
    """Play the replicates of ``batch``; one row per replicate, in replicate order.

    Their streams' seeds are mixed for the whole batch at once (:func:`mix_ahead`), from
    the first replicate on if earlier battles of the scenario said which streams it
    rolls on, else from the second. The first replicate's agent-rounds on a field, times
    the sweep's replicates to come, say whether loading the field's compiled code pays
    (:func:`~fadad_agents.agents.core.field.compiled.expect`; a worker of several plays
    only its share of them, so it may load a little early)."""
    scenario = batch.source.scenario
    names = frozenset(fighter_names(scenario))
    streams = per_scenario(_STREAMS, scenario, set)
    seeds = replicate_seeds(batch.seed, batch.stop, batch.start)
    rows = []
    mixed = False
    counted = compiled.counted()
    for k, battle_seed in enumerate(seeds):
        if not mixed and streams:
            mix_ahead(seeds[k:], set(streams))  # a copy: another thread may add to it
            mixed = True
        row: dict[str, Any] = {"variant": batch.variant, "replicate": batch.start + k}
        _replicate_row(scenario, battle_seed, names, row, streams)
        rows.append(row)
        if k == 0 and compiled.counting:  # its agent-rounds on a field, times those to come
            compiled.expect((compiled.counted() - counted) * (len(seeds) - 1 + batch.after))
    return rows


def run_batches(batches: list[Batch]) -> list[list[dict[str, Any]]]:
    """:func:`run_batch` of each batch, in order (one Dask task carrying several batches)."""
    return [run_batch(batch) for batch in batches]
