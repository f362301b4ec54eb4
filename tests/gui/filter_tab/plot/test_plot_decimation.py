"""The live plot draws a long series decimated (a few rows per pixel, every spike of the measured rate kept) and
still exports every row."""

import csv
import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import numpy as np
import pytest

from bloomviz.gui.filter_tab.plot import FpPlotWidget
from bloomviz.gui.filter_tab.plot.drawing import DECIMATE_ABOVE, draw_rows
from test_fp_plot import FakeSeries


def test_short_series_are_drawn_whole():
    n = np.arange(1, DECIMATE_ABOVE + 1, dtype=float)
    assert draw_rows(n, np.zeros_like(n), pixels=800) is None


def test_rows_keep_the_ends_and_every_bucket_extreme():
    rng = np.random.default_rng(1)
    n = np.arange(1, 1_000_001, dtype=float)
    measured = np.cumsum(rng.random(n.size) < 0.001) / 10_000.0
    measured[123_457] = 5.0          # a spike and a dip must be drawn
    measured[765_431] = -1.0
    rows = draw_rows(n, measured, pixels=700)
    assert rows is not None and len(rows) <= 3 * 700 + 8
    assert np.all(np.diff(rows) > 0)
    assert {0, 123_457, 765_431, n.size - 1} <= set(rows.tolist())
    # between two drawn rows the measured rate stays within what is drawn around them (no hidden excursion)
    assert measured[rows].max() == measured.max() and measured[rows].min() == measured.min()


def test_a_zoomed_view_gets_its_own_rows():
    n = np.arange(1, 2_000_001, dtype=float)
    rows = draw_rows(n, np.sqrt(n), pixels=500, x_range=(1_000_000.0, 1_010_000.0))
    inside = rows[(n[rows] >= 1_000_000) & (n[rows] <= 1_010_000)]
    assert len(inside) >= 500 and {0, n.size - 1} <= set(rows.tolist())


@pytest.fixture
def widget(qtbot):
    w = FpPlotWidget()
    qtbot.addWidget(w)
    w.resize(900, 600)
    w.show()
    qtbot.waitExposed(w)
    return w


def test_the_widget_draws_few_rows_and_exports_all(widget, tmp_path):
    series = FakeSeries(60_000)
    widget.set_series(series)
    x, y = widget.curve("fp_measured").getData()
    assert len(x) < 3 * 900 + 8 and x[-1] == series.column("n")[-1]
    np.testing.assert_array_equal(y, series.column("fp_measured")[np.searchsorted(series.column("n"), x)])
    assert widget.values_at(None)["n"] == series.column("n")[-1]
    with open(widget.export(tmp_path / "fp.csv"), newline="") as fh:
        assert len(list(csv.reader(fh))) == 1 + len(series)
    assert len(widget.curve("fp_measured").getData()[0]) < 3 * 900 + 8     # decimated again after the export


def test_zooming_in_and_back_chooses_the_rows_again(widget, qtbot):
    series = FakeSeries(200_000, m=2_000_000, k=7, probes=10_000)
    widget.set_series(series)

    def rows():   # the rows the curve was given (getData gives what it displays, clipped to the view)
        return widget.curve("fp_exact").getOriginalDataset()[0]

    vb = widget.plot_item.getViewBox()
    vb.setXRange(100_000, 101_000, padding=0)
    qtbot.waitUntil(lambda: ((rows() >= 100_000) & (rows() <= 101_000)).sum() >= 1_000, timeout=3_000)
    vb.enableAutoRange()
    qtbot.waitUntil(lambda: ((rows() >= 100_000) & (rows() <= 101_000)).sum() < 100, timeout=3_000)
    x = rows()
    assert len(x) < 3 * 900 + 8 and x[0] == 0 and x[-1] == 199_999 and np.all(np.diff(x) < 1_000)


def test_a_smooth_curve_gets_each_buckets_first_row():
    n = np.arange(1, 1_000_001, dtype=float)
    rng = np.random.default_rng(2)
    measured = rng.random(n.size)
    every, smooth = draw_rows(n, measured, pixels=700), draw_rows(n, None, pixels=700)
    assert set(smooth.tolist()) < set(every.tolist())           # the same buckets, their first rows
    assert len(smooth) <= 700 + 8 and {0, n.size - 1} <= set(smooth.tolist())
    assert np.all(np.diff(smooth) > 0) and np.diff(smooth).max() <= -(-n.size // 700)   # a row a bucket
    assert draw_rows(n[:DECIMATE_ABOVE], None, pixels=700) is None


def test_theory_curves_are_drawn_from_fewer_rows_than_the_measured_one(widget):
    series = FakeSeries(60_000)
    widget.set_series(series)
    measured_x = widget.curve("fp_measured").getOriginalDataset()[0]
    exact_x, exact_y = widget.curve("fp_exact").getOriginalDataset()
    assert len(exact_x) < len(measured_x) and set(exact_x.tolist()) <= set(measured_x.tolist())
    assert exact_x[0] == measured_x[0] and exact_x[-1] == measured_x[-1]
    np.testing.assert_array_equal(exact_y, series.column("fp_exact")[np.searchsorted(series.column("n"), exact_x)])


def test_pyqtgraph_limits_off_view_points_only_when_the_user_zoomed_y(widget, qtbot):
    widget.set_series(FakeSeries(60_000))
    curve, vb = widget.curve("fp_measured"), widget.plot_item.getViewBox()
    assert curve.opts["dynamicRangeLimit"] is None and not curve.opts["autoDownsample"]   # decimated, y fitted
    vb.setYRange(0.001, 0.002, padding=0)        # the user's zoom: y no longer fits the curves
    assert curve.opts["dynamicRangeLimit"] == 1e6
    vb.enableAutoRange()
    widget.refresh_now()
    assert curve.opts["dynamicRangeLimit"] is None
    widget.set_series(FakeSeries(500))            # drawn whole: pyqtgraph's own downsampling as the plot says
    assert curve.opts["autoDownsample"] and curve.opts["clipToView"]


def test_the_band_is_built_once_a_redraw(widget, monkeypatch):
    widget.set_series(FakeSeries(60_000))
    band, built = widget.band, []
    original = type(band).setPath
    monkeypatch.setattr(type(band), "setPath", lambda self, path: (built.append(1), original(self, path)))
    widget.refresh_now()
    assert len(built) == 1 and not band.path().isEmpty()
