"""The SVG hex map draws whatever has a position, ships with facing, fires and grapples."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any

import pytest

from fadad_agents.agents.core.base import Status
from fadad_agents.dashboard import BattleDashboard, BattleSession, MapView
from fadad_agents.engine import load
from fadad_agents.hexmap import Hex, to_pixel

BOARDING = "scenarios/boarding-action.yaml"


@dataclass
class _Ship:
    """A stand-in for the ship agent of a later issue (read through attributes only)."""

    name: str
    side: int
    position: tuple[int, int]
    facing: int
    fires: int = 0
    grappled: tuple[str, ...] = ()
    kind: str = "ship"
    headcount: int = 1
    initial_headcount: int = 1
    wound: int = 0
    status: Status = Status.FIGHTING


@dataclass
class _Roster:
    members: list[Any]


@dataclass
class _Env:
    now: int = 60


@dataclass
class _Battle:
    sides: list[_Roster]
    round: int = 1
    finished: bool = False
    env: _Env = field(default_factory=_Env)


def _ships_battle() -> _Battle:
    return _Battle(
        [
            _Roster([_Ship("Greenbriar", 0, (0, 0), 1, fires=2, grappled=("Black Tern",))]),
            _Roster([_Ship("Black Tern", 1, (2, -1), 4, grappled=("Greenbriar",))]),
        ]
    )


def test_ship_agents_are_drawn_with_facing_fires_and_grapples() -> None:
    """Ship agents replace the scenario's ships: their facing, fires and grapple line show."""
    view = MapView(load(BOARDING))
    svg = view.svg(_ships_battle())
    assert svg.count('class="ship') == 2
    assert 'data-facing="1"' in svg
    assert 'data-facing="4"' in svg
    assert svg.count('class="fire"') == 2
    assert svg.count('class="grapple"') == 1  # one line per grappled pair


def test_a_ship_points_along_its_facing() -> None:
    """Facing 0 points up the screen (flat-topped hexes, north up)."""
    battle = _Battle(
        [
            _Roster([_Ship("Greenbriar", 0, (0, 0), 0)]),
            _Roster([_Ship("Black Tern", 1, (2, -1), 3)]),
        ]
    )
    svg = MapView(load(BOARDING)).svg(battle)
    hull = re.search(r'class="ship side-0"[^>]*>.*?<polygon points="([^"]+)"', svg)
    assert hull is not None
    bow = [float(v) for v in hull.group(1).split()[0].split(",")]
    cx, cy = to_pixel(Hex(0, 0), 1.0)
    assert abs(bow[0] - cx) < 0.2
    assert bow[1] < cy


def test_moving_a_marker_changes_the_map() -> None:
    """A marker is drawn where its agent stands, so a move redraws the map."""
    view = MapView(load(BOARDING))
    battle = _ships_battle()
    before = view.svg(battle)
    battle.sides[1].members[0].position = (-1, 2)
    assert view.svg(battle) != before


def test_crews_aboard_stand_in_their_ships_hex() -> None:
    """Fighters with no position of their own are drawn in the hex of the ship they board."""
    session = BattleSession(BOARDING, seed=2)
    view = MapView(session.scenario)
    hexes = {m.name: m.hex for m in view.markers(session.battle)}
    assert hexes["Greenbriar marines"] == Hex(0, 0)
    assert hexes["Captain Skarre"] == Hex(0, 0)


def test_open_maps_bin_yards_into_hexes() -> None:
    """On an 800-yard field each hex covers 27 yards; bands are drawn once per band."""
    session = BattleSession("scenarios/field-battle.yaml", seed=2)
    view = MapView(session.scenario)
    assert view.bin == 27
    marks = view.markers(session.battle)
    assert len(marks) == 9
    assert sum(m.start for m in marks) == 1001


def test_out_of_the_fight_is_crossed_out() -> None:
    """When a band is out, its marker turns grey and is crossed."""
    session = BattleSession("scenarios/snorri-vs-brynhild.yaml", seed=4006)
    session.run()
    svg = MapView(session.scenario).svg(session.battle)
    statuses = re.findall(r'class="marker side-\d" data-status="(\w+)"', svg)
    assert sorted(statuses) != ["fighting", "fighting"]
    assert "<path" in svg


def test_ships_and_fighters_are_labelled_with_their_names() -> None:
    """Every ship and every fighter on the boarding map carries its name."""
    session = BattleSession(BOARDING, 1)
    svg = MapView(session.scenario).svg(session.battle)
    names = set(re.findall(r'<text class="name"[^>]*>([^<]*)</text>', svg))
    assert {"Greenbriar", "Black Tern", "Captain Skarre", "Commander Ilse Verran"} <= names


def test_the_legend_names_every_side_and_the_wound_colours() -> None:
    """The legend gives each side's colour with its name and the rings' wound levels."""
    session = BattleSession(BOARDING, 1)
    svg = MapView(session.scenario).svg(session.battle)
    legend = svg[svg.index('<g class="legend">') :]
    for word in ("Frigate", "Pirates", "Undamaged", "Incapacitated", "Dead"):
        assert f">{word}</text>" in legend


def test_the_map_keeps_its_size_from_frame_to_frame() -> None:
    """As ships sail apart the drawing keeps its width and height in pixels."""
    session = BattleSession("scenarios/ship-duel.yaml", 1)
    view = MapView(session.scenario)
    sizes = set()
    for _ in range(5):
        svg = view.svg(session.battle)
        sizes.add(re.search(r'width="(\d+)" height="(\d+)"', svg).groups())
        session.step()
    assert len(sizes) == 1


def test_a_moving_ship_leaves_a_trail_that_a_step_back_shortens() -> None:
    """A ship's trail runs through the hexes it stood in each round, up to the round shown."""
    session = BattleSession("scenarios/ship-duel.yaml", 1)
    view = MapView(session.scenario)
    for _ in range(4):
        view.svg(session.battle)
        session.step()
    svg = view.svg(session.battle)
    trail = re.search(r'<polyline class="trail" data-name="Red Gannet" points="([^"]+)"', svg)
    assert trail is not None
    assert len(trail.group(1).split()) >= 3
    session.rewind()
    shorter = re.search(
        r'<polyline class="trail" data-name="Red Gannet" points="([^"]+)"', view.svg(session.battle)
    )
    assert shorter is not None
    assert len(shorter.group(1).split()) < len(trail.group(1).split())


def test_a_selected_ship_shows_its_firing_arcs() -> None:
    """Choosing a ship shades the hexes its weapons bear on; no choice, no shading."""
    session = BattleSession("scenarios/ship-duel.yaml", 1)
    view = MapView(session.scenario)
    assert '<g class="arc"' not in view.svg(session.battle)
    shaded = view.svg(session.battle, "Red Gannet")
    cells = re.search(r'<g class="arc"[^>]*>(.*?)</g>', shaded)
    assert cells is not None
    assert cells.group(1).count("<polygon") > 10


_MARKER = re.compile(
    r'<g class="marker side-\d" data-status="\w+"><title>([^:<]+):[^<]*</title>'
    r'<circle cx="([-\d.]+)" cy="([-\d.]+)"'
)


def _drawn(svg: str) -> dict[str, tuple[float, float]]:
    """Each marker's centre in pixels, by name."""
    return {name: (float(x), float(y)) for name, x, y in _MARKER.findall(svg)}


def test_open_map_fighters_stand_at_their_yards() -> None:
    """On an open map the dashboard draws each fighter where it stands in yards, one scale
    across and down: clicking Step twice in the goblin ambush, the pixels between any two
    fighters are their yards apart times one factor, a fighter who ran moved on the map
    by the yards the log gives, and every fighter is labelled with its name."""
    dash = BattleDashboard("scenarios/goblin-ambush.yaml", seed=1)
    battle = dash.session.battle
    start = _drawn(dash.map.value)
    dash.step_button.click()
    dash.step_button.click()
    svg = dash.map.value
    drawn = _drawn(svg)
    yards = {m.name: m.position for side in battle.sides for m in side.members if m.fighting}
    lone = ["Ser Aldric", "Aelwen", "Mirelle", "Grubnak"]
    assert set(lone) <= set(drawn)
    (ax, ay), (bx, by) = drawn["Aelwen"], drawn["Mirelle"]
    scale = math.dist((ax, ay), (bx, by)) / math.dist(yards["Aelwen"], yards["Mirelle"])
    for name in lone[2:]:
        (x, y), (u, v) = drawn[name], yards[name]
        assert x - ax == pytest.approx((u - yards["Aelwen"][0]) * scale, abs=0.2)
        assert y - ay == pytest.approx((v - yards["Aelwen"][1]) * scale, abs=0.2)
    ran = sum(dict(e.outcome)["yards"] for e in battle.log.of("move") if e.actor == "Grubnak")
    assert ran > 30
    moved = math.dist(start["Grubnak"], drawn["Grubnak"])
    assert moved == pytest.approx(ran * scale, rel=0.01)  # he runs straight at the knight
    names = set(re.findall(r'<text class="name"[^>]*>([^<]*)</text>', svg))
    assert set(lone) <= names
