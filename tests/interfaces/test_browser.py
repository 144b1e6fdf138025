"""The dashboards served by Voila, driven in headless Debian chromium (Playwright).

Opens notebooks/02-ship-battle-dashboard.ipynb in Voila on 127.0.0.1, clicks Step and
checks that the round advances and the map is redrawn; opens
notebooks/05-table-session.ipynb, answers Snorri's decisions by clicking and types his
attack roll; each saves a screenshot to ``tests/interfaces/artifacts/`` (or
``$FADAD_SCREENSHOTS``).

Chromium comes from Debian (``apt-get install -y chromium``; ``tools/ensure-chromium``
does it in CI): ``playwright install`` cannot download browsers here. Outside CI a
machine without chromium skips this test with that advice; in CI (``CI=true``) a missing
chromium fails it.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.alone  # waits on processes with deadlines: run alone

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOK = ROOT / "notebooks" / "02-ship-battle-dashboard.ipynb"
TABLE_NOTEBOOK = ROOT / "notebooks" / "05-table-session.ipynb"
CHROMIUM = Path(os.environ.get("FADAD_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
INSTALL = "install it with `sudo apt-get install -y chromium` (or run tools/ensure-chromium)"
START_TIMEOUT_S = 90.0
UI_TIMEOUT_MS = 60_000


def _in_ci() -> bool:
    return os.environ.get("CI", "").lower() in ("1", "true", "yes")


@pytest.fixture
def chromium() -> Path:
    """The chromium binary; skips outside CI (fails in CI) when it is missing."""
    if CHROMIUM.exists():
        return CHROMIUM
    message = f"headless chromium not found at {CHROMIUM}; {INSTALL}"
    if _in_ci():
        pytest.fail(f"CI=true: {message}")
    pytest.skip(message)
    raise AssertionError("unreachable")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _voila_bin() -> str:
    local = Path(sys.executable).with_name("voila")
    return str(local) if local.exists() else (shutil.which("voila") or "voila")


def _wait_until_serving(port: int, proc: subprocess.Popen[bytes], log: Path) -> None:
    """Wait (bounded) until voila accepts connections on ``port``."""
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            pytest.fail(f"voila exited with {proc.returncode}:\n{log.read_text()[-3000:]}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=2):
                return
        except OSError:
            time.sleep(0.3)
    pytest.fail(f"voila did not listen on 127.0.0.1:{port} in {START_TIMEOUT_S:.0f} s")


@pytest.fixture
def voila_url(chromium: Path, tmp_path: Path) -> Iterator[str]:
    """Voila serving the ship dashboard notebook on a free local port (killed after)."""
    with _voila(NOTEBOOK, tmp_path) as url:
        yield url


@pytest.fixture
def table_voila_url(chromium: Path, tmp_path: Path) -> Iterator[str]:
    """Voila serving the table-session notebook on a free local port (killed after)."""
    with _voila(TABLE_NOTEBOOK, tmp_path) as url:
        yield url


@contextlib.contextmanager
def _voila(notebook: Path, tmp_path: Path) -> Iterator[str]:
    """Voila serving ``notebook`` on a free local port; stopped on the way out."""
    port = _free_port()
    log = tmp_path / "voila.log"
    cmd = [
        _voila_bin(),
        "--no-browser",
        f"--port={port}",
        "--Voila.ip=127.0.0.1",
        str(notebook.name),
    ]
    env = {**os.environ, "JUPYTER_PLATFORM_DIRS": "1"}
    with log.open("wb") as out:
        # Its own process group, so the kernel it starts is stopped with it.
        proc = subprocess.Popen(
            cmd,
            cwd=notebook.parent,
            stdout=out,
            stderr=subprocess.STDOUT,
            env=env,
            start_new_session=True,
        )
        try:
            _wait_until_serving(port, proc, log)
            yield f"http://127.0.0.1:{port}/"
        finally:
            _stop(proc)


def _stop(proc: subprocess.Popen[bytes]) -> None:
    """Stop voila and its kernel (the process group it leads): TERM, then KILL what is left."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGTERM)
    with contextlib.suppress(subprocess.TimeoutExpired):
        proc.wait(timeout=15)
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGKILL)  # a kernel that outlived voila
    with contextlib.suppress(subprocess.TimeoutExpired):
        proc.wait(timeout=15)


def _screenshot_dir() -> Path:
    folder = Path(os.environ.get("FADAD_SCREENSHOTS", ROOT / "tests" / "interfaces" / "artifacts"))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def test_step_in_voila_advances_round_and_redraws_map(chromium: Path, voila_url: str) -> None:
    """In Voila, Step shows round 1 and a redrawn map; Reset brings back round 0's map."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(chromium), args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 1100})
            page.set_default_timeout(UI_TIMEOUT_MS)
            page.goto(voila_url, timeout=UI_TIMEOUT_MS)
            page.wait_for_selector('svg.fadad-map[data-round="0"]', timeout=UI_TIMEOUT_MS)
            assert "Round 0" in page.inner_text(".fadad-round")
            before = page.inner_html(".widget-html:has(svg.fadad-map)")
            page.get_by_role("button", name="Step").click()
            page.wait_for_selector('svg.fadad-map[data-round="1"]', timeout=UI_TIMEOUT_MS)
            page.wait_for_function(
                "document.querySelector('.fadad-round').textContent.includes('Round 1')",
                timeout=UI_TIMEOUT_MS,
            )
            after = page.inner_html(".widget-html:has(svg.fadad-map)")
            assert after != before
            assert page.locator("svg.fadad-map g.ship").count() == 2
            labels = page.locator("svg.fadad-map text.name").all_text_contents()
            assert {"Saltwind", "Red Gannet"} <= set(labels)  # ships named on the map
            assert "Reavers" in (page.text_content("svg.fadad-map g.legend") or "")
            assert "Round 1 (" in page.inner_text(".fadad-log")
            shot = _screenshot_dir() / "ship-dashboard-step.png"
            page.screenshot(path=str(shot), full_page=True)
            assert shot.stat().st_size > 10_000
            page.get_by_role("button", name="Reset").click()
            page.wait_for_selector('svg.fadad-map[data-round="0"]', timeout=UI_TIMEOUT_MS)
            assert page.inner_html(".widget-html:has(svg.fadad-map)") == before
        finally:
            browser.close()


def test_table_session_in_voila_answers_by_click(chromium: Path, table_voila_url: str) -> None:
    """In Voila, the GM clicks Snorri's choices, types his attack roll and sees the swing
    it makes narrated (Great + 1 = Superb); the map labels both duellists, drawn at their
    own places in yards."""
    from playwright.sync_api import sync_playwright

    def question_says(page: Any, text: str) -> None:
        page.wait_for_function(
            "t => document.querySelector('.fadad-question').textContent.includes(t)",
            arg=text,
            timeout=UI_TIMEOUT_MS,
        )

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(chromium), args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 1100})
            page.set_default_timeout(UI_TIMEOUT_MS)
            page.goto(table_voila_url, timeout=UI_TIMEOUT_MS)
            page.wait_for_selector(".fadad-question", timeout=UI_TIMEOUT_MS)
            question_says(page, "does Snorri fight on?")
            labels = page.locator("svg.fadad-map g.marker text.name").all_text_contents()
            assert sorted(labels) == ["Brynhild", "Snorri"]
            centres = {
                (c.get_attribute("cx"), c.get_attribute("cy"))
                for c in page.locator("svg.fadad-map g.marker circle").all()
            }
            assert len(centres) == 2
            page.get_by_role("button", name="fight on").click()
            question_says(page, "whom does Snorri attack?")
            page.get_by_role("button", name="attack Brynhild (Undamaged)").click()
            question_says(page, "Snorri against Brynhild")
            page.get_by_role("button", name="attack", exact=True).click()
            question_says(page, "how does Snorri strike Brynhild")
            page.get_by_role("button", name="a plain blow").click()
            question_says(page, "how does Snorri split")
            page.get_by_role("button", name="1 attack, 1 defence").click()
            question_says(page, "Snorri rolls 4dF for attack")
            page.get_by_label("Dice").fill("+1")
            page.get_by_role("button", name="Enter").click()
            for _ in range(4):  # the swing's other dice, if any: crit effect, damage
                if "Snorri's swing" in page.inner_text(".fadad-log"):
                    break
                question_says(page, "Snorri rolls")
                page.get_by_role("button", name="Default").click()
                page.wait_for_timeout(500)
            page.wait_for_function(
                "document.querySelector('.fadad-log').textContent.includes('swing is Superb')",
                timeout=UI_TIMEOUT_MS,
            )
            shot = _screenshot_dir() / "table-session.png"
            page.screenshot(path=str(shot), full_page=True)
            assert shot.stat().st_size > 10_000
        finally:
            browser.close()
