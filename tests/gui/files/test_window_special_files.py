"""Every path the window accepts refuses what is not a regular file, before reading it (issue 13, item 3).

A FIFO blocked File → Open, Insert from file and ``--open`` for ever; ``/dev/zero`` was read to the 1 GiB session
limit first. Each refusal names the file. An alarm turns a regression (a hang) into a failure.
"""

from __future__ import annotations

import os
import socket

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest

from bloomviz.gui.files import session_io
from bloomviz.gui.app import main
from guards import no_hang
from window_helpers import FakeDialogs


@pytest.fixture
def specials(tmp_path):
    fifo = tmp_path / "pipe.bloomviz"
    os.mkfifo(fifo)
    sock_path = tmp_path / "s.sock"
    sock = socket.socket(socket.AF_UNIX)
    sock.bind(str(sock_path))
    paths = {"fifo": str(fifo), "device": "/dev/zero", "random": "/dev/urandom", "directory": str(tmp_path),
             "socket": str(sock_path)}
    yield paths
    sock.close()


pytestmark = pytest.mark.window(probes=100, shown=False)


@pytest.fixture
def win(window):
    """The shared window (tests/conftest.py), its File menu's dialogs answered by the test, one item in it."""
    window.dialogs = FakeDialogs(unsaved_answer="discard")
    window.file_actions = session_io.install(window, window.dialogs)
    window.wb.insert("kept")
    return window


WORDS = {"fifo": "FIFO", "device": "device", "random": "device", "directory": "directory", "socket": "socket"}


@pytest.mark.parametrize("kind", list(WORDS))
@pytest.mark.parametrize("entry", ["open", "open session", "load filter", "insert from file"])
def test_window_refuses_a_special_file_naming_it(win, specials, kind, entry):
    path = specials[kind]
    files = win.file_actions
    call = {"open": lambda: files.open_path(path, ask=False),
            "open session": lambda: files.open_session_path(path, ask=False),
            "load filter": lambda: files.load_filter_path(path, ask=False),
            "insert from file": lambda: files.importer.start(path)}[entry]
    with no_hang(who="the window"):
        assert call() is False
    assert not win.wb.busy
    assert len(win.dialogs.errors) == 1
    text = win.dialogs.errors[0][1]
    assert path in text and WORDS[kind] in text, text
    assert len(win.wb.filter) == 1 and win.wb.is_member("kept")


@pytest.mark.parametrize("kind", ["fifo", "device", "directory", "socket"])
def test_open_option_refuses_a_special_file(specials, kind, capsys, monkeypatch, tmp_path):
    monkeypatch.setenv("BLOOMVIZ_SETTINGS", str(tmp_path / "settings.ini"))
    with no_hang(who="the window"):
        assert main(["--open", specials[kind]]) == 2
    err = capsys.readouterr().err
    assert specials[kind] in err and WORDS[kind] in err, err
