"""Pictures of the main window with each filter variant (offscreen), for looking at: counting (heat map and a
forced removal), scalable (stages as bands, the bound on the plot), partitioned and blocked.

Run: python benchmarks/variant_screens.py OUT_DIR
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def main(out: str) -> None:
    from PySide6 import QtCore, QtWidgets
    app = QtWidgets.QApplication.instance() or QtWidgets.QApplication([])
    from bloomviz.gui.main_window import MainWindow
    from bloomviz.gui.filter_tab.variant_view import connect_variant_views
    settings = QtCore.QSettings(str(Path(out) / "settings.ini"), QtCore.QSettings.Format.IniFormat)
    win = MainWindow(settings=settings)
    if not hasattr(win, "variant_views"):
        connect_variant_views(win)
    win.show()
    wb = win.wb

    def shot(name):
        loop = QtCore.QEventLoop()
        QtCore.QTimer.singleShot(400, loop.quit)   # let the coalesced redraws (bands, status) run
        loop.exec()
        win.plot.refresh_now()
        win.grab().save(str(Path(out) / f"{name}.png"))

    words = [f"w{i}" for i in range(400)]
    wb.configure(variant="counting", m=400, k=3, counter_bits=2)
    wb.insert_batch(words[:150])
    for wd in words[150:155]:
        wb.insert(wd)
    fp = next(x for x in (f"x{i}" for i in range(10000)) if x in wb.filter and not wb.is_member(x))
    wb.remove(fp, force=True)
    shot("counting")
    wb.configure(variant="scalable", initial_capacity=40, p=0.05, growth=2, tightening=0.8)
    wb.insert_batch(words[:300])
    wb.insert("hello")
    wb.lookup("hello")
    shot("scalable")
    wb.configure(variant="partitioned", m=1500, k=5)
    wb.insert_batch(words[:150])
    wb.insert("hello")
    shot("partitioned")
    wb.configure(variant="blocked", m=4096, k=6)
    wb.insert_batch(words[:300])
    wb.lookup("hello")
    shot("blocked")
    wb.configure(variant="blocked", m=200_000, k=6)
    wb.insert_batch([f"i{i}" for i in range(20000)])
    wb.insert("hello")
    shot("blocked_many")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else ".")
