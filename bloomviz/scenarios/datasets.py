"""Where the sample data sets live, found the same way in a checkout and in an installed copy.

The data sets are kept in the repository's ``assets/datasets/<name>/`` (one folder each, with a README that
states the source and the licence). An installed copy gets them through ``[tool.setuptools.data-files]`` in
``share/bloomviz/datasets/<name>/`` under the installation's data directory (``sys.prefix`` for a virtual
environment, the user base for ``pip install --user``). Nothing is downloaded: a missing file is an error that
names the file and every place that was searched.

Search order: the directory named by ``$BLOOMVIZ_DATASETS`` (for packagers and tests), the checkout this
module was imported from (an editable install, or running from the source tree), then the installed
locations.
"""

from __future__ import annotations

import gzip
import io
import os
import site
import sys
import sysconfig
from pathlib import Path
from typing import IO

ENV_VAR = "BLOOMVIZ_DATASETS"
INSTALLED_SUBDIR = Path("share") / "bloomviz" / "datasets"

# name -> the data file inside its folder; every folder also holds README.md (source and licence)
DATASETS: dict[str, str] = {
    "english-words": "english-words.txt.gz",
    "spelling-paragraph": "paragraph.txt",
    "common-passwords": "common-passwords.txt.gz",
    "contacts": "contacts.txt",
    "url-blocklist": "url-blocklist.txt.gz",
    "debian-weak-keys": "README.md",   # synthesised at run time; the folder documents how
}


class DatasetError(FileNotFoundError):
    """A data set that is unknown or whose file cannot be found; the message says which and where."""


def _checkout_root() -> Path | None:
    # bloomviz/scenarios/datasets.py -> the project root, when this is a source tree rather than site-packages
    root = Path(__file__).resolve().parents[2]
    if (root / "pyproject.toml").is_file() and (root / "assets" / "datasets").is_dir():
        return root
    return None


def search_dirs() -> list[Path]:
    """The directories searched for ``<name>/<file>``, in order (those that do not exist are included)."""
    dirs: list[Path] = []
    env = os.environ.get(ENV_VAR)
    if env:
        dirs.append(Path(env))
    root = _checkout_root()
    if root is not None:
        dirs.append(root / "assets" / "datasets")
    bases = [sysconfig.get_path("data"), sys.prefix, sys.base_prefix]
    try:
        bases.append(site.getuserbase())
    except Exception:  # pragma: no cover - site can be stubbed in embedded interpreters
        pass
    for base in bases:
        if base:
            path = Path(base) / INSTALLED_SUBDIR
            if path not in dirs:
                dirs.append(path)
    return dirs


def dataset_path(name: str, filename: str | None = None) -> Path:
    """The path of data set ``name``'s data file (or of ``filename`` in its folder, e.g. "README.md")."""
    if name not in DATASETS:
        raise DatasetError(f"unknown data set {name!r}; known data sets: {', '.join(sorted(DATASETS))}")
    filename = filename or DATASETS[name]
    if "/" in filename or "\\" in filename or filename in ("", ".", ".."):
        raise DatasetError(f"a data set file is a plain file name, got {filename!r}")
    tried = []
    for base in search_dirs():
        candidate = base / name / filename
        if candidate.is_file():
            return candidate
        tried.append(str(candidate))
    raise DatasetError(
        f"data set {name!r}: file {filename!r} not found. Looked in:\n  " + "\n  ".join(tried)
        + f"\nInstall bloomviz with pip from its source tree (the files come from assets/datasets/{name}/), "
        f"or point ${ENV_VAR} at a directory holding {name}/{filename}.")


def open_dataset(name: str, filename: str | None = None) -> IO[str]:
    """The data file as text (UTF-8); ``.gz`` files are decompressed on the fly."""
    path = dataset_path(name, filename)
    if path.suffix == ".gz":
        return io.TextIOWrapper(gzip.open(path, "rb"), encoding="utf-8")
    return open(path, encoding="utf-8")


def read_lines(name: str, filename: str | None = None) -> list[str]:
    """The non-empty lines of a data file, without line ends; lines starting with '#' are comments."""
    with open_dataset(name, filename) as fh:
        return [line for line in (raw.rstrip("\r\n") for raw in fh) if line and not line.startswith("#")]
