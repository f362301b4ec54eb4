"""Test-wide settings, loaded by pytest before any test module is imported.

Qt must be told to draw offscreen before the first QApplication exists, so this is done here rather than in a
fixture. A developer who wants to watch the widgets can still run with QT_QPA_PLATFORM=xcb.
"""

import os
import sys

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
# No native kernel cache (hashing/native_kernels.py) in the user's cache directory: the window's warm-up would
# read it, or spend seconds writing it, in every test process. Its own tests give it a temporary directory.
os.environ["BLOOMVIZ_KERNEL_CACHE"] = ""

from hypothesis import HealthCheck, settings  # noqa: E402

# Same examples on every run and machine (derandomize), no example database to carry state between runs, and
# no per-example deadline: CI machines are shared and slow, and speed is measured in benchmarks/, not here.
settings.register_profile(
    "bloomviz",
    max_examples=50,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
# For a longer hunt on a developer's machine: HYPOTHESIS_PROFILE=thorough python -m pytest
settings.register_profile("thorough", max_examples=1000, deadline=None, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "bloomviz"))


# --- waits that a loaded machine does not fail --------------------------------------------------------------
# pytest-qt's waits (waitUntil, waitSignal, waitExposed ...) return as soon as their condition holds or their
# signal comes, so only a wait that is going to fail waits out its timeout. Here a timeout is a guard against a
# hang, never a speed check (speed is measured in benchmarks/): the 3 s and 5 s that tests named, and pytest-qt's
# default of 5 s, ran out on a shared two-core CI machine under load (the projector layout's 3 s wait failed a
# clean-clone run that took 7 min 50 s; the same wait passes in well under a second on a quiet one). So every
# wait that may raise waits at least WAIT_FLOOR_MS. A wait given raising=False, or no timeout (0 or None), is
# left as it was: there the timeout is part of what the test asks for.
# Once a test in this process has failed, the waits keep their own timeouts again: if something broke every
# window (say, windows stop being shown), ~300 waits of 30 s would keep a run that is already red going for hours.
WAIT_FLOOR_MS = 30_000
_a_test_failed = False


def pytest_runtest_logreport(report):
    global _a_test_failed
    if report.failed:
        _a_test_failed = True


def _at_least_the_floor(wait):
    import functools

    @functools.wraps(wait)
    def patient(self, *args, timeout=5000, **kwargs):
        if timeout and kwargs.get("raising") is not False and not _a_test_failed:
            timeout = max(timeout, WAIT_FLOOR_MS)
        return wait(self, *args, timeout=timeout, **kwargs)
    patient.floor_ms = WAIT_FLOOR_MS
    return patient


def _floor_qtbot_waits() -> None:
    try:
        from pytestqt.qtbot import QtBot
    except ImportError:        # run without pytest-qt (-p no:pytestqt): no waits to floor
        return
    for name in ("waitUntil", "waitSignal", "waitSignals", "waitExposed", "waitActive", "waitCallback"):
        wait = getattr(QtBot, name)
        if not hasattr(wait, "floor_ms"):
            setattr(QtBot, name, _at_least_the_floor(wait))


_floor_qtbot_waits()


# --- leaving the test process ------------------------------------------------------------------------------
# A test process (the one, or each of pytest-xdist's workers under -n auto) runs many tests that build and
# drop hundreds of Qt windows; at interpreter exit Python and Qt then tear down what is left in an order
# neither guarantees, and a full run was seen to end with a segmentation fault after its summary (exit 139;
# each half of the suite alone exits 0). The suite's verdict is pytest's exit status, so once pytest has printed
# its summary the process leaves with that status at once.
# The app's own exit is tested where it happens: ``main()`` runs in subprocesses (tests/gui/test_app_main.py).
_exit_status = None


def pytest_sessionfinish(session, exitstatus):
    global _exit_status
    _exit_status = int(exitstatus)


def pytest_unconfigure(config):
    if _exit_status is None or os.environ.get("BLOOMVIZ_TEST_NORMAL_EXIT"):
        return
    import sys
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(_exit_status)


# --- every test in English, and no window waits for a click at teardown -------------------------------------
import pytest  # noqa: E402


@pytest.fixture(autouse=True)
def _english_and_no_modal_questions(monkeypatch):
    """The window's words follow BLOOMVIZ_LANG and the locale variables: a developer's LANG=hr_HR made window
    tests fail, so each test starts with none that names a language and ends in English (a test that wants Croatian sets
    BLOOMVIZ_LANG itself). pytest-qt closes a test's windows after the test; a window whose filter changed after
    the test's last word (a job still running) would ask "save your changes?" in a modal box that no one
    answers, and the run would wait for ever: here that question is answered "discard"."""
    from bloomviz import i18n
    for name in (i18n.ENVIRONMENT, *i18n.SYSTEM_VARIABLES):
        value = os.environ.get(name, "")
        if name in ("LANG", "LC_ALL") and value and not value.startswith(("en", "C", "POSIX")):
            monkeypatch.setenv(name, "C.UTF-8")   # still UTF-8 for the commands tests start, but not Croatian
        elif name not in ("LANG", "LC_ALL"):
            monkeypatch.delenv(name, raising=False)
    i18n.use("en")
    if "bloomviz.gui.files.file_dialogs" in sys.modules:   # Qt's modules only where a test loaded them
        from bloomviz.gui.files.file_dialogs import DISCARD, Dialogs
        monkeypatch.setattr(Dialogs, "ask_unsaved", lambda self, text: DISCARD)
    yield
    i18n.use("en")
    if "bloomviz.gui.window.language_menu" in sys.modules:
        sys.modules["bloomviz.gui.window.language_menu"].use_qt_locale("en")
