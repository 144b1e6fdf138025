"""OddsDashboard: Monte Carlo odds of a scenario, two policies side by side (ipywidgets).

A notebook cell only builds and shows it::

    from fadad_agents.dashboard import OddsDashboard
    OddsDashboard("tavern-brawl", runs=200)

Compare two variants of the scenario: two policies of one side for one decision (pick
the side, decision, policy A and B), or any field of the file with two values (``Vary:
a field``: a grid path such as ``sides[0].forces[0].weapon`` or ``sides[1].forces[2].count``
and value A and B, each read as YAML). Run calls :func:`fadad_agents.analysis.sweep` with
a one-path grid, so both variants play the same replicate seeds (common random numbers).
The progress bar follows the sweep's batches; each variant's column shows the win
probabilities with their 95% Wilson intervals and histograms of the battle's length and of
each side's losses; below them, the paired difference B - A with its interval and whether
it is distinguishable from noise. It starts with :data:`RUNS_FOR_TWO_POINTS` runs: a 95%
interval of about +/-2 points around a probability near one half.
"""

from __future__ import annotations

from html import escape
from pathlib import Path
from typing import Any

import ipywidgets as widgets
import yaml

from fadad_agents.analysis import (
    NO_WINNER,
    SweepResult,
    difference_lines,
    summary_table,
    sweep,
)
from fadad_agents.dashboard.battle import resolve_scenario
from fadad_agents.dashboard.charts import histogram_svg, interval_svg
from fadad_agents.dashboard.hexview import SIDE_COLOURS
from fadad_agents.dashboard.session import (
    PERSONAL_DECISIONS,
    SCENARIO_DIR,
    choosable_policies,
    decisions,
    has_ships,
    scenario_files,
)
from fadad_agents.engine import load
from fadad_agents.policies import INDIVIDUAL_DEFAULTS
from fadad_agents.policies.ships.registry import SHIP_DEFAULTS

__all__ = ["NO_POLICY", "RUNS_FOR_TWO_POINTS", "OddsDashboard", "policy_grid"]

RUNS_FOR_TWO_POINTS = 2400
"""Runs whose 95% interval is about +/-2 points wide at p = 1/2 (1.96 x 0.5 / sqrt(2400))."""

NO_POLICY = "(scenario's own)"
"""Policy B entry meaning: no comparison, sweep the scenario as written."""


def policy_grid(side: int, decision: str, names: list[str]) -> dict[str, list[str]]:
    """The sweep grid that plays ``side``'s ``decision`` under each policy in ``names``."""
    return {f"sides[{side}].policies.{decision}": list(names)}


class OddsDashboard:
    """Widgets around :func:`fadad_agents.analysis.sweep`; ``widget`` is the box to show."""

    def __init__(
        self,
        scenario: str | Path | None = None,
        *,
        runs: int = RUNS_FOR_TWO_POINTS,
        seed: int = 1,
        scenario_dir: Path = SCENARIO_DIR,
    ) -> None:
        files = scenario_files(scenario_dir)
        options = [(p.stem, str(p)) for p in files]
        path = str(resolve_scenario(scenario, scenario_dir)) if scenario else str(files[0])
        if path not in [o[1] for o in options]:
            options.append((Path(path).stem, path))
        self.result: SweepResult | None = None
        self._scenario: Any = None
        self._quiet = False
        self.scenario_picker = widgets.Dropdown(options=options, value=path, description="Scenario")
        self.runs = widgets.BoundedIntText(value=runs, min=1, max=1_000_000, description="Runs")
        self.seed = widgets.IntText(value=seed, description="Seed")
        self.backend = widgets.Dropdown(
            options=["serial", "processes"], value="serial", description="Backend"
        )
        self.side = widgets.Dropdown(description="Side")
        self.decision = widgets.Dropdown(
            options=list(PERSONAL_DECISIONS), value="targeting", description="Decision"
        )
        self.policy_a = widgets.Dropdown(description="Policy A")
        self.policy_b = widgets.Dropdown(description="Policy B")
        self.vary = widgets.ToggleButtons(
            options=[("a policy", "policy"), ("a field", "field")], value="policy"
        )
        self.path = widgets.Text(
            description="Field", placeholder="sides[0].forces[0].weapon", continuous_update=False
        )
        self.value_a = widgets.Text(description="Value A", placeholder="weapons/broadsword")
        self.value_b = widgets.Text(description="Value B", placeholder="weapons/axe")
        self.difference = widgets.HTML()
        self.run_button = widgets.Button(
            description="Run sweep", icon="play", button_style="primary"
        )
        self.progress = widgets.IntProgress(value=0, min=0, max=1, description="0 battles")
        self.message = widgets.HTML()
        self.columns = widgets.HBox()
        self.summary = widgets.HTML()
        self.exact = widgets.Checkbox(value=False, description="Exact odds of a duel")
        self.exact_odds = widgets.HTML()

        self.scenario_picker.observe(lambda _: self._fill_sides(), names="value")
        self.decision.observe(lambda _: self._fill_policies(), names="value")
        self.side.observe(lambda _: self._fill_policies(), names="value")
        self.run_button.on_click(lambda _: self.run())
        self.vary.observe(lambda _: self._show_vary(), names="value")
        self._policy_box = widgets.VBox([self.side, self.decision, self.policy_a, self.policy_b])
        self._field_box = widgets.VBox([self.path, self.value_a, self.value_b])
        controls = widgets.VBox(
            [
                self.scenario_picker,
                self.runs,
                self.seed,
                self.backend,
                widgets.HBox([widgets.Label("Vary"), self.vary]),
                self._policy_box,
                self._field_box,
                self.exact,
                self.run_button,
                self.progress,
                self.message,
            ]
        )
        self.widget = widgets.VBox(
            [controls, self.columns, self.exact_odds, self.difference, self.summary]
        )
        self._show_vary()
        self._fill_sides()

    # --- controls ---------------------------------------------------------------------------

    def _fill_sides(self) -> None:
        try:
            scenario = load(self.scenario_picker.value)
        except ValueError as exc:
            self.side.options, self.message.value = [], _error(exc)
            return
        self._scenario = scenario
        self._quiet = True  # refill side and decision lists, then the policies once
        self.side.options = [(s.name, i) for i, s in enumerate(scenario.sides)]
        self.side.value = 0
        kinds = decisions(scenario)
        keep = self.decision.value if self.decision.value in kinds else "targeting"
        self.decision.options = kinds
        self.decision.value = keep
        self._quiet = False
        self._fill_policies()

    def _fill_policies(self) -> None:
        if self._quiet or self._scenario is None:
            return
        kind = self.decision.value
        ships = has_ships(self._scenario)
        names = choosable_policies(kind, ships=ships)
        own = self._scenario.sides[int(self.side.value or 0)].policies.get(kind)
        defaults = {**INDIVIDUAL_DEFAULTS, **SHIP_DEFAULTS} if ships else INDIVIDUAL_DEFAULTS
        default = defaults.get(kind, "")
        first = own.name if own is not None and own.name in names else default
        if first not in names:
            first = names[0] if names else NO_POLICY
        self.policy_a.options = names or [NO_POLICY]
        self.policy_b.options = [NO_POLICY, *names]
        self.policy_a.value = first
        self.policy_b.value = next((n for n in names if n != first), NO_POLICY)

    def _show_vary(self) -> None:
        field = self.vary.value == "field"
        self._policy_box.layout.display = "none" if field else None
        self._field_box.layout.display = None if field else "none"

    def grid(self) -> dict[str, list[Any]] | None:
        """The grid Run sweeps: policy A and B of the chosen side, field values A and B, or
        none.

        Raises:
            ValueError: a field value that is not YAML.
        """
        if self.vary.value == "field":
            values = [_yaml_value(self.value_a.value), _yaml_value(self.value_b.value)]
            return {self.path.value.strip(): values}
        if NO_POLICY in (self.policy_a.value, self.policy_b.value):
            return None
        names = [self.policy_a.value, self.policy_b.value]
        return policy_grid(int(self.side.value), self.decision.value, list(dict.fromkeys(names)))

    # --- running ----------------------------------------------------------------------------

    def _on_progress(self, done: int, total: int) -> None:
        self.progress.max = max(total, 1)
        self.progress.value = done
        self.progress.description = f"{done} battles"

    def run(self) -> SweepResult | None:
        """Run the sweep and draw its results; an error is shown, not raised."""
        self.progress.value = 0
        self.message.value = "running ..."
        try:
            grid = self.grid()
            result = sweep(
                self.scenario_picker.value,
                int(self.runs.value),
                int(self.seed.value),
                backend=self.backend.value,
                grid=grid,
                progress=False,
                on_progress=self._on_progress,
            )
        except ValueError as exc:
            self.message.value = _error(exc)
            return None
        self.result = result
        played = f"{len(result.frame)} battles played"
        self.message.value = played if result.note is None else f"{played} ({result.note})"
        self._draw(result)
        return result

    def _draw(self, result: SweepResult) -> None:
        probs = result.win_probabilities()
        frame = result.frame
        columns = []
        for variant in result.variants:
            mine = probs[probs["variant"] == variant.index]
            part = frame[frame["variant"] == variant.index]
            rows = [
                (str(r["side"]), float(r["p"]), float(r["low"]), float(r["high"]))
                for r in mine.to_dict("records")
            ]
            charts = [
                f"<h4>{escape(_policy_label(variant.label))}</h4>",
                interval_svg(rows, title="Win probability (95% Wilson interval)"),
                histogram_svg(list(part["rounds"]), title="Battle length", xlabel="rounds"),
            ]
            for k, side in enumerate(result.sides):
                charts.append(
                    histogram_svg(
                        list(part[f"{side}.casualties"]),
                        title=f"{side} losses",
                        xlabel="casualties",
                        colour=SIDE_COLOURS[k % len(SIDE_COLOURS)],
                    )
                )
            columns.append(widgets.HTML("".join(charts), layout=widgets.Layout(width="440px")))
        self.columns.children = tuple(columns)
        lines = difference_lines(frame)
        self.difference.value = (
            "<h4>B - A on the same battles</h4><pre>" + escape("\n".join(lines)) + "</pre>"
            if lines
            else ""
        )
        self.summary.value = f"<pre>{escape(summary_table(frame))}</pre>"
        self.exact_odds.value = self._exact_odds(result, probs) if self.exact.value else ""

    @staticmethod
    def _exact_odds(result: SweepResult, probs: Any) -> str:
        """Each variant's exact duel odds beside its Monte Carlo estimate, or the one line
        saying why the scenario is not a duel the solver plays."""
        from fadad_agents.analysis.exact import OutOfReach, beside_monte_carlo, duel_odds

        parts = []
        for variant in result.variants:
            try:
                text = beside_monte_carlo(
                    duel_odds(variant.scenario), probs[probs["variant"] == variant.index]
                )
            except OutOfReach as exc:
                text = f"exact odds: not solved: {exc}"
            parts.append(
                f"<h4>{escape(_policy_label(variant.label))}</h4><pre>{escape(text)}</pre>"
            )
        return "<h4>Exact odds beside Monte Carlo</h4>" + "".join(parts)

    def win_table(self) -> list[tuple[str, str, float, float, float]]:
        """(policy label, side, p, low, high) of the last sweep, without the no-winner rows."""
        if self.result is None:
            return []
        probs = self.result.win_probabilities()
        return [
            (
                _policy_label(str(r["label"])),
                str(r["side"]),
                float(r["p"]),
                float(r["low"]),
                float(r["high"]),
            )
            for r in probs.to_dict("records")
            if r["side"] != NO_WINNER
        ]

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.widget._repr_mimebundle_(**kwargs)


def _policy_label(label: str) -> str:
    """``sides[1].policies.targeting=weakest`` -> ``targeting = weakest``."""
    if label == "base":
        return "as written"
    path, _, value = label.partition("=")
    return f"{path.rsplit('.', 1)[-1]} = {value}"


def _yaml_value(text: str) -> Any:
    """A value typed in a box, read as YAML (``12`` a number, ``weapons/axe`` text)."""
    try:
        return yaml.safe_load(text) if text.strip() else ""
    except yaml.YAMLError as exc:
        raise ValueError(f"{text!r} is not a value (YAML: {exc.__class__.__name__})") from None


def _error(exc: Exception) -> str:
    return f'<span style="color:#c0392b">{escape(str(exc))}</span>'
