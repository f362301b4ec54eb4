"""The .bloom file format: round trips of every variant, the pinned golden file, atomic writes, file errors."""

from __future__ import annotations

import os
import stat
import struct
import sys
from pathlib import Path

import numpy as np
import pytest

from bloomviz.filters import persist
from bloomviz.disk import atomic_write

from bloomviz.hashing import schemes as hashing

from bloomviz.files import storage
from bloomviz.filters.standard import BloomFilter
from bloomviz.items.encoding import random_items
from bloomviz.files.storage import FilterFormatError, Header, load, read_header, save
from bloomviz.filters.capabilities import grid_values
from bloomviz.filters.registry import VARIANTS, make_filter

from bloom_layout import Spec, build, parse

GOLDEN = Path(__file__).parents[1] / "data" / "golden-v1.bloom"
# The header of GOLDEN, pinned: changing the format must be a deliberate act that updates this line (and the
# format version). magic, version 1, "standard", "murmur3-km", m=64, k=3, count=3, no params, payload 8, CRC32.
GOLDEN_HEADER_HEX = ("424c4f4f4d565a00" "0100" "087374616e64617264" "0a6d75726d7572332d6b6d"
                     "4000000000000000" "0300" "0300000000000000" "0000" "0800000000000000" "d7c3dafc")

SMALL = {
    "standard": dict(m=2000, k=5),
    "counting": dict(m=2000, k=5, counter_bits=3),
    "scalable": dict(initial_capacity=40, p=0.05),
    "partitioned": dict(m=2000, k=7),
    "blocked": dict(m=2048, k=5, block_bits=256),
}


def golden_filter() -> BloomFilter:
    flt = BloomFilter(64, 3, scheme="murmur3-km")
    for item in ("a", "b", "c"):
        flt.add(item)
    return flt


def filled(variant: str, scheme: str = hashing.DEFAULT_SCHEME, n: int = 250):
    flt = make_filter(variant, scheme=scheme, **SMALL[variant])
    flt.update(random_items(n, seed=5))
    return flt


def assert_same_filter(a, b) -> None:
    assert type(a) is type(b)
    assert (a.variant, a.m, a.k, a.scheme, len(a)) == (b.variant, b.m, b.k, b.scheme, len(b))
    assert persist.params_of(a) == persist.params_of(b)
    assert persist.payload_of(a) == persist.payload_of(b)
    if hasattr(b, "bits"):  # a scalable filter keeps its bits per stage
        assert a.bits == b.bits
    np.testing.assert_array_equal(grid_values(a), grid_values(b))
    probes = random_items(400, seed=9) + random_items(250, seed=5)  # 250 members, 400 (mostly) strangers
    assert list(a.contains_many(probes)) == list(b.contains_many(probes)) == [p in b for p in probes]
    assert a == b


# --- round trips ---------------------------------------------------------------------------------------------
def test_every_registered_variant_has_a_file_layout():
    assert storage.supported_variants() == tuple(VARIANTS)


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_round_trip_every_variant(tmp_path, variant):
    flt = filled(variant)
    path = tmp_path / f"{variant}.bloom"
    save(flt, path)
    back = load(path)
    assert back is not flt
    assert_same_filter(back, flt)
    header = read_header(path)
    assert (header.version, header.variant, header.scheme) == (1, variant, flt.scheme)
    assert (header.m, header.k, header.count, header.params) == (flt.m, flt.k, len(flt), persist.params_of(flt))
    assert header.payload_length == len(persist.payload_of(flt))
    assert header.size + header.payload_length == path.stat().st_size


def test_scalable_round_trip_keeps_every_stage(tmp_path):
    flt = filled("scalable", n=300)
    assert len(flt.stages) >= 3  # the point: more than one stage table entry survives
    save(flt, tmp_path / "s.bloom")
    back = load(tmp_path / "s.bloom")
    assert [(s.m, s.k, len(s)) for s in back.stages] == [(s.m, s.k, len(s)) for s in flt.stages]
    assert all(a.bits == b.bits for a, b in zip(back.stages, flt.stages))
    assert back.stages.offsets == flt.stages.offsets


@pytest.mark.parametrize("scheme", sorted(hashing.SCHEMES))
def test_round_trip_every_scheme(tmp_path, scheme):
    flt = filled("standard", scheme=scheme)
    save(flt, tmp_path / "f.bloom")
    assert_same_filter(load(tmp_path / "f.bloom"), flt)


@pytest.mark.parametrize("m", [1, 7, 8, 9, 63, 65, 1000])
def test_round_trip_sizes_that_leave_padding_bits(tmp_path, m):
    flt = BloomFilter(m, 2)
    flt.update(random_items(m, seed=m))
    save(flt, tmp_path / "f.bloom")
    back = load(tmp_path / "f.bloom")
    assert_same_filter(back, flt)
    assert len(back.bits) == m


def test_round_trip_of_an_empty_and_a_full_filter(tmp_path):
    empty = BloomFilter(100, 4)
    save(empty, tmp_path / "e.bloom")
    assert_same_filter(load(tmp_path / "e.bloom"), empty)
    full = BloomFilter(16, 4)
    full.update(random_items(500, seed=1))
    assert full.bits_set == 16
    save(full, tmp_path / "f.bloom")
    assert_same_filter(load(tmp_path / "f.bloom"), full)


def test_counting_round_trip_keeps_counters_and_removal_works(tmp_path):
    flt = filled("counting")
    save(flt, tmp_path / "c.bloom")
    back = load(tmp_path / "c.bloom")
    np.testing.assert_array_equal(back.counters, flt.counters)
    member = random_items(250, seed=5)[0]
    back.remove(member)
    flt.remove(member)
    np.testing.assert_array_equal(back.counters, flt.counters)


def test_load_returns_an_independent_filter(tmp_path):
    flt = filled("standard")
    save(flt, tmp_path / "f.bloom")
    a, b = load(tmp_path / "f.bloom"), load(tmp_path / "f.bloom")
    a.add("only in a")
    assert "only in a" in a and len(a) == len(b) + 1
    assert b == flt


def test_saved_bytes_are_a_function_of_the_filter(tmp_path):
    a, b = filled("scalable"), filled("scalable")
    save(a, tmp_path / "a.bloom")
    save(b, tmp_path / "b.bloom")
    assert (tmp_path / "a.bloom").read_bytes() == (tmp_path / "b.bloom").read_bytes()


def test_header_size_matches_the_documented_layout(tmp_path):
    for variant in VARIANTS:
        flt = filled(variant, n=30)
        save(flt, tmp_path / "f.bloom")
        data = (tmp_path / "f.bloom").read_bytes()
        spec, fields = parse(data)
        assert read_header(tmp_path / "f.bloom").size == fields[-1][1] + 4
        # An independent writer of the documented layout gives the same bytes.
        assert build(Spec(variant=spec.variant, scheme=spec.scheme, m=spec.m, k=spec.k, count=spec.count,
                          params=spec.params, payload=spec.payload)) == data


# --- the golden file -----------------------------------------------------------------------------------------
def test_golden_file_loads_with_the_expected_contents():
    flt = load(GOLDEN)
    assert type(flt) is BloomFilter
    assert (flt.m, flt.k, flt.scheme, len(flt)) == (64, 3, "murmur3-km", 3)
    expected = {p for item in ("a", "b", "c") for p in hashing.SCHEMES["murmur3-km"].positions(item.encode(), 64, 3)}
    assert {i for i in range(64) if flt.bits[i]} == expected
    assert all(item in flt for item in ("a", "b", "c"))
    header = read_header(GOLDEN)
    assert header == Header(1, "standard", "murmur3-km", 64, 3, 3, {}, 8, header.crc)


def test_golden_file_bytes_are_reproduced_exactly(tmp_path):
    data = GOLDEN.read_bytes()
    assert data[:read_header(GOLDEN).size].hex() == GOLDEN_HEADER_HEX
    save(golden_filter(), tmp_path / "again.bloom")
    assert (tmp_path / "again.bloom").read_bytes() == data


# --- refusing to save ----------------------------------------------------------------------------------------
class HomeMadeFilter(BloomFilter):
    """A subclass the format does not know: saving it would load back as something else."""


@pytest.mark.parametrize("thing", [object(), {"m": 64}, b"BLOOMVZ\x00", None, HomeMadeFilter(64, 3)],
                         ids=["object", "dict", "bytes", "None", "subclass"])
def test_save_refuses_what_is_not_a_known_filter(tmp_path, thing):
    with pytest.raises(TypeError, match="bloomviz filter"):
        save(thing, tmp_path / "x.bloom")
    assert list(tmp_path.iterdir()) == []


def test_save_and_load_refuse_a_path_that_is_not_a_path(tmp_path):
    with pytest.raises(TypeError, match="path"):
        save(golden_filter(), 3)
    with pytest.raises(TypeError, match="path"):
        load(None)


# --- atomic writes -------------------------------------------------------------------------------------------
@pytest.mark.parametrize("failing", ["replace", "fsync", "write"])
def test_a_crash_before_the_rename_leaves_the_old_file_whole(tmp_path, monkeypatch, failing):
    path = tmp_path / "f.bloom"
    save(golden_filter(), path)
    old = path.read_bytes()

    def boom(*args, **kwargs):
        raise OSError(f"simulated failure in {failing}")

    if failing == "write":  # the disk fills up half way through the payload
        real = atomic_write.tempfile.NamedTemporaryFile

        def short_file(*args, **kwargs):
            f = real(*args, **kwargs)
            written = []

            def write(data):
                if written:
                    raise OSError("No space left on device (simulated)")
                written.append(len(data))
                return f.file.write(data)
            f.write = write
            return f
        monkeypatch.setattr(atomic_write.tempfile, "NamedTemporaryFile", short_file)
    else:
        monkeypatch.setattr(os, failing, boom)
    with pytest.raises(OSError, match="simulated"):
        save(filled("standard"), path)
    monkeypatch.undo()
    assert path.read_bytes() == old
    assert sorted(p.name for p in tmp_path.iterdir()) == ["f.bloom"]
    assert load(path) == golden_filter()


def test_an_interrupt_during_save_also_cleans_up(tmp_path, monkeypatch):
    path = tmp_path / "f.bloom"
    save(golden_filter(), path)
    old = path.read_bytes()

    def interrupted(*args):
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "replace", interrupted)
    with pytest.raises(KeyboardInterrupt):
        save(filled("counting"), path)
    monkeypatch.undo()
    assert path.read_bytes() == old
    assert [p.name for p in tmp_path.iterdir()] == ["f.bloom"]


def test_save_replaces_an_existing_file_and_leaves_no_temporary(tmp_path):
    path = tmp_path / "f.bloom"
    save(golden_filter(), path)
    bigger = filled("blocked")
    save(bigger, path)
    assert_same_filter(load(path), bigger)
    assert [p.name for p in tmp_path.iterdir()] == ["f.bloom"]


def test_a_failed_save_into_a_missing_directory_raises_oserror(tmp_path):
    with pytest.raises(FileNotFoundError):
        save(golden_filter(), tmp_path / "no such dir" / "f.bloom")
    with pytest.raises(IsADirectoryError):
        save(golden_filter(), tmp_path)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX modes and symlinks")
def test_save_keeps_the_mode_of_the_file_it_replaces_and_writes_through_a_symlink(tmp_path):
    path = tmp_path / "f.bloom"
    save(golden_filter(), path)
    os.chmod(path, 0o640)
    save(filled("standard"), path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    link = tmp_path / "link.bloom"
    link.symlink_to(path)
    save(golden_filter(), link)
    assert link.is_symlink()
    assert load(path) == golden_filter()


# --- files that cannot be read -------------------------------------------------------------------------------
def test_a_missing_file_raises_file_not_found_naming_it(tmp_path):
    path = tmp_path / "nothing.bloom"
    with pytest.raises(FileNotFoundError) as info:
        load(path)
    assert info.value.filename == str(path)
    with pytest.raises(FileNotFoundError):
        read_header(path)


def test_a_directory_raises_is_a_directory_naming_it(tmp_path):
    with pytest.raises(IsADirectoryError) as info:
        load(tmp_path)
    assert str(tmp_path) in str(info.value.filename)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path):
    fifo = tmp_path / "pipe.bloom"
    os.mkfifo(fifo)
    with pytest.raises(FilterFormatError, match="not a regular file"):
        load(fifo)


def test_an_empty_file_is_a_format_error_naming_the_file(tmp_path):
    path = tmp_path / "empty.bloom"
    path.write_bytes(b"")
    with pytest.raises(FilterFormatError) as info:
        load(path)
    assert str(info.value).startswith(str(path))
    assert info.value.path == str(path)
    assert "too short" in info.value.reason


def test_format_error_is_a_value_error():
    assert issubclass(FilterFormatError, ValueError)


def test_extra_bytes_after_the_payload_are_refused(tmp_path):
    path = tmp_path / "f.bloom"
    path.write_bytes(GOLDEN.read_bytes() + b"\0")
    with pytest.raises(FilterFormatError, match="1 unexpected bytes after"):
        load(path)


def test_read_header_checks_the_header_but_not_the_payload(tmp_path):
    data = bytearray(GOLDEN.read_bytes())
    data[-1] ^= 1
    path = tmp_path / "f.bloom"
    path.write_bytes(bytes(data))
    assert read_header(path).m == 64
    with pytest.raises(FilterFormatError, match="CRC32 mismatch"):
        load(path)


def test_a_file_whose_header_and_payload_disagree_after_loading_is_refused(tmp_path):
    # A correct CRC over an impossible state: padding bits past m set in the last byte.
    path = tmp_path / "f.bloom"
    path.write_bytes(build(Spec(m=61, k=3, count=1, payload=bytes(7) + b"\xe0")))
    with pytest.raises(FilterFormatError, match="padding"):
        load(path)


def test_golden_spec_matches_the_layout_helper():
    # The test-side writer must agree with the pinned file, or the corruption tests would test another format.
    spec, _ = parse(GOLDEN.read_bytes())
    assert build(spec) == GOLDEN.read_bytes()
    assert struct.unpack("<H", GOLDEN.read_bytes()[8:10])[0] == storage.VERSION
