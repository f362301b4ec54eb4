"""The package read as source, for the tests that check its shape without importing it (import cycles, class
sizes): each module's dotted name and file, and where a ``from … import`` points, relative ones resolved."""

from __future__ import annotations

import ast
import functools
import pathlib

ROOT = pathlib.Path(__file__).resolve().parent.parent / "bloomviz"


def parse(source: str, filename: str = "<unknown>") -> ast.Module:
    """``ast.parse``, once per text in a process: about ten architecture tests each read every module of the
    package (1.1 s a pass). The tree is shared, so a caller only reads it. A file that does not parse raises
    with its name, as ``ast.parse`` does."""
    try:
        return _parsed(source)
    except SyntaxError:
        return ast.parse(source, filename)


@functools.lru_cache(maxsize=None)
def _parsed(source: str) -> ast.Module:
    return ast.parse(source)


def modules() -> dict[str, pathlib.Path]:
    """Dotted module name -> file, for every module of bloomviz (a package by its own name)."""
    out = {}
    for path in sorted(ROOT.rglob("*.py")):
        name = ".".join(path.relative_to(ROOT.parent).with_suffix("").parts)
        out[name.removesuffix(".__init__")] = path
    return out


def package_of(name: str, path: pathlib.Path) -> str:
    """The package a module's relative imports start from."""
    return name if path.name == "__init__.py" else name.rpartition(".")[0]


def import_base(node: ast.ImportFrom, package: str) -> str:
    """The absolute module a ``from … import`` names (``from .x import y`` in a.b: a.b.x)."""
    base = node.module or ""
    if node.level:
        parts = package.split(".")[:len(package.split(".")) - node.level + 1]
        base = ".".join(parts + ([base] if base else []))
    return base
