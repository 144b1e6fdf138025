"""The aftermath round trip (issue 17 item 4): a battle's end state, written out and read
back, applied to the next scenario, gives the same wounds, Ité points, shots, heads, hull
and damage boxes at that battle's start; who cannot fight is left out with a note."""

from __future__ import annotations

from pathlib import Path

import pytest

from fadad_agents import campaign
from fadad_agents.agents.core.character import Character
from fadad_agents.agents.core.groups import Group
from fadad_agents.engine import build_battle, load
from fadad_agents.schema.loader import ScenarioError
from fadad_agents.schema.starting import SHIP_LEVELS, mark_text

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"
CARRIED = ["tavern-brawl", "boarding-action", "ship-duel", "fleet-action", "field-battle"]


def _round_trip(name: str, tmp_path: Path, days: int) -> tuple[campaign.EndState, object]:
    path = SCENARIOS / f"{name}.yaml"
    _, state = campaign.play_for_state(path, seed=1)
    state, _ = campaign.rest(state, days)  # the Incapacitated mend to Very Hurt or better
    campaign.write_state(state, tmp_path / "end.json")
    state = campaign.read_state(tmp_path / "end.json")
    nxt = campaign.apply_state(state, path)
    (tmp_path / "next.yaml").write_text(nxt.text, encoding="utf-8")
    return state, build_battle(load(tmp_path / "next.yaml"), 2, collect=False)


@pytest.mark.parametrize("name", CARRIED)
def test_the_next_battle_starts_as_the_last_one_ended(name: str, tmp_path: Path) -> None:
    """Every named character that can fight starts the next battle with the wounds and Ité
    points it ended with; every crew and unit with the heads it had left; every ship
    afloat with her hull damage and damage boxes."""
    state, battle = _round_trip(name, tmp_path, days=15)
    people = {p.name: p for p in state.characters if p.name == p.force}  # not group members
    bands = _able_members(state)
    groups = {g.name: g for g in state.groups}
    checked = 0
    for roster in battle.sides:  # type: ignore[attr-defined]
        for member in roster.members:
            marks = [mark_text(b, s) for b, s in getattr(member, "track", _NO_TRACK).marks]
            if isinstance(member, Character) and member.name in people:
                was = people[member.name]
                assert (marks, member.ite_points) == (was.wounds, was.ite_points)
                checked += 1
            elif isinstance(member, Character) and member.band.name in bands:
                assert marks == bands[member.band.name].pop(0)  # members in order
                checked += 1
            elif isinstance(member, Group) and member.name in groups:
                assert member.count == groups[member.name].count
                checked += 1
    for ship in battle.ships if hasattr(battle, "ships") else ():  # type: ignore[attr-defined]
        was = next(s for s in state.ships if s.name == ship.name)
        marks = [mark_text(b, s, SHIP_LEVELS) for b, s in ship.track.marks]
        assert (ship.hull_damage, marks) == (was.hull_damage, was.damage_marks)
        checked += 1
    assert checked


class _NoTrack:
    marks: tuple[tuple[int, int], ...] = ()


_NO_TRACK = _NoTrack()


def _able_members(state: campaign.EndState) -> dict[str, list[list[str]]]:
    """Each group's members able to fight, in order: their wounds."""
    bands: dict[str, list[list[str]]] = {}
    for p in state.characters:
        if p.name != p.force and p.fate != "dead" and not _out_of_fight(p.wounds):
            bands.setdefault(p.force, []).append(list(p.wounds))
    return bands


def test_the_fallen_are_left_out_with_a_note(tmp_path: Path) -> None:
    """Straight after the tavern brawl (no rest), the named characters still Incapacitated
    or worse are left out of the next fight, and a group comes with its members able to
    fight."""
    _, state = campaign.play_for_state(SCENARIOS / "tavern-brawl.yaml", seed=1)
    nxt = campaign.apply_state(state, SCENARIOS / "tavern-brawl.yaml")
    dockhands = [p for p in state.characters if p.force == "Dockhand"]
    able = sum(1 for p in dockhands if p.fate != "dead" and not _out_of_fight(p.wounds))
    downed = [
        p.name
        for p in state.characters
        if p.name == p.force and p.fate != "dead" and _out_of_fight(p.wounds)
    ]
    assert downed
    for name in downed:
        (note,) = [n for n in nxt.notes if n.startswith(f"{name}: ")]
        assert note.startswith(f"{name}: left out, ")
        assert note.endswith(" (rest first)")
        assert f"name: {name}\n" not in nxt.text
    assert f"Dockhand: {able} of 15 come" in nxt.notes
    assert able > 0


def _out_of_fight(wounds: list[str]) -> bool:
    return any(w.split(" in ")[-1] in ("Incapacitated", "Near Death") for w in wounds)


def test_a_side_nobody_of_which_can_fight_is_one_line(tmp_path: Path) -> None:
    """Brynhild ends the duel Incapacitated: carried straight into a rematch, her side is
    empty, said in one line naming the next scenario's file and line."""
    path = SCENARIOS / "snorri-vs-brynhild.yaml"
    _, state = campaign.play_for_state(path, seed=1)
    with pytest.raises(ScenarioError) as caught:
        campaign.apply_state(state, path)
    (line,) = caught.value.problems
    assert line.startswith(f"{path}:")
    assert "nobody of side 'Brynhild' can fight" in line


def test_a_state_file_of_another_version_is_refused_in_one_line(tmp_path: Path) -> None:
    """A state file from another format version: one line naming the file and version."""
    bad = tmp_path / "old.json"
    bad.write_text('{"format": "fadad-campaign-state", "version": 9}', encoding="utf-8")
    with pytest.raises(ScenarioError) as caught:
        campaign.read_state(bad)
    assert caught.value.problems == [
        f"{bad}:1 version: this is a version 9 state file; this fadad reads version 1 "
        "(write it again with this version's fadad run --state-out)"
    ]


_LINE = """
name: A shield wall
sides:
  - name: Wall
    forces:
      - {name: Spearman, count: 6, position: [0, 0], ranks: 3, skills: {Staff: Good},
         attack_skill: Staff, weapon: weapons/quarterstaff}
  - name: Raiders
    forces:
      - {name: Raider, count: 6, position: [1, 0], skills: {Axe: Good}, attack_skill: Axe,
         weapon: weapons/axe}
stop: {max_rounds: 2}
"""


@pytest.mark.parametrize(("able", "ranks"), [(6, 3), (3, 3), (2, 2), (1, None)])
def test_a_group_in_ranks_comes_as_deep_as_those_able_allow(
    able: int, ranks: int | None, tmp_path: Path
) -> None:
    """Character.ranks carried on: a wall of 6 spearmen 3 deep comes 3 deep while 3 or more
    of them can fight, as many ranks as come where fewer do (2: two ranks of one), and one
    alone out of ranks (a lone fighter forms none), with a note; the next battle loads and
    stands them so."""
    path = tmp_path / "wall.yaml"
    path.write_text(_LINE, encoding="utf-8")
    _, state = campaign.play_for_state(path, seed=1)
    people = [
        p.model_copy(update={"fate": "fighting", "wounds": []})
        if p.force != "Spearman" or int(p.name.split()[-1]) <= able
        else p.model_copy(update={"fate": "dead"})
        for p in state.characters
    ]
    nxt = campaign.apply_state(state.model_copy(update={"characters": people}), path)
    (tmp_path / "next.yaml").write_text(nxt.text, encoding="utf-8")
    battle = build_battle(load(tmp_path / "next.yaml"), 2, collect=False)
    wall = battle.sides[0].members
    assert len(wall) == able
    assert len({m.start_position[0] for m in wall}) == (ranks or 1)
    assert (f"ranks: {ranks}" in nxt.text) is (ranks is not None)
    assert any("ranks" in note for note in nxt.notes) is (ranks != 3)
