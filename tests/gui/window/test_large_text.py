"""Large text (issue 27, item 12): at 250 % on 1440 x 900, and at 150 % on a 1280 x 800 projector in dark with
the projector layout (F8), the words that matter are whole: no panel of the Filter tab scrolls sideways, the
gauge holds its words, the status line ends in "…" with the whole line in its tooltip, the Explorer's values
and Compare's lane titles fit the room they are given. Each check compares the room a text needs at the
current font (size hints, font metrics) with the geometry it got."""

from __future__ import annotations

import pytest
from PySide6 import QtCore, QtWidgets

from bloomviz.gui import theme
from bloomviz.gui.compare_tab.view import CompareView
from bloomviz.gui.window.docks import dock_panel
from window_helpers import FakeDialogs, new_window


def _scroll_of(widget: QtWidgets.QWidget) -> QtWidgets.QScrollArea:
    while not isinstance(widget, QtWidgets.QScrollArea):
        widget = widget.parentWidget()
    return widget


def _fits_sideways(panel: QtWidgets.QWidget) -> bool:
    """The panel asks no more width than its scroll area shows: nothing of it lies past the right edge."""
    return panel.minimumSizeHint().width() <= _scroll_of(panel).viewport().width()


def _window(qtbot, tmp_path, size, scale, dark=False):
    w = new_window(qtbot, tmp_path, probes=300)
    w.install_parts()
    w.file_actions.dialogs = FakeDialogs(unsaved_answer="discard")
    w.resize(*size)
    w.show()
    qtbot.waitExposed(w)
    w.wb.insert_batch([f"word{i}" for i in range(200)])
    w.wb.lookup("never inserted")
    w.wb.flush()        # its verdict shown before the text grows, as a person's lookup would be
    if dark:
        w.set_dark(True, remember=False)
    w.set_font_scale(scale)
    w.resize(*size)
    return w


@pytest.fixture
def large(qtbot, tmp_path):
    w = _window(qtbot, tmp_path, (1440, 900), 2.5)
    yield w
    w.wb.cancel()
    theme.apply_font_scale(QtWidgets.QApplication.instance(), theme.DEFAULT_FONT_SCALE)


def _gauge_and_status_whole(w) -> None:
    gauge = w.fill_gauge
    assert gauge.fontMetrics().horizontalAdvance(gauge.text()) <= gauge.contentsRect().width(), gauge.text()
    label = w.status_label
    w.status_line.update()
    drawn = label.drawn_text()
    assert drawn == label.text() or drawn.endswith("…")
    assert label.toolTip().startswith(label.text())          # the whole line where it is drawn cut


def test_the_words_that_matter_are_whole_at_250_percent_on_1440_by_900(large, qtbot):
    """One window through its three crowded views (a window each would triple the test's time)."""
    w = large
    panels = [w.params_panel, w.item_panel, w.autoplay_panel, w.plot]
    # at this size the parameters are a tab beside auto-play (gui/window/left_column.py): each is measured in front
    for dock in (w.docks["filter"], w.docks["autoplay"]):
        dock.raise_()
        qtbot.waitUntil(lambda: _fits_sideways(dock_panel(dock)), timeout=3000)
    qtbot.waitUntil(lambda: all(_fits_sideways(panel) for panel in panels), timeout=3000)
    verdict = w.item_panel.verdict
    assert verdict.heightForWidth(verdict.width()) <= verdict.height() + 1     # the verdict's words, all lines
    readout = w.plot.readout_label
    assert readout.heightForWidth(readout.width()) <= readout.height() + 1
    for box in w.plot.check_boxes:
        assert box.sizeHint().width() <= box.width() and w.plot.rect().contains(box.geometry()), box.text()
    _gauge_and_status_whole(w)
    _explorers_values_in_view(w, qtbot)
    _compares_lanes_whole(w, qtbot)
    _setops_and_foreign_whole(w, qtbot)


def _setops_and_foreign_whole(w, qtbot) -> None:
    w.show_tab("setops")
    view = w.tab_view("setops")
    view.compute()
    qtbot.waitUntil(lambda: all("bits" in label.text() for label in view.grid_titles.values()), timeout=5000)
    for label in view.grid_titles.values():      # "A | B (OR) — 1,106 bits (54.0%)" was cut to "A | B (OR) — 1"
        assert _whole(label), label.text()
    w.show_tab("foreign")
    foreign = w.tab_view("foreign")
    # its rows of options wrap: the view no wider than the window shows it, every word of them whole
    qtbot.waitUntil(lambda: foreign.isVisible() and foreign.width() <= _scroll_of(foreign).viewport().width())
    shown = [x for x in foreign.findChildren(QtWidgets.QWidget) if x.isVisible()]
    for widget in shown:
        if isinstance(widget, (QtWidgets.QLabel, QtWidgets.QPushButton)) and widget.text():
            assert _whole(widget), widget.text()
        elif isinstance(widget, QtWidgets.QComboBox) and widget.currentText():
            need = widget.fontMetrics().horizontalAdvance(widget.currentText()) + 24      # its text and arrow
            assert need <= widget.width(), widget.currentText()


def _whole(widget: QtWidgets.QWidget) -> bool:
    """A wrapping label has the lines its width needs; anything else the width of its one line."""
    if isinstance(widget, QtWidgets.QLabel) and widget.wordWrap():
        return widget.heightForWidth(widget.width()) <= widget.height() + 1
    return widget.sizeHint().width() <= widget.width()


def _explorers_values_in_view(w, qtbot) -> None:
    w.show_tab("explorer")
    view = w.tab_view("explorer")
    view.calc.set_inputs(n="1000000", p="0.01")
    qtbot.waitUntil(lambda: "best integer k" in view.calc.result.text() and not view.drawing, timeout=10_000)
    # the tab no wider than the window (no sideways scrolling), the calculator's values inside its column
    qtbot.waitUntil(lambda: view.width() <= _scroll_of(view).viewport().width() + 1)
    qtbot.waitUntil(lambda: _fits_sideways(view.calc))
    result = view.calc.result
    assert result.heightForWidth(result.width()) <= result.height() + 1
    for page in (view.k_plot, view.n_plot, view.ensemble):
        assert page.minimumSizeHint().width() <= view.tabs.width(), type(page).__name__


def _compares_lanes_whole(w, qtbot) -> None:
    w.show_tab("compare")
    view = w.tab_view("compare")
    assert isinstance(view, CompareView)
    view.set_sizing(n=300, p=0.01)
    view.start()
    view.run_to_end()
    qtbot.waitUntil(lambda: view.comparison is not None and view.comparison.finished, timeout=20_000)
    qtbot.waitUntil(lambda: w.centralWidget().width() == w.width())      # the Filter tab's docks stepped aside
    lanes = view.lane_box.shown()
    assert len(lanes) == 4
    box = view.lane_box
    qtbot.waitUntil(lambda: box.width() <= _scroll_of(box).viewport().width())
    for lane in lanes:
        for label in (lane.title, lane.stats):
            assert label.heightForWidth(label.width()) <= label.height() + 1, label.text()
        assert lane.least_width() <= lane.width(), lane.title.text()     # "murmur3-" and "seeded" whole
        assert box.rect().contains(lane.geometry())
    # at 250 % four titles do not fit side by side here: two rows of two, not four cut to "murmur3"
    assert box.columns(box.width()) == 2


def test_the_projector_layout_at_150_percent_in_dark_on_1280_by_800(qtbot, tmp_path):
    w = _window(qtbot, tmp_path, (1280, 800), 1.5, dark=True)
    try:
        w.projector_layout.enter()
        panels = [w.item_panel, w.autoplay_panel, w.plot]
        qtbot.waitUntil(lambda: all(_fits_sideways(panel) for panel in panels), timeout=3000)
        buttons = (w.item_panel.insert_button, w.item_panel.lookup_button, w.item_panel.remove_button)
        for button in buttons:
            assert button.sizeHint().width() <= button.width()
        # on one row, as a class sees them (the column is sized for them)
        qtbot.waitUntil(lambda: len({button.y() for button in buttons}) == 1, timeout=2000)
        _gauge_and_status_whole(w)
        w.projector_layout.leave()
    finally:
        w.wb.cancel()
        w.set_dark(False, remember=False)
        theme.apply_font_scale(QtWidgets.QApplication.instance(), theme.DEFAULT_FONT_SCALE)



def _in_view(plot, item) -> bool:
    """A graphics item of the plot lies wholly within the part of the plot's dock shown (not scrolled away, not
    past the plot's own edges)."""
    view = plot.graphics
    rect = view.mapFromScene(item.sceneBoundingRect()).boundingRect()
    whole = QtCore.QRect(view.viewport().mapToGlobal(rect.topLeft()), rect.size())
    area = _scroll_of(plot).viewport()
    shown = QtCore.QRect(area.mapToGlobal(QtCore.QPoint(0, 0)), area.size())
    drawn = QtCore.QRect(view.viewport().mapToGlobal(QtCore.QPoint(0, 0)), view.viewport().size())
    return shown.contains(whole) and drawn.contains(whole)


@pytest.mark.parametrize("size, scale", [((1280, 800), 1.0), ((853, 533), 1.0), ((1280, 800), 1.5),
                                         ((1280, 800), 2.5)])
def test_the_plots_axis_titles_are_whole_without_the_projector_layout(qtbot, tmp_path, size, scale):
    # (853 x 533: a 1280 x 800 screen at a scale factor of 1.5.) The plot's dock scrolled to give the plot its
    # preferred 400 px: the y-axis title, sized for the plot, ran past the part of the dock shown.
    w = _window(qtbot, tmp_path, size, scale)
    try:
        plot = w.plot
        rate = plot.plot_item
        # (the layout settles in a few passes: the readout's height, the graphics' size, the legend, the labels)
        qtbot.waitUntil(lambda: plot.legend_placement is not None and all(
            _in_view(plot, rate.getAxis(side).label) for side in ("left", "bottom")), timeout=5000)
    finally:
        w.wb.cancel()
        theme.apply_font_scale(QtWidgets.QApplication.instance(), theme.DEFAULT_FONT_SCALE)
