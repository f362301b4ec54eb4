"""Packaging and CI: the README's commands, .ci/run, and what pyproject.toml declares and builds."""

import importlib
import os
import re
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet

ROOT = Path(__file__).resolve().parents[2]
CI_RUN = ROOT / ".ci" / "run"
README = ROOT / "README.md"


def pyproject() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def fenced_lines_after(text: str, marker: str) -> list[str]:
    """The lines of the first fenced code block after the line `marker`."""
    lines = text.splitlines()
    assert lines.count(marker) == 1, f"README.md should have the marker {marker!r} exactly once"
    rest = lines[lines.index(marker) + 1:]
    opening = next(i for i, line in enumerate(rest) if line.startswith("```"))
    closing = next(i for i, line in enumerate(rest) if i > opening and line.startswith("```"))
    return rest[opening + 1:closing]


def readme_section(text: str, title: str) -> str:
    match = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", text, re.M | re.S)
    assert match, f"README.md has no '## {title}' section"
    return match.group(1)


def run_ci(workdir: Path, extra_args: tuple[str, ...] = (), other_pythons: bool = False
           ) -> subprocess.CompletedProcess:
    env = dict(os.environ, BLOOMVIZ_CI_SKIP_SYSTEM="1")
    env.pop("BLOOMVIZ_CI_SKIP_OTHER_PYTHONS", None)   # the outer CI run's own choice is not this run's
    if not other_pythons:
        env["BLOOMVIZ_CI_SKIP_OTHER_PYTHONS"] = "1"
    return subprocess.run(["bash", str(workdir / ".ci" / "run"), *extra_args], cwd=workdir, env=env,
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60)


def fake_checkout(tmp_path: Path, test_command: str) -> Path:
    """A directory with this .ci/run and a README whose quick-start test command is `test_command`."""
    (tmp_path / ".ci").mkdir()
    shutil.copy2(CI_RUN, tmp_path / ".ci" / "run")
    (tmp_path / "README.md").write_text(
        f"# x\n\n<!-- quick-start:test -->\n```sh\n{test_command}\n```\n", encoding="utf-8")
    return tmp_path


# --- the README and .ci/run ---------------------------------------------------------------------------------


def test_readme_quick_start_has_two_one_line_commands():
    text = README.read_text(encoding="utf-8")
    quick_start = readme_section(text, "Quick start")
    blocks = re.findall(r"^```[a-z]*\n(.*?)^```", quick_start, re.M | re.S)
    assert len(blocks) == 2, f"the quick start should hold exactly two commands, it holds {len(blocks)} blocks"
    assert all(len(block.strip().splitlines()) == 1 for block in blocks), blocks
    run_command = fenced_lines_after(text, "<!-- quick-start:run -->")
    test_command = fenced_lines_after(text, "<!-- quick-start:test -->")
    assert [run_command[0], test_command[0]] == [block.strip() for block in blocks]
    # each works from nothing: makes its own environment, installs, then does its job
    assert run_command[0].startswith("python3 -m venv ") and run_command[0].endswith("bin/bloomviz")
    assert test_command[0].startswith("python3 -m venv ") and "[test]" in test_command[0]
    assert test_command[0].endswith(("-m pytest", "-m pytest -n auto"))


def test_ci_runs_the_readme_test_command():
    expected = fenced_lines_after(README.read_text(encoding="utf-8"), "<!-- quick-start:test -->")
    result = subprocess.run(["bash", str(CI_RUN), "--print-test-command"], cwd=ROOT, capture_output=True,
                            text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == expected


def test_ci_runs_what_the_readme_says_in_a_fresh_venv(tmp_path):
    checkout = fake_checkout(tmp_path, "test ! -e .venv && echo ran > proof.txt")
    (checkout / ".venv").mkdir()
    (checkout / ".venv" / "stale").write_text("left from an earlier run")
    result = run_ci(checkout)
    assert result.returncode == 0, result.stdout + result.stderr
    assert (checkout / "proof.txt").read_text() == "ran\n"
    assert "+ test ! -e .venv && echo ran > proof.txt" in result.stdout, "the command is echoed before it runs"


def test_ci_runs_the_smoke_run_of_other_pythons_and_then_the_suite(tmp_path):
    checkout = fake_checkout(tmp_path, "echo suite >> order.txt; echo '=== 1 passed ==='")
    smoke = checkout / ".ci" / "smoke-pythons"
    smoke.write_text("echo smoke >> order.txt\nexit 7\n")
    result = run_ci(checkout, other_pythons=True)
    assert result.returncode == 7, "a failing smoke run fails CI"
    assert (checkout / "order.txt").read_text().split() == ["smoke", "suite"], "the suite runs all the same"
    # a passing run ends with the suite's own summary
    smoke.write_text("echo smoke >> order.txt\n")
    result = run_ci(checkout, other_pythons=True)
    assert result.returncode == 0 and result.stdout.strip().splitlines()[-1] == "=== 1 passed ==="
    # a failing suite is reported with its own status
    (tmp_path / "b").mkdir()
    checkout2 = fake_checkout(tmp_path / "b", "exit 3")
    (checkout2 / ".ci" / "smoke-pythons").write_text("exit 0\n")
    assert run_ci(checkout2, other_pythons=True).returncode == 3


def test_smoke_run_covers_every_declared_python_but_the_main_one():
    text = (ROOT / ".ci" / "smoke-pythons").read_text(encoding="utf-8")
    lowest = pyproject()["project"]["requires-python"]
    assert lowest.startswith(">=3."), "the smoke script reads the lowest minor version from this form"
    for step in ("import bloomviz", "--version", "calc", "--screenshot", "lesson 1 --check"):
        assert step in text, f"the smoke run lacks {step!r}"


def test_ci_fails_when_pytest_collects_no_tests(tmp_path):
    result = run_ci(fake_checkout(tmp_path, "exit 5"))
    assert result.returncode == 1
    assert "no tests" in result.stderr


def test_ci_passes_on_other_failing_exit_codes(tmp_path):
    result = run_ci(fake_checkout(tmp_path, "exit 3"))
    assert result.returncode == 3


def test_ci_refuses_a_readme_without_one_test_command(tmp_path):
    checkout = fake_checkout(tmp_path, "first\nsecond")
    result = run_ci(checkout)
    assert result.returncode != 0
    assert "exactly one line" in result.stderr
    (checkout / "README.md").write_text("# no marker here\n", encoding="utf-8")
    result = run_ci(checkout, ("--print-test-command",))
    assert result.returncode != 0
    assert "quick-start:test" in result.stderr


# --- pyproject.toml ---------------------------------------------------------------------------------------


def test_gui_script_points_at_a_callable_main():
    scripts = pyproject()["project"]["gui-scripts"]
    assert scripts == {"bloomviz": "bloomviz.cli:main"}
    module_name, _, attribute = scripts["bloomviz"].partition(":")
    assert callable(getattr(importlib.import_module(module_name), attribute))


def pyside6_requirements_for(python_version: str) -> list[Requirement]:
    requirements = [Requirement(line) for line in pyproject()["project"]["dependencies"]]
    return [req for req in requirements
            if req.name.lower().replace("_", "-") == "pyside6-essentials"
            and (req.marker is None or req.marker.evaluate({"python_version": python_version}))]


@pytest.mark.parametrize("python_version", ["3.11"])
def test_pyside6_below_6_12_is_pinned_for_python_below_3_12(python_version):
    requirements = pyside6_requirements_for(python_version)
    assert requirements, f"no PySide6-Essentials requirement applies on Python {python_version}"
    assert not all(req.specifier.contains("6.12.0") for req in requirements), "6.12.0 is allowed"
    assert all(req.specifier.contains("6.11.3") for req in requirements), "6.11 is refused"


@pytest.mark.parametrize("python_version", ["3.12", "3.13"])
def test_pyside6_is_required_on_newer_python(python_version):
    requirements = pyside6_requirements_for(python_version)
    assert requirements, f"no PySide6-Essentials requirement applies on Python {python_version}"
    assert all(req.specifier.contains("6.12.0") for req in requirements)


def test_runtime_dependencies_and_extras():
    project = pyproject()["project"]
    names = {Requirement(line).name.lower() for line in project["dependencies"]}
    # xxhash: XXH64 is what Parquet's Bloom filters hash with (bloomviz.formats.parquet); numba: the
    # compiled passes over the bit array (bloomviz.filters.bit_kernels, bloomviz.measure.first_flips); cramjam:
    # the compressed blocks of LevelDB/RocksDB tables (bloomviz.formats.sstable); pycryptodome: Keccak-256, what
    # Ethereum's logsBloom hashes with (bloomviz.formats.ethereum)
    assert names == {"pyside6-essentials", "pyqtgraph", "bitarray", "mmh3", "numpy", "xxhash", "numba", "cramjam",
                     "pycryptodome"}
    extras = {extra: {Requirement(line).name.lower() for line in lines}
              for extra, lines in project["optional-dependencies"].items()}
    assert extras["test"] >= {"pytest", "pytest-qt", "hypothesis", "plyvel", "rocksdict"}
    assert extras["bench"] >= {"rbloom", "pybloom-live"}
    python = SpecifierSet(project["requires-python"])
    assert "3.11" in python and "3.13" in python and "3.10" not in python


def test_pytest_runs_qt_as_pyside6_offscreen():
    options = pyproject()["tool"]["pytest"]["ini_options"]
    assert options["qt_api"] == "pyside6"
    assert options["testpaths"] == ["tests"]
    # the root conftest set the platform before any QApplication could exist (unless the caller chose one)
    assert os.environ.get("QT_QPA_PLATFORM")


@pytest.mark.skipif("HYPOTHESIS_PROFILE" in os.environ, reason="another hypothesis profile was chosen")
def test_hypothesis_runs_the_same_modest_examples_every_time():
    from hypothesis import settings

    assert settings().derandomize is True
    assert settings().database is None
    assert settings().deadline is None
    assert settings().max_examples <= 100


# --- the built wheel --------------------------------------------------------------------------------------


def build_wheel(source: Path, out: Path) -> Path:
    """Build a wheel the way pip installs the project: in an isolated environment from [build-system]."""
    result = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-input", "--wheel-dir",
                             str(out), str(source)], capture_output=True, text=True, timeout=600,
                            stdin=subprocess.DEVNULL)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    wheels = list(out.glob("bloomviz-*.whl"))
    assert len(wheels) == 1, result.stdout[-3000:]
    return wheels[0]


def test_wheel_holds_every_module_and_data_file(tmp_path):
    source = tmp_path / "src"
    source.mkdir()
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info")
    shutil.copytree(ROOT / "bloomviz", source / "bloomviz", ignore=ignore)
    for name in ("pyproject.toml", "setup.py", "README.md"):
        shutil.copy2(ROOT / name, source / name)
    for compiled in (source / "bloomviz" / "i18n").glob("*.mo"):
        compiled.unlink()                  # a checkout's editable install left it; the build must make its own
    (tmp_path / "dist").mkdir()
    wheel = build_wheel(source, tmp_path / "dist")

    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        entry_points = next(archive.read(n).decode() for n in names if n.endswith(".dist-info/entry_points.txt"))
        metadata = next(archive.read(n).decode() for n in names if n.endswith(".dist-info/METADATA"))

    package_files = {path.relative_to(source).as_posix() for path in (source / "bloomviz").rglob("*")
                     if path.is_file()}
    assert "bloomviz/data/words.txt" in package_files
    # the translations, compiled by setup.py's build step from the .po (no .mo is committed)
    assert "bloomviz/i18n/hr.po" in package_files and "bloomviz/i18n/hr.mo" in names
    missing = sorted(package_files - names)
    assert not missing, f"not installed with the package (add them to [tool.setuptools.package-data]): {missing}"
    assert re.search(r"^\[gui_scripts\]\nbloomviz = bloomviz\.cli:main$", entry_points, re.M), entry_points

    version = re.search(r'^__version__ = "([^"]+)"', (ROOT / "bloomviz" / "__init__.py").read_text(), re.M)
    assert version, "bloomviz/__init__.py should set __version__ to a string literal"
    assert f"\nVersion: {version.group(1)}\n" in metadata
    assert "Requires-Dist: PySide6-Essentials<6.12; python_version < \"3.12\"" in metadata


@pytest.mark.parametrize("body, status", [("assert 1 == 1", 0), ("assert 1 == 2", 1)])
def test_the_test_process_leaves_with_pytests_own_status_after_its_summary(tmp_path, body, status):
    # conftest.py ends the process right after pytest's summary (a teardown crash at interpreter exit must not
    # turn a passing run red, nor hide a failing one): the status and the summary line are pytest's own, and
    # nothing registered to run at interpreter exit runs (the proof that the process left there).
    marker = tmp_path / "atexit-ran"
    (tmp_path / "test_probe.py").write_text(
        "import atexit, pathlib\n"
        f"atexit.register(pathlib.Path({str(marker)!r}).write_text, 'ran')\n"
        f"def test_probe():\n    {body}\n", encoding="utf-8")
    for normal_exit in (False, True):
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        env.pop("BLOOMVIZ_TEST_NORMAL_EXIT", None)
        if normal_exit:
            env["BLOOMVIZ_TEST_NORMAL_EXIT"] = "1"
        result = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "conftest", "-p", "no:cacheprovider",
                                 str(tmp_path / "test_probe.py")], cwd=tmp_path, env=env, capture_output=True,
                                text=True, timeout=120)
        assert result.returncode == status, result.stdout + result.stderr
        assert ("1 passed" if status == 0 else "1 failed") in result.stdout.strip().splitlines()[-1]
        assert marker.exists() == normal_exit
