"""Hash schemes: every path of every scheme gives the same positions, in range, by the documented formula."""

from __future__ import annotations

import hashlib

import mmh3
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bloomviz.hashing import schemes as hashing
from bloomviz.hashing.schemes import SCHEMES, fnv1a64, fnv1a64_many, get_scheme
from bloomviz.items.encoding import random_items, to_bytes

SPECIAL = ["", "\x00", "😀", "\ud800", "a\udfffb", "héllo", "x" * 5000]
MASK = (1 << 64) - 1

item_values = st.one_of(st.text(), st.binary(), st.sampled_from(SPECIAL))
m_values = st.integers(1, 2 ** 34)
k_values = st.integers(1, 64)


def all_paths(scheme, values, m, k) -> list[np.ndarray]:
    """Every way the core computes positions for a batch, as (n, k) arrays."""
    datas = [to_bytes(v) for v in values]
    scalar = np.array([scheme.positions(d, m, k) for d in datas], dtype=np.int64).reshape(len(datas), k)
    paths = [scalar, scheme.positions_many(datas, m, k),
             np.column_stack(list(scheme.position_columns(datas, m, k))) if datas else scalar]
    if all(isinstance(v, str) for v in values):
        paths.append(scheme.positions_many_text(list(values), m, k))
        if values:
            paths.append(np.column_stack(list(scheme.position_columns(list(values), m, k, text=True))))
    return paths


def test_the_documented_ids_exist_and_the_default_is_murmur3_mix():
    # ids are frozen and in order: the seeds' schemes (seed_schemes.py) come after the original seven
    assert list(SCHEMES) == ["murmur3-km", "murmur3-enhanced", "murmur3-seeded", "sha256-salted", "murmur-fnv",
                             "weak-shift", "murmur3-mix", "kedmi-sha256", "seminar-cpp", "git-changed-paths",
                             "git-changed-paths-v1"]
    assert hashing.DEFAULT_SCHEME == "murmur3-mix"
    assert [s.id for s in SCHEMES.values() if not s.good] == ["weak-shift", "seminar-cpp", "git-changed-paths",
                                                              "git-changed-paths-v1"]
    for sid, scheme in SCHEMES.items():
        assert scheme.id == sid and scheme.title and scheme.summary


@pytest.mark.parametrize("bad", ["murmur", "", None, 3, "MURMUR3-KM"])
def test_unknown_scheme_is_refused_naming_it(bad):
    with pytest.raises(ValueError, match="unknown hash scheme"):
        get_scheme(bad)


def test_get_scheme_passes_a_scheme_object_through():
    s = SCHEMES["murmur-fnv"]
    assert get_scheme(s) is s and get_scheme("murmur-fnv") is s


@pytest.mark.parametrize("scheme_id", sorted(SCHEMES))
@given(values=st.lists(item_values, max_size=12), m=m_values, k=k_values)
@settings(max_examples=25, deadline=None)
def test_scalar_and_batch_positions_agree_and_are_in_range(scheme_id, values, m, k):
    scheme = SCHEMES[scheme_id]
    paths = all_paths(scheme, values, m, k)
    for got in paths:
        assert got.shape == (len(values), k)
        assert got.dtype == np.int64
        np.testing.assert_array_equal(got, paths[0])
    if values:
        assert paths[0].min() >= 0 and paths[0].max() < m


@pytest.mark.parametrize("scheme_id", sorted(SCHEMES))
@given(texts=st.lists(st.text(), min_size=1, max_size=12), m=m_values, k=k_values)
@settings(max_examples=20, deadline=None)
def test_str_batches_with_lone_surrogates_agree(scheme_id, texts, m, k):
    scheme = SCHEMES[scheme_id]
    values = texts + ["\ud800", "\udc00x"]
    paths = all_paths(scheme, values, m, k)
    for got in paths[1:]:
        np.testing.assert_array_equal(got, paths[0])


@pytest.mark.parametrize("scheme_id", sorted(SCHEMES))
def test_large_batch_of_random_items_agrees_at_extreme_m(scheme_id):
    values = random_items(300, seed=11) + SPECIAL
    for m, k in ((1, 1), (2, 64), (2 ** 34, 7), (2 ** 34 - 1, 33), (1_000_003, 13)):
        paths = all_paths(SCHEMES[scheme_id], values, m, k)
        for got in paths[1:]:
            np.testing.assert_array_equal(got, paths[0])


def test_mmh3_never_receives_a_str(monkeypatch):
    # mmh3 5.3.1 crashes the interpreter on a str holding a lone surrogate: every path must hand it bytes.
    seen_types = set()
    real = mmh3.hash_bytes

    def spy(data, *args, **kwargs):
        seen_types.add(type(data))
        return real(data, *args, **kwargs)

    monkeypatch.setattr(hashing.mmh3, "hash_bytes", spy)
    values = ["plain", "\ud800", "😀"]
    for scheme in SCHEMES.values():
        if scheme.id == "sha256-salted":
            continue
        scheme.positions(to_bytes("\ud800"), 1000, 5)
        scheme.positions_many_text(values, 1000, 5)
        list(scheme.position_columns(values, 1000, 5, text=True))
    assert seen_types == {bytes}


def _halves(data: bytes) -> tuple[int, int]:
    raw = mmh3.hash_bytes(data)
    return int.from_bytes(raw[:8], "little"), int.from_bytes(raw[8:], "little")


@given(data=st.binary(max_size=40), m=m_values, k=k_values)
@settings(max_examples=50, deadline=None)
def test_murmur3_km_is_kirsch_mitzenmacher_with_odd_h2(data, m, k):
    h1, h2 = _halves(data)
    h2 |= 1
    expect = tuple(((h1 + i * h2) & MASK) % m for i in range(k))
    assert SCHEMES["murmur3-km"].positions(data, m, k) == expect


def _fmix64_reference(x: int) -> int:
    # MurmurHash3_x64_128's fmix64, written out from the reference C (x ^= x >> 33; x *= C1; ...)
    x ^= x >> 33
    x = (x * 0xFF51AFD7ED558CCD) % 2 ** 64
    x ^= x >> 33
    x = (x * 0xC4CEB9FE1A85EC53) % 2 ** 64
    x ^= x >> 33
    return x


@given(data=st.binary(max_size=40), m=m_values, k=k_values)
@settings(max_examples=50, deadline=None)
def test_murmur3_mix_is_fmix64_of_the_double_hashing_sequence(data, m, k):
    h1, h2 = _halves(data)
    mixed = [_fmix64_reference((h1 + i * (h2 | 1)) % 2 ** 64) for i in range(k)]
    expect = tuple((z * m) >> 64 if m < 2 ** 32 else z % m for z in mixed)
    assert SCHEMES["murmur3-mix"].positions(data, m, k) == expect
    assert hashing.fmix64(0) == 0 and hashing.fmix64(1) == _fmix64_reference(1)


@given(data=st.binary(max_size=40), m=m_values, k=k_values)
@settings(max_examples=50, deadline=None)
def test_murmur3_enhanced_follows_the_dillinger_manolios_loop(data, m, k):
    x, y = _halves(data)
    expect = []
    for i in range(k):  # the loop form: position, then x += y, y += i + 1
        expect.append(x % m)
        x = (x + y) & MASK
        y = (y + i + 1) & MASK
    assert SCHEMES["murmur3-enhanced"].positions(data, m, k) == tuple(expect)


def test_murmur3_seeded_uses_seed_i():
    data = b"seeded"
    expect = tuple(_halves_seeded(data, i) % 1009 for i in range(6))
    assert SCHEMES["murmur3-seeded"].positions(data, 1009, 6) == expect


def _halves_seeded(data: bytes, seed: int) -> int:
    return int.from_bytes(mmh3.hash_bytes(data, seed)[:8], "little")


def test_sha256_salted_prefixes_i_as_four_bytes():
    data = b"salt"
    expect = tuple(int.from_bytes(hashlib.sha256(i.to_bytes(4, "big") + data).digest()[:8], "big") % 4099
                   for i in range(5))
    assert SCHEMES["sha256-salted"].positions(data, 4099, 5) == expect


def test_weak_shift_repeats_after_four_functions():
    # The deliberate flaw: rotating one 64-bit hash by 16 bits comes back to itself after 4 steps.
    for data in (b"a", b"bloom", b"\x00" * 9):
        pos = SCHEMES["weak-shift"].positions(data, 2 ** 34, 12)
        assert pos[0:4] == pos[4:8] == pos[8:12]
        assert len(set(pos)) <= 4
    good = SCHEMES["murmur3-km"].positions(b"bloom", 2 ** 34, 12)
    assert len(set(good)) == 12


def test_fnv1a64_known_vectors_and_batch_agreement():
    # Published FNV-1a 64-bit test vectors.
    assert fnv1a64(b"") == 0xCBF29CE484222325
    assert fnv1a64(b"a") == 0xAF63DC4C8601EC8C
    assert fnv1a64(b"foobar") == 0x85944171F73967E8
    datas = [b"", b"a", b"foobar", b"x" * 5000, b"\x00\xff" * 7] + [to_bytes(s) for s in random_items(50)]
    np.testing.assert_array_equal(fnv1a64_many(datas), np.array([fnv1a64(d) for d in datas], dtype=np.uint64))
    assert fnv1a64_many([]).size == 0


def test_explain_names_the_values_for_every_scheme():
    for scheme in SCHEMES.values():
        rows = scheme.explain(b"item", 1000, 5)
        assert rows and all(isinstance(a, str) and isinstance(b, str) for a, b in rows)


def test_positions_spread_over_the_whole_range():
    # A chi-square style sanity check of uniformity for the good schemes (a bias would show at this size).
    datas = [to_bytes(s) for s in random_items(20000, seed=4)]
    m = 64
    for scheme in SCHEMES.values():
        if not scheme.good:
            continue
        counts = np.bincount(scheme.positions_many(datas, m, 3).ravel(), minlength=m)
        expected = counts.sum() / m
        chi2 = ((counts - expected) ** 2 / expected).sum()
        assert chi2 < 150, (scheme.id, chi2)  # 63 degrees of freedom: 150 is far beyond p = 1e-8


@pytest.mark.parametrize("m", [1, 3, 64, 9_585_059, 2 ** 32 - 1, 2 ** 32, 2 ** 32 + 1, 2 ** 33, 3 * 2 ** 33 + 5,
                               10 ** 12, 2 ** 62])
def test_murmur3_mix_compiled_batches_equal_the_reference_at_every_reduction(m):
    # below 2^32 a multiply-high from 32-bit halves; powers of two from 2^32 a mask; other m a modulo
    rng = np.random.default_rng(m % 1000)
    h1 = rng.integers(0, 2 ** 64, 300, dtype=np.uint64)
    h2 = rng.integers(0, 2 ** 64, 300, dtype=np.uint64) | np.uint64(1)
    k = 20
    expect = [[(z * m) >> 64 if m < 2 ** 32 else z % m
               for z in (_fmix64_reference((a + i * b) % 2 ** 64) for i in range(k))]
              for a, b in zip(h1.tolist(), h2.tolist())]
    assert hashing._mixed_many(h1, h2, m, k).tolist() == expect
    assert [column.tolist() for column in hashing._mixed_columns(h1, h2, m, k)] == np.array(expect).T.tolist()
