"""Replacing the filter while auto-play runs must not crash the process (issue 13, item 1).

The crash: a new filter dropped the history's rows, auto-play stopped on the reset and its progress bar repainted
synchronously, the history table painted rows that no longer existed, ``HistoryModel.data`` raised inside the
paint and the binding crashed (SIGSEGV). The end-to-end test runs in a subprocess so that a crash is an exit code.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6 import QtCore

from bloomviz.gui.filter_tab.history_panel import HistoryModel
from bloomviz.gui.workbench import QtWorkbench

SCRIPT = textwrap.dedent("""
    import os, random, sys, tempfile
    os.environ["QT_QPA_PLATFORM"] = "offscreen"
    from PySide6 import QtCore, QtWidgets
    app = QtWidgets.QApplication([])
    from bloomviz.gui.extensions import install_all
    from bloomviz.gui.main_window import MainWindow
    from bloomviz.gui.workbench import QtWorkbench
    settings = QtCore.QSettings(os.path.join(tempfile.mkdtemp(), "s.ini"), QtCore.QSettings.Format.IniFormat)
    w = MainWindow(workbench=QtWorkbench(probes=500), settings=settings)
    install_all(w)
    w.params_panel.confirm = lambda question: True
    w.file_actions.maybe_discard = lambda action: True
    w.show()
    rng = random.Random(int(sys.argv[1]))
    combo = w.autoplay_panel.rate_combo
    for rep in range(int(sys.argv[2])):
        combo.setCurrentIndex(combo.findData(rng.choice([10, 20, 100, 1000, 0])))
        w.autoplay.start()
        for _ in range(rng.randint(1, 6)):
            app.processEvents(QtCore.QEventLoop.ProcessEventsFlag.AllEvents, 20)
        if rng.random() < 0.5:      # a Start card or Alt+1 from another tab: the docks come back dirty
            w.show_tab("start")
            app.processEvents()
        w.update()                   # what a dialog closing over the window leaves to repaint
        what = rng.choice(["apply", "clear", "configure", "scenario"])
        if what == "apply":
            w.params_panel.apply()
        elif what == "clear":
            w.clear_filter()
        elif what == "configure":
            w.wb.configure(rng.choice([64, 200, 1000]), rng.randint(1, 5))
        else:
            w.scenarios.run(rng.choice(["contacts", "spell"]))
        app.processEvents()
        assert w.history_panel.model().rowCount() <= len(w.wb.history)
    print("survived", flush=True)
""")


def test_replacing_the_filter_during_auto_play_does_not_crash(tmp_path):
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", BLOOMVIZ_SETTINGS=str(tmp_path / "s.ini"))
    for seed in (1, 2):
        proc = subprocess.run([sys.executable, "-c", SCRIPT, str(seed), "25"], capture_output=True, text=True,
                              env=env, timeout=300)
        assert proc.returncode == 0 and "survived" in proc.stdout, (seed, proc.returncode, proc.stderr[-2000:])
        assert "Traceback" not in proc.stderr, proc.stderr[-2000:]


def test_history_model_answers_nothing_for_rows_dropped_before_the_reset_arrives(qtbot):
    wb = QtWorkbench(probes=50)
    seen = []
    # Connected before the model exists, so it runs before the model's own reset slot, as auto-play's did:
    # it must see no row that is gone, and reading a stale index must not raise.
    wb.filterReset.connect(lambda: seen.append((model.rowCount(), len(wb.history),
                                                model.data(stale, QtCore.Qt.ItemDataRole.ForegroundRole))))
    model = HistoryModel(wb)
    for word in ("a", "b", "c"):
        wb.insert(word)
    wb.flush()
    assert model.rowCount() == 3
    stale = model.index(2, 3)
    wb.reset()
    assert seen == [(0, 0, None)]
    assert model.rowCount() == 0
    for role in (QtCore.Qt.ItemDataRole.DisplayRole, QtCore.Qt.ItemDataRole.ForegroundRole,
                 QtCore.Qt.ItemDataRole.ToolTipRole):
        assert model.data(stale, role) is None


def test_history_model_follows_a_rollback(qtbot):
    wb = QtWorkbench(probes=50)
    model = HistoryModel(wb)
    wb.insert("kept")
    cp = wb.checkpoint()
    wb.insert("dropped")
    wb.lookup("dropped")
    wb.flush()
    assert model.rowCount() == 3
    wb.rollback(cp)
    assert model.rowCount() == 1
    assert model.data(model.index(0, 2)) == "kept"
