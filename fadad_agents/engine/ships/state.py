"""What a ship battle keeps between rounds: decks, crews, grapples, ships lost, struck or escaped.

:class:`ShipBattleState` is the base of :class:`~fadad_agents.engine.ships.battle.ShipBattle`
(which plays the ship round) and the view ship policies read (``enemy_ships``,
``range_between``, ``holds_initiative``, ``boarders_on`` ...). Set-up
(:mod:`~fadad_agents.engine.ships.build`) fills it through ``add_ship``, ``put_aboard``,
``set_role``, ``note_person``, ``set_missile`` and ``add_debris``.
"""

from __future__ import annotations

from typing import Any

from fadad_agents.agents.core.base import Combatant, Status
from fadad_agents.agents.core.character import Character
from fadad_agents.agents.core.groups import Crew
from fadad_agents.agents.ships.ship import Ship
from fadad_agents.engine.core.battle import Battle
from fadad_agents.engine.core.streams import NamedStream
from fadad_agents.engine.ships import helm as ship_helm
from fadad_agents.hexmap import Hex, distance
from fadad_agents.policies.core.protocols import MoraleChoice
from fadad_agents.rules.ships.close import CHAIN, LINE, GrappleLine, is_grappled, lines_to_grapple

__all__ = ["ShipBattleState"]

_FIGHTING = Status.FIGHTING


class ShipBattleState(Battle):
    """Decks, crews, grapples and the fate of ships: everything but the ship round itself."""

    # The ship rules' dice, each stream made the first time it rolls (many battles never
    # chase, jettison or cast at a hull; seeding a generator costs more than most rolls).
    gunnery_rng = NamedStream("gunnery")
    crit_rng = NamedStream("crits")
    fire_rng = NamedStream("fire")
    close_rng = NamedStream("close")
    chase_rng = NamedStream("chase")
    ship_morale_rng = NamedStream("ship_morale")
    deck_init_rng = NamedStream("deck_initiative")
    ship_init_rng = NamedStream("ship_initiative")
    helm_rng = NamedStream("helm")
    jettison_rng = NamedStream("jettison")
    hull_rng = NamedStream("hull_attacks")
    aftermath_rng = NamedStream("aftermath")
    shaken_rng = NamedStream("shaken")

    def __init__(
        self,
        *args: Any,
        round_seconds: int = 60,
        map_radius: int | None = None,
        hex_yards: int = 500,
        **kw: Any,
    ):
        super().__init__(*args, **kw)
        self.round_seconds = round_seconds
        self.hex_yards = hex_yards  # the map's hexes (ranges of hand weapons and spells)
        self.map_radius = map_radius
        self.ships: list[Ship] = []
        self.debris: dict[Hex, bool] = {}
        self._deck: dict[int, Ship] = {}
        self._home: dict[int, Ship] = {}
        self._aboard: dict[int, list[Combatant]] = {}
        self._role: dict[int, str] = {}
        self._missile: set[int] = set()
        self._people: list[Combatant] = []
        self._dexterity: dict[int, int] = {}
        self._helm_skill: dict[int, int] = {}
        self._spells: dict[int, list[Any]] = {}
        self.casters: set[str] = set()  # names of those who cast spells (slain by magic)
        self._crew_lists: dict[int, list[Combatant]] = {}  # of _people, _home; _belonging
        self._play_state()

    def _play_state(self) -> None:
        """What a play adds to set-up, empty (set-up and a reset start from it)."""
        self.start_hex: dict[Ship, Hex] = {}
        self.turn_order: list[Ship] = []  # this round's ships in the order they move
        self.initiative_side: int | None = None
        self.crews_changed = False
        self.recount_due = False  # the next round starts with a count (refresh_crews)
        self.thrown_down = False  # a crew's hands were thrown off their feet (deck.shake)
        self.foreign_decks = False  # someone stands on a ship of another side (move_aboard)
        self.strength_kept: tuple[tuple[int, ...], Any] | None = None  # morale's last count
        self.repairs: dict[str, dict[str, Any]] = {}
        self.incapacitated: dict[str, int] = {}
        self._lines: dict[frozenset[int], list[list[Any]]] = {}
        self._grappled_at: dict[frozenset[int], int] = {}
        self.spots: dict[tuple[int, int], int] = {}
        self.jettisoned: set[Hex] = set()

    # --- set-up ------------------------------------------------------------------------

    def add_ship(self, ship: Ship) -> None:
        """Enlist a ship."""
        self.enlist(ship)
        self.ships.append(ship)
        self._aboard[ship.unique_id] = []

    def put_aboard(self, member: Combatant, ship: Ship, home: Ship | None) -> None:
        """At set-up: ``member`` stands on ``ship``; ``home`` is its own ship."""
        if home is not None:
            self._home[member.unique_id] = home
        self._people.append(member)
        self._crew_lists.clear()
        self.move_aboard(member, ship)

    def set_role(self, member: Combatant, role: str) -> None:
        """A crew's job aboard (``rigging`` crews stay aboard when the rest board)."""
        self._role[member.unique_id] = role

    def note_person(self, member: Combatant, force: Any) -> None:
        """At set-up: a named character's helm skill and the spells it can cast at ships."""
        skill = ship_helm.helm_skill_of(dict(getattr(force, "skills", None) or {}))
        if skill is not None:
            self._helm_skill[member.unique_id] = skill
        weapon = getattr(force, "weapon", None)
        if isinstance(member, Character) and weapon is not None and weapon.ranged:
            self._missile.add(member.unique_id)
        traits = {k.strip().lower(): v for k, v in (getattr(force, "traits", None) or {}).items()}
        if "dexterity" in traits:
            self._dexterity[member.unique_id] = traits["dexterity"]
        spells = getattr(force, "spells", None)
        if spells:
            self._spells[member.unique_id] = [[spell, spell.uses] for spell in spells]
            self.casters.add(member.name)

    def dexterity(self, member: Combatant) -> int | None:
        """``member``'s Dexterity if its stat block rates it (a trait), else ``None``."""
        return self._dexterity.get(member.unique_id)

    def helm_skill(self, member: Combatant) -> int | None:
        """``member``'s helm skill, ``None`` if it cannot take a ship's helm."""
        return self._helm_skill.get(member.unique_id)

    def missile(self, member: Combatant) -> bool:
        """``member`` carries a hand-held missile weapon."""
        return member.unique_id in self._missile

    def add_debris(self, cells: Any) -> None:
        """At set-up: debris fields on the map (``map.debris``), hazards to ships (SJ 7.2)."""
        for q, r in cells:
            self.debris.setdefault(Hex(q, r), False)

    @property
    def has_spells(self) -> bool:
        """Someone in the battle can cast spells at ships."""
        return bool(self._spells)

    def spells_of(self, member: Combatant) -> list[Any]:
        """``[spell, uses left]`` pairs of ``member``'s ship spells (kept up to date)."""
        return self._spells.get(member.unique_id, [])

    # --- decks and crews ---------------------------------------------------------------

    def deck_of(self, member: Combatant) -> Ship | None:
        return self._deck.get(member.unique_id)

    def home_of(self, member: Combatant) -> Ship | None:
        return self._home.get(member.unique_id)

    def move_aboard(self, member: Combatant, ship: Ship) -> None:
        """``member`` stands on ``ship`` now; whoever fought it on the deck it left loses
        it as a target, and it drops its own (a sticky target never reaches across decks)."""
        old = self._deck.get(member.unique_id)
        if old is not None:
            left = self._aboard[old.unique_id]
            left.remove(member)
            for m in left:
                if m.target is member:
                    m.target = None
            member.target = None
        self._deck[member.unique_id] = ship
        self._aboard[ship.unique_id].append(member)
        self.foreign_decks |= member.side != ship.side  # (until then no deck is fought over)
        member.position = ship.position
        self.crews_changed = True

    @property
    def people(self) -> list[Combatant]:
        """Everyone who is not a ship, in set-up order."""
        return self._people

    def fighters_on(self, ship: Ship) -> list[Combatant]:  # these deck lists: one pass each
        return [m for m in self._aboard[ship.unique_id] if m.status is _FIGHTING]

    def holds_deck(self, ship: Ship) -> bool:
        """Someone of her side fights on ``ship``'s deck (a scan that stops at the first)."""
        side = ship.side
        for m in self._aboard[ship.unique_id]:  # a loop: every ship, every round
            if m.side == side and m.status is _FIGHTING:
                break
        else:
            return False
        return True

    def crews_on(self, ship: Ship) -> list[Crew]:
        deck = self._aboard[ship.unique_id]
        return [m for m in deck if m.status is _FIGHTING and isinstance(m, Crew)]

    def crew_heads_on(self, ship: Ship) -> int:
        return sum(c.count for c in self.crews_on(ship))

    def home_crews(self, ship: Ship) -> list[Crew]:
        """Own crews on the own deck."""
        home, side = self._home, ship.side  # crews_on(ship) filtered, in one pass
        return [
            m
            for m in self._aboard[ship.unique_id]
            if m.status is _FIGHTING
            and isinstance(m, Crew)
            and m.side == side
            and home.get(m.unique_id) is ship
        ]

    def crew_heads_home(self, ship: Ship) -> int:  # home_crews' heads, in one pass
        home, side, heads = self._home, ship.side, 0
        for m in self._aboard[ship.unique_id]:
            if m.status is _FIGHTING and isinstance(m, Crew) and m.side == side:
                heads += m.count if home.get(m.unique_id) is ship else 0
        return heads

    def crew_bonus(self, ship: Ship) -> int:
        """The attack bonus of her first own crew on her own deck (0 without one): the
        first of :meth:`home_crews`, found without the list (every shot reads it)."""
        home, side = self._home, ship.side
        for m in self._aboard[ship.unique_id]:
            own = m.side == side and home.get(m.unique_id) is ship
            if own and m.status is _FIGHTING and isinstance(m, Crew):
                return m.stats.attack_bonus
        return 0

    def boarders_on(self, ship: Ship) -> int:
        """Enemy heads fighting on ``ship``'s deck (a loop: read by most ships' moves and
        volleys, most decks hold only her own people; none without :attr:`foreign_decks`)."""
        if not self.foreign_decks:
            return 0
        side, heads = ship.side, 0
        for m in self._aboard[ship.unique_id]:
            if m.side != side and m.status is _FIGHTING:
                heads += m.headcount
        return heads

    def boarders_defending(self, ship: Ship) -> int:
        """Heads of ``ship``'s side fighting on its deck."""
        return sum(m.headcount for m in self.fighters_on(ship) if m.side == ship.side)

    def own_heads(self, ship: Ship) -> int:
        """Own crew heads wherever they fight (boarders included)."""
        crews = self._crew_lists.get(2 * ship.unique_id + 1)  # _belonging, read inline
        if crews is None:  # (every ship's morale reads it every round)
            crews = self._belonging(ship, True)
        heads = 0
        for m in crews:
            if m.status is _FIGHTING:
                heads += m.count
        return heads

    def ship_company(self, ship: Ship) -> list[Combatant]:
        """Her side's people whose own ship she is, fighting or not, in set-up order."""
        return self._belonging(ship, False)

    def _belonging(self, ship: Ship, crews: bool) -> list[Combatant]:
        """Whose home ``ship`` is: crews of any side, or her side's people (set at set-up,
        read every round: made once)."""
        key = 2 * ship.unique_id + crews  # one int per ship and kind: no tuple to make
        found = self._crew_lists.get(key)
        if found is None:
            home, side = self._home, ship.side
            found = [
                m
                for m in self._people
                if home.get(m.unique_id) is ship
                and (isinstance(m, Crew) if crews else m.side == side)
            ]
            self._crew_lists[key] = found
        return found

    def boarding_party(self, ship: Ship, *, taking: bool = False) -> list[Combatant]:
        """Who swarms across: own characters but a named helmsman, and every crew but the
        riggers (PROPOSED, ``sj.riggers_stay_aboard``); one who fell back from an enemy deck
        crosses again only to take a ship that has struck (``taking``)."""
        riggers_stay = self.options.sj.riggers_stay_aboard
        party = []
        for m in self.fighters_on(ship):
            if m.side != ship.side or self._home.get(m.unique_id) is not ship:
                continue
            if riggers_stay and isinstance(m, Crew) and self._role.get(m.unique_id) == "rigging":
                continue
            if "retreated" in m.memory and not taking:
                continue
            if m is ship.helmsman:  # the helmsman stays at the helm
                continue
            party.append(m)
        return party

    def holds_out(self, ship: Ship) -> bool:
        """``ship`` has struck but people of her side still fight on her deck (PCs fight on
        as long as they wish, SJ 12/18): the victor may board her to take her."""
        return ship.status is Status.SURRENDERED and self.holds_deck(ship)

    def can_retreat(self, member: Combatant, deck: Ship) -> bool:
        home = self._home.get(member.unique_id)
        return home is not None and home.fighting and home.grappled_with(deck)

    def fall_back(self, member: Combatant, reason: str) -> None:
        """SJ 12: ``member`` retreats from the enemy deck it stands on to its own ship, or
        surrenders where it has nowhere to go (its ship gone or no longer alongside); on
        its own deck it surrenders. The same words for characters and crews."""
        deck, home = self.deck_of(member), self._home.get(member.unique_id)
        if not member.fighting:
            return
        if home is not None and deck not in (None, home) and self.can_retreat(member, deck):
            self.move_aboard(member, home)
            member.memory["retreated"] = self.round
            outcome = (("result", "falls back"), ("reason", reason))
            self.record(member.name, "retreat", home.name, (), (), outcome)
            return
        self.leave(member, MoraleChoice.SURRENDER, reason)
        self.crews_changed = True

    def refresh_crews(self) -> None:
        """Count hands aboard each ship and put them on the guns (reload policy).

        Any change to the hands (casualties, deck moves, leaving, a new helmsman or
        policies) sets :attr:`crews_changed` and is counted at the next check in the round;
        a weapon put out of action (its hands go to the others) sets :attr:`recount_due`
        and is counted when the next round starts, as are ships whose policies keep state
        (their reload policy is asked every round)."""
        self.crews_changed = self.recount_due = False
        for ship in self.ships:
            if ship.status is not _FIGHTING:
                continue
            ship.hand_count = hands = self.crew_heads_home(ship)
            needs = [0 if t.disabled else t.weapon.crew for t in ship.teams]
            asked = (ship.ship_policies, hands, needs)  # stateless policies answer as before
            if not asked[0].shareable:
                self.recount_due = True
            elif ship.memory.get("crewed") == asked:
                continue
            ship.memory["crewed"] = asked
            crews = asked[0].reload.assign(hands, ship.min_crew, needs)
            for team, n in zip(ship.teams, crews, strict=True):
                team.set_crew(n)

    # --- the view ship policies read ---------------------------------------------------

    def enemy_ships(self, side: int) -> list[Ship]:
        return [s for s in self.ships if s.side != side and s.status is _FIGHTING]

    def own_ships(self, side: int) -> list[Ship]:
        return [s for s in self.ships if s.side == side and s.status is _FIGHTING]

    def range_between(self, a: Any, b: Any) -> int:
        return distance(a.hex, b.hex)

    def holds_initiative(self, side: int) -> bool:
        return self.initiative_side == side

    # --- grapples ----------------------------------------------------------------------

    def add_lines(self, a: Ship, b: Ship, n: int, kind: GrappleLine = LINE) -> None:
        """``n`` more lines of ``kind`` between ``a`` and ``b`` (negative: the newest part)."""
        key = frozenset((a.unique_id, b.unique_id))
        lines = self._lines.setdefault(key, [])
        if n > 0:
            lines += [[kind, kind.hp] for _ in range(n)]
        elif n < 0:
            del lines[max(0, len(lines) + n) :]
        self._hold(a, b)

    def lines_between(self, a: Ship, b: Ship) -> list[list[Any]]:
        """The lines holding ``a`` and ``b``: ``[kind, hit points left]`` each, in the
        order they caught (a blow at one wears it down, SJ 12)."""
        return self._lines.get(frozenset((a.unique_id, b.unique_id)), [])

    def drop_cut_lines(self, a: Ship, b: Ship) -> None:
        """Lines hacked through (no hit points left) part."""
        key = frozenset((a.unique_id, b.unique_id))
        self._lines[key] = [line for line in self._lines.get(key, []) if line[1] > 0]
        self._hold(a, b)

    def _hold(self, a: Ship, b: Ship) -> None:
        """Count the lines and note since when the ships are held (lines enough or a lock)."""
        key = frozenset((a.unique_id, b.unique_id))
        lines = len(self._lines.get(key, []))
        if not lines:
            self._lines.pop(key, None)
        locked = b in a.locks
        for x, y in ((a, b), (b, a)):
            if lines or locked:
                x.grapples[y] = lines
            else:
                x.grapples.pop(y, None)
        rounding = self.options.sj.grapple_lines_rounding
        if locked or (lines and is_grappled(lines, a.tons, b.tons, rounding)):
            self._grappled_at.setdefault(key, self.round)
        else:
            self._grappled_at.pop(key, None)

    def lash(self, a: Ship, b: Ship, *, lock: bool = False) -> None:
        """Hold two ships together: lines enough at set-up (of ``a``'s grapnels), or a lock
        (a piercing ram, FADAD entanglement) that only a helmsman's pull parts (SJ 9)."""
        if lock:
            if b not in a.locks:
                a.locks.append(b)
                b.locks.append(a)
            self._hold(a, b)
            return
        needed = lines_to_grapple(a.tons, b.tons, self.options.sj.grapple_lines_rounding)
        kind = CHAIN if a.spec.grapnels == "chains" else LINE
        self.add_lines(a, b, max(0, needed - a.grapples.get(b, 0)), kind)

    def unlock(self, a: Ship, b: Ship) -> None:
        """The lock parts; lines may still hold them."""
        if b in a.locks:
            a.locks.remove(b)
            b.locks.remove(a)
        self._hold(a, b)

    def is_locked(self, a: Ship, b: Ship) -> bool:
        return b in a.locks

    def release(self, a: Ship, b: Ship, reason: str) -> None:
        self.cast_off(a, b)
        self.record(a.name, "release", b.name, (), (), (("result", reason),))

    def grappled_since(self, a: Ship, b: Ship) -> int | None:
        return self._grappled_at.get(frozenset((a.unique_id, b.unique_id)))

    def immobilised(self, ship: Ship) -> bool:
        return any(ship.grappled_with(o) and o.fighting for o in ship.grapples)

    def place(self, ship: Ship, where: Hex, facing: int) -> None:
        ship.hex, ship.facing = where, facing
        ship.position = (where.q, where.r)
        for m in self._aboard[ship.unique_id]:
            m.position = ship.position

    # --- losing ships ------------------------------------------------------------------

    def cast_off(self, a: Ship, b: Ship) -> None:
        """Every line and lock between ``a`` and ``b`` parts."""
        self._lines.pop(frozenset((a.unique_id, b.unique_id)), None)
        self.unlock(a, b)

    def lose_ship(self, ship: Ship, reason: str) -> None:
        """Broken up: the ship and everyone on it are out; lines to it part."""
        for other in list(ship.grapples):
            self.cast_off(ship, other)
        for m in list(self.fighters_on(ship)):
            self.take_out(m, reason)
        self.take_out(ship, reason)
        self.crews_changed = True

    def strike(self, ship: Ship, reason: str) -> None:
        """Strike the colours: the ship and its people surrender; PCs in a fight fight on,
        and a PC who can take the helm may sail her on (:func:`ship_helm.sail_on`)."""
        if not ship.fighting:
            return
        again, ship.struck = ship.struck, True
        if not again:
            outcome = (("result", "strikes her colours"), ("reason", reason))
            self.record(ship.name, "strike", None, (), (), outcome)
        sails_on = getattr(ship.ship_policies.colours, "sail_on", False)
        keep = sails_on and not again and not ship.gargantuan
        helmsman = ship_helm.sail_on(self, ship) if keep else None
        if helmsman is None:
            self.leave(ship, MoraleChoice.SURRENDER, reason)
        for m in list(self._people):
            if m is helmsman or not m.fighting or self._home.get(m.unique_id) is not ship:
                continue
            deck = self._deck.get(m.unique_id)
            fighting_on = (
                getattr(m, "player", False) and deck is not None and self.boarders_on(deck) > 0
            )
            if not fighting_on:
                self.leave(m, MoraleChoice.SURRENDER, f"{ship.name} struck")
        self.crews_changed = True

    def withdraw_ship(self, ship: Ship, reason: str) -> None:
        """``ship`` leaves the tactical fight (escaped, landed) with her own people aboard;
        her grapples are cast off."""
        for m in list(self.fighters_on(ship)):
            if m.side == ship.side:
                self.leave(m, MoraleChoice.WITHDRAW, f"aboard {ship.name}")
        for other in list(ship.grapples):
            self.cast_off(ship, other)
        self.leave(ship, MoraleChoice.WITHDRAW, reason)
        self.crews_changed = True

    def casualties(self, member: Combatant, lost: int) -> int:
        """Losses also change who can work the guns and sail (crews are recounted)."""
        self.crews_changed = True
        return int(super().casualties(member, lost))

    def set_missile(self, member: Combatant) -> None:
        """At set-up: this crew carries hand-held missile weapons (bows, crossbows, slings)."""
        self._missile.add(member.unique_id)
