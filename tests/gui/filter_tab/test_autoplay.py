"""Auto-play: start, pause, step, cancel and reset leave the filter, tracker, plot and history consistent."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import numpy as np
import pytest
from PySide6 import QtCore

from bloomviz.filters.standard import BloomFilter
from bloomviz.gui.filter_tab.autoplay import IDLE, MAX_RATE, PAUSED, RUNNING, AutoPlay, ItemStream, load_words
from bloomviz.gui.main_window import MainWindow
from bloomviz.gui.workbench import QtWorkbench


pytestmark = pytest.mark.window(probes=3_000)


def assert_consistent(win: MainWindow, stream_items: list | None = None) -> None:
    wb = win.wb
    wb.flush()      # the views as the next turn of the event loop draws them
    flt = wb.filter
    n = len(flt)
    assert len(wb.items) == n and len(wb.series) == n
    assert sum(e.count for e in wb.history if e.op != "lookup") == n
    if stream_items is not None:
        assert wb.items == stream_items[:n]
    rebuilt = BloomFilter(flt.m, flt.k, flt.scheme)
    rebuilt.update(wb.items)
    assert rebuilt.bits == flt.bits
    brute = int(np.count_nonzero(flt.contains_many(wb.probes)))
    assert wb.tracker.fp_count == brute
    if n:
        assert wb.series.column("fp_measured")[-1] == pytest.approx(brute / len(wb.probes))
    # the grid shows the filter's bits
    assert np.array_equal(win.grid.picture.reshape(-1)[: flt.m], wb.grid_values())
    win.plot.refresh_now()
    assert win.plot.series is wb.series


def test_item_streams_are_reproducible_whatever_the_chunking():
    a = ItemStream("random", seed=4)
    whole = a.take(70_000)
    b = ItemStream("random", seed=4)
    parts = b.take(3) + b.take(65_536) + b.take(70_000 - 65_539)
    assert whole == parts and len(set(whole)) == 70_000
    assert all(x.startswith("i") and len(x) == 17 for x in whole[:100])
    assert ItemStream("random", seed=5).take(5) != whole[:5]
    words = ItemStream("words", seed=1)
    assert words.length == len(load_words()) >= 3000
    first = words.take(10)
    assert words.remaining() == words.length - 10
    assert first == ItemStream("words", seed=1).take(10) and first != ItemStream("words", seed=2).take(10)
    with pytest.raises(ValueError):
        ItemStream("nope")


def test_word_list_is_clean_distinct_lowercase_words():
    words = load_words()
    assert len(words) == len(set(words)) >= 3000
    assert all(w.isascii() and w.isalpha() and w.islower() for w in words)


def test_play_pause_step_cancel_at_a_slow_rate(window, qtbot):
    ap = window.autoplay
    wb = window.wb
    wb.configure(3000, 3)
    ap.set_source("words", seed=3)
    expected = ItemStream("words", seed=3).take(200)
    ap.set_rate(20)
    ap.set_count(100)
    ap.start()
    assert ap.state == RUNNING
    qtbot.waitUntil(lambda: len(wb.filter) >= 3, timeout=5_000)
    ap.pause()
    assert ap.state == PAUSED
    n = len(wb.filter)
    qtbot.wait(150)   # a fixed wait on purpose: three ticks at 20 items a second in which nothing may be inserted
    assert len(wb.filter) == n        # paused means paused
    assert window.grid.highlight_points()[2]  # single inserts light their bits
    assert_consistent(window, expected)
    assert ap.step()
    assert len(wb.filter) == n + 1 and wb.history[-1].op == "insert"
    assert_consistent(window, expected)
    ap.start()                         # resume
    qtbot.waitUntil(lambda: len(wb.filter) >= n + 3, timeout=5_000)
    ap.cancel()
    assert ap.state == IDLE
    assert_consistent(window, expected)
    ap.reset()
    assert len(wb.filter) == 0 and ap.stream.position == 0
    assert_consistent(window)


def test_batch_rate_inserts_batches(window, qtbot):
    ap = window.autoplay
    wb = window.wb
    wb.configure(50_000, 4)
    ap.set_source("random", seed=9)
    ap.set_rate(1_000)
    ap.set_count(200)
    with qtbot.waitSignal(ap.stateChanged, timeout=10_000, check_params_cb=lambda s: s == IDLE):
        ap.start()
    assert len(wb.filter) == 200
    assert {e.op for e in wb.history} == {"insert batch"}
    assert_consistent(window, ItemStream("random", seed=9).take(200))


def test_as_fast_as_possible_pause_resume_cancel_stay_consistent(window, qtbot):
    ap = window.autoplay
    wb = window.wb
    wb.configure(2_000_000, 5)
    ap.set_source("random", seed=1)
    ap.set_rate(MAX_RATE)
    ap.set_count(300_000)
    stream = ItemStream("random", seed=1).take(300_000)
    ap.start()
    assert wb.busy and window.busy_bar.isVisible()
    qtbot.waitUntil(lambda: len(wb.filter) > 0, timeout=10_000)
    ap.pause()
    assert ap.state == PAUSED and not wb.busy
    paused_at = len(wb.filter)
    assert 0 < paused_at < 300_000
    assert ap.done == paused_at
    assert_consistent(window, stream)
    with qtbot.waitSignal(ap.stateChanged, timeout=30_000, check_params_cb=lambda s: s == IDLE):
        ap.start()
    assert len(wb.filter) == 300_000 and ap.done == 300_000
    assert not window.busy_bar.isVisible()
    assert_consistent(window, stream)


def test_cancel_from_the_status_bar_stops_auto_play(window, qtbot):
    ap = window.autoplay
    wb = window.wb
    wb.configure(1_000_000, 3)
    ap.set_source("random", seed=0)       # endless: the default word list would end the run by itself
    ap.set_rate(MAX_RATE)
    ap.set_count(1_000_000)
    ap.start()
    qtbot.waitUntil(lambda: len(wb.filter) > 0, timeout=10_000)
    qtbot.mouseClick(window.busy_cancel, QtCore.Qt.MouseButton.LeftButton)
    assert ap.state == IDLE and not wb.busy
    assert 0 < len(wb.filter) < 1_000_000
    assert_consistent(window, ItemStream("random", seed=0).take(len(wb.filter)))


def test_word_list_runs_out_and_stops(window, qtbot):
    ap = window.autoplay
    wb = window.wb
    wb.configure(200_000, 3)
    ap.set_source("words", seed=0)
    ap.set_rate(MAX_RATE)
    ap.set_count(10_000_000)
    messages = []
    ap.message.connect(messages.append)
    with qtbot.waitSignal(ap.stateChanged, timeout=20_000, check_params_cb=lambda s: s == IDLE):
        ap.start()
    assert len(wb.filter) == ap.stream.length
    assert "whole word list" in messages[-1]
    assert not ap.step()


def test_a_new_filter_stops_auto_play(window, qtbot):
    ap = window.autoplay
    ap.set_rate(10)
    ap.start()
    window.wb.configure(500, 2)
    assert ap.state == IDLE


def test_panel_buttons_drive_the_controller(window, qtbot):
    panel = window.autoplay_panel
    ap = window.autoplay
    panel.rate_combo.setCurrentIndex(panel.rate_combo.findData(5))
    assert ap.rate == 5
    qtbot.mouseClick(panel.play_button, QtCore.Qt.MouseButton.LeftButton)
    assert ap.state == RUNNING and panel.play_button.text() == "Pause"
    qtbot.mouseClick(panel.play_button, QtCore.Qt.MouseButton.LeftButton)
    assert ap.state == PAUSED and panel.play_button.text() == "Resume"
    n = len(window.wb.filter)
    qtbot.mouseClick(panel.step_button, QtCore.Qt.MouseButton.LeftButton)
    assert len(window.wb.filter) == n + 1
    qtbot.mouseClick(panel.cancel_button, QtCore.Qt.MouseButton.LeftButton)
    assert ap.state == IDLE and not panel.cancel_button.isEnabled()
    qtbot.mouseClick(panel.reset_button, QtCore.Qt.MouseButton.LeftButton)
    assert len(window.wb.filter) == 0


def test_rates_are_validated():
    ap = AutoPlay(QtWorkbench(probes=10))
    with pytest.raises(ValueError):
        ap.set_rate(3)
    with pytest.raises(ValueError):
        ap.set_count(0)
