"""Dock tabs whose titles read whole.

Docks stacked as tabs share one tab bar as wide as their column. At 250 % text the left column's bar held
"Auto-play", "Scenario" and "Filter: m, k, hashing" in 416 px against the 702 px their titles take, and Qt's
default ElideRight drew "A…", "S…", "Filter: m, …": three tabs a class cannot tell apart. So, where a bar's full
titles do not fit, its docks take their short titles ("Filter", "Explain"), in a slightly smaller font where
even those do not fit, and no tab is ever elided: what still does not fit scrolls behind the bar's arrows, as
the central tabs (Filter, Start, Lesson …) do, each title whole. A dock shown alone takes its short title where its title bar is narrower than the full one
("False-positive rate, li…" at 250 %).
"""

from __future__ import annotations

from PySide6 import QtCore, QtGui, QtWidgets

from bloomviz.i18n import ptr, tr

# A dock's full title (the English key) -> the title its tab takes where the full ones do not fit
SHORT = {"Filter: m, k, hashing": "Filter", "Explain the last operation": "Explain",
         "Insert and look up": "Insert", "False-positive rate, live": "FP rate", "Auto-play": "Auto-play"}
TITLE_KEY = "titleKey"
# The short titles still wider than their bar (the left column at 250 %: 457 px of "Auto-play", "Scenario",
# "Filter" in 416, at 150 % 307 in 300) are drawn in a font that small, down to this share of the window's
LEAST_FONT = 0.85
_AREA = QtCore.Qt.DockWidgetArea      # a dock property: the English title it was made with


def remember_title(dock: QtWidgets.QDockWidget, title: str) -> None:
    dock.setProperty(TITLE_KEY, title)


def _dock_bars(window: QtWidgets.QMainWindow) -> list[QtWidgets.QTabBar]:
    """The tab bars QMainWindow makes for its tabbed docks (its direct children; a QTabWidget's bar is not)."""
    direct = QtCore.Qt.FindChildOption.FindDirectChildrenOnly
    return [bar for bar in window.findChildren(QtWidgets.QTabBar, options=direct) if bar.isVisible()]


def _titles(dock: QtWidgets.QDockWidget) -> tuple[str, str]:
    """(full, short) in the window's language; short is full where the dock has none."""
    key = dock.property(TITLE_KEY) or dock.windowTitle()
    return tr(key), (_short_said()[SHORT[key]] if key in SHORT else tr(key))


def _short_said() -> dict[str, str]:
    """Each short title in the window's language, said as a tab's title (Croatian names a tab with a noun:
    "Umetanje", where the button's "Insert" is the verb "Umetni"; "Automatsko umetanje" is too long a tab)."""
    return {"Filter": ptr("dock tab", "Filter"), "Explain": ptr("dock tab", "Explain"),
            "Insert": ptr("dock tab", "Insert"), "FP rate": ptr("dock tab", "FP rate"),
            "Auto-play": ptr("dock tab", "Auto-play")}


def _width(bar: QtWidgets.QTabBar, texts: list[str]) -> int:
    """The width the bar's tabs take with these titles."""
    return _text_width(bar, texts) + _padding(bar) * len(texts)


def _text_width(bar: QtWidgets.QTabBar, texts: list[str]) -> int:
    metrics = QtGui.QFontMetrics(bar.font())
    return sum(metrics.horizontalAdvance(text) for text in texts)


def _padding(bar: QtWidgets.QTabBar) -> int:
    """A tab's width beyond its title (the style's, measured on the bar's own tabs)."""
    metrics = QtGui.QFontMetrics(bar.font())
    return max((bar.tabSizeHint(i).width() - metrics.horizontalAdvance(bar.tabText(i)) for i in range(bar.count())),
               default=0)


def _drawn_width(bar: QtWidgets.QTabBar) -> int:
    """The width the bar's tabs take as it will draw them."""
    return sum(bar.tabSizeHint(i).width() for i in range(bar.count()))


def fit_titles(window: QtWidgets.QMainWindow) -> bool:
    """Give each tabbed dock the title its bar has room for; True when a title or a bar's font changed."""
    by_title = {d.windowTitle(): d for d in window.findChildren(QtWidgets.QDockWidget)}
    changed = False
    tabbed = set()
    for bar in _dock_bars(window):
        bar.setElideMode(QtCore.Qt.TextElideMode.ElideNone)
        bar.setUsesScrollButtons(True)
        docks = [by_title[bar.tabText(i)] for i in range(bar.count()) if bar.tabText(i) in by_title]
        was = bar.font().pointSizeF()
        font = QtGui.QFont(window.font())
        bar.setFont(font)
        full = [_titles(d)[0] for d in docks]
        short = _width(bar, full) > bar.width()
        for dock in docks:
            tabbed.add(dock)
            changed |= _set_title(dock, _titles(dock)[1 if short else 0])
        size, share = font.pointSizeF(), 1.0
        while short and share > LEAST_FONT and _drawn_width(bar) > bar.width():
            share = max(LEAST_FONT, share - 0.03)
            font.setPointSizeF(size * share)
            bar.setFont(font)
        changed |= bar.font().pointSizeF() != was      # the bar's height with it: the column's sizes change
    for dock in by_title.values():
        if dock not in tabbed:
            full, short = _titles(dock)
            fits = QtGui.QFontMetrics(dock.font()).horizontalAdvance(full) <= dock.width() - _title_buttons(dock)
            changed |= _set_title(dock, full if fits else short)
    return changed


def _title_buttons(dock: QtWidgets.QDockWidget) -> int:
    """The width of a dock's title bar beyond its title: its margins and its float and close buttons."""
    style = dock.style()
    metric = QtWidgets.QStyle.PixelMetric
    button = style.pixelMetric(metric.PM_SmallIconSize) + 2 * style.pixelMetric(metric.PM_DockWidgetTitleBarButtonMargin)
    return 2 * button + 3 * style.pixelMetric(metric.PM_DockWidgetTitleMargin) + 8


def _set_title(dock: QtWidgets.QDockWidget, title: str) -> bool:
    if dock.windowTitle() == title:
        return False
    dock.setWindowTitle(title)
    dock.toggleViewAction().setText(_titles(dock)[0])    # the Panels menu names the panel in full
    return True
