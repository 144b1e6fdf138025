"""numba's cache of the package's compiled code follows every module it was compiled from
(``agents/core/field/caching.py``): a checkout that changes only a module a compiled
function imports from compiles it again, where numba alone would reuse the old code."""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
from pathlib import Path

from fadad_agents.agents.core.field import caching

ROOT = Path(__file__).resolve().parents[3]
PACKAGE = ROOT / "fadad_agents"

CONSTANT = "SIZE = {}\n"
FOLLOWED = """from fadad_agents.agents.core.field.caching import njit
from fadad_agents.probe_constant import SIZE


@njit(cache=True)
def size() -> int:
    return SIZE
"""
NUMBAS = FOLLOWED.replace("fadad_agents.agents.core.field.caching", "numba")
ASK = """
import probe_numbas
from fadad_agents import probe_followed
print(probe_followed.size(), probe_numbas.size())
"""


def test_a_compiled_function_is_compiled_again_when_a_module_it_imports_changes(
    tmp_path: Path,
) -> None:
    """In a copy of the package (its cache beside its modules, as in a checkout), two
    compiled functions read a constant of one of its modules: one a module of the
    package, one a module beside it (cached as numba caches it). Once both are cached,
    the constant's module changes and nothing else: the first reads the new value, the
    second, cached by numba alone, still the old one (what this guards against)."""
    copy = tmp_path / "fadad_agents"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    (copy / "probe_followed.py").write_text(FOLLOWED, encoding="utf-8")
    (tmp_path / "probe_numbas.py").write_text(NUMBAS, encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["PYTHONPATH"] = str(tmp_path)

    def ask(size: int) -> str:
        (copy / "probe_constant.py").write_text(CONSTANT.format(size), encoding="utf-8")
        command = [sys.executable, "-c", ASK]
        return subprocess.run(
            command, cwd=tmp_path, capture_output=True, text=True, check=True, env=env
        ).stdout.strip()

    assert ask(3) == "3 3"
    assert list((copy / "__pycache__").glob("probe_followed.size-*.nbi")), "nothing cached"
    assert ask(5) == "5 3"


def test_a_kernel_follows_the_modules_it_calls() -> None:
    """The compiled melee's kernel is stamped with the swing, a FUDGE hit's damage, the
    outcomes, morale and the dice it calls (modules of their own) and the codes it reads,
    not with modules it never imports."""
    kernel = PACKAGE / "engine" / "personal" / "kernel.py"
    followed = {path.relative_to(PACKAGE).as_posix() for path in caching.package_imports(kernel)}
    assert {
        "engine/personal/swing.py",
        "engine/personal/damage.py",
        "engine/personal/codes.py",
        "engine/personal/outcomes.py",
        "engine/personal/morale.py",
        "engine/personal/twister.py",
    } <= followed
    assert "analysis/montecarlo.py" not in followed
    assert "engine/personal/melee.py" not in followed


def test_every_cached_function_is_compiled_through_the_package_njit() -> None:
    """Every module of the package with a cached compiled function takes ``njit`` from
    ``caching``, never straight from numba (whose cache follows only its own module)."""
    cached = [path for path in PACKAGE.rglob("*.py") if "cache=True" in path.read_text("utf-8")]
    assert len(cached) >= 10
    for path in cached:
        tree = ast.parse(path.read_text("utf-8"))
        sources = {
            node.module
            for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom) and any(a.name == "njit" for a in node.names)
        }
        assert sources == {"fadad_agents.agents.core.field.caching"}, path
