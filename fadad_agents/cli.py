"""The ``fadad`` command line."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Annotated

import typer

app = typer.Typer(
    name="fadad",
    help="Agent-based battle simulator for FADAD, FUDGE, Spelljammer and Fae Domains combat.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


@app.command()
def version() -> None:
    """Print the package version."""
    from fadad_agents import __version__

    typer.echo(__version__)


@app.command()
def validate(
    paths: Annotated[list[Path], typer.Argument(help="YAML files, or folders of them.")],
) -> None:
    """Check scenario and catalogue files (folders: every YAML file inside); print
    `PATH: ok` or one line per problem; exit 2 if any file has a problem."""
    from fadad_agents.schema.loader import expand_paths, validate_path

    failed = False
    for path in expand_paths(paths):
        problems = validate_path(path) or _policy_problems(path)
        failed = failed or bool(problems)
        for line in problems or [f"{path}: ok"]:
            typer.echo(line, err=bool(problems))
    if failed:
        raise typer.Exit(2)


def _policy_problems(path: Path) -> list[str]:
    """Policy names and parameters of a valid scenario file, checked against the registry.

    The schema layer cannot see the policy registry (it sits above it), so the interface
    builds the battle once: an unknown policy or a bad parameter is a one-line problem.
    """
    from fadad_agents.engine import build_battle, load
    from fadad_agents.policies import PolicyError
    from fadad_agents.schema.loader import KIND_CLASSES

    if path.parent.name in KIND_CLASSES and path.parent.parent.name in ("models", "_models"):
        return []  # a catalogue entry, not a scenario
    try:
        build_battle(load(path), collect=False)
    except PolicyError as exc:
        field = re.sub(r"\.(\d+)", r"[\1]", exc.field)  # sides.0.forces -> sides[0].forces
        return [f"{path}: {field}: {exc.reason}"]
    return []


@app.command()
def schema(
    out: Annotated[Path | None, typer.Option(help="Write to this file, not stdout.")] = None,
) -> None:
    """Print the JSON Schema of a scenario file (for editor completion)."""
    from fadad_agents.schema.loader import scenario_json_schema

    text = scenario_json_schema()
    if out is None:
        typer.echo(text)
    else:
        out.write_text(text + "\n", encoding="utf-8")


@app.command()
def catalog(
    kind: Annotated[str | None, typer.Argument(help="weapons, armour, ships ...")] = None,
) -> None:
    """List the catalogue in models/ (all entries or one kind)."""
    from fadad_agents.schema.catalog import CatalogError, default_catalog

    try:
        lines = default_catalog().listing(kind)
    except CatalogError as exc:
        typer.echo(f"catalog: {exc}", err=True)
        raise typer.Exit(2) from None
    for line in lines:
        typer.echo(line)


@app.command()
def run(
    scenario: Annotated[Path, typer.Argument(help="Scenario YAML file.")],
    seed: Annotated[int | None, typer.Option(help="Battle seed (default: the file's).")] = None,
    json_out: Annotated[
        bool, typer.Option("--json", help="Print the result as JSON instead of prose.")
    ] = False,
    log: Annotated[Path | None, typer.Option(help="Write the battle log as JSON lines.")] = None,
    quiet: Annotated[bool, typer.Option(help="Print only the one-line summary.")] = False,
) -> None:
    """Play a scenario to its end and narrate it (or print the result as JSON)."""
    import json

    from fadad_agents.engine import run as run_battle

    try:
        result = run_battle(scenario, seed=seed)
        if log is not None:
            result.log.write_jsonl(log)
    except (ValueError, OSError) as exc:
        text = " ".join(str(exc).split())
        typer.echo(f"fadad run: {text}", err=True)
        raise typer.Exit(2) from None
    if json_out:
        typer.echo(json.dumps(result.as_dict(), indent=2))
        return
    if not quiet:
        for line in result.log.narrate():
            typer.echo(line)
    typer.echo(result.summary())


def _fail(command: str, exc: BaseException) -> typer.Exit:
    """Print ``fadad COMMAND: message`` on one line to stderr; exit status 2."""
    text = " ".join(str(exc).split())
    typer.echo(f"fadad {command}: {text}", err=True)
    return typer.Exit(2)


@app.command(name="sweep")
def sweep_command(
    scenario: Annotated[Path, typer.Argument(help="Scenario YAML file.")],
    runs: Annotated[int, typer.Option("--runs", "-n", help="Replicates (per grid variant).")],
    seed: Annotated[int, typer.Option(help="Root seed of the replicate seeds.")] = 0,
    out: Annotated[
        Path | None,
        typer.Option(help="Results directory (results.parquet); resumed if it exists."),
    ] = None,
    workers: Annotated[int | None, typer.Option(help="Worker processes.")] = None,
    backend: Annotated[
        str | None,
        typer.Option(
            help="serial, processes or dask (default: dask with --scheduler, "
            "processes with --workers > 1, else serial)."
        ),
    ] = None,
    scheduler: Annotated[
        str | None, typer.Option(help="Dask scheduler address, e.g. tcp://host:8786.")
    ] = None,
    target_width: Annotated[
        float | None,
        typer.Option(help="Stop once every 95% win-probability interval is narrower."),
    ] = None,
    batch_size: Annotated[
        int | None, typer.Option(help="Replicates per batch and part file.")
    ] = None,
    grid: Annotated[
        list[str] | None,
        typer.Option(
            help="Vary a field: PATH=V1,V2 (repeatable; e.g. rules.fadad.initiative=rolled,static)."
        ),
    ] = None,
    quiet: Annotated[bool, typer.Option(help="No progress bar.")] = False,
) -> None:
    """Play many replicates of a scenario and print win probabilities and quantiles."""
    from fadad_agents.analysis import sweep
    from fadad_agents.analysis.grid import parse_grid_option

    if backend is None:
        backend = "dask" if scheduler else "processes" if (workers or 1) > 1 else "serial"
    try:
        axes = dict(parse_grid_option(g) for g in grid or [])
        result = sweep(
            scenario,
            runs,
            seed,
            backend=backend,
            workers=workers,
            scheduler=scheduler,
            grid=axes or None,
            out=out,
            target_width=target_width,
            batch_size=batch_size,
            progress=not quiet,
        )
    except (ValueError, OSError) as exc:
        raise _fail("sweep", exc) from None
    except KeyboardInterrupt:
        again = " (run the same command again to resume)" if out is not None else ""
        typer.echo(f"fadad sweep: interrupted{again}", err=True)
        raise typer.Exit(130) from None
    typer.echo(result.summary(), nl=False)
    if result.stopped_early:
        typer.echo(f"stopped early at target width {target_width}: {result.played}")
    if result.path is not None:
        typer.echo(f"results: {result.path}")


@app.command()
def report(
    results: Annotated[Path, typer.Argument(help="Sweep results (results.parquet).")],
    out: Annotated[
        Path | None, typer.Option(help="Folder for the PNGs (default: RESULTS-report).")
    ] = None,
    confidence: Annotated[float, typer.Option(help="Interval confidence level.")] = 0.95,
) -> None:
    """Print the summary table of sweep results and write PNG plots."""
    from fadad_agents.analysis import read_results, summary_table
    from fadad_agents.analysis.plots import write_report

    folder = out or results.with_name(f"{results.stem}-report")
    try:
        frame = read_results(results)
        typer.echo(summary_table(frame, confidence), nl=False)
        for path in write_report(frame, folder):
            typer.echo(f"wrote {path}")
    except (ValueError, OSError) as exc:
        raise _fail("report", exc) from None


def main() -> None:
    """Console-script entry point."""
    app()
