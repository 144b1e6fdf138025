"""numba's cache of this package's compiled code, kept in step with every module it was
compiled from.

numba caches a compiled function beside its module and reuses it while that module's own
source is unchanged. But a compiled function carries the code of the compiled functions it
calls and the constants it reads from other modules: a kernel calling a swing defined in
another file keeps the old swing when only that file changes. A fresh install never sees
this; a checkout that changes some files and not others (``git pull``, an edit) would play
its battles with the old code, silently.

Once this module is imported, numba's cache of every function of this package is stale
whenever any module of the package its module imports, directly or not, changes: the
source stamp numba keeps with each cached function (its own file's content) also holds a
digest of those modules' contents (:func:`imports_digest`), found by reading their
imports. The package's compiled modules take :func:`njit` from here, not from numba, so
that it is imported before their functions are. Functions of other packages are cached as
numba caches them.
"""

from __future__ import annotations

import hashlib
import re
from functools import cache
from pathlib import Path
from typing import Any

from numba import njit
from numba.core import caching

__all__ = ["imports_digest", "njit", "package_imports"]

_PACKAGE = Path(__file__).resolve().parents[3]
"""This package's folder, ``fadad_agents``."""
_ROOT = _PACKAGE.parent


@cache
def _module_file(name: str) -> Path | None:
    """The source file of module or package ``name`` of this package, if there is one."""
    path = _ROOT.joinpath(*name.split("."))
    if path.is_dir():
        return path / "__init__.py"
    path = path.with_suffix(".py")
    return path if path.is_file() else None


_IMPORT = re.compile(
    rb"^[ \t]*(?:from[ \t]+(fadad_agents[\w.]*)[ \t]+import[ \t]+(\([^)]*\)|[^\n#]*)"
    rb"|import[ \t]+(fadad_agents[\w.]*))",
    re.MULTILINE,
)
"""An import of a module of this package (``from ... import`` its names, or ``import``),
at any depth, read by pattern, not parsed (several times quicker; one written in a
docstring counts too: a module then follows more modules than it needs, never fewer)."""


@cache
def _imports(path: Path) -> frozenset[Path]:
    """The files of this package ``path`` imports (a name imported from a package that
    is a module of it counts as that module)."""
    found: set[Path] = set()
    for origin, names, module in _IMPORT.findall(path.read_bytes()):
        if module:
            wanted = [module.decode()]
        else:
            base = origin.decode()
            listed = names.decode().strip("()").replace("\n", " ").split(",")
            wanted = [base] + [f"{base}.{name.split()[0]}" for name in listed if name.strip()]
        found.update(file for file in map(_module_file, wanted) if file is not None)
    return frozenset(found)


def package_imports(path: Path) -> list[Path]:
    """``path`` and every file of this package it imports, directly or not, sorted."""
    seen: set[Path] = set()
    todo = [path.resolve()]
    while todo:
        file = todo.pop()
        if file not in seen:
            seen.add(file)
            todo.extend(_imports(file) - seen)
    return sorted(seen)


@cache
def imports_digest(path: Path) -> str:
    """A digest of the contents of ``path`` and every file of this package it imports
    (each read once a process: the modules a process has imported do not change under
    it)."""
    digest = hashlib.sha256()
    for file in package_imports(path):
        digest.update(file.relative_to(_ROOT).as_posix().encode())
        digest.update(_content(file))
    return digest.hexdigest()


@cache
def _content(path: Path) -> bytes:
    """A digest of ``path``'s content."""
    return hashlib.sha256(path.read_bytes()).digest()


@cache
def _ours(py_file: str) -> bool:
    """Whether ``py_file`` is a module of this package."""
    return Path(py_file).resolve().is_relative_to(_PACKAGE)


def _stamped(locator: type) -> type:
    """``locator``, one of numba's cache locators, for this package's files alone, its
    source stamp holding :func:`imports_digest` too."""

    class Stamped(locator):  # type: ignore[misc]  # numba's class, given
        def get_source_stamp(self) -> Any:
            return super().get_source_stamp(), imports_digest(Path(self._py_file))

        @classmethod
        def from_function(cls, py_func: Any, py_file: str) -> Any:
            return super().from_function(py_func, py_file) if _ours(py_file) else None

    Stamped.__name__ = Stamped.__qualname__ = f"Stamped{locator.__name__}"
    return Stamped


_LOCATORS: list[Any] = caching.CacheImpl._locator_classes
"""The cache locators numba tries in turn for a function (unless ``NUMBA_CACHE_LOCATOR_
CLASSES`` names others): this package's go first, one for each of numba's that finds a
module's cache in a folder (the user's ``NUMBA_CACHE_DIR``, beside the module, the user's
cache folder)."""

if not any(getattr(c, "__module__", "") == __name__ for c in _LOCATORS):  # once a process
    _LOCATORS[:0] = [
        _stamped(locator)
        for locator in (
            caching.UserProvidedCacheLocator,
            caching.InTreeCacheLocator,
            caching.UserWideCacheLocator,
        )
    ]
