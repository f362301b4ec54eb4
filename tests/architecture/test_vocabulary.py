"""One vocabulary (issue 22 item 6): the verdicts and the highlight kinds live in ``bloomviz.vocabulary``, at the
bottom of the house, and no module compares against them spelled as string literals (``verdict == "false
positive"``): it names ``Verdict.FALSE_POSITIVE``, so a renamed or misspelt verdict fails at import, not silently.
"""

from __future__ import annotations

import ast
from pathlib import Path

from bloomviz.vocabulary import HIGHLIGHT_KINDS, LOOKUP_VERDICTS, REMOVAL_KINDS, Highlight, Verdict

import source_tree

ROOT = Path(__file__).resolve().parents[2] / "bloomviz"
WORDS = frozenset(v.value for v in Verdict)


def _is_word(node: ast.AST) -> bool:
    if isinstance(node, ast.Constant):
        return node.value in WORDS
    return isinstance(node, (ast.Tuple, ast.List, ast.Set)) and any(_is_word(e) for e in node.elts)


def literal_comparisons(source: str) -> list[tuple[int, str]]:
    """(line, code) of every comparison, and every ``match`` case, with a verdict spelled as a literal."""
    found = []
    for node in ast.walk(source_tree.parse(source)):
        if isinstance(node, ast.Compare) and any(_is_word(n) for n in (node.left, *node.comparators)):
            found.append((node.lineno, ast.unparse(node)))
        elif isinstance(node, ast.MatchValue) and _is_word(node.value):
            found.append((node.lineno, f"case {ast.unparse(node.value)}"))
    return found


def test_the_scan_finds_a_literal_comparison():
    assert literal_comparisons('if v == "false positive" or v in ("true negative",):\n    pass\n') == [
        (1, "v == 'false positive'"), (1, "v in ('true negative',)")]
    assert literal_comparisons("if v == Verdict.FALSE_POSITIVE:\n    pass\n") == []


def test_no_verdict_is_compared_as_a_string_literal():
    found = [f"{path.relative_to(ROOT).as_posix()}:{line}: {code}"
             for path in sorted(ROOT.rglob("*.py")) if path.name != "vocabulary.py"
             for line, code in literal_comparisons(path.read_text(encoding="utf-8"))]
    assert not found, "compare with bloomviz.vocabulary.Verdict:\n" + "\n".join(found)


def test_the_words_keep_their_saved_spelling():
    # sessions, history exports and lesson reports hold these strings: the enum must equal them
    assert Verdict.FALSE_POSITIVE == "false positive" and str(Verdict.MAYBE_PRESENT) == "probably present"
    assert set(LOOKUP_VERDICTS) < set(Verdict) and Verdict.INSERTED not in LOOKUP_VERDICTS
    assert HIGHLIGHT_KINDS == tuple(Highlight) and set(REMOVAL_KINDS) < set(HIGHLIGHT_KINDS)
    assert [str(k) for k in HIGHLIGHT_KINDS] == ["new", "old", "zero", "one", "culprit", "removed", "cleared",
                                                 "stuck", "lost"]


def test_one_class_is_named_verdict():
    defined = [f"{path.relative_to(ROOT).as_posix()}:{node.lineno}"
               for path in sorted(ROOT.rglob("*.py"))
               for node in ast.walk(source_tree.parse(path.read_text(encoding="utf-8")))
               if isinstance(node, ast.ClassDef) and node.name == "Verdict"]
    assert defined == ["vocabulary.py:14"], defined


# A class name defined twice may stay only when one of the two is not bloomviz's own vocabulary.
TWICE_ALLOWED = {
    # the lab's example is a student's own filter, written as a student writes it (bloomviz lab FILE:make_filter
    # loads a user's class, whatever its name): it is the thing the lab checks, not a second bloomviz class
    "BloomFilter": {"filters/standard.py", "lab/examples/good_filter.py"},
}


def _extends_its_namesake(node: ast.ClassDef) -> bool:
    """``class Error(Messages.Error)`` inside a widget: the widget's own messages of that severity, one meaning
    (Orange's idiom, gui/messages.py), extending the class of the same name."""
    return any(isinstance(base, ast.Attribute) and base.attr == node.name for base in node.bases)


def class_names(root: Path = ROOT) -> dict[str, set[str]]:
    """Each class name defined in ``root`` (any depth, nested classes too) -> the files defining it."""
    names: dict[str, set[str]] = {}
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(source_tree.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef) and not _extends_its_namesake(node):
                names.setdefault(node.name, set()).add(path.relative_to(root).as_posix())
    return names


def test_the_scan_finds_a_name_defined_twice(tmp_path):
    (tmp_path / "a.py").write_text("class Step:\n    pass\n")
    (tmp_path / "b.py").write_text("def f():\n    class Step:\n        pass\n")
    (tmp_path / "c.py").write_text("class Panel(Messages):\n    class Error(Messages.Error):\n        pass\n")
    assert class_names(tmp_path) == {"Step": {"a.py", "b.py"}, "Panel": {"c.py"}}


def test_a_class_name_means_one_thing():
    twice = {name: files for name, files in class_names().items() if len(files) > 1}
    unexplained = {name: sorted(files) for name, files in twice.items() if TWICE_ALLOWED.get(name) != files}
    assert not unexplained, f"one class name, two meanings: name each for what it is\n{unexplained}"
    assert set(twice) == set(TWICE_ALLOWED), f"an allowed pair is gone: drop it from TWICE_ALLOWED ({set(twice)})"
