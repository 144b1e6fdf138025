"""Sweep results on disk: a directory of Parquet part files that a killed sweep resumes.

``results.parquet/`` holds

* ``_sweep.json`` - the manifest: what was swept (scenario hash, seed, grid, batch size,
  runs), so a resume with different arguments is refused instead of mixing results;
* ``_parts.jsonl`` - the manifest's record of every finished part, one JSON line each,
  appended as the part is kept: its variant, the replicate ids it holds and the SHA-256 of
  its bytes (a ``drop`` line forgets a part past an adaptive stop);
* ``part-v0000-000000000-000000100.parquet`` - replicates 0..99 of variant 0, one file per
  finished batch.

A part is written to a dot-file and flushed to disk, its record appended and flushed,
and only then renamed into place (the folder flushed too): a part is there whole, with
its record, or not at all, whenever the sweep is killed. A resumed sweep verifies every
part against its record (checksum, then the replicate ids inside) and refuses, in one
line naming the part, one that is damaged, foreign or overlapping another; it plays
only the replicates no part holds: nothing is lost and nothing counted twice. A finished
folder on read-only media is read without a lock and summarised again.

``pandas.read_parquet("results.parquet")`` reads the directory as one table (pyarrow skips
the ``_`` and ``.`` files); :func:`read_results` also verifies the parts and sorts the rows
by variant and replicate.
"""

from __future__ import annotations

import errno
import hashlib
import itertools
import json
import os
import re
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import IO, Any

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from fadad_agents.analysis.replicates import FIGHTER_FIELDS, SHIP_FIELDS, SIDE_FIELDS

__all__ = [
    "Manifest",
    "ResultStore",
    "StoreError",
    "grid_column_type",
    "read_results",
    "result_schema",
]

MANIFEST = "_sweep.json"
PARTS = "_parts.jsonl"
LOCK = ".lock"
_PART = re.compile(r"part-v(\d{4,9})-(\d{9})-(\d{9})\.parquet")

Part = tuple[int, int, int]
"""``(variant, start, stop)``: replicates ``start .. stop-1`` of one variant."""


class StoreError(ValueError):
    """A results directory that cannot be read or does not belong to this sweep."""


@dataclass(frozen=True, slots=True)
class Manifest:
    """What a results directory holds (``_sweep.json``).

    Attributes:
        scenario: scenario name.
        digest: SHA-256 of the variants' scenarios as canonical JSON (same battles or not).
        seed: the sweep's root seed.
        runs: replicates per variant asked for.
        batch_size: replicates per part file (and per adaptive-stopping check).
        labels: variant labels, in grid order.
        sides: side names, in scenario order.
        target_width: adaptive stopping width, or None.
    """

    scenario: str
    digest: str
    seed: int
    runs: int
    batch_size: int
    labels: tuple[str, ...]
    sides: tuple[str, ...]
    target_width: float | None = None

    def to_json(self) -> str:
        """The manifest as JSON text."""
        return json.dumps(asdict(self), indent=2)

    @classmethod
    def from_json(cls, text: str) -> Manifest:
        """Parse ``_sweep.json``; raises ``ValueError`` saying what is wrong with it."""
        data = json.loads(text)
        if not isinstance(data, dict):
            raise ValueError("not a JSON object")
        names = [f.name for f in fields(cls)]
        unknown = sorted(set(data) - set(names))
        missing = [n for n in names[:-1] if n not in data]  # target_width may be left out
        if unknown or missing:
            raise ValueError(f"keys {unknown or missing} {'unknown' if unknown else 'missing'}")
        kinds = {"scenario": str, "digest": str, "seed": int, "runs": int, "batch_size": int}
        for name, kind in kinds.items():
            if not isinstance(data[name], kind) or isinstance(data[name], bool):
                raise ValueError(f"{name} is not {kind.__name__}")
        for name in ("labels", "sides"):
            if not isinstance(data[name], list) or not all(isinstance(v, str) for v in data[name]):
                raise ValueError(f"{name} is not a list of text")
            data[name] = tuple(data[name])
        width = data.get("target_width")
        if width is not None and (not isinstance(width, int | float) or isinstance(width, bool)):
            raise ValueError("target_width is not a number")
        return cls(**data)

    def mismatch(self, other: Manifest) -> str | None:
        """Why ``other`` (the new sweep) cannot resume this one, or None."""
        if self.digest != other.digest or self.labels != other.labels:
            return "a different scenario or grid"
        for field in ("seed", "batch_size"):
            there, now = getattr(self, field), getattr(other, field)
            if there != now:
                return f"{field} {there} there, {now} now"
        return None


def grid_column_type(values: Sequence[Any]) -> pa.DataType:
    """Parquet type of a grid column: bool, int64, float64, else text."""
    if all(isinstance(v, bool) for v in values):
        return pa.bool_()
    if all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        return pa.int64()
    if all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values):
        return pa.float64()
    return pa.string()


_SHIP_TYPES = {"hull": pa.float64(), "crew_fighting": pa.int64(), "struck": pa.bool_()}
_FIGHTER_TYPES = {
    "down": pa.bool_(),
    "killed": pa.bool_(),
    "wound_level": pa.int64(),
    "rounds_active": pa.int64(),
    "taken_out_by": pa.string(),
}


def result_schema(
    grid: Sequence[tuple[str, pa.DataType]],
    sides: Sequence[str],
    ships: Sequence[str] = (),
    fighters: Sequence[str] = (),
) -> pa.Schema:
    """The columns of a results table, in order."""
    fields = [
        pa.field("scenario", pa.string()),
        pa.field("variant", pa.int64()),
        pa.field("label", pa.string()),
        *(pa.field(path, kind) for path, kind in grid),
        pa.field("replicate", pa.int64()),
        pa.field("seed", pa.int64()),
        pa.field("winner", pa.string()),
        pa.field("loser", pa.string()),
        pa.field("ending", pa.string()),
        pa.field("rounds", pa.int64()),
        pa.field("duration_s", pa.int64()),
    ]
    fields += [pa.field(f"{s}.{f}", pa.int64()) for s in sides for f in SIDE_FIELDS]
    fields += [pa.field(f"{s}.{f}", _SHIP_TYPES[f]) for s in ships for f in SHIP_FIELDS]
    fields += [pa.field(f"{n}.{f}", _FIGHTER_TYPES[f]) for n in fighters for f in FIGHTER_FIELDS]
    return pa.schema(fields)


def _part_name(variant: int, start: int, stop: int) -> str:
    return f"part-v{variant:04d}-{start:09d}-{stop:09d}.parquet"


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while chunk := handle.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


def _fsync(path: Path) -> None:
    """Flush a file (or a folder's entries) to disk."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _records(path: Path) -> dict[str, dict[str, Any]] | None:
    """The part records of ``_parts.jsonl`` by part name (later lines win, ``drop`` lines
    forget), or None for a folder written before parts had records. A torn last line
    (the sweep killed while appending it, before its part was renamed) is ignored."""
    journal = path / PARTS
    if not journal.exists():
        return None
    records: dict[str, dict[str, Any]] = {}
    for line in journal.read_text(encoding="utf-8", errors="replace").splitlines():
        try:
            record = json.loads(line)
            name = record["drop"] if "drop" in record else record["part"]
        except (ValueError, TypeError, KeyError):
            continue  # a record that does not parse stands for no part
        if not isinstance(name, str):
            continue
        if "drop" in record:
            records.pop(name, None)
        else:
            records[name] = record
    return records


def _verified_parts(path: Path, records: dict[str, dict[str, Any]] | None) -> list[Part]:
    """Every part file in ``path``, each checked against its record: the checksum of its
    bytes, and no two parts holding one replicate. Raises :class:`StoreError` naming the
    first part that fails (None ``records``: a folder from before records, taken as is)."""
    found: list[Part] = []
    for entry in sorted(path.iterdir()):
        match = _PART.fullmatch(entry.name)
        if match is None:
            continue
        part = (int(match[1]), int(match[2]), int(match[3]))
        where = f"{path / entry.name}"
        replay = f"delete it to play replicates {part[1]}..{part[2] - 1} again"
        if part[1] >= part[2]:
            raise StoreError(f"{where}: holds no replicates ({replay})")
        if records is not None:
            record = records.get(entry.name)
            if record is None:
                raise StoreError(
                    f"{where}: not written by this sweep (no record in {PARTS}; {replay})"
                )
            if record.get("sha256") != _sha256(entry):
                raise StoreError(f"{where}: damaged (its checksum differs from {PARTS}; {replay})")
        found.append(part)
    for (v1, s1, e1), (v2, s2, e2) in itertools.pairwise(found):
        if v1 == v2 and s2 < e1:
            raise StoreError(
                f"{path / _part_name(v2, s2, e2)}: holds replicates {s2}..{min(e1, e2) - 1} "
                f"that {_part_name(v1, s1, e1)} holds too (delete the one that should not be there)"
            )
    return found


class ResultStore:
    """The part files of one sweep in directory ``path``."""

    def __init__(self, path: str | Path, manifest: Manifest, schema: pa.Schema) -> None:
        self.path = Path(path)
        self.manifest = manifest
        self.schema = schema
        self.read_only = False
        self._lock: IO[str] | None = None
        self._records: dict[str, dict[str, Any]] | None = None

    def open(self) -> None:
        """Create the directory, or check an existing one belongs to this sweep; hold its
        lock until :meth:`close` (the kernel drops it if the process dies). A folder
        that cannot be written is opened read-only (:attr:`read_only`): no lock, nothing
        cleaned or written.

        Raises:
            StoreError: ``path`` is a file, a folder of other things, holds another sweep's
                results or a damaged manifest, or another sweep is writing to it.
        """
        if self.path.exists() and not self.path.is_dir():
            raise StoreError(f"{self.path}: exists and is not a sweep results directory")
        manifest_path = self.path / MANIFEST
        # Checked before a lock file is made: someone else's folder is left as it was.
        if (
            self.path.is_dir()
            and not manifest_path.exists()
            and any(p.name != LOCK for p in self.path.iterdir())
        ):
            raise StoreError(f"{self.path}: directory is not empty and has no {MANIFEST}")
        try:
            self.path.mkdir(parents=True, exist_ok=True)
            self._take_lock()
        except PermissionError:
            self.read_only = True
        except OSError as exc:
            if exc.errno != errno.EROFS:
                raise
            self.read_only = True
        try:
            self._check_and_clean()
        except BaseException:
            self.close()
            raise

    def _take_lock(self) -> None:
        try:
            import fcntl
        except ImportError:  # Windows: no advisory locks; one sweep per folder by care
            return
        handle = (self.path / LOCK).open("w")
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            handle.close()
            raise StoreError(
                f"{self.path}: another sweep is writing here now; wait for it to finish or "
                "choose another --out"
            ) from None
        self._lock = handle

    def close(self) -> None:
        """Release the directory's lock."""
        if self._lock is not None:
            self._lock.close()
            self._lock = None

    def _check_and_clean(self) -> None:
        manifest_path = self.path / MANIFEST
        if manifest_path.exists():
            try:
                old = Manifest.from_json(manifest_path.read_text(encoding="utf-8"))
            except (ValueError, TypeError, UnicodeDecodeError) as exc:
                raise StoreError(
                    f"{manifest_path}: damaged ({exc}); choose another --out, or delete the "
                    "folder to start the sweep again"
                ) from None
            why = old.mismatch(self.manifest)
            if why is not None:
                raise StoreError(
                    f"{self.path}: holds another sweep's results ({why}); resume with the "
                    "same scenario, seed, grid and batch size, or choose another --out"
                )
        elif self.read_only:
            raise StoreError(f"{self.path}: cannot be written (read-only or not yours)")
        self._records = _records(self.path)
        if self.read_only:
            return
        for stale in self.path.glob(".part-*"):
            stale.unlink()  # a part being written when the sweep was killed
        self._write_manifest()
        if self._records is None:  # a new folder, or one from before parts had records
            (self.path / PARTS).touch()

    def _write_manifest(self) -> None:
        tmp = self.path / f".{MANIFEST}.tmp"
        tmp.write_text(self.manifest.to_json() + "\n", encoding="utf-8")
        _fsync(tmp)
        os.replace(tmp, self.path / MANIFEST)

    def parts(self) -> list[Part]:
        """``(variant, start, stop)`` of every finished part, sorted, each verified
        (:func:`_verified_parts`)."""
        return _verified_parts(self.path, self._records)

    def read_part(self, variant: int, start: int, stop: int) -> pa.Table:
        """The rows of one part; its variant and replicate ids must be the ones its name
        says (else :class:`StoreError` naming it)."""
        path = self.path / _part_name(variant, start, stop)
        try:
            table = pq.read_table(path, schema=self.schema)
        except (pa.ArrowException, OSError) as exc:
            raise StoreError(f"{path}: not readable ({exc}); delete it to play it again") from None
        ids = table.column("replicate").to_pylist()
        variants = set(table.column("variant").to_pylist())
        if ids != list(range(start, stop)) or variants - {variant}:
            raise StoreError(
                f"{path}: holds other replicates than its name says; delete it to play "
                f"replicates {start}..{stop - 1} again"
            )
        if self._records is None and not self.read_only:  # adopt a part of an older folder
            self._append({"part": path.name, "variant": variant, "replicates": [start, stop],
                          "sha256": _sha256(path)})  # fmt: skip
        return table

    def _append(self, record: dict[str, Any]) -> None:
        """Append one record to ``_parts.jsonl`` and flush it to disk."""
        with (self.path / PARTS).open("a", encoding="utf-8") as journal:
            journal.write(json.dumps(record, sort_keys=True) + "\n")
            journal.flush()
            os.fsync(journal.fileno())

    def write_part(self, variant: int, start: int, stop: int, table: pa.Table) -> None:
        """Write one finished batch: a flushed dot-file, its record, then the rename."""
        if self.read_only:
            raise StoreError(f"{self.path}: cannot be written (read-only or not yours)")
        name = _part_name(variant, start, stop)
        tmp = self.path / f".{name}.tmp"
        pq.write_table(table, tmp)
        _fsync(tmp)
        record = {"part": name, "variant": variant, "replicates": [start, stop]}
        self._append({**record, "sha256": _sha256(tmp)})
        os.replace(tmp, self.path / name)
        _fsync(self.path)

    def drop_parts(self, parts: Iterable[Part]) -> None:
        """Delete parts (batches past an adaptive stop) and their records."""
        for variant, start, stop in parts:
            name = _part_name(variant, start, stop)
            if self.read_only:
                continue
            self._append({"drop": name})
            (self.path / name).unlink(missing_ok=True)


def read_results(path: str | Path) -> pd.DataFrame:
    """The results of a sweep directory (or one Parquet file), sorted by variant, replicate.

    Raises:
        StoreError: no such file or directory, or no results in it.
    """
    path = Path(path)
    if not path.exists():
        raise StoreError(f"{path}: no such file or directory")
    if path.is_dir():
        parts = _verified_parts(path, _records(path))
        if not parts:
            raise StoreError(f"{path}: holds no result parts (part-*.parquet)")
        files = [path / _part_name(*part) for part in parts]
        try:
            frame = pd.concat([pq.read_table(f).to_pandas() for f in files], ignore_index=True)
        except (pa.ArrowException, OSError) as exc:
            raise StoreError(f"{path}: a part is not readable ({exc})") from None
    else:
        try:
            frame = pq.read_table(path).to_pandas()
        except (pa.ArrowInvalid, OSError) as exc:
            raise StoreError(f"{path}: not a Parquet file ({exc})") from None
    needed = {"variant", "replicate", "winner"}
    if not needed <= set(frame.columns):
        missing = ", ".join(sorted(needed - set(frame.columns)))
        raise StoreError(f"{path}: not sweep results (missing columns: {missing})")
    ordered: pd.DataFrame = frame.sort_values(["variant", "replicate"], ignore_index=True)
    return ordered
