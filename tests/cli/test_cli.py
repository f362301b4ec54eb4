"""The command line: calc and simulate outputs, the hand-off to the window, and one-line errors with exit 2.

Most cases call ``main()`` in-process (fast); a few run ``python -m bloomviz`` in a subprocess to check the
real exit code and that no traceback ever reaches the terminal.
"""

from __future__ import annotations

import csv
import io
import json
import math
import os
import re
import subprocess
import sys
import types

import numpy as np
import pytest

from bloomviz import cli
from bloomviz.commands import COMMANDS, calc, simulate
from bloomviz.theory import rates as theory
from bloomviz.measure.experiment import Simulation
from bloomviz.measure.series import Series
from bloomviz.filters.standard import BloomFilter

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@pytest.fixture(autouse=True)
def _no_progress_lines(monkeypatch):
    """A run slower than the progress bar's line interval (10 s: a loaded machine) writes a progress line to
    stderr, and these tests ask that a good run's stderr is empty; test_cli_long_runs checks the lines."""
    from bloomviz.commands import common
    monkeypatch.setattr(common.Progress, "LINE_INTERVAL", float("inf"))


def run(capsys, *argv):
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def one_error_line(err: str, prog: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith(f"{prog}: error: "), err
    assert "Traceback" not in err
    return lines[0]


def python_m(*argv, timeout=120, **kw):
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return subprocess.run([sys.executable, "-m", "bloomviz", *argv], capture_output=True, text=True,
                          timeout=timeout, cwd=ROOT, env=env, **kw)


# --- calc ---------------------------------------------------------------------------------------------------
def test_calc_design_text_gives_the_textbook_numbers(capsys):
    code, out, err = run(capsys, "calc", "--n", "1000000", "--p", "0.01")
    assert code == 0 and err == ""
    k, m = theory.optimal_params(1_000_000, 0.01)
    assert (k, m) == (7, 9_585_059)  # the worked example of the literature
    assert f"{m:,}" in out
    assert re.search(r"k \(hash positions\)\s+7\n", out)
    assert "1.14 MiB" in out
    assert "9.59" in out  # bits per element
    assert f"{theory.fp_exact(m, k, 1_000_000):.6g}" in out


@pytest.mark.parametrize("n_text", ["1e6", "1_000_000", "1000000", "1.0e6"])
def test_calc_accepts_integral_number_forms(capsys, n_text):
    code, out, _ = run(capsys, "calc", "--n", n_text, "--p", "0.01", "--json")
    assert code == 0 and json.loads(out)["n"] == 1_000_000


def test_calc_design_json(capsys):
    code, out, err = run(capsys, "calc", "--n", "5000", "--p", "0.001", "--json")
    assert code == 0 and err == ""
    data = json.loads(out)
    assert set(data) == {"n", "p", "m", "k", "fp_exact", "fp_approx", "fp_bound", "bits_per_element",
                         "fp_classic", "m_min", "k_min"}   # the last three added with the exact rate
    k, m = theory.optimal_params(5000, 0.001)
    assert (data["n"], data["p"], data["m"], data["k"]) == (5000, 0.001, m, k)
    assert data["fp_exact"] == pytest.approx(theory.fp_exact(m, k, 5000))
    assert data["fp_approx"] == pytest.approx(theory.fp_approx(m, k, 5000))
    assert data["fp_bound"] == pytest.approx(theory.fp_bound(m, k, 5000))
    assert data["bits_per_element"] == pytest.approx(m / 5000)
    assert data["fp_exact"] <= 0.001 * 1.05
    assert len(out.strip().splitlines()) == 1


def test_calc_analysis_json_and_text(capsys):
    code, out, _ = run(capsys, "calc", "--m", "1e7", "--k", "5", "--n", "1e6", "--json")
    data = json.loads(out)
    assert code == 0 and (data["m"], data["k"], data["n"]) == (10_000_000, 5, 1_000_000)
    assert data["p"] == data["fp_exact"] == pytest.approx(theory.fp_exact(10_000_000, 5, 1_000_000))
    assert data["fp_bound"] == pytest.approx(theory.fp_bound(10_000_000, 5, 1_000_000))
    code, out, _ = run(capsys, "calc", "--m", "10000000", "--k", "5", "--n", "1000000")
    assert code == 0
    assert f"{theory.fp_exact(10_000_000, 5, 1_000_000):.6g}" in out
    assert f"{theory.fp_approx(10_000_000, 5, 1_000_000):.6g}" in out
    best = theory.optimal_k_int(10_000_000, 1_000_000)
    assert re.search(rf"optimal k for this m, n\s+{best}\b", out)


def test_calc_analysis_without_k_uses_the_best_integer_k(capsys):
    code, out, _ = run(capsys, "calc", "--m", "20000", "--n", "1000", "--json")
    data = json.loads(out)
    assert code == 0 and data["k"] == theory.optimal_k_int(20000, 1000)
    worse = [theory.fp_exact(20000, k, 1000) for k in (data["k"] - 1, data["k"] + 1)]
    assert data["fp_exact"] <= min(worse)


def test_human_units():
    from bloomviz.commands.common import human_bytes
    assert human_bytes(512) == "512 B"
    assert human_bytes(2048) == "2.00 KiB"
    assert human_bytes(9_585_059 / 8) == "1.14 MiB"
    assert human_bytes(3 * 2 ** 30) == "3.00 GiB"


@pytest.mark.parametrize("argv, named", [
    (["calc", "--m", "0", "--k", "3", "--n", "10"], "0"),
    (["calc", "--m", str(2 ** 34 + 1), "--k", "3", "--n", "10"], str(2 ** 34 + 1)),
    (["calc", "--m", "-1", "--k", "3", "--n", "10"], "-1"),
    (["calc", "--m", "1.5", "--k", "3", "--n", "10"], "1.5"),
    (["calc", "--m", "x", "--k", "3", "--n", "10"], "x"),
    (["calc", "--m", "nan", "--k", "3", "--n", "10"], "nan"),
    (["calc", "--m", "True", "--k", "3", "--n", "10"], "True"),
    (["calc", "--m", "100", "--k", "0", "--n", "10"], "0"),
    (["calc", "--m", "100", "--k", "65", "--n", "10"], "65"),
    (["calc", "--n", "0", "--p", "0.1"], "0"),
    (["calc", "--n", "-5", "--p", "0.1"], "-5"),
    (["calc", "--n", "2.5", "--p", "0.1"], "2.5"),
    (["calc", "--n", "10", "--p", "0"], "0"),
    (["calc", "--n", "10", "--p", "1"], "1"),
    (["calc", "--n", "10", "--p", "1.5"], "1.5"),
    (["calc", "--n", "10", "--p", "nan"], "nan"),
    (["calc", "--n", "10", "--p", "inf"], "inf"),
    (["calc", "--n", "10", "--p", "abc"], "abc"),
])
def test_calc_bad_values_exit_2_with_one_line_naming_them(capsys, argv, named):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    line = one_error_line(err, "bloomviz calc")
    assert named in line and f"--{argv[argv.index(named) - 1][2:]}" in line


@pytest.mark.parametrize("argv, words", [
    (["calc", "--n", "10"], "--p"),
    (["calc", "--p", "0.1"], "--n"),
    (["calc", "--m", "100", "--k", "3"], "--n"),
    (["calc", "--n", "10", "--p", "0.1", "--m", "100"], "not both"),
    (["calc", "--n", "10", "--k", "3"], "--m"),
    (["calc", "--n", "10", "--p", "0.1", "--bogus"], "--bogus"),
    (["calc", "--n"], "--n"),
])
def test_calc_missing_or_conflicting_options(capsys, argv, words):
    code, _, err = run(capsys, *argv)
    assert code == 2
    assert words in one_error_line(err, "bloomviz calc")


# --- top level, window hand-off -----------------------------------------------------------------------------
def test_commands_are_registered_by_name():
    assert {"calc", "simulate"} <= set(COMMANDS)
    for name in COMMANDS:
        module = __import__(f"bloomviz.commands.{name}", fromlist=["run"])
        assert callable(module.add_parser) and callable(module.run)


@pytest.mark.parametrize("argv, named", [(["bogus"], "bogus"), (["--bogus"], "--bogus"), (["calc", "-x"], "-x")])
def test_unknown_command_or_option(capsys, argv, named):
    code, _, err = run(capsys, *argv)
    assert code == 2
    assert named in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_window_options_cannot_go_with_a_command(capsys):
    code, _, err = run(capsys, "--demo", "5", "calc", "--n", "1", "--p", "0.1")
    assert code == 2 and "--demo" in one_error_line(err, "bloomviz")


def _fake_gui(monkeypatch, result=0):
    calls = []
    module = types.ModuleType("bloomviz.gui.app")
    module.main = lambda argv: calls.append(list(argv)) or result
    monkeypatch.setitem(sys.modules, "bloomviz.gui.app", module)
    return calls


@pytest.mark.parametrize("argv", [[], ["--screenshot", "shot.png", "--demo", "50"], ["--dark", "--m", "1000"]])
def test_no_command_hands_the_original_arguments_to_the_window(monkeypatch, argv):
    calls = _fake_gui(monkeypatch, result=0)
    assert cli.main(argv) == 0
    assert calls == [argv]


def test_window_exit_code_is_passed_on(monkeypatch):
    _fake_gui(monkeypatch, result=2)
    assert cli.main(["--demo", "abc"]) == 2  # the window validates its own options


def test_missing_window_module_is_a_clear_message(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "bloomviz.gui.app", None)  # makes the import fail
    code, out, err = run(capsys)
    assert code == 1 and "window" in err and "Traceback" not in err


def test_help_and_version_exit_0(capsys):
    code, out, _ = run(capsys, "--help")
    assert code == 0 and "calc" in out and "simulate" in out and "--screenshot" in out
    code, out, _ = run(capsys, "--version")
    assert code == 0 and "bloomviz" in out


def test_ctrl_c_exits_130_without_traceback(monkeypatch, capsys, tmp_path):
    def interrupted(self, *a, **kw):
        raise KeyboardInterrupt

    monkeypatch.setattr(Simulation, "run", interrupted)
    target = tmp_path / "out.csv"
    code, _, err = run(capsys, "simulate", "--m", "1000", "--k", "3", "--n", "10", "--csv", str(target))
    assert code == 130 and "Traceback" not in err and "interrupted" in err
    assert not target.exists() and os.listdir(tmp_path) == []  # no half-written CSV, no temporary file


# --- simulate -----------------------------------------------------------------------------------------------
def read_csv(path_or_text: str, is_text=False):
    handle = io.StringIO(path_or_text) if is_text else open(path_or_text, newline="")
    with handle:
        rows = list(csv.reader(handle))
    return rows[0], np.array(rows[1:], dtype=float)


def test_simulate_csv_columns_rows_and_values(capsys, tmp_path):
    target = tmp_path / "sim.csv"
    code, out, err = run(capsys, "simulate", "--m", "5000", "--k", "4", "--n", "1000", "--probes", "2000",
                         "--seed", "7", "--every", "100", "--csv", str(target))
    assert code == 0 and err == ""
    assert "1000" in out.replace(",", "") and str(target) in out
    header, data = read_csv(str(target))
    assert header == list(Series.COLUMNS) == ["n", "fp_measured", "fp_low", "fp_high", "fp_exact", "fp_approx",
                                              "fp_bound", "fill", "fill_expected", "n_estimated", "fp_classic"]
    assert list(data[:, 0]) == list(range(100, 1001, 100))
    reference = Simulation(5000, 4, 1000, probes=2000, seed=7).run()
    for j, name in enumerate(header):
        np.testing.assert_allclose(data[:, j], reference.column(name)[99::100], rtol=1e-8, err_msg=name)
    np.testing.assert_allclose(data[:, 4], [theory.fp_exact(5000, 4, n) for n in range(100, 1001, 100)],
                               rtol=1e-8)
    assert (data[:, 2] <= data[:, 1]).all() and (data[:, 1] <= data[:, 3]).all()


def test_simulate_row_per_insert_to_stdout_ends_at_n(capsys):
    code, out, err = run(capsys, "simulate", "--m", "800", "--k", "3", "--n", "250", "--probes", "500",
                         "--csv", "-")
    assert code == 0
    header, data = read_csv(out, is_text=True)
    assert len(data) == 250 and list(data[:, 0]) == list(range(1, 251))
    counts = data[:, 1] * 500
    np.testing.assert_allclose(counts, np.round(counts), atol=1e-6)
    assert (np.diff(data[:, 7]) >= 0).all()  # fill never decreases


def test_simulate_every_not_dividing_n_still_writes_the_last_insert(capsys):
    code, out, _ = run(capsys, "simulate", "--m", "800", "--k", "3", "--n", "25", "--every", "10", "--csv", "-")
    _, data = read_csv(out, is_text=True)
    assert code == 0 and list(data[:, 0]) == [10, 20, 25]


def test_simulate_designs_the_filter_from_n_and_p(capsys, tmp_path):
    code, out, _ = run(capsys, "simulate", "--n", "2000", "--p", "0.02", "--every", "2000", "--probes", "3000",
                       "--csv", "-")
    assert code == 0
    _, data = read_csv(out, is_text=True)
    k, m = theory.optimal_params(2000, 0.02)
    assert data[0, 4] == pytest.approx(theory.fp_exact(m, k, 2000), rel=1e-8)


def test_simulate_with_scheme(capsys):
    code, out, _ = run(capsys, "simulate", "--m", "3000", "--k", "10", "--n", "300", "--scheme", "weak-shift",
                       "--every", "300", "--csv", "-")
    assert code == 0
    _, data = read_csv(out, is_text=True)
    flt = BloomFilter(3000, 10, scheme="weak-shift")
    flt.update(Simulation(3000, 10, 300, scheme="weak-shift").items)
    assert data[0, 7] == pytest.approx((flt.bits_set / flt.m))


def test_simulate_items_file_reports_undecodable_lines(capsys, tmp_path):
    source = tmp_path / "items.txt"
    source.write_bytes(b"\xef\xbb\xbfapple\r\npear\r\n\xff\xfe\r\n\r\nplum\r\n\xc3(\r\nfig\r\n")
    code, out, err = run(capsys, "simulate", "--m", "500", "--k", "3", "--items", str(source), "--csv", "-")
    assert code == 0
    _, data = read_csv(out, is_text=True)
    assert list(data[:, 0]) == [1, 2, 3, 4]  # apple, pear, plum, fig
    assert "line 3, 6" in err and str(source) in err and "Traceback" not in err
    code, out, _ = run(capsys, "simulate", "--m", "500", "--k", "3", "--items", str(source), "--n", "2",
                       "--csv", "-")
    assert code == 0 and len(read_csv(out, is_text=True)[1]) == 2


def test_simulate_items_file_problems(capsys, tmp_path):
    for path, named in ((tmp_path / "missing.txt", "missing.txt"), (tmp_path, tmp_path.name)):
        code, _, err = run(capsys, "simulate", "--m", "500", "--k", "3", "--items", str(path), "--csv", "-")
        assert code == 2 and named in one_error_line(err, "bloomviz simulate")
    blank = tmp_path / "blank.txt"
    blank.write_text("\n\n")
    code, _, err = run(capsys, "simulate", "--m", "500", "--k", "3", "--items", str(blank), "--csv", "-")
    assert code == 2 and "no items" in one_error_line(err, "bloomviz simulate")
    short = tmp_path / "short.txt"
    short.write_text("a\nb\n")
    code, _, err = run(capsys, "simulate", "--m", "500", "--k", "3", "--items", str(short), "--n", "5",
                       "--csv", "-")
    assert code == 2 and "only 2" in one_error_line(err, "bloomviz simulate")


@pytest.mark.parametrize("argv, named", [
    (["--m", "0", "--k", "3", "--n", "10"], "0"),
    (["--m", "100", "--k", "65", "--n", "10"], "65"),
    (["--m", "100", "--k", "3", "--n", "0"], "0"),
    (["--m", "100", "--k", "3", "--n", "10", "--every", "0"], "--every"),
    (["--m", "100", "--k", "3", "--n", "10", "--probes", "0"], "--probes"),
    (["--m", "100", "--k", "3", "--n", "10", "--seed", "-1"], "--seed"),
    (["--m", "100", "--k", "3", "--n", "10", "--scheme", "nope"], "nope"),
    (["--m", "100", "--n", "10"], "--k"),
    (["--k", "3", "--n", "10"], "--m"),
    (["--m", "100", "--k", "3"], "--n"),
    (["--m", "100", "--k", "3", "--n", "10", "--p", "0.1"], "not both"),
    (["--n", "10", "--p", "2"], "2"),
])
def test_simulate_bad_arguments(capsys, tmp_path, argv, named):
    target = tmp_path / "out.csv"
    code, out, err = run(capsys, "simulate", *argv, "--csv", str(target))
    assert code == 2 and out == ""
    assert named in one_error_line(err, "bloomviz simulate")
    assert not target.exists()


def test_simulate_csv_is_required_and_unwritable_targets_are_named(capsys, tmp_path):
    code, _, err = run(capsys, "simulate", "--m", "100", "--k", "3", "--n", "10")
    assert code == 2 and "--csv" in one_error_line(err, "bloomviz simulate")
    target = tmp_path / "no" / "such" / "dir.csv"
    code, _, err = run(capsys, "simulate", "--m", "100", "--k", "3", "--n", "10", "--csv", str(target))
    assert code == 2 and "dir.csv" in one_error_line(err, "bloomviz simulate")
    code, _, err = run(capsys, "simulate", "--m", "100", "--k", "3", "--n", "10", "--csv", str(tmp_path))
    assert code == 2 and tmp_path.name in one_error_line(err, "bloomviz simulate")


def test_simulate_failure_keeps_the_old_csv_whole(capsys, tmp_path, monkeypatch):
    target = tmp_path / "keep.csv"
    target.write_text("old contents\n")

    def broken(*a, **kw):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(simulate, "write_rows", broken)
    code, _, err = run(capsys, "simulate", "--m", "100", "--k", "3", "--n", "10", "--csv", str(target))
    assert code == 1 and "No space left" in err and "Traceback" not in err
    assert target.read_text() == "old contents\n"
    assert sorted(os.listdir(tmp_path)) == ["keep.csv"]


def test_row_indices():
    assert list(simulate.row_indices(10, 1)) == list(range(10))
    assert list(simulate.row_indices(10, 3)) == [2, 5, 8, 9]
    assert list(simulate.row_indices(10, 10)) == [9]
    assert list(simulate.row_indices(5, 100)) == [4]
    assert list(simulate.row_indices(0, 3)) == []


def test_csv_writer_formats_blocks_exactly(monkeypatch):
    monkeypatch.setattr(simulate, "CSV_BLOCK", 7)  # several blocks, the last one partial
    series = Series()
    for n in range(1, 24):
        series.append(**{c: (n if c == "n" else n / 3) for c in Series.COLUMNS})
    series.append(**{c: (24 if c == "n" else math.inf) for c in Series.COLUMNS})
    buf = io.StringIO()
    simulate.write_rows(series, simulate.row_indices(len(series), 1), buf)
    header, data = read_csv(buf.getvalue(), is_text=True)
    assert header == list(Series.COLUMNS) and len(data) == 24
    assert list(data[:, 0]) == list(range(1, 25))
    np.testing.assert_allclose(data[:-1, 1:], np.repeat(np.arange(1, 24)[:, None] / 3, len(Series.COLUMNS) - 1, axis=1),
                               rtol=1e-8)
    assert np.isinf(data[-1, 1:]).all()


# --- in a real process ----------------------------------------------------------------------------------------
def test_subprocess_calc_json():
    proc = python_m("calc", "--n", "1e6", "--p", "0.01", "--json")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert (data["k"], data["m"]) == (7, 9_585_059)


@pytest.mark.parametrize("argv", [["calc", "--m", "0", "--k", "1", "--n", "1"],
                                  ["simulate", "--m", "10", "--k", "2", "--n", "5", "--csv", "/nonexistent/x.csv"],
                                  ["nosuchcommand"]])
def test_subprocess_bad_argument_exit_2_one_line(argv):
    proc = python_m(*argv)
    assert proc.returncode == 2
    assert len(proc.stderr.strip().splitlines()) == 1 and "Traceback" not in proc.stderr


def test_subprocess_simulate_to_stdout_and_no_qt_loaded():
    code = ("import sys, runpy; sys.argv = ['bloomviz', 'simulate', '--m', '500', '--k', '3', '--n', '40', "
            "'--csv', '-'];\ntry:\n    runpy.run_module('bloomviz', run_name='__main__')\nexcept SystemExit as e:\n"
            "    assert e.code == 0, e.code\nassert not [m for m in sys.modules if m.startswith(('PySide6', "
            "'pyqtgraph'))], 'Qt loaded'\nprint('NOQT', file=sys.stderr)")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=ROOT,
                          env=dict(os.environ, PYTHONPATH=ROOT))
    assert proc.returncode == 0, proc.stderr
    assert "NOQT" in proc.stderr
    lines = proc.stdout.strip().splitlines()
    assert lines[0].startswith("n,fp_measured") and len(lines) == 41


def test_progress_bar_draws_on_a_terminal_only():
    from bloomviz.commands.common import Progress
    shown = io.StringIO()
    bar = Progress("work", stream=shown, enabled=True, min_interval=0)
    for done in (0, 50, 100):
        bar(done, 100)
    bar.close()
    text = shown.getvalue()
    assert "100.0%" in text and "50.0%" in text and text.endswith("\n") and "\r" in text
    quiet = io.StringIO()  # a StringIO is not a terminal: nothing is drawn
    bar = Progress("work", stream=quiet)
    bar(1, 2)
    bar.close()
    assert quiet.getvalue() == ""


def test_designs_beyond_the_limits(capsys):
    code, out, err = run(capsys, "calc", "--n", "10", "--p", "1e-25", "--json")
    data = json.loads(out)
    assert code == 0 and data["k"] == 64 and "k = 64" in err  # capped, and said so
    code, _, err = run(capsys, "calc", "--n", "1e9", "--p", "1e-25")
    line = one_error_line(err, "bloomviz calc")
    assert code == 2 and "2**34" in line and f"{theory.optimal_params(10 ** 9, 1e-25)[1]:,}" in line
    code, _, err = run(capsys, "simulate", "--n", "4e7", "--p", "1e-300", "--csv", "-")
    assert code == 2 and "2**34" in one_error_line(err, "bloomviz simulate")
