"""Every string literal in the package is encodable as strict UTF-8.

Python 3.13 encodes docstrings as strict UTF-8 when it compiles a module, so a lone surrogate written by a
non-raw ``"\\ud800"`` escape inside a docstring made ``import bloomviz`` fail there (3.11 and 3.12 accept it).
This test finds such a literal on any Python, before a user on 3.13 does.
"""

import ast
import pathlib

import bloomviz

import source_tree

PACKAGE = pathlib.Path(bloomviz.__file__).parent


def _docstring_nodes(tree):
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
                    and isinstance(body[0].value.value, str):
                yield body[0].value


def test_no_docstring_holds_a_lone_surrogate():
    bad = []
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = source_tree.parse(path.read_text(encoding="utf-8"), str(path))
        for node in _docstring_nodes(tree):
            try:
                node.value.encode("utf-8")
            except UnicodeEncodeError:
                bad.append(f"{path.relative_to(PACKAGE.parent)}:{node.lineno}")
    assert not bad, f"docstrings Python 3.13 cannot compile (write the escape in a raw string): {bad}"


def test_the_check_finds_a_lone_surrogate_in_a_docstring(tmp_path):
    module = tmp_path / "m.py"
    module.write_text('"""a \\ud800 b"""\n', encoding="utf-8")
    tree = source_tree.parse(module.read_text(encoding="utf-8"))
    nodes = list(_docstring_nodes(tree))
    assert len(nodes) == 1
    try:
        nodes[0].value.encode("utf-8")
    except UnicodeEncodeError:
        pass
    else:
        raise AssertionError("the probe docstring should not encode")
