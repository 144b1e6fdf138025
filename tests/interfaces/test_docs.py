"""The documentation site builds with no warning, its links resolve, its examples run."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from typer.testing import CliRunner

from fadad_agents.cli import app
from fadad_agents.reference import option_docs

ROOT = Path(__file__).parents[2]
DOCS = ROOT / "docs"
_POLICY_NAMES = "from fadad_agents.reference import policy_docs as p; print(*(r.name for r in p()))"
FENCE = re.compile(r"^```(\w+)\n(.*?)^```", re.MULTILINE | re.DOTALL)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("site")
    proc = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "WARNING" not in proc.stderr, proc.stderr[-3000:]
    return out


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if found.get("id"):
            self.ids.add(str(found["id"]))
        for key in ("href", "src"):
            if found.get(key):
                self.links.append(str(found[key]))


def _parse(page: Path) -> _Links:
    parser = _Links()
    parser.feed(page.read_text(encoding="utf-8"))
    return parser


def test_the_site_builds_in_strict_mode(site: Path) -> None:
    """`mkdocs build --strict` succeeds: every page in the nav, every Markdown link and
    anchor resolved (a warning would fail the build)."""
    assert (site / "index.html").is_file()
    assert (site / "reference" / "options" / "index.html").is_file()


def test_every_link_in_the_built_site_resolves(site: Path) -> None:
    """Every relative link of every page points at a file of the site, and at an id on
    that page when it names one."""
    broken = []
    # 404.html links from the server root, which only a deployed site has
    pages = {page: _parse(page) for page in site.rglob("*.html") if page.name != "404.html"}
    for page, parsed in pages.items():
        for link in parsed.links:
            parts = urlsplit(link)
            if parts.scheme or link.startswith(("//", "mailto:")):
                continue
            target = (page.parent / unquote(parts.path)).resolve() if parts.path else page
            if target.is_dir():
                target = target / "index.html"
            if not target.is_file():
                broken.append(f"{page.relative_to(site)}: {link}")
            elif parts.fragment and target in pages and parts.fragment not in pages[target].ids:
                broken.append(f"{page.relative_to(site)}: {link} (no such anchor)")
    assert broken == []


def test_generated_pages_list_every_option_and_policy(site: Path) -> None:
    """The options and policies pages are generated from the registries: every key and
    every policy name is on them."""
    options = (site / "reference" / "options" / "index.html").read_text(encoding="utf-8")
    for row in option_docs():
        assert f"<code>{row.key}</code>" in options, row.key
    policies = (site / "reference" / "policies" / "index.html").read_text(encoding="utf-8")
    # Other tests register policies of their own in this process: ask a fresh one.
    names = subprocess.run(
        [sys.executable, "-c", _POLICY_NAMES], capture_output=True, text=True, check=True
    ).stdout.split()
    assert len(names) > 50
    for name in names:
        assert f"<code>{name}</code>" in policies, name


def _examples() -> list[tuple[str, str, str]]:
    found = []
    for page in sorted(DOCS.rglob("*.md")):
        for i, match in enumerate(FENCE.finditer(page.read_text(encoding="utf-8"))):
            if match.group(1) in ("python", "console"):
                found.append((f"{page.relative_to(DOCS)}#{i}", match.group(1), match.group(2)))
    return found


@pytest.mark.parametrize(("where", "kind", "code"), _examples(), ids=[e[0] for e in _examples()])
def test_every_example_in_the_docs_runs(
    where: str, kind: str, code: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Python examples run as written; each `$ fadad ...` line exits 0, or, when the
    page shows an error line after it, prints that line and exits 2."""
    monkeypatch.chdir(ROOT)
    if kind == "python":
        exec(compile(code, where, "exec"), {"__name__": "__docs__"})
        return
    lines = code.splitlines()
    for i, line in enumerate(lines):
        if not line.startswith("$ fadad "):
            continue
        shown = lines[i + 1] if i + 1 < len(lines) and not lines[i + 1].startswith("$") else ""
        result = CliRunner().invoke(app, shlex.split(line[len("$ fadad ") :]))
        if shown.startswith("fadad ") and ": " in shown:
            assert result.exit_code == 2, (line, result.output)
            assert shown in result.output
        else:
            assert result.exit_code == 0, (line, result.output[-2000:])
            assert shown in result.output
