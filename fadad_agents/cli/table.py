"""The game master's commands: ``fadad play`` and ``fadad resume`` (table sessions).

Registered on the ``fadad`` app by :mod:`fadad_agents.cli`; the session itself is
:mod:`fadad_agents.table`, the conversation :mod:`fadad_agents.cli.console`.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from fadad_agents.cli.catalogs import CatalogOption, use_catalog
from fadad_agents.cli.output import bad_file, fail

if TYPE_CHECKING:
    from fadad_agents.table import TableSession

__all__ = ["play", "register", "resume"]


def register(app: typer.Typer) -> None:
    """Add the commands of this module to ``app``."""
    app.command()(play)
    app.command()(resume)


def play(
    scenario: Annotated[Path, typer.Argument(help="Scenario YAML file.")],
    seed: Annotated[int | None, typer.Option(help="Battle seed (default: the file's).")] = None,
    control: Annotated[
        list[str] | None,
        typer.Option(
            "--control",
            "-c",
            help="A side, fighter, group, crew or ship the GM plays (repeatable).",
        ),
    ] = None,
    dice: Annotated[
        str,
        typer.Option(
            help="auto: every die from the seed; table: the controlled ones' rolls are "
            "entered; all: every roll of the battle is entered."
        ),
    ] = "auto",
    catalog: CatalogOption = None,
) -> None:
    """Play a scenario at the table: take the decisions of the fighters, crews or ships
    you control (numbered choices, their policy's in [brackets]) and enter real dice
    (4dF as +-0+ or +2, d20 as 17, 2d10 as 3 9 or 12). A blank answer takes the default.
    Type undo, auto, save PATH, status, help or quit at any question. The battle is
    narrated on standard output; questions go to standard error."""
    from fadad_agents.schema.loader import ScenarioError
    from fadad_agents.table import SessionError, TableSession

    use_catalog(catalog)
    try:
        session = TableSession(scenario, seed=seed, control=control or (), dice=dice)  # type: ignore[arg-type]
    except ScenarioError as exc:
        raise bad_file(exc.problems) from None
    except (SessionError, OSError) as exc:
        raise fail("play", exc) from None
    _converse(session, "play")


def resume(
    file: Annotated[Path, typer.Argument(help="A session saved with `save PATH`.")],
) -> None:
    """Go on with a saved table session: its answers are replayed, then the next
    question is asked."""
    from fadad_agents.schema.loader import ScenarioError
    from fadad_agents.table import SessionError, load_session

    try:
        session = load_session(file)
    except ScenarioError as exc:
        raise bad_file(exc.problems) from None
    except SessionError as exc:
        raise fail("resume", exc) from None
    _converse(session, "resume")


def _converse(session: TableSession, command: str) -> None:
    """Play ``session`` with the GM at the prompt (or reading standard input)."""
    from fadad_agents.cli.console import (
        Console,
        InputEnded,
        Quit,
        line_reader,
        terminal_reader,
    )
    from fadad_agents.table import SessionError

    terminal = sys.stdin.isatty()
    read = terminal_reader() if terminal else line_reader(sys.stdin)
    console = Console(
        session, read, typer.echo, lambda line: typer.echo(line, err=True), echo=not terminal
    )
    where = ""
    try:
        console.play()
        return
    except Quit:
        where = "stopped"
    except InputEnded:
        where = "input ended"
    except SessionError as exc:
        raise fail(command, exc) from None
    console.narrate_new()
    round_word = session.battle.log.round_word.lower()
    typer.echo(
        f"fadad {command}: {where} at {round_word} {session.battle.round} with a question "
        "unanswered (save PATH before quit keeps a session to resume)",
        err=True,
    )
    raise typer.Exit(0 if where == "stopped" else 1)
