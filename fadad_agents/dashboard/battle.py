"""BattleDashboard: watch one battle unfold round by round (plain ipywidgets).

A notebook cell only builds and shows it::

    from fadad_agents.dashboard import BattleDashboard
    BattleDashboard("scenarios/tavern-brawl.yaml", seed=7)

Controls: scenario picker, seed, Step / Run / Back / Reset, play speed, a targeting, a
stance and a morale policy per side (registered policies that need no parameters), and
sliders for group head counts and weapon magic. Views: the SVG hex map, a status table,
strength over time and the narrated log. All state lives in a
:class:`~fadad_agents.dashboard.session.BattleSession` (scenario, seed, overrides, command
log): Back, Reset and every change of settings rebuild the battle and replay the commands.
"""

from __future__ import annotations

import tempfile
import time
from html import escape
from pathlib import Path
from typing import Any

import ipywidgets as widgets

from fadad_agents.agents.core.base import Status
from fadad_agents.dashboard.charts import lines_svg
from fadad_agents.dashboard.hexview import SIDE_COLOURS, MapView
from fadad_agents.dashboard.session import (
    SCENARIO_DIR,
    BattleSession,
    Overrides,
    SessionError,
    choosable_policies,
    force_sliders,
    has_ships,
    scenario_files,
)
from fadad_agents.engine.core.log import clock
from fadad_agents.rules.core.wounds import Wound
from fadad_agents.schema.fae import FaeCharacter

__all__ = [
    "DECISIONS",
    "FAE_DECISIONS",
    "PLAY_SPEEDS",
    "SCENARIO_DEFAULT",
    "SHIP_DECISIONS",
    "BattleDashboard",
    "resolve_scenario",
    "status_rows",
]

DECISIONS = ("targeting", "stance", "morale")
"""Decisions offered per side in the policy dropdowns (plus ``SHIP_DECISIONS`` with ships)."""

FAE_DECISIONS = ("fae_action", "fae_defence", "fae_called_shot", "fae_tactics")
"""Fae Domains decisions offered per side when the scenario has Fae forces (issue 7)."""

SHIP_DECISIONS = ("maneuver",)
"""Ship decisions offered per side when the scenario has ships (``colours`` is left out:
scenarios write it as ``surrender``, which is also the crews' retreat decision)."""

SCENARIO_DEFAULT = "(scenario)"
"""Dropdown entry that keeps the scenario's own policy."""

NO_SHIP = "(none)"
"""Arcs-of entry that shades no ship's firing arcs."""

PLAY_SPEEDS: tuple[tuple[str, float], ...] = (
    ("instant", 0.0),
    ("fast (10 rounds/s)", 0.1),
    ("normal (3 rounds/s)", 0.33),
    ("slow (1 round/s)", 1.0),
)
"""Run's pause between redrawn rounds, in seconds (instant redraws only at the end)."""

LOG_LINES = 400
"""Narrated lines shown (the last ones); the full log stays in ``session.battle.log``."""


def resolve_scenario(scenario: str | Path, folder: Path = SCENARIO_DIR) -> Path:
    """A scenario path: an existing file, else ``folder/<name>.yaml`` (``"tavern-brawl"``).

    Raises:
        SessionError: neither exists (the message lists the scenarios in ``folder``).
    """
    path = Path(scenario)
    if path.is_file():
        return path.resolve()
    named = folder / f"{path.stem}.yaml"
    if named.is_file():
        return named.resolve()
    known = ", ".join(p.stem for p in scenario_files(folder))
    raise SessionError(f"no scenario {str(scenario)!r}; the scenarios folder has: {known}")


def _wound_label(agent: Any) -> str:
    """A ship's damage level (``Lightly damaged``), else the wound level."""
    level = getattr(agent, "level", None)
    if level is not None and hasattr(level, "label"):
        return str(level.label)
    return Wound(min(max(int(agent.wound), 0), 6)).label


def _ship_notes(agent: Any) -> str:
    """Hull left, speed and facing, fires and grapples of a ship (empty for others)."""
    if getattr(agent, "kind", "") != "ship":
        return ""
    notes = [f"hull {float(agent.hull_fraction):.0%}"]
    speed, facing = getattr(agent, "speed", None), getattr(agent, "facing", None)
    if speed is not None:
        notes.append(f"speed {speed}")
    if facing is not None:
        notes.append(f"facing {facing}")
    if getattr(agent, "fires", 0):
        notes.append(f"{agent.fires} fire{'s' if agent.fires > 1 else ''}")
    grappled = getattr(agent, "grappled", ())
    if grappled:
        notes.append("grappled with " + ", ".join(grappled))
    return ", ".join(notes)


def status_rows(battle: Any) -> list[dict[str, Any]]:
    """One row per band (a named fighter, an NPC group or a bulk crew or unit)."""
    rows: list[dict[str, Any]] = []
    for roster in battle.sides:
        bands: dict[str, list[Any]] = {}
        for agent in roster.members:
            key = getattr(getattr(agent, "band", None), "name", agent.name)
            bands.setdefault(key, []).append(agent)
        for name, members in bands.items():
            fighting = [m for m in members if m.status is Status.FIGHTING]
            worst = max(fighting, key=lambda m: int(m.wound), default=None)
            statuses: dict[str, int] = {}
            for m in members:
                statuses[str(m.status)] = statuses.get(str(m.status), 0) + 1
            rows.append(
                {
                    "side": roster.index,
                    "side_name": roster.name,
                    "name": name,
                    "kind": getattr(members[0], "kind", type(members[0]).__name__.lower()),
                    "heads": sum(int(m.headcount) for m in members),
                    "start": sum(int(m.initial_headcount) for m in members),
                    "wound": "-" if worst is None else _wound_label(worst),
                    "status": ", ".join(
                        f"{n} {s}" if len(members) > 1 else s for s, n in statuses.items()
                    ),
                    "notes": _ship_notes(members[0]) if len(members) == 1 else "",
                }
            )
    return rows


def _status_html(battle: Any) -> str:
    cells = []
    for r in status_rows(battle):
        colour = SIDE_COLOURS[r["side"] % len(SIDE_COLOURS)]
        cells.append(
            f'<tr><td style="color:{colour}">{escape(r["side_name"])}</td>'
            f"<td>{escape(r['name'])}</td><td>{escape(str(r['kind']))}</td>"
            f"<td>{r['heads']}/{r['start']}</td><td>{escape(r['wound'])}</td>"
            f"<td>{escape(r['status'])}</td><td>{escape(r['notes'])}</td></tr>"
        )
    head = "<tr><th>side</th><th>name</th><th>kind</th><th>heads</th><th>worst wound</th>"
    return (
        '<table class="fadad-status" style="border-collapse:collapse;font-size:12px">'
        f"{head}<th>status</th><th>ship</th></tr>{''.join(cells)}</table>"
    )


class BattleDashboard:
    """Widgets around a :class:`BattleSession`; ``widget`` is the box to display."""

    def __init__(
        self,
        scenario: str | Path | None = None,
        seed: int | None = None,
        *,
        scenario_dir: Path = SCENARIO_DIR,
    ) -> None:
        files = scenario_files(scenario_dir)
        options = [(p.stem, str(p)) for p in files]
        path = str(resolve_scenario(scenario, scenario_dir)) if scenario else str(files[0])
        if path not in [o[1] for o in options]:
            options.append((Path(path).stem, path))
        self.session: BattleSession | None = None
        self.map_view: MapView | None = None
        self._quiet = False

        self.scenario_picker = widgets.Dropdown(options=options, value=path, description="Scenario")
        self.open_path = widgets.Text(
            description="Open file",
            placeholder="path/to/my-battle.yaml (Enter)",
            continuous_update=False,
        )
        self.upload = widgets.FileUpload(accept=".yaml,.yml", multiple=False, description="Upload")
        self.selected_ship = widgets.Dropdown(description="Arcs of")
        self.seed = widgets.IntText(value=seed or 0, description="Seed")
        self.step_button = widgets.Button(description="Step", icon="step-forward")
        self.run_button = widgets.Button(description="Run", icon="play")
        self.back_button = widgets.Button(description="Back", icon="step-backward")
        self.reset_button = widgets.Button(description="Reset", icon="undo")
        self.speed = widgets.Dropdown(options=PLAY_SPEEDS, value=0.0, description="Play speed")
        self.round_label = widgets.HTML()
        self.error = widgets.HTML()
        self.policy_box = widgets.VBox()
        self.slider_box = widgets.VBox()
        self.policy_dropdowns: dict[tuple[int, str], widgets.Dropdown] = {}
        self.sliders: dict[tuple[int, int, str], widgets.IntSlider] = {}
        self.map = widgets.HTML(layout=widgets.Layout(min_width="420px"))
        self.status = widgets.HTML()
        self.strength = widgets.HTML()
        self.log = widgets.HTML(
            layout=widgets.Layout(max_height="260px", overflow="auto", border="1px solid #ddd")
        )

        self.step_button.on_click(lambda _: self.step())
        self.run_button.on_click(lambda _: self.run())
        self.back_button.on_click(lambda _: self.back())
        self.reset_button.on_click(lambda _: self.reset())
        self.scenario_picker.observe(self._on_scenario, names="value")
        self.open_path.observe(lambda _: self.open_file(self.open_path.value), names="value")
        self.upload.observe(lambda _: self._on_upload(), names="value")
        self.selected_ship.observe(lambda _: self.redraw(), names="value")
        self.seed.observe(self._on_settings, names="value")

        buttons = widgets.HBox(
            [self.step_button, self.run_button, self.back_button, self.reset_button]
        )
        controls = widgets.VBox(
            [
                self.scenario_picker,
                widgets.HBox([self.open_path, self.upload]),
                self.seed,
                buttons,
                self.selected_ship,
                self.speed,
                self.round_label,
                self.error,
                self.policy_box,
                self.slider_box,
            ],
            layout=widgets.Layout(min_width="340px"),
        )
        views = widgets.HBox([self.status, self.strength])
        self.widget = widgets.VBox([widgets.HBox([controls, self.map]), views, self.log])
        self._load(path, seed)

    # --- building -------------------------------------------------------------------------

    def _load(self, path: str, seed: int | None) -> None:
        """Start a session for ``path``; a scenario the engine cannot play shows why."""
        try:
            self.session = BattleSession(path, seed)
        except ValueError as exc:  # ScenarioError, PolicyError, UnsupportedForce
            self.session, self.map_view = None, None
            self.error.value = f'<span style="color:#c0392b">{escape(str(exc))}</span>'
            self._build_controls()
            self.redraw()
            return
        self.error.value = ""
        self.map_view = MapView(self.session.scenario)
        ships = [name for name, _ in self.map_view.ships()]
        self.selected_ship.options = [NO_SHIP, *ships]
        self.selected_ship.value = NO_SHIP
        self.selected_ship.layout.display = None if ships else "none"
        self._quiet = True
        self.seed.value = self.session.seed
        self._quiet = False
        self._build_controls()
        self.redraw()

    def _build_controls(self) -> None:
        self.policy_dropdowns.clear()
        self.sliders.clear()
        session = self.session
        if session is None:
            self.policy_box.children, self.slider_box.children = (), ()
            return
        rows = []
        ships = has_ships(session.base)
        kinds = (*DECISIONS, *SHIP_DECISIONS) if ships else DECISIONS
        if any(isinstance(f, FaeCharacter) for _, f in session.base.forces):
            kinds = (*kinds, *FAE_DECISIONS)
        for si, side in enumerate(session.base.sides):
            for kind in kinds:
                own = side.policies.get(kind)
                label = f"{SCENARIO_DEFAULT[:-1]}: {own.name})" if own else SCENARIO_DEFAULT
                dd = widgets.Dropdown(
                    options=[
                        (label, SCENARIO_DEFAULT),
                        *((n, n) for n in choosable_policies(kind, ships=ships)),
                    ],
                    value=SCENARIO_DEFAULT,
                    description=f"{side.name[:20]} {kind}",
                    style={"description_width": "190px"},
                    layout=widgets.Layout(width="380px"),
                )
                dd.observe(self._on_settings, names="value")
                self.policy_dropdowns[(si, kind)] = dd
                rows.append(dd)
        self.policy_box.children = tuple(rows)
        sliders = []
        for s in force_sliders(session.base):
            label = "heads" if s.what == "count" else "weapon +"
            sl = widgets.IntSlider(
                value=s.value,
                min=s.low,
                max=s.high,
                description=f"{s.name[:24]} {label}",
                style={"description_width": "190px"},
                layout=widgets.Layout(width="380px"),
                continuous_update=False,
            )
            sl.observe(self._on_settings, names="value")
            self.sliders[(s.side, s.force, s.what)] = sl
            sliders.append(sl)
        self.slider_box.children = tuple(sliders)

    def overrides(self) -> Overrides:
        """The overrides the policy dropdowns and sliders describe."""
        policies: dict[int, dict[str, str]] = {}
        for (si, kind), dd in self.policy_dropdowns.items():
            if dd.value != SCENARIO_DEFAULT:
                policies.setdefault(si, {})[kind] = dd.value
        counts = {
            (si, fi): sl.value for (si, fi, what), sl in self.sliders.items() if what == "count"
        }
        magic = {
            (si, fi): sl.value for (si, fi, what), sl in self.sliders.items() if what == "magic"
        }
        return Overrides(policies, counts, magic)

    # --- events ---------------------------------------------------------------------------

    def _on_scenario(self, change: dict[str, Any]) -> None:
        self._load(str(change["new"]), None)

    def _on_settings(self, _change: dict[str, Any]) -> None:
        """A new seed, policy or slider value: replay the command log under it (what-if)."""
        if self._quiet or self.session is None:
            return
        try:
            self.session.configure(seed=int(self.seed.value), overrides=self.overrides())
        except ValueError as exc:
            self.error.value = f'<span style="color:#c0392b">{escape(str(exc))}</span>'
            return
        self.error.value = ""
        self.redraw()

    # --- commands -------------------------------------------------------------------------

    def step(self) -> None:
        """Play one round and redraw."""
        if self.session is not None:
            self.session.step()
        self.redraw()

    def run(self) -> None:
        """Play to the end, redrawing each round at the chosen play speed."""
        session = self.session
        if session is None:
            return
        delay = float(self.speed.value)
        if delay <= 0:
            session.run()
        else:
            while session.step():
                self.redraw()
                time.sleep(delay)
        self.redraw()

    def back(self) -> None:
        """Rewind one round (replays from the start)."""
        if self.session is not None:
            self.session.rewind(1)
        self.redraw()

    def reset(self) -> None:
        """Round 0 of the same scenario, seed and settings."""
        if self.session is not None:
            self.session.reset()
        self.redraw()

    # --- views ----------------------------------------------------------------------------

    def redraw(self) -> None:
        """Refresh every view from the session's battle."""
        session = self.session
        playable = session is not None and not session.finished
        self.step_button.disabled = self.run_button.disabled = not playable
        self.back_button.disabled = self.reset_button.disabled = session is None
        if session is None or self.map_view is None:
            self.round_label.value = "<b>not playable</b>"
            self.map.value = self.status.value = self.strength.value = self.log.value = ""
            return
        battle = session.battle
        ended = ""
        if battle.finished:
            # The "end" event, not the last one: ship battles log repair bills after it.
            end = next((e for e in reversed(battle.log.events) if e.action == "end"), None)
            ended = f" - {escape(str(end.result))}" if end is not None else " - ended"
        self.round_label.value = (
            f'<b class="fadad-round">Round {battle.round}</b> ({clock(int(battle.env.now))}){ended}'
        )
        chosen = self.selected_ship.value
        self.map.value = self.map_view.svg(battle, None if chosen == NO_SHIP else chosen)
        self.status.value = _status_html(battle)
        names = [s.name for s in battle.sides]
        series = [[row[k] for row in session.strength] for k in range(len(names))]
        chart = lines_svg(series, names, title="Head count still fighting (fighters and crews)")
        if session.has_ships:
            hulls = [[row[k] for row in session.hull] for k in range(len(names))]
            chart += lines_svg(hulls, names, title="Hull left (ships, summed fraction)")
        self.strength.value = chart
        lines = session.narration(LOG_LINES)
        self.log.value = (
            f'<pre class="fadad-log" style="margin:0;font-size:11px">'
            f"{escape(chr(10).join(lines))}</pre>"
        )

    # --- opening files --------------------------------------------------------------------

    def open_file(self, path: str | Path) -> None:
        """Open any scenario file (a path typed in the box): it joins the picker and plays;
        a file that does not exist is shown as an error."""
        text = str(path).strip()
        if not text:
            return
        found = Path(text).expanduser()
        if not found.is_file():
            self.error.value = f'<span style="color:#c0392b">{escape(text)}: no such file</span>'
            return
        value = str(found.resolve())
        if value not in [v for _, v in self.scenario_picker.options]:
            self.scenario_picker.options = [*self.scenario_picker.options, (found.stem, value)]
        self.scenario_picker.value = value

    def _on_upload(self) -> None:
        """An uploaded file is saved to a private folder and opened like a path."""
        for item in self.upload.value:
            folder = Path(tempfile.mkdtemp(prefix="fadad-upload-"))
            target = folder / Path(str(item["name"])).name
            target.write_bytes(bytes(item["content"]))
            self.open_file(target)

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.widget._repr_mimebundle_(**kwargs)
