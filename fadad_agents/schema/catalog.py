"""The catalogue of things that fight: YAML files under ``models/<kind>/<name>.yaml``.

Entries are named ``<kind>/<name>`` (``weapons/broadsword``, ``ships/war-galleon``). The
catalogue is found in the installed wheel (``fadad_agents/_models``, force-included by
``pyproject.toml``) and, in a source checkout, in the repository's ``models/`` folder.

The GM's own catalogue is merged over it (:func:`catalog_for`): the folders named in the
``FADAD_CATALOG`` environment variable (``os.pathsep``-separated; ``--catalog DIR`` on the
command line adds to it) and the ``models/`` folder beside the scenario file, each laid
out as ``<kind>/<name>.yaml``. A GM entry of a built-in name overrides the built-in one
(:attr:`Catalog.overrides` says which); one name defined twice among the GM's folders is
a clash, and so is a folder that is not a kind: one line naming both files (or the folder).

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
import os
from collections.abc import Iterable
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

import yaml

from fadad_agents.schema.suggest import did_you_mean, nearest

__all__ = [
    "CATALOG_ENV",
    "KINDS",
    "Catalog",
    "CatalogError",
    "catalog_for",
    "default_catalog",
    "gm_folders",
    "model_roots",
]

CATALOG_ENV = "FADAD_CATALOG"
"""Environment variable naming the GM's catalogue folders (``os.pathsep``-separated)."""

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
        self.gm: dict[str, Path] = {}
        """The GM's entries by name, with their files."""
        self.shadowed: dict[str, Traversable] = {}
        """Built-in entries a GM entry overrides (``model:`` its own name builds on them)."""

    @classmethod
    def merged(cls, folders: Iterable[Path]) -> Catalog:
        """The built-in catalogue with the GM's ``folders`` over it. Raises CatalogError
        for a name defined twice among the folders, or a folder that is not a kind."""
        merged = cls(roots=())
        for folder in folders:
            for kind_folder in sorted(folder.iterdir()):
                hidden = kind_folder.name.startswith((".", "_"))
                if kind_folder.is_dir() and not hidden and kind_folder.name not in KINDS:
                    raise CatalogError(_not_a_kind(kind_folder))
            for name, item in _entries(folder):
                if name in merged.gm:
                    raise CatalogError(
                        f"{item}: {name} is defined twice in the GM's catalogue (also in "
                        f"{merged.gm[name]}); keep one"
                    )
                merged.gm[name] = item
        merged._files.update(merged.gm)
        for name, builtin in default_catalog()._files.items():
            if name in merged.gm:
                merged.shadowed[name] = builtin
            merged._files.setdefault(name, builtin)
        return merged

    @property
    def overrides(self) -> list[str]:
        """GM entries that replace a built-in entry of the same name."""
        return sorted(self.shadowed)

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
            if parent == chain[-1] and parent in self.shadowed:
                # a GM entry building on the built-in entry it overrides
                base = yaml.safe_load(self.shadowed[parent].read_text(encoding="utf-8"))
                parent = f"{parent} (built-in)"
            elif parent in chain:
                raise CatalogError(f"'{full}' derives from itself: {' -> '.join([*chain, parent])}")
            chain.append(parent)
            base.update({k: v for k, v in entry.items() if k != "model"})
            entry = base
        entry.pop("model", None)
        return full, entry

    def listing(self, kind: str | None = None) -> list[str]:
        """One line per entry, ``kind/name  Display name``, for ``fadad catalog``; the GM's
        entries end with where they come from (and what they override)."""
        names = self.names(kind)
        width = max((len(n) for n in names), default=0)
        over = set(self.overrides)
        lines = []
        for n in names:
            line = f"{n:<{width}}  {self.entry(n)[1].get('name', '')}"
            if n in self.gm:
                line += f"  [GM: {self.gm[n]}{', over the built-in' if n in over else ''}]"
            lines.append(line)
        return lines


@functools.cache
def default_catalog() -> Catalog:
    """The catalogue shipped with the package (cached)."""
    return Catalog()


def _entries(folder: Path) -> list[tuple[str, Path]]:
    return [
        (f"{kind}/{item.name[:-5]}", item)
        for kind in KINDS
        if (folder / kind).is_dir()
        for item in sorted((folder / kind).iterdir())
        if item.name.endswith(".yaml") and item.is_file()
    ]


def _not_a_kind(folder: Path) -> str:
    return (
        f"{folder}: '{folder.name}' is not a catalogue kind (allowed: {', '.join(KINDS)})"
        f"{did_you_mean(folder.name, list(KINDS))}"
    )


def gm_folders(scenario: str | Path | None = None) -> list[Path]:
    """The GM's catalogue folders: those in ``FADAD_CATALOG``, then the ``models/`` folder
    beside ``scenario`` (a file), each once. Raises CatalogError for a named folder that
    does not exist."""
    found: dict[Path, Path] = {}
    for text in os.environ.get(CATALOG_ENV, "").split(os.pathsep):
        if not text:
            continue
        folder = Path(text)
        if not folder.is_dir():
            raise CatalogError(
                f"{folder}: no such folder for the GM's catalogue (named in {CATALOG_ENV} "
                "or by --catalog)"
            )
        found.setdefault(folder.resolve(), folder)
    if scenario is not None:  # os.path: a run(path) loop asks once a battle
        beside_name = os.path.join(os.path.dirname(scenario), "models")
        # os.access first: a missing folder (the usual case) answered without the
        # exception isdir raises and catches inside, which costs a loop of 5 v 5
        # battles by path about 3% (the system call's own cost stays)
        if os.access(beside_name, os.F_OK) and os.path.isdir(beside_name):
            beside = Path(beside_name)
            if beside.resolve() not in _builtin_folders():
                found.setdefault(beside.resolve(), beside)
    return list(found.values())


@functools.cache
def _builtin_folders() -> frozenset[Path]:
    return frozenset(Path(str(r)).resolve() for r in model_roots())


def catalog_for(scenario: Path | None = None) -> Catalog:
    """The catalogue a scenario file's names resolve against: the built-in one with the
    GM's folders (:func:`gm_folders`) merged over it."""
    folders = gm_folders(scenario)
    return Catalog.merged(folders) if folders else default_catalog()
