"""The catalogue of things that fight: YAML files under ``models/<kind>/<name>.yaml``.

Entries are named ``<kind>/<name>`` (``weapons/broadsword``, ``ships/war-galleon``). The
catalogue is found in the installed wheel (``fadad_agents/_models``, force-included by
``pyproject.toml``) and, in a source checkout, in the repository's ``models/`` folder.

Each file holds one mapping: the fields of the schema class for its kind
(:data:`KIND_CLASSES`). :meth:`Catalog.entry` returns the raw mapping (validation happens
where the entry is used, so scenario overrides are checked against the merged data);
:func:`~fadad_agents.schema.loader.catalog_model` validates one entry into its model.

>>> cat = default_catalog()
>>> "weapons/broadsword" in cat.names("weapons")
True
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Iterable
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

import yaml

from fadad_agents.schema.suggest import nearest

__all__ = [
    "KINDS",
    "Catalog",
    "CatalogError",
    "default_catalog",
    "model_roots",
]

KINDS = (
    "weapons",
    "armour",
    "shields",
    "big-weapons",
    "ships",
    "creatures",
    "crews",
    "units",
    "tables",
    "fae",
)
"""Catalogue folders, one per kind of entry (``fae``: Fae Domains gear, schema.fae)."""


class CatalogError(ValueError):
    """A catalogue name does not exist or names the wrong kind of entry."""


def model_roots() -> list[Traversable]:
    """Folders holding the catalogue: the wheel's ``_models`` and the source tree's ``models``."""
    roots: list[Traversable] = []
    packaged = resources.files("fadad_agents") / "_models"
    if packaged.is_dir():
        roots.append(packaged)
    source = Path(__file__).resolve().parents[2] / "models"
    if source.is_dir():
        roots.append(source)
    return roots


class Catalog:
    """Catalogue entries by ``kind/name``; earlier roots win over later ones."""

    def __init__(self, roots: Iterable[Traversable | Path] | None = None) -> None:
        self._files: dict[str, Traversable] = {}
        for root in model_roots() if roots is None else roots:
            self._scan(root)
        self._raw: dict[str, dict[str, Any]] = {}

    def _scan(self, root: Traversable | Path) -> None:
        for kind in KINDS:
            folder = root / kind
            if not folder.is_dir():
                continue
            for item in folder.iterdir():
                if item.name.endswith(".yaml") and item.is_file():
                    self._files.setdefault(f"{kind}/{item.name[:-5]}", item)

    def names(self, kind: str | None = None) -> list[str]:
        """Sorted entry names, all or of one kind."""
        if kind is not None and kind not in KINDS:
            raise CatalogError(f"{kind!r} is not a catalogue kind (allowed: {', '.join(KINDS)})")
        return sorted(n for n in self._files if kind is None or n.split("/")[0] == kind)

    def source(self, ref: str) -> Traversable:
        """The file an entry comes from."""
        return self._files[self.full_name(ref)]

    def full_name(self, ref: str, kind: str | None = None) -> str:
        """``kind/name`` for ``ref`` (``name`` alone needs ``kind``); raises CatalogError."""
        if "/" not in ref and kind is not None:
            ref = f"{kind}/{ref}"
        ref_kind = ref.split("/")[0]
        if kind is not None and ref_kind in KINDS and ref_kind != kind:
            raise CatalogError(
                f"'{ref}' is a {ref_kind} entry, but a {kind} entry is needed "
                f"(e.g. {', '.join(self.names(kind)[:3]) or kind + '/<name>'})"
            )
        if ref not in self._files:
            pool = self.names(kind) if kind else self.names()
            close = nearest(ref, pool)
            hint = f"did you mean {' or '.join(close)}?" if close else "see `fadad catalog`"
            raise CatalogError(f"'{ref}' is not in the catalogue ({hint.strip()})")
        return ref

    def entry(self, ref: str, kind: str | None = None) -> tuple[str, dict[str, Any]]:
        """``(full name, raw mapping)`` of an entry; the mapping is a fresh deep copy."""
        full = self.full_name(ref, kind)
        if full not in self._raw:
            data = yaml.safe_load(self._files[full].read_text(encoding="utf-8"))
            if not isinstance(data, dict):
                raise CatalogError(f"'{full}' does not hold a mapping")
            self._raw[full] = data
        return full, copy.deepcopy(self._raw[full])

    def resolved(self, ref: str, kind: str | None = None) -> tuple[str, dict[str, Any]]:
        """Like :meth:`entry`, following ``model:`` inside entries: an entry may start from
        another of its kind (``ships/war-galleon-refit`` from ``ships/war-galleon``) and
        override fields. Cycles raise CatalogError."""
        full, entry = self.entry(ref, kind)
        chain = [full]
        while isinstance(entry.get("model"), str):
            parent, base = self.entry(entry["model"], full.split("/")[0])
            if parent in chain:
                raise CatalogError(f"'{full}' derives from itself: {' -> '.join([*chain, parent])}")
            chain.append(parent)
            base.update({k: v for k, v in entry.items() if k != "model"})
            entry = base
        entry.pop("model", None)
        return full, entry

    def listing(self, kind: str | None = None) -> list[str]:
        """One line per entry, ``kind/name  Display name``, for ``fadad catalog``."""
        names = self.names(kind)
        width = max((len(n) for n in names), default=0)
        return [f"{n:<{width}}  {self.entry(n)[1].get('name', '')}" for n in names]


@functools.cache
def default_catalog() -> Catalog:
    """The catalogue shipped with the package (cached)."""
    return Catalog()
