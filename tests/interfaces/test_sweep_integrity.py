"""A results folder is trusted only as far as its records go (issue 20 point 7, 8, 12).

Every part has a record in ``_parts.jsonl`` (its replicate ids, the SHA-256 of its
bytes), written and flushed before the part is renamed into place. Resume verifies every
part and refuses, in one line naming it, a part overwritten by a copy of another, an
extra overlapping part, a flipped bit or a part without a record: the sweep of 20,000
that once counted "20313 battles" cannot happen.
"""

from __future__ import annotations

import errno
import json
import shutil
from pathlib import Path

import pandas as pd
import pytest

from fadad_agents.analysis import StoreError, read_results, sweep
from fadad_agents.analysis.store import PARTS, ResultStore

DUEL = Path(__file__).parents[2] / "scenarios" / "snorri-vs-brynhild.yaml"
RUNS, BATCH = 9, 3


@pytest.fixture
def done(tmp_path: Path) -> Path:
    """A finished results folder of 9 replicates in 3 parts."""
    out = tmp_path / "r.parquet"
    sweep(DUEL, RUNS, 5, batch_size=BATCH, out=out, progress=False)
    return out


def _parts(out: Path) -> list[Path]:
    return sorted(out.glob("part-*.parquet"))


def _resume(out: Path) -> None:
    sweep(DUEL, RUNS, 5, batch_size=BATCH, out=out, progress=False)


def test_every_part_is_recorded_with_its_replicates_and_checksum(done: Path) -> None:
    """One record per part: its name, variant, replicate range and SHA-256."""
    records = [json.loads(line) for line in (done / PARTS).read_text().splitlines()]
    assert [(r["part"], r["variant"], r["replicates"]) for r in records] == [
        (p.name, 0, [3 * i, 3 * i + 3]) for i, p in enumerate(_parts(done))
    ]
    assert all(len(r["sha256"]) == 64 for r in records)


def test_a_part_overwritten_by_a_copy_of_another_is_refused(done: Path) -> None:
    """The copy's bytes are not the part's: its checksum differs."""
    first, second, _ = _parts(done)
    shutil.copyfile(first, second)
    with pytest.raises(StoreError) as info:
        _resume(done)
    assert str(info.value) == (
        f"{second}: damaged (its checksum differs from {PARTS}; delete it to play "
        "replicates 3..5 again)"
    )
    with pytest.raises(StoreError, match="damaged"):
        read_results(done)


def test_a_flipped_bit_is_refused(done: Path) -> None:
    """One bit changed anywhere in a part is caught before its rows are read."""
    part = _parts(done)[2]
    data = bytearray(part.read_bytes())
    data[len(data) // 2] ^= 0x01
    part.write_bytes(bytes(data))
    with pytest.raises(StoreError, match=r"part-v0000-000000006-000000009\.parquet: damaged"):
        _resume(done)


def test_an_extra_overlapping_part_is_refused(done: Path) -> None:
    """A part of replicates another part holds is foreign (no record) and overlaps."""
    first = _parts(done)[0]
    shutil.copyfile(first, done / "part-v0000-000000001-000000004.parquet")
    with pytest.raises(StoreError, match=r"000000004\.parquet: not written by this sweep"):
        _resume(done)
    records = (done / PARTS).read_text()
    (done / PARTS).write_text(  # even with a forged record the replicates overlap
        records
        + json.dumps({"part": "part-v0000-000000001-000000004.parquet", "sha256": "x"})
        + "\n"
    )
    with pytest.raises(StoreError, match=r"damaged|holds replicates 1\.\.3 that"):
        _resume(done)


def test_a_part_whose_rows_are_not_its_replicates_is_refused(done: Path) -> None:
    """A record forged for a swapped part is caught by the replicate ids inside."""
    first, second, _ = _parts(done)
    shutil.copyfile(first, second)
    lines = (done / PARTS).read_text().splitlines()
    forged = json.loads(lines[1])
    forged["sha256"] = json.loads(lines[0])["sha256"]
    (done / PARTS).write_text("\n".join([*lines, json.dumps(forged)]) + "\n")
    with pytest.raises(StoreError, match="holds other replicates than its name says"):
        _resume(done)


def test_a_part_killed_between_its_record_and_its_rename_is_played_again(done: Path) -> None:
    """A record without its part (the rename never happened) only means: play it."""
    last = _parts(done)[-1]
    frame = read_results(done)
    last.rename(done / f".{last.name}.tmp")
    resumed = sweep(DUEL, RUNS, 5, batch_size=BATCH, out=done, progress=False)
    pd.testing.assert_frame_equal(resumed.frame, frame)
    assert not list(done.glob(".part-*"))


@pytest.mark.parametrize("damage", ["{}", '{"seed": 1, "extra": 2}', "labels: 5", "[1]"])
def test_a_damaged_manifest_is_one_line(done: Path, damage: str) -> None:
    """{}, an extra key, a wrong type or broken JSON: StoreError, not a traceback."""
    data = json.loads((done / "_sweep.json").read_text())
    if damage == "labels: 5":
        data["labels"] = 5
        (done / "_sweep.json").write_text(json.dumps(data))
    else:
        (done / "_sweep.json").write_text(damage)
    with pytest.raises(StoreError, match=r"_sweep\.json: damaged \(.+\); choose another --out"):
        _resume(done)


def test_someone_elses_folder_is_left_without_a_lock(tmp_path: Path) -> None:
    """Refusing a folder of other things leaves no .lock in it."""
    (tmp_path / "notes.txt").write_text("mine")
    with pytest.raises(StoreError, match="not empty"):
        sweep(DUEL, 2, out=tmp_path, progress=False)
    assert [p.name for p in tmp_path.iterdir()] == ["notes.txt"]


def test_a_finished_folder_that_cannot_be_written_is_summarised(
    done: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On read-only media a finished sweep is read without a lock; an unfinished one
    says what is missing."""
    frame = read_results(done)

    def read_only(self: ResultStore) -> None:
        raise OSError(errno.EROFS, "Read-only file system")

    monkeypatch.setattr(ResultStore, "_take_lock", read_only)
    before = sorted(p.name for p in done.iterdir())
    again = sweep(DUEL, RUNS, 5, batch_size=BATCH, out=done, progress=False)
    pd.testing.assert_frame_equal(again.frame, frame)
    assert sorted(p.name for p in done.iterdir()) == before
    with pytest.raises(StoreError, match=r"cannot be written and holds 9 of 12 replicates"):
        sweep(DUEL, 12, 5, batch_size=BATCH, out=done, progress=False)
