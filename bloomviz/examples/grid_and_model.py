"""The smallest bloomviz window: the bit grid, the window's model, a line edit. Type a word and press Enter to
insert it; start it with "?" to look it up. The grid redraws from each operation's record alone; the widgets
never touch the filter."""

import sys

from PySide6 import QtWidgets

from bloomviz.gui.widgets.grid import BitGridWidget
from bloomviz.gui.workbench import QtWorkbench


def build(m: int = 64, k: int = 3):
    wb = QtWorkbench()
    wb.configure(m, k)
    window, grid, line, verdict = QtWidgets.QWidget(), BitGridWidget(), QtWidgets.QLineEdit(), QtWidgets.QLabel()
    layout = QtWidgets.QVBoxLayout(window)
    for widget in (grid, line, verdict):
        layout.addWidget(widget)
    grid.reset(m, wb.grid_values())

    def operated(rec):
        if rec.changed is not None and len(rec.changed):
            grid.update_cells(rec.changed, rec.values)
        grid.highlight(list(rec.highlight), list(rec.kinds)) if rec.highlight else grid.clear_highlight()
        verdict.setText(f"{rec.item!r}: {rec.verdict}")

    def submit():
        text = line.text()
        wb.lookup(text[1:]) if text.startswith("?") else wb.insert(text)
        line.clear()

    wb.operated.connect(operated)
    line.returnPressed.connect(submit)
    window.resize(420, 480)
    return window, wb, grid, line, verdict


if __name__ == "__main__":
    app = QtWidgets.QApplication(sys.argv)
    window, *_ = build()
    window.show()
    sys.exit(app.exec())
