"""Every number a person types is read by ``theory.units`` (one whole-number reader, one rate reader: 1,000, 1e3,
10^6 and 1_000 everywhere, the rest refused with one message; issue 22). The scan reads each module's syntax tree
for a reader of its own: ``int``/``float`` of a widget's text (directly, or through a name assigned from it in the
same function), or thousands separators stripped by hand (``.replace(",", "")``), which is how the Compare view's
p, the foreign filter's m and k and the engine preset's n each read numbers their own way (the preset refused the
"1e3" the calculator beside it takes for the same n).
"""

from __future__ import annotations

import ast

import source_tree
from source_tree import ROOT

HOME = "theory/units.py"
# (file, the reader) -> why it is not units' yet (remove an entry when it is gone: the test then keeps it gone)
PENDING: dict[tuple[str, str], str] = {}
TEXT_CALLS = ("text", "toPlainText", "currentText")


def _from_text(node: ast.AST, typed: set[str]) -> bool:
    return any((isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in TEXT_CALLS
                and not n.args) or (isinstance(n, ast.Name) and n.id in typed) for n in ast.walk(node))


def _strips_separators(node: ast.AST) -> bool:
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "replace"
            and len(node.args) == 2 and all(isinstance(a, ast.Constant) for a in node.args)
            and node.args[0].value in (",", "_") and node.args[1].value == "")


def own_readers(source: str) -> list[tuple[int, str]]:
    found = set()
    tree = source_tree.parse(source)     # (read only: the trees are shared between the scans)
    for node in ast.walk(tree):
        if _strips_separators(node):
            found.add((node.lineno, ast.unparse(node)))
    for fn in ast.walk(tree):
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        typed: set[str] = set()
        for node in ast.walk(fn):     # names holding a widget's text (in order of the walk: enough here)
            if isinstance(node, ast.Assign) and _from_text(node.value, typed):
                typed.update(t.id for t in node.targets if isinstance(t, ast.Name))
        for node in ast.walk(fn):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("int", "float") \
                    and node.args and _from_text(node.args[0], typed):
                found.add((node.lineno, ast.unparse(node)))
    return sorted(found)


def test_the_scan_finds_a_reader_of_its_own():
    source = ('def design(self):\n    text = self.p.text().strip()\n    return float(text)\n'
              'def m(edit):\n    return int(edit.text().replace(",", ""))\n'
              'def fine(self):\n    return int(self.spin.value()), units.parse_whole(self.n.text(), "n")\n')
    assert own_readers(source) == [(3, "float(text)"), (5, "edit.text().replace(',', '')"),
                                   (5, "int(edit.text().replace(',', ''))")]


def test_no_number_reader_outside_units():
    found = []
    for name, path in source_tree.modules().items():
        rel = path.relative_to(ROOT).as_posix()
        if rel != HOME:
            found += [f"{rel}:{line}: {what}" for line, what in own_readers(path.read_text(encoding="utf-8"))
                      if (rel, what) not in PENDING]
    assert not found, "read typed numbers with theory.units (parse_whole, parse_rate):\n" + "\n".join(found)


def test_pending_readers_are_still_there():
    for rel, what in PENDING:
        held = [w for _, w in own_readers((ROOT / rel).read_text(encoding="utf-8"))]
        assert what in held, f"bloomviz/{rel} no longer holds {what}: remove it from PENDING"
