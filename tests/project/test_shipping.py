"""What a desktop app ships with (issue 13): a licence (file and metadata, compatible with the data sets'),
``bloomviz --version``, an application icon made by code, and a Linux desktop entry installed only on request."""

from __future__ import annotations

import configparser
import importlib.metadata
import os
import runpy
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import bloomviz
from bloomviz import desktop_entry

ROOT = Path(__file__).resolve().parents[2]


def test_the_licence_file_is_mit_and_names_every_data_set():
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License") and "Permission is hereby granted, free of charge" in text
    for folder in sorted((ROOT / "assets" / "datasets").iterdir()):
        if folder.is_dir():
            assert folder.name in text, f"LICENSE does not mention the data set {folder.name}"
            readme = (folder / "README.md").read_text(encoding="utf-8")
            assert "Licence:" in readme, f"{folder.name}'s README states no licence"


def test_the_package_metadata_carries_the_licence():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["license"] == {"text": "MIT"}
    assert "License :: OSI Approved :: MIT License" in project["classifiers"]
    assert importlib.metadata.metadata("bloomviz")["License"] == "MIT"


def test_version_prints_the_version():
    out = subprocess.run([sys.executable, "-m", "bloomviz", "--version"], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and out.stdout.strip() == f"bloomviz {bloomviz.__version__}"


def test_the_icon_files_are_what_make_icon_draws():
    make = runpy.run_path(str(ROOT / "assets" / "make_icon.py"))
    for rel, data in make["files"]().items():
        assert (ROOT / rel).read_bytes() == data, f"{rel} is stale: run assets/make_icon.py"


def test_the_icon_png_is_a_valid_square_rgba_picture_with_three_lit_cells():
    import struct
    import zlib

    import numpy as np
    data = (ROOT / "assets" / "bloomviz.png").read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height, depth, colour = struct.unpack(">IIBB", data[16:26])
    assert (width, height, depth, colour) == (256, 256, 8, 6)
    at, idat = 8, b""
    while at < len(data):   # every chunk's CRC is right, and the IDAT pieces joined
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        body = data[at + 8:at + 8 + length]
        assert struct.unpack(">I", data[at + 8 + length:at + 12 + length])[0] == zlib.crc32(kind + body)
        idat += body if kind == b"IDAT" else b""
        at += 12 + length
    rows = np.frombuffer(zlib.decompress(idat), np.uint8).reshape(height, 1 + width * 4)
    pixels = rows[:, 1:].reshape(height, width, 4)
    assert (pixels[..., 3] == 0).any() and (pixels[128, 128, 3] == 255)   # rounded, transparent corners
    make = runpy.run_path(str(ROOT / "assets" / "make_icon.py"))
    step = make["CELL"] + make["GAP"]
    centre = [make["MARGIN"] + i * step + make["CELL"] // 2 for i in range(4)]
    lit = {(r, c) for r in range(4) for c in range(4)
           if pixels[centre[r], centre[c], 0] > 200 and pixels[centre[r], centre[c], 2] < 80}   # amber
    assert lit == make["LIT"] and len(lit) == 3


def test_the_desktop_entry_template_is_the_one_the_code_writes_and_is_well_formed():
    text = (ROOT / "assets" / "bloomviz.desktop").read_text(encoding="utf-8")
    assert text == desktop_entry.template_text()
    entry = configparser.ConfigParser(interpolation=None)
    entry.optionxform = str
    entry.read_string(text)
    section = entry["Desktop Entry"]
    assert section["Type"] == "Application" and section["Exec"] == "bloomviz" and section["Icon"] == "bloomviz"
    assert section["Categories"].endswith(";") and "Education" in section["Categories"].split(";")


def test_exec_arguments_are_quoted_as_the_specification_requires():
    assert desktop_entry._exec_argument("/usr/bin/python3") == "/usr/bin/python3"
    assert desktop_entry._exec_argument("/home/a b/python") == '"/home/a b/python"'
    assert desktop_entry._exec_argument('/x/"q"$') == '"/x/\\\\"q\\\\"\\\\$"'
    assert desktop_entry._exec_argument("/x/100%") == '"/x/100%%"'


def test_install_desktop_entry_writes_only_under_xdg_data_home_and_starts_this_python(tmp_path):
    home = tmp_path / "home"
    env = {**os.environ, "HOME": str(home), "XDG_DATA_HOME": str(tmp_path / "data")}
    out = subprocess.run([sys.executable, "-m", "bloomviz", "--install-desktop-entry"], capture_output=True,
                         text=True, timeout=60, env=env)
    assert out.returncode == 0, out.stderr
    written = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*") if p.is_file())
    assert [str(p) for p in written] == ["data/applications/bloomviz.desktop",
                                         "data/icons/hicolor/256x256/apps/bloomviz.png",
                                         "data/icons/hicolor/scalable/apps/bloomviz.svg"]
    assert not home.exists()
    entry = configparser.ConfigParser(interpolation=None)
    entry.optionxform = str
    entry.read_string((tmp_path / "data/applications/bloomviz.desktop").read_text(encoding="utf-8"))
    section = entry["Desktop Entry"]
    assert section["Exec"].split() == [sys.executable, "-m", "bloomviz"]
    assert Path(section["Icon"]).read_bytes() == (ROOT / "assets" / "bloomviz.png").read_bytes()


def test_install_desktop_entry_reports_a_folder_it_cannot_write(tmp_path):
    blocker = tmp_path / "data"
    blocker.write_text("a file where the folder should be")
    out = subprocess.run([sys.executable, "-m", "bloomviz", "--install-desktop-entry"], capture_output=True,
                         text=True, timeout=60, env={**os.environ, "XDG_DATA_HOME": str(blocker)})
    assert out.returncode == 1 and "cannot install the desktop entry" in out.stderr and "Traceback" not in out.stderr


@pytest.mark.parametrize("extra", [["calc"], ["--demo", "5"]])
def test_install_desktop_entry_is_used_alone(extra, tmp_path):
    out = subprocess.run([sys.executable, "-m", "bloomviz", "--install-desktop-entry", *extra], capture_output=True,
                         text=True, timeout=60, env={**os.environ, "XDG_DATA_HOME": str(tmp_path)})
    assert out.returncode == 2 and list(tmp_path.iterdir()) == []
