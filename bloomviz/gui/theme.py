"""Light and dark palettes, the one owner of "is the theme dark", and the font scale for projection.

The application uses Qt's Fusion style everywhere so that a palette means the same on every platform (the
native styles ignore parts of it). Text sizes derive from one base point size times a scale factor, so the
teacher's Ctrl+plus enlarges every label, table and plot text together.

Whether the theme is dark is held here and nowhere else: ``is_dark()`` reads it, ``set_dark(dark)`` changes it
(and the application's palette) and announces it through ``notifier().changed``, which a view that draws its
own colours subscribes to. Colours that mean something (a verdict, an error) are looked up by name in
``colour(name, dark)`` so that each is written once.
"""

from __future__ import annotations

from PySide6 import QtCore, QtGui, QtWidgets

from bloomviz.vocabulary import Verdict

FONT_SCALES = (0.8, 0.9, 1.0, 1.15, 1.3, 1.5, 1.75, 2.0, 2.5)
DEFAULT_FONT_SCALE = 1.0
BASE_POINT_SIZE = 10.0

# Colours of verdicts, shared by the item panel, the history and the explain panel (Okabe–Ito, as the grid), each
# at least 4.5:1 against the panels' backgrounds (WCAG AA for text; tests/gui/access/test_contrast.py): Okabe–Ito's green
# and vermilion are darkened in the light theme, where they measured 3.0:1 and 3.6:1.
VERDICT_COLOURS = {
    False: {Verdict.INSERTED: "#0072B2", Verdict.TRUE_POSITIVE: "#00775A", Verdict.TRUE_NEGATIVE: "#555555",
            Verdict.FALSE_POSITIVE: "#C0392B", Verdict.REMOVED: "#8E44AD", Verdict.FORCED_REMOVAL: "#A84300",
            Verdict.MAYBE_PRESENT: "#7F6A00", Verdict.FALSE_NEGATIVE: "#CC0066"},
    True: {Verdict.INSERTED: "#56B4E9", Verdict.TRUE_POSITIVE: "#3DDC97", Verdict.TRUE_NEGATIVE: "#BBBBBB",
           Verdict.FALSE_POSITIVE: "#FF6B5B", Verdict.FALSE_NEGATIVE: "#FF5FAF", Verdict.REMOVED: "#C39BD3",
           Verdict.FORCED_REMOVAL: "#FF9F5A", Verdict.MAYBE_PRESENT: "#E0C341"},
}
# Colours of messages, by what they say (light, dark).
MESSAGE_COLOURS = {
    "error": ("#C0392B", "#FF6B5B"),    # a refusal or a failure, in words beside the control that caused it
    "warning": ("#A84300", "#FF9F5A"),  # done, with a caveat the user should read (the forced removal's orange)
    "muted": ("#666666", "#9A9A9A"),    # a non-event ("Not removed"); quieter, still 4.5:1 (AA)
    "success": ("#1A6B2F", "#3DDC97"),  # a search that found what it looked for; a right answer; "not in the set"
    "probably": ("#1565C0", "#56B4E9"), # "probably in the set" where nothing says whether it is a false positive
}
# Colours with a meaning that are not text on a panel. The Explorer's plots keep the Filter tab's meanings (exact
# blue, measured vermilion; Okabe-Ito, safe for the common colour-vision deficiencies).
EXPLORER_COLOURS = {"exact": "#0072B2", "approx": "#009E73", "bound": "#CC79A7", "measured": "#D55E00",
                    "classic": "#5a5a5a", "mark": "#1f1f1f", "grey": "#777777", "best": "#F0E442",
                    "label_fill": (255, 255, 255, 220), "legend_fill": (255, 255, 255, 215)}
EXPLORER_RUNS = ("#D55E00", "#E69F00", "#56B4E9", "#8B4513", "#F0E442", "#000000")   # one per run
EXPLORER_FAMILY = ("#6baed6", "#3182bd", "#0072B2", "#08519c", "#08306b")          # a family of m, light to dark
LANE_COLOURS = ("#0072B2", "#009E73", "#E69F00", "#D55E00")   # the Compare tab's lanes (Okabe-Ito)
COMPARE_LEGEND = {"text": "#202020", "fill": (255, 255, 255, 220), "edge": "#B0B0B0"}
# A scenario's words marked by verdict: white text on these
SCENARIO_COLOURS = {Verdict.TRUE_NEGATIVE: "#1E6FB8", Verdict.TRUE_POSITIVE: "#2E7D32",
                    Verdict.FALSE_POSITIVE: "#C0392B"}
SCENARIO_TEXT = "#FFFFFF"
PRESENTER_BLANK = "#000000"   # what covers the window around a presented lesson
GAUGE_COLOURS = {"near": "#E69F00", "past": "#C0392B"}   # the fill gauge at and well past its design capacity
# Plots outside the Filter tab, by theme (theme_views)
VIEW_COLOURS = {False: {"background": "#ffffff", "foreground": "#1f1f1f"},
                True: {"background": "#1c1d21", "foreground": "#e4e4e4"}}


class _Theme(QtCore.QObject):
    changed = QtCore.Signal(bool)

    def __init__(self):
        super().__init__()
        self.dark = False


_THEME: _Theme | None = None


def notifier() -> _Theme:
    """The object whose ``changed(dark)`` signal announces a switch of theme."""
    global _THEME
    if _THEME is None:
        _THEME = _Theme()
    return _THEME


def is_dark() -> bool:
    return _THEME is not None and _THEME.dark     # (asked per insert: no notifier made to answer it)


def set_dark(dark: bool) -> None:
    """Switch the theme: the application's palette, then every subscriber (only when it changes)."""
    state = notifier()
    dark = bool(dark)
    app = QtWidgets.QApplication.instance()
    if app is not None:
        apply_theme(app, dark)
    if dark != state.dark:
        state.dark = dark
        state.changed.emit(dark)


def colour(name: str, dark: bool | None = None) -> str:
    """A message colour by name ("error", "muted", "success") in the current theme, or in the one given."""
    light_value, dark_value = MESSAGE_COLOURS[name]
    return dark_value if (is_dark() if dark is None else dark) else light_value


def outcome_colour(good: bool, dark: bool | None = None) -> str:
    """An outcome's colour: a right answer or a search that found, else a wrong answer or a search that failed
    (the error red: a verdict, not a message, so it is drawn where the outcome is)."""
    return colour("success" if good else "error", dark)


def palette(dark: bool) -> QtGui.QPalette:
    if not dark:
        p = QtWidgets.QStyleFactory.create("Fusion").standardPalette()
        # Fusion's selection blue gives white text 3.7:1; this one 5.4:1 (WCAG AA asks 4.5:1)
        p.setColor(QtGui.QPalette.ColorRole.Highlight, QtGui.QColor("#2b6cb0"))
        return p
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


def verdict_colour(verdict: str, dark: bool | None = None) -> str:
    """A verdict's colour in the current theme, or in the one given."""
    dark = (_THEME is not None and _THEME.dark) if dark is None else bool(dark)
    return VERDICT_COLOURS[dark].get(verdict) or colour("muted", dark)
