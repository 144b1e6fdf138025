"""A process loads the field's compiled code once its fights on a field have paid for it.

``agents.core.field.compiled`` counts the agent-rounds a process plays on a field in
Python and loads numba once :data:`~fadad_agents.agents.core.field.compiled.LOAD_AFTER`
are played; from then on the field's compiled paths play, and the battle is the same,
byte for byte. numba, once imported, stays for the process, so each case here runs in a
fresh process of its own.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[3]

PLAY = """
import hashlib, json, sys
from benchmarks.bench_engine import _melee_yaml
from fadad_agents.agents.core.field import compiled
from fadad_agents.engine import build_battle, load, run

compiled.LOAD_AFTER = {load_after}
compiled.LOAD_WHEN_PAID = {when_paid}
if {preload}:
    compiled.load()
out = {{"battles": [], "loaded": [], "counted": []}}
for text, seed in {cases}:
    battle = build_battle(load(text), seed, collect=False)
    loaded = []
    while not battle.finished:
        battle.play_round()
        loaded.append("numba" in sys.modules)
    states = [
        (m.name, str(m.status), m.position, str(m.track), m.target and m.target.name)
        for side in battle.sides
        for m in side.members
    ]
    text = battle.log.text() + repr([tuple(e) for e in battle.log]) + repr(states)
    out["battles"].append(hashlib.sha256(text.encode()).hexdigest())
    out["loaded"].append(loaded)
    out["counted"].append(compiled._played)
print(json.dumps(out))
"""

BANDS_OF_100 = "_melee_yaml(100, bands=True)"
"""Two bands of 100 formed up in ranks: below a crowd's 256, so nothing else loads numba."""


def _play(
    cases: str, *, load_after: int = 40_000, when_paid: bool = True, preload: bool = False,
    env: dict[str, str] | None = None,
) -> tuple[dict[str, Any], str]:  # fmt: skip
    """Play ``cases`` (a Python list of (scenario text, seed)) in a fresh process: each
    battle's hash (log, events, final states), whether numba was loaded after each round,
    the agent-rounds counted after each battle; and what the process said on stderr."""
    code = PLAY.format(load_after=load_after, when_paid=when_paid, preload=preload, cases=cases)
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True,
        env=env,
    )  # fmt: skip
    return json.loads(done.stdout), done.stderr


CASES = {
    "formed up in ranks": BANDS_OF_100,
    "12 yards apart, walled, random crits": (
        '_melee_yaml(100, bands=True, gap=12).replace("rolled}", "rolled, '
        'fadad.crit_effects: random}") + "map: {kind: open, width: 14, height: 8}\\n"'
    ),
    "40 yards apart": "_melee_yaml(100, bands=True, gap=40)",
}
"""Two bands of 100 each way (the scenario's text as Python): ``test_ranks_in_arrays``'s
cases, played here with no band big enough to load numba itself."""


@pytest.mark.parametrize("case", list(CASES))
def test_numba_loads_mid_battle_once_paid_and_the_battle_is_the_same(case: str) -> None:
    """With the count to pay lowered to 1,000 agent-rounds, two bands of 100 load numba
    in their sixth round (200 a round: 1,000 counted at its start), mid-battle; each
    battle, every path played as it comes, is the same, byte for byte, as the one played
    wholly in Python (numba never loaded) and the one wholly with numba loaded."""
    cases = f"[({CASES[case]}, 1), ({CASES[case]}, 2)]"
    paid, _ = _play(cases, load_after=1_000)
    never, _ = _play(cases, when_paid=False)
    always, _ = _play(cases, preload=True)
    first = paid["loaded"][0]
    assert first[:5] == [False] * 5, "loaded before 1,000 agent-rounds were played"
    assert len(first) > 6, "the battle ended before the load: nothing shown"
    assert all(first[5:]), "not loaded once 1,000 agent-rounds were played"
    assert not any(chain for battle in never["loaded"] for chain in battle)
    assert all(chain for battle in always["loaded"] for chain in battle)
    assert paid["battles"] == never["battles"] == always["battles"]
    assert paid["battles"][0] != paid["battles"][1], "two seeds, one battle: nothing shown"


def test_the_count_is_agent_rounds_on_a_field_and_stops_at_its_load() -> None:
    """The count is the fighters of each round played on a field not all in one melee:
    none for a 5 v 5 in contact (all in one melee) or a ship duel (no field), each
    round's fighters for two bands of 20 12 yards apart; below the default count to
    pay (40,000) numba stays unloaded; once it loads, counting stops."""
    cases = (
        "[(_melee_yaml(5, bands=False), 1), (_melee_yaml(20, bands=True, gap=12), 1),"
        " (_melee_yaml(20, bands=True, gap=12), 2)]"
    )
    played, _ = _play(cases)
    in_contact, first, second = played["counted"]
    assert in_contact == 0
    assert 40 * 2 < first < second < 40_000  # at least two rounds of 40 each battle
    assert not any(chain for battle in played["loaded"] for chain in battle)
    paid, _ = _play(cases, load_after=100)
    assert paid["counted"][1] == paid["counted"][2] >= 100, "counted on after the load"


COMPILE = """
from fadad_agents.agents.core.field import compiled
compiled.load()
from fadad_agents.agents.core.crowd import elbows  # compiles nothing as it imports
elbows._within(0.0, 3.0, 1.0, 2.0)
elbows._within(0, 3, 1, 2)  # integers: a second compile, no second notice
"""


def test_a_first_compile_says_so_once(tmp_path: Path) -> None:
    """On an install whose cache is empty (here an empty ``NUMBA_CACHE_DIR``), numba's
    first compile of the package's code, once loaded, is said on stderr, once however
    many follow; with the cache filled, nothing is said."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    notice = "fadad-agents: compiling its fast paths for this install, once"
    command = [sys.executable, "-c", COMPILE]
    said = [
        subprocess.run(
            command, cwd=ROOT, capture_output=True, text=True, check=True, env=env
        ).stderr
        for _ in range(2)
    ]
    assert said[0].count(notice) == 1, said[0]
    assert notice not in said[1], said[1]


BESIDE_A_BAR = """
import tqdm
from fadad_agents.agents.core.field import compiled
bar = tqdm.tqdm(total=3, desc="sweep", mininterval=0)
bar.update(1)
compiled.load()
from fadad_agents.agents.core.crowd import elbows
elbows._within(0.0, 3.0, 1.0, 2.0)
bar.update(1)
bar.close()
"""


def test_a_first_compile_beside_a_progress_bar_says_so_on_a_line_of_its_own(
    tmp_path: Path,
) -> None:
    """With a progress bar showing (a sweep's, a long battle's), the notice of a first
    compile is a line of its own, the bar drawn again below it, not text run into it."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    command = [sys.executable, "-c", BESIDE_A_BAR]
    said = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=True, env=env)
    lines = said.stderr.replace("\r", "\n").splitlines()
    assert compiled_notice() in lines, said.stderr
    assert any(line.startswith("sweep: ") for line in lines), "no bar shown: nothing tested"


def compiled_notice() -> str:
    """The notice, as the module words it."""
    from fadad_agents.agents.core.field import compiled

    return compiled.NOTICE


@pytest.mark.parametrize("when_paid", [True, False])
def test_small_fights_in_contact_round_by_round_never_load_numba(when_paid: bool) -> None:
    """Many 5 v 5 fights in contact played round by round (nothing counted: the compiled
    melee plays only whole battles) leave numba unloaded, whether or not a process loads
    it once its fights have paid for it."""
    played, _ = _play("[(_melee_yaml(5, bands=False), s) for s in range(50)]",
                      load_after=1, when_paid=when_paid)  # fmt: skip
    assert set(played["counted"]) == {0}
    assert not any(chain for battle in played["loaded"] for chain in battle)


SWEEP = """
import hashlib, json, sys
from benchmarks.bench_engine import _melee_yaml
from fadad_agents.agents.core.field import compiled
from fadad_agents.analysis import sweep

compiled.LOAD_AFTER = 9_000
compiled.LOAD_WHEN_PAID = {when_paid}
with open("{path}", "w") as f:
    f.write(_melee_yaml(100, bands=True))
one = sweep("{path}", 1, 7, progress=False).frame  # one battle: its agent-rounds
first = compiled.counted()
frame = sweep("{path}", {runs}, 7, progress=False).frame
print(json.dumps({{
    "first": first, "counted": compiled.counted(), "loaded": "numba" in sys.modules,
    "rows": hashlib.sha256(frame.to_csv().encode()).hexdigest(),
}}))
"""


def _sweep(tmp_path: Path, runs: int, when_paid: bool) -> dict[str, Any]:
    """A serial sweep of ``runs`` battles of two bands of 100 in a fresh process, after a
    sweep of one (the same first battle), the count to pay lowered to 9,000."""
    code = SWEEP.format(path=tmp_path / "fight.yaml", runs=runs, when_paid=when_paid)
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return json.loads(done.stdout)  # type: ignore[no-any-return]


def test_a_sweep_loads_numba_after_its_first_battle_when_its_others_will_pay(
    tmp_path: Path,
) -> None:
    """A sweep whose first battle's agent-rounds on a field, times its other battles, reach
    the count to pay loads numba right after that battle (counting stops there: the
    count is the first battle's); one whose others will not pay plays them in Python;
    the rows are the same as a sweep's that never loads numba."""
    few, many = 2, 7
    first = _sweep(tmp_path, few, True)["first"]  # 1,868 agent-rounds
    # the count stays short of 9,000 over the sweep of one and the two of the few (the
    # second a third longer, say), and the many's others will pay for the load
    assert 3 * first * 1.3 < 9_000 <= first * (many - 1), "the case no longer tells"
    paid = _sweep(tmp_path, many, True)
    assert paid["loaded"]
    assert paid["counted"] == 2 * first, "not loaded right after the sweep's first battle"
    not_paid = _sweep(tmp_path, few, True)
    assert not not_paid["loaded"]
    assert not_paid["counted"] > 2 * first, "its second battle not counted"
    never = _sweep(tmp_path, many, False)
    assert not never["loaded"]
    assert paid["rows"] == never["rows"]


CROWD = """
import hashlib, json, sys
from benchmarks.bench_engine import _melee_yaml
from fadad_agents.engine import build_battle, load
from fadad_agents.engine.personal import melee

melee.MELEE_COMPILED = {compiled}
played = []
play = melee.play
melee.play = lambda battle: played.append(play(battle)) or played[-1]
battle = build_battle(load(_melee_yaml(260, bands=True)), 4, collect=False)
before = "numba" in sys.modules
compiled_rounds = []
if {whole}:
    battle.run_to_end()
else:
    while not battle.finished:
        battle.play_round()
        compiled_rounds.append(battle.__dict__.get("_compiled_rounds") is not None)
states = [
    (m.name, str(m.status), m.position, str(m.track), m.target and m.target.name)
    for side in battle.sides
    for m in side.members
]
text = battle.log.text() + repr([tuple(e) for e in battle.log]) + repr(states)
print(json.dumps({{
    "before": before, "whole": played, "rounds": compiled_rounds,
    "hash": hashlib.sha256(text.encode()).hexdigest(),
}}))
"""


def _crowd(*, compiled: bool, whole: bool) -> dict[str, Any]:
    """Two bands of 260 formed up in ranks, played in a fresh process, whole or round by
    round, with the compiled melee on or off: whether numba was loaded before the play,
    what the compiled melee's whole play answered, whether it played each round, and the
    battle's hash (log, events, final states)."""
    code = CROWD.format(compiled=compiled, whole=whole)
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return json.loads(done.stdout)  # type: ignore[no-any-return]


def test_a_crowd_loads_numba_before_its_first_round_and_plays_compiled_from_its_start() -> None:
    """A process's first battle with a band of 256 or more on a field (``fadad run``'s,
    always) loads numba before its first round, which would load it anyway: the compiled
    melee plays it from its start, whole or round by round (loaded in that round, it came
    too late, and the battle played on in Python at twice the cost). The same battle as
    one the compiled melee never plays, byte for byte."""
    python = _crowd(compiled=False, whole=True)
    assert not python["before"]
    assert python["whole"] == [False]
    for whole in (True, False):
        played = _crowd(compiled=True, whole=whole)
        assert not played["before"]
        if whole:
            assert played["whole"] == [True]
        else:
            assert played["rounds"]
            assert all(played["rounds"])
        assert played["hash"] == python["hash"]
