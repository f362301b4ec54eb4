"""Reduced motion: with it on, what moves by itself moves in instant steps.

- slow motion's Play (Filter tab) runs every remaining step at once, to the verdict;
- a lesson's ``autoplay`` shows its end state at once, and a ``slow=`` reveal waits for Next at every step
  instead of turning its pages on a timer (in presenter mode too: its steps are the lesson's);
- the class-prediction tool lights a lookup's positions one per Next rather than on a metronome.

The setting is View → Reduce motion, kept under ``view/reduced_motion``. Qt 6.11 exposes no reduced-motion hint
of the system (``QStyleHints`` offers the colour scheme, ``QAccessibilityHints`` only the contrast preference,
and the platform theme's animation hints are not in PySide6), so the system's wish cannot be followed here: until
the user chooses, motion is as the app always had it. The Filter tab's auto-play keeps the rate its user picks.
"""

from __future__ import annotations

from PySide6 import QtGui
from bloomviz.i18n import tr

SETTING = "view/reduced_motion"
_state = {"reduced": False}


def reduced() -> bool:
    """True when motion should be instant steps."""
    return _state["reduced"]


def set_reduced(on: bool, settings=None) -> None:
    """Turn reduced motion on or off; ``settings`` (a QSettings) keeps the choice."""
    _state["reduced"] = bool(on)
    if settings is not None:
        settings.setValue(SETTING, bool(on))


def restore(settings) -> bool:
    """The saved choice, applied; off when none was saved."""
    value = settings.value(SETTING, False)
    on = value is True or str(value).lower() in ("true", "1")
    _state["reduced"] = on
    return on


def install(window) -> QtGui.QAction:
    """View → Reduce motion, checked as saved."""
    action = QtGui.QAction(tr("Reduce motion"), window)
    action.setCheckable(True)
    action.setChecked(restore(window.settings))
    action.setStatusTip(tr("Instant steps instead of moving pictures: Play, auto-play and slow reveals in lessons "
                           "jump or wait for Next"))
    action.setToolTip(action.statusTip())
    action.toggled.connect(lambda on: set_reduced(on, window.settings))
    window.menu("&View").addAction(action)
    window.actions_["reduced_motion"] = action
    return action
