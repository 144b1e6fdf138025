"""Who stands on which deck (``aboard``) and who casts at hulls (``spells``): the fields
of characters and crews that only a ship battle reads."""

from __future__ import annotations

from fadad_agents.engine.ships.hull_attacks import cast_spells
from tests.engine.conftest import WIZARD
from tests.engine.engine_options_helpers import DUEL, aboard_saltwind, events, member, ships


def test_aboard_puts_a_crew_and_a_character_on_a_deck() -> None:
    """Crew.aboard, Character.aboard: aboard the reaver her crew fights nobody in round 1;
    put aboard the merchant from the start, with her captain aboard the reaver, they
    fight on the merchant's deck at once and the captain stands on the reaver."""
    across = DUEL.replace(
        "        count: 30\n        aboard: Red Gannet\n",
        "        count: 30\n        aboard: Saltwind\n",
    ).replace(
        "        armour: armour/leather\n        aboard: Saltwind\n",
        "        armour: armour/leather\n        aboard: Red Gannet\n",
    )
    assert across != DUEL
    for text, boarded in ((DUEL, False), (across, True)):
        battle = ships(text)
        salt, gannet = battle.ships
        pirates, mara = member(battle, "Gannet crew"), member(battle, "Captain Mara Vell")
        assert battle.deck_of(pirates) is (salt if boarded else gannet)
        assert battle.deck_of(mara) is (gannet if boarded else salt)
        battle.step()
        assert bool(events(battle, "volley", "Gannet crew")) is boarded


def test_spells_let_a_character_cast_at_a_hull() -> None:
    """Character.spells: the merchant's wizard with a fireball casts it at the reaver; the
    same man without spells casts nothing."""
    plain = WIZARD[: WIZARD.index("        spells:")]
    cast = {}
    for name, extra in (("spells", WIZARD), ("none", plain)):
        battle = ships(aboard_saltwind(extra))
        cast_spells(battle, battle.ships[0])
        cast[name] = len(events(battle, "spell", "Magister Orlen"))
    assert cast == {"spells": 1, "none": 0}


def test_role_keeps_a_rigging_crew_aboard_when_the_rest_board() -> None:
    """Crew.role: four sailors rated rigging stay to sail the merchant when her people
    board (sj.riggers_stay_aboard); the same four as boarders cross with the rest."""
    crossing = {}
    for role in ("rigging", "boarders"):
        extra = (
            "      - name: Saltwind riggers\n        model: crews/sailors\n        count: 4\n"
            f"        role: {role}\n        aboard: Saltwind\n"
        )
        battle = ships(aboard_saltwind(extra))
        party = battle.boarding_party(battle.ships[0])
        crossing[role] = member(battle, "Saltwind riggers") in party
    assert crossing == {"rigging": False, "boarders": True}
