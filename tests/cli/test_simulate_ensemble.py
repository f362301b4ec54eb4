"""``bloomviz simulate --filters F``: the ensemble CSV, its agreement with the exact rate, and its refusals."""

from __future__ import annotations

import csv
import io

import pytest

from bloomviz.cli import main
from bloomviz.theory import rates as theory


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_ensemble_rows_land_on_the_exact_rate(capsys, tmp_path):
    target = tmp_path / "ens.csv"
    code, out, err = run(capsys, "simulate", "--m", "32", "--k", "4", "--n", "5", "--filters", "40000",
                         "--seed", "3", "--csv", str(target))
    assert code == 0, err
    rows = list(csv.DictReader(io.StringIO(target.read_text())))
    assert [int(r["n"]) for r in rows] == [1, 2, 3, 4, 5]
    last = rows[-1]
    assert float(last["fp_exact"]) == pytest.approx(theory.fp_exact(32, 4, 5), rel=1e-8)
    assert float(last["fp_classic"]) == pytest.approx(theory.fp_classic(32, 4, 5), rel=1e-8)
    assert float(last["fp_low"]) > float(last["fp_classic"])      # off the classic formula
    assert abs(float(last["fp_mean"]) / float(last["fp_exact"]) - 1) < 0.03
    assert (last["filters"], last["probes"]) == ("40000", "32")
    assert "40,000 filters" in out and str(target) in out


def test_ensemble_every_and_stdout(capsys):
    code, out, _ = run(capsys, "simulate", "--m", "64", "--k", "3", "--n", "10", "--filters", "200",
                       "--probes", "4", "--every", "4", "--csv", "-")
    assert code == 0
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [int(r["n"]) for r in rows] == [4, 8, 10] and rows[0]["probes"] == "4"


@pytest.mark.parametrize("extra, word", [(["--items", "x.txt"], "--items"), (["--variant", "counting"], "--variant"),
                                         (["--filters", "0"], "--filters")])
def test_ensemble_refusals_name_the_option(capsys, extra, word):
    argv = ["simulate", "--m", "64", "--k", "3", "--n", "10", "--filters", "10", "--csv", "-"] + extra
    code, out, err = run(capsys, *argv)
    assert code == 2 and word in err and out == ""


def test_ensemble_size_limit_is_checked_before_any_work(capsys):
    code, out, err = run(capsys, "simulate", "--m", "3200", "--k", "4", "--n", "5000000", "--filters", "100000",
                         "--csv", "-")
    assert code == 2 and "limit" in err and out == ""
