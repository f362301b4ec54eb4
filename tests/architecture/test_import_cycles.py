"""A static check of the import graph: no cycle anywhere in bloomviz, the window included (no exemptions),
counting imports made inside functions (which hid the experiment <-> variant registry cycle), and the
probe-seed offset written in one place."""

import ast
import pathlib
import re

import source_tree
from source_tree import ROOT

GUARDED = ("bloomviz.measure", "bloomviz.theory", "bloomviz.studies", "bloomviz.commands", "bloomviz.hashing",
           "bloomviz.filters", "bloomviz.items", "bloomviz.files", "bloomviz.disk", "bloomviz.explain",
           "bloomviz.workbench", "bloomviz.scenarios", "bloomviz.formats", "bloomviz.lessons", "bloomviz.lab")


_modules = source_tree.modules


def _graph(modules: dict[str, pathlib.Path]) -> dict[str, set[str]]:
    def resolve(target: str) -> str:
        while target and target not in modules:
            target = target.rpartition(".")[0]
        return target

    graph = {}
    for name, path in modules.items():
        package = source_tree.package_of(name, path)
        deps = set()
        for node in ast.walk(source_tree.parse(path.read_text(encoding="utf-8"))):   # every level, functions too
            if isinstance(node, ast.Import):
                deps.update(resolve(a.name) for a in node.names if a.name.startswith("bloomviz"))
            elif isinstance(node, ast.ImportFrom):
                base = source_tree.import_base(node, package)
                if base.startswith("bloomviz"):
                    deps.update(f"{base}.{a.name}" if f"{base}.{a.name}" in modules else resolve(base)
                                for a in node.names)
        deps.discard(name)
        deps.discard("")
        graph[name] = deps
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (iterative Tarjan)."""
    index, low, on_stack, stack, found, counter = {}, {}, set(), [], [], 0
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        top = stack.pop()
                        on_stack.discard(top)
                        component.append(top)
                        if top == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
            elif child not in index:
                index[child] = low[child] = counter
                counter += 1
                stack.append(child)
                on_stack.add(child)
                work.append((child, iter(sorted(graph.get(child, ())))))
            elif child in on_stack:
                low[node] = min(low[node], index[child])
    return found


def test_the_checker_finds_a_cycle_hidden_in_a_function():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _cycles(graph) == [["a", "b", "c"]]


def test_no_import_cycle_through_measurement_theory_studies_or_commands():
    graph = _graph(_modules())
    assert "bloomviz.filters.registry" in graph["bloomviz.measure.experiment"]   # the graph is read at all
    assert "bloomviz.lessons.predict" in graph["bloomviz.lessons.format"]       # the lessons' part of it too
    guarded = [c for c in _cycles(graph) if any(m.startswith(GUARDED) for m in c)]
    assert guarded == []


def test_no_import_cycle_anywhere():
    graph = _graph(_modules())
    assert "bloomviz.gui.main_window" in graph and _cycles(graph) == []


def test_the_variant_registry_imports_nothing_from_the_measurement():
    graph = _graph(_modules())
    assert not {d for d in graph["bloomviz.filters.registry"] if d.startswith("bloomviz.measure")}


def test_the_probe_seed_offset_is_written_once():
    pattern = re.compile(r"1_?000_?003")
    where = [str(p.relative_to(ROOT)) for p in ROOT.rglob("*.py") if pattern.search(p.read_text(encoding="utf-8"))]
    assert where == ["measure/streams.py"]
