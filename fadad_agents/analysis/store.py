"""Sweep results on disk: a directory of Parquet part files that a killed sweep resumes.

``results.parquet/`` holds

* ``_sweep.json`` - the manifest: what was swept (scenario hash, seed, grid, batch size,
  runs), so a resume with different arguments is refused instead of mixing results;
* ``part-v0000-000000000-000000100.parquet`` - replicates 0..99 of variant 0, one file per
  finished batch, written to a dot-file and renamed (atomic), so a part is there whole or
  not at all. A resumed sweep plays only the replicates no part holds: nothing is lost and
  nothing counted twice.

``pandas.read_parquet("results.parquet")`` reads the directory as one table (pyarrow skips
the ``_`` and ``.`` files); :func:`read_results` also sorts it by variant and replicate.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import IO, Any

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from fadad_agents.analysis.replicates import SHIP_FIELDS, SIDE_FIELDS

__all__ = [
    "Manifest",
    "ResultStore",
    "StoreError",
    "grid_column_type",
    "read_results",
    "result_schema",
]

MANIFEST = "_sweep.json"
LOCK = ".lock"
_PART = re.compile(r"part-v(\d+)-(\d+)-(\d+)\.parquet")


class StoreError(ValueError):
    """A results directory that cannot be read or does not belong to this sweep."""


@dataclass(frozen=True, slots=True)
class Manifest:
    """What a results directory holds (``_sweep.json``).

    Attributes:
        scenario: scenario name.
        digest: SHA-256 of the variants' scenario texts (same battles or not).
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
        """Parse ``_sweep.json``."""
        data = json.loads(text)
        data["labels"] = tuple(data["labels"])
        data["sides"] = tuple(data["sides"])
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


def result_schema(
    grid: Sequence[tuple[str, pa.DataType]], sides: Sequence[str], ships: Sequence[str] = ()
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
    return pa.schema(fields)


def _part_name(variant: int, start: int, stop: int) -> str:
    return f"part-v{variant:04d}-{start:09d}-{stop:09d}.parquet"


class ResultStore:
    """The part files of one sweep in directory ``path``."""

    def __init__(self, path: str | Path, manifest: Manifest, schema: pa.Schema) -> None:
        self.path = Path(path)
        self.manifest = manifest
        self.schema = schema
        self._lock: IO[str] | None = None

    def open(self) -> None:
        """Create the directory, or check an existing one belongs to this sweep; hold its
        lock until :meth:`close` (the kernel drops it if the process dies).

        Raises:
            StoreError: ``path`` is a file, holds another sweep's results, or another
                sweep is writing to it.
        """
        if self.path.exists() and not self.path.is_dir():
            raise StoreError(f"{self.path}: exists and is not a sweep results directory")
        self.path.mkdir(parents=True, exist_ok=True)
        self._take_lock()
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
            old = Manifest.from_json(manifest_path.read_text(encoding="utf-8"))
            why = old.mismatch(self.manifest)
            if why is not None:
                raise StoreError(
                    f"{self.path}: holds another sweep's results ({why}); resume with the "
                    "same scenario, seed, grid and batch size, or choose another --out"
                )
        elif any(p.name != LOCK for p in self.path.iterdir()):
            raise StoreError(f"{self.path}: directory is not empty and has no {MANIFEST}")
        for stale in self.path.glob(".part-*"):
            stale.unlink()  # a part being written when the sweep was killed
        manifest_path.write_text(self.manifest.to_json() + "\n", encoding="utf-8")

    def parts(self) -> list[tuple[int, int, int]]:
        """``(variant, start, stop)`` of every finished part, sorted."""
        found = []
        for entry in self.path.iterdir():
            match = _PART.fullmatch(entry.name)
            if match:
                found.append((int(match[1]), int(match[2]), int(match[3])))
        return sorted(found)

    def read_part(self, variant: int, start: int, stop: int) -> pa.Table:
        """The rows of one part."""
        return pq.read_table(self.path / _part_name(variant, start, stop), schema=self.schema)

    def write_part(self, variant: int, start: int, stop: int, table: pa.Table) -> None:
        """Write one finished batch atomically (temporary dot-file, then rename)."""
        name = _part_name(variant, start, stop)
        tmp = self.path / f".{name}.tmp"
        pq.write_table(table, tmp)
        os.replace(tmp, self.path / name)

    def drop_parts(self, parts: Iterable[tuple[int, int, int]]) -> None:
        """Delete parts (batches past an adaptive stop)."""
        for variant, start, stop in parts:
            (self.path / _part_name(variant, start, stop)).unlink(missing_ok=True)


def read_results(path: str | Path) -> pd.DataFrame:
    """The results of a sweep directory (or one Parquet file), sorted by variant, replicate.

    Raises:
        StoreError: no such file or directory, or no results in it.
    """
    path = Path(path)
    if not path.exists():
        raise StoreError(f"{path}: no such file or directory")
    if path.is_dir():
        files = sorted(p for p in path.iterdir() if _PART.fullmatch(p.name))
        if not files:
            raise StoreError(f"{path}: holds no result parts (part-*.parquet)")
        frame = pd.concat([pq.read_table(f).to_pandas() for f in files], ignore_index=True)
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
