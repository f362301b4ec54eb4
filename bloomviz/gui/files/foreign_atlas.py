"""The atlas of a file with many filters, in the window: a histogram of one number over the filters (fill, or
the rate each filter's own fill predicts, on a log axis), the spread in words, and a click that picks a filter.

A commit-graph holds thousands of filters and a table one per data block; a list of them says little, their
distribution says whether the file's filters are near their design or past it. Clicking a bar shows a filter
of that bar (the next one on each click); the one shown is outlined in the histogram.

Reads only ``bloomviz.formats.atlas`` summaries: it never touches the filters.
"""

from __future__ import annotations

import html
import math

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtWidgets

from bloomviz.vocabulary import Verdict
from bloomviz.formats import atlas
from bloomviz.gui import theme, theme_views
from bloomviz.theory.units import one_in, percent_text, rate_text
from bloomviz.i18n import tr

METRICS = (("fill", "fill (bits set / m)"), ("expected_fp", "rate predicted from its fill (log10)"),
           ("estimated_n", "estimated entries"))
BINS = 24


class AtlasPanel(QtWidgets.QWidget):
    filterChosen = QtCore.Signal(int)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.summaries: list[dict] = []
        self.bins = np.zeros(0, dtype=int)
        self.edges = np.linspace(0, 1, BINS + 1)
        self.current: int | None = None
        self._cycle: dict[int, int] = {}
        self.metric_box = QtWidgets.QComboBox()
        for key, label in METRICS:
            self.metric_box.addItem(tr(label), key)
        self.metric_box.setToolTip(tr("The number the histogram counts filters by"))
        self.plot = pg.PlotWidget()
        self.plot.setMinimumHeight(150)
        self.plot.setMenuEnabled(False)
        self.plot.setLabel("left", tr("filters"))
        self.plot.getAxis("bottom").enableAutoSIPrefix(False)
        colours = theme.VERDICT_COLOURS[theme.is_dark()]
        self.bars = pg.BarGraphItem(x0=[], x1=[], height=[], brush=colours[Verdict.INSERTED])
        self.marker = pg.InfiniteLine(angle=90, movable=False, pen=pg.mkPen(colours[Verdict.FALSE_POSITIVE], width=2))
        self.plot.addItem(self.bars)
        self.plot.addItem(self.marker)
        self.plot.scene().sigMouseClicked.connect(self._clicked)
        self.words = QtWidgets.QLabel()
        self.words.setWordWrap(True)
        self.words.setMinimumWidth(330)
        top = QtWidgets.QHBoxLayout()
        top.addWidget(QtWidgets.QLabel(tr("Filters by")))
        top.addWidget(self.metric_box, 1)
        left = QtWidgets.QVBoxLayout()
        left.addLayout(top)
        left.addWidget(self.plot, 1)
        layout = QtWidgets.QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(left, 3)
        layout.addWidget(self.words, 2)
        self.metric_box.currentIndexChanged.connect(lambda _i: self._redraw())
        theme_views.apply(self, theme.is_dark())

    def set_filters(self, summaries: list[dict], file_bytes: int | None, files: int | None = None) -> None:
        self.summaries, self.current, self._cycle = summaries, None, {}
        self.summary = atlas.summarise(summaries, file_bytes, files)
        self.words.setText(self.words_html(self.summary))
        self._redraw()

    def metric_key(self) -> str:
        return self.metric_box.currentData()

    def _redraw(self) -> None:
        key = self.metric_key()
        counts, self.edges = atlas.histogram(self.summaries, key, BINS)
        self.bins = np.array([atlas.bin_of(s[key], self.edges, key) if s[key] is not None and math.isfinite(s[key])
                              else -1 for s in self.summaries], dtype=int)
        self.bars.setOpts(x0=self.edges[:-1], x1=self.edges[1:], height=counts)
        self.plot.setLabel("bottom", dict(METRICS)[key])
        self.plot.setXRange(float(self.edges[0]), float(self.edges[-1]), padding=0.03)
        self.plot.setYRange(0, max(1, int(counts.max()) if counts.size else 1) * 1.08, padding=0)
        self.show_current(self.current)

    def bar_counts(self) -> list[int]:
        return [int(h) for h in self.bars.opts["height"]]

    def show_current(self, index: int | None) -> None:
        self.current = index
        if index is None or not 0 <= index < len(self.summaries):
            self.marker.hide()
            return
        value = self.summaries[index][self.metric_key()]
        if value is None or not math.isfinite(value):
            self.marker.hide()
            return
        self.marker.setValue(math.log10(max(value, 1e-300)) if self.metric_key() == "expected_fp" else value)
        self.marker.show()

    def filters_in_bin(self, b: int) -> list[int]:
        return [int(i) for i in np.flatnonzero(self.bins == b)]

    def choose_bin(self, b: int) -> int | None:
        """The next filter of bar ``b`` (cycling on repeated clicks); emits ``filterChosen``."""
        members = self.filters_in_bin(b)
        if not members:
            return None
        turn = self._cycle.get(b, 0)
        self._cycle[b] = turn + 1
        index = members[turn % len(members)]
        self.filterChosen.emit(index)
        return index

    def _clicked(self, event) -> None:
        if not self.summaries:
            return
        point = self.plot.getViewBox().mapSceneToView(event.scenePos())
        x = point.x()
        if not self.edges[0] <= x <= self.edges[-1]:
            return
        b = min(int(np.searchsorted(self.edges, x, side="right")) - 1, len(self.edges) - 2)
        self.choose_bin(max(b, 0))

    @staticmethod
    def words_html(a: dict) -> str:
        def spread(name: str, fmt) -> str:
            s = a[name]
            return "—" if s is None else f"{fmt(s['min'])} · {fmt(s['median'])} · {fmt(s['max'])}"
        # a folder (a repository, a database) has no size of its own: the share is of the files the filters came from
        whole = "the file" if "source_files" not in a else "the files they came from"
        rows = [("filters", f"{a['filters']:,} (k = {', '.join(map(str, a['k_values']))})"),
                ("bits per filter (min · median · max)", spread("m", lambda v: f"{v:,.0f}")),
                ("fill", spread("fill", percent_text)),
                ("estimated entries", spread("estimated_n", lambda v: f"{v:,.1f}")),
                ("rate from its fill", spread("expected_fp", rate_text)),
                ("past their design load", f"{a['past_design']:,} of {a['filters']:,}"),
                ("bytes in filters", f"{a['filter_bytes']:,}" + (f" ({percent_text(a['filter_share'])} of {whole})"
                                                                  if a["filter_share"] else ""))]
        mean = a["expected_fp"]["mean"] if a["expected_fp"] else None
        table = "".join(f"<tr><td>{html.escape(x)}</td><td><b>{html.escape(y)}</b></td></tr>" for x, y in rows)
        tail = (f"<p>A never-inserted item sent to one of these filters at random passes {rate_text(mean)} of the "
                f"time ({one_in(mean)}). Click a bar to see one of its filters.</p>") if mean is not None else ""
        # what "sized for" rests on where the file does not say it (a Parquet writer's fpp, assumed or given)
        basis = "".join(f"<p><i>{html.escape('sized for: ' + b)}</i></p>" for b in a.get("design_basis", ()))
        return f"<table cellspacing='0' cellpadding='2'>{table}</table>{basis}{tail}"
