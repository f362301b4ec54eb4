"""Every picture and plot export and File → Export history go through the one atomic writer: a FIFO chosen in
the save dialog is refused (nothing written into it, the window not frozen), a read-only file is refused and
left as it was, a 0600 file stays 0600, and a failed export leaves the old file whole.

A FIFO target has a reader draining it in another process for the whole test, so that code writing straight
into it (the old behaviour) finishes and is caught writing, instead of blocking the test for ever.
"""

from __future__ import annotations

import os
import stat
import subprocess
import sys

import pytest
from PySide6 import QtCore, QtWidgets

from bloomviz.gui.filter_tab import history_export
from bloomviz.gui.window import exports

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")


DRAIN = """
import os, select, sys
fd = os.open(sys.argv[1], os.O_RDONLY | os.O_NONBLOCK)
print("ready", flush=True)
total = 0
while True:
    ready, _, _ = select.select([fd, sys.stdin], [], [], 0.05)
    if sys.stdin in ready:
        break
    if fd in ready:
        try:
            total += len(os.read(fd, 1 << 16))
        except BlockingIOError:
            pass
print(total, flush=True)
"""


class FifoDrain:
    """A reader on a FIFO, in another process (a writer blocked inside Qt may hold the GIL), that counts what
    any writer puts in it."""

    def __init__(self, path):
        os.mkfifo(path)
        self.path = path
        self.proc = subprocess.Popen([sys.executable, "-c", DRAIN, path], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True)
        assert self.proc.stdout.readline().strip() == "ready"

    def close(self) -> int:
        """Stop the reader; the number of bytes written into the FIFO."""
        out, _ = self.proc.communicate("stop\n", timeout=30)
        return int(out.strip())


pytestmark = pytest.mark.window(size=(900, 600))


@pytest.fixture
def window(window):
    """The shared window (tests/conftest.py) with 20 items. Warnings, however they are shown (a static
    QMessageBox.warning too), are recorded in ``warned`` and closed by a timer."""
    warned = []

    def close_warnings():
        box = QtWidgets.QApplication.activeModalWidget()
        if isinstance(box, QtWidgets.QMessageBox):
            warned.append(box.text())
            box.done(0)

    timer = QtCore.QTimer()
    timer.timeout.connect(close_warnings)
    timer.start(20)
    for i in range(20):
        window.wb.insert(f"item {i}")
    window.warned = warned
    yield window
    timer.stop()


def exporters(window):
    """name -> (suffix, write(path)) for every export the window offers; a refusal raises OSError or shows a
    warning (recorded in window.warned)."""
    def picture(path):
        exports._save_path = lambda *a, **k: path
        exports.save_window_picture(window)
        if window.warned:
            raise OSError(window.warned.pop())
    return {
        "window picture": (".png", picture),
        "grid png": (".png", window.grid.export_png),
        "plot png": (".png", window.plot.export),
        "plot svg": (".svg", window.plot.export),
        "plot csv": (".csv", window.plot.export),
        "history csv": (".csv", lambda path: history_export.write_csv(window.wb.history, path)),
    }


NAMES = ["window picture", "grid png", "plot png", "plot svg", "plot csv", "history csv"]


@pytest.mark.parametrize("name", NAMES)
def test_an_export_into_a_fifo_is_refused(window, tmp_path, monkeypatch, name):
    monkeypatch.setattr(exports, "_save_path", exports._save_path)
    suffix, write = exporters(window)[name]
    fifo = str(tmp_path / f"pipe{suffix}")
    drain = FifoDrain(fifo)
    try:
        with pytest.raises(OSError, match="FIFO"):
            write(fifo)
    finally:
        written = drain.close()
    assert written == 0 and stat.S_ISFIFO(os.lstat(fifo).st_mode)


@pytest.mark.parametrize("name", NAMES)
def test_an_export_keeps_a_read_only_file_and_a_0600_mode(window, tmp_path, monkeypatch, name):
    monkeypatch.setattr(exports, "_save_path", exports._save_path)
    suffix, write = exporters(window)[name]
    locked = tmp_path / f"locked{suffix}"
    locked.write_bytes(b"keep me")
    locked.chmod(0o444)
    with pytest.raises(OSError, match="read-only"):
        write(str(locked))
    assert locked.read_bytes() == b"keep me" and stat.S_IMODE(locked.stat().st_mode) == 0o444
    private = tmp_path / f"private{suffix}"
    private.write_bytes(b"old")
    private.chmod(0o600)
    write(str(private))
    assert private.read_bytes() != b"old" and private.stat().st_size > 0
    assert stat.S_IMODE(private.stat().st_mode) == 0o600
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []   # no temporary left


def test_the_screenshot_option_refuses_a_fifo(tmp_path):
    fifo = str(tmp_path / "shot.png")
    drain = FifoDrain(fifo)
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", BLOOMVIZ_SETTINGS=str(tmp_path / "s.ini"))
    try:
        done = subprocess.run([sys.executable, "-m", "bloomviz", "--screenshot", fifo, "--demo", "20"], env=env,
                              capture_output=True, text=True, timeout=120,
                              cwd=os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))))
    finally:
        written = drain.close()
    assert done.returncode == 1 and "FIFO" in done.stderr and written == 0
