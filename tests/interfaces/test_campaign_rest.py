"""Rest between battles (issue 17 item 4): wounds heal by the battle's ``healing_model``
(C-09, wounds-and-healing.md 13) exactly as the kernel's day counts say, in pieces as at
once; ships are repaired by the yard rules (C-21)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from fadad_agents import campaign
from fadad_agents.rules.personal.healing import days_to_heal, heal_track
from fadad_agents.rules.ships.chase import repair_cost
from fadad_agents.rules.ships.fadad_damage import repair_cost as fadad_repair_cost
from fadad_agents.rules.ships.fadad_damage import repair_weeks, repair_worker_weeks
from fadad_agents.schema.starting import SHIP_LEVELS, mark_text, parse_mark

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"


def _brawl(model: str) -> campaign.EndState:
    data = yaml.safe_load((SCENARIOS / "tavern-brawl.yaml").read_text(encoding="utf-8"))
    data.setdefault("rules", {})["healing_model"] = model
    return campaign.play_for_state(data, seed=1)[1]


def _track(person: campaign.CharacterState, wounds: list[str]) -> Any:
    return person.marked(wounds)


@pytest.mark.parametrize("model", ["fadad", "fudge"])
def test_each_wounded_heals_on_the_day_the_kernel_says(model: str) -> None:
    """Under either healing_model, a wounded survivor is whole after the days the kernel's
    :func:`days_to_heal` gives its slowest wound, and not a day sooner."""
    state = _brawl(model)
    wounded = [p for p in state.characters if p.wounds and p.fate != "dead"]
    assert wounded
    for person in wounded:
        need = max(days_to_heal(_track(person, person.wounds), model, person.healing))  # type: ignore[arg-type]
        almost = campaign.rest(state, need - 1)[0]
        whole = campaign.rest(state, need)[0]
        assert next(p for p in almost.characters if p.name == person.name).wounds
        assert not next(p for p in whole.characters if p.name == person.name).wounds


@pytest.mark.parametrize("model", ["fadad", "fudge"])
def test_rest_leaves_the_kernels_healed_track(model: str) -> None:
    """After N days each survivor's wounds are the marks of the kernel's heal_track of its
    end-of-battle track, under the battle's model and with its healing attribute."""
    state = _brawl(model)
    for days in (3, 10, 25):
        rested = campaign.rest(state, days)[0]
        for before, after in zip(state.characters, rested.characters, strict=True):
            if before.fate == "dead":
                continue
            healed = heal_track(_track(before, before.wounds), days, model, before.healing)  # type: ignore[arg-type]
            assert after.wounds == [mark_text(b, s) for b, s in healed.marks]


def test_healing_model_decides_how_fast_a_hurt_heals() -> None:
    """The same brawl (healing_model changes no blow): after 7 days a Hurt has healed under
    FUDGE (a level a week) and not under FADAD (14 days a level)."""
    fadad, fudge = _brawl("fadad"), _brawl("fudge")
    assert [p.wounds for p in fadad.characters] == [p.wounds for p in fudge.characters]
    hurt = [p.name for p in fadad.characters if p.wounds == ["Hurt"]]
    assert hurt
    week_fadad, week_fudge = campaign.rest(fadad, 7)[0], campaign.rest(fudge, 7)[0]
    for name in hurt:
        assert next(p for p in week_fadad.characters if p.name == name).wounds == ["Hurt"]
        assert next(p for p in week_fudge.characters if p.name == name).wounds == []


def test_two_rests_are_one_rest_of_their_days() -> None:
    """Resting 10 days and then 11 leaves everyone as resting 21 days at once."""
    state = _brawl("fadad")
    twice = campaign.rest(campaign.rest(state, 10)[0], 11)[0]
    once = campaign.rest(state, 21)[0]
    assert twice == once
    assert once.rested_days == 21


def test_the_dead_do_not_heal() -> None:
    """A dead character's wounds stay as the battle left them, however long the rest."""
    state = _brawl("fadad")
    dead = state.characters[0].model_copy(update={"fate": "dead", "wounds": ["Hurt"]})
    state = state.model_copy(update={"characters": [dead]})
    assert campaign.rest(state, 365)[0].characters[0].wounds == ["Hurt"]


def test_a_yard_repairs_hull_points_by_the_sj_bill() -> None:
    """SJ 17 (C-21): each day a five-worker crew mends a hull point (three days a point when
    more than half the hull was lost); the change says what was mended."""
    _, state = campaign.play_for_state(SCENARIOS / "ship-duel.yaml", seed=1)
    damaged = [s for s in state.ships if s.hull_damage]
    assert damaged
    for days in (1, 5, 30):
        rested, changes = campaign.rest(state, days)
        mended_ships = 0
        for before, after in zip(state.ships, rested.ships, strict=True):
            if not before.hull_damage:
                continue
            mended = before.hull_damage - after.hull_damage
            bill = repair_cost(mended, before.hull_points, before.hull_damage, 5)
            assert bill.days <= days
            if after.hull_damage:
                more = repair_cost(mended + 1, before.hull_points, before.hull_damage, 5)
                assert more.days > days
            mended_ships += mended > 0
        assert len(changes) == mended_ships  # one line per ship mended


def test_a_fadad_ship_is_repaired_whole_when_the_bill_is_worked_off() -> None:
    """FADAD 7 (C-21, A-43): the level's share of her cost at 20 gp a worker-week, at most
    repair_workers_per_ton workers a ton; before those weeks are up she stays damaged."""
    _, state = campaign.play_for_state(SCENARIOS / "fleet-action.yaml", seed=1)
    ship = next(s for s in state.ships if s.damage_marks and s.fate != "out")
    level = max(parse_mark(m, SHIP_LEVELS)[0] for m in ship.damage_marks)
    weeks = repair_weeks(
        repair_worker_weeks(fadad_repair_cost(ship.cost_gp, level)),
        ship.tons,
        workers_per_ton=state.repair_workers_per_ton,
    )
    before = campaign.rest(state, 7 * weeks - 1)[0]
    after, changes = campaign.rest(state, 7 * weeks)
    assert next(s for s in before.ships if s.name == ship.name).damage_marks == ship.damage_marks
    assert next(s for s in after.ships if s.name == ship.name).damage_marks == []
    assert any(c.startswith(f"{ship.name}: repaired whole") for c in changes)


def test_an_npc3_track_heals_on_its_own_boxes() -> None:
    """The brawl's npc3 dockhands (Undamaged / Hurt / Out): an Out wound that heals to Very
    Hurt is written in the Hurt box, as npc3 records a Very Hurt, and they can fight again."""
    state = campaign.rest(_brawl("fadad"), 15)[0]
    mended = [
        p for p in state.characters if p.track == "npc3" and p.wounds == ["Very Hurt in Hurt"]
    ]
    assert mended
    assert not any(p.marked(p.wounds).out_of_fight for p in mended)
