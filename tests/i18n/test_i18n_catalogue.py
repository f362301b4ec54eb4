"""Every string the code marks for translation (a literal first argument of ``tr`` or ``ntr``, or a declared
message's template, ``Msg("...")``, translated when shown) has an entry in the Croatian catalogue, so a word added
to the window cannot fall back to English under hr unseen. A template that is one field and no words
(``Msg("{problem}")``) passes words made elsewhere through and has nothing to translate."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from bloomviz.i18n import catalogue

ROOT = Path(__file__).resolve().parents[2] / "bloomviz"


def _literal(node) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def marked_literals(contexts: bool = False) -> list[tuple]:
    """(file, line, text) of each marked string; with ``contexts``, (file, line, (context, text)) of each string
    said in a context (``ptr("job", "items")``)."""
    found = []
    for path in sorted(ROOT.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
                continue
            where = (str(path.relative_to(ROOT.parent)), node.lineno)
            if contexts and node.func.id == "ptr" and len(node.args) == 2 and _literal(node.args[1]) is not None:
                found.append((*where, (_literal(node.args[0]), _literal(node.args[1]))))
            elif not contexts and node.func.id in ("tr", "ntr", "Msg") and node.args \
                    and _literal(node.args[0]) is not None and not re.fullmatch(r"\{\w+\}", node.args[0].value):
                found.append((*where, node.args[0].value))
    return found


def test_every_marked_string_has_a_croatian_entry():
    po = ROOT / "i18n" / "hr.po"
    entries = {e.msgid: e for e in catalogue.parse_po(po.read_text(encoding="utf-8"), po.name)}
    marked = marked_literals()
    assert len(marked) > 300      # the scan reads the window's words
    missing = [(where, line, text[:70]) for where, line, text in marked if text and text not in entries]
    assert not missing, f"add these to bloomviz/i18n/hr.po: {missing}"
    untranslated = [text[:70] for _w, _l, text in marked if text and not any(entries[text].msgstr.values())]
    assert not untranslated, untranslated


def test_every_string_said_in_a_context_has_a_croatian_entry_in_that_context():
    """A job's labels ("items", "lines of {name}") are Croatian count nouns (elemenata, redaka iz …): their entries
    carry the context "job", apart from the same English word elsewhere (a column's "items": elementi)."""
    po = ROOT / "i18n" / "hr.po"
    entries = {(e.msgctxt, e.msgid): e for e in catalogue.parse_po(po.read_text(encoding="utf-8"), po.name)}
    marked = marked_literals(contexts=True)
    assert len(marked) >= 3 and all(key[0] for _w, _l, key in marked)
    missing = [(where, line, key) for where, line, key in marked if key not in entries or not entries[key].translated]
    assert not missing, f"add these to bloomviz/i18n/hr.po (with their msgctxt): {missing}"
