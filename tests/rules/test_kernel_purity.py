"""The rules kernel loads no simulation or data-frame framework."""

import subprocess
import sys


def test_import_rules_loads_no_framework():
    """`import fadad_agents.rules` (every module) must not import mesa, simpy or pandas."""
    code = (
        "import pkgutil, importlib, sys, fadad_agents.rules as r\n"
        "for m in pkgutil.walk_packages(r.__path__, 'fadad_agents.rules.'):\n"
        "    importlib.import_module(m.name)\n"
        "bad = sorted(n for n in ('mesa', 'simpy', 'pandas', 'ipywidgets') if n in sys.modules)\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""
