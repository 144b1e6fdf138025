"""The aftermath: a battle's end state carried into the next scenario.

:func:`apply_state` reads the next scenario and writes, for every force the state knows
by name, the starting-state fields (:mod:`fadad_agents.schema.starting`): a character's
``wounds``, ``ite_points`` and ``shots_left``; a crew's or unit's ``count`` (those left
standing), a ``count:`` group's ``count`` and ``member_wounds`` (those able to fight, each
with its wounds, in no more ``ranks`` than they are); a ship's ``hull_damage`` and
``damage_marks``. Who cannot fight is left out of the next battle, each with a note: the
dead, those still Incapacitated or worse (rest first: :func:`~fadad_agents.campaign.rest`),
groups with no one left and ships the battle took out. Prisoners and the fled come as they
are, with a note (whether they are at the next fight is the GM's call). Forces the state
does not name are unchanged; names the next scenario does not hold are noted.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from fadad_agents.campaign.state import CharacterState, EndState, GroupState, ShipState
from fadad_agents.schema.limits import DEFAULT_LIMITS
from fadad_agents.schema.loader import ScenarioError, load_scenario
from fadad_agents.schema.source import parse_yaml, read_source

__all__ = ["Aftermath", "apply_state"]

_AWAY = {"surrendered": "surrendered (a prisoner?)", "withdrawn": "fled", "routed": "fled"}


@dataclass(frozen=True, slots=True)
class Aftermath:
    """The next scenario with the state applied (YAML text), and what the GM should know."""

    text: str
    notes: tuple[str, ...]


def _track(person: CharacterState) -> Any:
    return person.marked(person.wounds)


def _able(person: CharacterState) -> bool:
    return person.fate != "dead" and not _track(person).out_of_fight


def _why_not(person: CharacterState) -> str:
    return "dead" if person.fate == "dead" else f"{_track(person).level.label} (rest first)"


def _character(force: dict[str, Any], people: list[CharacterState], notes: list[str]) -> bool:
    """Apply to a character entry; False to leave it out."""
    name = force["name"]
    able = [p for p in people if _able(p)]
    if int(force.get("count", 1)) > 1 or len(people) > 1:
        if not able:
            notes.append(f"{name}: left out (none of {len(people)} can fight)")
            return False
        force["count"] = len(able)
        _ranks_of(force, len(able), notes)
        force.pop("wounds", None)
        force.pop("member_wounds", None)
        wounds = [list(p.wounds) for p in able]
        while wounds and not wounds[-1]:
            wounds.pop()
        if wounds:
            force["member_wounds"] = wounds
        notes.append(f"{name}: {len(able)} of {len(people)} come")
        return True
    (person,) = people
    if not able:
        notes.append(f"{name}: left out, {_why_not(person)}")
        return False
    force.pop("wounds", None)
    if person.wounds:
        force["wounds"] = list(person.wounds)
    force["ite_points"] = person.ite_points
    if person.shots_left is not None:
        force["shots_left"] = person.shots_left
    notes += [f"{name}: {_AWAY[person.fate]}"] if person.fate in _AWAY else []
    notes += [f"{name}: {e} (not carried: the GM's)" for e in person.effects]
    return True


def _ranks_of(force: dict[str, Any], able: int, notes: list[str]) -> None:
    """A ``count:`` group's ``ranks`` for the ``able`` who come: as before, or as many as
    they are where fewer come (one alone forms none)."""
    ranks = force.get("ranks")
    if ranks is None or int(ranks) <= able:
        return
    if able == 1:
        del force["ranks"]
        notes.append(f"{force['name']}: one comes, no longer in ranks (ranks {ranks} left out)")
    else:
        force["ranks"] = able
        notes.append(f"{force['name']}: {able} come, in {able} ranks (not {ranks})")


def _group(force: dict[str, Any], group: GroupState, notes: list[str]) -> bool:
    if group.count == 0:
        notes.append(f"{group.name}: left out (none left)")
        return False
    force["count"] = group.count
    if group.count != group.count_start:
        notes.append(f"{group.name}: {group.count} of {group.count_start} come")
    return True


def _ship(force: dict[str, Any], ship: ShipState, notes: list[str]) -> bool:
    if ship.fate == "out":
        notes.append(f"{ship.name}: left out (lost in the battle)")
        return False
    for key in ("hull_damage", "damage_marks"):
        force.pop(key, None)
    if ship.hull_damage:
        force["hull_damage"] = ship.hull_damage
    if ship.damage_marks:
        force["damage_marks"] = list(ship.damage_marks)
    notes += [f"{ship.name}: {_AWAY[ship.fate]}"] if ship.fate in _AWAY else []
    if ship.criticals or ship.repairs:
        owed = ", ".join([*ship.criticals, *(f"{k} {v}" for k, v in ship.repairs.items())])
        notes.append(f"{ship.name}: repairs owed ({owed})")
    return True


def apply_state(state: EndState, next_scenario: str | Path, *, check: bool = True) -> Aftermath:
    """The next scenario with ``state`` applied to every force it names.

    Args:
        state: a battle's end state (after any rest).
        next_scenario: the next scenario's file.
        check: validate the result as a scenario (ScenarioError, one line per problem).
    """
    load_scenario(next_scenario)  # its own problems first, worded against its own file
    text, filename = read_source(next_scenario, DEFAULT_LIMITS)
    data, lines = parse_yaml(text, filename)
    people: dict[str, list[CharacterState]] = {}
    for person in state.characters:
        people.setdefault(person.force, []).append(person)
    groups = {g.name: g for g in state.groups}
    ships = {s.name: s for s in state.ships}
    notes: list[str] = []
    used: set[str] = set()
    for si, side in enumerate(data["sides"]):
        kept, first = [], len(notes)
        for force in side["forces"]:
            name = force.get("name")
            keep = True
            if name in people:
                keep = _character(force, people[name], notes)
            elif name in groups:
                keep = _group(force, groups[name], notes)
            elif name in ships:
                keep = _ship(force, ships[name], notes)
            used.add(name)
            kept += [force] if keep else []
        if not kept:
            line = lines.get(("sides", str(si), "forces"), 1)
            raise ScenarioError(
                [
                    f"{filename}:{line} sides[{si}].forces: nobody of side '{side['name']}' "
                    f"can fight ({'; '.join(notes[first:])}; or change the next scenario)"
                ]
            )
        side["forces"] = kept
    unknown = sorted({*people, *groups, *ships} - used)
    if unknown:
        notes.append(f"not in the next scenario: {', '.join(unknown)}")
    out = yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100)
    if check:
        load_scenario(out)
    return Aftermath(out, tuple(notes))
