"""simulate serves its kernels from the window's kernel file where one was written (hashing/native_kernels.py),
before any kernel runs; absent, numba compiles them as before. That the cached code answers as numba's does
is tests/hashing/test_native_kernels.py's to show."""

from __future__ import annotations

from bloomviz import cli
from bloomviz.hashing import native_kernels
from bloomviz.measure.experiment import Simulation


def test_simulate_asks_for_the_kernel_file_before_it_runs(monkeypatch, tmp_path, capsys):
    order = []
    monkeypatch.setattr(native_kernels, "load", lambda *a, **k: order.append("load") or False)
    run = Simulation.run
    monkeypatch.setattr(Simulation, "run", lambda self, *a, **k: order.append("run") or run(self, *a, **k))
    out = tmp_path / "rows.csv"
    assert cli.main(["simulate", "--m", "4096", "--k", "3", "--n", "300", "--every", "100", "--csv", str(out)]) == 0
    assert order == ["load", "run"]
    assert out.read_text().count("\n") == 4          # the header and a row every 100 inserts
