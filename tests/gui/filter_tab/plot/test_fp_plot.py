"""FpPlotWidget: the live false-positive plot draws the series it is given, throttles, toggles and exports."""

import csv
import math
import os
import warnings
import xml.etree.ElementTree as ET

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import numpy as np
import pyqtgraph as pg
import pytest
from PySide6 import QtCore, QtGui

from bloomviz.theory.exact_rate import fp_exact_at
from bloomviz.gui.filter_tab.plot import ESTIMATE_CURVES, FILL_CURVES, RATE_CURVES, FpPlotWidget
from bloomviz.gui.widgets.plot_export import PlotExportError

M, K, PROBES = 1000, 5, 2000
COLUMNS = ("n", "fp_measured", "fp_low", "fp_high", "fp_exact", "fp_approx", "fp_bound",
           "fill", "fill_expected", "n_estimated", "fp_classic")


class FakeSeries:
    """The shape the widget relies on: column(name) -> array and len(); it can grow like the real one."""

    def __init__(self, rows: int, m: int = M, k: int = K, probes: int = PROBES, start: int = 0):
        self.m, self.k, self.probes = m, k, probes
        self._cols = _rows(np.arange(start, start + rows, dtype=float), m, k, probes)

    def column(self, name):
        return self._cols[name]

    def __len__(self):
        return len(self._cols["n"])

    def grow(self, extra: int):
        last = self._cols["n"][-1]
        more = _rows(np.arange(last + 1, last + 1 + extra), self.m, self.k, self.probes)
        self._cols = {c: np.concatenate([self._cols[c], more[c]]) for c in COLUMNS}


def _wilson(hits, trials, z=1.96):
    p = hits / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * np.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return np.clip(centre - half, 0, 1), np.clip(centre + half, 0, 1)


def _rows(n, m, k, probes):
    # Theory straight from the formulas; the "measured" count is the theory rounded down, so it is 0 early on.
    fill_expected = 1 - (1 - 1 / m) ** (k * n)
    classic = fill_expected ** k
    exact = fp_exact_at(m, k, n)
    approx = (1 - np.exp(-k * n / m)) ** k
    bound = (1 - np.exp(-k * (n + 0.5) / (m - 1))) ** k
    hits = np.floor(exact * probes)
    low, high = _wilson(hits, probes)
    fill = np.round(fill_expected * m) / m
    with np.errstate(divide="ignore"):
        estimated = np.where(fill >= 1, np.inf, -(m / k) * np.log1p(-np.minimum(fill, 1)))
    return {"n": n, "fp_measured": hits / probes, "fp_low": low, "fp_high": high, "fp_exact": exact,
            "fp_approx": approx, "fp_bound": bound, "fill": fill, "fill_expected": fill_expected,
            "n_estimated": estimated, "fp_classic": classic}


@pytest.fixture
def widget(qtbot):
    w = FpPlotWidget()
    qtbot.addWidget(w)
    w.resize(1000, 700)
    w.show()
    qtbot.waitExposed(w)
    return w


@pytest.fixture
def series():
    return FakeSeries(300)


# --- the data ------------------------------------------------------------------------------------------------
def test_curves_hold_the_series_columns(widget, series):
    widget.set_series(series)
    for key in RATE_CURVES:
        x, y = widget.curve(key).getData()
        np.testing.assert_array_equal(x, series.column("n"))
        np.testing.assert_array_equal(y, series.column(key))


def test_the_widget_keeps_no_copy_of_the_series(widget, series):
    widget.set_series(series)
    for key in RATE_CURVES:
        x, y = widget.curve(key).getOriginalDataset()
        assert np.shares_memory(y, series.column(key))
        assert np.shares_memory(x, series.column("n"))


def test_measured_and_theory_curves_are_distinguishable(widget, series):
    widget.set_series(series)
    keys = ("fp_measured", "fp_exact", "fp_approx", "fp_bound")
    pens = [widget.curve(k).opts["pen"] for k in keys]
    colours = {pg.mkPen(p).color().name() for p in pens}
    dashes = {pg.mkPen(p).style() for p in pens}
    assert len(colours) == len(keys)
    assert len(dashes) == len(keys)
    legend = widget.plot_item.legend
    names = [label.text for _, label in legend.items]
    for key in keys:
        assert widget.curve(key).name() in names
    assert any("interval" in name for name in names)


def test_band_spans_the_wilson_interval(widget, series):
    widget.set_series(series)
    band = widget.band
    assert isinstance(band, pg.FillBetweenItem)
    assert band in widget.plot_item.items
    rect = band.path().boundingRect()
    assert not band.path().isEmpty()
    assert rect.top() == pytest.approx(series.column("fp_low").min(), abs=1e-9)
    assert rect.bottom() == pytest.approx(series.column("fp_high").max(), rel=1e-6)
    assert rect.left() == pytest.approx(0.0)
    assert rect.right() == pytest.approx(series.column("n")[-1])


def test_a_real_experiment_series_is_drawn(widget):
    experiment = pytest.importorskip("bloomviz.measure.experiment")
    real = experiment.Simulation(m=M, k=K, n=200, probes=1000, seed=3).run()
    assert len(real) == 200
    widget.set_series(real)
    for key in RATE_CURVES:
        x, y = widget.curve(key).getData()
        np.testing.assert_array_equal(x, real.column("n"))
        np.testing.assert_array_equal(y, real.column(key))
    widget.set_show_fill(True)
    widget.set_show_estimate(True)
    for key in FILL_CURVES + ("n_estimated",):
        np.testing.assert_array_equal(widget.curve(key).getData()[1], real.column(key))
    assert widget.values_at(100)["fp_measured"] == real.column("fp_measured")[99]


def test_no_series_and_empty_series_show_nothing(widget, series):
    widget.set_series(series)
    widget.set_series(None)
    assert widget.curve("fp_measured").getData() == (None, None)
    assert widget.band.path().isEmpty()
    assert "No data" in widget.readout_text()
    widget.set_series(FakeSeries(0))
    assert widget.curve("fp_exact").getData() == (None, None)


def test_something_that_is_not_a_series_is_refused(widget, series):
    widget.set_series(series)
    with pytest.raises(TypeError, match="column"):
        widget.set_series([1, 2, 3])
    assert widget.series is series


# --- refresh throttling --------------------------------------------------------------------------------------
def test_a_burst_of_refreshes_redraws_once(widget, series, qtbot):
    widget.set_series(series)
    before = widget.redraw_count
    series.grow(50)
    for _ in range(1000):
        widget.refresh()
    assert widget.redraw_count == before  # nothing redrawn synchronously
    qtbot.waitUntil(lambda: widget.redraw_count == before + 1)
    qtbot.wait(3 * widget.refresh_interval_ms)   # a fixed wait on purpose: no second redraw in three intervals
    assert widget.redraw_count == before + 1
    assert len(widget.curve("fp_measured").getData()[0]) == 350


def test_refresh_now_redraws_at_once(widget, series):
    widget.set_series(series)
    series.grow(10)
    widget.refresh()
    widget.refresh_now()
    assert len(widget.curve("fp_exact").getData()[1]) == 310
    assert widget.refresh_interval_ms >= FpPlotWidget.REFRESH_INTERVAL_MS


# --- log axis ------------------------------------------------------------------------------------------------
def test_log_toggle_sets_the_axis_and_leaves_out_zeros(widget, series, qtbot):
    widget.set_series(series)
    measured = series.column("fp_measured")
    assert (measured == 0).any() and (measured > 0).any()
    with qtbot.waitSignal(widget.logYChanged) as signal, warnings.catch_warnings():
        warnings.simplefilter("error")
        widget.set_log_y(True)
    assert signal.args == [True]
    assert widget.log_y
    assert widget.plot_item.getAxis("left").logMode
    y = widget.curve("fp_measured").getData()[1]
    zero = measured == 0
    assert np.isnan(y[zero]).all()
    np.testing.assert_allclose(y[~zero], np.log10(measured[~zero]))
    # Before the first false positive the measured rate is 0, which has no logarithm: the band does not run
    # down to the axis (that drew a bar suggesting a value); the interval's top is drawn as an upper limit.
    high = series.column("fp_high")
    rect = widget.band.path().boundingRect()
    assert math.isfinite(rect.top()) and math.isfinite(rect.bottom())
    view_bottom = widget.plot_item.getViewBox().viewRange()[1][0]
    assert rect.top() > view_bottom + 1e-6
    assert rect.top() == pytest.approx(np.log10(min(high[zero].min(), series.column("fp_low")[~zero].min())),
                                       rel=1e-6)
    assert rect.bottom() == pytest.approx(np.log10(high.max()), rel=1e-6)
    limit = widget.limit_curve
    assert limit.isVisible()
    ly = limit.getData()[1]
    np.testing.assert_allclose(ly[zero], np.log10(high[zero]))
    assert np.isnan(ly[~zero]).all()
    lo, hi = widget.plot_item.getViewBox().viewRange()[1]
    assert math.isfinite(lo) and math.isfinite(hi)

    widget.set_log_y(False)
    assert not widget.plot_item.getAxis("left").logMode
    assert not widget.limit_curve.isVisible()   # on a linear axis the band from 0 is the truth
    np.testing.assert_array_equal(widget.curve("fp_measured").getData()[1], measured)
    assert not widget.band.has_gaps()


def test_log_check_box_drives_the_toggle(widget, series, qtbot):
    widget.set_series(series)
    box = _check_box(widget, "Log y")
    box.click()
    assert widget.log_y and widget.plot_item.getAxis("left").logMode
    widget.set_log_y(False)
    assert not box.isChecked()


def test_log_from_the_plot_context_menu_is_the_same_toggle(widget, series):
    widget.set_series(series)
    widget.plot_item.ctrl.logYCheck.setChecked(True)
    assert widget.log_y and _check_box(widget, "Log y").isChecked()
    widget.set_log_y(False)
    assert not widget.plot_item.ctrl.logYCheck.isChecked()


def _check_box(widget, text):
    from PySide6.QtWidgets import QCheckBox

    (box,) = [b for b in widget.findChildren(QCheckBox) if b.text() == text]
    return box


# --- capacity ------------------------------------------------------------------------------------------------
def test_capacity_line_sits_at_the_capacity(widget, series, qtbot):
    widget.set_series(series)
    assert not widget.capacity_line.isVisible()
    widget.set_capacity(139)
    assert widget.capacity == 139
    assert widget.capacity_line.isVisible()
    assert widget.capacity_line.value() == pytest.approx(139)
    assert "139" in widget.capacity_line.label.toPlainText()
    widget.set_capacity(5000)
    assert widget.capacity_line.value() == pytest.approx(5000)
    assert "5,000" in widget.capacity_line.label.toPlainText()
    # The x range reaches the capacity even before the series does (auto-range runs before painting).
    qtbot.waitUntil(lambda: widget.plot_item.getViewBox().viewRange()[0][1] >= 5000)
    widget.set_capacity(None)
    assert not widget.capacity_line.isVisible()


@pytest.mark.parametrize("bad", [0, -3, float("nan"), float("inf"), "100", True])
def test_bad_capacity_is_refused_and_changes_nothing(widget, bad):
    widget.set_capacity(200)
    with pytest.raises((TypeError, ValueError), match="capacity"):
        widget.set_capacity(bad)
    assert widget.capacity == 200
    assert widget.capacity_line.value() == pytest.approx(200)


# --- fill and estimate ---------------------------------------------------------------------------------------
def test_fill_plot_appears_with_the_fill_columns(widget, series, qtbot):
    widget.set_series(series)
    layout = widget.graphics.ci
    assert widget.fill_plot_item not in layout.items
    with qtbot.waitSignal(widget.showFillChanged):
        _check_box(widget, "Fill ratio").click()
    assert widget.show_fill
    assert widget.fill_plot_item in layout.items
    for key in FILL_CURVES:
        x, y = widget.curve(key).getData()
        np.testing.assert_array_equal(x, series.column("n"))
        np.testing.assert_array_equal(y, series.column(key))
    lo, hi = widget.fill_plot_item.getViewBox().viewRange()[1]
    assert lo <= 0 and hi >= 1
    widget.set_show_fill(False)
    assert widget.fill_plot_item not in layout.items
    assert not _check_box(widget, "Fill ratio").isChecked()


def test_hidden_plots_are_brought_up_to_date_when_shown(widget, series):
    widget.set_series(series)
    series.grow(20)
    widget.refresh_now()
    widget.set_show_estimate(True)
    x, y = widget.curve("n_estimated").getData()
    assert len(x) == 320
    np.testing.assert_array_equal(widget.curve("n_true").getData()[1], series.column("n"))


def test_estimate_plot_copes_with_a_full_filter(widget):
    full = FakeSeries(60, m=16, k=4, probes=200)  # fills every bit: the estimate becomes infinite
    assert np.isinf(full.column("n_estimated")).any()
    widget.set_series(full)
    widget.set_show_estimate(True)
    assert widget.estimate_plot_item in widget.graphics.ci.items
    lo, hi = widget.estimate_plot_item.getViewBox().viewRange()[1]
    assert math.isfinite(lo) and math.isfinite(hi)
    assert "∞" in widget.readout_text()


def test_subplots_share_the_x_axis(widget, series):
    widget.set_series(series)
    widget.set_show_fill(True)
    widget.set_show_estimate(True)
    widget.plot_item.setXRange(50, 120, padding=0)
    for plot in (widget.fill_plot_item, widget.estimate_plot_item):
        assert plot.getViewBox().viewRange()[0] == pytest.approx([50, 120], abs=1e-6)


# --- readout -------------------------------------------------------------------------------------------------
def test_readout_shows_the_latest_row_then_the_hovered_one(widget, series):
    widget.set_series(series)
    last = series.column("n")[-1]
    assert f"n = {last:,.0f}" in widget.readout_text()
    vb = widget.plot_item.getViewBox()
    scene_pos = vb.mapViewToScene(QtCore.QPointF(120.3, 0.01))
    widget.graphics.scene().sigMouseMoved.emit(scene_pos)
    text = widget.readout_text()
    assert "n = 120" in text
    row = widget.values_at(120.3)
    assert row["n"] == 120
    assert f"{row['fp_exact']:.4g}" in text
    crosshair = [item for item in widget.plot_item.items
                 if isinstance(item, pg.InfiniteLine) and item is not widget.capacity_line]
    assert any(line.isVisible() and line.value() == pytest.approx(120) for line in crosshair)
    widget.graphics.scene().sigMouseMoved.emit(QtCore.QPointF(-50, -50))  # outside every plot
    assert f"n = {last:,.0f}" in widget.readout_text()


def test_values_at_picks_the_nearest_row(widget, series):
    widget.set_series(series)
    assert widget.values_at(-10)["n"] == 0
    assert widget.values_at(1e9)["n"] == series.column("n")[-1]
    assert widget.values_at(41.6)["n"] == 42
    assert widget.values_at(41.4)["fp_bound"] == series.column("fp_bound")[41]


# --- looks ---------------------------------------------------------------------------------------------------
def test_dark_theme_changes_background_and_text(widget, series):
    widget.set_series(series)
    light_bg = widget.graphics.backgroundBrush().color().lightness()
    widget.set_theme(True)
    assert widget.dark
    dark_bg = widget.graphics.backgroundBrush().color().lightness()
    assert dark_bg < 80 < light_bg
    text = widget.plot_item.getAxis("left").textPen().color().lightness()
    assert text > 150


# --- export --------------------------------------------------------------------------------------------------
def test_export_png_is_a_picture(widget, series, tmp_path):
    widget.set_series(series)
    widget.set_capacity(139)
    path = widget.export(tmp_path / "fp.png")
    image = QtGui.QImage(str(path))
    assert not image.isNull() and image.width() > 300
    colours = {image.pixel(x, y) for x in range(0, image.width(), 5) for y in range(0, image.height(), 5)}
    assert len(colours) > 10


def test_export_svg_is_xml(widget, series, tmp_path):
    widget.set_series(series)
    widget.set_log_y(True)  # the band has gaps and a closed outline: the hardest case for the exporter
    widget.set_show_fill(True)
    root = ET.parse(widget.export(tmp_path / "fp.svg")).getroot()
    assert root.tag.endswith("svg")
    assert sum(1 for el in root.iter() if el.tag.endswith("path")) > 5


def test_export_csv_holds_every_row_of_every_curve(widget, series, tmp_path):
    widget.set_series(series)
    widget.set_log_y(True)  # the CSV still holds the original values, zeros included
    path = widget.export(tmp_path / "fp.csv")
    with open(path, newline="") as fh:
        rows = list(csv.reader(fh))
    header = rows[0]
    for key in RATE_CURVES:
        assert f"{widget.curve(key).name()}_y" in header
    assert len(rows) == 1 + len(series)
    col = header.index(f"{widget.curve('fp_measured').name()}_y")
    values = np.array([float(r[col]) for r in rows[1:]])
    np.testing.assert_array_equal(values, series.column("fp_measured"))
    col = header.index(f"{widget.curve('fp_exact').name()}_y")
    exact = np.array([float(r[col]) for r in rows[1:]])
    np.testing.assert_array_equal(exact, series.column("fp_exact"))  # 1e-12 at n = 1 is not rounded to 0


def test_export_refuses_unknown_suffix(widget, series, tmp_path):
    widget.set_series(series)
    with pytest.raises(PlotExportError, match="unknown file type"):
        widget.export(tmp_path / "fp.bmp")
    assert not (tmp_path / "fp.bmp").exists()


# --- long series ---------------------------------------------------------------------------------------------
def test_long_series_is_drawn_downsampled(widget):
    long = FakeSeries(200_000, m=2_000_000, k=7, probes=10_000)
    widget.set_series(long)
    x, y = widget.curve("fp_measured").getData()
    width = widget.plot_item.getViewBox().width()
    assert 0 < len(x) <= 4 * width  # a peak-preserving downsample, not 200,000 points
    assert y.max() == pytest.approx(long.column("fp_measured").max())  # peaks survive
    # the curve holds a few rows per pixel (drawing.draw_rows), the series every row (a CSV export writes them)
    assert widget.curve("fp_measured").getOriginalDataset()[0].size <= 3 * width + 8 and len(long) == 200_000


def test_the_readout_reads_the_latest_row_after_removals(widget):
    # A counting filter's removals append rows with a smaller n: the latest row is not the first with its n.
    s = FakeSeries(10)
    s._cols = {c: np.concatenate([v, v[[8, 7]] * (1.5 if c.startswith("fp_m") else 1.0)]) for c, v in s._cols.items()}
    widget.set_series(s)
    latest = widget.values_at(None)
    assert latest["n"] == s.column("n")[-1] == 7
    assert latest["fp_measured"] == s.column("fp_measured")[-1]
    assert widget.values_at(7.2)["fp_measured"] == s.column("fp_measured")[-1]   # the latest row at n = 7
    assert "n = 7" in widget.readout_text()


def test_an_empty_or_one_point_plot_shows_the_range_to_the_capacity(widget):
    widget.set_capacity(200)
    widget.set_series(FakeSeries(0))
    lo, hi = widget.plot_item.getViewBox().viewRange()[0]
    assert lo == pytest.approx(0) and hi == pytest.approx(210)      # not a sliver around the capacity line
    widget.set_series(FakeSeries(1, start=150))
    lo, hi = widget.plot_item.getViewBox().viewRange()[0]
    assert lo == pytest.approx(0) and hi >= 200
    assert "one point: the filter as it was opened" in widget.readout_text()   # says why there is no curve
    widget.set_series(FakeSeries(300))                              # a curve: autorange fits it again
    assert widget.plot_item.getViewBox().autoRangeEnabled()[0]
