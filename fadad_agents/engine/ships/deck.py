"""The deck fight: 6-second personal rounds on one ship's deck, inside the ship round.

DESIGN.md and ``ships-spelljammer.md`` 12-13: boarding combat is ordinary combat, or rapid
resolution for featureless crews. Every fighter on a deck where two sides meet plays the
personal round of :mod:`fadad_agents.engine.core.battle` (declare and act, in the order of
action of :func:`_turns`: fair ties, simultaneous shared turns, crews tied rerolled),
but through a :class:`DeckArena`: its foes are only the enemies on the same deck, so
named characters fight through :func:`fadad_agents.rules.personal.combat.resolve_attack` and crews
by rapid resolution (:class:`~fadad_agents.agents.core.groups.Crew`) against those in reach.

Leaving the fight on a deck follows section 12: one who withdraws from the enemy ship
falls back to its own (if still grappled and afloat), a crew giving up on its own ship
surrenders (:func:`~fadad_agents.rules.ships.crew.morale_failure`). Nobody checks morale
at the end of a deck round: the crew's one check comes at the end of the ship round
(:mod:`~fadad_agents.engine.ships.morale`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from fadad_agents.agents.core.base import Combatant, Status
from fadad_agents.agents.core.character import Character
from fadad_agents.agents.core.groups import Crew, Group
from fadad_agents.engine.core.space import OnTheField
from fadad_agents.engine.core.turns import SharedTurn, TurnOrder, play_shared
from fadad_agents.policies.core.protocols import MoraleChoice
from fadad_agents.rules.ships import effects as fx
from fadad_agents.rules.ships.crew import morale_failure
from fadad_agents.rules.ships.effects import passes
from fadad_agents.rules.ships.fire import air_penalty

__all__ = [
    "DeckArena",
    "air_of",
    "breathe",
    "deck_round",
    "fallen",
    "recall_prize_crews",
    "shake",
    "stand_up",
]


class DeckArena(OnTheField):
    """The Arena agents see while fighting on one ship's deck (delegates to the battle).

    A deck has no field: everyone on it reaches everyone (``OnTheField`` answers so)."""

    __slots__ = ("battle", "members", "ship")

    field = None

    def __init__(self, battle: Any, ship: Any, members: list[Combatant]) -> None:
        self.battle = battle
        self.ship = ship
        self.members = members

    # --- what agents read ---------------------------------------------------------------

    @property
    def options(self) -> Any:
        return self.battle.options

    @property
    def combat_rules(self) -> Any:
        return self.battle.combat_rules

    @property
    def round(self) -> int:
        return int(self.battle.round)

    @property
    def morale_rng(self) -> Any:
        return self.battle.morale_rng

    def _here(self, m: Combatant) -> bool:
        return m.status is Status.FIGHTING and self.battle.deck_of(m) is self.ship

    def foes(self, side: int) -> Sequence[Combatant]:
        """Enemies fighting on this deck."""
        return [m for m in self.members if m.side != side and self._here(m)]

    def friends(self, side: int) -> Sequence[Combatant]:
        """Friends fighting on this deck."""
        return [m for m in self.members if m.side == side and self._here(m)]

    def side_fraction(self, side: int) -> float:
        return float(self.battle.side_fraction(side))

    def downed(self, side: int) -> Sequence[Combatant]:
        return self.battle.downed(side)  # type: ignore[no-any-return]

    # --- services -----------------------------------------------------------------------

    def record(self, *args: Any) -> None:
        self.battle.record(*args)

    def defer(self, make: Any, args: tuple[Any, ...]) -> None:
        self.battle.defer(make, args)

    def casualties(self, member: Combatant, lost: int) -> int:
        taken = int(self.battle.casualties(member, lost))
        self.battle.crews_changed = True
        return taken

    def take_out(self, member: Combatant, reason: str) -> None:
        self.battle.take_out(member, reason)
        self.battle.crews_changed = True

    def start_action(self, member: Combatant, name: str, seconds: int, on_done: Any) -> None:
        self.battle.start_action(member, name, seconds, on_done)

    def leave(self, member: Combatant, choice: MoraleChoice, reason: str) -> None:
        """SJ 12: one who leaves the fight on an enemy deck falls back to its own ship; a
        crew that gives up on its own deck surrenders
        (:func:`~fadad_agents.rules.ships.crew.morale_failure`)."""
        battle = self.battle
        if choice is MoraleChoice.HOLD or not member.fighting:
            return
        home = battle.home_of(member)
        if home is not None and home is not self.ship and choice is MoraleChoice.WITHDRAW:
            assert morale_failure("boarding_enemy_ship") == "retreat"
            battle.fall_back(member, reason)
            return
        if isinstance(member, Group) and morale_failure("boarding_own_ship") == "surrender":
            choice = MoraleChoice.SURRENDER
        battle.leave(member, choice, reason)
        battle.crews_changed = True


# --- thrown off their feet (Ship Shaken) --------------------------------------------------


def shake(battle: Any, ship: Any, effect: fx.Shaken) -> str:
    """Ship Shaken (SJ 5, FADAD 6): everyone standing on her deck but the helmsman may fall,
    losing that round's attacks and spells. A flat ``npc_fall_pct`` for each NPC (d20: 40%)
    while player characters, and NPCs whose stat block rates their Dexterity, make the
    Dexterity check (``sj.shaken_dexterity_dc``); FADAD: everyone makes a Good Dexterity
    check (a crewman's Dexterity PROPOSED Fair). A weapon whose hands all fell does not
    fire this round. Returns what the log says of it."""
    rng, scale = battle.shaken_rng, battle.options.engine.ladder_d20_bonus
    check, pct = effect.check, effect.npc_fall_pct

    def falls(dexterity: int | None) -> bool:
        if pct is not None and dexterity is None:
            return bool(rng.random() * 100 < pct)
        return not passes(check, dexterity or 0, rng, scale)

    down: list[str] = []
    for m in battle.fighters_on(ship):
        if m is ship.helmsman:  # the helmsman is secure at the helm
            continue
        if isinstance(m, Group):
            n = sum(1 for _ in range(m.count - m.down) if falls(None))
            m.down += n
            if n:
                battle.thrown_down = True  # stand_up has someone to put on his feet
                down.append(f"{n} of {m.name}")
        else:
            rated = battle.dexterity(m)
            if falls(rated if rated is not None or not getattr(m, "player", False) else 0):
                m.memory["fallen"] = battle.round
                down.append(m.name)
    for team in ship.teams:
        if team.crew and all(falls(None) for _ in range(team.crew)):
            team.fired_round = battle.round  # nobody left on his feet to shoot it
            down.append(f"the hands of her {team.label}")
    battle.crews_changed = True
    if not down:
        return "she shudders from stem to stern; everyone keeps his feet"
    return "she shudders from stem to stern; thrown off their feet: " + ", ".join(down)


def recall_prize_crews(battle: Any) -> None:
    """Those standing on a ship that struck, with nobody of hers fighting there any more,
    go back to their own ship if she lies alongside afloat (PROPOSED: the prize is taken
    and needs no hands in the fight; their own ship needs them to sail)."""
    for prize in battle.ships:
        if prize.status is not Status.SURRENDERED or battle.holds_deck(prize):
            continue  # (holdouts fight on there)
        for m in battle.fighters_on(prize):
            home = battle.home_of(m)
            if home is None or home is prize or not home.fighting:
                continue
            if home.grappled_with(prize):
                battle.move_aboard(m, home)
                outcome = (("result", "returns"), ("prize", prize.name))
                battle.record(m.name, "return", home.name, (), (), outcome)


def fallen(battle: Any, member: Combatant) -> bool:
    """``member`` is down on the deck this round (no attacks, no spells)."""
    return bool(member.memory.get("fallen") == battle.round)


def stand_up(battle: Any) -> None:
    """A new round: those thrown off their feet are up again (most rounds: nobody fell)."""
    if not battle.thrown_down:
        return
    battle.thrown_down = False
    for m in battle.people:
        if isinstance(m, Group):
            m.down = 0


def air_of(battle: Any, ship: Any) -> int:
    """Levels lost by everyone breathing ``ship``'s air (``fire.fouled_air_penalty``,
    ``fire.deadly_air_penalty``; PROPOSED)."""
    if ship is None:
        return 0
    opts = battle.options.fire
    return air_penalty(ship.air, opts.fouled_air_penalty, opts.deadly_air_penalty)


def breathe(battle: Any, members: Sequence[Combatant]) -> None:
    """Each of ``members`` fights at the penalty of the air on the deck it stands on."""
    for m in members:
        levels = air_of(battle, battle.deck_of(m))
        if isinstance(m, Crew):
            m.foul_air = levels
        elif isinstance(m, Character) and (levels or m.conditions is not None):
            m.conditions_now().foul_air = levels


def _turns(battle: Any, ship: Any, members: list[Combatant]) -> list[Sequence[Combatant]]:
    """The deck's order of action: one initiative roll per band, ties to the higher trait,
    then a shared, simultaneous turn (personal-combat.md 1.2,
    :func:`~fadad_agents.engine.core.turns.roll_turns`), except among crews alone: rapid
    resolution is "resolved in the order of initiative and ... not simultaneous" (SJ 13),
    so crews tied on both are put in a fresh random order (a reroll of the tie, as A-47
    rerolls the sides' ship initiative)."""
    rng = battle.deck_init_rng
    turns = _order(battle, ship, members).roll(rng, battle.options.fadad.initiative)
    out: list[Sequence[Combatant]] = []
    for turn in turns:
        if type(turn) is SharedTurn and all(isinstance(m, Crew) for m in turn):
            tied = list({id(m.band): [x for x in turn if x.band is m.band] for m in turn}.values())
            rng.shuffle(tied)
            out += tied
        else:
            out.append(turn)
    return out


def _order(battle: Any, ship: Any, members: list[Combatant]) -> TurnOrder:
    """The :class:`~fadad_agents.engine.core.turns.TurnOrder` of the bands of ``members``
    on ``ship``'s deck, kept (in :attr:`~fadad_agents.engine.ships.battle.ShipBattle.
    deck_orders`) while the same fighters stand there, round after round and play after
    play: an order reads only each member's band, ``unique_id`` and ``reaction``, which
    set-up fixes and nothing changes after (a reset keeps every agent), so a kept one
    rolls the turns a new one would. (Most deck rounds of a duel: the same two crews.)"""
    fighting = tuple(members)
    kept = battle.deck_orders.get(ship.unique_id)
    if kept is not None and kept[0] == fighting:
        order: TurnOrder = kept[1]
        return order
    bands: dict[int, list[Combatant]] = {}
    for m in members:
        bands.setdefault(id(m.band), []).append(m)
    order = TurnOrder(bands.values())
    battle.deck_orders[ship.unique_id] = (fighting, order)
    return order


def deck_round(battle: Any, ship: Any) -> bool:
    """One 6-second round on ``ship``'s deck; False when nobody fights there any more."""
    members = list(battle.fighters_on(ship))
    if len({m.side for m in members}) < 2:
        return False
    arena: Any = DeckArena(battle, ship, members)  # the Arena its fighters act in
    breathe(battle, members)
    turns = _turns(battle, ship, members)

    def act(turn: Sequence[Combatant]) -> None:
        for m in turn:
            if m.fighting and battle.deck_of(m) is ship:
                m.act(arena)

    for turn in turns:
        for m in turn:
            if m.fighting and battle.deck_of(m) is ship:
                m.declare(arena)
                if fallen(battle, m):  # down on the deck: defends, but strikes no blow
                    m.attacks_planned = 0
    for turn in turns:  # morale: the crew's one check, at the ship round's end
        if type(turn) is SharedTurn:
            play_shared(turn, battle, arena, act)
        else:
            act(turn)
    return True
