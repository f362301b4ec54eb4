"""Variant behaviour lives on the variant: no code outside the filter modules compares a variant's name.

The scan reads every module of bloomviz/ (its syntax tree, so comments and docstrings do not count) and flags
a comparison (``==``, ``!=``, ``in``, ``not in``, a ``match`` case) with a variant id, or a tuple, list or set of
them, and a dict literal keyed by two or more variant ids (a switch written as a table). A name used as a value
(``make_filter("scalable", ...)``, a default ``variant="standard"``) is not a switch and passes.

Exempt: the filter modules themselves, and the files listed in ``PENDING`` with whoever is moving their switches
onto the classes. Remove an entry when its file is clean: the test then keeps it clean.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from bloomviz.filters.registry import VARIANTS

import source_tree

ROOT = Path(__file__).resolve().parents[2] / "bloomviz"
NAMES = frozenset(VARIANTS)
OWN = ("filters/",)   # where a variant may speak of itself by name

# file (relative to bloomviz/) -> who moves its switches onto the variant classes
PENDING = {
}


def _is_name(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and node.value in NAMES


def _holds_name(node: ast.AST) -> bool:
    if _is_name(node):
        return True
    return isinstance(node, (ast.Tuple, ast.List, ast.Set)) and any(_is_name(e) for e in node.elts)


def switches(source: str) -> list[tuple[int, str]]:
    """(line, what) for every comparison with a variant id and every table keyed by them in ``source``."""
    found = []
    for node in ast.walk(source_tree.parse(source)):
        if isinstance(node, ast.Compare) and any(_holds_name(n) for n in (node.left, *node.comparators)):
            found.append((node.lineno, ast.unparse(node)))
        elif isinstance(node, ast.Dict) and sum(_is_name(key) for key in node.keys if key is not None) >= 2:
            found.append((node.lineno, "a dict keyed by variant ids"))
        elif isinstance(node, ast.MatchValue) and _is_name(node.value):
            found.append((node.lineno, f"case {ast.unparse(node.value)}"))
    return found


def _modules():
    for path in sorted(ROOT.rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        if not rel.startswith(OWN):
            yield rel, path


def test_no_variant_name_is_compared_outside_the_filter_modules():
    offences = [f"bloomviz/{rel}:{line}: {what}"
                for rel, path in _modules() if rel not in PENDING
                for line, what in switches(path.read_text(encoding="utf-8"))]
    assert not offences, "compare no variant names; ask the variant's class:\n" + "\n".join(offences)


@pytest.mark.parametrize("source, count", [
    ('if variant == "scalable": pass', 1),
    ('ok = flt.variant != "standard"', 1),
    ('ok = v in ("standard", "counting")', 1),
    ('words = {"counting": 1, "blocked": 2}.get(v)', 1),
    ('match v:\n    case "partitioned": pass', 1),
    ('flt = make_filter("scalable", p=0.1)\ndef f(variant="standard"): pass', 0),
    ('# if variant == "scalable"\n"""variant == \'blocked\'"""', 0),
])
def test_the_scan_finds_switches_and_only_switches(source, count):
    assert len(switches(source)) == count


def test_pending_files_exist_and_still_hold_a_switch():
    # an entry whose file was cleaned (or moved) should go, so the file is guarded from then on
    for rel in PENDING:
        path = ROOT / rel
        if path.exists():
            assert switches(path.read_text(encoding="utf-8")), f"bloomviz/{rel} is clean: remove it from PENDING"
