"""``--catalog DIR``: the GM's own catalogue folders for one command (and the sweep workers
it starts), added in front of those the ``FADAD_CATALOG`` environment variable names."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

import typer

__all__ = ["CatalogOption", "use_catalog"]

CatalogOption = Annotated[
    list[Path] | None,
    typer.Option(
        "--catalog",
        help="A folder of your own catalogue entries (<kind>/<name>.yaml), merged over the "
        "built-in catalogue (repeatable; also FADAD_CATALOG and models/ beside the scenario).",
    ),
]


def use_catalog(folders: list[Path] | None) -> None:
    """Put ``folders`` in front of ``FADAD_CATALOG`` for this process and its children."""
    from fadad_agents.schema.catalog import CATALOG_ENV

    if folders:
        named = [str(f) for f in folders]
        known = [p for p in os.environ.get(CATALOG_ENV, "").split(os.pathsep) if p]
        os.environ[CATALOG_ENV] = os.pathsep.join([*named, *known])
