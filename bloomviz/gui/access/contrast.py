"""Contrast of the app's text and verdict colours against the backgrounds they are drawn on, as WCAG 2.x
measures it: (L1 + 0.05) / (L2 + 0.05) of the relative luminances. AA asks 4.5:1 of text and 3:1 of the
graphics a user must make out (WCAG 1.4.3 and 1.4.11); the colours are read from where they live
(``gui.theme``: the palettes, verdict and message colours; ``filter_tab.plot.style``: the live plot's)."""

from __future__ import annotations

from PySide6 import QtGui

from bloomviz.gui import theme
from bloomviz.gui.filter_tab.plot.style import THEMES as PLOT_THEMES

TEXT_AA = 4.5
GRAPHICS_AA = 3.0
PLOT_CURVES = ("fp_measured", "fp_exact", "fp_approx", "fp_bound", "fp_classic", "capacity", "reference")


def luminance(colour) -> float:
    c = QtGui.QColor(colour)

    def channel(v: int) -> float:
        s = v / 255
        return s / 12.92 if s <= 0.04045 else ((s + 0.055) / 1.055) ** 2.4

    return 0.2126 * channel(c.red()) + 0.7152 * channel(c.green()) + 0.0722 * channel(c.blue())


def ratio(fg, bg) -> float:
    a, b = sorted((luminance(fg), luminance(bg)), reverse=True)
    return (a + 0.05) / (b + 0.05)


def pairs(dark: bool) -> list[tuple[str, str, str, float]]:
    """(what, foreground, background, the ratio AA asks) for every text and verdict colour of a theme."""
    pal = theme.palette(dark)
    role, name = QtGui.QPalette.ColorRole, (lambda r: pal.color(r).name())
    panel_bgs = {"window": name(role.Window), "base": name(role.Base)}
    out = [("window text", name(role.WindowText), name(role.Window), TEXT_AA),
           ("text", name(role.Text), name(role.Base), TEXT_AA),
           ("button text", name(role.ButtonText), name(role.Button), TEXT_AA),
           ("placeholder text", name(role.PlaceholderText), name(role.Base), TEXT_AA),
           ("link", name(role.Link), name(role.Base), TEXT_AA),
           ("selected text", name(role.HighlightedText), name(role.Highlight), TEXT_AA),
           ("tooltip", name(role.ToolTipText), name(role.ToolTipBase), TEXT_AA)]
    verdicts = sorted(set(theme.VERDICT_COLOURS[False]) | set(theme.VERDICT_COLOURS[True]))
    for verdict in verdicts:
        for where, bg in panel_bgs.items():
            out.append((f"verdict '{verdict}' on {where}", theme.verdict_colour(verdict, dark), bg, TEXT_AA))
    for message in theme.MESSAGE_COLOURS:
        for where, bg in panel_bgs.items():
            out.append((f"message '{message}' on {where}", theme.colour(message, dark), bg, TEXT_AA))
    plot = PLOT_THEMES[dark]
    out.append(("plot text", plot["foreground"], plot["background"], TEXT_AA))
    out += [(f"plot curve '{key}'", plot[key], plot["background"], GRAPHICS_AA) for key in PLOT_CURVES]
    return out


def failures(dark: bool) -> list[str]:
    return [f"{what}: {fg} on {bg} is {ratio(fg, bg):.2f}:1 (AA: {need}:1)"
            for what, fg, bg, need in pairs(dark) if ratio(fg, bg) < need]
