"""A ship battle plays the same with every remembered answer as with none.

Ship sweeps are quick because the engine remembers what it worked out: the moves a ship
may make from a state (``maneuver._reachable_from``), a maneuver's choice among them (by
situation and options, and by the shape of the moves against a foe as far off the same
way, ``_Maneuver._shifted``), whether a gun bears, dice parsed, reload lengths, ram
outcomes, a crew's morale entries, and triggers that stand while no side's strength
changed (``morale._counts_tell``). Each is checked on its own elsewhere; here whole
battles of the shipped ship scenarios are played with all of them and with none: the same
log, byte for byte, and the same events.
"""

from __future__ import annotations

import sys
from typing import Any

import pytest

import fadad_agents.engine.ships.maneuver as reach
import fadad_agents.engine.ships.morale as morale
import fadad_agents.policies.ships.maneuver as maneuvers
from fadad_agents.engine import build_battle, load
from tests.engine.conftest import SCENARIOS

SHIP_SCENARIOS = ("ship-duel", "fleet-action", "boarding-action", "wyrm-at-the-moonlet")
SEEDS = range(20)


def _played(name: str, seed: int) -> tuple[str, list[Any]]:
    battle = build_battle(load(SCENARIOS / f"{name}.yaml"), seed, collect=False)
    battle.run_to_end()
    return battle.log.text(), [tuple(e) for e in battle.log]


def _caches() -> list[tuple[Any, str, Any]]:
    """Every function of the package's modules loaded now that keeps its answers
    (``functools.cache`` or ``lru_cache``), as (module, name, function)."""
    return [
        (module, name, value)
        for module_name, module in list(sys.modules.items())
        if module_name.startswith("fadad_agents")
        for name, value in list(vars(module).items())
        if hasattr(value, "cache_info") and hasattr(value, "__wrapped__")
    ]


def _scored(self: Any, ship: Any, battle: Any, options: Any) -> Any:
    """``_Maneuver.choose_move`` without its memos: the nearest foe's situation scored."""
    foe = maneuvers.nearest_enemy(ship, battle)
    if foe is None:
        return options[0]
    return self._best(self.situation(ship, foe), options)


def _forget(monkeypatch: pytest.MonkeyPatch) -> None:
    """Switch every remembered answer off."""
    for module, name, cached in _caches():
        monkeypatch.setattr(module, name, cached.__wrapped__)
    monkeypatch.setattr(maneuvers._Maneuver, "choose_move", _scored)
    monkeypatch.setattr(morale, "_counts_tell", False)


def test_ship_battles_play_the_same_with_every_remembered_answer_or_none(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The shipped ship scenarios, 20 seeds each: the same log and events with the
    engine's caches and memos as without them; and the caches found include the ones
    a ship round leans on."""
    remembered = {(name, seed): _played(name, seed) for name in SHIP_SCENARIOS for seed in SEEDS}
    names = {name for _, name, _ in _caches()}
    assert {"_reachable_from", "_bearing", "reload_remaining", "_hd_entries"} <= names
    _forget(monkeypatch)
    for (name, seed), played in remembered.items():
        assert _played(name, seed) == played, f"{name}, seed {seed}"


def test_plans_made_again_leave_the_remembered_moves_right(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A ship's plans rotated to her facing made afresh at every move (not kept), while
    the maneuvers remember their choices by the shape of the moves: the same battles (a
    shape is known by what the plans are made of, not by the plans' identity, which new
    plans could take over from dropped ones)."""
    remembered = [_played(name, seed) for name in SHIP_SCENARIOS for seed in range(8)]
    monkeypatch.setattr(reach, "_oriented", reach._oriented.__wrapped__)
    reach._reachable_from.cache_clear()
    again = [_played(name, seed) for name in SHIP_SCENARIOS for seed in range(8)]
    reach._reachable_from.cache_clear()  # none of its moves outlive the test's plans
    assert again == remembered


def test_a_memo_blind_to_the_foe_plays_other_battles(monkeypatch: pytest.MonkeyPatch) -> None:
    """The comparison can fail: a shape memo that forgets where the foe stands (its
    choice among moves of one shape kept whatever the situation) plays other battles."""
    seen: dict[Any, int] = {}

    def blind(self: Any, memo: Any, situation: Any, options: Any) -> Any:
        key = (memo, options.shape)
        if key not in seen:
            seen[key] = options.index(self._best(situation, options))
        return options[seen[key]]

    right = [_played("fleet-action", seed) for seed in range(6)]
    monkeypatch.setattr(maneuvers._Maneuver, "_shifted", blind)
    wrong = [_played("fleet-action", seed) for seed in range(6)]
    assert sum(a != b for a, b in zip(right, wrong, strict=True)) >= 2
