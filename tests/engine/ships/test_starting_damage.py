"""Damage a ship brings from an earlier battle (schema.starting): ``hull_damage`` (SJ hull
points) and ``damage_marks`` (the FADAD level track) hold at round 1 and play as damage
taken in this battle would."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from fadad_agents.engine import build_battle, load

SCENARIOS = Path(__file__).resolve().parents[3] / "scenarios"


def _battle(name: str, **fields: Any) -> Any:
    data = yaml.safe_load((SCENARIOS / name).read_text(encoding="utf-8"))
    data["sides"][0]["forces"][0].update(fields)
    return build_battle(load(data), 1, collect=False)


def test_hull_damage_is_hull_lost_before_the_battle() -> None:
    """Saltwind (40 hull points) strikes her colours at a quarter of her hull left: with
    30 points lost in an earlier fight she starts at 10 and strikes in round 1; unhurt on
    the same seed she fights on."""
    hurt, whole = _battle("ship-duel.yaml", hull_damage=30), _battle("ship-duel.yaml")
    assert (hurt.ships[0].hull_left, whole.ships[0].hull_left) == (10, 40)
    hurt.play_round()
    whole.play_round()
    assert [e.round for e in hurt.log if e.action == "strike"] == [1]
    assert not [e for e in whole.log if e.action == "strike"]


def test_damage_marks_set_the_fadad_level_at_the_start() -> None:
    """Resolute starting Crippled (ships-fadad.md 4): SR at most 1 and a crippled
    Maneuvering Skill from round 1, where the undamaged galleon makes SR 3."""
    crippled = _battle("fleet-action.yaml", damage_marks=["Scratched", "Crippled"])
    whole = _battle("fleet-action.yaml")
    ship = crippled.ships[0]
    assert ship.level.label == "Crippled"
    assert ship.track.marks == ((1, 1), (4, 4))
    assert (ship.sr, whole.ships[0].sr) == (1, 3)
    assert ship.ms < whole.ships[0].ms
