"""No class is a god class spread over files: the bodies of a class and of every bloomviz class along its MRO
(mixins included) add up to at most ``LIMIT`` lines, the file limit, so that splitting a class into mixins in
other files does not pass for making it smaller (issue: compose instead of mixing in).

``OVER`` holds the classes still being composed, each at a ceiling it may not grow past; a class that gets
under the limit must leave the list (the second test), so the list only shrinks."""

from __future__ import annotations

import ast

import pytest

import source_tree

LIMIT = 450
OVER: dict[str, int] = {}


def _read_tree() -> tuple[dict[str, int], dict[str, list[str]]]:
    """Each bloomviz class's own lines and its bases that are bloomviz classes, read from the source (importing
    every module to ask inspect would compile kernels and take tens of seconds)."""
    lines, bases, imported = {}, {}, {}
    for module, path in source_tree.modules().items():
        package = source_tree.package_of(module, path)
        tree = source_tree.parse(path.read_text(encoding="utf-8"))
        names = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or node.level):
                base = source_tree.import_base(node, package)
                for alias in node.names:
                    names[alias.asname or alias.name] = f"{base}.{alias.name}"
        for node in tree.body:
            if isinstance(node, ast.ClassDef):
                names[node.name] = f"{module}.{node.name}"
        for node in tree.body:
            if isinstance(node, ast.ClassDef):
                name = f"{module}.{node.name}"
                lines[name] = node.end_lineno - node.lineno + 1
                bases[name] = [names[b.id] for b in node.bases if isinstance(b, ast.Name) and b.id in names]
        imported[module] = names
    # a base imported through a package's __init__ names the module that defines it
    def resolve(target: str) -> str | None:
        seen = set()
        while target not in lines and target not in seen:
            seen.add(target)
            module, _, attr = target.rpartition(".")
            target = imported.get(module, {}).get(attr, target)
        return target if target in lines else None
    return lines, {name: [r for r in map(resolve, bs) if r] for name, bs in bases.items()}


def _lines_along_mro(name: str, lines: dict[str, int], bases: dict[str, list[str]]) -> int:
    seen, todo = set(), [name]
    while todo:
        current = todo.pop()
        if current not in seen:
            seen.add(current)
            todo.extend(bases.get(current, []))
    return sum(lines[c] for c in seen)


@pytest.fixture(scope="module")
def sizes() -> dict[str, int]:
    lines, bases = _read_tree()
    return {name: _lines_along_mro(name, lines, bases) for name in lines}


def test_no_class_is_over_the_limit_along_its_mro(sizes):
    assert len(sizes) > 200   # every module was read
    over = {name: n for name, n in sizes.items() if n > OVER.get(name, LIMIT)}
    assert not over, f"classes over {LIMIT} lines along their MRO (or past their ceiling in OVER): {over}"


def test_the_list_of_classes_still_over_only_shrinks(sizes):
    done = [name for name in OVER if sizes.get(name, 0) <= LIMIT]
    assert not done, f"these are at or under {LIMIT} lines now (or gone): take them out of OVER: {done}"
