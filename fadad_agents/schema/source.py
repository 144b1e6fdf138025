"""Reading a scenario or catalogue source: the file, then its plain YAML with line marks.

Before a byte is parsed, a path must name a regular file (not a folder, device or pipe)
no larger than the runner's ``Limits.file_bytes``; YAML text given directly is held to the
same size. Parsing is YAML's safe subset only (:class:`MarkedLoader`, libyaml's C parser
where present): nothing in a file can import or run code, and no tag builds anything but
text, numbers, booleans, lists and mappings (``!!binary``, ``!!set``, ``!!timestamp``
are refused; a bare date stays text). The loader records the line of every node, so a
problem names ``file:line field.path``; :class:`ScenarioError` carries those lines.
"""

from __future__ import annotations

import os
import stat
import time
from pathlib import Path
from typing import Any

import yaml

from fadad_agents.schema.limits import Limits

__all__ = [
    "MAX_NODES",
    "SETTLED_NS",
    "Loc",
    "MarkedLoader",
    "ScenarioError",
    "field_path",
    "is_text",
    "one_line",
    "parse_yaml",
    "read_source",
    "settled_stamp",
]

Loc = tuple[str, ...]


class ScenarioError(ValueError):
    """A scenario or catalogue file is invalid; ``problems`` holds one line per problem."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = [one_line(p) for p in problems]
        super().__init__("\n".join(self.problems))


def one_line(text: str) -> str:
    """Escape newlines and other control characters a key or value may carry."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


_TIMESTAMP = "tag:yaml.org,2002:timestamp"
_PLAIN_RESOLVERS = {
    first: [(tag, regexp) for tag, regexp in resolvers if tag != _TIMESTAMP]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
"""A bare 2024-05-01 stays text (no implicit timestamps, as in YAML 1.2's core schema)."""


class _Marked:
    """What both loaders add to PyYAML's safe loader: line marks, plain data only."""

    yaml_implicit_resolvers = _PLAIN_RESOLVERS

    def document_with_lines(self) -> tuple[Any, dict[Loc, int], list[str]]:
        """The constructed document, ``{path: line}``, and duplicate-key problems."""
        loader: Any = self  # a parser and constructor once mixed into a loader
        node = loader.get_single_node()
        if node is None:
            return None, {}, []
        lines: dict[Loc, int] = {}
        problems: list[str] = []
        _walk(node, (), lines, problems, set())
        return loader.construct_document(node), lines, problems


class _PureMarkedLoader(_Marked, yaml.SafeLoader):
    """PyYAML's pure-Python safe loader, marked: it words syntax errors the same
    everywhere, so messages do not depend on whether libyaml is installed."""


_LIBYAML = hasattr(yaml, "CSafeLoader")


class MarkedLoader(_Marked, getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # type: ignore[misc]
    """The safe loader, libyaml's C one where present (about ten times faster), that also
    maps every node's path to its 1-based line and builds plain data only."""


MAX_NODES = 200_000
"""Largest document, counted after alias expansion (stops "billion laughs" files)."""


def _refuse_tag(loader: yaml.BaseLoader, node: yaml.Node) -> Any:
    raise yaml.constructor.ConstructorError(
        None, None, f"could not determine a constructor for the tag {node.tag!r}", node.start_mark
    )


for _loader in (MarkedLoader, _PureMarkedLoader):
    for _tag in ("binary", "set", "timestamp", "omap", "pairs"):
        _loader.add_constructor(f"tag:yaml.org,2002:{_tag}", _refuse_tag)


def _walk(
    node: yaml.Node, path: Loc, lines: dict[Loc, int], dups: list[str], active: set[int]
) -> None:
    if id(node) in active:
        raise ValueError("recursive alias")
    if len(lines) > MAX_NODES:
        raise ValueError(f"document too large (over {MAX_NODES} values once aliases expand)")
    lines.setdefault(path, node.start_mark.line + 1)
    active.add(id(node))
    if isinstance(node, yaml.MappingNode):
        seen: set[str] = set()
        for key, value in node.value:
            name = str(key.value) if isinstance(key, yaml.ScalarNode) else "?"
            if name in seen:
                dups.append(f"{key.start_mark.line + 1} {field_path((*path, name))}: duplicate key")
            seen.add(name)
            lines.setdefault((*path, name), key.start_mark.line + 1)
            _walk(value, (*path, name), lines, dups, active)
    elif isinstance(node, yaml.SequenceNode):
        for i, item in enumerate(node.value):
            _walk(item, (*path, str(i)), lines, dups, active)
    active.discard(id(node))


def parse_yaml(text: str, filename: str) -> tuple[Any, dict[Loc, int]]:
    """Parse YAML text; syntax problems raise :class:`ScenarioError`."""
    try:
        return _parse(MarkedLoader, text, filename)
    except ScenarioError:
        if not _LIBYAML:
            raise
        # Worded by the pure-Python parser, as on machines without libyaml.
        return _parse(_PureMarkedLoader, text, filename)


def _parse(kind: type[_Marked], text: str, filename: str) -> tuple[Any, dict[Loc, int]]:
    try:
        loader = kind(text)  # type: ignore[call-arg]
    except yaml.reader.ReaderError as exc:  # the Python reader checks characters up front
        raise ScenarioError([_reader_problem(exc, text, filename)]) from None
    try:
        data, lines, dups = loader.document_with_lines()
    except yaml.reader.ReaderError as exc:
        raise ScenarioError([_reader_problem(exc, text, filename)]) from None
    except yaml.MarkedYAMLError as exc:
        raise ScenarioError([_yaml_problem(exc, filename)]) from None
    except RecursionError:
        raise ScenarioError([f"{filename}:1 (yaml): nested too deeply"]) from None
    except (yaml.YAMLError, ValueError) as exc:
        raise ScenarioError([f"{filename}:1 (yaml): {exc}".replace("\n", " ")]) from None
    finally:
        loader.dispose()  # type: ignore[attr-defined]
    if dups:
        raise ScenarioError([f"{filename}:{d}" for d in dups])
    return data, lines


def _reader_problem(exc: yaml.reader.ReaderError, text: str, filename: str) -> str:
    """A character YAML does not allow, at its line."""
    line = text.count("\n", 0, max(0, exc.position)) + 1
    return (
        f"{filename}:{line} (yaml): character #x{exc.character:04x} is not allowed in a YAML "
        "file (a control character; remove it)"
    )


def _yaml_problem(exc: yaml.MarkedYAMLError, filename: str) -> str:
    mark = exc.problem_mark or exc.context_mark
    line = mark.line + 1 if mark else 1
    problem = str(exc.problem or exc)
    if "constructor for the tag" in problem:
        return f"{filename}:{line} (yaml): {problem} (plain YAML only; tags are not allowed)"
    if exc.context and exc.context_mark is not None:
        where = f"{exc.context} from line {exc.context_mark.line + 1}"
        return f"{filename}:{line} (yaml): {problem} ({where}; check the indentation)"
    return f"{filename}:{line} (yaml): {problem}".replace("\n", " ")


def is_text(source: str | Path) -> bool:
    """YAML text has a line break or is one flow mapping (``{name: ...}``); anything else
    is a path."""
    return isinstance(source, str) and ("\n" in source or source.lstrip().startswith("{"))


SETTLED_NS = 2_000_000_000
"""A file last changed at least this long (2 s, FAT's clock step, the coarsest in use)
before it was looked at is *settled*: any later change gives it a newer change time, so
its ``stat`` tells an edit apart without reading it (git's "racy clean" rule)."""


def settled_stamp(name: str) -> tuple[str, int, int, int, int, int] | None:
    """For the path ``name`` of a settled file (:data:`SETTLED_NS`): the name, device,
    inode, size and modification and change times in ns, which change whenever the file,
    or the file the name points to, does. None for a path that cannot be looked at
    (:func:`read_source` says why) or a file changed too lately to tell a second change in
    the same clock step apart: read it."""
    try:
        info = os.stat(name)
    except (OSError, ValueError):
        return None
    changed = max(info.st_mtime_ns, info.st_ctime_ns)
    if time.time_ns() - changed < SETTLED_NS:
        return None
    return name, info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns


def read_source(source: str | Path, limits: Limits) -> tuple[str, str]:
    """``(text, filename)`` from a path or from YAML text, within ``limits.file_bytes``."""
    if is_text(source):
        text = str(source)
        if len(text) > limits.file_bytes:
            raise ScenarioError([f"<text>:1 (file): {_too_big(len(text), limits)}"])
        return text, "<text>"
    name = str(source)
    try:
        data = _read_regular_file(name, limits)  # a str: no Path to make and print again
        return data.decode("utf-8"), name
    except OSError as exc:
        raise ScenarioError([f"{name}:1 (file): cannot read ({exc.strerror or exc})"]) from None
    except UnicodeDecodeError as exc:
        raise ScenarioError([f"{name}:1 (file): not UTF-8 text ({exc.reason})"]) from None
    except ValueError as exc:
        raise ScenarioError([f"{name}:1 (file): {exc}"]) from None


def _read_regular_file(path: str | Path, limits: Limits) -> bytes:
    """The bytes of a regular file no larger than the limit; a folder, device or pipe is
    refused before a byte is read (opened non-blocking: a pipe without a writer never
    hangs the open)."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    try:
        info = os.fstat(fd)
    except OSError:
        os.close(fd)
        raise
    if not stat.S_ISREG(info.st_mode):
        os.close(fd)
        kind = "a folder" if stat.S_ISDIR(info.st_mode) else "a device, pipe or socket"
        raise ValueError(f"is {kind}, not a regular file (give a .yaml file)")
    with os.fdopen(fd, "rb") as handle:
        # Read as much as the file holds (a buffer of the limit cost a small file's read
        # most of its time); a file grown since fstat is read on, up to the limit.
        data = handle.read(min(info.st_size, limits.file_bytes) + 1)
        if len(data) > info.st_size:
            data += handle.read(limits.file_bytes + 1 - len(data))
    if len(data) > limits.file_bytes:
        raise ValueError(_too_big(max(len(data), info.st_size), limits))
    return data


def _too_big(size: int, limits: Limits) -> str:
    return (
        f"is {size:,} bytes, more than the limit of {limits.file_bytes:,} "
        f"(scenarios are kilobytes; {limits.hint('file_bytes')})"
    )


def field_path(loc: Loc) -> str:
    """A location as a message writes it: ``sides[0].forces[2].skills.Sword``."""
    out = ""
    for part in loc:
        if part.isdigit():
            out += f"[{part}]"
        elif part.replace("_", "").replace("-", "").isalnum():
            out += f".{part}" if out else part
        else:
            out += f"[{part!r}]"
    return out or "(document)"
