"""End of the ship round: ships taken by boarders, the crew's morale, striking colours.

``ships-spelljammer.md`` 12 and 18 (C-16, A-57). A ship's crew checks morale **once**, at
the end of the ship round after all actions, when a section 18 trigger happened that
round; the roll is 2d10 (``sj.crew_morale_roll``) against the crew's morale plus the
modifier table (``sj.morale_stacking``). The crew is every NPC whose home she is and whose
morale policy checks (crews and non-player characters: "Morale checks are used only for
two-dimensional NPCs", so player characters never check); its morale is the head-weighted
mean of its crews' (:func:`~fadad_agents.rules.ships.crew.weighted_morale`). Crews do not
check on their own on deck: this one check is theirs, so a crew is never checked twice for
the same losses, and on a FADAD map the crew checks once a minute as the ship does.

What a failure does (sections 12, 18, :func:`~fadad_agents.rules.ships.crew.morale_failure`):
the crew's NPCs on an enemy deck fall back to their own ship (and surrender if she is no
longer alongside); a crew all on its native ship strikes the colours (everyone aboard
surrenders, unless the colours policy lets a player character sail her on). The policy
may also strike by choice (``strike_now``). Every engaged ship striking at the same end of
round is a mutual strike: all break off.

Triggers (section 18): a critical hit; 5 hull points left; the crew surprised (round 1);
an obviously superior force (``sj.superior_force_ratio``); an ally or crewman slain by
magic; 25% and 50% of the crew lost, and any further loss after 50%; all officers gone;
the captain slain; a fleeing ship that cannot escape; a very dangerous boarding
(:func:`boarding_check`). The captain is the ship's ``captain``, else her first player
character, else her first named character; her officers are the named characters whose
home she is.

A ship whose deck holds enemies and none of her own people is taken (surrenders); one
with nobody left anywhere is a derelict (out).
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from typing import Any

from fadad_agents.agents.core.base import Combatant, Status
from fadad_agents.agents.core.character import Character
from fadad_agents.agents.core.groups import Crew, Group
from fadad_agents.agents.ships.ship import Ship
from fadad_agents.engine.ships.log import morale_event
from fadad_agents.engine.ships.log import triggers_named as _why
from fadad_agents.policies.core.protocols import MoraleChoice
from fadad_agents.rules.core.morale import resolve_morale_check
from fadad_agents.rules.ships.crew import (
    CREW_SITUATIONS,
    MoraleEvent,
    MoraleTrigger,
    applied_morale_events,
    creature_hp_events,
    crew_loss_events,
    crew_loss_triggers,
    hd_events,
    hull_damage_events,
    morale_failure,
    morale_target,
    mutual_strike,
    weighted_morale,
)

__all__ = [
    "boarding_check",
    "captain_of",
    "check_morale",
    "complement",
    "crew_morale",
    "end_of_round",
    "morale_events",
]

_FIGHTING, _OUT, _SURRENDERED = Status.FIGHTING, Status.OUT, Status.SURRENDERED


# --- who the crew is ----------------------------------------------------------------------


def complement(battle: Any, ship: Ship) -> list[Combatant]:
    """Her crew for morale: the NPCs still fighting whose home she is and whose morale
    policy checks morale (crews, non-player characters)."""
    return [
        m
        for m in battle.ship_company(ship)
        if m.fighting and m.checks_morale and not getattr(m, "player", False)
    ]


def crew_morale(battle: Any, ship: Ship) -> int:
    """The crew's morale as a whole: its crews' morale weighted by the heads standing
    (by those it started with once none stand); 11 for a ship without crews."""
    crews = [m for m in battle.ship_company(ship) if isinstance(m, Crew)]
    standing = [(c.morale, c.headcount) for c in crews]
    if not [h for _, h in standing if h]:  # (a list, not any(): no generator every check)
        standing = [(c.morale, c.start_count) for c in crews]
    return weighted_morale(standing)


def _crew_hd_events(battle: Any, ship: Ship, cumulative: bool) -> tuple[MoraleEvent, ...]:
    """The HD entries of her crews' head-weighted mean Hit Dice (none without crews)."""
    crews = [m for m in battle.ship_company(ship) if isinstance(m, Crew)]
    return _hd_entries(tuple([(c.stats.hd, c.start_count) for c in crews]), cumulative)


@lru_cache(maxsize=256)  # her crews' dice and heads at set-up: the same every round
def _hd_entries(crews: tuple[tuple[Any, int], ...], cumulative: bool) -> tuple[MoraleEvent, ...]:
    heads = sum(n for _, n in crews)
    if not heads:
        return ()
    hd = sum((Fraction(dice) * n for dice, n in crews), Fraction(0)) / heads
    return tuple(hd_events(hd, cumulative))


def officers_of(battle: Any, ship: Ship) -> list[Character]:
    """Her named characters (the captain among them)."""
    return _command(battle, ship)[0]


def captain_of(battle: Any, ship: Ship) -> Character | None:
    """The ship's ``captain``, else her first player character, else her first officer."""
    return _command(battle, ship)[1]


def _command(battle: Any, ship: Ship) -> tuple[list[Character], Character | None]:
    """Her officers and captain: set-up facts, read by every ship every round (made once
    per ship company: a new list when someone is put aboard)."""
    company: list[Combatant] = battle.ship_company(ship)
    held = ship.memory.get("command")
    if held is not None and held[0] is company:
        command: tuple[list[Character], Character | None] = held[1]
        return command
    officers = [m for m in company if isinstance(m, Character)]
    named = ship.spec.captain
    if named is not None:
        captain = next(iter([m for m in officers if m.name == named]), None)
    else:
        players = [m for m in officers if m.player]
        captain = next(iter(players or officers), None)
    ship.memory["command"] = (company, (officers, captain))
    return officers, captain


# --- the modifier table -------------------------------------------------------------------


def morale_events(battle: Any, ship: Ship, triggers: set[MoraleTrigger]) -> list[MoraleEvent]:
    """Every modifier-table entry that holds for ``ship``'s crew now (section 18); the
    graded families give every entry crossed with ``sj.morale_stacking: cumulative``."""
    cumulative = battle.options.sj.morale_stacking == "cumulative"
    events: list[MoraleEvent] = []
    lost = round((1.0 - ship.hull_fraction) * 100)
    if ship.gargantuan:  # a creature fighting as a ship: its hull is its hit points
        events += creature_hp_events(lost, 100, cumulative)
    else:
        events += hull_damage_events(lost, 100, cumulative)
    if ship.crew_start:
        events += crew_loss_events(ship.crew_lost, ship.crew_start, cumulative)
    events += _crew_hd_events(battle, ship, cumulative)
    events += _command_events(battle, ship)
    if ship.memory.get("helmsman_lost"):
        events.append(MoraleEvent.SPELLJAMMER_SLAIN)
    if ship.fire_list:
        events.append(MoraleEvent.ON_FIRE)
    foes = battle.enemy_ships(ship.side)
    if [f for f in foes if f.fire_list]:  # (lists, not any(): no generator every check)
        events.append(MoraleEvent.OPPONENT_ON_FIRE)
    if [f for f in foes if f.holed]:
        events.append(MoraleEvent.OPPONENT_HOLED)
    for situation in ship.spec.crew_situation:
        if situation != "surprised" or battle.round == 1:
            events.append(CREW_SITUATIONS[situation])
    if len(triggers) > 1 or ship.memory.get("checked_round") == battle.round:
        events.append(MoraleEvent.MULTIPLE_CHECKS)
    return events + _balance_events(battle, ship)


def _command_events(battle: Any, ship: Ship) -> list[MoraleEvent]:
    """Captain slain, or on deck; else a first officer on deck."""
    captain = captain_of(battle, ship)
    if captain is not None and captain.status is Status.OUT:
        return [MoraleEvent.CAPTAIN_SLAIN]
    officer = False  # one of hers on deck (a loop over the deck: no lists, no generator)
    for m in battle.fighters_on(ship):
        if isinstance(m, Character):
            if m is captain:
                return [MoraleEvent.CAPTAIN_ON_DECK]
            officer = officer or (battle.home_of(m) is ship and m.side == ship.side)
    return [MoraleEvent.FIRST_OFFICER_ON_DECK] if officer else []


def _balance_events(battle: Any, ship: Ship) -> list[MoraleEvent]:
    """Odds and allies: head counts 3:1, tonnage 10:1, damaged foes, lost or fled friends,
    no enemy slain yet, a magic user on her side.

    Heads are those on the ship's deck while boarders are aboard, else both fleets'
    (PROPOSED reading of "crew outnumbered", ``sj.outnumbered_heads``).
    """
    out: list[MoraleEvent] = []
    side = ship.side
    if battle.options.sj.outnumbered_heads == "deck_when_boarded" and battle.boarders_on(ship):
        people = battle.fighters_on(ship)
    else:
        people = battle.people
    own = them = 0
    for m in people:  # each side's heads standing, in one pass
        if m.fighting:
            if m.side == side:
                own += m.headcount
            else:
                them += m.headcount
    if them and 3 * own <= them:
        out.append(MoraleEvent.OUTNUMBERED_3_TO_1)
    elif own and own >= 3 * them:
        out.append(MoraleEvent.OUTNUMBER_3_TO_1)
    own_tons = foe_tons = 0
    foe_damaged = friend_withdrawn = False
    flagship = ship  # her fleet's largest (the lowest unique_id among equals)
    for s in battle.ships:  # the fleets, in one pass
        if s.side == side:
            if (s.tons, -s.unique_id) > (flagship.tons, -flagship.unique_id):
                flagship = s
            if s.status is _FIGHTING:
                own_tons += s.tons
            elif s is not ship and s.status is Status.WITHDRAWN:
                friend_withdrawn = True
        elif s.status is _FIGHTING:
            foe_tons += s.tons
            foe_damaged = foe_damaged or s.hull_fraction <= 0.5
    if foe_tons >= 10 * own_tons:
        out.append(MoraleEvent.OUT_TONNED_10_TO_1)
    elif own_tons >= 10 * foe_tons > 0:
        out.append(MoraleEvent.OUT_TONNING_10_TO_1)
    if foe_damaged:
        out.append(MoraleEvent.OPPONENT_DAMAGED_50)
    if friend_withdrawn:
        out.append(MoraleEvent.ABANDONED)
    if flagship is not ship and flagship.status is Status.OUT:
        out.append(MoraleEvent.STRONGEST_ALLY_KILLED)
    if not [m for m in battle.people if m.side != side and _slain(m)]:  # (no generator)
        out.append(MoraleEvent.NO_ENEMY_SLAIN)
    if battle.has_spells and any(
        m.fighting and m.side == side and battle.spells_of(m) for m in battle.people
    ):
        out.append(MoraleEvent.MAGIC_USER_ALLY)
    return out


def _slain(m: Combatant) -> bool:
    """Someone of ``m`` fell: a fighter taken out, or heads a group lost."""
    if isinstance(m, Group):
        return m.count < m.start_count or m.status is Status.OUT
    return m.status is Status.OUT


# --- triggers -----------------------------------------------------------------------------


def _round_triggers(battle: Any, ship: Ship) -> set[MoraleTrigger]:
    """What happened to ``ship``'s crew this round that calls for a check (section 18)."""
    memory = ship.memory
    found: set[MoraleTrigger] = memory.pop("triggers", None) or set()
    counts = tuple([roster.strength for roster in battle.sides])
    held = memory.get("holding", _NONE_HELD)
    if memory.get("counted") == counts and _counts_tell:
        # Nobody fell, left or struck since her last look (each lowers a side's strength,
        # and strength never rises in a play): her losses, officers, captain and the odds
        # stand as they were, and only whether she can escape is asked again (most rounds).
        escape = _cannot_escape(battle, ship)
        holding = held if escape == held[2] else (held[0], held[1], escape, held[3])
    else:
        memory["counted"] = counts
        start, lost_before = ship.crew_start, ship.crew_lost
        lost = max(0, start - battle.own_heads(ship), lost_before)
        if start and lost != lost_before:  # no new losses: no loss trigger
            found.update(crew_loss_triggers(lost_before, lost, start))
        ship.crew_lost = lost
        officers, captain = _command(battle, ship)
        standing = False  # an officer still fighting (a loop: most ships have one or two)
        for m in officers:
            if m.fighting:
                standing = True
                break
        holding = (
            captain is not None and captain.status is _OUT,
            bool(officers) and not standing,
            _cannot_escape(battle, ship),
            _superior_force(battle, ship, counts),
        )
    # Each of these triggers the first round it holds, and again after it stopped holding
    # (most rounds: as last round, one comparison).
    if holding != held:
        memory["holding"] = holding
        news = zip(_HELD, holding, held, strict=True)
        found.update([t for t, now, was in news if now and not was])
    if battle.round == 1 and "surprised" in ship.spec.crew_situation:
        found.add(MoraleTrigger.SURPRISED)
    return found


_counts_tell = True
"""Whether :func:`_round_triggers` trusts unchanged side strengths to mean nothing but her
escape can have changed (a test turns it off and finds the same battles)."""


_CAPTAIN, _OFFICERS = MoraleTrigger.CAPTAIN_SLAIN, MoraleTrigger.OFFICERS_GONE
# The triggers that hold for a while, in the order :func:`_round_triggers` reads them.
_HELD = (_CAPTAIN, _OFFICERS, MoraleTrigger.CANNOT_ESCAPE, MoraleTrigger.SUPERIOR_FORCE)
_NONE_HELD = (False,) * len(_HELD)


def _cannot_escape(battle: Any, ship: Ship) -> bool:
    """PROPOSED: a ship that means to flee cannot: held fast alongside, her helm dead, or
    an enemy in her hex at the end of the round."""
    if ship.ship_policies.maneuver.intent != "flee":
        return False
    if ship.grapples and [o for o in ship.grapples if ship.grappled_with(o) and o.fighting]:
        return True  # held fast (a list, not any(): no closure cell; none without lines)
    at, side = ship.position, ship.side  # an enemy in her hex (its (q, r)), in one pass
    for f in battle.ships:
        if f.side != side and f.status is _FIGHTING and f.position == at:
            return True
    return ship.sr == 0


type _Strength = tuple[list[int], int, list[int], int]
"""Each side's tons of ships fighting, all sides' tons, each side's heads of people
fighting, all sides' heads."""


def _fleet_strength(battle: Any, key: tuple[int, ...] | None = None) -> _Strength:
    """:data:`_Strength` now: counted again only when a side's strength
    (:attr:`~fadad_agents.agents.core.base.SideRoster.strength`, lowered by every casualty
    and by everyone and every ship who leaves the fight) has changed since the last count
    (every ship checks :func:`_superior_force` every round; most rounds nobody fell)."""
    key = key or tuple([roster.strength for roster in battle.sides])  # unless given
    kept = battle.strength_kept
    if kept is not None and kept[0] == key:
        counted: _Strength = kept[1]
        return counted
    fighting = _FIGHTING
    tons = [0] * len(battle.sides)
    for s in battle.ships:
        if s.status is fighting:
            tons[s.side] += s.spec.tons
    heads = [0] * len(tons)
    for m in battle.people:
        if m.status is fighting:
            heads[m.side] += m.headcount
    counted = (tons, sum(tons), heads, sum(heads))
    battle.strength_kept = (key, counted)
    return counted


def _superior_force(battle: Any, ship: Ship, counts: tuple[int, ...] | None = None) -> bool:
    """PROPOSED: the enemy fleet has ``sj.superior_force_ratio`` times her side's tonnage,
    or its people that many times her side's heads."""
    ratio = battle.options.sj.superior_force_ratio
    if not ratio:
        return False
    tons, all_tons, heads, all_heads = _fleet_strength(battle, counts)
    own_tons = tons[ship.side]
    if all_tons - own_tons >= ratio * own_tons > 0:
        return True
    own = heads[ship.side]
    return bool(all_heads - own >= ratio * own > 0)


def trigger(ship: Ship, what: MoraleTrigger) -> None:
    """Note a trigger for the check at the end of this round."""
    ship.memory.setdefault("triggers", set()).add(what)


# --- the check ----------------------------------------------------------------------------


def check_morale(battle: Any, ship: Ship, triggers: set[MoraleTrigger]) -> bool:
    """Roll ``ship``'s crew morale against the table; log it; True if it holds."""
    sj = battle.options.sj
    base = crew_morale(battle, ship)
    applied = applied_morale_events(morale_events(battle, ship, triggers), sj.morale_stacking)
    target = morale_target(base, applied, "cumulative")
    res = resolve_morale_check(target, battle.ship_morale_rng, sj.crew_morale_roll)
    ship.memory["checked_round"] = battle.round
    # Its log fields are made only if the log is read (the triggers' set is no one's now).
    args = (ship.name, sj.crew_morale_roll, res, base, applied, target, triggers)
    battle.defer(morale_event, args)
    return res.passed


def _fails(battle: Any, ship: Ship, why: str) -> None:
    """SJ 12/18: her NPCs abroad fall back to her; a crew all aboard strikes the colours."""
    reason = f"morale broke: {why}"
    abroad = [m for m in complement(battle, ship) if battle.deck_of(m) is not ship]
    for m in abroad:
        battle.fall_back(m, reason)
    if not abroad and morale_failure("ship") == "strike":
        battle.strike(ship, reason)


def boarding_check(battle: Any, ship: Ship, party: list[Combatant], foe: Ship) -> list[Combatant]:
    """A very dangerous boarding (SJ 12): the crew checks morale before it crosses; on a
    failure its NPCs refuse (``morale_failure("to_board")``) and only PCs go."""
    if battle.boarders_defending(foe) < battle.options.sj.very_dangerous_boarding_odds * sum(
        m.headcount for m in party
    ):
        return party
    checking = set(map(id, complement(battle, ship)))
    if not any(id(m) in checking for m in party):
        return party
    if check_morale(battle, ship, {MoraleTrigger.BEFORE_BOARDING}):
        return list(party)
    assert morale_failure("to_board") == "refuse"
    for m in party:
        if id(m) in checking:
            battle.record(m.name, "refuse", foe.name, (), (), (("result", "refuses to board"),))
    return [m for m in party if id(m) not in checking]


# --- the end of the round -----------------------------------------------------------------


def _taken(battle: Any, ship: Ship) -> None:  # (of a ship whose own people lost her deck)
    if ship.spec.gargantuan:  # a creature has no deck to lose
        return
    people = battle.fighters_on(ship)
    if people:  # (nobody of hers among them)
        battle.record(ship.name, "taken", None, (), (), (("result", "taken by boarders"),))
        battle.strike(ship, "her deck is lost to boarders")
    elif not [m for m in battle.people if battle.home_of(m) is ship and m.fighting]:
        battle.take_out(ship, "no one left aboard")  # (a list, not any(): no closure cells)


def _no_foe_within_reach(battle: Any, ship: Ship) -> bool:
    """Nobody fights her holdouts on her deck, and no enemy alongside will board her."""
    if battle.boarders_on(ship):
        return False
    return not any(
        o.fighting
        and o.grappled_with(ship)
        and o.ship_policies.boarding.board(o, ship, battle)
        and battle.boarding_party(o, taking=True)
        for o in ship.grapples
    )


def _stranded_leave(battle: Any) -> None:
    """Those left on a ship that struck with no foe in reach (nobody of the other side on
    her deck, no enemy alongside to board her) are out of the fight: her own people who
    fought on (SJ 18: the players decide) surrender; victors who hold her as a prize with
    no ship of their own alongside to go back to sail off with her (PROPOSED)."""
    for ship in battle.ships:
        if ship.status is not _SURRENDERED:
            continue
        people = battle.fighters_on(ship)
        sides = {m.side for m in people}
        if len(sides) != 1 or (ship.side in sides and not _no_foe_within_reach(battle, ship)):
            continue
        for m in people:
            if m.side == ship.side:
                battle.leave(m, MoraleChoice.SURRENDER, f"{ship.name} struck; no foe in reach")
                continue
            home = battle.home_of(m)
            if home is None or not home.fighting or not home.grappled_with(ship):
                battle.leave(m, MoraleChoice.WITHDRAW, f"sails off with the prize {ship.name}")


def end_of_round(battle: Any) -> None:
    """Captures, the crews' morale checks and strikes, then the mutual-strike rule; the
    holdouts of a struck ship whom no foe can reach give up."""
    _stranded_leave(battle)
    struck: list[str] = []
    for ship in battle.ships:
        if ship.status is not _FIGHTING:
            continue
        if not battle.holds_deck(ship):  # (every ship most rounds: her people hold it)
            _taken(battle, ship)
            if ship.status is not _FIGHTING:
                struck.append(ship.name)
                continue
        triggers = _round_triggers(battle, ship)
        if ship.struck:  # struck, a player character sails her on: no crew left to check
            continue
        policy = ship.ship_policies.colours
        if policy.strike_now(ship, battle):
            battle.strike(ship, "by choice, the hull failing")
        elif (
            policy.checks_morale
            and triggers
            and complement(battle, ship)
            and not check_morale(battle, ship, triggers)
        ):
            _fails(battle, ship, _why(triggers))
        if ship.struck:
            struck.append(ship.name)
    if not struck:  # (most rounds)
        return
    # Those engaged as the checks began: a ship leaves the fight here only by striking or
    # being taken, and then she is among the struck.
    engaged = [s.name for s in battle.ships if s.status is _FIGHTING or s.name in struck]
    if mutual_strike(struck, engaged) and len(engaged) > 1:
        battle.record("battle", "mutual_strike", None, (), (), (("result", "all break off"),))
