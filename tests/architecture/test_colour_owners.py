"""One owner for colours (issue 22 item 7): every colour literal of bloomviz/ is in a palette module, and the
dark theme names a colour for every verdict.

A colour literal is a ``#rgb``/``#rrggbb`` string (docstrings aside), a CSS colour name after ``color``,
``fill``, ``stroke`` or ``background``, an RGB(A) tuple of integers given to a colour argument, or integers
given to ``QColor``/``mkColor``/``mkBrush``/``mkPen``. A widget that needs the error red asks
``theme.colour("error")``, which also follows the theme.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from bloomviz.gui import theme
from bloomviz.vocabulary import Verdict

import source_tree

ROOT = Path(__file__).resolve().parents[2] / "bloomviz"
PALETTES = ("gui/theme.py", "gui/widgets/grid/style.py", "gui/filter_tab/plot/style.py", "palette.py")
HEX = re.compile(r"(?<!issue )(?<!PR )#(?:[0-9A-Fa-f]{6}|[0-9A-Fa-f]{3})\b")   # "issue #212" is no colour
NAMED = re.compile(r"\b(?:color|fill|stroke|background)\s*[:=]\s*['\"]?(?:white|black|red|green|blue|gray|grey|"
                   r"orange|yellow|purple|pink|brown)\b", re.IGNORECASE)
COLOUR_CALLS = {"QColor", "mkColor", "mkBrush", "mkPen", "fromRgb"}
COLOUR_KEYWORDS = {"color", "colour", "brush", "pen", "fill", "labelTextColor", "symbol_brush"}


def _ints(nodes) -> bool:
    return len(nodes) >= 3 and all(isinstance(n, ast.Constant) and type(n.value) is int for n in nodes[:3])


def literals(source: str) -> list[tuple[int, str]]:
    tree = source_tree.parse(source)
    docs = {id(node.body[0].value) for node in ast.walk(tree)
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body
            and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
            if HEX.search(node.value) or NAMED.search(node.value):
                found.append((node.lineno, node.value[:60]))
        elif isinstance(node, ast.Call):
            name = getattr(node.func, "attr", None) or getattr(node.func, "id", None)
            if name in COLOUR_CALLS and _ints(node.args):
                found.append((node.lineno, ast.unparse(node)[:60]))
            for kw in node.keywords:
                if kw.arg in COLOUR_KEYWORDS and isinstance(kw.value, ast.Tuple) and _ints(kw.value.elts):
                    found.append((node.lineno, ast.unparse(kw)[:60]))
    return found


def test_the_scan_finds_colour_literals():
    source = ('"""A #fff docstring."""\nx = "#C0392B"\ny = "color: red;"\nz = QColor(255, 0, 0)\n'
              'w = pg.TextItem("t", fill=(255, 255, 255, 220))\nv = "issue #212, item 5"\n')
    assert [line for line, _ in literals(source)] == [2, 3, 4, 5]


def test_no_colour_literal_outside_the_palette_modules():
    found = [f"{path.relative_to(ROOT).as_posix()}:{line}: {text!r}"
             for path in sorted(ROOT.rglob("*.py")) if path.relative_to(ROOT).as_posix() not in PALETTES
             for line, text in literals(path.read_text(encoding="utf-8"))]
    assert not found, "name the colour in a palette module (gui/theme.py, palette.py):\n" + "\n".join(found)


def test_both_themes_name_a_colour_for_every_verdict():
    assert set(theme.VERDICT_COLOURS[False]) == set(theme.VERDICT_COLOURS[True]) == set(Verdict)
    assert all(theme.verdict_colour(v, dark) == theme.VERDICT_COLOURS[dark][v] for v in Verdict for dark in (0, 1))
