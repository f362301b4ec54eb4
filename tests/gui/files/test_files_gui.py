"""The File menu in the window: sessions round trip, filters load and save, refusals leave the window as it
was, the unsaved-changes question, recent files, history CSV."""

from __future__ import annotations

import csv
import json
import os

import numpy as np
import pytest
from PySide6 import QtCore

from bloomviz.filters import persist
from bloomviz.files import session as sessions
from bloomviz.files import storage
from bloomviz.filters.standard import BloomFilter
from bloomviz.gui.files import file_dialogs
from bloomviz.gui.files import session_io
from window_helpers import FakeDialogs, new_window
from bloomviz.workbench.limits import MAX_M
from bloomviz.vocabulary import Verdict
from bloomviz.measure.series import Series


@pytest.fixture
def make_window(qtbot, tmp_path):
    made = []

    def make(probes=300):
        w = new_window(qtbot, tmp_path, probes=probes)
        w.dialogs = FakeDialogs()
        w.files = session_io.install(w, w.dialogs)
        made.append(w)
        return w
    yield make
    for w in made:
        w.dialogs.unsaved_answer = file_dialogs.DISCARD
        w.wb.cancel()


def snapshot(w):
    wb = w.wb
    wb.flush()          # the views as the next turn of the event loop draws them
    return {
        "variant": wb.variant, "grid": wb.grid_values().tobytes(), "n": len(wb.filter),
        "history": [(e.op, e.label, e.verdict, e.positions, e.count, e.n, e.fill, e.fp_measured) for e in wb.history],
        "series": {c: wb.series.column(c).copy() for c in Series.COLUMNS},
        "picture": w.grid.picture.copy(), "title": w.windowTitle(),
    }


def same(a, b):
    assert a["variant"] == b["variant"] and a["n"] == b["n"]
    assert a["grid"] == b["grid"]
    assert a["history"] == b["history"]
    for c in Series.COLUMNS:
        assert np.array_equal(a["series"][c], b["series"][c], equal_nan=True), c
    assert np.array_equal(a["picture"], b["picture"])


def play(wb):
    """Inserts (str, bytes, a lone surrogate), a batch, and lookups including false positives."""
    for x in ["apple", b"\x00\xff", "sur\ud800rogate", "pear"]:
        assert wb.insert(x) is not None
    assert wb.insert_batch([f"w{i}" for i in range(60)]) == 60
    for x in ["apple", "nothere", *[f"q{i}" for i in range(30)]]:
        assert wb.lookup(x) is not None
    wb.insert("late")
    wb.lookup("late")


CONFIGS = [
    ("standard", dict(m=96, k=3)),
    ("counting", dict(m=96, k=3, counter_bits=4)),
    ("partitioned", dict(m=96, k=3)),
    ("blocked", dict(m=1024, k=3, block_bits=512)),
    ("scalable", dict(initial_capacity=20, p=0.05, growth=2, tightening=0.9)),
]


@pytest.mark.parametrize("variant,args", CONFIGS, ids=[c[0] for c in CONFIGS])
def test_session_round_trip_restores_grid_plot_and_history(make_window, tmp_path, variant, args):
    a = make_window()
    args = dict(args)
    m, k = args.pop("m", None), args.pop("k", None)
    assert a.wb.configure(m, k, variant=variant, capacity=40, **args)
    play(a.wb)
    if variant == "standard":
        assert any(e.verdict == Verdict.FALSE_POSITIVE for e in a.wb.history)   # a tiny filter: the lesson is there
    path = tmp_path / "s.bloomviz"
    assert a.files.write_session(str(path))
    assert not a.files.modified

    b = make_window(probes=1000)        # a different window state: other probe count, other filter
    b.wb.configure(2048, 5)
    b.wb.insert("other")
    b.dialogs.unsaved_answer = file_dialogs.DISCARD
    assert b.files.open_path(str(path))
    same(snapshot(a), snapshot(b))
    assert b.wb.capacity == 40 and len(b.wb.probes) == 300
    assert b.windowTitle().startswith("s.bloomviz") and not b.files.modified
    assert b.wb.last_explanation.label == a.wb.last_explanation.label


def test_round_trip_after_probe_redraw_keeps_the_measurement(make_window, tmp_path):
    a = make_window()
    a.wb.configure(512, 3)
    a.wb.insert("x")
    a.wb.insert(a.wb.probes[0])       # a member that was a probe: the probes are redrawn from the next seed
    a.wb.insert_batch([f"y{i}" for i in range(50)])
    path = tmp_path / "p.bloomviz"
    assert a.files.write_session(str(path))
    b = make_window()
    b.wb.configure(64, 2)
    b.wb.insert(b.wb.probes[0])       # b's seed moved on too
    b.dialogs.unsaved_answer = file_dialogs.DISCARD
    assert b.files.open_path(str(path))
    same(snapshot(a), snapshot(b))


BAD_SESSIONS = {
    "bad json": b'{"format": "bloomviz-session", ',
    "wrong schema": json.dumps({"format": "bloomviz-session", "schema_version": 99}).encode(),
    "wrong type": None,   # filled below from a good file
    "huge number": None,
    "too big for the window": None,
    "not a session": b"hello\n",
}


@pytest.mark.parametrize("case", list(BAD_SESSIONS))
def test_bad_session_is_refused_and_the_window_is_unchanged(make_window, tmp_path, case):
    w = make_window()
    w.wb.configure(128, 3)
    w.wb.insert_batch(["a", "b", "c"])
    w.wb.lookup("zz")
    good = json.loads(sessions.dumps(w.files.current_session()[0]))
    raw = BAD_SESSIONS[case]
    if case == "wrong type":
        good["filter"]["k"] = "three"
        raw = json.dumps(good).encode()
    elif case == "huge number":
        good["filter"]["m"] = 10 ** 40
        raw = json.dumps(good).encode()
    elif case == "too big for the window":
        good["filter"]["m"] = 2 * MAX_M
        raw = json.dumps(good).encode()
    path = tmp_path / "bad.bloomviz"
    path.write_bytes(raw)
    before = snapshot(w)
    filt = w.wb.filter
    w.dialogs.unsaved_answer = file_dialogs.DISCARD
    assert not w.files.open_path(str(path))
    assert len(w.dialogs.errors) == 1
    text = w.dialogs.errors[0][1]
    assert str(path) in text
    expected = {"bad json": "not valid JSON", "wrong schema": "schema_version 99 is not supported",
                "wrong type": "filter.k: expected a whole number", "huge number": "out of range",
                "too big for the window": f"between 8 and {MAX_M:,}", "not a session": "not valid JSON"}[case]
    assert expected in text
    assert w.wb.filter is filt
    same(before, snapshot(w))
    assert w.windowTitle() == before["title"]


def test_failed_bloom_load_leaves_the_filter_untouched(make_window, tmp_path):
    w = make_window()
    w.wb.configure(256, 3)
    w.wb.insert_batch(["a", "b"])
    good = tmp_path / "g.bloom"
    flt = BloomFilter(64, 3)
    flt.update(["x"])
    storage.save(flt, good)
    raw = good.read_bytes()
    before = snapshot(w)
    filt = w.wb.filter
    cases = {"truncated.bloom": raw[:20], "crc.bloom": raw[:-1] + bytes([raw[-1] ^ 0x10]),
             "empty.bloom": b""}
    for name, data in cases.items():
        (tmp_path / name).write_bytes(data)
        w.dialogs.errors.clear()
        w.dialogs.unsaved_answer = file_dialogs.DISCARD
        assert not w.files.load_filter_path(str(tmp_path / name))
        assert len(w.dialogs.errors) == 1
        text = w.dialogs.errors[0][1]
        try:
            storage.load(tmp_path / name)
        except storage.FilterFormatError as exc:
            assert str(exc) in text     # the format error's own words, naming the file
        assert w.wb.filter is filt
        same(before, snapshot(w))
    w.dialogs.errors.clear()
    assert not w.files.load_filter_path(str(tmp_path / "missing.bloom"))
    assert "missing.bloom" in w.dialogs.errors[0][1] and "No such file" in w.dialogs.errors[0][1]
    same(before, snapshot(w))


def test_bloom_too_large_for_the_window_is_refused(make_window, tmp_path):
    w = make_window()
    big = BloomFilter(MAX_M + 1, 2)
    storage.save(big, tmp_path / "big.bloom")
    filt = w.wb.filter
    assert not w.files.load_filter_path(str(tmp_path / "big.bloom"))
    assert f"{MAX_M:,}" in w.dialogs.errors[0][1] and w.wb.filter is filt


@pytest.mark.parametrize("variant,args", CONFIGS, ids=[c[0] for c in CONFIGS])
def test_save_and_load_filter_every_variant(make_window, tmp_path, variant, args):
    a = make_window()
    m, k = args.get("m"), args.get("k")
    params = {key: v for key, v in args.items() if key not in ("m", "k")}
    assert a.wb.configure(m, k, variant=variant, **params)
    a.wb.insert_batch([f"i{i}" for i in range(50)])
    a.dialogs.save_paths.append(str(tmp_path / "f"))         # the suffix is added
    assert a.files.save_filter_dialog()
    saved = storage.load(tmp_path / "f.bloom")
    assert persist.payload_of(saved) == persist.payload_of(a.wb.filter)

    b = make_window()
    b.dialogs.open_paths.append(str(tmp_path / "f.bloom"))
    assert b.files.load_filter_dialog()
    assert b.wb.variant == variant and len(b.wb.filter) == 50
    assert np.array_equal(b.wb.grid_values(), a.wb.grid_values())
    a.wb.flush()        # (a's batch drawn in the next turn of the event loop)
    assert np.array_equal(b.grid.picture, a.grid.picture)
    assert not b.wb.truth_known
    b.wb.lookup("i3")
    assert b.wb.history[-1].verdict == Verdict.MAYBE_PRESENT
    assert "cannot be told" in b.wb.last_explanation.verdict_text or b.wb.history[-1].verdict == Verdict.MAYBE_PRESENT


def test_session_of_a_loaded_filter_keeps_the_filter_and_later_operations(make_window, tmp_path):
    src = BloomFilter(512, 3)
    src.update([f"s{i}" for i in range(40)])
    storage.save(src, tmp_path / "src.bloom")
    a = make_window()
    assert a.files.load_filter_path(str(tmp_path / "src.bloom"))
    a.wb.insert("later")
    a.wb.insert_batch(["b1", "b2"])
    a.wb.lookup("s1")
    a.wb.lookup("later")
    assert a.files.write_session(str(tmp_path / "l.bloomviz"))
    assert json.loads((tmp_path / "l.bloomviz").read_text())["base"] is not None
    b = make_window()
    assert b.files.open_path(str(tmp_path / "l.bloomviz"))
    same(snapshot(a), snapshot(b))
    assert [e.verdict for e in b.wb.history][-2:] == [Verdict.MAYBE_PRESENT, "true positive"]


def test_close_asks_when_there_are_unsaved_changes(make_window, tmp_path, qtbot):
    w = make_window()
    w.show()
    qtbot.waitExposed(w)
    assert w.close()                   # nothing done yet: no question
    assert w.dialogs.asked == []
    w.show()
    w.wb.insert("a")
    assert w.files.modified
    w.dialogs.unsaved_answer = file_dialogs.CANCEL
    assert not w.close()
    assert w.isVisible() and len(w.dialogs.asked) == 1 and "1 operation" in w.dialogs.asked[0]
    w.dialogs.unsaved_answer = file_dialogs.SAVE
    w.dialogs.save_paths.append("")    # the user cancels the file chooser: still not closed
    assert not w.close() and w.isVisible()
    w.dialogs.save_paths.append(str(tmp_path / "closing"))
    assert w.close()
    assert sessions.load(tmp_path / "closing.bloomviz").operations[0].item == "a"


def test_discard_closes_and_saved_state_does_not_ask(make_window, qtbot, tmp_path):
    w = make_window()
    w.show()
    w.wb.insert("a")
    assert w.files.write_session(str(tmp_path / "x.bloomviz"))
    assert not w.files.modified
    assert w.close() and w.dialogs.asked == []
    w.show()
    assert w.windowTitle() == "x.bloomviz[*] — bloomviz" and not w.isWindowModified()
    w.wb.lookup("b")
    w.wb.flush()        # (the title's mark follows in the next turn of the event loop)
    assert w.isWindowModified()
    w.dialogs.unsaved_answer = file_dialogs.DISCARD
    assert w.close() and len(w.dialogs.asked) == 1


def test_new_and_open_ask_first(make_window, tmp_path):
    w = make_window()
    w.wb.configure(300, 4)
    w.wb.insert("a")
    before = snapshot(w)
    w.dialogs.unsaved_answer = file_dialogs.CANCEL
    assert not w.files.new_session()
    w.dialogs.open_paths.append(str(tmp_path / "whatever.bloomviz"))
    assert not w.files.open_dialog()
    assert len(w.dialogs.asked) == 2 and w.dialogs.open_paths    # the chooser was never shown
    same(before, snapshot(w))
    w.dialogs.unsaved_answer = file_dialogs.DISCARD
    assert w.files.new_session()
    assert len(w.wb.filter) == 0 and w.wb.history == [] and (w.wb.filter.m, w.wb.filter.k) == (300, 4)


def test_recent_files_listed_pruned_and_opened(make_window, tmp_path):
    w = make_window()
    w.wb.insert("a")
    for name in ("one", "two"):
        assert w.files.write_session(str(tmp_path / f"{name}.bloomviz"))
    assert w.files.recent.paths() == [str(tmp_path / "two.bloomviz"), str(tmp_path / "one.bloomviz")]
    menu = w.files.menu.recent_menu
    menu.aboutToShow.emit()
    texts = [a.text() for a in menu.actions() if not a.isSeparator()]
    assert texts[:2] == ["&1  two.bloomviz", "&2  one.bloomviz"] and texts[-1] == "Clear the list"
    os.remove(tmp_path / "two.bloomviz")
    menu.aboutToShow.emit()
    assert w.files.recent.paths() == [str(tmp_path / "one.bloomviz")]
    assert "two.bloomviz" in w.statusBar().currentMessage()
    w.wb.insert("b")
    w.dialogs.unsaved_answer = file_dialogs.DISCARD
    next(a for a in menu.actions() if a.data() == str(tmp_path / "one.bloomviz")).trigger()
    assert w.wb.items == ["a"] and w.files.path == str(tmp_path / "one.bloomviz")
    # a file that vanishes between the menu and the click: a message, and it leaves the list
    os.remove(tmp_path / "one.bloomviz")
    assert not w.files.open_path(str(tmp_path / "one.bloomviz"), ask=False)
    assert "removed from the recent files" in w.dialogs.errors[-1][1]
    assert w.files.recent.paths() == []
    # the list lives in the settings: a new window sees it
    (tmp_path / "kept.bloomviz").write_text("{}")
    w.files.recent.add(str(tmp_path / "kept.bloomviz"))
    assert make_window().files.recent.paths() == [str(tmp_path / "kept.bloomviz")]


def test_history_csv_export(make_window, tmp_path):
    w = make_window()
    w.wb.configure(64, 3)
    play(w.wb)
    w.dialogs.save_paths.append(str(tmp_path / "h"))
    assert w.files.menu.export_history_dialog()
    with open(tmp_path / "h.csv", newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    assert len(rows) == len(w.wb.history)
    assert [r["verdict"] for r in rows] == [e.verdict for e in w.wb.history]
    assert [r["op"] for r in rows] == [e.op for e in w.wb.history]
    assert rows[0]["item"] == "apple" and rows[1]["item"] == "b'\\x00\\xff'" and rows[2]["item"] == "sur\\ud800rogate"
    assert rows[4]["count"] == "60" and rows[4]["item"] == ""
    assert [int(r["false_positives"]) for r in rows] == [e.false_positives for e in w.wb.history]
    assert rows[0]["positions"] == " ".join(map(str, w.wb.history[0].positions))


def test_file_menu_has_the_actions_with_shortcuts(make_window):
    w = make_window()
    menu = w.menu("&File")
    texts = [a.text() for a in menu.actions() if not a.isSeparator()]
    for text in ("&New session", "&Open…", "Open &Recent", "&Save session", "Save session &as…",
                 "&Load filter (.bloom)…", "Save filter as .&bloom…", "&Insert from file…",
                 "Export &history as CSV…", "Export grid as PNG…", "Export plot…", "Quit"):
        assert text in texts, text
    assert texts.index("&New session") < texts.index("Export grid as PNG…") < texts.index("Quit")
    shortcuts = {a.text(): a.shortcut().toString() for a in menu.actions()}
    assert shortcuts["&New session"] == "Ctrl+N" and shortcuts["&Open…"] == "Ctrl+O"
    assert shortcuts["&Save session"] == "Ctrl+S" and shortcuts["&Insert from file…"] == "Ctrl+Shift+I"
    everything = [a.shortcut().toString() for a in w.actions() if not a.shortcut().isEmpty()]
    assert len(everything) == len(set(everything)), "two actions share a shortcut"


def test_actions_disabled_while_busy(make_window, qtbot, tmp_path):
    w = make_window()
    w.wb.insert_many([f"i{i}" for i in range(300_000)])
    assert not w.files.actions["save"].isEnabled() and not w.files.actions["open"].isEnabled()
    assert not w.files.write_session(str(tmp_path / "busy.bloomviz"))
    assert "bulk insert is running" in w.dialogs.errors[-1][1]
    w.wb.cancel()
    assert w.files.actions["save"].isEnabled()


def test_dialog_pictures(make_window, qtbot, tmp_path):
    """The real message boxes and the File menu, drawn (looked at by eye when they change)."""
    w = make_window()
    w.resize(1280, 800)
    w.show()
    qtbot.waitExposed(w)
    box = file_dialogs.unsaved_box(w, "“lecture.bloomviz” has unsaved changes (12 operations). Save before you "
                                      "close the window?")
    box.show()
    qtbot.waitExposed(box)
    labels = sorted(b.text().replace("&", "") for b in box.buttons())
    assert labels == ["Cancel", "Close without Saving", "Save"] or labels == ["Cancel", "Discard", "Save"]
    pic = box.grab()
    assert pic.save(str(tmp_path / "unsaved.png")) and pic.width() > 200
    box.close()
    err = file_dialogs.message_box(w, "Load a filter", "This is not a filter bloomviz can load:\n"
                                   "/tmp/x.bloom: CRC32 mismatch: the file says 0xfcdac3d7, its contents give "
                                   "0x1c2b3a49; the file is damaged")
    err.show()
    qtbot.waitExposed(err)
    assert err.grab().save(str(tmp_path / "error.png"))
    err.close()
    menu = w.menu("&File")
    menu.popup(w.mapToGlobal(QtCore.QPoint(10, 30)))
    qtbot.waitExposed(menu)
    img = menu.grab().toImage()
    assert menu.grab().save(str(tmp_path / "menu.png"))
    colours = {img.pixel(x, y) for x in range(0, img.width(), 7) for y in range(0, img.height(), 7)}
    assert len(colours) > 2
    menu.close()
    if os.environ.get("BLOOMVIZ_SHOTS"):
        import shutil
        for name in ("unsaved.png", "error.png", "menu.png"):
            shutil.copy(tmp_path / name, os.path.join(os.environ["BLOOMVIZ_SHOTS"], name))


def test_counting_session_with_removals_round_trips(make_window, tmp_path):
    a = make_window()
    assert a.wb.configure(48, 3, variant="counting", counter_bits=4, capacity=20)
    members = [f"m{i}" for i in range(12)]
    assert a.wb.insert_batch(members) == 12
    a.wb.insert("solo")
    assert a.wb.remove("m3") is not None                      # a member: a plain removal
    outsider = next(x for x in (f"x{i}" for i in range(5000)) if x in a.wb.filter)
    assert a.wb.remove(outsider) is None                       # refused without force
    assert a.wb.remove(outsider, force=True) is not None       # insisted on: may cause false negatives
    a.wb.insert_batch(["after1", "after2"])
    a.wb.lookup("m3")
    verdicts = [e.verdict for e in a.wb.history]
    assert "removed" in verdicts and "forced removal" in verdicts
    path = tmp_path / "c.bloomviz"
    assert a.files.write_session(str(path))

    b = make_window()
    b.dialogs.unsaved_answer = file_dialogs.DISCARD
    assert b.files.open_path(str(path))
    same(snapshot(a), snapshot(b))
    assert [e.note for e in b.wb.history] == [e.note for e in a.wb.history]
