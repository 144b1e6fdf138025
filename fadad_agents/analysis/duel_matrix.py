"""The duel's Markov chain run forward as matrices (:mod:`fadad_agents.analysis.exact`).

The chain's state is a pair of turns as the two duellists declared them (a round reads
nothing else), but a round factors (see :mod:`~fadad_agents.analysis.duel_chain`): when one
duellist strikes, what happens to its target depends on the target's turn and on the
striker's key alone. So the solver enumerates each duellist's turns on its own (a few
hundred, not their product), builds one sparse one-strike matrix per striker key, and
carries the joint distribution over pairs as a dense array through each round, its rows
and columns numbered by plan (key and number of strikes) so that each plan is a slice:

* declaring: a side that withdraws ends the duel at once;
* one side acting first: each slice of rows times its strikes' matrix on the other side's
  turns; then each slice of the second side's columns (by its plan after it paid its crit
  debts) strikes the first side's states back;
* a simultaneous turn: each side's end depends on its own state and the other's plan, so
  for each slice of columns each slice of rows goes to the column side's ends, then all
  rows at once to the row side's ends.

Nothing is pruned: every probability is carried, and the solver checks that wins, draws
and unfinished duels add up to 1 within 1e-9.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy import sparse

from fadad_agents.analysis.duel_chain import OUT, DuelChain, Duellist, Key, State, Turn
from fadad_agents.rules.core.actions import initiative_outcomes

__all__ = ["DuelOdds", "solve"]


@dataclass(frozen=True)
class DuelOdds:
    """The exact outcome of a duel.

    Attributes:
        sides: the two sides' names, in the scenario's order.
        wins: each side's chance to win.
        mutual: the chance both go down (or leave) in the same round: no winner.
        unfinished: the chance neither is down within the round limit: no result.
        rounds: ``rounds[r]`` is the chance the duel ends in round ``r + 1``.
        max_rounds: the round limit.
        states: pairs of turns as declared (the chain's states) it reached with a positive
            chance.
    """

    sides: tuple[str, str]
    wins: tuple[float, float]
    mutual: float
    unfinished: float
    rounds: tuple[float, ...]
    max_rounds: int
    states: int

    @property
    def mean_rounds(self) -> float:
        """Expected rounds of a duel that ends within the limit."""
        done = sum(self.rounds)
        return sum((r + 1) * p for r, p in enumerate(self.rounds)) / done if done else 0.0

    def summary(self) -> str:
        """A few lines for a game master."""
        a, b = self.sides
        return (
            f"{a} wins {self.wins[0]:.4f}, {b} wins {self.wins[1]:.4f}, both down "
            f"{self.mutual:.4f}, no result in {self.max_rounds} rounds {self.unfinished:.4f}; "
            f"a decided duel lasts {self.mean_rounds:.2f} rounds on average"
        )


_NO_KEY: Key = (-1, False, 0)
Plan = tuple[Key, int]
"""A striker's key and its number of strikes (no strikes: the key does not matter)."""


class _Turns:
    """One duellist's turns in one role of a round (first to act, second, simultaneous),
    numbered, with their one-strike rows per striker key."""

    def __init__(self) -> None:
        self.turns: list[Turn] = [OUT]
        self.index: dict[Turn, int] = {OUT: 0}
        self.roots: list[int] = []
        self.rows: dict[Key, dict[int, list[tuple[int, float]]]] = {}
        self.powers: dict[Plan, Any] = {}

    def add(self, turn: Turn) -> int:
        found = self.index.get(turn)
        if found is None:
            found = self.index[turn] = len(self.turns)
            self.turns.append(turn)
        return found

    def root(self, turn: Turn) -> None:
        self.roots.append(self.add(turn))

    def expand(self, chain: DuelChain, keys: dict[Key, int]) -> None:
        """Strike the roots with every key as often as it strikes in a round."""
        for key, count in keys.items():
            rows = self.rows.setdefault(key, {})
            frontier, seen = self.roots, set(self.roots)
            for _ in range(count):
                nxt = []
                for x in frontier:
                    row = rows.get(x)
                    if row is None:
                        struck = chain.strike(key, self.turns[x])
                        row = rows[x] = [(self.add(t), q) for t, q in struck]
                    for y, _ in row:
                        if y not in seen:
                            seen.add(y)
                            nxt.append(y)
                frontier = nxt

    def strikes(self, plan: Plan) -> Any:
        """The matrix of ``plan``'s strikes on these turns."""
        found = self.powers.get(plan)
        if found is None:
            key, count = plan
            n = len(self.turns)
            found = sparse.identity(n, format="csr")
            if count:
                rows, cols, vals = [], [], []
                for x, row in self.rows.get(key, {}).items():
                    for y, q in row:
                        rows.append(x)
                        cols.append(y)
                        vals.append(q)
                one = sparse.csr_array((vals, (rows, cols)), shape=(n, n))
                for _ in range(count):
                    found = found @ one
            self.powers[plan] = found
        return found


class _Side:
    """One duellist: its turns as declared (the chain's states: a round reads nothing
    else, and many states declare the same turn) and its turns in each role."""

    def __init__(self, chain: DuelChain, i: int) -> None:
        self.chain, self.i = chain, i
        self.declared: list[Turn] = []
        self.index: dict[Turn, int] = {}
        self.of_state: dict[State, int] = {}
        self.rooted = 0
        # acting first or second, one set of turns: a turn acting first has no attacks
        # left, and those of the second who has none (unconscious, defending) are the same
        self.sequential, self.shared = _Turns(), _Turns()
        self.answered = 0  # turns whose plans are collected
        self.seen = [0, 0]  # turns whose ends are collected
        self.plans: dict[Key, int] = {}  # keys it strikes with, acting first or in a tie
        self.answers: dict[Key, int] = {}  # keys it strikes with, acting second
        self.add(chain.starts[i])

    def add(self, s: State | None) -> None:
        """A state the duellist may end a round in, declared for the next."""
        if s is not None and s not in self.of_state:
            t = self.chain.declare(self.i, s)
            x = self.index.get(t)
            if x is None:
                x = self.index[t] = len(self.declared)
                self.declared.append(t)
            self.of_state[s] = x

    def root(self) -> bool:
        """Each role's first turn for the turns declared since the last call; False if
        there were none."""
        chain, i = self.chain, self.i
        if self.rooted == len(self.declared):
            return False
        for t in self.declared[self.rooted :]:
            ready = chain.ready(t)
            _count(self.plans, chain.key(i, ready), ready.attacks)
            self.sequential.root(ready._replace(attacks=0))
            self.sequential.root(t)
            self.shared.root(_tied(ready))
        self.rooted = len(self.declared)
        return True

    def struck(self, foe: _Side) -> None:
        """This side's turns acting second or in a tie, struck by the foe's plans; the
        keys it answers with."""
        chain, i = self.chain, self.i
        self.sequential.expand(chain, foe.plans)
        self.shared.expand(chain, foe.plans)
        for t in self.sequential.turns[self.answered :]:
            ready = chain.ready(t)
            _count(self.answers, chain.key(i, ready), ready.attacks)
        self.answered = len(self.sequential.turns)

    def struck_back(self, foe: _Side) -> None:
        """This side's turns acting first, struck by the foe's answers; the states every
        turn ends the round in."""
        chain, i = self.chain, self.i
        self.sequential.expand(chain, foe.answers)
        for t in self.sequential.turns[self.seen[0] :]:
            self.add(chain.end(i, chain.ready(t)))
        for t in self.shared.turns[self.seen[1] :]:
            self.add(chain.end(i, t))
        self.seen = [len(self.sequential.turns), len(self.shared.turns)]

    # --- the matrices ------------------------------------------------------------------

    def build(self) -> None:
        chain, i, n = self.chain, self.i, len(self.declared)
        self.n = n
        # renumbered by plan, those who withdraw last: each plan's rows are one slice
        plans = [_plan(chain, i, chain.ready(t)) for t in self.declared]
        order = sorted(range(n), key=lambda x: (self.declared[x].out, plans[x]))
        rank = {old: new for new, old in enumerate(order)}
        self.declared = [self.declared[x] for x in order]
        self.of_state = {s: rank[x] for s, x in self.of_state.items()}
        self.index = {t: x for x, t in enumerate(self.declared)}
        self.withdraws = np.array([t.out for t in self.declared])
        readies = [chain.ready(t) for t in self.declared]
        self.plan = [plans[x] for x in order]
        roots = [r._replace(attacks=0) for r in readies]
        turns = self.sequential
        self.first_root = _select([turns.index[r] for r in roots], len(turns.turns))
        self.second_root = _select([turns.index[t] for t in self.declared], len(turns.turns))
        tied = [self.shared.index[_tied(r)] for r in readies]
        self.shared_root = _select(tied, len(self.shared.turns))
        self.first_end = self._ends(turns.turns, lambda t: t)
        self.shared_end = self._ends(self.shared.turns, lambda t: t)
        # the second to act: each turn it may be left in, as (its end, its plan)
        # (numbered by plan, the ends out of the fight last: each plan's columns are one slice)
        ends = []
        for t in turns.turns:
            ready = chain.ready(t)
            s = chain.end(i, ready)
            ends.append((s is None, _plan(chain, i, ready), n if s is None else self.of_state[s]))
        answers = {end: x for x, end in enumerate(sorted(set(ends)))}
        self.answer_end = np.array([at for _, _, at in answers])
        self.answer_plan = [plan for _, plan, _ in answers]
        self.answer_of = _select([answers[end] for end in ends], len(answers))

    def _ends(self, turns: list[Turn], how: Any) -> Any:
        n = self.n
        cols = []
        for t in turns:
            s = self.chain.end(self.i, how(t))
            cols.append(n if s is None else self.of_state[s])
        return _select(cols, n + 1)

    def struck_first(self, plan: Plan) -> Any:
        """States (acting first, after acting) -> their ends, struck by ``plan``."""
        return self.first_root @ self.sequential.strikes(plan) @ self.first_end

    def struck_second(self, plan: Plan) -> Any:
        """States (acting second, as declared) -> (end, own plan), struck by ``plan``."""
        return self.second_root @ self.sequential.strikes(plan) @ self.answer_of

    def struck_shared(self, plan: Plan) -> Any:
        """States (in a simultaneous turn) -> their ends, struck by ``plan``."""
        return self.shared_root @ self.shared.strikes(plan) @ self.shared_end


def _tied(ready: Turn) -> Turn:
    """A turn shared with the foe: its track held until the turn's end."""
    return ready if ready.out else ready._replace(pending=ready.state.track)


def _count(plans: dict[Key, int], key: Key, attacks: int) -> None:
    if attacks and plans.get(key, 0) < attacks:
        plans[key] = attacks


def _plan(chain: DuelChain, i: int, ready: Turn) -> Plan:
    return (chain.key(i, ready), ready.attacks) if ready.attacks and not ready.out else (_NO_KEY, 0)


def _select(cols: list[int], width: int) -> Any:
    n = len(cols)
    return sparse.csr_array((np.ones(n), (np.arange(n), np.array(cols))), shape=(n, width))


def _t(matrix: Any) -> Any:
    return matrix.T.tocsr()


def _groups(plans: Iterable[Plan], live: Any) -> dict[Plan, slice]:
    """Each plan's slice of live rows (they are numbered by plan)."""
    found: dict[Plan, slice] = {}
    for x, plan in enumerate(plans):
        if live[x]:
            at = found.get(plan)
            if at is not None and at.stop != x:
                raise AssertionError("rows are not numbered by plan")
            found[plan] = slice(x if at is None else at.start, x + 1)
    return found


class _Round:
    """One round as matrices, for one ordering of the two sides (``a`` as rows)."""

    def __init__(self, a: _Side, b: _Side) -> None:
        self.a, self.b = a, b
        self.a_plans = _groups(a.plan, ~a.withdraws)
        self.answers = _groups(b.answer_plan, b.answer_end < b.n)
        # transposed once: a sparse matrix times a dense one is the fast way round
        self.first = {plan: _t(b.struck_second(plan)) for plan in self.a_plans}
        self.back = {plan: _t(a.struck_first(plan)) for plan in self.answers}

    def sequential(self, p: Any) -> tuple[Any, float, float]:
        """``a`` acts first: the live pairs after the round, ``a``'s and ``b``'s wins."""
        a, b = self.a, self.b
        mid = np.zeros((a.n, len(b.answer_plan)))
        for plan, rows in self.a_plans.items():
            mid[rows] = (self.first[plan] @ p[rows].T).T
        out_b = b.answer_end == b.n
        a_wins = float(mid[:, out_b].sum())
        after = np.zeros((a.n + 1, b.n))
        for plan, cols in self.answers.items():
            after[:, b.answer_end[cols]] += self.back[plan] @ mid[:, cols]
        return after[: a.n], a_wins, float(after[a.n].sum())


class _Tie:
    """A simultaneous turn as matrices: each side's end depends on its own state and the
    other's plan. For each plan of ``b`` (a slice of columns), the block of each plan of
    ``a`` is carried to ``b``'s ends, then all of them to ``a``'s at once."""

    def __init__(self, a: _Side, b: _Side) -> None:
        self.n = a.n, b.n
        a_plans = _groups(a.plan, ~a.withdraws)
        self.blocks = [
            (
                cols,
                _t(a.struck_shared(b_plan)),
                [(rows, _t(b.struck_shared(a_plan)[cols])) for a_plan, rows in a_plans.items()],
            )
            for b_plan, cols in _groups(b.plan, ~b.withdraws).items()
        ]

    def run(self, p: Any) -> tuple[Any, float, float, float]:
        """The live pairs after the turn, each side's wins, both down."""
        na, nb = self.n
        after = np.zeros((na + 1, nb + 1))
        for cols, left, rights in self.blocks:
            if not p[:, cols].any():
                continue
            carried = np.zeros((na, nb + 1))
            for rows, right in rights:
                carried[rows] = (right @ p[rows, cols].T).T
            after += left @ carried
        wins = float(after[:na, nb].sum()), float(after[na, :nb].sum())
        return after[:na, :nb], *wins, float(after[na, nb])


def solve(chain: DuelChain, limit: int) -> DuelOdds:
    """The duel's exact odds within ``limit`` rounds."""
    a, b = _Side(chain, 0), _Side(chain, 1)
    for _ in range(limit):  # the states each round can reach, round by round
        if not (a.root() | b.root()):
            break
        a.struck(b)
        b.struck(a)
        a.struck_back(b)
        b.struck_back(a)
    a.root()  # the turns first reached in the last round: never played from
    b.root()
    a.build()
    b.build()
    orders: list[tuple[Any, float]] = []
    for order, q in _initiative(chain.duellists, chain.options.fadad.initiative):
        if order is None:
            orders.append((_Tie(a, b), q))
        else:
            orders.append((_Round(a, b) if order == (0, 1) else _Round(b, a), q))
    p = np.zeros((a.n, b.n))
    p[a.of_state[chain.starts[0]], b.of_state[chain.starts[1]]] = 1.0
    reached = np.zeros(p.shape, dtype=bool)
    wins, mutual, ends = [0.0, 0.0], 0.0, []
    for _ in range(limit):
        reached |= p > 0
        before = wins[0] + wins[1] + mutual
        gone_a, gone_b = a.withdraws, b.withdraws
        if gone_a.any() or gone_b.any():
            mutual += float(p[np.ix_(gone_a, gone_b)].sum())
            wins[0] += float(p[np.ix_(~gone_a, gone_b)].sum())
            wins[1] += float(p[np.ix_(gone_a, ~gone_b)].sum())
            p = p.copy()
            p[gone_a] = 0.0
            p[:, gone_b] = 0.0
        nxt = np.zeros_like(p)
        for how, q in orders:
            if isinstance(how, _Tie):
                live, wa, wb, both = how.run(p)
                mutual += q * both
            elif how.a is a:
                live, wa, wb = how.sequential(p)
            else:
                live, wb, wa = how.sequential(p.T)
                live = live.T
            nxt += q * live
            wins[0] += q * wa
            wins[1] += q * wb
        ends.append(wins[0] + wins[1] + mutual - before)
        p = nxt
        if not p.any():
            break
    if abs(wins[0] + wins[1] + mutual + float(p.sum()) - 1.0) > 1e-9:
        raise RuntimeError("the duel's chain lost probability")  # a turn with no strikes
    return DuelOdds(
        sides=(chain.duellists[0].name, chain.duellists[1].name),
        wins=(wins[0], wins[1]),
        mutual=mutual,
        unfinished=float(p.sum()),
        rounds=tuple(ends),
        max_rounds=limit,
        states=int(np.count_nonzero(reached)),
    )


def _initiative(
    duellists: tuple[Duellist, Duellist], mode: str
) -> list[tuple[tuple[int, int] | None, float]]:
    """The round's order of action and its chance: (0, 1), (1, 0), or None for a shared
    turn (a tie on the roll and the trait)."""
    a, b = duellists
    first = second = tie = 0.0
    for ia, pa in initiative_outcomes(a.reaction, mode):
        for ib, pb in initiative_outcomes(b.reaction, mode):
            p = float(pa * pb)
            key_a, key_b = (ia, a.reaction), (ib, b.reaction)
            if key_a > key_b:
                first += p
            elif key_b > key_a:
                second += p
            else:
                tie += p
    orders: list[tuple[tuple[int, int] | None, float]] = []
    for order, p in (((0, 1), first), ((1, 0), second), (None, tie)):
        if p:
            orders.append((order, p))
    return orders
