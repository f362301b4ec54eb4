"""The README's command-line examples run as written and print what the README shows (issue 13: "make every
README example runnable as written, and test that it is").

Every ```console block is a session in one empty folder, blocks in order (a later block may read a file an
earlier one made, as ``inspect demo.bloom`` does): ``$ `` lines are commands, run by bash with ``bloomviz`` meaning
this checkout; the lines after a command are what it prints. Each shown line must appear in the output, in
order; a line ending in ``...`` is a prefix, and a line that is only ``...`` stands for lines left out. The
window's examples (```sh blocks: installing, starting the window) are not run here; neither is an illustration
fenced as ```sh because it needs the reader's own files.
"""

from __future__ import annotations

import os
import re
import stat
import subprocess
import sys
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[2] / "README.md"


def console_blocks(text: str) -> list[list[tuple[str, list[str]]]]:
    """Each console block as [(command, shown output lines)]."""
    blocks = []
    for body in re.findall(r"^```console\n(.*?)^```", text, flags=re.S | re.M):
        steps: list[tuple[str, list[str]]] = []
        for line in body.splitlines():
            if line.startswith("$ "):
                steps.append((line[2:], []))
            elif steps:
                steps[-1][1].append(line.rstrip())
            else:
                raise AssertionError(f"a console block starts with output, not a command: {line!r}")
        blocks.append(steps)
    return blocks


def shown_lines_match(shown: list[str], actual: list[str]) -> str:
    """"" when every shown line appears in ``actual`` in order, else what did not."""
    at = 0
    for line in shown:
        if line == "...":
            continue
        prefix = line.endswith("...")
        want = line[:-3] if prefix else line
        while at < len(actual) and not (actual[at].startswith(want) if prefix else actual[at] == want):
            at += 1
        if at == len(actual):
            return f"not found (in order): {line!r}"
        at += 1
    return ""


@pytest.fixture(scope="module")
def session_dir(tmp_path_factory):
    folder = tmp_path_factory.mktemp("readme")
    bin_dir = folder / ".bin"
    bin_dir.mkdir()
    shim = bin_dir / "bloomviz"
    shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m bloomviz "$@"\n')
    shim.chmod(shim.stat().st_mode | stat.S_IXUSR)
    work = folder / "work"
    work.mkdir()
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}", "HOME": str(folder),
           "XDG_DATA_HOME": str(folder / "share"), "QT_QPA_PLATFORM": "offscreen", "COLUMNS": "120"}
    return work, env


def test_the_readme_has_console_examples_for_every_command():
    commands = {cmd.split()[1] for block in console_blocks(README.read_text(encoding="utf-8"))
                for cmd, _ in block if cmd.startswith("bloomviz ")}
    from bloomviz.commands import COMMANDS
    missing = [c for c in COMMANDS if c not in commands and c in ("calc", "explore", "simulate", "inspect",
                                                                  "check")]
    assert not missing, f"no console example for {missing}"
    assert "--version" in commands and "--install-desktop-entry" in commands


def test_every_console_example_runs_and_prints_what_the_readme_shows(session_dir):
    work, env = session_dir
    problems = []
    for block in console_blocks(README.read_text(encoding="utf-8")):
        for command, shown in block:
            result = subprocess.run(["bash", "-c", command], cwd=work, env=env, capture_output=True, text=True,
                                    timeout=300)
            # check exits 1 when an item is definitely absent (documented); anything else must succeed,
            # and lab exits 1 when it finds something wrong (documented)
            allowed = (0, 1) if command.startswith(("bloomviz check", "bloomviz lab")) else (0,)
            if result.returncode not in allowed or "Traceback" in result.stderr or "error:" in result.stderr:
                problems.append(f"$ {command}\n  exit {result.returncode}: {result.stderr.strip()[:300]}")
                continue
            mismatch = shown_lines_match(shown, [line.rstrip() for line in result.stdout.splitlines()])
            if mismatch:
                problems.append(f"$ {command}\n  {mismatch}\n  output was:\n    "
                                + "\n    ".join(result.stdout.splitlines()[:20]))
    assert not problems, ("README examples that do not run as written (make each run in an empty folder, e.g. "
                          "create its input in an earlier line, or fence an illustration that needs the reader's "
                          "own files as ```sh instead of ```console):\n" + "\n".join(problems))
    assert (work / "demo.bloom").is_file()   # the file inspect and check read was made by an example


def test_the_matcher_refuses_a_line_the_output_does_not_have():
    actual = ["a 1", "b 2", "c 3"]
    assert shown_lines_match(["a 1", "...", "c 3"], actual) == ""
    assert shown_lines_match(["b ...", "c 3"], actual) == ""
    assert shown_lines_match(["c 3", "a 1"], actual) != ""      # order matters
    assert shown_lines_match(["b 20"], actual) != ""            # a changed number is caught


def test_the_compare_preset_ratio_the_readme_states_is_what_the_core_measures():
    # "`weak-shift` ... is expected at 3.5× its theory" (the Compare tab's preset): its ten positions are four, so
    # the rate of k = 4; the preset's one run measures it within its interval (one filter's luck: 3-4.5x)
    text = " ".join(README.read_text(encoding="utf-8").split())
    claim = re.search(r"`weak-shift` scheme repeats its positions after four, so it is expected at ([\d.]+)× its "
                      r"theory", text)
    assert claim, "the README's Compare paragraph changed: update this test with it"
    from bloomviz.studies import compare
    from bloomviz.theory import rates
    m, k, n = compare.lesson_design()
    assert f"{rates.fp_exact(m, 4, n) / rates.fp_exact(m, k, n):.1f}" == claim.group(1)
    run = compare.Comparison(compare.lesson_configs(), m, k, n)
    run.run()
    weak = next(s for s in run.summaries() if s.label == "weak-shift")
    assert weak.low <= float(claim.group(1)) * weak.theory <= weak.high, weak.measured / weak.theory
    assert f"k = {k} and {m / n:.1f} bits per item" in text
