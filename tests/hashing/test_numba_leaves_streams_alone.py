"""numba marks up its compile-time messages with colorama, whose init()/deinit() swap sys.stdout and sys.stderr
for the whole process: on the window's warm-up thread, compiling on a clean install, that sent the main thread's
output to a stale stream (a command's output lost, in tests and beside the window). bloomviz turns the markup off
before any kernel imports numba (a user's own NUMBA_DISABLE_ERROR_MESSAGE_HIGHLIGHTING wins)."""

from __future__ import annotations

import os
import subprocess
import sys

PROBE = ("import bloomviz.hashing.mixed_kernel, numba.core.errors as e, os; "
         "print(type(e.termcolor()).__name__, os.environ.get('NUMBA_DISABLE_ERROR_MESSAGE_HIGHLIGHTING'))")


def _probe(env: dict) -> str:
    return subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, timeout=120,
                          env=env, check=True).stdout.strip()


def test_numbas_messages_are_not_marked_up_with_colorama():
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_DISABLE_ERROR_MESSAGE_HIGHLIGHTING"}
    assert _probe(env) == "NOPColorScheme 1"


def test_a_users_own_setting_wins():
    env = {**os.environ, "NUMBA_DISABLE_ERROR_MESSAGE_HIGHLIGHTING": "yes"}
    assert _probe(env).endswith(" yes")
