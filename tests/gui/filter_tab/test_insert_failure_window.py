"""What a user sees when an insert fails part way (workbench/failures.py): the item panel says "Stopped" and
what failed, once, and the filter, the curve, the history, the undo steps and the file's unsaved state are as
before; typed, pasted and auto-played inserts alike."""

from __future__ import annotations

import os
import sys

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest

from bloomviz.filters import scalable
from bloomviz.measure.fp_tracker import FpTracker

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", ".."))
from model_state import differences, observable   # noqa: E402

pytestmark = pytest.mark.window(probes=300, parts=True)


def _no_stage(monkeypatch):
    def no_memory(*args, **kwargs):
        raise MemoryError()
    monkeypatch.setattr(scalable, "BloomFilter", no_memory)


def _kernel_fails(monkeypatch):
    def failing(self, positions, flt):
        raise RuntimeError("the kernel broke")
    monkeypatch.setattr(FpTracker, "insert_batch", failing)


def _scalable_with_full_stage(window) -> None:
    wb = window.wb
    assert wb.configure(variant="scalable", initial_capacity=30, p=0.05)
    assert wb.insert_batch([f"w{i}" for i in range(30)]) == 30
    wb.flush()
    window.file_actions.file.set_modified(False)     # as if just saved


def test_a_typed_insert_that_cannot_open_a_stage_says_so_and_changes_nothing(qtbot, window):
    _scalable_with_full_stage(window)
    before = observable(window.wb.model)
    with pytest.MonkeyPatch.context() as injected:     # (the fixture's own patches stay until its teardown)
        _no_stage(injected)
        window.item_panel.line.setText("one more")
        window.item_panel.insert()
        window.wb.flush()
    text = window.item_panel.verdict_text
    assert text.startswith("Stopped: not enough memory to insert “one more”") and "KiB" in text, text
    assert "Refused" not in text and text.count("Stopped") == 1
    assert differences(before, observable(window.wb.model)) == []
    assert not window.file_actions.file.modified
    assert window.wb.insert("one more") is not None          # and it goes in once the memory is there


@pytest.mark.parametrize("how", ["pasted", "auto-play"])
def test_a_bulk_insert_whose_kernel_fails_is_put_back(qtbot, window, how):
    wb = window.wb
    wb.insert_batch([f"w{i}" for i in range(20)])
    wb.flush()
    before = observable(wb.model)
    said = []
    wb.error.connect(said.append)
    with pytest.MonkeyPatch.context() as injected:
        _kernel_fails(injected)
        if how == "pasted":
            window.item_panel.line.setText("\n".join(f"line {i}" for i in range(50)))
            window.item_panel.confirm_lines = lambda question: True
            window.item_panel.insert()
        else:
            window.autoplay.set_rate(0)
            window.autoplay.set_count(5_000)
            window.autoplay.start()
        qtbot.waitUntil(lambda: not wb.busy and window.autoplay.state == "idle" and bool(said), timeout=30_000)
    wb.flush()
    assert any("could not insert a batch of" in s and "RuntimeError: the kernel broke" in s for s in said), said
    assert differences(before, observable(wb.model), fresh_kept=None) in ([], ["kept"])


def test_an_auto_play_that_fails_and_goes_back_to_its_start_leaves_a_saved_window_saved(qtbot, window):
    """Its first chunks went in (the window marked unsaved), then one failed and the job went back to where it
    started: the window is as saved as before it."""
    wb, file = window.wb, window.file_actions.file
    assert wb.configure(100_000, 5)          # (the window the tests before left may show a scalable filter)
    window.autoplay.reset()
    wb.insert_batch([f"w{i}" for i in range(20)])
    wb.flush()
    file.set_modified(False)                 # as if just saved
    before = observable(wb.model)
    said, unsaved_meanwhile = [], []
    wb.error.connect(said.append)
    real = {name: getattr(FpTracker, name) for name in ("insert_batch", "insert_halves")}
    calls = [0]

    def fails_second(name):
        def run(*args, **kwargs):
            calls[0] += 1
            if calls[0] >= 2:
                unsaved_meanwhile.append(file.modified)
                raise RuntimeError("the kernel broke")
            return real[name](*args, **kwargs)
        return run
    with pytest.MonkeyPatch.context() as injected:
        for name in real:
            injected.setattr(FpTracker, name, fails_second(name))
        window.autoplay.set_rate(0)
        window.autoplay.set_count(20_000)
        window.autoplay.start()
        qtbot.waitUntil(lambda: not wb.busy and window.autoplay.state == "idle" and bool(said), timeout=30_000)
    wb.flush()
    assert unsaved_meanwhile == [True]       # the chunks before it had marked the window unsaved
    assert differences(before, observable(wb.model), fresh_kept=None) in ([], ["kept"])
    assert not file.modified and not window.isWindowModified()
