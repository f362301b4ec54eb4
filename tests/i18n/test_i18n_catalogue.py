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


def marked_literals() -> list[tuple[str, int, str]]:
    found = []
    for path in sorted(ROOT.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("tr", "ntr", "Msg") \
                    and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str) \
                    and not re.fullmatch(r"\{\w+\}", node.args[0].value):
                found.append((str(path.relative_to(ROOT.parent)), node.lineno, node.args[0].value))
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
