"""Opens every lesson file named on stdin in the Lesson tab (offscreen), walks it to its end and one step back,
and prints one JSON line per file: whether it opened, the CPU seconds and the peak memory it took, and any
exception raised in a slot. Before each file the process's CPU limit is set 5 s above what it has used and its
address-space limit 1 GiB above its size (RLIMIT_CPU / RLIMIT_AS), and its peak RSS is reset (clear_refs), so
each file is held to the same limits as a headless run. Used by ``test_lesson_fuzz.py``."""

from __future__ import annotations

import json
import math
import os
import re
import resource
import sys
import time
import traceback

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6 import QtWidgets  # noqa: E402

from bloomviz.gui.lesson_tab.view import LessonView  # noqa: E402
from window_helpers import FakeDialogs  # noqa: E402

CPU_SECONDS = 5
MEMORY_BYTES = 1 << 30


def _status(key: str) -> int:
    with open("/proc/self/status") as f:
        return int(re.search(rf"^{key}:\s+(\d+) kB", f.read(), re.M).group(1)) * 1024


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    app = QtWidgets.QApplication([])
    view = LessonView(FakeDialogs())
    view.resize(1280, 800)
    view.show()
    errors: list[str] = []
    sys.excepthook = lambda *exc: errors.append("".join(traceback.format_exception(*exc)))
    for line in sys.stdin:
        path = line.rstrip("\n")
        errors.clear()
        cpu = _cpu()
        resource.setrlimit(resource.RLIMIT_CPU, (math.ceil(cpu) + CPU_SECONDS, resource.RLIM_INFINITY))
        resource.setrlimit(resource.RLIMIT_AS, (_status("VmSize") + MEMORY_BYTES, resource.RLIM_INFINITY))
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
        rss = _status("VmRSS")
        opened = False
        def settle():      # the opening, and a heavy step's Next, Back or jump, run as jobs
            while view.opening.running:
                app.processEvents()
                time.sleep(0.005)
                view.opening.wait(0.02)
        try:
            view.open_path(path)
            settle()
            opened = view.lesson is not None and view.lesson.path == path
            if opened:
                view.go_to(len(view.lesson.steps))
                settle()
                view.back()
                settle()
                app.processEvents()
        except Exception:
            errors.append(traceback.format_exc())
        print(json.dumps({"path": path, "opened": opened, "cpu": _cpu() - cpu,
                          "peak_growth": _status("VmHWM") - rss, "errors": errors[:3],
                          "message": view.message.text()[-400:]}), flush=True)


if __name__ == "__main__":
    main()
