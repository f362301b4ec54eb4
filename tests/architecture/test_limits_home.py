"""Every limit has one home (``bloomviz.theory.limits``): no module declares MAX_PROBES, MAX_K, the counter-bit
range, the block-size range, the item size or a text box's size again, nor writes MAX_K or MAX_M out as a number
(``setRange(1, 64)``, ``k > 64``, ``2 ** 34``: nine modules did, after the names had one home), and a session saved
with more probes than the window measures with opens saying so."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

import bloomviz
import source_tree
from bloomviz.theory import limits

PACKAGE = Path(bloomviz.__file__).parent
# a foreign format's k is one byte in the file (Guava and others): what a reader accepts, not a filter's limit
OTHER_MEANING = {"formats/common.py": "MAX_K"}


def test_limits_are_declared_only_in_their_home():
    declared = re.compile(r"^(\w*MAX_PROBES|MAX_K|MAX_M|MAX_N|COUNTER_BITS\w*|MAX_ITEM_BYTES|LESSON_MAX_M|\w*GROWING_MAX_M"
                          r"|(?:MIN|MAX)_BLOCK_BITS|\w*(?:BOX|LINE|PARAGRAPH)\w*_CHARS)\s*=\s*[\d(]", re.M)
    found = []
    for path in PACKAGE.rglob("*.py"):
        rel = path.relative_to(PACKAGE).as_posix()
        for match in declared.finditer(path.read_text(encoding="utf-8")):
            if rel != "theory/limits.py" and OTHER_MEANING.get(rel) != match.group(1):
                found.append(f"{rel}: {match.group(0)}")
    assert not found


def _names_k(node: ast.AST) -> bool:
    return any((isinstance(n, ast.Name) and (n.id == "k" or n.id.startswith("k_")))
               or (isinstance(n, ast.Attribute) and (n.attr == "k" or n.attr.startswith("k_"))) for n in ast.walk(node))


def _constant(node: ast.AST):
    """The value of an expression made of number literals and operators (2 ** 34, 1 << 34), else None."""
    if not all(isinstance(n, (ast.Constant, ast.BinOp, ast.UnaryOp, ast.operator, ast.unaryop)) for n in ast.walk(node)):
        return None
    try:
        return eval(compile(ast.Expression(node), "<limit>", "eval"), {"__builtins__": {}})
    except Exception:
        return None


def written_out(source: str) -> list[tuple[int, str]]:
    """(line, what) where ``source`` writes a home limit as a number: MAX_M's value anywhere, and MAX_K's as a k
    range (``f(…, 1, 64, …)``), beside a k in a comparison, or in a min/max with a k."""
    found = set()
    for node in ast.walk(source_tree.parse(source)):     # (read only: the trees are shared)
        if isinstance(node, (ast.BinOp, ast.Constant)) and _constant(node) == limits.MAX_M:
            found.add((node.lineno, f"MAX_M: {ast.unparse(node)}"))
        elif isinstance(node, ast.Compare):
            parts = [node.left, *node.comparators]
            if any(_constant(p) == limits.MAX_K for p in parts) and any(_names_k(p) for p in parts):
                found.add((node.lineno, f"MAX_K: {ast.unparse(node)}"))
        elif isinstance(node, ast.Call):
            values = [_constant(a) for a in node.args]
            in_range = any(values[i:i + 2] == [1, limits.MAX_K] for i in range(len(values) - 1))
            clamp = getattr(node.func, "id", None) in ("min", "max") and limits.MAX_K in values \
                and any(_names_k(a) for a in node.args)
            if in_range or clamp:
                found.add((node.lineno, f"MAX_K: {ast.unparse(node)}"))
    return sorted(found)


def test_the_scan_finds_a_limit_written_out():
    source = ("box.setRange(1, 64)\nif k > 64: pass\nk = min(k, 64)\nok = m <= 1 << 34\n"
              "row = bits[1:64]\nwidth = 64\nif k > MAX_K: pass\n")
    assert [line for line, _ in written_out(source)] == [1, 2, 3, 4]


def test_no_module_writes_a_home_limit_out_as_a_number():
    found = [f"{path.relative_to(PACKAGE).as_posix()}:{line}: {what}" for path in sorted(PACKAGE.rglob("*.py"))
             if path.relative_to(PACKAGE).as_posix() != "theory/limits.py"
             for line, what in written_out(path.read_text(encoding="utf-8"))]
    assert not found, "import the limit from bloomviz.theory.limits:\n" + "\n".join(found)


def test_every_reader_of_a_limit_uses_the_home():
    from bloomviz.filters.params import COUNTER_BITS, K
    from bloomviz.files import session
    from bloomviz.lessons import spec as lesson_spec
    from bloomviz.workbench import limits as window
    assert (COUNTER_BITS.low, COUNTER_BITS.high) == limits.COUNTER_BITS and K.high == limits.MAX_K
    assert window.MAX_PROBES == limits.WINDOW_MAX_PROBES and window.MAX_K == limits.MAX_K
    assert session.MAX_PROBES == limits.MAX_PROBES and lesson_spec.MAX_PROBES == limits.LESSON_MAX_PROBES
    from bloomviz.filters import common
    from bloomviz.filters.params import BLOCK_BITS
    from bloomviz.lessons import budget
    assert (BLOCK_BITS.low, BLOCK_BITS.high) == (common.MIN_BLOCK_BITS, common.MAX_BLOCK_BITS) == limits.BLOCK_BITS
    assert budget.GROWING_MAX_M == limits.LESSON_GROWING_MAX_M and lesson_spec.LESSON_MAX_M == limits.LESSON_MAX_M


def test_a_session_with_more_probes_than_the_window_opens_and_says_so(qtbot, tmp_path):
    pytest.importorskip("PySide6")
    from bloomviz.gui.files import file_dialogs, session_io
    from window_helpers import FakeDialogs, new_window
    w = new_window(qtbot, tmp_path)
    w.dialogs = FakeDialogs(unsaved_answer=file_dialogs.DISCARD)
    w.files = session_io.install(w, w.dialogs)
    w.wb.insert("apple")
    path = tmp_path / "many-probes.bloomviz"
    w.dialogs.save_paths.append(str(path))
    assert w.files.save_as()
    data = json.loads(path.read_text(encoding="utf-8"))
    data["measurement"]["probes"] = 500_000
    path.write_text(json.dumps(data), encoding="utf-8")
    messages = []
    w.statusBar().messageChanged.connect(messages.append)
    assert w.files.open_path(str(path), ask=False)
    assert len(w.wb.probes) == limits.WINDOW_MAX_PROBES
    assert any("measured with 500,000 probes" in m and f"at most {limits.WINDOW_MAX_PROBES:,}" in m for m in messages)
