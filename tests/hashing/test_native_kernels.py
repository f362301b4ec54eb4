"""The native kernel cache: machine code numba wrote, loaded without numba, gives numba's answers bit for bit;
a file that is absent, stale or damaged is not loaded (the kernels compile with numba as before).

The cache is built once per test session into a temporary directory (never the user's); the checks without
numba run in a subprocess whose import of numba fails."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import mmh3
import numpy as np
import pytest

from bitarray import bitarray

from bloomviz.filters import bitstore
from bloomviz.formats import sstable
from bloomviz.hashing import native_build, native_kernels
from bloomviz.hashing.generated_kernel import hash128_generated, hash128_values
from bloomviz.hashing.list_kernel import list_halves
from bloomviz.hashing import mixed_kernel
from bloomviz.hashing.mixed_kernel import mixed_rows
from bloomviz.hashing.schemes import _mixed_scalar
from bloomviz.items.generated import GeneratedItems, GeneratedRun
from bloomviz.measure.counter_halves import CounterHalves
from bloomviz.measure.first_flips import ProbeBits, account_turned
from bloomviz.workbench.model import Workbench

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SIZES = (1_000, 9_585_059, 1 << 32, (1 << 33) + 7)
TEXTS = [f"item {i}" for i in range(300)] + ["žluťoučký kůň", "日本語" * 40, "😀 x", "\ud800 lone", ""]


@pytest.fixture(scope="session")
def cache(tmp_path_factory):
    directory = tmp_path_factory.mktemp("kernels")
    native_build.write(directory)
    key = native_kernels.cache_key()
    header, _ = native_kernels.unpack((directory / native_kernels.file_name(key)).read_bytes(), key)
    # a kernel that came to need numba's runtime (an array allocated inside it) is left out of the file
    assert sorted(header["symbols"]) == sorted(native_kernels.KERNELS), "kernels left out of the native cache"
    return directory


def _halves(n: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(7)
    return (rng.integers(0, 1 << 63, n, dtype=np.uint64) * np.uint64(3),
            rng.integers(0, 1 << 63, n, dtype=np.uint64) | np.uint64(1))


def _answers() -> dict:
    """Positions, hashes, flips and a tracked auto-play's numbers, by whatever serves the kernels here."""
    h1, h2 = _halves(400)
    out = {"rows": {m: mixed_rows(h1, h2, m, 7).tolist() for m in SIZES}}
    out["texts"] = [[int(a), int(b)] for a, b in zip(*list_halves(TEXTS, False))]
    m = 20_011
    probes = ProbeBits(np.array([3, 17, 400, 999, 5_000, 20_000], dtype=np.int64), m)
    view = np.zeros((m + 7) // 8, dtype=np.uint8)
    new_per_row, bit_time = probes.flip_rows(view, mixed_rows(h1, h2, m, 9), m)
    out["flips"] = [new_per_row.tolist(), bit_time.tolist(), probes.turned.tolist(), view.tolist()]
    turned = np.array([0, 1, 2], dtype=np.int64)
    per_row = np.zeros(4, dtype=np.int64)
    became = account_turned(turned, np.array([2, 0, 3], dtype=np.int64), np.array([0, 2, 3, 4], dtype=np.int64),
                            np.array([0, 1, 1, 0], dtype=np.int64), np.ones(3, dtype=np.bool_),
                            np.array([2, 2], dtype=np.int64), np.full(2, -1, dtype=np.int64),
                            np.zeros(2, dtype=np.int64), per_row)
    out["account"] = [int(became), per_row.tolist()]
    big = (1 << 26) + 9          # past the exact probe map: the flips found in a second pass
    probes = ProbeBits(np.array([3, 17, 400, big - 1], dtype=np.int64), big)
    view = np.zeros((big + 7) // 8, dtype=np.uint8)
    new_per_row, bit_time = probes.flip_rows(view, mixed_rows(h1, h2, big, 9), big)
    out["big flips"] = [new_per_row.tolist(), bit_time.tolist(), probes.turned.tolist(), int(view.sum())]
    out["bytes"] = [[int(a), int(b)] for a, b in zip(*list_halves([t.encode() for t in TEXTS[:300]], True))]
    out["generated"] = [np.concatenate(hash128_generated(GeneratedItems(50, seed=4), 3, 40)).tolist(),
                        np.concatenate(hash128_values(np.arange(30, dtype=np.uint64) * np.uint64(7919), "x")).tolist()]
    bits = bitarray(5_003, endian="little")
    bits.setall(0)
    rows = mixed_rows(h1[:60], h2[:60], 5_003, 5)
    fresh = bitstore.set_bits(bits, rows[:40])
    found = np.ones(rows.shape[0], dtype=np.bool_)
    bitstore.and_bits(bits, rows[:, 0], found)
    out["bitstore"] = [fresh, bitstore.all_set(bits, rows).tolist(), found.tolist(), bits.count()]
    model = Workbench(probes=500, seed=3)
    model.configure(30_011, 7, capacity=5_000)
    model.insert_batch([f"r{i:07x}" for i in range(5_000)])
    numbers = model.numbers()
    out["model"] = [numbers.n, numbers.bits_set, numbers.fp_count]
    out.update(_halves_answers(h1, h2, big))
    out["crc32c"] = [sstable.crc32c(data) for data in CRC_INPUTS]      # a LevelDB or RocksDB table's blocks
    return json.loads(json.dumps(out))


CRC_INPUTS = (b"", b"123456789", bytes(range(256)) * 41, b"\xff" * 4_097)


def _crc32c_reference(data: bytes) -> int:
    crc = 0xFFFFFFFF
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ 0x82F63B78 if crc & 1 else crc >> 1
    return crc ^ 0xFFFFFFFF


def _halves_answers(h1, h2, big: int) -> dict:
    """Bits set and tested in the loop that computes the positions, and the exact tracker given hash halves."""
    out = {}
    others = _halves(600)[0][400:] + np.uint64(1)
    for m in (5_003, 9_585_059):        # a loop over a filter in the caches; the ring of positions ahead
        view = np.zeros((m + 7) // 8, dtype=np.uint8)
        fresh = mixed_kernel.set_from_halves(h1, h2, m, 7, view)      # (5_003: the bits counted before and after)
        found = mixed_kernel.test_from_halves(np.concatenate([h1[:50], others]), np.concatenate([h2[:50], h2[:200]]), m, 7,
                                 view)
        out[f"set {m}"] = [fresh, np.flatnonzero(view).tolist(), found.tolist()]
    for m in (20_011, big):         # the turned bits' rows found by fresh_rows, then past the exact map
        probes = ProbeBits(np.array([3, 17, 400, 5_000, m - 1], dtype=np.int64), m)
        view = np.zeros((m + 7) // 8, dtype=np.uint8)
        for part in (slice(0, 150), slice(150, 400)):      # the second batch: fewer candidates
            new_per_row, bit_time = probes.flip_halves(view, h1[part], h2[part], m, 9)
            out[f"halves flips {m} {part.start}"] = [new_per_row.tolist(), bit_time.tolist(), probes.turned.tolist()]
        counter = CounterHalves(None, GeneratedItems(500, seed=6), 20, 420)    # hashed in the setting pass
        new_per_row, bit_time = probes.flip_halves(view, None, None, m, 9, counter)
        out[f"counter flips {m}"] = [new_per_row.tolist(), bit_time.tolist(), probes.turned.tolist(), int(view.sum())]
    for m in (30_011, big):           # generated items by rows, and by their halves past the exact probe map
        model = Workbench(probes=300, seed=5)
        model.configure(m, 7, capacity=4_000)
        model.insert_batch(GeneratedRun(GeneratedItems(4_000, seed=2), 0, 4_000))
        numbers = model.numbers()
        out[f"generated model {m}"] = [numbers.n, numbers.bits_set, numbers.fp_count]
    for m in (30_011, 9_585_059):     # an auto-play job: its chunks by hash halves (the completions' kernels)
        gen, at = GeneratedItems(2 ** 63 - 1, seed=2), [0]

        def source(count, gen=gen, at=at):
            run = GeneratedRun(gen, at[0], at[0] + min(count, 700))
            at[0] = run.stop
            return run

        model = Workbench(probes=300, seed=5)
        model.configure(m, 7, capacity=4_000)
        model.run_job(source, 4_000, "auto-play items")
        model.run_to_end()
        out[f"job {m}"] = [model.series.column(c).tolist() for c in ("n", "fp_measured", "fill")]
    return out


WITHOUT_NUMBA = textwrap.dedent("""
    import json, sys
    class NoNumba:
        asked = []
        def find_spec(self, name, path=None, target=None):
            if name == "numba" or name.startswith("numba."):
                self.asked.append(name)     # (a path that caught the ImportError would hide a kernel not served)
                raise ImportError("numba is blocked in this test")
    sys.meta_path.insert(0, NoNumba())
    from bloomviz.hashing import cold_paths, native_kernels
    cold_paths.warm_up_scheduled()      # as while the window's warm-up loads numba: other batches take numpy paths
    loaded = native_kernels.load()
    from tests.hashing.test_native_kernels import _answers
    answers = _answers() if loaded else None
    print(json.dumps([loaded, native_kernels.state["status"], NoNumba.asked or "numba" in sys.modules, answers]))
""")


def test_the_cached_kernels_answer_as_numba_does_without_loading_it(cache):
    env = dict(os.environ, BLOOMVIZ_KERNEL_CACHE=str(cache), PYTHONPATH=ROOT)
    run = subprocess.run([sys.executable, "-c", WITHOUT_NUMBA], capture_output=True, text=True, timeout=120,
                         env=env, cwd=ROOT)
    assert run.returncode == 0, run.stderr[-2000:]
    loaded, status, numba_loaded, answers = json.loads(run.stdout.strip().splitlines()[-1])
    assert (loaded, status, numba_loaded) == (True, "loaded", False)
    assert answers == _answers()        # this process: numba's kernels (nothing loaded from the cache here)
    # and the scalar references
    h1, h2 = _halves(400)
    for m in SIZES:
        assert answers["rows"][str(m)] == [list(_mixed_scalar(int(a), int(b), m, 7)) for a, b in zip(h1, h2)]
    policy = [t.encode("utf-8", "surrogatepass") for t in TEXTS]
    assert answers["texts"] == [list(mmh3.hash64(b, signed=False)) for b in policy]
    assert answers["crc32c"] == [_crc32c_reference(data) for data in CRC_INPUTS]
    assert answers["crc32c"][1] == 0xE3069283       # CRC-32C's check value (RFC 3720)


def _load_in_process(directory) -> tuple[bool, str]:
    """(loaded, why) for the cache in ``directory``; this process serves nothing from it afterwards."""
    native_kernels.forget()
    try:
        return native_kernels.load(directory), native_kernels.state["status"]
    finally:
        native_kernels.forget()


def _damaged(cache, tmp_path, change) -> str:
    name = native_kernels.file_name(native_kernels.cache_key())
    data = (cache / name).read_bytes()
    (tmp_path / name).write_bytes(change(data))
    loaded, why = _load_in_process(tmp_path)
    assert not loaded
    return why


def _with_header(data: bytes, **fields) -> bytes:
    header, code = native_kernels.unpack(data, native_kernels.cache_key())
    header.update(fields)
    return native_kernels.pack(header["key"], header["symbols"], header["imports"], code)


@pytest.mark.parametrize("change, why", [
    (lambda d: d[:len(d) // 2], "truncated"),
    (lambda d: d[:-1] + bytes([d[-1] ^ 1]), "damaged"),
    (lambda d: b"\x7fELF" + d[4:], "not a kernel cache file"),
    (lambda d: os.urandom(len(d)), "not a kernel cache file"),
    (lambda d: d[:len(native_kernels.MAGIC) + 8] + b"\xff" + d[len(native_kernels.MAGIC) + 9:], "unreadable header"),
    (lambda d: _with_header(d, key="0" * 64), "stale"),
    (lambda d: _with_header(d, imports=["bloomviz_no_such_symbol"]), "bloomviz_no_such_symbol"),
])
def test_a_bad_cache_file_is_not_loaded(cache, tmp_path, change, why):
    assert why in _damaged(cache, tmp_path, change)


def test_a_good_file_loads_and_no_file_or_directory_is_no_cache(cache, tmp_path):
    assert _load_in_process(cache) == (True, "loaded")
    assert _load_in_process(tmp_path) == (False, "absent")
    assert _load_in_process(None) == (False, "off")      # (conftest: BLOOMVIZ_KERNEL_CACHE is empty in tests)
    assert not native_kernels.ready(native_kernels.MIX)


def test_arguments_numba_would_type_otherwise_are_not_served(cache):
    native_kernels.forget()
    try:
        assert native_kernels.load(cache)
        mix = native_kernels.entry(native_kernels.MIX)
        h1, h2 = _halves(3)
        out = np.empty((3, 2), dtype=np.int64)
        assert mix((h1, h2, 1000, 0, out, True))[0]
        assert out.tolist() == [list(_mixed_scalar(int(a), int(b), 1000, 2)) for a, b in zip(h1, h2)]
        for bad in ((h1.astype(np.int64), h2, 1000, 0, out, True), (h1, h2, 1000, 0, out[:, :1], True),
                    (h1, h2, 1000, 0, out.T, True), (h1, h2, 1000, 0, out, 1), (h1, h2, 2**64, 0, out, True),
                    (h1, h2, True, 0, out, True), (h1, h2, 1000, 0, out)):
            assert mix(bad) == (False, None)
        frozen = out.copy()
        frozen.flags.writeable = False
        assert mix((h1, h2, 1000, 0, frozen, True)) == (False, None)      # the kernel writes it
    finally:
        native_kernels.forget()


def test_files_of_other_keys_stay_beside_it_up_to_a_few(cache, tmp_path, monkeypatch):
    name = native_kernels.file_name(native_kernels.cache_key())
    for i in range(native_kernels.KEPT_FILES + 3):
        old = tmp_path / f"kernels-{i:032d}.bin"
        old.write_bytes(b"another version's kernels")
        os.utime(old, (1_000_000 + i, 1_000_000 + i))
    monkeypatch.setattr(native_build, "build", lambda: _built(cache / name))     # the session's, not again
    native_build.write(tmp_path)
    left = sorted(path.name for path in tmp_path.glob("kernels-*.bin"))
    kept = native_kernels.KEPT_FILES
    assert left == sorted([name, *(f"kernels-{i:032d}.bin" for i in range(4, kept + 3))])
    assert _load_in_process(tmp_path) == (True, "loaded")


def _built(path):
    header, code = native_kernels.unpack(path.read_bytes(), native_kernels.cache_key())
    return header["symbols"], header["imports"], code
