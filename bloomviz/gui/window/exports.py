"""File → Export grid, Export plot, Save window picture: a file dialog, the picture, a line in the status bar.

Each picture is written by the one atomic writer (``plot_export.save_png`` / ``export_plot``): a FIFO picked in
the dialog is refused with a message instead of freezing the window."""

from __future__ import annotations

from PySide6 import QtCore, QtWidgets
from bloomviz.i18n import tr


def _save_path(window, title: str, filters: str, default: str) -> str:
    path, _ = QtWidgets.QFileDialog.getSaveFileName(window, tr(title), default, filters)
    return path


def _export(window, what: str, path: str, write) -> None:
    if not path:
        return
    try:
        write(path)
        window.statusBar().showMessage(tr("Saved the {what} to {path}").format(what=tr(what), path=path), 6_000)
    except (OSError, RuntimeError, ValueError) as exc:
        box = QtWidgets.QMessageBox(QtWidgets.QMessageBox.Icon.Warning, tr("Export failed"), "", parent=window)
        box.setTextFormat(QtCore.Qt.TextFormat.PlainText)   # a file name is text
        box.setText(tr("Could not save {path}: {reason}").format(path=path,
                                                                 reason=getattr(exc, 'strerror', None) or exc))
        box.exec()


def export_grid(window) -> None:
    path = _save_path(window, "Export the grid", "PNG image (*.png)", "bloom-grid.png")
    _export(window, "grid", path, window.grid.export_png)


def export_plot(window) -> None:
    from bloomviz.gui.widgets.plot_export import EXPORT_FILTER   # pyqtgraph's exporters: loaded when first used
    path = _save_path(window, "Export the plot", EXPORT_FILTER, "bloom-fp.png")
    _export(window, "plot", path, window.plot.export)


def save_window_picture(window) -> None:
    from bloomviz.gui.widgets.plot_export import save_png
    path = _save_path(window, "Save a picture of the window", "PNG image (*.png)", "bloomviz.png")
    _export(window, "window picture", path, lambda target: save_png(window.grab(), target, "the window picture"))
