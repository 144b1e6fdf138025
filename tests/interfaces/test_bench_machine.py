"""``make bench`` says what read its figures: the interpreter, the build flags that speed it
up as its configuration records them, and the processor (``harness.machine_note``)."""

from __future__ import annotations

import platform
import sysconfig

import pytest

from benchmarks import harness


def test_the_note_names_this_interpreter_and_its_recorded_build() -> None:
    note = harness.machine_note()
    assert note.startswith(f"{platform.python_implementation()} {platform.python_version()} (")
    flags = (
        f"{sysconfig.get_config_var('CONFIG_ARGS')} {sysconfig.get_config_var('PY_CFLAGS_NODIST')}"
    )
    recorded = "--enable-optimizations" in flags or "-flto" in flags
    assert ("(no PGO or LTO recorded)" in note) is not recorded


@pytest.mark.parametrize(
    ("config_args", "cflags", "build"),
    [
        ("'--enable-optimizations' '--with-lto'", "-flto -g", "PGO and LTO recorded"),
        ("'--enable-optimizations'", "-g", "PGO recorded"),
        ("'--enable-shared'", "-g", "no PGO or LTO recorded"),
        (None, None, "no PGO or LTO recorded"),
    ],
)
def test_the_build_is_read_from_the_configuration(
    monkeypatch: pytest.MonkeyPatch, config_args: str | None, cflags: str | None, build: str
) -> None:
    values = {"CONFIG_ARGS": config_args, "PY_CFLAGS_NODIST": cflags}
    monkeypatch.setattr(sysconfig, "get_config_var", values.get)
    assert f"({build}) on " in harness.machine_note()
