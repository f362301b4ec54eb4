"""Filters speak numbers, explain/ speaks words (issue 22 item 2): no text in bloomviz/filters/ beyond docstrings,
error messages and reprs. The scan reads the syntax tree: a string with a space in it that is not a docstring, a
property's doc, part of a ``raise`` or a warning, inside ``__repr__`` or a function that builds an error
message (``range_message``) is prose that belongs to a describer
(bloomviz.explain.describers, explain/param_words.py, explain/notebook_table.py).
"""

from __future__ import annotations

import ast
from pathlib import Path

FILTERS = Path(__file__).resolve().parents[2] / "bloomviz" / "filters"
# the operation's name inside the refusal that _check_compatible raises ("union (|): the filters differ in k")
ERROR_PARTS = {"union (|)", "intersection (&)"}


def prose(source: str) -> list[tuple[int, str]]:
    tree = ast.parse(source)
    quiet = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef)) and node.body \
                and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant):
            quiet.add(id(node.body[0].value))
        inside = (isinstance(node, ast.Raise)
                  or (isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "warn")
                  or (isinstance(node, ast.FunctionDef) and (node.name == "__repr__"
                                                               or node.name.endswith("_message"))))
        if inside:
            quiet.update(id(n) for n in ast.walk(node))
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "property":
            quiet.update(id(kw.value) for kw in node.keywords if kw.arg == "doc")
    return [(node.lineno, node.value) for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in quiet
            and " " in node.value.strip() and node.value not in ERROR_PARTS]


def test_the_scan_finds_a_sentence():
    source = ('"""Doc."""\ndef f():\n    raise ValueError("bad value")\n'
              'def g():\n    return "A new empty filter"\n')
    assert prose(source) == [(5, "A new empty filter")]


def test_no_prose_in_the_filter_modules():
    found = [f"{path.name}:{line}: {text[:60]!r}" for path in sorted(FILTERS.glob("*.py"))
             for line, text in prose(path.read_text(encoding="utf-8"))]
    assert not found, "words belong to explain/ (a describer):\n" + "\n".join(found)
