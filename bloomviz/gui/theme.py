"""Light and dark palettes and the font scale for projection.

The application uses Qt's Fusion style everywhere so that a palette means the same on every platform (the
native styles ignore parts of it). Text sizes derive from one base point size times a scale factor, so the
teacher's Ctrl+plus enlarges every label, table and plot text together.
"""

from __future__ import annotations

from PySide6 import QtGui, QtWidgets

FONT_SCALES = (0.8, 0.9, 1.0, 1.15, 1.3, 1.5, 1.75, 2.0, 2.5)
DEFAULT_FONT_SCALE = 1.0
BASE_POINT_SIZE = 10.0

# Colours of verdicts, shared by the item panel, the history and the explain panel (Okabe–Ito, as the grid).
VERDICT_COLOURS = {
    False: {"inserted": "#0072B2", "true positive": "#009E73", "true negative": "#555555",
            "false positive": "#C0392B", "removed": "#8E44AD", "forced removal": "#D35400",
            "probably present": "#7F6A00"},
    True: {"inserted": "#56B4E9", "true positive": "#3DDC97", "true negative": "#BBBBBB",
           "false positive": "#FF6B5B"},
}


def palette(dark: bool) -> QtGui.QPalette:
    if not dark:
        return QtWidgets.QStyleFactory.create("Fusion").standardPalette()
    p = QtGui.QPalette()
    c = QtGui.QColor
    roles = QtGui.QPalette.ColorRole
    base, window, text = c("#1c1d21"), c("#26272c"), c("#e6e6e6")
    p.setColor(roles.Window, window)
    p.setColor(roles.WindowText, text)
    p.setColor(roles.Base, base)
    p.setColor(roles.AlternateBase, c("#2d2e34"))
    p.setColor(roles.ToolTipBase, c("#f4f4f4"))
    p.setColor(roles.ToolTipText, c("#111111"))
    p.setColor(roles.PlaceholderText, c("#8a8a8a"))
    p.setColor(roles.Text, text)
    p.setColor(roles.Button, c("#303137"))
    p.setColor(roles.ButtonText, text)
    p.setColor(roles.BrightText, c("#ff6b5b"))
    p.setColor(roles.Link, c("#56B4E9"))
    p.setColor(roles.Highlight, c("#3d6fa8"))
    p.setColor(roles.HighlightedText, c("#ffffff"))
    disabled = QtGui.QPalette.ColorGroup.Disabled
    for role in (roles.WindowText, roles.Text, roles.ButtonText):
        p.setColor(disabled, role, c("#777777"))
    return p


def apply_theme(app: QtWidgets.QApplication, dark: bool) -> None:
    app.setStyle("Fusion")
    app.setPalette(palette(dark))


def apply_font_scale(app: QtWidgets.QApplication, scale: float) -> None:
    font = app.font()
    font.setPointSizeF(BASE_POINT_SIZE * scale)
    app.setFont(font)


def dock_font(app: QtWidgets.QApplication) -> QtGui.QFont:
    """The font to give dock widgets so that their titles scale too.

    QDockWidget draws its title in the platform's fixed title font whenever its own font equals the
    application's; a font that differs only in its (invisible) style strategy makes it use its own.
    """
    font = QtGui.QFont(app.font())
    font.setStyleStrategy(QtGui.QFont.StyleStrategy.PreferAntialias)
    return font


def step_scale(current: float, step: int) -> float:
    """The next font scale up (step > 0) or down (step < 0) from ``current``, staying within FONT_SCALES."""
    ordered = list(FONT_SCALES)
    nearest = min(range(len(ordered)), key=lambda i: abs(ordered[i] - current))
    return ordered[max(0, min(len(ordered) - 1, nearest + step))]


def verdict_colour(verdict: str, dark: bool) -> str:
    return VERDICT_COLOURS[bool(dark)].get(verdict, "#888888")
