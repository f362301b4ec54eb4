"""File → Export grid, Export plot, Save window picture: a file dialog, the picture, a line in the status bar."""

from __future__ import annotations

from PySide6 import QtWidgets


def _save_path(window, title: str, filters: str, default: str) -> str:
    path, _ = QtWidgets.QFileDialog.getSaveFileName(window, title, default, filters)
    return path


def _export(window, what: str, path: str, write) -> None:
    if not path:
        return
    try:
        write(path)
        window.statusBar().showMessage(f"Saved the {what} to {path}", 6_000)
    except (OSError, RuntimeError, ValueError) as exc:
        QtWidgets.QMessageBox.warning(window, "Export failed", f"Could not save {path}: {exc}")


def export_grid(window) -> None:
    path = _save_path(window, "Export the grid", "PNG image (*.png)", "bloom-grid.png")
    _export(window, "grid", path, window.grid.export_png)


def export_plot(window) -> None:
    from bloomviz.gui.widgets.plot_export import EXPORT_FILTER   # pyqtgraph's exporters: loaded when first used
    path = _save_path(window, "Export the plot", EXPORT_FILTER, "bloom-fp.png")
    _export(window, "plot", path, window.plot.export)


def save_window_picture(window) -> None:
    path = _save_path(window, "Save a picture of the window", "PNG image (*.png)", "bloomviz.png")
    if path and not window.grab().save(path):
        QtWidgets.QMessageBox.warning(window, "Save failed", f"Could not write {path}.")
