"""What damage does to a ship: Wrecked and past it, a poorly maintained hull's criticals."""

from __future__ import annotations

from fadad_agents.engine.ships.damage import fadad_hit
from fadad_agents.engine.ships.gunnery import fire_guns
from fadad_agents.hexmap import DIRECTIONS
from fadad_agents.rules.ships.fadad_damage import ShipLevel
from tests.engine.engine_options_helpers import DUEL, FADAD_RULES, FixedDice, events, ships
from tests.engine.ships.helpers import FADAD_DUEL


def test_overflow_past_wrecked_breaks_her_up_or_leaves_a_hulk() -> None:
    """ship.overflow_past_wrecked: a Wrecked ship crumbles and breaks up (the seed); with
    stay_wrecked she stays a hulk - no helm, no guns - and more damage leaves her Wrecked."""
    for overflow, afloat in (("destroyed", False), ("stay_wrecked", True)):
        text = FADAD_DUEL
        battle = ships(text, {**FADAD_RULES, "ship.overflow_past_wrecked": overflow})
        salt, gannet = battle.ships
        fadad_hit(battle, gannet, 9, source="test")  # 9: Wrecked
        assert gannet.fighting is afloat
        assert bool(events(battle, "break_up")) is not afloat
        if afloat:
            fadad_hit(battle, gannet, 9, source="test")
            assert gannet.level == ShipLevel.WRECKED
            assert (gannet.sr, gannet.ms) == (0, None)
            battle.place(gannet, salt.hex + DIRECTIONS[0], 3)
            battle.round = 1
            fire_guns(battle, gannet)
            assert not events(battle, "gunnery")


POORLY = "        model: ships/salt-trader\n        poorly_maintained: true\n"


def test_a_poorly_maintained_ship_takes_criticals_one_easier() -> None:
    """Ship.poorly_maintained with sj.poorly_maintained_crit_from: a natural 19 from the
    reaver's ballista is a critical on the poorly kept merchant (from 19), not on a sound
    one, nor on the poor one when the option says 20."""
    for poorly, crit_from, critical in ((False, 19, False), (True, 19, True), (True, 20, False)):
        text = DUEL.replace("        model: ships/salt-trader\n", POORLY) if poorly else DUEL
        battle = ships(text, {"sj.poorly_maintained_crit_from": crit_from})
        salt, gannet = battle.ships
        battle.place(gannet, salt.hex + DIRECTIONS[0], 3)
        battle.round = 1
        battle.gunnery_rng = FixedDice(0.9)  # a natural 19
        fire_guns(battle, gannet)
        shot = next(
            e for e in events(battle, "gunnery") if "Ballista" in dict(e.modifiers)["weapon"]
        )
        assert dict(shot.outcome)["critical"] is critical


def test_a_ships_own_damage_boxes_replace_the_scenarios() -> None:
    """Ship.damage_boxes: a hull with one Scratched box (1/1/1/1/1) is promoted to Lightly
    Damaged by a second scratch; on the scenario's 3/1/1/1/1 it stays Scratched."""
    text = FADAD_DUEL
    for own, level in ((None, ShipLevel.SCRATCHED), ("[1, 1, 1, 1, 1]", ShipLevel.LIGHTLY_DAMAGED)):
        if own is not None:
            text = text.replace(
                "        model: ships/salt-trader\n",
                f"        model: ships/salt-trader\n        damage_boxes: {own}\n",
            )
        battle = ships(text, FADAD_RULES)
        salt = battle.ships[0]
        fadad_hit(battle, salt, 1, source="test")
        fadad_hit(battle, salt, 1, source="test")
        assert salt.level == level
