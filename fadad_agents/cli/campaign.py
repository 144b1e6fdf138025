"""The campaign commands: ``fadad rest`` and ``fadad aftermath`` (and ``run --state-out``,
in :mod:`fadad_agents.cli`). Thin wrappers over :mod:`fadad_agents.campaign`."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from fadad_agents.cli.catalogs import CatalogOption, use_catalog
from fadad_agents.cli.output import bad_file, fail, shown

__all__ = ["aftermath", "register", "rest"]


def register(app: typer.Typer) -> None:
    """Add the commands of this module to ``app``."""
    app.command()(rest)
    app.command()(aftermath)


def rest(
    state: Annotated[Path, typer.Argument(help="A state file (fadad run --state-out).")],
    days: Annotated[int, typer.Option(help="Days of rest.")],
    out: Annotated[
        Path | None, typer.Option(help="Write the rested state here (default: over STATE).")
    ] = None,
) -> None:
    """Rest for DAYS: wounds heal by the battle's healing_model (C-09) and ships are
    repaired in a yard (C-21); prints one line per change and writes the state."""
    from fadad_agents import campaign
    from fadad_agents.schema.loader import ScenarioError

    try:
        rested, changes = campaign.rest(campaign.read_state(state), days)
        campaign.write_state(rested, out or state)
    except ScenarioError as exc:
        raise bad_file(exc.problems) from None
    except (ValueError, OSError) as exc:
        raise fail("rest", exc) from None
    for line in changes or [f"nothing changed in {days} days"]:
        typer.echo(shown(line))
    typer.echo(f"{rested.rested_days} days since the battle; wrote {shown(str(out or state))}")


def aftermath(
    state: Annotated[Path, typer.Argument(help="A state file (fadad run --state-out).")],
    into: Annotated[Path, typer.Option("--into", help="The next scenario.")],
    out: Annotated[Path, typer.Option("--out", help="Write the next scenario, as it starts.")],
    catalog: CatalogOption = None,
) -> None:
    """Carry a battle's end state into the next scenario: wounds, Ité points, shots,
    heads left, hull damage; the dead, the still Incapacitated and lost ships are left
    out. Prints a note for each, and writes OUT (checked as a scenario)."""
    from fadad_agents import campaign
    from fadad_agents.schema.loader import ScenarioError, load_scenario

    use_catalog(catalog)
    try:
        result = campaign.apply_state(campaign.read_state(state), into, check=False)
        out.write_text(result.text, encoding="utf-8")
        load_scenario(out)
    except ScenarioError as exc:
        raise bad_file(exc.problems) from None
    except (ValueError, OSError) as exc:
        raise fail("aftermath", exc) from None
    for line in result.notes:
        typer.echo(shown(line))
    typer.echo(f"wrote {shown(str(out))}")
