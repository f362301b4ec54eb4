"""Damaged and hostile files are refused with ForeignFormatError (never another exception), in bounded memory.

Per format: every truncation length on a grid, seeded random bit flips and byte overwrites, and headers that
claim absurd sizes. A damaged file may still be a valid one (a flipped bit inside the bit array is just a
different filter); what is demanded is that reading either succeeds with a consistent filter or fails with
the one exception type, and that a claimed size never turns into an allocation.
"""

from __future__ import annotations

import os
import random
import re
import struct
import tracemalloc
from pathlib import Path

import pytest

from bloomviz import formats
from bloomviz.formats import ForeignFormatError
from orc_writer import write_orc
from world_fixtures import FIXTURES

DATA = Path(__file__).parents[1] / "data" / "foreign"
CASES = {  # format -> sample file
    "parquet": "pyarrow-bloom.parquet",
    "guava": "guava-mitz64-utf8.guava",
    "pybloom-live": "pybloom-live-scalable.pybloom",
    "pyprobables": "pyprobables-bloom.blm",
    "bits-and-blooms": "go-bloom.writeto",
    "spark": "spark-v2-strings.spark",
}
CASES_EXTRA = [("parquet", "duckdb-dictionary.parquet"), ("pybloom-live", "pybloom-live-xxh128.pybloom"),
               ("pyprobables", "pyprobables-counting.cbm"), ("pyprobables", "pyprobables-bloom.hex"),
               ("bits-and-blooms", "go-bloom.marshal.json"), ("redisbloom", "redisbloom-scaling.bfdump"),
               ("redisbloom", "redisbloom-split.bfdump"),
               ("spark", "spark-v1-longs.spark")]
# (RedisBloom's absurd headers are in tests/formats/test_format_redisbloom.py, beside the layout they damage.)
# Real files other systems wrote, read in place from ../shared (skipped where absent)
WORLD = [("cassandra", FIXTURES / "cassandra-3.11-iot" / "md-2-big-Filter.db"),
         ("cassandra", FIXTURES / "cassandra-3.x-tiny" / "mb-1-big-Filter.db"),
         ("hudi", FIXTURES / "hudi-footer-bloom" / "v6_nonpartitioned__a079bdb3-731c-4894-b855-abfcd6921007-0_0-182-"
          "253_20240418173550988.parquet")]
ALL = list(CASES.items()) + CASES_EXTRA + [
    pytest.param(fmt, path, marks=pytest.mark.skipif(not path.exists(), reason=f"{path} is absent"))
    for fmt, path in WORLD]


def read_or_refuse(path, fmt: str) -> None:
    try:
        filters = formats.open_filters(path, fmt)
    except ForeignFormatError as exc:
        assert fmt in str(exc) and str(path) in str(exc)
        return
    for f in filters:  # whatever was accepted must be self-consistent
        assert len(f.bits) == f.m and 0 <= f.bits_set <= f.m and f.k >= 1


def _git_commit_graph(path) -> None:
    """A commit-graph with changed-path filters, written by the git binary (skipped where git is absent)."""
    import shutil
    import tempfile
    from git_repos import GIT, make_repo, write_graph
    if GIT is None:
        pytest.skip("the git binary is not installed (Debian: apt-get install git)")
    with tempfile.TemporaryDirectory() as folder:
        repo, _ = make_repo(Path(folder))
        write_graph(repo)
        shutil.copyfile(repo / ".git" / "objects" / "info" / "commit-graph", path)


# Files the real software writes at test time (its writer installed from the test extra, or a Debian tool)
GENERATED = {"orc": lambda path: write_orc(path, rows=1500, stride=500), "git": _git_commit_graph}


@pytest.fixture(params=sorted(GENERATED))
def generated(request, tmp_path):
    path = tmp_path / f"sample.{request.param}"
    GENERATED[request.param](path)
    return request.param, path


def test_generated_files_truncated_and_flipped(tmp_path, generated):
    fmt, sample = generated
    test_truncations(tmp_path, fmt, sample)
    test_bit_flips_and_overwrites(tmp_path, fmt, sample)


@pytest.mark.parametrize("fmt,name", ALL)
def test_truncations(tmp_path, fmt, name):
    raw = (DATA / name).read_bytes()
    path = tmp_path / "cut"
    grid = set(range(0, len(raw), max(1, len(raw) // 40)))
    cuts = sorted({0, 1, 2, 5, 8, 12, 20, 40, len(raw) // 2, len(raw) - 1} | grid)
    for n in cuts:
        if raw[:n].rstrip() == raw.rstrip():   # only a hex export's final newline was cut
            continue
        path.write_bytes(raw[:n])
        with pytest.raises(ForeignFormatError):
            formats.open_filters(path, fmt)


def mutated(raw: bytes, rng: random.Random) -> bytes:
    """A few bits flipped or bytes overwritten, mostly in the header and footer, where structure lives (also the
    window walk's mutator, tests/walk_inputs.py)."""
    hot = list(range(min(64, len(raw)))) + list(range(max(0, len(raw) - 600), len(raw)))
    data = bytearray(raw)
    for _ in range(rng.choice((1, 1, 2, 4))):
        i = rng.choice(hot) if rng.random() < 0.8 else rng.randrange(len(data))
        data[i] = rng.randrange(256) if rng.random() < 0.3 else data[i] ^ (1 << rng.randrange(8))
    return bytes(data)


@pytest.mark.parametrize("fmt,name", ALL)
def test_bit_flips_and_overwrites(tmp_path, fmt, name):
    raw = (DATA / name).read_bytes()
    rng = random.Random(f"{fmt}-{name}")
    path = tmp_path / "flipped"
    for trial in range(300):
        path.write_bytes(mutated(raw, rng))
        read_or_refuse(path, fmt)


def _absurd(fmt: str) -> list[tuple[bytes, str]]:
    """(file bytes, the refusal expected) for headers claiming sizes no file of this one's size can hold."""
    if fmt == "guava":
        return [(struct.pack(">bBi", 1, 7, 0x7FFFFFFF) + b"\0" * 8, "outside 1..2**34"),
                (struct.pack(">bBi", 1, 7, -5) + b"\0" * 8, "word count -5"),
                (struct.pack(">bBi", 1, 0, 1) + b"\0" * 8, "k = 0"),
                (struct.pack(">bBi", 9, 3, 1) + b"\0" * 8, "unknown strategy ordinal 9")]
    if fmt == "pybloom-live":
        return [(struct.pack("<dQQQQ", 0.01, 7, 1 << 60, 10, 0) + b"\0" * 16, "outside 1..2**34"),
                (struct.pack("<dQQQQ", 0.01, 1 << 40, 8, 10, 0) + b"\0" * 16, "hash functions is outside"),
                (struct.pack("<idQdl", 2, 0.9, 10, 0.01, 0x7FFFFFFF) + b"\0" * 64, "link count 2147483647"),
                (struct.pack("<idQdl", 2, 0.9, 10, 0.01, 2) + struct.pack("<QQ", 1 << 62, 1 << 62) + b"\0" * 64,
                 "link table announces")]
    if fmt == "bits-and-blooms":
        return [(struct.pack(">QQQ", 1 << 40, 7, 1 << 40) + b"\0" * 64, "outside 1..2**34"),
                (struct.pack(">QQQ", 1000, 7, 1000) + b"\0" * 64, "it has 88"),
                (b'{"m": 1000, "k": 7, "b": "' + b"A" * 64 + b'"}', "length field does not match"),
                (b'{"m": 99999999999999, "k": 7, "b": ""}', "outside 1..2**34"),
                (b'{"m": ' + b"[" * 100000 + b"]" * 100000 + b"}", "not valid JSON")]
    if fmt == "spark":
        return [(struct.pack(">iii", 1, 5, 0x7FFFFFFF) + b"\0" * 8, "word count 2,147,483,647"),
                (struct.pack(">iiii", 2, 5, 0, -3) + b"\0" * 8, "word count -3"),
                (struct.pack(">iii", 1, 0, 1) + b"\0" * 8, "k = 0"),
                (struct.pack(">iii", 3, 5, 1) + b"\0" * 8, "version 3 is not 1 or 2")]
    if fmt == "cassandra":
        return [(struct.pack(">ii", 5, 0x7FFFFFFF) + b"\0" * 8, "word count 2,147,483,647"),
                (struct.pack(">ii", 5, -1) + b"\0" * 8, "word count -1"),
                (struct.pack(">ii", 0, 1) + b"\0" * 8, "hash count 0"),
                (struct.pack(">ii", 1 << 30, 1) + b"\0" * 8, "hash count 1073741824")]
    if fmt == "pyprobables":
        return [(b"\0" * 64 + struct.pack("<QQf", (1 << 63), 0, 1e-30), "outside 1..2**34"),
                (b"\0" * 8 + struct.pack("<QQf", 10, 0, 0.0), "usable m and k"),
                (b"\0" * 8 + struct.pack("<QQf", 1, 0, 0.9), "the file has 28 bytes"),
                (b"ab" * 30 + struct.pack(">QQf", 1 << 62, 0, 0.01).hex().encode(), "outside 1..2**34")]
    # Parquet: a footer length beyond the file, a Thrift list claiming 2**31 elements, a numBytes of 2 GiB
    huge_list = b"\x19\xfc" + b"\xff\xff\xff\xff\x07" + b"\x00"
    # numBytes = 2**31 - 1 (zigzag varint), then algorithm, hash, compression: each {1: {}}
    header = b"\x15" + b"\xfe\xff\xff\xff\x0f" + b"\x1c\x1c\x00\x00" * 3 + b"\x00"
    footer = _footer_with_filter(offset=4, length=None)
    return [(b"PAR1" + struct.pack("<I", 0x7FFFFFF0) + b"PAR1", "footer length"),
            (b"PAR1" + huge_list + struct.pack("<I", len(huge_list)) + b"PAR1", "cannot fit"),
            (b"PAR1" + header + footer + struct.pack("<I", len(footer)) + b"PAR1", "numBytes 2,147,483,647")]


def _footer_with_filter(offset: int, length: int | None) -> bytes:
    """A minimal FileMetaData: one row group, one INT64 column 'x' whose filter is at ``offset``."""
    def zz(n: int) -> bytes:
        n = (n << 1) ^ (n >> 63)
        out = bytearray()
        while True:
            b = n & 0x7F
            n >>= 7
            out.append(b | (0x80 if n else 0))
            if not n:
                return bytes(out)
    # field 1 type (i32), field 3 path_in_schema (list of one binary), field 14 (long form: id as zigzag i16)
    cmeta = b"\x15" + zz(2) + b"\x29\x18\x01x" + b"\x06" + zz(14) + zz(offset)
    if length is not None:
        cmeta += b"\x15" + zz(length)
    cmeta += b"\x00"
    chunk = b"\x3c" + cmeta + b"\x00"
    group = b"\x19\x1c" + chunk + b"\x16" + zz(0) + b"\x16" + zz(1) + b"\x00"
    return b"\x15" + zz(1) + b"\x39\x1c" + group + b"\x00"


@pytest.mark.parametrize("fmt", [*CASES, "cassandra"])
def test_absurd_sizes_are_refused_without_allocating(tmp_path, fmt):
    path = tmp_path / "absurd"
    for i, (raw, reason) in enumerate(_absurd(fmt)):
        refused_without_allocating(path, fmt, raw, reason, i)


def refused_without_allocating(path, fmt: str, raw: bytes, reason: str, case: int) -> None:
    """``raw`` written to ``path`` and opened as ``fmt`` is refused for ``reason`` with under 4 MiB allocated."""
    path.write_bytes(raw)
    tracemalloc.start()
    try:
        with pytest.raises(ForeignFormatError, match=re.escape(reason)):
            formats.open_filters(path, fmt)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 4 << 20, f"case {case}: peak {peak:,} bytes"


@pytest.mark.parametrize("fmt", list(formats.FORMATS))
def test_non_regular_files_refused_before_opening(tmp_path, fmt):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)   # opening a FIFO for reading would block forever without a writer
    options = {"k": 3} if fmt == "raw" else {}
    with pytest.raises(ForeignFormatError, match="FIFO"):
        formats.open_filters(fifo, fmt, **options)
    with pytest.raises(ForeignFormatError, match="directory"):
        formats.open_filters(tmp_path, fmt, **options)
    with pytest.raises(ForeignFormatError, match="character device"):
        formats.open_filters("/dev/zero", fmt, **options)
    with pytest.raises(FileNotFoundError):
        formats.open_filters(tmp_path / "missing", fmt, **options)


def test_detection_refuses_unknown_and_bloomviz_files(tmp_path):
    path = tmp_path / "noise"
    path.write_bytes(bytes(range(256)) * 3)
    assert formats.detect(path) is None
    with pytest.raises(ForeignFormatError, match="--format"):
        formats.open_filters(path)
    golden = Path(__file__).parents[1] / "data" / "golden-v1.bloom"
    assert formats.detect(golden) == "bloomviz"
