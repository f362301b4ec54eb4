"""``bloomviz --reset-settings`` puts the window's preferences back to their defaults, and Help says where they
live (the real file the running window uses)."""

from __future__ import annotations

import os
import subprocess
import sys

from PySide6 import QtCore, QtGui, QtWidgets

from window_helpers import new_window

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _env(tmp_path, **extra):
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""),
               XDG_CONFIG_HOME=str(tmp_path / "config"), HOME=str(tmp_path / "home"))
    env.pop("BLOOMVIZ_SETTINGS", None)
    env.update(extra)
    return env


WRITE = ("from bloomviz.gui.settings_file import open_settings\n"
         "s = open_settings(); s.setValue('ui/dark', True); s.setValue('recent/files', ['/x.bloom']); s.sync()\n"
         "print(s.fileName())\n")
READ = "from bloomviz.gui.settings_file import open_settings\nprint(sorted(open_settings().allKeys()))\n"


def _py(code, env):
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60,
                          cwd=ROOT)


def test_reset_settings_clears_the_users_preferences(tmp_path):
    env = _env(tmp_path)
    where = _py(WRITE, env).stdout.strip()
    assert where.startswith(str(tmp_path / "config")) and os.path.exists(where)
    assert "ui/dark" in _py(READ, env).stdout
    done = subprocess.run([sys.executable, "-m", "bloomviz", "--reset-settings"], env=env, capture_output=True,
                          text=True, timeout=60, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert where in done.stdout and "2 cleared" in done.stdout
    assert _py(READ, env).stdout.strip() == "[]"


def test_reset_settings_follows_bloomviz_settings_and_is_used_alone(tmp_path):
    ini = tmp_path / "mine.ini"
    env = _env(tmp_path, BLOOMVIZ_SETTINGS=str(ini))
    _py(WRITE, env)
    assert "dark" in ini.read_text()
    refused = subprocess.run([sys.executable, "-m", "bloomviz", "--reset-settings", "calc", "--m", "8"], env=env,
                             capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert refused.returncode == 2 and "used alone" in refused.stderr and "dark" in ini.read_text()
    done = subprocess.run([sys.executable, "-m", "bloomviz", "--reset-settings"], env=env, capture_output=True,
                          text=True, timeout=60, cwd=ROOT)
    assert done.returncode == 0 and str(ini) in done.stdout
    assert "dark" not in ini.read_text()


def test_help_names_the_settings_file_and_the_reset(qtbot, tmp_path):
    window = new_window(qtbot, tmp_path)
    action = next(a for a in window.findChildren(QtGui.QAction) if a.text() == "Where settings live")
    action.trigger()
    box = next(w for w in QtWidgets.QApplication.topLevelWidgets()
               if isinstance(w, QtWidgets.QMessageBox) and w.windowTitle() == "Where settings live")
    assert str(tmp_path / "settings.ini") in box.text() and "--reset-settings" in box.text()
    assert box.textFormat() == QtCore.Qt.TextFormat.PlainText
    box.close()
