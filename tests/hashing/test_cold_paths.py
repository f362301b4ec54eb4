"""The paths that run before numba is loaded give what the compiled ones give, and the window's first paint
loads no numba.

Until something imports numba (the window's warm-up thread does, after the first paint), small batches are
hashed by mmh3 and numpy (hashing/cold_paths.py) and small bit passes run in numpy (filters/cold_bits.py).
These tests hold each against the compiled pass and the scalar reference on the same inputs.
"""

import os
import subprocess
import sys
import threading

import numpy as np
import pytest

from bloomviz.filters import bit_kernels, cold_bits
from bloomviz.hashing import cold_paths, mixed_kernel, schemes

M_CASES = [8, 13, 64, 1_918, 95_850_584, (1 << 32) - 1, 1 << 32, (1 << 32) + 15, 1 << 34, (1 << 34) - 3]


@pytest.mark.parametrize("m", M_CASES)
def test_mixed_rows_in_numpy_equal_the_compiled_rows_and_the_scalar_reference(m):
    rng = np.random.default_rng(m % 1000)
    h1 = rng.integers(0, 1 << 63, 300, dtype=np.uint64) * np.uint64(2) + np.uint64(1)
    h2 = rng.integers(0, 1 << 63, 300, dtype=np.uint64) | np.uint64(1 << 63)
    cold = cold_paths.mixed_rows(h1, h2, m, 9)
    assert np.array_equal(cold, mixed_kernel.mixed_rows(h1, h2, m, 9))
    for j in (0, 1, 150, 299):
        assert tuple(cold[j]) == schemes._mixed_scalar(int(h1[j]), int(h2[j]), m, 9)
    assert cold.min() >= 0 and cold.max() < m


def test_cold_paths_are_chosen_only_for_small_batches_while_the_window_builds(monkeypatch):
    monkeypatch.delitem(sys.modules, "numba", raising=False)
    monkeypatch.setattr(cold_paths, "_warming", threading.Event())   # no window's warm-up thread under way
    assert not cold_paths.use_cold_path(1) and not cold_bits.use(1), "outside the window's construction"
    with cold_paths.before_first_paint():
        assert cold_paths.use_cold_path(cold_paths.COLD_LIMIT)
        assert not cold_paths.use_cold_path(cold_paths.COLD_LIMIT + 1)
        assert cold_bits.use(cold_bits.COLD_POSITIONS) and not cold_bits.use(cold_bits.COLD_POSITIONS + 1)
        other = []
        thread = threading.Thread(target=lambda: other.append(cold_paths.use_cold_path(1)))
        thread.start()
        thread.join()
        assert other == [False], "another thread (the warm-up) takes the compiled paths"
        monkeypatch.setitem(sys.modules, "numba", object())
        assert not cold_paths.use_cold_path(1) and not cold_bits.use(1), "numba already loaded"
    assert not cold_paths.use_cold_path(1)


@pytest.mark.parametrize("scheme", ["murmur3-mix", "murmur3-km", "murmur3-enhanced"])
def test_a_small_batch_hashes_the_same_before_and_after_numba_is_loaded(monkeypatch, scheme):
    texts = ["ana", "", "žuta", "\ud800", "x" * 70, "roger"] * 5
    datas = [t.encode("utf-8", "surrogatepass") for t in texts]
    hs = schemes.SCHEMES[scheme]
    warm_text, warm_bytes = hs.positions_many_text(texts, 1_918, 7), hs.positions_many(datas, 1_918, 7)
    monkeypatch.delitem(sys.modules, "numba", raising=False)       # the window before its warm-up
    with cold_paths.before_first_paint():
        assert cold_paths.use_cold_path(len(texts))
        assert np.array_equal(hs.positions_many_text(texts, 1_918, 7), warm_text)
        assert np.array_equal(hs.positions_many(datas, 1_918, 7), warm_bytes)
    assert [tuple(r) for r in warm_bytes] == [hs.positions(d, 1_918, 7) for d in datas]


@pytest.mark.parametrize("m", [8, 13, 1_000, 4_099])
def test_bit_passes_in_numpy_equal_the_compiled_passes(m):
    rng = np.random.default_rng(m)
    start = rng.integers(0, 256, (m + 7) // 8, dtype=np.uint8)
    rows = rng.integers(0, m, (200, 5), dtype=np.int64)
    rows[7] = rows[3]                                   # repeats within a batch are counted once
    a, b = start.copy(), start.copy()
    assert cold_bits.set_positions(a, rows, m) == bit_kernels.set_positions(b, rows, m)
    assert np.array_equal(a, b)
    probe = rng.integers(0, m, (300, 4), dtype=np.int64)
    assert np.array_equal(cold_bits.all_set(a, probe, m), bit_kernels.all_set(b, probe, m))
    found_a = rng.random(probe.size) < 0.7
    found_b = found_a.copy()
    cold_bits.and_bits(a, probe, m, found_a)
    bit_kernels.and_bits(b, probe, m, found_b)
    assert np.array_equal(found_a, found_b)


def test_numpy_bit_passes_refuse_what_the_compiled_ones_refuse_and_change_nothing():
    view = np.zeros(2, dtype=np.uint8)
    for fn in (cold_bits.set_positions, bit_kernels.set_positions):
        with pytest.raises(ValueError, match=r"position 16 does not"):
            fn(view, np.array([3, 16]), 16)
        with pytest.raises(ValueError, match=r"position -1 does not"):
            fn(view, np.array([-1]), 16)
        with pytest.raises(ValueError, match="cannot hold 17 bits"):
            fn(view, np.array([1]), 17)
    assert not view.any()


def test_the_window_is_built_without_numba_and_warms_it_after_showing():
    code = ("import sys\n"
            "from PySide6 import QtWidgets\n"
            "app = QtWidgets.QApplication([])\n"
            "from bloomviz.gui import app as gapp\n"
            "from bloomviz.gui.main_window import MainWindow\n"
            "from bloomviz.hashing.cold_paths import before_first_paint\n"
            "with before_first_paint():\n"              # as gui.app.main builds it
            "    w = MainWindow(settings=gapp._settings(True))\n"
            "    w.install_parts()\n"
            "print('numba' in sys.modules)\n"
            # then it shows, and warms the compiled paths in a thread: the user's first batch finds them loaded
            "import threading, time\n"
            "w.show(); app.processEvents()\n"
            "end = time.monotonic() + 90\n"
            "while time.monotonic() < end and 'bloomviz.measure.first_flips' not in sys.modules:\n"
            "    app.processEvents(); time.sleep(0.01)\n"
            "[t.join(90) for t in threading.enumerate() if t.name == 'bloomviz-warm-up']\n"
            "print('numba' in sys.modules, 'bloomviz.filters.bit_kernels' in sys.modules)\n")
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert result.returncode == 0, result.stderr[-2000:]
    lines = result.stdout.strip().splitlines()
    assert lines[-2] == "False", "numba was loaded before the first paint"
    assert lines[-1] == "True True", "the warm-up after the first paint did not load the compiled paths"
