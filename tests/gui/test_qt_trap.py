"""Guards against PySide6 6.12.0's abort on CPython 3.11.

There, after a few thousand calls of a Qt method that returns nothing, the interpreter dies with
"Fatal Python error: none_dealloc". The window makes such calls all the time (QWidget.update() on every
redraw), so the pin in pyproject.toml matters; these tests fail if a release with the bug is installed.
"""

import os
import subprocess
import sys

import pytest

CALLS = 200_000

HAMMER = f"""
import sys
from PySide6 import QtWidgets
app = QtWidgets.QApplication(sys.argv[:1])
widget = QtWidgets.QWidget()
for _ in range({CALLS}):
    widget.update()
widget.deleteLater()
print("OK", flush=True)
"""


def test_many_void_qt_calls_do_not_abort_the_interpreter():
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    result = subprocess.run([sys.executable, "-c", HAMMER], env=env, capture_output=True, text=True,
                            timeout=300)
    assert result.returncode == 0, (
        f"the interpreter died after repeated QWidget.update() (exit code {result.returncode}):\n"
        f"{result.stderr[-2000:]}")
    assert result.stdout.split() == ["OK"], result.stdout + result.stderr


@pytest.mark.skipif(sys.version_info >= (3, 12), reason="the abort is seen on CPython below 3.12")
def test_pyside6_is_older_than_6_12_below_python_3_12():
    import PySide6

    assert tuple(PySide6.__version_info__[:2]) < (6, 12), (
        f"PySide6 {PySide6.__version__} is installed on Python {sys.version.split()[0]}; "
        "pyproject.toml pins PySide6-Essentials<6.12 for Python < 3.12")
