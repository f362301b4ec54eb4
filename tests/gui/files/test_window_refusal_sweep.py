"""The window's refusals that involve files, imports and scenarios, each tried on a saved window with a filter
of its own: the model's observable state (tests/model_state.py) and whether the window has unsaved changes are
identical afterwards, and the message shown names what was wrong. (The model's own refusals, from states
reached by random operations on each variant: tests/workbench/test_refusal_sweep.py.)"""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import re

import pytest

from bloomviz.files import storage
from bloomviz.gui.files import file_dialogs, session_io
from bloomviz.gui.scenarios_tab import controller as scenarios
from model_state import differences, observable
from window_helpers import FakeDialogs


@pytest.fixture
def saved_window(window, tmp_path):
    """The shared window with a filter of the user's, saved (nothing unsaved), its dialogs answered here."""
    window.dialogs = FakeDialogs(unsaved_answer=file_dialogs.DISCARD)
    window.file_actions = session_io.install(window, window.dialogs)
    window.scenarios = scenarios.install(window, ask=lambda title, question: True)
    wb = window.wb
    assert wb.configure(2048, 3)
    wb.insert_batch([f"mine-{i}" for i in range(120)])
    wb.insert("typed")
    wb.lookup("absent")
    window.dialogs.save_paths = [str(tmp_path / "mine.bloomviz")]
    assert window.file_actions.save_as()
    assert not window.file_actions.modified
    return window


def seen(window) -> dict:
    window.wb.flush()
    return {**observable(window.wb), "modified": window.file_actions.modified}


def files(folder):
    good = folder / "good.bloom"
    from bloomviz.core import BloomFilter
    flt = BloomFilter(1024, 3)
    flt.update(["a", "b"])
    storage.save(flt, good)
    data = good.read_bytes()
    (folder / "bad-magic.bloom").write_bytes(b"NOTBLOOM" + data[8:])
    (folder / "cut.bloom").write_bytes(data[:-5])
    (folder / "flipped.bloom").write_bytes(data[:-1] + bytes([data[-1] ^ 0xFF]))
    (folder / "empty.bloom").write_bytes(b"")
    (folder / "garbage.bloomviz").write_text("{ this is not a session", encoding="utf-8")
    (folder / "binary.txt").write_bytes(b"one\ntwo\x00\x01three\n")
    (folder / "items.txt").write_text("".join(f"line {i}\n" for i in range(200_000)), encoding="utf-8")
    (folder / "a folder").mkdir()


def _cancelled_import(window, folder):
    assert window.file_actions.importer.start(folder / "items.txt")
    window.wb.step_job()
    window.cancel_work()


def _cancelled_scenario(window, folder):
    assert window.scenarios.run("urls")
    window.wb.step_job()
    window.cancel_work()


def _load_filter(name: str):
    return lambda w, f: w.file_actions.load_filter_path(str(f / name), ask=False)


# (name, the refused operation, what a message must say)
REFUSALS = [
    ("a filter file of another kind", _load_filter("bad-magic.bloom"), r"magic"),
    ("a filter file cut short", _load_filter("cut.bloom"), r"cut\.bloom.*(length|short|bytes|truncated)"),
    ("a filter file with a flipped bit", _load_filter("flipped.bloom"), r"CRC"),
    ("an empty filter file", _load_filter("empty.bloom"), r"empty\.bloom"),
    ("a filter file that is not there", _load_filter("gone.bloom"), r"gone\.bloom"),
    ("a folder as a filter file", _load_filter("a folder"), r"a folder"),
    ("a session file that is not one", lambda w, f: w.file_actions.open_path(str(f / "garbage.bloomviz"),
                                                                             ask=False), r"garbage\.bloomviz"),
    ("items from a binary file", lambda w, f: w.file_actions.importer.start(f / "binary.txt"), r"binary"),
    ("items from a file that is not there", lambda w, f: w.file_actions.importer.start(f / "gone.txt"),
     r"gone\.txt: no such file"),
    ("an import cancelled", _cancelled_import, r"put back"),
    ("a scenario cancelled", _cancelled_scenario, r"put back"),
]


def test_every_file_import_and_scenario_refusal_leaves_the_window_as_it_was_and_saved_as_it_was(saved_window, tmp_path, qtbot):
    window = saved_window
    files(tmp_path)
    said: list[str] = []
    window.wb.error.connect(said.append)
    window.wb.notice.connect(said.append)
    window.scenarios.runner.failed.connect(lambda key, message: said.append(message))
    failures = []
    for name, refused, pattern in REFUSALS:
        before = seen(window)
        del said[:], window.dialogs.errors[:], window.dialogs.infos[:]
        refused(window, tmp_path)
        qtbot.waitUntil(lambda: not window.wb.busy)
        changed = differences(before, seen(window), fresh_kept=None)
        if changed:
            failures.append(f"{name}: changed {changed}")
        texts = said + [f"{title}: {text} {details}" for title, text, details in
                        window.dialogs.errors + window.dialogs.infos]
        if not any(re.search(pattern, text, re.S | re.I) for text in texts):
            failures.append(f"{name}: no message matching {pattern!r} in {texts}")
    assert not failures, "\n".join(failures)

    # A scenario replaces the filter before its job starts: its reset marked the window unsaved and forgot the
    # base of a filter loaded without its items (a save after the cancel then lost that filter's bits). (In the
    # same window as the sweep: a window of its own costs 3 s.)
    assert window.file_actions.load_filter_path(str(tmp_path / "good.bloom"), ask=False)
    window.file_actions.discard_changes()
    base = window.file_actions.file.base
    assert base is not None and not window.file_actions.modified
    before = seen(window)
    _cancelled_scenario(window, tmp_path)
    qtbot.waitUntil(lambda: not window.wb.busy)
    assert differences(before, seen(window)) == []
    assert window.file_actions.file.base == base
