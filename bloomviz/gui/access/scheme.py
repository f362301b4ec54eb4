"""The theme follows the system's light or dark scheme (``QStyleHints.colorScheme``, Qt >= 6.5) until the user
picks one (View → Dark theme saves ``view/dark``); View → Follow the system's colours forgets the pick.

Where the platform does not say (``ColorScheme.Unknown``: a bare X server, the offscreen platform) the theme is
light, as it always was.
"""

from __future__ import annotations

from PySide6 import QtCore, QtGui
from bloomviz.i18n import tr

SETTING = "view/dark"


def system_dark() -> bool | None:
    """True for a dark system scheme, False for a light one, None when the platform does not say."""
    app = QtGui.QGuiApplication.instance()
    if app is None:
        return None
    scheme = app.styleHints().colorScheme()
    if scheme == QtCore.Qt.ColorScheme.Dark:
        return True
    if scheme == QtCore.Qt.ColorScheme.Light:
        return False
    return None


def picked(settings) -> bool | None:
    """The user's own pick of theme, None when there is none (or it is unreadable)."""
    value = settings.value(SETTING)
    if value is None:
        return None
    text = str(value).lower()
    return True if text in ("true", "1") else False if text in ("false", "0") else None


def wanted_dark(settings) -> bool:
    """The theme to show: the user's pick, else the system's scheme, else light."""
    mine = picked(settings)
    return mine if mine is not None else bool(system_dark())


def follow_system(window) -> None:
    """Forget the user's pick and show the system's scheme."""
    window.settings.remove(SETTING)
    window.set_dark(bool(system_dark()), remember=False)


class SchemeFollower(QtCore.QObject):
    """A child of the window, so that Qt drops the connection to the style hints when the window goes."""

    def __init__(self, window):
        super().__init__(window)
        self._window = window
        app = QtGui.QGuiApplication.instance()
        if app is not None:
            app.styleHints().colorSchemeChanged.connect(self.system_changed)

    @QtCore.Slot(QtCore.Qt.ColorScheme)
    def system_changed(self, _scheme=None) -> None:
        if picked(self._window.settings) is None:
            self._window.set_dark(bool(system_dark()), remember=False)


def install(window) -> QtGui.QAction:
    """Follow the system's scheme as it changes while the user has no pick; View → Follow the system's colours."""
    window.scheme_follower = SchemeFollower(window)
    action = QtGui.QAction(tr("Follow the system's colours"), window)
    action.setStatusTip(tr("Light or dark as the system is set, forgetting the theme picked here"))
    action.setToolTip(action.statusTip())
    action.triggered.connect(lambda: follow_system(window))
    window.menu("&View").addAction(action)
    window.actions_["follow_system_colours"] = action
    return action

