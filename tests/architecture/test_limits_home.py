"""Every limit has one home (``bloomviz.theory.limits``): no module declares MAX_PROBES, MAX_K, the counter-bit
range, the item size or a text box's size again, and a session saved with more probes than the window measures
with opens saying so."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import bloomviz
from bloomviz.theory import limits

PACKAGE = Path(bloomviz.__file__).parent
# a foreign format's k is one byte in the file (Guava and others): what a reader accepts, not a filter's limit
OTHER_MEANING = {"formats/common.py": "MAX_K"}


def test_limits_are_declared_only_in_their_home():
    declared = re.compile(r"^(\w*MAX_PROBES|MAX_K|MAX_M|MAX_N|COUNTER_BITS\w*|MAX_ITEM_BYTES"
                          r"|\w*(?:BOX|LINE|PARAGRAPH)\w*_CHARS)\s*=\s*[\d(]", re.M)
    found = []
    for path in PACKAGE.rglob("*.py"):
        rel = path.relative_to(PACKAGE).as_posix()
        for match in declared.finditer(path.read_text(encoding="utf-8")):
            if rel != "theory/limits.py" and OTHER_MEANING.get(rel) != match.group(1):
                found.append(f"{rel}: {match.group(0)}")
    assert not found


def test_every_reader_of_a_limit_uses_the_home():
    from bloomviz.filters.params import COUNTER_BITS, K
    from bloomviz.files import session
    from bloomviz.lessons import spec as lesson_spec
    from bloomviz.workbench import limits as window
    assert (COUNTER_BITS.low, COUNTER_BITS.high) == limits.COUNTER_BITS and K.high == limits.MAX_K
    assert window.MAX_PROBES == limits.WINDOW_MAX_PROBES and window.MAX_K == limits.MAX_K
    assert session.MAX_PROBES == limits.MAX_PROBES and lesson_spec.MAX_PROBES == limits.LESSON_MAX_PROBES


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
