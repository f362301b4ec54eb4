"""Insert from file in the window: every edge case of the file, and all-or-nothing on failure or cancel."""

from __future__ import annotations

import os

import numpy as np
import pytest

from bloomviz.gui.files import session_io
from bloomviz.gui.workbench import QtWorkbench
from window_helpers import FakeDialogs


pytestmark = pytest.mark.window(probes=500, shown=False)


@pytest.fixture
def win(window):
    """The shared window (tests/conftest.py), its File menu's dialogs answered by the test."""
    window.dialogs = FakeDialogs()
    window.files = session_io.install(window, window.dialogs)
    window.wb.configure(4096, 3)
    yield window
    window.files.dialogs.unsaved_answer = "discard"


def state(w):
    wb = w.wb
    return (wb.filter.bits.tobytes(), len(wb.filter), list(wb.items), [(e.op, e.verdict) for e in wb.history],
            len(wb.series))


def run_import(qtbot, w, path, timeout=20_000):
    with qtbot.waitSignal(w.files.importer.finished, timeout=timeout) as blocker:
        assert w.files.importer.start(path)
    return blocker.args[0]


def test_bom_and_crlf_are_handled(qtbot, win, tmp_path):
    path = tmp_path / "words.txt"
    path.write_bytes(b"\xef\xbb\xbfapple\r\nbanana\r\ncherry")
    result = run_import(qtbot, win, path)
    assert result.ok and result.inserted == 3
    assert win.wb.items == ["apple", "banana", "cherry"]
    assert "apple" in win.wb.filter and "\ufeffapple" not in win.wb.filter
    assert "Inserted 3 items from words.txt" in win.wb.last_explanation.verdict_text


def test_undecodable_lines_are_listed_by_number(qtbot, win, tmp_path):
    path = tmp_path / "mixed.txt"
    path.write_bytes(b"good\n\xff\xfe\nfine\n\xc3\nlast\n")
    result = run_import(qtbot, win, path)
    assert win.wb.items == ["good", "fine", "last"]
    assert result.undecodable == [2, 4]
    assert "not valid UTF-8 and skipped: lines 2, 4" in win.wb.last_explanation.verdict_text
    assert len(win.dialogs.infos) == 1 and "lines 2, 4" in win.dialogs.infos[0][1]
    assert "2, 4" in win.dialogs.infos[0][2]


def test_blank_lines_are_skipped_and_counted_spaces_kept(qtbot, win, tmp_path):
    path = tmp_path / "blank.txt"
    path.write_bytes(b"a\n\n   \n\t\n b \n")
    result = run_import(qtbot, win, path)
    assert win.wb.items == ["a", " b "]
    assert result.blank == 3
    assert "3 blank lines skipped" in win.wb.last_explanation.verdict_text


def test_import_equals_a_batch_of_the_same_lines(qtbot, win, tmp_path):
    lines = [f"word{i}" for i in range(5000)]
    path = tmp_path / "many.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    run_import(qtbot, win, path)
    other = QtWorkbench(probes=500)
    other.configure(4096, 3)
    other.insert_batch(lines)
    assert win.wb.filter.bits == other.filter.bits
    assert np.array_equal(win.wb.series.column("fp_measured"), other.series.column("fp_measured"))


def refused(qtbot, win, path, fragment):
    before = state(win)
    assert not win.files.importer.start(path)
    assert len(win.dialogs.errors) == 1
    title, text, _ = win.dialogs.errors[0]
    assert str(path) in text and fragment in text
    assert state(win) == before
    assert not win.wb.busy


def test_missing_file(qtbot, win, tmp_path):
    refused(qtbot, win, tmp_path / "nope.txt", "no such file")


def test_directory(qtbot, win, tmp_path):
    refused(qtbot, win, tmp_path, "is a directory")


def test_binary_file(qtbot, win, tmp_path):
    path = tmp_path / "image.png"
    path.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)))
    refused(qtbot, win, path, "binary")


def test_unreadable_file(qtbot, win, tmp_path):
    path = tmp_path / "secret.txt"
    path.write_text("a\nb\n")
    os.chmod(path, 0)
    try:
        if os.access(path, os.R_OK):
            pytest.skip("running with privileges that read a mode-000 file (root): permission cannot be denied")
        refused(qtbot, win, path, "permission denied")
    finally:
        os.chmod(path, 0o600)


def test_permission_denied_simulated(qtbot, win, tmp_path, monkeypatch):
    # The same path as a real EACCES, for runs as root where a mode-000 file stays readable.
    # Files of items are opened by safe_files.open_regular, through os.open.
    from bloomviz.disk import safe_files
    path = tmp_path / "locked.txt"
    path.write_text("a\n")
    real_open = os.open

    def deny(file, flags, *args, **kwargs):
        if os.fspath(file) == str(path):
            raise PermissionError(13, "Permission denied", str(path))
        return real_open(file, flags, *args, **kwargs)
    monkeypatch.setattr(safe_files.os, "open", deny)
    refused(qtbot, win, path, "permission denied")


def test_empty_file_says_so(qtbot, win, tmp_path):
    path = tmp_path / "empty.txt"
    path.write_bytes(b"")
    before = state(win)
    assert not win.files.importer.start(path)
    assert "empty" in win.dialogs.infos[0][1] and state(win) == before


def test_cancel_midway_leaves_everything_as_it_was(qtbot, win, tmp_path):
    win.wb.insert("kept")
    path = tmp_path / "big.txt"
    path.write_text("".join(f"line{i}\n" for i in range(400_000)), encoding="utf-8")
    before = state(win)
    progress = []
    win.wb.progress.connect(lambda done, total: progress.append(done))
    with qtbot.waitSignal(win.files.importer.finished, timeout=30_000) as blocker:
        assert win.files.importer.start(path)
        qtbot.waitUntil(lambda: any(d > 0 for d in progress), timeout=10_000)
        assert 0 < len(win.wb.filter) - 1 < 400_000   # really mid-way: some lines are in
        win.wb.cancel()
    result = blocker.args[0]
    assert result.cancelled and result.inserted == 0
    assert state(win) == before
    assert win.dialogs.errors == []


def test_failure_midway_names_the_line_and_rolls_back(qtbot, win, tmp_path):
    win.wb.insert("kept")
    path = tmp_path / "long.txt"
    with open(path, "w", encoding="utf-8") as fh:
        for i in range(20_000):
            fh.write(f"w{i}\n")
        fh.write("x" * 70_000 + "\n")
        fh.write("after\n")
    before = state(win)
    result = run_import(qtbot, win, path)
    assert result.cancelled
    assert len(win.dialogs.errors) == 1
    text = win.dialogs.errors[0][1]
    # the line is refused at the item limit, without being read whole (items.read_item_lines)
    assert "line 20,001 is longer than the limit of 65,536 bytes" in text
    assert str(path) in text and "Nothing was inserted" in text
    assert state(win) == before


def test_large_file_is_read_in_chunks(qtbot, win, tmp_path, monkeypatch):
    # The job asks its source for a chunk per turn of the event loop; the source never reads ahead of it.
    path = tmp_path / "chunks.txt"
    path.write_text("".join(f"item{i}\n" for i in range(60_000)), encoding="utf-8")
    asked = []
    real_run_job = win.wb.run_job

    def spy(source, total, label="items", atomic=False, **options):
        def counted(count):
            items = source(count)
            asked.append((count, len(items)))
            return items
        return real_run_job(counted, total, label, atomic, **options)
    monkeypatch.setattr(win.wb, "run_job", spy)
    result = run_import(qtbot, win, path)
    assert result.inserted == 60_000
    assert len(asked) > 3 and all(got <= count for count, got in asked)
    assert max(count for count, _ in asked) < 60_000


def test_the_import_starts_without_reading_the_file_first_and_estimates_its_lines(qtbot, win, tmp_path):
    # Counting a 1 GiB file's lines first froze the window for seconds: the job starts at once and its total
    # is estimated from the bytes read so far, converging on the real count.
    path = tmp_path / "many.txt"
    path.write_text("".join(f"line{i:06d}\n" for i in range(150_000)), encoding="utf-8")
    progress = []
    win.wb.progress.connect(lambda done, total: progress.append((done, total)))
    result = run_import(qtbot, win, path)
    assert result.ok and result.inserted == 150_000
    assert progress[0][0] == 0
    mid = [(d, t) for d, t in progress if 0 < d < 150_000]
    assert mid and all(0.9 * 150_000 <= t <= 1.1 * 150_000 for _, t in mid)
