"""A desktop entry for Linux menus, written only when asked: ``bloomviz --install-desktop-entry``.

Installing the package never touches the user's menus; this command does, explicitly. It writes (atomically,
replacing an earlier copy) under ``$XDG_DATA_HOME`` (default ``~/.local/share``), as the freedesktop.org
specifications say a per-user application is added:

    applications/bloomviz.desktop                  the entry: name, comment, categories, how to start it
    icons/hicolor/256x256/apps/bloomviz.png        the icon (package data: bloomviz/data/icons/)
    icons/hicolor/scalable/apps/bloomviz.svg

The installed entry starts the app with this Python (``<python> -m bloomviz``), so it works from a virtual
environment that is not on PATH, and names its icon by absolute path. ``assets/bloomviz.desktop`` in the
repository is the same entry for a system-wide install (``Exec=bloomviz``, ``Icon=bloomviz``); a test checks
that it is what ``entry_text`` makes. To remove the entry, delete the three files.
"""

from __future__ import annotations

import os
import sys
from importlib import resources
from pathlib import Path

ENTRY_NAME = "bloomviz.desktop"
ICON_FILES = {"bloomviz.png": Path("icons/hicolor/256x256/apps"), "bloomviz.svg": Path("icons/hicolor/scalable/apps")}

_RESERVED = set(' \t\n\r"\'\\><~|&;$*?#()`')


def _exec_argument(arg: str) -> str:
    """One argument of an Exec key, quoted as the Desktop Entry Specification requires when it must be."""
    if arg and not (set(arg) & _RESERVED) and "=" not in arg and "%" not in arg:
        return arg
    quoted = "".join("\\" + c if c in '"`$\\' else c for c in arg).replace("%", "%%")
    # A desktop file's string values are themselves escaped: each backslash is written twice.
    return '"' + string_value(quoted) + '"'


def string_value(text: str) -> str:
    """``text`` as a desktop file's string value: a backslash written twice, a newline, tab or carriage return
    as ``\\n``, ``\\t``, ``\\r`` (a raw newline in a path would end the line and leave the rest as a stray,
    invalid line: the entry would start something else or nothing)."""
    return text.replace("\\", "\\\\").replace("\n", "\\n").replace("\t", "\\t").replace("\r", "\\r")


def entry_text(command: list[str], icon: str) -> str:
    """The text of the desktop entry starting ``command`` with ``icon`` (a theme name or an absolute path)."""
    return "\n".join([
        "[Desktop Entry]",
        "Type=Application",
        "Name=bloomviz",
        "GenericName=Bloom filter visualizer",
        "Comment=See a Bloom filter's bits, hashed positions and false-positive rate as items go in",
        "Exec=" + " ".join(_exec_argument(a) for a in command),
        f"Icon={string_value(icon)}",
        "Terminal=false",
        "Categories=Education;Science;ComputerScience;",
        "Keywords=bloom filter;hash;false positive;probability;data structure;",
        "StartupWMClass=bloomviz",
    ]) + "\n"


def template_text() -> str:
    """``assets/bloomviz.desktop``: the entry for a system-wide install (bloomviz on PATH, icon in the theme)."""
    return entry_text(["bloomviz"], "bloomviz")


def data_home() -> Path:
    value = os.environ.get("XDG_DATA_HOME", "")
    # The specification: a relative value is invalid and is ignored.
    return Path(value) if value and os.path.isabs(value) else Path.home() / ".local" / "share"


def icon_bytes(name: str) -> bytes:
    return resources.files("bloomviz.data").joinpath("icons", name).read_bytes()


def install(home: Path | None = None, stream=None) -> int:
    """Write the entry and its icons; print what was written. 0 on success, 1 (with a message) on failure."""
    from bloomviz.disk.atomic_write import AtomicWriter
    stream = stream or sys.stdout
    home = Path(home) if home is not None else data_home()
    try:
        written = []
        for name, folder in ICON_FILES.items():
            target = home / folder / name
            target.parent.mkdir(parents=True, exist_ok=True)
            with AtomicWriter(target, what="the icon") as out:
                out.write(icon_bytes(name))
            written.append(target)
        entry = home / "applications" / ENTRY_NAME
        entry.parent.mkdir(parents=True, exist_ok=True)
        text = entry_text([sys.executable, "-m", "bloomviz"], str(written[0]))
        with AtomicWriter(entry, what="the desktop entry") as out:
            out.write(text.encode("utf-8"))
        written.append(entry)
    except OSError as exc:
        where = exc.filename if exc.filename else home
        print(f"bloomviz: error: cannot install the desktop entry: {where}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    for path in written:
        print(f"wrote {path}", file=stream)
    print("bloomviz is in the applications menu (Education); delete these files to remove it.", file=stream)
    return 0
