"""``bloomviz --screenshot`` as a README picture (issue 26 item 8): no stray tab bar of a hidden dock drawn over
the History, and no Qt platform noise on stderr."""

from __future__ import annotations

import os
import subprocess
import sys

from PySide6 import QtWidgets

from bloomviz.gui.extensions import install_all
from window_helpers import new_window


def test_no_tab_bar_names_a_hidden_dock(qtbot, tmp_path):
    window = new_window(qtbot, tmp_path, probes=100)
    install_all(window)
    window.resize(1440, 900)
    window.show()
    qtbot.waitExposed(window)
    titles = {dock.windowTitle(): dock for dock in window.docks.values()}
    for bar in window.findChildren(QtWidgets.QTabBar):
        if bar.isVisible() and bar.parent() is window:         # the tabs of docks stacked in one place
            for i in range(bar.count()):
                dock = titles.get(bar.tabText(i))
                assert dock is None or dock.isVisible(), f"a tab for the hidden dock “{bar.tabText(i)}”"


def test_the_screenshot_prints_only_what_it_wrote(tmp_path):
    out = tmp_path / "shot.png"
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", BLOOMVIZ_SETTINGS=str(tmp_path / "s.ini"))
    run = subprocess.run([sys.executable, "-m", "bloomviz", "--screenshot", str(out), "--demo", "20"],
                         capture_output=True, text=True, env=env, timeout=120)
    assert run.returncode == 0, run.stderr
    assert out.stat().st_size > 0
    assert "propagateSizeHints" not in run.stderr and run.stderr.strip() == "", run.stderr
    assert run.stdout.startswith("bloomviz: wrote ")
