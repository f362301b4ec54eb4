"""File → Export plot as CSV of a long series runs as the window's job (progress and Cancel in the status bar, the
window's event loop turning between slices of rows), writes the same bytes as the export at once, and a
cancelled or failed export leaves no file and no temporary (an old file at the target stays whole)."""

from __future__ import annotations

import os

import pytest
from PySide6 import QtCore

from bloomviz.gui.window import exports
from window_helpers import new_window

ROWS = exports.CSV_AT_ONCE_ROWS + 2_000


@pytest.fixture
def window(qtbot, tmp_path, monkeypatch):
    win = new_window(qtbot, tmp_path / "settings")
    win.resize(900, 600)
    win.show()
    qtbot.waitExposed(win)
    win.wb.insert_many([f"item {i}" for i in range(ROWS)])
    win.wb.run_to_end()
    win.plot.refresh_now()
    yield win
    win.wb.cancel()


def start(window, monkeypatch, path) -> None:
    monkeypatch.setattr(exports, "_save_path", lambda *a, **k: str(path))
    exports.export_plot(window)


def test_a_long_series_exports_as_a_job_with_the_same_bytes(window, qtbot, tmp_path, monkeypatch):
    folder = tmp_path / "out"
    folder.mkdir()
    reference = window.plot.export(folder / "at-once.csv")       # the export in one go (scripts, short series)
    turned, progress = [], []
    window.wb.progress.connect(lambda done, total: progress.append((done, total)))
    start(window, monkeypatch, folder / "job.csv")
    assert window.wb.busy and not (folder / "job.csv").exists()  # not written in the call: a job
    # a zero-delay timer fires while the job runs: the window's loop turns between its slices
    QtCore.QTimer.singleShot(0, lambda: turned.append(window.wb.busy))
    qtbot.waitUntil(lambda: bool(turned), timeout=20_000)
    assert turned == [True]
    qtbot.waitUntil(lambda: not window.wb.busy, timeout=60_000)
    assert (folder / "job.csv").read_bytes() == reference.read_bytes()
    assert len((folder / "job.csv").read_text().splitlines()) == 1 + ROWS
    assert progress and progress[0][1] == ROWS and len({done for done, _ in progress}) > 2
    assert sorted(os.listdir(folder)) == ["at-once.csv", "job.csv"]          # no temporary left
    assert "Saved the plot" in window.statusBar().currentMessage()


def test_cancel_leaves_no_file_and_no_temporary(window, qtbot, tmp_path, monkeypatch):
    folder = tmp_path / "out"
    folder.mkdir()
    target = folder / "fp.csv"
    start(window, monkeypatch, target)
    qtbot.waitUntil(lambda: window.busy_cancel.isVisible(), timeout=20_000)
    qtbot.waitUntil(lambda: any(name.endswith(".tmp") for name in os.listdir(folder)), timeout=20_000)
    window.busy_cancel.click()
    assert not window.wb.busy
    assert os.listdir(folder) == []
    assert "cancelled; nothing was written" in window.statusBar().currentMessage()
    # over an old file: the old bytes stay
    target.write_bytes(b"old,data\r\n")
    start(window, monkeypatch, target)
    qtbot.waitUntil(lambda: len(os.listdir(folder)) == 2, timeout=20_000)
    window.cancel_work()        # Esc
    assert os.listdir(folder) == ["fp.csv"] and target.read_bytes() == b"old,data\r\n"


def test_a_failed_write_leaves_no_temporary_and_says_so(window, qtbot, tmp_path, monkeypatch):
    folder = tmp_path / "out"
    folder.mkdir()
    failed = []
    monkeypatch.setattr(exports, "_failed", lambda _w, path, exc: failed.append((path, str(exc))))
    from bloomviz.gui.widgets import plot_export

    def full(self, count):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(plot_export.CsvExport, "step", full)
    start(window, monkeypatch, folder / "fp.csv")
    qtbot.waitUntil(lambda: not window.wb.busy, timeout=20_000)
    assert failed and "No space left" in failed[0][1]
    assert os.listdir(folder) == []


def test_bulk_work_running_refuses_the_export_before_reading_rows(window, qtbot, tmp_path, monkeypatch):
    window.wb.insert_many([f"more {i}" for i in range(100_000)])
    assert window.wb.busy
    start(window, monkeypatch, tmp_path / "fp.csv")
    assert "cancel it first" in window.statusBar().currentMessage()
    window.wb.cancel()
    assert not (tmp_path / "fp.csv").exists() and not [n for n in os.listdir(tmp_path) if n.endswith(".tmp")]


@pytest.mark.parametrize("log_y", [False, True])       # on a log axis the upper-limit curve is exported too
def test_the_rows_computed_a_slice_at_a_time_are_pyqtgraphs_export_of_every_row(qtbot, tmp_path, monkeypatch,
                                                                                log_y):
    from pyqtgraph.exporters import CSVExporter

    from bloomviz.gui.filter_tab.plot import FpPlotWidget, drawing
    from bloomviz.gui.widgets.plot_export import CSV_DECIMALS
    from bloomviz.gui.filter_tab.plot.style import LIMIT_LABEL
    from bloomviz.gui.workbench import QtWorkbench
    wb = QtWorkbench(probes=300)
    wb.insert_many([f"w{i}" for i in range(12_000)])
    wb.run_to_end()
    plot = FpPlotWidget()
    qtbot.addWidget(plot)
    plot.resize(700, 500)
    plot.set_series(wb.series)
    plot.set_log_y(log_y)
    plot.set_reference(0.01, "a reference")
    # the reference: every row drawn (nothing decimated), then pyqtgraph's own exporter
    monkeypatch.setattr(drawing, "DECIMATE_ABOVE", 10 ** 9)
    plot.refresh_now()
    assert len(plot.curve("fp_exact").getOriginalDataset()[0]) == 12_000
    theirs = CSVExporter(plot.plot_item)
    theirs.parameters()["precision"] = CSV_DECIMALS
    theirs.export(fileName=str(tmp_path / "theirs.csv"))
    monkeypatch.undo()
    plot.refresh_now()
    assert len(plot.curve("fp_exact").getOriginalDataset()[0]) < 12_000      # decimated again
    job = plot.csv_export(tmp_path / "ours.csv")
    sizes = iter([1, 7, 100, 4_000] * 10)
    while job.step(next(sizes)):
        pass
    job.finish()
    ours = (tmp_path / "ours.csv").read_bytes()
    assert ours == (tmp_path / "theirs.csv").read_bytes()
    assert (LIMIT_LABEL in ours.split(b"\r\n")[0].decode()) == log_y
