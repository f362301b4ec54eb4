"""Every example in bloomviz/examples runs and shows what its docstring promises (pyqtgraph's habit: an example
is also a test, so none rots)."""

from __future__ import annotations

import pathlib
import subprocess
import sys

import numpy as np

from bloomviz.core import BloomFilter
from bloomviz.examples import EXAMPLES, grid_and_model, measure_a_design, model_without_qt, your_own_filter
from bloomviz.theory import rates

FOLDER = pathlib.Path(grid_and_model.__file__).parent


def test_the_list_names_every_example_and_runs_as_a_module():
    modules = {p.stem for p in FOLDER.glob("*.py")} - {"__init__", "__main__"}
    assert set(EXAMPLES) == modules
    out = subprocess.run([sys.executable, "-m", "bloomviz.examples"], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and all(f"bloomviz.examples.{name}" in out.stdout for name in modules)


def test_grid_and_model_draws_each_operation_from_its_record(qtbot):
    window, wb, grid, line, verdict = grid_and_model.build(m=64, k=3)
    qtbot.addWidget(window)
    for text in ("ana", "ivo", "?ana"):
        line.setText(text)
        line.returnPressed.emit()
    qtbot.waitUntil(lambda: verdict.text() == "'ana': true positive")   # drawn in the next turn of the loop
    assert line.text() == ""
    positions, kinds = grid.highlighted()
    reference = BloomFilter(64, 3)
    reference.add("ana")
    assert sorted(positions) == sorted(reference.lookup("ana").positions) and set(kinds) == {"one"}
    reference.add("ivo")
    assert np.array_equal(grid.picture.reshape(-1)[:64], np.array(reference.bits.tolist(), np.uint8))


def test_the_model_without_qt_names_each_lookup_as_the_core_and_the_truth_do():
    lines = model_without_qt.main(m=32, k=3)
    inserted = ("ana", "ivo", "marko", "petra", "lana")
    reference = BloomFilter(32, 3)
    reference.update(inserted)
    lookups = [line for line in lines if line.startswith("lookup")]
    assert len(lookups) == 8 and len(lines) == 13
    for line in lookups:
        name = line.split("'")[1]
        expected = ("true positive" if name in inserted else
                    "false positive" if name in reference else "true negative")
        assert f"-> {expected}" in line, line
        assert ("set by" in line) == (expected == "false positive")
    assert any("false positive" in line for line in lookups)   # the example shows one


def test_measure_a_design_prints_the_exact_rate_of_the_design_it_built():
    text = measure_a_design.main(n=2_000, p=0.02)
    m = int(text.split("m = ")[1].split(" bits")[0].replace(",", ""))
    k = int(text.split("k = ")[1].split("\n")[0])
    assert f"exact expected rate: {rates.fp_exact(m, k, 2_000):.5f}" in text
    measured, low, high = (float(v) for v in (text.split("one filter: ")[1].split(" ")[0],
                                                   text.split("probes ")[1].split(" to ")[0],
                                                   text.split(" to ")[1].rstrip(")")))
    assert low <= measured <= high


def test_your_own_filter_is_found_out_by_the_lab():
    text = your_own_filter.main()
    assert "NOT consistent with independent positions" in text and "POSITIONS THAT COINCIDE" in text
