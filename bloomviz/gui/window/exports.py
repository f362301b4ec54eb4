"""File → Export grid, Export plot, Save window picture: a file dialog, the picture, a line in the status bar.

Each picture is written by the one atomic writer (``plot_export.save_png`` / ``export_plot``): a FIFO picked in
the dialog is refused with a message instead of freezing the window. The plot's CSV of a long series is written
as the window's job (``export_csv_job``), with progress and Cancel."""

from __future__ import annotations

from PySide6 import QtCore, QtWidgets
from bloomviz.i18n import tr

# A plot with more rows than this writes its CSV as a job: ~0.2 s of formatting at once, a step at a time past it
# (10^6 rows took ~13 s of the GUI thread in one go).
CSV_AT_ONCE_ROWS = 16_384


def _save_path(window, title: str, filters: str, default: str) -> str:
    path, _ = QtWidgets.QFileDialog.getSaveFileName(window, tr(title), default, filters)
    return path


def _export(window, what: str, path: str, write) -> None:
    if not path:
        return
    window.wb.flush()   # the picture shows every operation made so far (a script's of this turn too)
    try:
        write(path)
        _saved(window, what, path)
    except (OSError, RuntimeError, ValueError) as exc:
        _failed(window, path, exc)


def _saved(window, what: str, path: str) -> None:
    window.statusBar().showMessage(tr("Saved the {what} to {path}").format(what=tr(what), path=path), 6_000)


def _failed(window, path: str, exc: BaseException) -> None:
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
    series = window.plot.series
    if path and path.lower().endswith(".csv") and series is not None and len(series) > CSV_AT_ONCE_ROWS:
        export_csv_job(window, path)
    else:
        _export(window, "plot", path, window.plot.export)


def export_csv_job(window, path: str) -> bool:
    """The plot's CSV written as the window's job: a slice of rows per turn of the event loop, with the status
    bar's progress and Cancel (Esc). A cancel or a failure leaves no file and no temporary (the old file, if
    any, whole); False when it did not start (a refused target, other bulk work running)."""
    wb = window.wb
    if wb.busy:     # (checked before the curves are read: reading every row of a long series takes a moment)
        window.statusBar().showMessage(
            tr("The plot's data cannot be exported while bulk work runs; cancel it first (Esc)."), 8_000)
        return False
    try:
        job = window.plot.csv_export(path)
    except (OSError, RuntimeError, ValueError) as exc:
        _failed(window, path, exc)
        return False
    failure: list[BaseException] = []

    def step(count: int) -> int:
        try:
            return job.step(count)
        except Exception as exc:    # (the temporary is gone) said when the job ends, not left running for ever
            job.discard()
            failure.append(exc)
            return 0

    def finished(_done: int, _total: int, cancelled: bool) -> None:
        wb.jobFinished.disconnect(finished)
        if cancelled:
            job.discard()
            window.statusBar().showMessage(
                tr("Export of {path} cancelled; nothing was written.").format(path=path), 8_000)
            return
        try:
            if failure:
                raise failure[0]
            job.finish()
        except (OSError, RuntimeError, ValueError) as exc:
            job.discard()
            _failed(window, path, exc)
            return
        _saved(window, "plot", path)

    wb.jobFinished.connect(finished)
    if not wb.run_steps(step, job.total, "rows of the plot's data"):
        wb.jobFinished.disconnect(finished)
        job.discard()
        return False
    return True


def save_window_picture(window) -> None:
    from bloomviz.gui.widgets.plot_export import save_png
    path = _save_path(window, "Save a picture of the window", "PNG image (*.png)", "bloomviz.png")
    _export(window, "window picture", path, lambda target: save_png(window.grab(), target, "the window picture"))
