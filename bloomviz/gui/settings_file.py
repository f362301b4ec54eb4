"""Where the window keeps its preferences, and how to put them back to their defaults.

Preferences (theme, text size, the panels' layout, the auto-play rate, recent files) live in QSettings under
the organisation and application name "bloomviz": on Linux ``~/.config/bloomviz/bloomviz.conf`` (or under
``$XDG_CONFIG_HOME``), on macOS a plist, on Windows the registry; ``BLOOMVIZ_SETTINGS=FILE`` puts them in
that INI file instead. A layout saved under a large font or a broken preference can make the window hard to
use, so ``bloomviz --reset-settings`` clears them (as napari's ``--reset`` does) and Help → Where settings
live names the place.
"""

from __future__ import annotations

import os

ORGANISATION = APPLICATION = "bloomviz"
ENVIRONMENT = "BLOOMVIZ_SETTINGS"


def open_settings(path: str | None = None):
    """The QSettings the window uses: ``path`` (an INI file), else ``$BLOOMVIZ_SETTINGS``, else the user's."""
    from PySide6 import QtCore
    path = path or os.environ.get(ENVIRONMENT)
    if path:
        return QtCore.QSettings(path, QtCore.QSettings.Format.IniFormat)
    return QtCore.QSettings(QtCore.QSettings.Format.NativeFormat, QtCore.QSettings.Scope.UserScope,
                            ORGANISATION, APPLICATION)


def reset_settings() -> tuple[str, int]:
    """Clear every preference; (where they were kept, how many keys were cleared)."""
    settings = open_settings()
    where, count = settings.fileName(), len(settings.allKeys())
    settings.clear()
    settings.sync()
    return where, count


def reset_command() -> int:
    """``bloomviz --reset-settings``: one line saying what was cleared and where; exit code."""
    import sys
    try:
        where, count = reset_settings()
    except ImportError as exc:
        print(f"bloomviz: cannot reach the settings: {exc}", file=sys.stderr)
        return 1
    print(f"bloomviz: reset the window's settings to their defaults ({count} cleared) in {where}")
    return 0
