"""export_plot: PNG, SVG and CSV of any pyqtgraph plot through pyqtgraph's exporters."""

import csv
import os
import xml.etree.ElementTree as ET

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import numpy as np
import pyqtgraph as pg
import pytest
from PySide6 import QtGui

from bloomviz.gui.widgets.plot_export import EXPORT_FILTER, SUFFIXES, PlotExportError, export_plot


@pytest.fixture
def plot(qtbot):
    widget = pg.PlotWidget()
    widget.setBackground("w")
    qtbot.addWidget(widget)
    widget.resize(500, 350)
    x = np.arange(50, dtype=float)
    widget.plot(x, x ** 2, pen=pg.mkPen("r", width=3), name="square")
    widget.plot(x, 40 * x, pen=pg.mkPen("b", width=3), name="linear")
    widget.show()
    qtbot.waitExposed(widget)
    return widget


def _colours(image: QtGui.QImage, step: int = 7) -> set:
    return {image.pixel(x, y) for x in range(0, image.width(), step) for y in range(0, image.height(), step)}


def test_filter_offers_every_suffix():
    for suffix in SUFFIXES:
        assert f"*{suffix}" in EXPORT_FILTER
    assert len(EXPORT_FILTER.split(";;")) == len(SUFFIXES)


def test_png_is_a_readable_picture_of_the_plot(plot, tmp_path):
    path = export_plot(plot.getPlotItem(), tmp_path / "plot.png")
    image = QtGui.QImage(str(path))
    assert not image.isNull()
    assert image.width() > 100 and image.height() > 100
    colours = _colours(image)
    assert len(colours) > 3  # background, axes, two curves at least
    red = [c for c in colours if QtGui.QColor(c).red() > 200 and QtGui.QColor(c).green() < 80]
    assert red, "the red curve is missing from the image"


def test_png_width_sets_the_image_size(plot, tmp_path):
    path = export_plot(plot, tmp_path / "wide.PNG", width=1234)
    image = QtGui.QImage(str(path))
    assert image.width() == 1234
    ratio = plot.getPlotItem().sceneBoundingRect().height() / plot.getPlotItem().sceneBoundingRect().width()
    assert image.height() == pytest.approx(1234 * ratio, abs=2)


def test_svg_is_xml_with_the_curves(plot, tmp_path):
    path = export_plot(plot.getPlotItem(), tmp_path / "plot.svg")
    root = ET.parse(path).getroot()
    assert root.tag.endswith("svg")
    paths = [el for el in root.iter() if el.tag.endswith("path")]
    assert len(paths) >= 2


def test_csv_has_headers_and_every_row(plot, tmp_path):
    path = export_plot(plot.getPlotItem(), tmp_path / "plot.csv")
    with open(path, newline="") as fh:
        rows = list(csv.reader(fh))
    assert rows[0] == ["square_x", "square_y", "linear_x", "linear_y"]
    assert len(rows) == 1 + 50
    assert float(rows[11][0]) == pytest.approx(10.0)  # row 0 is the header
    assert float(rows[11][1]) == pytest.approx(100.0)
    assert float(rows[11][3]) == pytest.approx(400.0)


def test_csv_keeps_tiny_values_exactly(qtbot, tmp_path):
    widget = pg.PlotWidget()
    qtbot.addWidget(widget)
    values = np.array([3e-12, 1.2345678901234567e-15, 0.0, 0.5, 1e-300, 123456.789])
    widget.plot(np.arange(len(values), dtype=float), values, name="rate")
    path = export_plot(widget, tmp_path / "tiny.csv")
    with open(path, newline="") as fh:
        rows = list(csv.reader(fh))[1:]
    np.testing.assert_array_equal([float(r[1]) for r in rows], values)


def test_plot_widget_is_accepted_for_csv(plot, tmp_path):
    path = export_plot(plot, tmp_path / "w.csv")
    assert path.read_text().startswith("square_x")


def test_layout_of_several_plots_exports_as_image(qtbot, tmp_path):
    win = pg.GraphicsLayoutWidget()
    qtbot.addWidget(win)
    win.resize(400, 500)
    win.addPlot(row=0, col=0).plot([0, 1, 2], [2, 0, 1], pen="g")
    win.addPlot(row=1, col=0).plot([0, 1, 2], [0, 1, 0], pen="y")
    win.show()
    qtbot.waitExposed(win)
    image = QtGui.QImage(str(export_plot(win, tmp_path / "two.png")))
    assert image.height() > image.width() * 0.9  # both stacked plots, not just one
    assert ET.parse(export_plot(win.ci, tmp_path / "two.svg")).getroot().tag.endswith("svg")
    with pytest.raises(PlotExportError, match="single plot"):
        export_plot(win, tmp_path / "two.csv")


@pytest.mark.parametrize("name", ["plot.jpg", "plot", "plot.png.txt", "plot.pdf"])
def test_unknown_suffix_is_refused_naming_the_file(plot, tmp_path, name):
    target = tmp_path / name
    with pytest.raises(PlotExportError, match="unknown file type") as info:
        export_plot(plot, target)
    assert name in str(info.value)
    assert not target.exists()


def test_missing_folder_is_refused(plot, tmp_path):
    target = tmp_path / "nowhere" / "plot.png"
    with pytest.raises(PlotExportError, match="does not exist"):
        export_plot(plot, target)


@pytest.mark.parametrize("width", [0, -5, 2.5, True, "800"])
def test_bad_width_is_refused(plot, tmp_path, width):
    with pytest.raises(PlotExportError, match="width"):
        export_plot(plot, tmp_path / "plot.png", width=width)
    assert not (tmp_path / "plot.png").exists()


def test_item_outside_any_scene_is_refused(qtbot, tmp_path):
    with pytest.raises(PlotExportError, match="not shown"):
        export_plot(pg.PlotItem(), tmp_path / "plot.png")


def test_svg_export_leaves_pyqtgraph_as_it_was(plot, tmp_path):
    import sys

    from pyqtgraph.exporters import SVGExporter

    module = sys.modules[SVGExporter.__module__]
    before = module.correctCoordinates
    export_plot(plot, tmp_path / "a.svg")
    assert module.correctCoordinates is before
    text = (tmp_path / "a.svg").read_text()
    assert " Z" not in text  # closed frames were spelled out as lines, the exporter accepted them


def test_csv_is_byte_for_byte_what_pyqtgraphs_exporter_writes(qtbot, tmp_path):
    # the export formats a column at a time (pyqtgraph's per-value call froze the window for seconds on a long
    # series); the file must stay what pyqtgraph's own exporter writes, for every kind of value and column
    from pyqtgraph.exporters import CSVExporter
    from bloomviz.gui.widgets.plot_export import CSV_DECIMALS
    widget = pg.PlotWidget()
    qtbot.addWidget(widget)
    rng = np.random.default_rng(27)
    wide = rng.uniform(-1, 1, 3000) * 10.0 ** rng.integers(-320, 308, 3000)
    odd = np.array([0.0, -0.0, 1.0, 5e-324, 1.7976931348623157e308, 1e16, 2.0 ** 60, 0.1 + 0.2, 3e-12, 1.5e-7,
                    np.nan, np.inf, -np.inf, 123456.789, -2.5])
    widget.plot(np.arange(len(wide), dtype=float), wide, name="wide")
    widget.plot(np.arange(len(odd), dtype=np.int64), odd, name="odd")        # a shorter curve: blank cells
    widget.plot(np.arange(5, dtype=np.float32), np.array([0.1, 1e-7, 3.5, 1e30, 7], dtype=np.float32), name="f32")
    ours = export_plot(widget, tmp_path / "ours.csv")
    theirs = CSVExporter(widget.getPlotItem())
    theirs.parameters()["precision"] = CSV_DECIMALS
    theirs.export(fileName=str(tmp_path / "theirs.csv"))
    assert ours.read_bytes() == (tmp_path / "theirs.csv").read_bytes()
