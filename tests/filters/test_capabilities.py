"""Capabilities are declared, not probed (issue 22 item 2).

Every registered filter class answers ``capabilities`` with a ``Capabilities`` whose flags match what the class
has; and no module outside ``bloomviz/filters/`` asks ``hasattr``/``getattr`` for a member of a filter, of an
operation's result or of the window model's ``Numbers`` of it: it reads the declaration instead (the scan is of the
syntax tree, so a docstring does not count).
"""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import pytest

from bloomviz.filters import capabilities
from bloomviz.filters.capabilities import Capabilities
from bloomviz.filters.counting import CountingInsertion, CountingLookup, Removal
from bloomviz.filters.registry import VARIANTS, make_filter
from bloomviz.filters.scalable import ScalableLookup, StageInsertion
from bloomviz.filters.standard import Insertion, Lookup
from bloomviz.workbench.records import Numbers

ROOT = Path(__file__).resolve().parents[2] / "bloomviz"
# lab/ runs a student's own filter class, which declares nothing: asking it what it has is the point there
EXEMPT = ("filters/", "lab/")
SMALL = {"standard": dict(m=256, k=3), "counting": dict(m=256, k=3), "partitioned": dict(m=256, k=4),
         "blocked": dict(m=1024, k=3), "scalable": dict(initial_capacity=10, p=0.01)}


def _filter(vid):
    return make_filter(vid, **SMALL[vid])


@pytest.mark.parametrize("vid", list(VARIANTS))
def test_every_registered_class_declares_what_it_can_do_and_the_declaration_is_true(vid):
    cls = VARIANTS[vid]
    caps = cls.capabilities
    assert isinstance(caps, Capabilities) and capabilities.of(cls) is caps
    flt = _filter(vid)
    assert caps.removable == callable(getattr(flt, "remove", None))
    assert caps.counting == hasattr(flt, "counters") == hasattr(flt, "max_counter")
    assert caps.staged == hasattr(flt, "stages")
    assert caps.plain_bits == hasattr(flt, "bits")
    assert caps.sized == ({"m", "k"} <= set(inspect.signature(cls).parameters))
    ins, look = flt.add("x"), flt.lookup("x")
    assert caps.staged == isinstance(ins, StageInsertion) == isinstance(look, ScalableLookup)
    assert caps.counting == isinstance(ins, CountingInsertion) == isinstance(look, CountingLookup)
    if caps.removable:
        assert isinstance(flt.remove("x"), Removal)
    if caps.takes_back_inserts:     # its own insert taken back: the filter equal to one that never had it
        before = flt.copy()
        capabilities.take_back(flt, flt.add("y"))
        assert flt == before
    values = capabilities.grid_values(flt)
    assert values.shape == (flt.m,) and values.max() <= capabilities.max_value(flt)


def _member_names() -> frozenset[str]:
    names = set()
    for cls in (*VARIANTS.values(), Insertion, Lookup, CountingInsertion, CountingLookup, Removal,
                StageInsertion, ScalableLookup):
        names.update(n for n in dir(cls) if not n.startswith("__"))
        names.update(getattr(cls, "__dataclass_fields__", {}))
    # what the window's model says of the filter's kind in its numbers: ``own_theory`` (slices, blocks, stages),
    # ``single_mk`` (not scalable), ``after_removals`` (counting) are capabilities under another name
    names.update(Numbers.__dataclass_fields__)
    return frozenset(names)


# the command line's parsed options, not a filter (``getattr(args, "variant", None)``: an option some
# commands lack)
NOT_FILTERS = {"args"}


def probes(source: str, names: frozenset[str]) -> list[tuple[int, str]]:
    """(line, call) for each hasattr/getattr in ``source`` whose attribute is a filter's or a result's member."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("hasattr", "getattr")
                and len(node.args) >= 2 and isinstance(node.args[1], ast.Constant)
                and node.args[1].value in names
                and not (isinstance(node.args[0], ast.Name) and node.args[0].id in NOT_FILTERS)):
            found.append((node.lineno, ast.unparse(node)))
    return found


def test_the_scan_finds_a_probe():
    names = _member_names()
    assert probes("if hasattr(flt, 'counters'):\n    pass\nx = getattr(look, 'stage_of', None)\n", names) == [
        (1, "hasattr(flt, 'counters')"), (3, "getattr(look, 'stage_of', None)")]
    assert probes("if getattr(nums, 'own_theory', False):\n    pass\n", names) == [
        (1, "getattr(nums, 'own_theory', False)")]
    assert probes("x = getattr(exc, 'strerror', None)\ny = getattr(args, 'variant', None)\n", names) == []


def test_no_capability_probe_outside_the_filter_modules():
    names = _member_names()
    found = []
    for path in sorted(ROOT.rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        if not rel.startswith(EXEMPT):
            found += [f"{rel}:{line}: {call}" for line, call in probes(path.read_text(encoding="utf-8"), names)]
    assert not found, "read filters.capabilities instead of probing:\n" + "\n".join(found)
