"""The ``fadad`` command line."""

from __future__ import annotations

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
        problems = validate_path(path)
        failed = failed or bool(problems)
        for line in problems or [f"{path}: ok"]:
            typer.echo(line, err=bool(problems))
    if failed:
        raise typer.Exit(2)


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


def main() -> None:
    """Console-script entry point."""
    app()
