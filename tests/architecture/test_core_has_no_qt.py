"""The core, the foreign-format readers and the lessons must stay usable without Qt (command line, notebooks,
servers), so none of their modules may pull it in."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# Imports every module of bloomviz.core, bloomviz.formats and bloomviz.lessons in a fresh interpreter, then names
# any Qt module that came with them.
PROBE = """
import importlib, pkgutil, sys
import bloomviz.core, bloomviz.formats, bloomviz.lessons
names = []
for package in (bloomviz.core, bloomviz.formats, bloomviz.lessons):
    names += [package.__name__] + [m.name for m in pkgutil.walk_packages(package.__path__, package.__name__ + ".")]
for name in names:
    importlib.import_module(name)
qt = sorted(m for m in sys.modules if m.split(".")[0] in ("PySide6", "shiboken6", "pyqtgraph"))
print(len(names) if {"bloomviz.formats.parquet", "bloomviz.lessons.runner"} <= set(names) else 0)
print(" ".join(qt))
"""


def test_importing_every_core_module_loads_no_qt():
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT)] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p])
    result = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, env=env, capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) == 2, result.stdout
    module_count, qt_modules = int(lines[0]), lines[1].split()
    # the walk found the core's modules, not just the package (a broken walk would pass vacuously)
    assert module_count > 5, f"only {module_count} core modules were imported"
    assert qt_modules == [], f"importing bloomviz.core/formats loaded Qt: {', '.join(qt_modules)}"
