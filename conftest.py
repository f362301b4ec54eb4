"""Test-wide settings, loaded by pytest before any test module is imported.

Qt must be told to draw offscreen before the first QApplication exists, so this is done here rather than in a
fixture. A developer who wants to watch the widgets can still run with QT_QPA_PLATFORM=xcb.
"""

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

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
