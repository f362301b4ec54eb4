"""The rule of the house: dependencies point down.

Each package of bloomviz/ has a rank; a module may import its own package or a package of lower rank, never
one of the same rank or higher. Every import counts, function-level ones too (they hid a cycle once). The
Qt-free packages load no Qt (``test_core_has_no_qt`` and ``test_workbench_model`` check it at run time).
"""

from __future__ import annotations

import ast
from pathlib import Path

import source_tree

ROOT = Path(__file__).resolve().parents[2] / "bloomviz"

RANK = {
    "theory": 0, "disk": 0,        # numbers in, numbers out; files opened and saved safely
    "vocabulary": 0,               # the verdicts and highlight kinds every layer shares
    "unique_ints": 0,              # np.unique for int arrays without numpy.ma (numpy only)
    "small_pages": 0,              # large arrays on 4 KiB pages (numpy and mmap only)
    "palette": 0,                  # colours of the pictures drawn without Qt (notebook image, lab report)
    "i18n": 0,                     # the window's words in the user's language (gettext, standard library only)
    "items": 1,                    # item -> bytes, item sources
    "hashing": 2,                  # bytes -> positions
    "filters": 3,                  # the filters and their variants
    "measure": 4, "files": 4, "explain": 4,
    "scenarios": 5, "formats": 5, "studies": 5, "workbench": 5,
    "lab": 5,                      # a student's own filter against theory
    "lessons": 6,
    "notebook": 6,                 # the notebook widget over the workbench (anywidget, no Qt)
    "gui": 7,                      # Qt
    "commands": 8, "desktop_entry": 8,
    "cli": 9, "core": 9,           # the command line; the public library facade
    "examples": 10,                # runnable examples over the whole house (each is also a test)
    "__init__": 10, "__main__": 10, "data": 0,
    "__version__": 0,              # ``from bloomviz import __version__``: a literal, not a layer
}


def package_of(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def imports(path: Path) -> list[tuple[int, str]]:
    found = []
    for node in ast.walk(source_tree.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("bloomviz."):
            found.append((node.lineno, node.module))
        elif isinstance(node, ast.ImportFrom) and node.module == "bloomviz":
            found += [(node.lineno, f"bloomviz.{a.name}") for a in node.names]
        elif isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names if a.name.startswith("bloomviz.")]
    return found


def test_every_package_has_a_rank():
    packages = {p.stem if p.is_file() else p.name for p in ROOT.iterdir() if p.name != "__pycache__"
                and
                ((p.is_dir() and (p / "__init__.py").exists()) or p.suffix == ".py")}
    assert packages <= set(RANK), f"give these a rank: {sorted(packages - set(RANK))}"


def test_dependencies_point_down():
    offences = []
    for path in sorted(ROOT.rglob("*.py")):
        rel = path.relative_to(ROOT.parent).with_suffix("")
        here = package_of(".".join(rel.parts))
        for line, module in imports(path):
            there = package_of(module)
            if there != here and RANK[there] >= RANK[here]:
                offences.append(f"{rel}.py:{line}: {here} (rank {RANK[here]}) imports {module} "
                                f"(rank {RANK[there]})")
    assert not offences, "imports must point to lower layers:\n" + "\n".join(offences)
