"""``main()`` and the screenshot command, each in its own process (one QApplication per process)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def run(args: list[str], tmp_path: Path, extra_env: dict | None = None, timeout: float = 120):
    env = dict(os.environ)
    env["QT_QPA_PLATFORM"] = "offscreen"
    env["BLOOMVIZ_SETTINGS"] = str(tmp_path / "settings.ini")
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT)] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p])
    env.update(extra_env or {})
    return subprocess.run([sys.executable, *args], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=timeout)


def png_stats(path: Path) -> tuple[int, int, int]:
    """(width, height, distinct colours in a sample) of a PNG, read in a subprocess-free way with Qt's QImage."""
    from PySide6 import QtGui
    image = QtGui.QImage(str(path))
    assert not image.isNull(), f"{path} is not a readable image"
    colours = set()
    for y in range(0, image.height(), 7):
        for x in range(0, image.width(), 7):
            colours.add(image.pixel(x, y))
    return image.width(), image.height(), len(colours)


def test_screenshot_command_writes_a_png_of_the_window(tmp_path):
    out = tmp_path / "shot.png"
    result = run(["-m", "bloomviz", "--screenshot", str(out), "--demo", "150"], tmp_path)
    assert result.returncode == 0, result.stderr
    assert out.exists() and out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    width, height, colours = png_stats(out)
    assert width >= 1280 and height >= 800
    assert colours > 20, "the screenshot is (nearly) one colour"


def test_main_starts_paints_and_quits(tmp_path):
    code = "import sys; from bloomviz.gui.app import main; sys.exit(main([]))"
    result = run(["-c", code], tmp_path, {"BLOOMVIZ_QUIT_AFTER_PAINT": "1"})
    assert result.returncode == 0, result.stderr
    assert "first-paint" in result.stdout
    # the window saved its layout into the settings file it was given, and nowhere else
    assert (tmp_path / "settings.ini").exists()


def test_main_with_a_demo_and_parameters(tmp_path):
    code = "import sys; from bloomviz.gui.app import main; sys.exit(main(['--demo', '30', '--m', '500', '--k', '3']))"
    result = run(["-c", code], tmp_path, {"BLOOMVIZ_QUIT_AFTER_PAINT": "1"})
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize("args, needle", [
    (["--m", "3"], "m (bits) must be between 8"),
    (["--k", "100"], "k (hash functions) must be between 1"),
    (["--scheme", "nope"], "unknown hash scheme"),
    (["--demo", "-4"], "--demo"),
    (["--frobnicate"], "unrecognized arguments"),
    (["--tab", "nowhere"], "--tab"),
    (["--scenario", "haiku"], "unknown scenario 'haiku'"),
    (["--open", "missing.bloomviz"], "no such file: missing.bloomviz"),
])
def test_bad_window_options_exit_2_with_one_line(args, needle, tmp_path):
    code = f"import sys; from bloomviz.gui.app import main; sys.exit(main({args!r}))"
    result = run(["-c", code], tmp_path)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and needle in lines[0] and "Traceback" not in result.stderr


def test_no_display_is_reported_instead_of_aborting(tmp_path):
    code = "import sys; from bloomviz.gui.app import main; sys.exit(main([]))"
    env = {"QT_QPA_PLATFORM": "", "DISPLAY": "", "WAYLAND_DISPLAY": ""}
    if not sys.platform.startswith("linux"):
        pytest.skip("the check is for Linux desktops")
    result = run(["-c", code], tmp_path, env)
    assert result.returncode == 1
    assert "no display" in result.stderr and "--screenshot" in result.stderr



def test_screenshot_of_a_scenario_on_another_tab(tmp_path):
    out = tmp_path / "explorer.png"
    result = run(["-m", "bloomviz", "--screenshot", str(out), "--scenario", "contacts", "--tab", "explorer"],
                 tmp_path)
    assert result.returncode == 0, result.stderr
    width, height, colours = png_stats(out)
    assert (width, height) >= (1280, 800) and colours > 20


def test_open_a_saved_filter_at_start(tmp_path):
    from bloomviz.files import storage
    from bloomviz.filters.standard import BloomFilter
    flt = BloomFilter(512, 3)
    flt.update([f"w{i}" for i in range(40)])
    storage.save(flt, tmp_path / "f.bloom")
    out = tmp_path / "opened.png"
    result = run(["-m", "bloomviz", "--screenshot", str(out), "--open", str(tmp_path / "f.bloom")], tmp_path)
    assert result.returncode == 0, result.stderr
    assert png_stats(out)[2] > 20



def test_main_keeps_qts_fills_on_the_gui_thread(tmp_path, monkeypatch):
    # Qt reads QT_NO_GUI_THREADPOOL when its raster engine first asks for its fill pool: main sets it before the
    # application is made
    code = ("import os, sys; from bloomviz.gui.app import main; code = main([]); "
            "print('pool-setting', repr(os.environ.get('QT_NO_GUI_THREADPOOL'))); sys.exit(code)")
    monkeypatch.delenv("QT_NO_GUI_THREADPOOL", raising=False)
    result = run(["-c", code], tmp_path, {"BLOOMVIZ_QUIT_AFTER_PAINT": "1"})
    assert result.returncode == 0, result.stderr
    assert "pool-setting '1'" in result.stdout, result.stdout


def test_a_thread_pool_setting_already_made_is_kept(monkeypatch):
    from bloomviz.gui.app import paint_on_gui_thread
    monkeypatch.setenv("QT_NO_GUI_THREADPOOL", "")
    paint_on_gui_thread()
    assert os.environ["QT_NO_GUI_THREADPOOL"] == ""
    monkeypatch.delenv("QT_NO_GUI_THREADPOOL")
    paint_on_gui_thread()
    assert os.environ["QT_NO_GUI_THREADPOOL"] == "1"
