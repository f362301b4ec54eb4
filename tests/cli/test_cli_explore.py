"""bloomviz explore: CSV columns per k, theory values, measured columns, and one-line errors with exit 2."""

from __future__ import annotations

import csv
import io

import pytest

from bloomviz import cli
from bloomviz.commands import COMMANDS
from bloomviz.theory import rates as theory


def run(capsys, *argv):
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_explore_is_registered():
    assert "explore" in COMMANDS


def test_theory_csv_has_one_row_per_k(capsys, tmp_path):
    path = tmp_path / "k.csv"
    code, out, err = run(capsys, "explore", "--m", "20000", "--n", "2000", "--k-range", "2:9", "--csv", str(path))
    assert code == 0 and err == ""
    assert "optimal k = 7" in out
    rows = list(csv.DictReader(path.open()))
    assert list(rows[0]) == ["k", "fp_exact", "fp_approx", "fp_bound"]
    assert [int(r["k"]) for r in rows] == list(range(2, 10))
    for r in rows:
        k = int(r["k"])
        assert float(r["fp_exact"]) == pytest.approx(theory.fp_exact(20000, k, 2000), rel=1e-8)
        assert float(r["fp_approx"]) == pytest.approx(theory.fp_approx(20000, k, 2000), rel=1e-8)
        assert float(r["fp_bound"]) == pytest.approx(theory.fp_bound(20000, k, 2000), rel=1e-8)


def test_measured_csv_to_stdout(capsys):
    code, out, err = run(capsys, "explore", "--m", "10000", "--n", "1000", "--k-range", "3:8", "--measure",
                         "--probes", "4000", "--seed", "5", "--csv", "-")
    assert code == 0, err
    rows = list(csv.DictReader(io.StringIO(out)))
    assert list(rows[0]) == ["k", "fp_exact", "fp_approx", "fp_bound", "fp_measured", "fp_low", "fp_high"]
    assert len(rows) == 6
    for r in rows:
        low, mid, high = float(r["fp_low"]), float(r["fp_measured"]), float(r["fp_high"])
        assert 0 <= low <= mid <= high <= 1
        exact = float(r["fp_exact"])
        assert abs(mid - exact) <= 5 * (exact * (1 - exact) / 4000) ** 0.5
        assert (mid * 4000) == pytest.approx(round(mid * 4000))  # a count of probes


@pytest.mark.parametrize("argv, words", [
    (["--m", "100", "--n", "10", "--k-range", "5:2", "--csv", "-"], "--k-range"),
    (["--m", "100", "--n", "10", "--k-range", "x", "--csv", "-"], "'x'"),
    (["--m", "100", "--n", "10", "--k-range", "1:70", "--csv", "-"], "64"),
    (["--m", "0", "--n", "10", "--k-range", "1:3", "--csv", "-"], "--m"),
    (["--m", "100", "--n", "-1", "--k-range", "1:3", "--csv", "-"], "--n"),
    (["--m", "100", "--n", "10", "--k-range", "1:3"], "--csv"),
    (["--m", "100", "--n", "10", "--k-range", "1:3", "--measure", "--probes", "0", "--csv", "-"], "--probes"),
    (["--m", "100", "--n", "10", "--k-range", "1:3", "--measure", "--probes", "5000000", "--csv", "-"],
     "5000000"),
    (["--m", "8589934592", "--n", "10", "--k-range", "1:3", "--measure", "--csv", "-"], "too large"),
])
def test_bad_arguments_give_one_error_line_and_exit_2(capsys, argv, words):
    code, out, err = run(capsys, "explore", *argv)
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("bloomviz explore: error: "), err
    assert words in lines[0]


def test_a_refused_run_leaves_no_file(capsys, tmp_path):
    path = tmp_path / "never.csv"
    code, _, _ = run(capsys, "explore", "--m", "8589934592", "--n", "10", "--k-range", "1:3", "--measure",
                     "--csv", str(path))
    assert code == 2
    assert list(tmp_path.iterdir()) == []


def test_unwritable_csv_is_refused(capsys, tmp_path):
    code, _, err = run(capsys, "explore", "--m", "100", "--n", "10", "--k-range", "1:3",
                       "--csv", str(tmp_path / "missing" / "x.csv"))
    assert code == 2 and "--csv" in err
