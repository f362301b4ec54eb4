"""The seeds' schemes against independent implementations: Kedmi's own Python (tests/data/kedmi/bloom.py) and the
seminar's C++ (tests/data/seminar/, compiled with g++ when present; its stored output otherwise)."""

from __future__ import annotations

import importlib.util
import random
import shutil
import subprocess
from pathlib import Path
from string import ascii_letters

import numpy as np
import pytest

from bloomviz.hashing import seed_schemes

from bloomviz.files import storage
from bloomviz.filters.standard import BloomFilter
from bloomviz.hashing.schemes import SCHEMES
from bloomviz.items.encoding import to_bytes

DATA = Path(__file__).parents[1] / "data"
SEMINAR = DATA / "seminar"


def _kedmi_module():
    spec = importlib.util.spec_from_file_location("kedmi_bloom", DATA / "kedmi" / "bloom.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _kedmi_strings(count: int) -> list[bytes]:
    # his test_bloom.py's random_string(30): 30 ASCII letters, as bytes; plus a few edge cases
    rng = random.Random(2017)
    out = [str.encode("".join(rng.choice(ascii_letters) for _ in range(30))) for _ in range(count - 4)]
    return out + [b"", b"\x00", "ssh-dss AAAA".encode(), "čšž".encode()]


def test_kedmi_scheme_equals_his_python_for_1000_strings():
    kedmi = _kedmi_module()
    k, m = kedmi.optimal_km(32768, 0.001)
    assert (k, m) == (10, 471125)   # the article's printed design
    scheme = SCHEMES["kedmi-sha256"]
    strings = _kedmi_strings(1000)
    expect = np.array([[kedmi.h_i(i, m, s) for i in range(k)] for s in strings], dtype=np.int64)
    np.testing.assert_array_equal(scheme.positions_many(strings, m, k), expect)
    assert [scheme.positions(s, m, k) for s in strings[:50]] == [tuple(row) for row in expect[:50].tolist()]


def test_kedmi_filter_sets_the_same_bits_as_his_toy():
    kedmi = _kedmi_module()
    strings = _kedmi_strings(300)
    his = kedmi.bloom_filter(4099, 5)
    his.bits.setall(0)      # bitarray(m) is zeroed only since bitarray 2.9.0 (its CHANGE_LOG, #212): say so here
    ours = BloomFilter(4099, 5, scheme="kedmi-sha256")
    for s in strings[:150]:
        his.add(s)
        ours.add(s)
    assert [i for i in range(4099) if his.bits[i]] == [i for i in range(4099) if ours.bits[i]]
    assert [his.contains(s) for s in strings] == [s in ours for s in strings]


def _stored_positions() -> list[tuple[str, tuple[int, ...]]]:
    rows = []
    for line in (SEMINAR / "expected_positions.tsv").read_text(encoding="utf-8").splitlines():
        item, _, pos = line.rpartition("\t")   # an item may hold a tab: the positions follow the last one
        rows.append((item, tuple(int(p) for p in pos.split())))
    return rows


def test_seminar_scheme_equals_the_stored_output_of_its_cpp():
    rows = _stored_positions()
    assert len(rows) >= 20
    scheme = SCHEMES["seminar-cpp"]
    datas = [to_bytes(item) for item, _ in rows]
    assert [scheme.positions(d, 1000, 3) for d in datas] == [pos for _, pos in rows]
    np.testing.assert_array_equal(scheme.positions_many(datas, 1000, 3), np.array([p for _, p in rows]))


@pytest.mark.skipif(shutil.which("g++") is None, reason="g++ is not installed; the stored output is checked instead")
def test_seminar_cpp_compiled_here_prints_the_stored_positions(tmp_path):
    exe = tmp_path / "positions"
    subprocess.run(["g++", "-O1", "-o", str(exe), str(SEMINAR / "positions.cpp")], check=True, timeout=120)
    strings = "".join(item + "\n" for item, _ in _stored_positions())
    out = subprocess.run([str(exe)], input=strings.encode(), capture_output=True, check=True, timeout=30).stdout
    assert out.decode() == (SEMINAR / "expected_positions.tsv").read_text(encoding="utf-8")


def test_std_hash_batch_equals_the_step_by_step_loop_at_every_tail_length():
    rng = np.random.default_rng(5)
    datas = [rng.integers(0, 256, n, dtype=np.uint8).tobytes() for n in list(range(0, 70)) + [255, 256, 257, 900]]
    got = seed_schemes.std_hash_many(datas)
    assert got.tolist() == [seed_schemes.std_hash(d) for d in datas]


def test_seminar_shifts_are_h_h16_h32_and_wrap_past_four():
    h = seed_schemes.std_hash(b"roger@acme.com")
    pos = SCHEMES["seminar-cpp"].positions(b"roger@acme.com", 2 ** 34, 6)
    assert pos[:3] == (h % 2 ** 34, (h >> 16) % 2 ** 34, h >> 32)
    assert pos[4:] == pos[:2]


# --- hand-set -------------------------------------------------------------------------------------------------

ROUGHGARDEN = {"k1": [23, 17, 5], "k2": [5, 40, 11], "k3": [17, 2, 31], "k4": [23, 50, 8]}


def test_hand_set_positions_are_the_typed_ones_and_k1_becomes_a_phantom():
    scheme = seed_schemes.hand_set(ROUGHGARDEN)
    flt = BloomFilter(64, 3, scheme=scheme)
    assert flt.lookup("k1").positions == (23, 17, 5)
    for key in ("k2", "k3", "k4"):
        flt.add(key)
    assert "k1" in flt and flt.bits_set == 9
    np.testing.assert_array_equal(scheme.positions_many([b"k2", b"k4"], 64, 3), [[5, 40, 11], [23, 50, 8]])


def test_hand_set_refuses_an_unknown_item_by_name():
    flt = BloomFilter(64, 3, scheme=seed_schemes.hand_set(ROUGHGARDEN))
    with pytest.raises(ValueError, match=r"no positions were given for item 'k9'.*'k1'"):
        flt.add("k9")
    assert flt.bits_set == 0 and len(flt) == 0


@pytest.mark.parametrize("m, k, match", [(64, 4, "has 3 positions, but the filter has k = 4"),
                                         (20, 3, "position 23 outside 0..19")])
def test_hand_set_refuses_positions_that_do_not_fit_the_filter(m, k, match):
    with pytest.raises(ValueError, match=match):
        BloomFilter(m, k, scheme=seed_schemes.hand_set(ROUGHGARDEN)).add("k1")


@pytest.mark.parametrize("bad, match", [({}, "non-empty mapping"), ({"a": [1, -2]}, "whole numbers >= 0"),
                                        ({"a": "12"}, "list of bit indices"), ({"a": [1], "b": [1, 2]}, "same count")])
def test_hand_set_table_is_checked_when_made(bad, match):
    with pytest.raises(ValueError, match=match):
        seed_schemes.hand_set(bad)


def test_a_hand_set_filter_is_not_saved_without_its_positions(tmp_path):
    flt = BloomFilter(64, 3, scheme=seed_schemes.hand_set(ROUGHGARDEN))
    with pytest.raises(ValueError, match="'hand-set' is not registered"):
        storage.save(flt, tmp_path / "f.bloom")
    assert "hand-set" not in SCHEMES
    assert seed_schemes.hand_set(ROUGHGARDEN) == seed_schemes.hand_set(ROUGHGARDEN)
    assert seed_schemes.hand_set(ROUGHGARDEN) != seed_schemes.hand_set({"k1": [1, 2, 3]})
