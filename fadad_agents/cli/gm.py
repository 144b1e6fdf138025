"""The game master's commands: the reference (``options``, ``policies``, ``fields``,
``catalog show``) and ``compare``. Thin wrappers over :mod:`fadad_agents.reference` and
:func:`fadad_agents.analysis.compare`; :func:`register` adds them to the ``fadad`` app."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from fadad_agents.cli.catalogs import CatalogOption, use_catalog
from fadad_agents.cli.output import bad_file, fail, shown

__all__ = ["catalog_show", "register"]


def register(app: typer.Typer) -> None:
    """Add the commands of this module to ``app``."""
    app.command(name="compare")(compare)
    app.command()(odds)
    app.command()(options)
    app.command()(policies)
    app.command()(fields)


def catalog_show(ref: str | None) -> None:
    """Print one catalogue entry's card (``fadad catalog show KIND/NAME``)."""
    from fadad_agents.reference import NotInReference, catalog_card

    if not ref:
        typer.echo("fadad catalog show: name an entry, e.g. weapons/broadsword", err=True)
        raise typer.Exit(2)
    try:
        typer.echo(catalog_card(ref))
    except NotInReference as exc:
        raise fail("catalog show", exc) from None


def compare(
    first: Annotated[Path, typer.Argument(help="Scenario A.")],
    second: Annotated[Path, typer.Argument(help="Scenario B (the same side names).")],
    runs: Annotated[int, typer.Option("--runs", "-n", help="Battles of each.")] = 1000,
    seed: Annotated[int, typer.Option(help="Root seed, shared by both.")] = 0,
    target_width: Annotated[
        float | None,
        typer.Option(help="Play on until each difference is clear of zero or this narrow."),
    ] = None,
    batch_size: Annotated[int | None, typer.Option(help="Battles per step.")] = None,
    workers: Annotated[int | None, typer.Option(help="Worker processes.")] = None,
    quiet: Annotated[bool, typer.Option(help="No progress bar.")] = False,
    catalog: CatalogOption = None,
) -> None:
    """Play A and B on the same battle seeds and state each difference, with its interval.

    For each side's chance to win and each named fighter's to go down: B - A in points,
    its 95% interval, and whether it is bigger than chance."""
    from fadad_agents.analysis import compare as play_both

    use_catalog(catalog)
    backend = "processes" if (workers or 1) > 1 else "serial"
    try:
        result = play_both(
            first,
            second,
            runs,
            seed,
            target_width=target_width,
            batch_size=batch_size,
            backend=backend,
            workers=workers,
            progress=not quiet,
        )
    except (ValueError, OSError) as exc:
        raise fail("compare", exc) from None
    typer.echo(shown(result.summary()), nl=False)


def odds(
    scenario: Annotated[Path, typer.Argument(help="Scenario YAML file.")],
    runs: Annotated[int, typer.Option("--runs", "-n", help="Monte Carlo battles.")] = 1000,
    seed: Annotated[int, typer.Option(help="Root seed of the battles.")] = 0,
    exact: Annotated[
        bool, typer.Option(help="Also the exact odds of a one-on-one duel, beside them.")
    ] = False,
    quiet: Annotated[bool, typer.Option(help="No progress bar.")] = False,
) -> None:
    """Each side's chance to win, by Monte Carlo; with --exact, a duel's exact odds beside.

    The exact odds come from the duel's Markov chain (fadad_agents.analysis.exact); a
    scenario outside its reach is said in one line, and the Monte Carlo figures stand."""
    from fadad_agents.analysis import sweep
    from fadad_agents.analysis.exact import OutOfReach, beside_monte_carlo, duel_odds
    from fadad_agents.schema.loader import ScenarioError

    try:
        result = sweep(scenario, runs, seed, backend="serial", progress=not quiet)
        solved = duel_odds(scenario) if exact else None
    except OutOfReach as exc:
        _lines(result.summary())
        typer.echo(f"exact odds: not solved: {shown(str(exc))}")
        return
    except ScenarioError as exc:
        raise bad_file(exc.problems) from None
    except (ValueError, OSError) as exc:
        raise fail("odds", exc) from None
    _lines(
        result.summary()
        if solved is None
        else beside_monte_carlo(solved, result.win_probabilities())
    )


def _lines(text: str) -> None:
    """Print ``text`` line by line, each line's control characters escaped."""
    for line in text.splitlines():
        typer.echo(shown(line))


def options(
    prefix: Annotated[
        str | None, typer.Argument(help="Only keys starting with this: fadad, sj.crash ...")
    ] = None,
) -> None:
    """Every rules option a scenario may set, with its default and what it settles.

    Each option: allowed values, default, what it does and the conflict (C-nn) or
    ambiguity (A-nn) of the rules sources it settles."""
    _show("options", "options_text", prefix)


def policies(
    decision: Annotated[
        str | None, typer.Argument(help="Only one decision: targeting, stance, maneuver ...")
    ] = None,
) -> None:
    """Every policy a scenario may choose, by decision, with its parameters and defaults."""
    _show("policies", "policies_text", decision)


def fields(
    kind: Annotated[
        str | None, typer.Argument(help="character, crew, unit, ship, weapon, scenario ...")
    ] = None,
) -> None:
    """The fields of a stat block or scenario block: type, default and meaning.

    Without KIND: every kind of block."""
    _show("fields", "fields_text", kind)


def _show(command: str, render: str, argument: str | None) -> None:
    """Print the reference page ``fadad_agents.reference.<render>(argument)``; an unknown
    name is one line with suggestions and exit status 2. (Imported here, not at the top:
    `fadad run` does not load the reference.)"""
    from fadad_agents import reference

    try:
        typer.echo(getattr(reference, render)(argument), nl=False)
    except reference.NotInReference as exc:
        raise fail(command, exc) from None
