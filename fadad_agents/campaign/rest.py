"""Rest between battles: wounds heal by the battle's ``healing_model`` and ships are
repaired in a yard, counted in days since the battle.

Healing is the kernel's (:func:`~fadad_agents.rules.personal.healing.heal_track`, C-09,
``wounds-and-healing.md`` 13): FADAD one level per ``14 - healing attribute`` days, each
wound on its own clock, Scratches in a day; FUDGE one level a week, Near Death to
Incapacitated in two weeks, Scratches gone. Rest is with care (PROPOSED: someone tends
the wounded, so Near Death heals), without the optional rolls (surgery, long-term care,
Constitution) a GM may make by hand. Each rest is computed from the battle's end state
and the days since (``rested_days``), so two rests of 10 days are one of 20. The dead do
not heal; repairs: :mod:`.ships`.
"""

from __future__ import annotations

from fadad_agents.campaign.ships import repair_ship
from fadad_agents.campaign.state import CharacterState, EndState
from fadad_agents.rules.personal.healing import heal_track
from fadad_agents.schema.starting import mark_text

__all__ = ["MAX_REST_DAYS", "rest"]

MAX_REST_DAYS = 3650
"""The longest rest one command takes (ten years)."""


def _heal(state: CharacterState, days: int, model: str) -> tuple[CharacterState, str | None]:
    if state.fate == "dead" or not state.wounds_after_battle:
        return state, None
    after_battle = state.marked(state.wounds_after_battle)
    healed = heal_track(after_battle, days, model, state.healing)  # type: ignore[arg-type]
    wounds = [mark_text(box, severity) for box, severity in healed.marks]
    if wounds == state.wounds:
        return state, None
    before = state.marked(state.wounds)
    change = f"{state.name}: {before.level.label} -> {healed.level.label}"
    change += f" (wounds: {', '.join(wounds)})" if wounds else " (healed)"
    return state.model_copy(update={"wounds": wounds}), change


def rest(state: EndState, days: int) -> tuple[EndState, list[str]]:
    """``state`` after ``days`` more days of rest, and one line per change."""
    if not 0 <= days <= MAX_REST_DAYS:
        raise ValueError(f"--days {days}: rest for 0..{MAX_REST_DAYS} days")
    total = state.rested_days + days
    changes: list[str] = []
    characters = []
    for person in state.characters:
        person, change = _heal(person, total, state.healing_model)
        characters.append(person)
        changes += [change] if change else []
    ships = []
    for ship in state.ships:
        ship, change = repair_ship(ship, total, state.repair_workers_per_ton)
        ships.append(ship)
        changes += [change] if change else []
    update = {"rested_days": total, "characters": characters, "ships": ships}
    return state.model_copy(update=update), changes
