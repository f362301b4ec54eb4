"""The live false-positive plot: the rate measured after every insert against the three theory curves.

``FpPlotWidget`` draws a series it is told about and never copies it: the main window calls
``set_series(series)`` once (any object with ``column(name) -> numpy array`` and ``len()``; in the app the
workbench's ``bloomviz.measure.series.Series``), then ``refresh()`` whenever the workbench says the series
changed. ``refresh()`` only marks the plot stale and starts a short single-shot timer, so a burst of calls
(auto-play at full speed emits thousands a second) costs one redraw per timer period — at most
``1000 / REFRESH_INTERVAL_MS`` redraws a second. ``refresh_now()`` redraws at once.

What it shows:

- the measured rate (column ``fp_measured``) as a solid line, its Wilson interval (``fp_low``..``fp_high``)
  as a translucent band;
- theory ``fp_exact`` (the exact rate), ``fp_classic`` (Bloom's formula), ``fp_approx`` and ``fp_bound``, told apart by colour and by dash style, with a legend
  (clicking a legend entry hides or shows that curve);
- a vertical line at the design capacity (``set_capacity(n)``; ``None`` hides it). The line takes part in
  auto-ranging, so the x axis reaches the capacity from the first insert and the curve grows towards it;
- optionally, below the rate plot and sharing its x axis, the fill ratio against the expected fill
  (``set_show_fill``) and the estimated n against the true n (``set_show_estimate``);
- a readout under the plot: the values of every curve at the n under the mouse, or at the latest n when the
  mouse is elsewhere.

Toggles are methods (``set_log_y``, ``set_show_fill``, ``set_show_estimate``) mirrored by a row of check
boxes in the widget; each change is announced by a signal (``logYChanged`` ...) so menu actions can follow.
On a log axis, rates of 0 (the measured rate before the first false positive, the theory at n = 0) have no
logarithm: those points are left out of the lines, and the band's lower edge runs off the bottom of the view.

``set_font_scale(f)`` scales the text drawn inside the plots (ticks, axis labels, titles, legends) for
projection; the check boxes and the readout are ordinary Qt widgets and follow the application font.
The widget owns its state (the series, the toggles, capacity, reference, the theory's name); the parts that
act on its pyqtgraph items (``parts.py`` lists them) are made on its first showing or first need. Large
series stay fast: past a few thousand rows the curves draw a few rows per pixel
(``drawing.draw_rows``: each bucket's first row and its lowest and highest measured rate), over the visible range when zoomed.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6 import QtCore, QtWidgets

from bloomviz.gui.filter_tab.plot import parts
from bloomviz.gui.filter_tab.plot.readout import values_at
from bloomviz.gui.filter_tab.plot.style import BROKEN_LABEL, LABELS, checked_font_scale, positive_number
from bloomviz.gui.timing import after_paint, claim_paint

if TYPE_CHECKING:    # the parts (parts.py) and pyqtgraph are imported when the plot is built
    import pyqtgraph as pg

    from bloomviz.gui.widgets.plot_export import CsvExport
    from bloomviz.gui.widgets.wilson_band import WilsonBand


class FpPlotWidget(QtWidgets.QWidget):
    """Measured false-positive rate with its interval, against theory; see the module docstring."""

    logYChanged = QtCore.Signal(bool)
    showFillChanged = QtCore.Signal(bool)
    showEstimateChanged = QtCore.Signal(bool)
    #: After every redraw, with the n drawn: the window redraws its other "n now" panels on it, so that the
    #: plot, the status line and the fill gauge never show different n (they did during auto-play, each on
    #: its own timer).
    redrawn = QtCore.Signal(int)

    REFRESH_INTERVAL_MS = 33  # about 30 redraws a second at most
    MAX_REFRESH_INTERVAL_MS = 1000
    TITLE = "False-positive rate as items are inserted"
    X_LABEL = "items inserted n"

    def __init__(self, parent=None, *, series=None, dark: bool = False, font_scale: float = 1.0):
        super().__init__(parent)
        self._built = self._building = False
        self._series = None
        self._capacity: float | None = None
        self._reference: tuple[float, str] | None = None
        self._log_y = self._show_fill = self._show_estimate = False
        self._theory_label: str | None = None             # a variant's own name for the exact curve
        self._formula_break: tuple[int, int] | None = None  # (row, k): set_formula_break
        self._dark, self._font_scale = False, 1.0
        self._hidden_curves: set[str] = set()     # set_curve_visible(key, False)
        self.redraw_count = 0  # how many times the curves were redrawn (throttling is observable)

        self._timer = QtCore.QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(self.REFRESH_INTERVAL_MS)
        self._timer.timeout.connect(self.refresh_now)

        layout = QtWidgets.QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.setSpacing(2)
        self.set_theme(dark)
        self.set_font_scale(font_scale)
        if series is not None:
            self.set_series(series)
        else:
            self.refresh_now()

    # --- its parts, made once ---------------------------------------------------------------------------------
    def __getattr__(self, name: str):
        # only for a part not made yet: a call that draws makes them first, whoever calls it
        if name in parts.MADE and not self.__dict__.get("_building", True):
            self.build()
            return self.__dict__[name]
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    @property
    def built(self) -> bool:
        """Whether the plot's parts are made (they are on its first showing, or by ``build``)."""
        return self._built

    def build(self) -> None:
        """Make the plot's parts now (``parts.py``) and draw them as the state set so far says; once, and whole:
        a part that raises takes every part made before it away again (``parts.unbuild``), so the next try
        (the next showing) starts from none instead of adding a second set beside half of one."""
        if self._built:
            return
        laid_out = self.layout().count()
        self._building = True
        try:
            parts.build(self)
            self._built = True    # (the state is drawn as on a built plot: its handlers ask)
            parts.apply_state(self)
        except BaseException:
            self._built = False
            parts.unbuild(self, laid_out)
            raise
        finally:
            self._building = False
        self.refresh_now()

    def showEvent(self, event) -> None:
        if not self._built:
            self.build()
        super().showEvent(event)

    # --- the data ---------------------------------------------------------------------------------------------
    @property
    def series(self):
        return self._series

    def set_series(self, series) -> None:
        """Draw ``series`` from now on (``None`` clears the plot); redraws at once."""
        if series is not None and not (hasattr(series, "column") and hasattr(series, "__len__")):
            raise TypeError(f"a series needs column(name) and len(); got {type(series).__name__}")
        self._series = series
        self.refresh_now()

    def refresh(self) -> None:
        """Note that the series changed; the redraw follows within REFRESH_INTERVAL_MS, once per burst."""
        if not self._timer.isActive():
            self._timer.start()

    @property
    def refresh_interval_ms(self) -> int:
        """The current throttle period: REFRESH_INTERVAL_MS, longer while redraws are expensive."""
        return self._timer.interval()

    def refresh_now(self, *, words_after_paint: bool = False) -> None:
        """Redraw every visible curve from the series now; the readout and ``redrawn`` at once, or with
        ``words_after_paint`` (bulk work) in a turn after the curves' paint, so their labels paint apart."""
        self._timer.stop()
        self.redraw_count += 1
        if not self._built:      # drawn when built; the panels showing "n now" follow all the same
            self.redrawn.emit(self.drawn_n)
            return
        started, viewport = time.perf_counter(), self._graphics.viewport()
        claim_paint(viewport)   # the plot paints again: other large repaints wait for it (timing.py)
        self._painter.draw()
        # A million-row series takes tens of milliseconds to redraw; spacing redraws by a few times that
        # leaves most of the event loop to the work that is producing the rows.
        cost_ms = 1000.0 * (time.perf_counter() - started)
        self._timer.setInterval(int(min(self.MAX_REFRESH_INTERVAL_MS, max(self.REFRESH_INTERVAL_MS, 4 * cost_ms))))
        if words_after_paint:   # (claimed: the history table's flush waits for the labels' paint too)
            after_paint(viewport, lambda: (claim_paint(self._readout.label), self._say_drawn()))
        else:
            self._say_drawn()

    def _say_drawn(self) -> None:       # the readout and the panels showing "n now", for the last curves drawn
        self._readout.update()
        self.redrawn.emit(self.drawn_n)

    @property
    def drawn_n(self) -> int:
        """The n of the latest row drawn (0 with no data): what panels showing "n now" should agree with. Before
        the plot is built, the n it will draw."""
        if self._built:
            return self._painter.drawn_n
        series = self._series
        return int(series.column("n")[-1]) if series is not None and len(series) else 0

    @property
    def redraw_pending(self) -> bool:
        """Whether the series changed since the last redraw (a throttled redraw is on its way)."""
        return self._timer.isActive()

    def _placed(self) -> None:
        # the plots' sizes are known once the legend is placed: the axis titles and the capacity's label fit them
        self._looks.fit_axis_labels()
        self._painter.fit_capacity_label()

    def _on_rate_x_range(self, *_):
        self._painter.fit_capacity_label()     # the line moved across the view: its label's room changed
        if self._painter.wants_redraw_for_x_range():
            self.refresh()

    # --- capacity, reference, the theory's name -----------------------------------------------------------------
    @property
    def capacity(self) -> float | None:
        return self._capacity

    def set_capacity(self, n) -> None:
        """Mark the design capacity n with a vertical line; ``None`` removes the mark."""
        self._capacity = None if n is None else positive_number("capacity", n)
        if self._built:
            self._painter.draw_capacity()

    @property
    def reference(self) -> tuple[float, str] | None:
        return self._reference

    def set_reference(self, value, label: str = "") -> None:
        """A horizontal line at rate ``value`` named ``label`` in the legend (a scalable filter's compound bound
        p); ``None`` removes it. Drawn as a two-point curve from n = 0 to the latest n (or the capacity), so
        it follows the log axis like the other curves."""
        if value is not None:
            value = positive_number("reference rate", value)
        if self._built and self._reference is not None:
            self._legend.remove(self._items.reference_curve)
        self._reference = None if value is None else (value, str(label) or f"reference {value:g}")
        if self._built:
            if self._reference is not None:
                self._legend.add(self._items.reference_curve, self._reference[1])
            self._painter.draw_reference()

    def set_theory_label(self, text: str | None = None) -> None:
        """Rename the exact-theory curve (a variant's own formula); None restores "theory: exact"."""
        self._theory_label = text
        if self._built:
            self._name_theory()

    @property
    def formula_break(self) -> tuple[int, int] | None:
        """(row, k) from ``set_formula_break``, or None."""
        return self._formula_break

    def set_formula_break(self, row: int | None, k: int | None = None) -> None:
        """From series row ``row`` on, the ``fp_exact`` column is the rate of n inserts into a fresh filter, no
        longer this filter's (a counting filter after a forced removal: ``Workbench.formula_break``); the
        readout names it so and gives the rate the filter's ``k`` counters give, (fill)^k. None: it is exact
        at every row again."""
        key = None if row is None else (int(row), int(k))
        if key != self._formula_break:
            self._formula_break = key
            if self._built:
                self._name_theory()
                self._readout.update()

    def _name_theory(self) -> None:
        text = (BROKEN_LABEL if self._formula_break is not None
                else self._theory_label or LABELS["fp_exact"])
        curve = self._items.curves["fp_exact"]
        curve.opts["name"] = text       # the CSV export's column is named by the curve, not the legend
        self._legend.set(curve, text=text)

    # --- toggles --------------------------------------------------------------------------------------------
    @property
    def log_y(self) -> bool:
        return self._log_y

    def set_log_y(self, on: bool) -> None:
        on = bool(on)
        if on == self._log_y:
            return
        self._log_y = on
        if self._built:
            parts.apply_log_y(self)
            self._controls.sync(self._controls.log, on)
        self.logYChanged.emit(on)

    @property
    def show_fill(self) -> bool:
        return self._show_fill

    def set_show_fill(self, on: bool) -> None:
        on = bool(on)
        if on != self._show_fill:
            self._show_fill = on
            if self._built:
                parts.subplots_toggled(self)
                self._controls.sync(self._controls.fill, on)
            self.showFillChanged.emit(on)

    @property
    def show_estimate(self) -> bool:
        return self._show_estimate

    def set_show_estimate(self, on: bool) -> None:
        on = bool(on)
        if on != self._show_estimate:
            self._show_estimate = on
            if self._built:
                parts.subplots_toggled(self)
                self._controls.sync(self._controls.estimate, on)
            self.showEstimateChanged.emit(on)

    def visible_plots(self) -> list[pg.PlotItem]:
        """The plots shown, top to bottom: the rate plot, then fill and estimate when toggled on."""
        return self._items.visible(self._show_fill, self._show_estimate)

    def _relayout(self) -> None:
        self._items.relayout(self.visible_plots())
        if self._legend.placed:
            self._legend.invalidate()   # the plots moved: put the legend beside or under them again
        self._looks.apply_text()

    # --- looks ------------------------------------------------------------------------------------------------
    @property
    def dark(self) -> bool:
        return self._dark

    def set_theme(self, dark: bool) -> None:
        """Light (``False``) or dark (``True``) colours for the plots."""
        self._dark = bool(dark)
        if self._built:
            self._looks.set_theme(self._dark)
            self._readout.update()

    @property
    def font_scale(self) -> float:
        return self._font_scale

    def set_font_scale(self, factor) -> None:
        """Scale the text inside the plots (1.0 = normal; 1.5–2 for a projector)."""
        self._font_scale = checked_font_scale(factor)
        if self._built:
            self._looks.set_font_scale(self._font_scale)

    def set_curve_visible(self, key: str, on: bool) -> None:
        """Show or hide curve ``key`` (a variant without the standard filter's formulas hides theirs)."""
        if key not in LABELS:
            raise KeyError(f"no curve {key!r}; curves: {', '.join(LABELS)}")
        self._hidden_curves.discard(key) if on else self._hidden_curves.add(key)
        if self._built:
            self.curve(key).setVisible(bool(on))

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        if self._built:
            self._readout.fit()

    def changeEvent(self, event) -> None:
        super().changeEvent(event)
        if event.type() == QtCore.QEvent.Type.FontChange and self._built:
            self._readout.fit()

    # --- readout and legend -----------------------------------------------------------------------------------
    def values_at(self, n: float | None) -> dict[str, float] | None:
        """The series row nearest to ``n`` as {column: value} (plus ``n_true``), or None without data; n = None
        gives the latest row."""
        return values_at(self._series, n)

    def readout_text(self) -> str:
        """The readout as plain text (what the label shows, without colours)."""
        return self._readout.text()

    @property
    def readout_label(self) -> QtWidgets.QLabel:
        return self._readout.label

    @property
    def check_boxes(self) -> tuple[QtWidgets.QCheckBox, ...]:
        """Log y, fill ratio, estimated n."""
        return self._controls.boxes

    def legend_entries(self) -> list[str]:
        """The texts the legend shows, in order."""
        return self._legend.shown_texts()

    def entry_texts(self) -> list[str]:
        """Every shown entry's full text, whether or not the legend has room for it or is laid out yet."""
        return self._legend.entry_texts()

    @property
    def legend_placement(self) -> tuple[str, int]:
        """("right", 1), ("below", columns) or ("none", n) when there is no room for it."""
        return self._legend.placement

    @property
    def legend_compact(self) -> bool:
        """Whether the legend gave up its "theory: " prefixes for room."""
        return self._legend.compact

    # --- plot items, for the window and for tests -----------------------------------------------------------
    @property
    def plot_item(self) -> pg.PlotItem:
        """The rate plot (the one exported as CSV)."""
        return self._items.rate_plot

    @property
    def fill_plot_item(self) -> pg.PlotItem:
        return self._items.fill_plot

    @property
    def estimate_plot_item(self) -> pg.PlotItem:
        return self._items.estimate_plot

    @property
    def band(self) -> WilsonBand:
        return self._items.band

    @property
    def limit_curve(self) -> pg.PlotDataItem:
        """The upper-limit curve drawn on a log axis where the measured rate is 0."""
        return self._items.limit_curve

    @property
    def capacity_line(self) -> pg.InfiniteLine:
        return self._items.capacity_lines[0]

    @property
    def graphics(self) -> pg.GraphicsLayoutWidget:
        return self._graphics

    def curve(self, key: str) -> pg.PlotDataItem:
        """The curve drawing series column ``key`` (or ``"n_true"``)."""
        try:
            return self._items.curves[key]
        except KeyError:
            raise KeyError(f"no curve {key!r}; curves: {', '.join(self._items.curves)}") from None

    # --- export ---------------------------------------------------------------------------------------------
    def export(self, path, *, width: int | None = None):
        """Write the plot to ``path``: PNG or SVG of every plot shown, or CSV of the rate plot's curves.

        The CSV holds the full data of the measured rate, its interval edges and the three theory curves
        (pyqtgraph's exporter writes the original data, not the downsampled view).
        """
        if Path(path).suffix.lower() == ".csv":
            return self.csv_export(path).finish()
        from bloomviz.gui.widgets.plot_export import export_plot
        return export_plot(self._graphics.ci, path, width=width)

    def csv_export(self, path) -> CsvExport:
        """The rate plot's CSV to ``path`` as a ``CsvExport`` to be written in steps (the window's job for a
        long series): the target checked and its temporary opened now. The curves draw a decimated long series;
        every row of it goes into the file, computed a slice of rows at a time (``CurvePainter.full_rows``)."""
        from bloomviz.gui.widgets.plot_export import csv_export
        return csv_export(self._items.rate_plot, path, full_rows=self._painter.full_rows)
