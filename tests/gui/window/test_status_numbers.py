"""The status line writes its rates by the one policy (theory/units.percent_text): a theory of 8.59 × 10⁻⁷ read
"0.00%" there, as if the filter could not err, while the plot beside it said 8.59 × 10⁻⁷."""

from __future__ import annotations

import pytest

from bloomviz import i18n
from bloomviz.gui.window.status import status_text
from bloomviz.workbench.model import Workbench


def _status(**over) -> dict:
    base = {"m": 1918, "k": 7, "scheme": "murmur3-mix", "n": 40, "capacity": 200, "fill": 0.135,
            "fp_measured": 0.0, "fp_exact": 8.59e-7, "fp_now": 0.0}
    return {**base, **over}


def test_a_tiny_theory_is_written_with_its_digits_not_as_zero():
    line = status_text(_status())
    assert "(theory 8.59 × 10⁻⁵ %)" in line and "FP now 0 %" in line
    assert "0.00" not in line


@pytest.mark.parametrize("rate, written", [(0.0125, "1.25 %"), (0.5, "50 %"), (1e-4, "0.01 %")])
def test_ordinary_rates_read_as_percentages(rate, written):
    assert f"FP now {written}" in status_text(_status(fp_measured=rate, fp_exact=rate))


def test_the_window_model_status_reads_the_same():
    wb = Workbench(probes=1_000)
    assert wb.configure(m=1918, k=7)
    wb.insert_batch([f"w{i}" for i in range(40)])
    line = status_text(wb.status())
    assert "(theory " in line and "× 10⁻" in line      # 40 items in 1,918 bits, k = 7: well under 0.01 %


def test_croatian_marks_the_decimal_with_a_comma():
    i18n.use("hr")
    try:
        line = status_text(_status(fp_measured=0.0125, fp_exact=0.0125))
        assert "LP sada 1,25 %" in line and "(teorija 1,25 %)" in line
    finally:
        i18n.use("en")
