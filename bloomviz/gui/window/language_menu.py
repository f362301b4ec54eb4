"""View → Language: System / English / Hrvatski, kept in the settings (``i18n.SETTING``).

The choice takes effect when the window next starts: every label, tip and menu is made in the language chosen
then, and remaking them all in place would mean rebuilding the window. ``BLOOMVIZ_LANG`` still wins over the
setting (the menu says so when it is set).
"""

from __future__ import annotations

import os

from PySide6 import QtCore, QtGui, QtWidgets

from bloomviz import i18n
from bloomviz.i18n import tr

SYSTEM = "auto"
# Qt's own number words (spin boxes, progress bars): the language's where it has a catalogue, else as Qt found them
QT_LOCALES = {"hr": (QtCore.QLocale.Language.Croatian, QtCore.QLocale.Country.Croatia)}
_qt_default: list = []


def use_qt_locale(code: str, window: QtWidgets.QWidget | None = None) -> None:
    """Spin boxes and other Qt number fields write numbers as ``code`` does (hr: 1.000, 0,5); English, or a
    language without an entry here, puts back the locale Qt started with. ``window``, made before, takes it
    too (its children inherit its locale, not the default)."""
    if not _qt_default:
        _qt_default.append(QtCore.QLocale())
    wanted = QT_LOCALES.get(code)
    QtCore.QLocale.setDefault(QtCore.QLocale(*wanted) if wanted else _qt_default[0])
    if window is not None:
        window.setLocale(QtCore.QLocale())


def saved(settings) -> str:
    """The language the settings hold: a code with a catalogue, or ``"auto"`` (follow the system)."""
    value = i18n.normalise(str(settings.value(i18n.SETTING, "") or ""))
    return value if value in i18n.available() else SYSTEM


def choose(window, code: str) -> str:
    """Keep ``code`` (``"auto"`` or a language) for the next start; returns the message the window shows."""
    window.settings.setValue(i18n.SETTING, code)
    window.settings.sync()
    wanted = i18n.choose(code, {k: v for k, v in os.environ.items() if k != i18n.ENVIRONMENT})
    if os.environ.get(i18n.ENVIRONMENT):
        return tr("Kept for the next start; {variable}={value} is set and chooses the language over it.").format(
            variable=i18n.ENVIRONMENT, value=os.environ[i18n.ENVIRONMENT])
    if wanted == i18n.language():
        return tr("The window is already in {language}.").format(language=i18n.NAMES.get(wanted, wanted))
    # said in the language asked for, too: whoever picked it reads it best
    words = "{language} from the next start of bloomviz."
    shown = tr(words).format(language=i18n.NAMES.get(wanted, wanted))
    current = i18n.language()
    i18n.use(wanted)
    theirs = tr(words).format(language=i18n.NAMES.get(wanted, wanted))
    i18n.use(current)
    return shown if theirs == shown else f"{shown} / {theirs}"


def install(window) -> QtWidgets.QMenu:
    """The Language submenu of View, its entry checked as saved."""
    menu = window.menu("&View").addMenu(tr("Language"))
    menu.setToolTipsVisible(True)
    group = QtGui.QActionGroup(menu)
    current = saved(window.settings)
    entries = [(SYSTEM, tr("System (the locale's language)"))] + [(code, i18n.NAMES.get(code, code))
                                                                   for code in i18n.available()]
    override = os.environ.get(i18n.ENVIRONMENT)
    for code, text in entries:
        action = QtGui.QAction(text, menu)
        action.setCheckable(True)
        action.setChecked(code == current)
        action.setData(code)
        tip = tr("Applied when bloomviz next starts.")
        if override:
            tip += " " + tr("{variable}={value} is set and chooses the language over this setting.").format(
                variable=i18n.ENVIRONMENT, value=override)
        action.setStatusTip(tip)
        action.setToolTip(tip)
        action.triggered.connect(lambda _on=False, c=code: window.statusBar().showMessage(choose(window, c), 10_000))
        group.addAction(action)
        menu.addAction(action)
    window.language_menu = menu
    return menu
