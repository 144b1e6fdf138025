"""Every fighter without a ``facing`` turns to its nearest foe as a Fae battle begins, each
side's nearest found together in numpy (``agents.fae.facing``): the foe each one's
``distance`` finds least, ties to the first in set-up order, and so the same battle as
each fighter measuring every foe."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from benchmarks.bench_fae import fae_bands_yaml
from fadad_agents.agents.fae import facing
from fadad_agents.agents.fae.character import FaeCharacter, position_xy
from fadad_agents.engine import build_battle, load


class _Fae:
    """A Fae fighter as ``distance`` measures it: (x, y) and altitude."""

    def __init__(self, x: float, y: float, altitude: int) -> None:
        self.xy, self.altitude = (x, y), altitude

    def distance(self, other: Any) -> float:
        return FaeCharacter.distance(self, other)  # type: ignore[arg-type]


class _Fadad:
    """A FADAD fighter of a mixed scene: a ``position`` (or none), no altitude."""

    def __init__(self, position: tuple[float, float] | None) -> None:
        self.position = position


COORD = st.sampled_from([0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 7.25, -4.0, 10.0])
"""Few values, so that many foes lie at the same distance (ties)."""

FAE = st.builds(_Fae, COORD, COORD, st.sampled_from([0, 0, 1, 5]))
FOE = st.one_of(FAE, st.builds(_Fadad, st.one_of(st.none(), st.tuples(COORD, COORD))))


@given(st.lists(FAE, min_size=1, max_size=40), st.lists(FOE, min_size=1, max_size=60))
def test_each_ones_nearest_is_the_least_distance_first_of_ties(
    askers: list[_Fae], foes: list[Any]
) -> None:
    """Fae fighters and their foes (Fae ones aloft or not, FADAD ones with a position or
    none) on a few spots, so that ties are many: each one's nearest, found together, is
    ``min(foes, key=distance)``, measured one by one or in numpy."""
    wanted = [min(foes, key=asker.distance) for asker in askers]
    assert facing.nearest_foes(askers, foes) == wanted
    saved = facing.MEASURED_EACH
    facing.MEASURED_EACH = 0  # numpy, whatever the number of foes
    try:
        assert facing.nearest_foes(askers, foes) == wanted
    finally:
        facing.MEASURED_EACH = saved


def test_a_block_of_many_rows_finds_each_rows_nearest() -> None:
    """More fighters than a block's rows (:data:`facing._ROWS`), in a line, against foes in
    another: row by row, each one's nearest."""
    askers = [_Fae(float(k), 0.0, 0) for k in range(600)]
    foes = [_Fae(2.0 * k + 0.25, 3.0, k % 3) for k in range(300)]
    assert facing.nearest_foes(askers, foes) == [min(foes, key=a.distance) for a in askers]
    assert position_xy(_Fadad(None)) == (0.0, 0.0)


@pytest.mark.parametrize("count", [3, 40])
def test_fighters_faced_together_play_the_same_battle(
    monkeypatch: pytest.MonkeyPatch, count: int
) -> None:
    """Two Fae bands formed up six yards apart, none with a ``facing``: the same headings
    and the same log, byte for byte, whether each side's nearest are found together or each
    fighter measures every foe."""

    def played() -> tuple[list[Any], str]:
        text = fae_bands_yaml(count, gap=6).replace("max_rounds: 200", "max_rounds: 4")
        battle = build_battle(load(text), 5, collect=False)
        battle.play_round()
        headings = [m.heading for m in battle.fae_members]  # type: ignore[attr-defined]
        battle.run_to_end()
        return headings, battle.log.to_jsonl()

    headings, log = played()
    assert all(heading is not None for heading in headings)
    monkeypatch.setattr(facing, "MEASURED_EACH", 10**9)  # each one measures every foe
    assert played() == (headings, log)
