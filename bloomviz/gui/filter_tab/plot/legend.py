"""Where the rate plot's legend goes: outside the data, beside the plots or under them, never over a curve.

A legend inside the view box covered the curves and the capacity label as soon as the text was scaled up for a
projector (at 150 % the plot became a strip under its legend). The legend is a cell of the graphics layout
instead: beside the plots when the widget is wide enough to spare a column, otherwise under them in as many
columns as fit; ``legend_layout`` picks whichever leaves the plots the larger area, and the widget asks again
on every resize and whenever the legend's entries or text size change.

``PlotLegend`` is handed the plot's items (``items.py``) and a function giving the plots shown; the widget
asks it to add, rename, show or hide entries. The entries are held here (item, text, whether shown) and the
pyqtgraph legend is rebuilt from them when they change, so a hidden entry (the upper-limit line while there is
none) takes no room.
"""

from __future__ import annotations

import math

from PySide6 import QtCore
from bloomviz.gui.filter_tab.plot.style import BAND_LABEL, LABELS, LIMIT_LABEL
from bloomviz.i18n import tr


MIN_PLOT_WIDTH = 240    # px: narrower than this and a plot is no longer readable; the legend goes under it
MIN_PLOT_HEIGHT = 80    # px: a data area lower than this shows a line, not a curve
SAMPLE_WIDTH = 50       # px: the line sample, the spacing and the label's margins around an entry's text


def legend_layout(width: float, height: float, entries: list[tuple[float, float]]) -> tuple[str, int]:
    """("right", 1) or ("below", columns) for a legend of ``entries`` (width, height of each) beside or under
    plots in a ``width`` x ``height`` area: the choice that leaves the plots the larger area, preferring
    "below" when neither leaves a readable plot."""
    if not entries:
        return "below", 1
    entry_w = max(w for w, _ in entries) + SAMPLE_WIDTH
    entry_h = max(h for _, h in entries)
    # beside: one column
    right_w, right_h = width - entry_w, height
    right_ok = right_w >= MIN_PLOT_WIDTH and len(entries) * entry_h <= height
    # under: as many columns as fit the width
    columns = max(1, min(len(entries), int(width // entry_w)))
    below_w, below_h = width, height - math.ceil(len(entries) / columns) * entry_h
    below_ok = below_h >= MIN_PLOT_HEIGHT
    if right_ok and (not below_ok or right_w * right_h > below_w * below_h):
        return "right", 1
    return "below", columns


class PlotLegend:
    """The rate plot's legend as a cell of the graphics layout, placed by ``legend_layout``.

    ``visible_plots()`` gives the plots shown; ``on_placed()`` runs after every placement (the y labels are
    fitted to the plots' heights, known only then)."""

    def __init__(self, items, visible_plots, on_placed=lambda: None):
        self._items = items
        self._legend = items.legend
        self._graphics = items.graphics
        self._visible_plots = visible_plots
        self._on_placed = on_placed
        curves = items.curves
        self._entries: list[list] = [[curves["fp_measured"], LABELS["fp_measured"], True],
                                     [items.band, BAND_LABEL, True], [items.limit_curve, LIMIT_LABEL, False]]
        self._entries += [[curves[key], LABELS[key], True] for key in ("fp_exact", "fp_classic", "fp_approx",
                                                                        "fp_bound")]
        self._place: tuple | None = None
        self._key = None
        #: the rate plot's title height (``looks.py`` sets it with the text size): the title gives way first
        self.title_height: int | None = None

    # --- entries ----------------------------------------------------------------------------------------------
    def add(self, item, text: str, shown: bool = True) -> None:
        self._entries.append([item, str(text), bool(shown)])
        self.invalidate()

    def remove(self, item) -> None:
        self._entries = [e for e in self._entries if e[0] is not item]
        self.invalidate()

    def set(self, item, *, text: str | None = None, shown: bool | None = None) -> None:
        for entry in self._entries:
            if entry[0] is item:
                changed = (text is not None and text != entry[1]) or (shown is not None and shown != entry[2])
                entry[1] = entry[1] if text is None else str(text)
                entry[2] = entry[2] if shown is None else bool(shown)
                if changed:
                    self.invalidate()
                return

    def shown_texts(self) -> list[str]:
        """The texts the legend shows, in order (none while it has no room)."""
        if self._place is not None and self._place[0] == "none":
            return []
        return [label.text for _, label in self._legend.items]

    def entry_texts(self) -> list[str]:
        """Every shown entry's full text, whether or not the legend has room for it or is laid out yet."""
        return [text for _, text, shown in self._entries if shown]

    def _texts(self, compact: bool) -> list[tuple[object, str]]:
        # Compact drops the "theory: " prefixes (the dash styles and the readout still say which is which):
        # at 150 % text in a panel-sized plot the full names took a column each and left the plot a strip.
        return [(item, tr(text).replace(tr("theory: "), "") if compact else tr(text))
                for item, text, shown in self._entries if shown]

    # --- placement --------------------------------------------------------------------------------------------
    @property
    def placed(self) -> bool:
        return self._place is not None

    def invalidate(self) -> None:
        """The plots, the entries or the text size changed: place the legend again (now, if shown)."""
        self._key = None
        self.place()

    def place(self, force: bool = False) -> None:
        if not force and not self._graphics.viewport().isVisible():
            self._key = None     # placed when the plot is shown (HoverWatcher), for its size then
            return
        rect = self._graphics.viewport().rect()
        key = (rect.width(), rect.height(), len(self._visible_plots()),
               tuple((text, shown) for _, text, shown in self._entries))
        if key == self._key:
            return
        self._key = key
        self._choose_place(rect)
        self._on_placed()

    def _fit_title(self) -> None:
        # The title's text sets the layout's minimum width: in a narrow panel the plots were pushed past the
        # right edge (the x axis cut off). The dock's own title says the same, so the plot's gives way.
        plot = self._items.rate_plot
        label = plot.titleLabel
        wanted = label.item.boundingRect().width()
        room = self._graphics.viewport().width() - plot.getAxis("left").width()
        # and in a short one it takes a line the curves need more
        fits = wanted <= room and self._graphics.viewport().height() >= 6 * self.title_height
        label.setVisible(fits)
        label.setMaximumHeight(self.title_height if fits else 0)
        label.updateMin()
        plot.layout.setRowFixedHeight(0, self.title_height if fits else 0)

    def _choose_place(self, rect) -> None:
        if self.title_height is not None:
            self._fit_title()
        # Try the full names, then the short ones, and keep the first that leaves the rate plot's data area
        # at least MIN_PLOT_HEIGHT and 30 % of the view's height, measured after the layout has run.
        need = max(MIN_PLOT_HEIGHT, 0.3 * rect.height())
        legend = self._legend
        for compact in (False, True):
            texts = self._texts(compact)
            if not self._holds(texts):
                self._put("none", 1, compact, texts)      # built, not placed: to measure its entries
            sizes = [(label.item.boundingRect().width(), max(label.item.boundingRect().height(),
                                                               sample.boundingRect().height()))
                     for sample, label in legend.items]
            where, columns = legend_layout(rect.width() - 20, rect.height(), sizes)   # less the margins
            below = ("below", columns if where == "below" else max(1, int((rect.width() - 20) // max(
                w + SAMPLE_WIDTH for w, _ in sizes))) if sizes else 1)
            for where, columns in ((where, columns), ("right", 1) if where == "below" else below):
                self._put(where, columns, compact, texts)
                vb = self._items.rate_plot.getViewBox()
                if vb.height() >= need and vb.width() >= MIN_PLOT_WIDTH \
                        and legend.geometry().right() <= rect.width() + 1 \
                        and legend.geometry().bottom() <= rect.height() + 1:
                    return
        # No room even for the short names: the readout under the plot, with a colour swatch per curve, is
        # the key until the panel grows or the text shrinks. (The hidden legend keeps its entries for the next
        # placement.)
        self._put("none", 1, True, self._texts(True))

    def _holds(self, texts) -> bool:
        """Whether the legend's entries are already ``texts`` (their sizes can be read as they are)."""
        return [(sample.item, label.text) for sample, label in self._legend.items] == list(texts)

    def _put(self, where: str, columns: int, compact: bool, texts) -> None:
        legend = self._legend
        plots = len(self._visible_plots())
        self._place = (where, columns, plots, compact)
        if [sample.item for sample, _ in legend.items] == [item for item, _ in texts]:
            # the same entries: renamed and laid out again in the new columns, not made again (making the
            # labels was two thirds of a placement, and a placement tries up to six arrangements)
            for (_, label), (_, text) in zip(legend.items, texts):
                if label.text != text:
                    label.setText(text)
            legend.setColumnCount(columns)
        else:
            legend.clear()
            legend.columnCount = columns   # before the entries go in: setColumnCount would re-add what is there
            for item, text in texts:
                legend.addItem(item, text)
        ci = self._graphics.ci
        cells = {"right": [(row, 1) for row in range(plots)], "below": [(plots, 0)]}.get(where)
        if ci.items.get(legend) != cells:     # (already in its cell: left there, the layout runs again below)
            if legend in ci.items:
                ci.removeItem(legend)
            if where == "right":
                ci.addItem(legend, row=0, col=1, rowspan=plots)
                ci.layout.setColumnStretchFactor(1, 0)
            elif where == "below":
                ci.addItem(legend, row=plots, col=0)
                ci.layout.setRowStretchFactor(plots, 0)
        legend.setVisible(where != "none")
        # a hidden item still takes its cell's room in a graphics layout: with no legend, no room
        legend.setMaximumSize(0 if where == "none" else 1e6, 0 if where == "none" else 1e6)
        ci.layout.setColumnStretchFactor(0, 1)
        legend.updateSize()
        ci.setGeometry(QtCore.QRectF(self._graphics.viewport().rect()))
        ci.layout.activate()

    @property
    def placement(self) -> tuple[str, int]:
        """("right", 1), ("below", columns) or ("none", n) when there is no room for it."""
        self.place(force=True)
        return self._place[:2]

    @property
    def compact(self) -> bool:
        """Whether the legend gave up its "theory: " prefixes for room."""
        self.place(force=True)
        return self._place[3]
