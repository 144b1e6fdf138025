"""The ``fadad`` command line.

Every problem with a file is one line, ``file:line field.path: what is wrong (what is
allowed)``, worded alike by ``validate``, ``run`` and ``sweep``, with exit status 2;
other bad input is one line ``fadad COMMAND: what`` with exit status 2. Nothing a user
gives ends in a traceback: :func:`main` turns an unexpected error into one line and exit
status 70 (``FADAD_TRACEBACK=1`` shows it). What a file names is printed with control
characters escaped (:mod:`fadad_agents.schema.text`).
"""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:
    from fadad_agents.schema.limits import Limits

from fadad_agents.cli import campaign, gm, table
from fadad_agents.cli.catalogs import CatalogOption, use_catalog
from fadad_agents.cli.output import bad_file as _bad_file
from fadad_agents.cli.output import fail as _fail
from fadad_agents.cli.output import shown as _shown

app = typer.Typer(
    name="fadad",
    help="Agent-based battle simulator for FADAD, FUDGE, Spelljammer and Fae Domains combat.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

LimitOption = Annotated[
    list[str] | None,
    typer.Option(
        "--limit",
        help="Raise a size limit knowingly: NAME=N (repeatable; agents, rounds, seconds, "
        "work, file_bytes).",
    ),
]


def _limits(settings: list[str] | None, command: str) -> Limits:
    from fadad_agents.schema.limits import Limits

    try:
        return Limits.parse(settings or [])
    except ValueError as exc:
        raise _fail(command, exc) from None


@app.command()
def version() -> None:
    """Print the package version."""
    from fadad_agents import __version__

    typer.echo(__version__)


@app.command(name="compile")
def compile_(
    quiet: Annotated[bool, typer.Option(help="Print nothing but errors.")] = False,
) -> None:
    """Compile the fast paths now (numba; a minute or two once an install, then cached),
    so that a first big fight or sweep does not wait for it."""
    from fadad_agents.engine.compiling import compile_fast_paths

    def say(path: str) -> None:
        typer.echo(f"compiling: {path}", err=True)

    seconds = compile_fast_paths(None if quiet else say)
    if not quiet:
        typer.echo(f"fast paths compiled and cached ({seconds:.0f} s)")


@app.command()
def validate(
    paths: Annotated[list[Path], typer.Argument(help="YAML files, or folders of them.")],
    limit: LimitOption = None,
    catalog: CatalogOption = None,
) -> None:
    """Check scenario and catalogue files (folders: every YAML file inside); print
    `PATH: ok` or one line per problem; exit 2 if any file has a problem. A scenario that
    uses the GM's catalogue says which built-in entries it overrides."""
    from fadad_agents.schema.loader import expand_paths

    use_catalog(catalog)
    limits = _limits(limit, "validate")
    empty = [p for p in paths if p.is_dir() and not expand_paths([p])]
    if empty:
        raise _fail("validate", ValueError(f"{empty[0]}: holds no .yaml or .yml files"))
    failed = False
    for path in expand_paths(paths):
        problems = _problems(path, limits)
        failed = failed or bool(problems)
        for line in problems or [f"{_shown(str(path))}: ok{_overrides(path)}"]:
            typer.echo(line, err=bool(problems))
    if failed:
        raise typer.Exit(2)


def _overrides(path: Path) -> str:
    """`` (the GM's catalogue overrides ...)`` for a scenario whose GM folders replace
    built-in entries, else nothing."""
    from fadad_agents.schema.catalog import catalog_for
    from fadad_agents.schema.loader import is_catalogue_entry

    over = [] if is_catalogue_entry(path) else catalog_for(path).overrides
    return f" (the GM's catalogue overrides {', '.join(over)})" if over else ""


def _problems(path: Path, limits: Limits) -> list[str]:
    """A file's problems: the schema's, then, for a valid scenario, its policies and
    forces checked against the engines (:func:`~fadad_agents.engine.check_playable`)."""
    from fadad_agents.engine import check_playable
    from fadad_agents.schema.loader import (
        ScenarioError,
        is_catalogue_entry,
        load_scenario,
        validate_path,
    )

    if is_catalogue_entry(path):
        return validate_path(path)
    try:
        check_playable(load_scenario(path, limits=limits))
    except ScenarioError as exc:
        return exc.problems
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
        return
    try:
        out.write_text(text + "\n", encoding="utf-8")
    except OSError as exc:
        raise _fail("schema", ValueError(f"cannot write {out} ({exc.strerror or exc})")) from None


@app.command()
def catalog(
    kind: Annotated[
        str | None, typer.Argument(help="weapons, armour, ships ..., or show KIND/NAME.")
    ] = None,
    entry: Annotated[
        str | None, typer.Argument(help="With show: the entry, e.g. ships/war-galleon.")
    ] = None,
    catalog: CatalogOption = None,
) -> None:
    """List the catalogue (all entries or one kind), or show one entry's stats.

    `fadad catalog show weapons/broadsword` (or `fadad catalog weapons/broadsword`). The
    GM's entries (--catalog, FADAD_CATALOG) are marked with their file."""
    from fadad_agents.schema.catalog import CatalogError, catalog_for

    use_catalog(catalog)
    if kind == "show" or (kind is not None and "/" in kind):
        gm.catalog_show(entry if kind == "show" else kind)
        return
    try:
        lines = catalog_for().listing(kind)
    except CatalogError as exc:
        raise _fail("catalog", exc) from None
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
    quiet: Annotated[
        bool,
        typer.Option(help="Print only the one-line summary (no progress on a long battle)."),
    ] = False,
    state_out: Annotated[
        Path | None,
        typer.Option(help="Write everyone's end state (campaign JSON: fadad rest, aftermath)."),
    ] = None,
    limit: LimitOption = None,
    catalog: CatalogOption = None,
) -> None:
    """Play a scenario to its end and narrate it (or print the result as JSON)."""
    import json

    from fadad_agents.engine import run as run_battle
    from fadad_agents.schema.loader import ScenarioError

    use_catalog(catalog)
    limits = _limits(limit, "run")
    try:
        if state_out is None:
            # the header and tally narrated, the log written or counted: kept as it plays
            kept = not quiet or json_out or log is not None
            result = run_battle(
                scenario, seed=seed, collect=kept, limits=limits, progress=not quiet
            )
        else:
            from fadad_agents import campaign

            result, state = campaign.play_for_state(scenario, seed, limits=limits)
            campaign.write_state(state, state_out)
        if log is not None:
            result.log.write_jsonl(log)
    except ScenarioError as exc:
        raise _bad_file(exc.problems) from None
    except (ValueError, OSError) as exc:
        raise _fail("run", exc) from None
    if json_out:
        typer.echo(json.dumps(result.as_dict(), indent=2))
        return
    if not quiet:
        for line in [*result.header, "", *result.log.lines(), "", *result.tally]:
            typer.echo(_shown(line))
    typer.echo(_shown(result.summary()))


class _Terminated(BaseException):
    """SIGTERM arrived: unwind as Ctrl-C does (parts kept, lock released, workers ended)."""


def _terminated(signum: int, frame: FrameType | None) -> None:
    raise _Terminated


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
    limit: LimitOption = None,
    catalog: CatalogOption = None,
) -> None:
    """Play many replicates of a scenario and print win probabilities and quantiles."""
    from fadad_agents.analysis import shutdown_workers, sweep
    from fadad_agents.analysis.grid import parse_grid_option
    from fadad_agents.schema.loader import ScenarioError

    use_catalog(catalog)
    limits = _limits(limit, "sweep")
    if backend is None:
        backend = "dask" if scheduler else "processes" if (workers or 1) > 1 else "serial"
    previous = signal.signal(signal.SIGTERM, _terminated)
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
            limits=limits,
        )
    except ScenarioError as exc:
        raise _bad_file(exc.problems) from None
    except (ValueError, OSError) as exc:
        raise _fail("sweep", exc) from None
    except (KeyboardInterrupt, _Terminated) as exc:
        shutdown_workers(now=True)
        again = " (run the same command again to resume)" if out is not None else ""
        typer.echo(f"fadad sweep: interrupted{again}", err=True)
        raise typer.Exit(143 if isinstance(exc, _Terminated) else 130) from None
    finally:
        signal.signal(signal.SIGTERM, previous)
    typer.echo(_shown(result.summary()), nl=False)
    if result.stopped_early:
        typer.echo(f"stopped early at target width {target_width}: {result.played}")
    if result.path is not None:
        typer.echo(f"results: {_shown(str(result.path))}")


@app.command()
def report(
    results: Annotated[Path, typer.Argument(help="Sweep results (results.parquet).")],
    out: Annotated[
        Path | None, typer.Option(help="Folder for the PNGs (default: RESULTS-report).")
    ] = None,
    confidence: Annotated[float, typer.Option(help="Interval confidence level.")] = 0.95,
) -> None:
    """Print the summary table of sweep results and write PNG plots."""
    from fadad_agents.analysis import difference_lines, read_results, summary_table
    from fadad_agents.analysis.plots import write_report

    folder = out or results.with_name(f"{results.stem}-report")
    try:
        frame = read_results(results)
        typer.echo(_shown(summary_table(frame, confidence)), nl=False)
        for line in difference_lines(frame, confidence):
            typer.echo(_shown(line))
        for path in write_report(frame, folder):
            typer.echo(f"wrote {_shown(str(path))}")
    except (ValueError, OSError) as exc:
        raise _fail("report", exc) from None


gm.register(app)
table.register(app)
campaign.register(app)


def main() -> None:
    """Console-script entry point: a bug shows as one line and exit status 70, not a
    traceback (``FADAD_TRACEBACK=1`` shows it)."""
    try:
        app()
    except Exception as exc:
        if os.environ.get("FADAD_TRACEBACK"):
            raise
        text = " ".join(str(exc).split())[:300]
        print(
            f"fadad: internal error ({type(exc).__name__}: {text}); this is a bug: please "
            "report it with the command and file (FADAD_TRACEBACK=1 shows the traceback)",
            file=sys.stderr,
        )
        raise SystemExit(70) from None
