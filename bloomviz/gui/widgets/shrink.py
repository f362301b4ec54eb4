"""Keeping a window usable at any text size: panels that scroll instead of growing, and a central view that
keeps its share of the window.

At 250 % text the panels' minimum sizes added up to more than a 1280 x 800 screen: the window grew past the
screen (its status bar below the bottom edge) and the grid, the one thing the lecture hall looks at, was
squeezed to 140 px. A panel inside ``scrolling(panel)`` asks for almost no room (it scrolls when it gets
less than it wants), and ``keep_share(view, window, w, h)`` gives ``view`` a minimum size of a fixed share of
the window, renewed on every resize, so the docks give way to it rather than the other way round.
"""

from __future__ import annotations

from PySide6 import QtCore, QtWidgets


def scrolling(panel: QtWidgets.QWidget) -> QtWidgets.QScrollArea:
    """``panel`` in a frameless scroll area that fits it when it can and scrolls when it cannot."""
    area = QtWidgets.QScrollArea()
    area.setObjectName(f"scroll_{panel.objectName() or type(panel).__name__}")
    area.setWidgetResizable(True)
    area.setFrameShape(QtWidgets.QFrame.Shape.NoFrame)
    area.setWidget(panel)
    area.setMinimumSize(1, 1)
    return area


class _ShareKeeper(QtCore.QObject):
    def __init__(self, view: QtWidgets.QWidget, window: QtWidgets.QWidget, width_share: float,
                 height_share: float):
        super().__init__(window)
        self._view, self._window = view, window
        self._shares = (width_share, height_share)
        window.installEventFilter(self)
        self.apply()

    def apply(self) -> None:
        w, h = self._shares
        self._view.setMinimumSize(int(self._window.width() * w), int(self._window.height() * h))

    def eventFilter(self, obj, event) -> bool:
        if obj is self._window and event.type() == QtCore.QEvent.Type.Resize:
            self.apply()
        return False


def keep_share(view: QtWidgets.QWidget, window: QtWidgets.QWidget, width_share: float,
               height_share: float) -> QtCore.QObject:
    """Keep ``view`` at least ``width_share`` x ``height_share`` of ``window``'s size (shares in 0..1)."""
    for name, share in (("width_share", width_share), ("height_share", height_share)):
        if isinstance(share, bool) or not isinstance(share, (int, float)) or not 0 <= share < 1:
            raise ValueError(f"{name} must be a number from 0 to below 1, not {share!r}")
    return _ShareKeeper(view, window, float(width_share), float(height_share))


COMBO_CHARS = 10     # characters a closed combo box may shrink to; its list shows every choice whole


def let_combos_shrink(root: QtWidgets.QWidget) -> int:
    """Every combo box under ``root`` may shrink to ``COMBO_CHARS`` characters when its row has no room for its
    longest choice (it still asks for that much, and gets it where there is room): at 250 % "MurmurHash3,
    mixed double hashing (default)" made the Explorer's calculator ~900 px wide (its values scrolled out of
    view) and the Filter tab's variant box cut its panel. A narrowed closed box elides its text; its list shows
    the choices whole. Returns how many."""
    boxes = root.findChildren(QtWidgets.QComboBox)
    for box in boxes:
        if box.minimumWidth() > 0 or box.isEditable():
            continue            # a width its owner chose, or a field to type in
        arrow = box.style().pixelMetric(QtWidgets.QStyle.PixelMetric.PM_ScrollBarExtent) + 16
        box.setMinimumWidth(box.fontMetrics().horizontalAdvance("x" * COMBO_CHARS) + arrow)
        _remeasure(box)
    return len(boxes)


def _remeasure(widget: QtWidgets.QWidget | None) -> None:
    """``widget`` and its ancestors measured afresh: a layout keeps each child's sizes until the child says they
    changed, and a child on a hidden page (a tab not shown) says so only when shown; the page's stale minimum
    (the longest choice's) widened the Explorer to 1,700 px at 250 %."""
    while widget is not None:
        widget.updateGeometry()
        widget = widget.parentWidget()


def let_forms_wrap(root: QtWidgets.QWidget) -> int:
    """Every form under ``root`` puts a field under its label when the two do not fit side by side (at 250 %
    "How many" beside its spin box needed 457 px in a 330 px panel); at normal text nothing moves. Returns how
    many forms."""
    forms = [layout for layout in root.findChildren(QtWidgets.QFormLayout)]
    for form in forms:
        form.setRowWrapPolicy(QtWidgets.QFormLayout.RowWrapPolicy.WrapLongRows)
        _remeasure(form.parentWidget())
    return len(forms)


class _WrappedHeight(QtCore.QObject):
    def __init__(self, widget: QtWidgets.QWidget):
        super().__init__(widget)
        self._widget = widget
        widget.installEventFilter(self)

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 - Qt's name
        if obj is self._widget and event.type() == QtCore.QEvent.Type.Resize:
            widget = self._widget
            need = min(widget.heightForWidth(widget.width()), widget.maximumHeight())   # (its own cap kept)
            if need > 0 and need != widget.minimumHeight():
                widget.setMinimumHeight(need)
        return False


def hold_wrapped_height(widget: QtWidgets.QWidget) -> QtCore.QObject:
    """``widget`` (a wrapping label, a panel whose rows wrap) asks at least the height its wrapped lines take at
    its width. A layout reads such a widget's least height at its widest (one line), then gives it the lines it
    wraps to at its width anyway, taking them from its neighbours below their least: at 250 % text the
    Explorer's measure controls and Compare's note were drawn over the plot above them."""
    return _WrappedHeight(widget)
