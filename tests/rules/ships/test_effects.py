"""The shared ship-critical effect vocabulary (CONFLICTS.md C-03)."""

import dataclasses

import pytest

from fadad_agents.rules.ships import effects as fx


def test_effects_are_frozen_and_slotted():
    """Every effect class is a frozen, slotted dataclass (hashable, immutable values)."""
    for cls in fx.SHIP_EFFECT_TYPES:
        assert dataclasses.is_dataclass(cls)
        assert cls.__dataclass_params__.frozen
        assert hasattr(cls, "__slots__")
    fire = fx.Fire()
    with pytest.raises(dataclasses.FrozenInstanceError):
        fire.points = 3  # type: ignore[misc]
    assert {fx.Fire(), fx.Fire()} == {fx.Fire(0, 1)}


def test_union_lists_every_effect_class():
    """ShipEffect and SHIP_EFFECT_TYPES name the same classes."""
    assert set(fx.ShipEffect.__value__.__args__) == set(fx.SHIP_EFFECT_TYPES)


def test_crit_fire_starts_at_zero_and_grows_by_one():
    """A critical-hit fire does 0 the first round, then +1 a round (C-08)."""
    assert fx.Fire() == fx.Fire(points=0, growth=1)


def test_timed_effect_seconds_use_their_round_length():
    """Durations are rounds of the round length they are written in (C-01)."""
    sj = fx.SpeedLoss(sr=1, rounds=5, round_seconds=fx.SJ_ROUND_SECONDS)
    fadad = fx.ManeuverLoss(classes=1, rounds=1, round_seconds=fx.FADAD_SHIP_ROUND_SECONDS)
    assert sj.seconds == 30
    assert fadad.seconds == 60
    assert fx.HelmMalfunction(rounds=1, round_seconds=6).seconds == 6
    open_ended = fx.SpeedLoss(1, None, 60, recovery=fx.Check("spelljamming", 2, "ladder"))
    assert open_ended.seconds is None


@pytest.mark.parametrize(
    ("rounds", "src", "dst", "expected"),
    [(7, 6, 60, 1), (10, 6, 60, 1), (11, 6, 60, 2), (1, 60, 6, 10), (0, 6, 60, 0), (3, 6, 6, 3)],
)
def test_convert_rounds_rounds_up(rounds, src, dst, expected):
    """Converting between round lengths never shortens an effect."""
    assert fx.convert_rounds(rounds, src, dst) == expected


@pytest.mark.parametrize(
    "build",
    [
        lambda: fx.SpeedLoss(0, 3, 6),
        lambda: fx.SpeedLoss(1, 0, 6),
        lambda: fx.ManeuverLoss(1, 2, 0),
        lambda: fx.HullLoss(0),
        lambda: fx.Fire(points=-1),
        lambda: fx.HelmMalfunction(0, 6),
        lambda: fx.convert_rounds(-1, 6, 60),
    ],
)
def test_impossible_effects_raise_value_error(build):
    """Impossible numbers are a ValueError naming what was wrong."""
    with pytest.raises(ValueError, match=r"got|cannot"):
        build()


def test_match_dispatches_on_class():
    """Handlers dispatch with `match` on the effect class."""

    def describe(effect: fx.ShipEffect) -> str:
        match effect:
            case fx.HullLoss(n=n):
                return f"-{n} hp"
            case fx.DeckCrew(damage=d, kind="bolt"):
                return f"bolt {d}"
            case _:
                return type(effect).__name__

    assert describe(fx.HullLoss(10)) == "-10 hp"
    assert describe(fx.DeckCrew(damage=4, kind="bolt")) == "bolt 4"
    assert describe(fx.HullHoled()) == "HullHoled"
