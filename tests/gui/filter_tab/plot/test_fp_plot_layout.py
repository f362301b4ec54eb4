"""FpPlotWidget's layout at every text size: the legend never covers the data, the plot keeps room, the axis
labels are not cut (issue 13). The data and its drawing are tested in test_fp_plot.py."""

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest

from bloomviz.gui.filter_tab.plot.legend import MIN_PLOT_HEIGHT
from test_fp_plot import series, widget  # noqa: F401 (the data tests' fixtures, used by name)
from window_helpers import settle

SIZES = [(1000, 700), (430, 380), (430, 500), (800, 300), (430, 300)]
SCALES = [1.0, 1.5, 2.0, 2.5]


# --- text size -----------------------------------------------------------------------------------------------
def test_font_scale_enlarges_the_plot_text(widget, series):
    widget.set_series(series)
    axis = widget.plot_item.getAxis("bottom")
    before = axis.style["tickFont"].pointSizeF()
    widget.set_font_scale(2.0)
    assert axis.style["tickFont"].pointSizeF() == pytest.approx(2 * before)
    assert "22.0pt" in widget.plot_item.getAxis("left").labelStyle["font-size"]
    for bad in (0, -1, float("nan"), 100):
        with pytest.raises(ValueError, match="font scale"):
            widget.set_font_scale(bad)
    assert widget.font_scale == 2.0


# --- the legend stays off the data (issue 13) -------------------------------------------------------------------
@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("scale", SCALES)
def test_legend_never_covers_the_data_and_the_plot_keeps_room(qtbot, widget, series, size, scale):
    widget.set_series(series)
    widget.set_capacity(150)
    widget.resize(*size)
    widget.set_font_scale(scale)
    settle(qtbot, widget)   # the readout's height, then the graphics' size, then the legend: a few layout passes
    vb = widget.plot_item.getViewBox()
    view = widget.graphics.viewport().rect()
    data = vb.sceneBoundingRect()
    assert data.height() >= MIN_PLOT_HEIGHT and data.width() >= 200, (widget.legend_placement, data)
    assert data.right() <= view.width() + 1 and data.bottom() <= view.height() + 1
    legend = widget.plot_item.legend
    where, _ = widget.legend_placement
    # Reading the placement places the legend again if the view's size changed since it was last placed: it
    # must not have (the legend was placed for a stale size and the data measured above was under it).
    assert vb.sceneBoundingRect() == data, (where, data, vb.sceneBoundingRect())
    if where == "none":
        assert not legend.isVisible()
        assert "measured" in widget.readout_text()   # the readout, with its swatches, is the key
    else:
        box = legend.sceneBoundingRect()
        assert not box.intersects(data), (where, box, data)
        assert box.right() <= view.width() + 1 and box.bottom() <= view.height() + 1
    label = widget.capacity_line.label
    assert not (where != "none" and label.sceneBoundingRect().intersects(legend.sceneBoundingRect()))


def test_the_legend_is_placed_again_when_only_the_size_changes(qtbot, widget, series):
    # A window resized by hand changes no text size (a text-size change places the legend again by itself):
    # the view's own resize must place it for the new size, not for the one before.
    widget.set_series(series)
    vb = widget.plot_item.getViewBox()
    for size in ((800, 300), (430, 300), (430, 500), (1000, 700), (800, 300)):
        widget.resize(*size)
        settle(qtbot, widget)
        view = widget.graphics.viewport().rect()
        data = vb.sceneBoundingRect()
        assert widget.graphics.ci.geometry().height() <= view.height() + 1, size
        where, _ = widget.legend_placement
        assert vb.sceneBoundingRect() == data, (size, where)   # already placed for this size
        if where != "none":
            box = widget.plot_item.legend.sceneBoundingRect()
            assert not box.intersects(data), (size, where, box, data)
            assert box.bottom() <= view.height() + 1 and box.right() <= view.width() + 1, (size, box)


def test_a_roomy_plot_has_the_full_legend_and_a_tight_one_the_short_names(qtbot, widget):
    widget.resize(1000, 700)
    settle(qtbot, widget)
    assert widget.legend_placement[0] in ("right", "below") and not widget.legend_compact
    assert "theory: exact" in widget.legend_entries()
    for size, scale in (((430, 380), 1.5), ((430, 500), 1.5), ((430, 380), 1.0)):
        widget.resize(*size)
        widget.set_font_scale(scale)
        settle(qtbot, widget)
        entries = widget.legend_entries()
        if widget.legend_placement[0] != "none":
            assert ("exact" in entries) == widget.legend_compact
            assert ("theory: exact" in entries) == (not widget.legend_compact)


def test_legend_layout_prefers_the_side_that_leaves_the_plot_more_room():
    from bloomviz.gui.filter_tab.plot.legend import legend_layout

    entries = [(120, 20)] * 6
    assert legend_layout(900, 200, entries) == ("right", 1)        # wide and short: beside
    where, columns = legend_layout(500, 700, entries)              # narrow and tall: under, two columns
    assert where == "below" and columns == 2
    assert legend_layout(500, 700, []) == ("below", 1)


# --- axis labels -------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("scale", SCALES)
def test_a_y_axis_label_too_long_for_its_plot_gives_way_to_its_short_name(qtbot, widget, series, size, scale):
    # A rotated label is centred on its axis: longer than the room, its ends ran out of the view (at 150 %
    # in the window's plot dock the rate axis read "false-positive ra"); then the short name is shown, and
    # is cut only where even it is longer than the room.
    widget.set_series(series)
    widget.set_show_fill(True)
    widget.resize(*size)
    widget.set_font_scale(scale)
    settle(qtbot, widget)
    view = widget.graphics.viewport().rect()
    for plot in (widget.plot_item, widget.fill_plot_item):
        axis = plot.getAxis("left")
        label = axis.label.mapRectToScene(axis.label.boundingRect())
        inside = label.top() >= -1 and label.bottom() <= view.height() + 1
        # with both plots in 245 px at 150 % the rate plot is ~70 px high: even "FP rate" is longer than that
        no_room = axis.labelText in ("FP rate", "X/m") and label.height() > 2 * min(
            axis.sceneBoundingRect().center().y(), view.height() - axis.sceneBoundingRect().center().y())
        assert inside or no_room, (axis.labelText, label, view)
    texts = widget.plot_item.getAxis("left").labelText, widget.fill_plot_item.getAxis("left").labelText
    assert texts[0] in ("false-positive rate", "FP rate") and texts[1] in ("fill X/m", "X/m")
    if size == (1000, 700) and scale == 1.0:
        assert texts == ("false-positive rate", "fill X/m")   # room enough: the full names


def test_a_plot_resized_while_hidden_is_placed_for_its_size_when_shown(qtbot, widget, series):
    # Hidden (another tab in front), the plot does not place its legend for every size the window passes
    # through; shown again, it is placed for the size it has then.
    widget.hide()
    widget.set_series(series)
    for size in ((430, 500), (1000, 700), (800, 300)):
        widget.resize(*size)
    widget.show()
    qtbot.waitExposed(widget)
    vb = widget.plot_item.getViewBox()
    qtbot.waitUntil(lambda: widget.graphics.viewport().rect().height() <= 300)
    settle(qtbot, widget)
    data = vb.sceneBoundingRect()
    view = widget.graphics.viewport().rect()
    where, _ = widget.legend_placement
    assert vb.sceneBoundingRect() == data, "the legend was not placed when the plot was shown"
    if where != "none":
        box = widget.plot_item.legend.sceneBoundingRect()
        assert not box.intersects(data) and box.bottom() <= view.height() + 1, (where, box, data)


@pytest.mark.parametrize("size, scale", [((1000, 700), 1.0), ((430, 380), 2.5), ((300, 380), 2.5)])
def test_the_capacity_label_is_shortened_or_left_out_rather_than_cut(qtbot, widget, series, size, scale):
    # at 250 % in a 1280 x 800 window "capacity n = 200" ran past the plot's left edge: "ity n = 200"
    widget.set_series(series)
    widget.resize(*size)
    widget.set_font_scale(scale)
    widget.set_capacity(series.column("n")[-1] * 0.97)
    label = widget.capacity_line.label
    vb = widget.plot_item.getViewBox()

    def whole() -> bool:
        if not label.isVisible():
            return True
        return vb.sceneBoundingRect().adjusted(-1, -1, 1, 1).contains(label.mapRectToScene(label.boundingRect()))
    qtbot.waitUntil(lambda: widget.legend_placement is not None and whole(), timeout=3000)
    shown = label.textItem.toPlainText() if label.isVisible() else None
    if scale == 1.0:
        assert shown is not None and shown.startswith("capacity n = ")   # room enough: in full
    else:
        assert shown is None or shown.startswith("n = ")


@pytest.mark.parametrize("scale", [1.0, 1.5])
def test_the_first_values_keep_the_plot_its_height(qtbot, widget, series, scale):
    # The empty readout keeps room for the lines the first values take: the plot does not shrink (and lay out
    # its legend again) in the turn of the first insert.
    widget.resize(800, 420)
    widget.set_font_scale(scale)
    widget.set_series(None)
    settle(qtbot, widget)
    assert "No data yet" in widget.readout_text()
    before = widget.plot_item.getViewBox().sceneBoundingRect().height()
    widget.set_series(series)
    settle(qtbot, widget)
    assert "measured" in widget.readout_text()
    assert widget.plot_item.getViewBox().sceneBoundingRect().height() == before
