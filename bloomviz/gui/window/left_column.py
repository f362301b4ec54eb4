"""The Filter tab's left column (the filter's parameters, the item box, auto-play) sized by what its panels need at
the current text size, not by fixed shares of the window.

At 100 % in a 1280 x 720 window (and so on a 1920 x 1080 screen at 150 % scaling, and at 150 % text on a laptop)
the column above the history had ~470 px for panels that need ~700 px with their titles: each got its share, each
scrolled, and auto-play's Play and Step were below its dock's edge. So, in this order, until the column fits:

1. auto-play gets its panel through Play and Step, the item box its buttons and its verdict's first lines, the
   parameters the rest, as long as it shows them through their Apply button (n and p, to design, may scroll);
   then the parameters and auto-play get the rest of their panels;
2. else the column takes the window's full height: the history gives up the bottom-left corner and lies under
   the grid (it scrolls sideways there; its thirteen columns did before too);
3. else the parameters become a tab beside auto-play (set the filter, then switch to Auto-play): a class
   watches the item box and auto-play, and a panel half shown is worse than a tab.

What the column gains beyond the needs goes to the item box, whose verdict is the one text that can be long.
Only docks where the layout put them are moved: a panel the user dragged elsewhere or floated is left alone.
"""

from __future__ import annotations

from PySide6 import QtCore, QtWidgets

from bloomviz.gui.window import dock_tabs

_AREA = QtCore.Qt.DockWidgetArea
_VERTICAL = QtCore.Qt.Orientation.Vertical
COLUMN = ("filter", "item", "autoplay")
VERDICT_LINES = 2      # the verdict's headline and its first line of words
TABBED = "tabbedToFit"   # a dock property: the parameters were made a tab here (and may come back when they fit)


def _chrome(dock: QtWidgets.QDockWidget) -> int:
    """A dock's height beyond what its scroll area shows: its title and frame, and the tab bar of its tab group
    (``resizeDocks`` counts a group's bar in the height it is given: without it a tabbed auto-play got 19 px
    less than asked at 250 %, and Play and Step were cut)."""
    area = dock.widget()
    if not isinstance(area, QtWidgets.QScrollArea):
        return 0
    return dock.height() - area.viewport().height() + _tab_bar_height(dock)


def _tab_bar_height(dock: QtWidgets.QDockWidget) -> int:
    """The height of the tab bar under (or over) ``dock`` when it is one of a tab group, else 0."""
    window = dock.parentWidget()
    if not window.tabifiedDockWidgets(dock):
        return 0
    box = dock.geometry()
    direct = QtCore.Qt.FindChildOption.FindDirectChildrenOnly
    for bar in window.findChildren(QtWidgets.QTabBar, options=direct):
        at = bar.geometry()
        if bar.isVisible() and at.left() < box.right() and box.left() < at.right() \
                and (abs(at.top() - box.bottom()) <= 8 or abs(box.top() - at.bottom()) <= 8):
            return at.height()
    return 0


def _buttons_bottom(item, panel) -> int:
    """Where the item box's lowest button ends (Remove wraps under Insert and Look up at large text)."""
    return max(_bottom(b, panel) for b in (item.insert_button, item.lookup_button, item.remove_button)
               if b.isVisibleTo(panel))


def _margin_bottom(panel: QtWidgets.QWidget) -> int:
    layout = panel.layout()
    return layout.contentsMargins().bottom() if layout is not None else 0


def _bottom(widget: QtWidgets.QWidget, panel: QtWidgets.QWidget) -> int:
    """Where ``widget`` ends in ``panel``, with the panel's margin below it."""
    return widget.mapTo(panel, QtCore.QPoint(0, widget.height())).y() + _margin_bottom(panel)


def panel_needs(window) -> dict[str, int]:
    """The heights the column's panels need at this text size (without their docks' titles): ``*_least`` what a
    class must see (auto-play's Play and Step, the item box's buttons, the parameters through Apply), ``*_want``
    the whole panel (for the item box: its verdict's first lines)."""
    item, play, params = window.item_panel, window.autoplay_panel, window.params_panel
    verdict = item.verdict
    return {
        "autoplay_least": _bottom(play.play_button, play),
        "autoplay_want": play.sizeHint().height(),
        "item_least": _buttons_bottom(item, item),
        "item_want": max(verdict.y() + VERDICT_LINES * verdict.fontMetrics().lineSpacing() + _margin_bottom(item),
                         _buttons_bottom(item, item)),
        "filter_least": _bottom(params.apply_button, params),
        "filter_want": params.sizeHint().height(),
    }


def _on_screen(dock: QtWidgets.QDockWidget) -> bool:
    """Qt keeps a dock behind another's tab "visible", moved out of the window."""
    return dock.isVisible() and dock.geometry().intersects(dock.parentWidget().rect())


def _face(window, dock: QtWidgets.QDockWidget) -> QtWidgets.QDockWidget | None:
    """The dock shown where ``dock`` lies: itself, or the one in front of its tab group (the scenario's panel
    in front of auto-play)."""
    return next((d for d in [dock, *window.tabifiedDockWidgets(dock)] if _on_screen(d)), None)


def _column(window) -> list[QtWidgets.QDockWidget] | None:
    """The docks shown in the column (one a tab group), when the layout still has the three panels where it put
    them and nothing else there; else None."""
    docks = [window.docks[key] for key in COLUMN]
    # (a dock behind another's tab is open: its menu entry is still checked)
    if not window.isVisible() or any(d.isFloating() or not d.toggleViewAction().isChecked()
                                     or window.dockWidgetArea(d) != _AREA.LeftDockWidgetArea for d in docks):
        return None
    if window.tabifiedDockWidgets(docks[0]) and not docks[0].property(TABBED):
        return None      # the parameters were made a tab by the user
    faces = {_face(window, d) for d in docks}
    shown = {d for d in window.findChildren(QtWidgets.QDockWidget) if not d.isFloating() and _on_screen(d)
             and window.dockWidgetArea(d) == _AREA.LeftDockWidgetArea}
    return sorted(faces, key=lambda d: d.y()) if None not in faces and faces == shown else None


def _free(column: list[QtWidgets.QDockWidget]) -> int:
    """The column's height that its panels show: without titles, frames, separators and tab bars."""
    return sum(d.widget().viewport().height() for d in column if isinstance(d.widget(), QtWidgets.QScrollArea))


def fit(window, reshare: bool = False) -> str:
    """Fit the column to its panels' needs; returns what changed ("corner", "untab", "tab", "sizes"), "fits"
    when the panels already had what they need (sizes a user dragged are kept), or "left" for a layout the user
    made (a dock floated, moved or closed). ``reshare``: share the column again even where the panels have what
    they need (the tab bars changed, not the user's sizes)."""
    window.layout().activate()
    column = _column(window)
    if column is None:
        return "left"
    filter_dock, item_dock, autoplay_dock = (window.docks[key] for key in COLUMN)
    needs = panel_needs(window)
    tabbed = filter_dock in window.tabifiedDockWidgets(autoplay_dock)
    # what must show with the parameters in a dock of their own
    least = needs["autoplay_least"] + needs["item_want"] + needs["filter_least"]
    corner = QtCore.Qt.Corner.BottomLeftCorner
    done = "fits"
    if window.corner(corner) == _AREA.LeftDockWidgetArea and not tabbed \
            and least <= _free(column) - _history_room(window):
        window.setCorner(corner, _AREA.BottomDockWidgetArea)      # the window grew: the history's corner back
        window.layout().activate()
        done = "corner"
    elif (tabbed or least > _free(column)) and window.corner(corner) != _AREA.LeftDockWidgetArea:
        window.setCorner(corner, _AREA.LeftDockWidgetArea)
        window.layout().activate()
        done = "corner"
    if tabbed:
        # back as a dock of its own when it would show whole (the text got smaller); it brings a title bar
        if _free(column) - _chrome(item_dock) >= needs["autoplay_least"] + needs["item_want"] + needs["filter_want"]:
            window.splitDockWidget(item_dock, filter_dock, _VERTICAL)
            window.splitDockWidget(filter_dock, item_dock, _VERTICAL)   # the parameters above the item box
            filter_dock.setProperty(TABBED, False)
            window.layout().activate()
            tabbed, done = False, "untab"
    elif _free(column) < least:
        window.tabifyDockWidget(autoplay_dock, filter_dock)
        filter_dock.setProperty(TABBED, True)
        autoplay_dock.raise_()
        window.layout().activate()
        tabbed, done = True, "tab"
    if done != "fits" or reshare or not _needs_met(window, needs, tabbed):
        _share(window, needs, tabbed)
        done = "sizes" if done == "fits" else done
    return done


def _history_room(window) -> int:
    """The height the column gives back with the corner: the history's, with the separator above it."""
    history = window.docks.get("history")
    if history is None or not _on_screen(history) or window.dockWidgetArea(history) != _AREA.BottomDockWidgetArea:
        return 0
    return history.height() + window.style().pixelMetric(QtWidgets.QStyle.PixelMetric.PM_DockWidgetSeparatorExtent)


def _steps(needs: dict[str, int], tabbed: bool) -> list[tuple[str, int]]:
    """The heights the panels are raised to, in order, as far as the column has room."""
    if tabbed:
        return [("autoplay", needs["autoplay_least"]), ("item", needs["item_least"]), ("item", needs["item_want"]),
                ("autoplay", max(needs["autoplay_want"], needs["filter_want"]))]
    return [("autoplay", needs["autoplay_least"]), ("item", needs["item_least"]), ("item", needs["item_want"]),
            ("filter", needs["filter_least"]), ("autoplay", needs["autoplay_want"]), ("filter", needs["filter_want"])]


def _needs_met(window, needs: dict[str, int], tabbed: bool) -> bool:
    wanted = {"autoplay": needs["autoplay_least"], "item": needs["item_want"]}
    if not tabbed:
        wanted["filter"] = needs["filter_least"]
    return all(window.docks[key].widget().viewport().height() >= height for key, height in wanted.items()
               if _on_screen(window.docks[key]))


class Refit(QtCore.QObject):
    """Runs ``fit`` once in a later turn of the event loop after the window's size, the text size or the
    parameters' fields changed, when the panels know their new sizes (and after the column's widening at large
    text, queued before)."""

    def __init__(self, window):
        super().__init__(window)
        self._window = window
        self._timer = QtCore.QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self._fit)
        window.installEventFilter(self)
        # another variant's fields (a scalable filter's growth, a counting filter's counter bits) move Apply down
        self._params = window.params_panel
        self._params.installEventFilter(self)

    def _fit(self) -> None:
        # the tabs' titles and font set a tab bar's height, which the fit counts (a tab bar that changed is not
        # the user's doing: the column is shared again); a fit that makes or unmakes a tab changes the titles
        fit(self._window, reshare=dock_tabs.fit_titles(self._window))
        if dock_tabs.fit_titles(self._window):
            fit(self._window, reshare=True)

    def schedule(self) -> None:
        self._timer.start()

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 - Qt's name
        if (obj is self._window and event.type() == QtCore.QEvent.Type.Resize
                or obj is self._params and event.type() == QtCore.QEvent.Type.LayoutRequest):
            self._timer.start()
        return False


def _share(window, needs: dict[str, int], tabbed: bool) -> None:
    window.layout().activate()
    column = _column(window)
    if column is None:
        return
    free = _free(column)
    heights = {"item": 0, "autoplay": 0} if tabbed else {"filter": 0, "item": 0, "autoplay": 0}
    for key, height in _steps(needs, tabbed):
        grant = max(0, min(height - heights[key], free))
        heights[key] += grant
        free -= grant
    heights["item"] += free          # the rest to the verdict, the one text that can be long
    faces = {key: _face(window, window.docks[key]) for key in heights}
    # resizeDocks takes a dock's whole height: its panel's share plus its title and frame
    window.resizeDocks(list(faces.values()), [heights[k] + _chrome(d) for k, d in faces.items()], _VERTICAL)
