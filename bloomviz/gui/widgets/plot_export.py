"""Export a pyqtgraph plot as PNG, SVG or CSV through pyqtgraph's own exporters.

One helper for every plot in the window (live plot, explorer, compare view), so the file types, the error
messages and the file-dialog filter are the same everywhere::

    path, _ = QFileDialog.getSaveFileName(self, "Export plot", "", EXPORT_FILTER)
    if path:
        export_plot(plot_widget.getPlotItem(), path)

Every file goes through the one atomic writer (``disk.atomic_write``): a FIFO or a device chosen in the save
dialog is refused instead of freezing the window, a read-only file is refused, a 0600 file stays 0600, and a
failed export leaves the old file whole. PNG and SVG are made in memory and then written; a CSV is written a
slice of rows at a time (``csv_export``: a long series is a job in the window).

The format is chosen by the file's suffix. PNG and SVG accept a PlotItem, a PlotWidget, a GraphicsLayout
(several plots at once), a GraphicsLayoutWidget or any graphics item in a scene. CSV needs one PlotItem (or a
PlotWidget): pyqtgraph writes the original, unprocessed data of every curve in it, so a downsampled or
log-scaled view still exports its full data.
"""

from __future__ import annotations

import contextlib
import csv
import io
import os
import sys
from pathlib import Path

import numpy as np
import pyqtgraph as pg
from pyqtgraph.exporters import CSVExporter, ImageExporter, SVGExporter

from bloomviz.disk.atomic_write import AtomicWriter, write_bytes

EXPORT_FILTER = "PNG image (*.png);;SVG vector image (*.svg);;CSV data (*.csv)"
SUFFIXES = (".png", ".svg", ".csv")
CSV_DECIMALS = 400  # the smallest double, 5e-324, needs 324 digits after the point


class PlotExportError(ValueError):
    """The plot cannot be written to the requested file (unknown type, wrong kind of item, bad folder)."""


def export_plot(item, path: str | os.PathLike, *, width: int | None = None) -> Path:
    """Write ``item`` to ``path`` as PNG, SVG or CSV, chosen by the suffix; return the path written.

    ``width`` (PNG only) sets the image width in pixels, the height following the aspect ratio; by default
    the plot's size on screen. Raises PlotExportError for an unknown suffix, a CSV request on something that
    is not a single plot, or a folder that does not exist; OSError if the file cannot be written.
    """
    path = _checked(path)
    suffix = path.suffix.lower()
    if width is not None and (isinstance(width, bool) or not isinstance(width, int) or width < 1):
        raise PlotExportError(f"image width must be a positive integer number of pixels, not {width!r}")

    if suffix == ".csv":
        csv_export(item, path).finish()
    else:
        target = _as_graphics_item(item)
        if suffix == ".png":
            _export_png(target, path, width)
        else:
            with _svg_closed_paths_spelled_out():
                data = SVGExporter(target).export(toBytes=True)
            write_bytes(path, data, "the SVG image")
    return path


def _checked(path) -> Path:
    path = Path(path)
    if path.suffix.lower() not in SUFFIXES:
        shown = repr(path.suffix) if path.suffix else "no suffix"
        raise PlotExportError(
            f"cannot export a plot to {str(path)!r}: unknown file type ({shown}); use .png, .svg or .csv")
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise PlotExportError(f"cannot export a plot to {str(path)!r}: folder {str(folder)!r} does not exist")
    return path


def csv_export(item, path, full_rows=None) -> "CsvExport":
    """The CSV of one plot's curves to ``path``, to be written in slices of rows (``CsvExport``): the curves'
    data is read now, the target checked and its temporary opened now (a bad target fails here).
    ``full_rows(curve)``: see ``CsvExport``."""
    path = _checked(path)
    if path.suffix.lower() != ".csv":
        raise PlotExportError(f"cannot export the plot's data to {str(path)!r}: a data export is a .csv file")
    return CsvExport(_as_plot_item(item, path), path, full_rows)


def png_bytes(image) -> bytes:
    """A QImage or QPixmap encoded as PNG, in memory (then written by the atomic writer)."""
    from PySide6 import QtCore
    buffer = QtCore.QBuffer()
    buffer.open(QtCore.QIODevice.OpenModeFlag.WriteOnly)
    if not image.save(buffer, "PNG"):
        raise OSError("could not encode the picture as PNG")
    return bytes(buffer.data())


def save_png(image, path, what: str = "the picture") -> None:
    """``image`` (QImage or QPixmap) written to ``path`` as PNG through the atomic writer."""
    write_bytes(path, png_bytes(image), what)


def _as_plot_item(item, path: Path) -> pg.PlotItem:
    if isinstance(item, pg.PlotWidget):
        item = item.getPlotItem()
    if not isinstance(item, pg.PlotItem):
        raise PlotExportError(
            f"CSV export to {str(path)!r} needs a single plot (PlotItem), not {type(item).__name__}")
    return item


def _as_graphics_item(item):
    # Widgets are not graphics items: export what they show (a PlotWidget's plot, a layout widget's layout).
    if isinstance(item, pg.PlotWidget):
        return item.getPlotItem()
    if isinstance(item, pg.GraphicsLayoutWidget):
        return item.ci
    if item is None or not hasattr(item, "scene") or item.scene() is None:
        raise PlotExportError(f"cannot export {type(item).__name__}: it is not shown in any plot scene")
    return item


def _export_png(item, path: Path, width: int | None) -> None:
    exporter = ImageExporter(item)
    params = exporter.parameters()
    if width is not None:
        params["width"] = int(width)  # the height follows (ImageExporter keeps the aspect ratio)
    if int(params["width"]) < 1 or int(params["height"]) < 1:
        raise PlotExportError(f"cannot export {str(path)!r}: the plot has no size yet (is it laid out?)")
    save_png(exporter.export(toBytes=True), path, "the PNG image")


def positional(x: float) -> str:
    """``numpy.format_float_positional(x, precision=CSV_DECIMALS)`` for a Python float: the shortest digits that
    read back to ``x`` (``repr``'s), written without an exponent, an integral value ending in a point ("5.")."""
    return _positional_of_repr(repr(x))


def _positional_of_repr(text: str) -> str:
    if text[-2:] == ".0":
        return text[:-1]
    if "e" not in text:
        return text if "." in text or text[-1] in "nf" else text + "."      # (nan, inf)
    mantissa, exponent = text.split("e")
    sign = "-" if mantissa[0] == "-" else ""
    whole, _, fraction = mantissa.lstrip("-").partition(".")
    digits, point = whole + fraction, len(whole) + int(exponent)
    if point <= 0:
        return f"{sign}0.{'0' * -point}{digits}"
    if point >= len(digits):
        return f"{sign}{digits}{'0' * (point - len(digits))}."
    return f"{sign}{digits[:point]}.{digits[point:]}"


def _column_texts(column) -> list[str]:
    column = np.asarray(column)
    if not (column.dtype == np.float64 or column.dtype.kind in "iu"):
        return [np.format_float_positional(x, precision=CSV_DECIMALS) for x in column]  # float32: its own digits
    values = column.astype(np.float64)
    texts = np.array(list(map(repr, values.tolist())), dtype=object)
    with np.errstate(invalid="ignore"):
        size = np.abs(values)
        # repr writes a whole number below 1e16 as "5.0" (numpy: "5."), and uses an exponent below 1e-4 and from
        # 1e16 up; only those are rewritten, in bulk where they are whole numbers (a plot's x: every one)
        whole = (values == np.floor(values)) & (size < 1e16) & ~((values == 0) & np.signbit(values))
        exponent = ((size < 1e-4) & (values != 0)) | ((size >= 1e16) & np.isfinite(values))
    if whole.any():
        texts[whole] = [f"{n}." for n in values[whole].astype(np.int64).tolist()]
    tiny = exponent & (size < 1e-4)     # a rate's first values: "d.ddde-XX" -> "0.0000ddd", in bulk
    if tiny.any():
        texts[tiny] = [_tiny(text) for text in texts[tiny].tolist()]
    for i in np.flatnonzero((exponent & ~tiny) | (texts == "-0.0")).tolist():
        texts[i] = _positional_of_repr(texts[i])
    return texts.tolist()


def _tiny(text: str) -> str:
    mantissa, exponent = text.split("e")
    sign = mantissa[0] == "-"
    whole, _, fraction = (mantissa[1:] if sign else mantissa).partition(".")
    return ("-0." if sign else "0.") + "0" * (-len(whole) - int(exponent)) + whole + fraction


class CsvExport:
    """pyqtgraph's CSV export (0.14: the header and columns its ``CSVExporter`` gathers, every value written
    ``format_float_positional(x, precision=CSV_DECIMALS)``), written a slice of rows at a time through an
    AtomicWriter, so that a window can run it as a job with progress and Cancel.

    pyqtgraph's call per value took 3.5 s of the GUI thread for the live plot after 101,000 inserts (9.4 MB;
    found by the window walk, 21 s frozen on a loaded machine), 35 s after 10^6: values are formatted a column at
    a time (``_column_texts``), and the window writes a long series in steps (``gui/window/exports.py``).
    tests/gui/widgets/test_plot_export.py compares the file with pyqtgraph's byte for byte.

    ``step(count)`` writes up to ``count`` more rows and returns how many (0: all are written); ``finish()``
    writes the rest and puts the file in place; ``discard()`` drops the temporary (the target is untouched).
    A failed write discards the temporary before the ``OSError`` goes on.

    ``full_rows(curve)``: for a curve that draws fewer points than its data has (the live plot's decimated
    series), ``(rows, length)`` where ``rows(start, stop)`` gives its full data's ``(x, y)`` for those rows,
    computed a step at a time; None for a curve exported as it is drawn. The header and the columns' order are
    pyqtgraph's all the same."""

    def __init__(self, plot: pg.PlotItem, path, full_rows=None):
        gather = CSVExporter(plot)
        self._columns: list = []    # an array each, or (rows, which): column ``which`` of what rows(a, b) gives
        for item in plot.items:     # what pyqtgraph's export gathers (header and columns), in its order
            before = len(gather.data)
            if isinstance(item, pg.ErrorBarItem):
                gather._exportErrorBarItem(item)
            elif hasattr(item, "implements") and item.implements("plotData"):
                gather._exportPlotDataItem(item)
            if len(gather.data) == before:
                continue
            full = full_rows(item) if full_rows is not None else None
            if full is None:
                self._columns += [np.array(column) for column in gather.data[-1]]
            else:
                rows, length = full
                self._columns += [(rows, length, 0), (rows, length, 1)]
        self._rows: dict = {}       # rows -> its (x, y) for the slice being written
        self.path = Path(path)
        self.total = max((len(c) if isinstance(c, np.ndarray) else c[1] for c in self._columns), default=0)
        self.done = 0
        self._writer = AtomicWriter(path, "the CSV file")
        self._write([gather.header])

    def step(self, count: int) -> int:
        stop = min(self.total, self.done + max(int(count), 0))
        made = stop - self.done
        if made <= 0:
            return 0
        texts, self._rows = [], {}
        for column in self._columns:
            part = _column_texts(self._slice(column, self.done, stop))
            texts.append(part + [""] * (made - len(part)))     # a shorter curve: empty cells (zip_longest's)
        self._rows = {}
        self._write(zip(*texts))
        self.done = stop
        return made

    def _slice(self, column, start: int, stop: int):
        if isinstance(column, np.ndarray):
            return column[start:stop]
        rows, length, which = column
        if rows not in self._rows:
            self._rows[rows] = rows(start, min(stop, length)) if start < length else (np.zeros(0), np.zeros(0))
        return self._rows[rows][which]

    def finish(self) -> Path:
        while self.step(1 << 16):
            pass
        self._writer.commit()
        return self.path

    def discard(self) -> None:
        self._writer.discard()

    def _write(self, rows) -> None:
        text = io.StringIO()
        csv.writer(text, delimiter=",", quoting=csv.QUOTE_MINIMAL).writerows(rows)
        try:
            self._writer.write(text.getvalue().encode("utf-8"))
        except BaseException:
            self._writer.discard()
            raise


# pyqtgraph 0.14.0's SVG exporter re-maps every path's coordinates and expects only "Mx,y"/"Lx,y" tokens;
# Qt 6 ends closed sub-paths (the view box frame, a filled band) with a bare "Z", which makes the export
# fail with "not enough values to unpack" (pyqtgraph issue #3495). While our export runs, each "Z" is
# replaced by the equivalent explicit line back to its sub-path's start, which the exporter understands.
_SVG_MODULE = sys.modules[SVGExporter.__module__]


def _close_paths_explicitly(node) -> None:
    for element in node.getElementsByTagName("path"):
        d = element.getAttribute("d")
        if "Z" not in d and "z" not in d:
            continue
        tokens, start = [], None
        for token in d.split():
            if token in ("Z", "z"):
                if start is not None:
                    tokens.append("L" + start)
                continue
            if token[0] in "Mm":
                start = token[1:]
            tokens.append(token)
        element.setAttribute("d", " ".join(tokens))


@contextlib.contextmanager
def _svg_closed_paths_spelled_out():
    original = getattr(_SVG_MODULE, "correctCoordinates", None)
    if original is None:  # a pyqtgraph without that step needs no help
        yield
        return

    def correct_coordinates(node, defs, item, options):
        _close_paths_explicitly(node)
        return original(node, defs, item, options)

    _SVG_MODULE.correctCoordinates = correct_coordinates
    try:
        yield
    finally:
        _SVG_MODULE.correctCoordinates = original
