"""The live plot's parts, made when the plot is first needed rather than with its widget.

``FpPlotWidget`` (``widget.py``) holds the plot's state from its construction; ``build(view)`` gives it what
draws that state: the check boxes (``items.PlotControls``), the pyqtgraph view with its three plots and their
items (``items.PlotItems``), the legend (``legend.py``: where it goes), the looks (``looks.py``: theme, text
sizes), the painter (``drawing.py``: the curves' data) and the readout (``readout.py``: the values under the
mouse), each handed what it acts on, laid out in the widget. That was ~0.1 s of pyqtgraph items (four
PlotItems, seven view boxes) made before the window's first paint although a window opened on the Start page
hides the plot's dock: the widget now builds them when it is first shown, when a call needs one of them, or
when the window has painted for the first time (``MainWindow``), whichever comes first. The modules of the
parts are imported then too. The changes that touch several parts at once are here as well.
"""

from __future__ import annotations

from PySide6 import QtWidgets

# what ``build`` makes; the widget makes them on the first use of any
MADE = frozenset({"_controls", "_graphics", "_items", "_legend", "_looks", "_painter", "_readout", "_hover_watcher"})


def build(view) -> None:
    """Make ``view``'s parts (``MADE``) and lay them out in its layout; ``apply_state`` then draws its state."""
    import pyqtgraph as pg

    from bloomviz.gui.filter_tab.plot.drawing import CurvePainter
    from bloomviz.gui.filter_tab.plot.items import PlotControls, PlotItems
    from bloomviz.gui.filter_tab.plot.legend import PlotLegend
    from bloomviz.gui.filter_tab.plot.looks import PlotLooks
    from bloomviz.gui.filter_tab.plot.readout import HoverWatcher, PlotReadout
    from bloomviz.gui.filter_tab.plot.style import ESTIMATE_CURVES, FILL_CURVES

    view._controls = PlotControls(view.set_log_y, view.set_show_fill, view.set_show_estimate)
    view._graphics = graphics = pg.GraphicsLayoutWidget()
    graphics.setMinimumSize(200, 150)   # small: in a short dock at large text the plot shrinks, not the grid
    # The check boxes' row wraps (its height depends on the width), so the dock's scroll area made the widget
    # as tall as its preferred height for the width, the plot's 400 px included: in a short dock the plot
    # scrolled and its y-axis title ran past the part shown. The plot takes what room there is (>= 150 px).
    graphics.setSizePolicy(QtWidgets.QSizePolicy.Policy.Expanding, QtWidgets.QSizePolicy.Policy.Ignored)
    view._items = items = PlotItems(graphics, FILL_CURVES, ESTIMATE_CURVES)
    view._legend = PlotLegend(items, view.visible_plots, on_placed=view._placed)
    view._looks = PlotLooks(items, view._legend, view.visible_plots, title=view.TITLE, x_label=view.X_LABEL)
    view._painter = CurvePainter(items, view._legend, view)
    view._readout = PlotReadout(view, items.crosshairs, view.visible_plots)
    items.rate_plot.getViewBox().sigXRangeChanged.connect(view._on_rate_x_range)
    # zoomed in y by the user (the y axis no longer fits the curves): pyqtgraph's limit on off-view points on
    items.rate_plot.getViewBox().sigStateChanged.connect(lambda *_: view._painter.limit_range_off_view())
    # pyqtgraph's own context menu has a log-y box too: keep it and this widget's state as one.
    items.rate_plot.ctrl.logYCheck.toggled.connect(view.set_log_y)

    layout = view.layout()
    layout.addLayout(view._controls.layout)
    layout.addWidget(graphics, 1)
    layout.addWidget(view._readout.area)
    view._relayout()
    view._legend.invalidate()
    graphics.scene().sigMouseMoved.connect(view._readout.on_mouse_moved)
    view._hover_watcher = HoverWatcher(graphics, view._readout.on_mouse_left, view._legend.place)
    if view.isVisible():    # made inside a widget shown already: shown and laid out before it paints, not later
        for child in (graphics, view._readout.area, *view._controls.boxes):
            child.show()
        layout.activate()


def unbuild(view, laid_out: int) -> None:
    """Take away what a ``build`` that failed part-way made: the layout's items past the first ``laid_out`` (the
    boxes' row, the graphics view, the readout) and their widgets, and the parts' attributes. The signals
    connected to the parts go with them (each is a part's own signal, or the graphics view's)."""
    layout = view.layout()
    while layout.count() > laid_out:
        item = layout.takeAt(laid_out)
        inner = item.layout()
        widgets = [item.widget()] if inner is None else [inner.itemAt(i).widget() for i in range(inner.count())]
        for widget in widgets:
            if widget is not None:
                widget.hide()
                widget.setParent(None)
                widget.deleteLater()
        if inner is not None:
            inner.deleteLater()
    for name in MADE:
        made = view.__dict__.pop(name, None)
        if isinstance(made, QtWidgets.QWidget) and made.parent() is None:   # made, not laid out yet
            made.deleteLater()


def apply_state(view) -> None:
    """Draw the state ``view`` was given before its parts were made, as if every setter called so far had
    been called on the built plot (the curves' data follow with its next redraw; ``build`` laid out the fill
    and estimate plots shown)."""
    view._looks.set_theme(view.dark)
    view._looks.set_font_scale(view.font_scale)
    for key in view._hidden_curves:
        view.curve(key).setVisible(False)
    if view.reference is not None:
        view._legend.add(view._items.reference_curve, view.reference[1])
    if view._theory_label is not None or view.formula_break is not None:
        view._name_theory()
    for box, on in zip(view._controls.boxes, (view.log_y, view.show_fill, view.show_estimate)):
        view._controls.sync(box, on)
    if view.log_y:
        apply_log_y(view)
    view._painter.draw_capacity()


def apply_log_y(view) -> None:
    """The rate axis logarithmic or linear as ``view.log_y`` says."""
    on = view.log_y
    rate_plot = view._items.rate_plot
    rate_plot.setLogMode(x=False, y=on)
    view._painter.draw_limit()
    vb = rate_plot.getViewBox()
    vb.enableAutoRange(axis="y")
    vb.updateAutoRange()  # now, so the band's floor is taken from the new axis, not the old one
    # The capacity label sits beside its line where the curves are not: high up on a linear axis
    # (the rate at capacity is small), half-way on a log axis (the rate at capacity is near the top).
    view.capacity_line.label.setPosition(0.5 if on else 0.93)


def subplots_toggled(view) -> None:
    """The fill or estimate plot shown or hidden: the plots laid out again, lined up and drawn."""
    view._relayout()
    # A plot just put back in the layout still has its old x range until the rate plot's range next
    # changes: lay out now and line it up with the rate plot.
    view._graphics.ci.layout.activate()
    main = view._items.rate_plot.getViewBox()
    for plot in view.visible_plots()[1:]:
        plot.getViewBox().linkedViewChanged(main, main.XAxis)
    view._painter.draw_subplots()
    view._readout.update()
