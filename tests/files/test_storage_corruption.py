"""Thousands of damaged and hostile .bloom files, generated deterministically: every one must raise
FilterFormatError (and nothing else), name the file, and cost no memory beyond a small multiple of its size."""

from __future__ import annotations

import os
import random
import struct
import tempfile
import tracemalloc
from pathlib import Path

import pytest

from bloomviz.filters import persist
from bloomviz.files import storage
from bloomviz.items.encoding import random_items
from bloomviz.files.storage import FilterFormatError, load, read_header
from bloomviz.filters.registry import make_filter

from bloom_layout import MAGIC, Spec, build, fix_crc, header_size, parse

# A load may hold the file's bytes a few times over (payload, its copy into bits, a variant's unpacked form: a
# counting filter's counters take 8/c bytes per payload byte) plus a fixed amount for exceptions and messages.
MEMORY_FACTOR = 16
MEMORY_SLACK = 64 * 1024

BASES = {
    "standard": dict(m=61, k=3),  # 61: the last payload byte has padding bits
    "counting": dict(m=50, k=3, counter_bits=4),
    "scalable": dict(initial_capacity=6, p=0.1),
    "partitioned": dict(m=60, k=4),
    "blocked": dict(m=128, k=3, block_bits=64),
}


def base_files(tmp_path) -> dict[str, bytes]:
    out = {}
    for variant, params in BASES.items():
        flt = make_filter(variant, **params)
        flt.update(random_items(15, seed=2))  # a scalable filter then has two stages
        path = tmp_path / f"base-{variant}.bloom"
        storage.save(flt, path)
        out[variant] = path.read_bytes()
    return out


def field_values(width: int) -> list[int]:
    """0, all ones (−1), the top bit alone (2^63 for a u64) and 2^64 − 1 cut to the field's width."""
    top = (1 << (8 * width)) - 1
    return sorted({0, top, 1 << (8 * width - 1), (2 ** 64 - 1) & top, 2 ** 63 & top})


def set_field(data: bytes, offset: int, width: int, value: int) -> bytes:
    return data[:offset] + value.to_bytes(width, "little") + data[offset + width:]


def corrupt_cases(bases: dict[str, bytes]) -> tuple[dict[bytes, str], dict[bytes, str]]:
    """(cases, checked): every damaged file with a label; ``checked`` holds those whose CRC is correct, so a
    header or state check (not the CRC) must be what refuses them."""
    cases: dict[bytes, str] = {}
    checked: dict[bytes, str] = {}

    originals = set(bases.values())

    def add(data: bytes, label: str, crc_ok: bool = False) -> None:
        if data not in cases and data not in originals:
            cases[data] = label
            if crc_ok:
                checked[data] = label

    rng = random.Random(20240611)
    for variant, data in bases.items():
        size = header_size(data)
        spec, fields = parse(data)
        payload_len = len(data) - size
        # Truncated at every header offset and at some payload offsets.
        for cut in range(size + 1):
            add(data[:cut], f"{variant}: truncated at {cut}")
        for cut in sorted(rng.sample(range(size + 1, len(data)), min(8, payload_len - 1))):
            add(data[:cut], f"{variant}: truncated in the payload at {cut}")
        add(data + b"\0", f"{variant}: a byte appended")
        add(data + data, f"{variant}: the file twice")
        # One bit flipped: every bit of the header (partitioned and blocked share the others' header shapes, so
        # one bit per byte for them), and sampled payload bits.
        every_bit = variant in ("standard", "counting", "scalable")
        for offset in range(size):
            for bit in range(8) if every_bit else (offset % 8,):
                flipped = bytearray(data)
                flipped[offset] ^= 1 << bit
                add(bytes(flipped), f"{variant}: bit {bit} of header byte {offset} flipped")
        for offset in rng.sample(range(size, len(data)), min(16, payload_len)):
            flipped = bytearray(data)
            flipped[offset] ^= 1 << rng.randrange(8)
            add(bytes(flipped), f"{variant}: payload byte {offset} flipped")
        # Every numeric field set to 0, −1 (all ones) and huge: once with the stored CRC, once with a correct one.
        for name, offset, width in fields:
            for value in field_values(width):
                changed = set_field(data, offset, width, value)
                if changed == data:
                    continue
                add(changed, f"{variant}: {name} = {value:#x}")
                if name in ("crc", "version") or name.endswith("length") or name.endswith("type"):
                    continue  # structural fields: the CRC is not what would catch them anyway
                if name == "count" and value == 0 and variant != "scalable":
                    continue  # an insert count of 0 is a legitimate value for a filter without a stage table
                add(fix_crc(changed, size), f"{variant}: {name} = {value:#x}, CRC recomputed", crc_ok=True)
        # Bad magic, versions this reader does not know, ids it does not know or cannot accept.
        for magic in (b"BLOOMVZ\x01", b"bloomvz\x00", b"\x00" * 8, b"PK\x03\x04\x00\x00\x00\x00", MAGIC[::-1]):
            add(build(Spec(**{**vars(spec), "magic": magic})), f"{variant}: magic {magic!r}", crc_ok=True)
        for version in (0, 2, 3, 0x100, 0xFFFF):
            add(build(Spec(**{**vars(spec), "version": version, "crc": None})), f"{variant}: version {version}",
                crc_ok=True)
        for bad in (b"Standard", b"bogus", b"x" * 32, b"standard\x00", b"st andard", "standärd".encode(), b"\xff",
                    b"standard" * 5):
            add(build(Spec(**{**vars(spec), "variant": bad, "crc": None})), f"{variant}: variant id {bad!r}",
                crc_ok=True)
            add(build(Spec(**{**vars(spec), "scheme": bad, "crc": None})), f"{variant}: scheme id {bad!r}",
                crc_ok=True)
        for length in (0, 33, 64, 255):
            add(build(Spec(**{**vars(spec), "variant_len": length, "crc": None})),
                f"{variant}: variant id length {length}", crc_ok=True)
            add(build(Spec(**{**vars(spec), "scheme_len": length, "crc": None})),
                f"{variant}: scheme id length {length}", crc_ok=True)
        # Parameters: missing, extra, duplicated, mistyped, not finite, too many.
        extra = (b"zeta", b"i", struct.pack("<q", 1))
        param_sets = {"one extra": spec.params + [extra], "17 params": [extra] * 17,
                      "none": [], "doubled": spec.params + spec.params[:1]}
        if spec.params:
            name, tag, raw = spec.params[0]
            other = b"f" if tag == b"i" else b"i"
            param_sets.update({
                "first mistyped": [(name, other, raw)] + spec.params[1:],
                "first tag 'x'": [(name, b"x", raw)] + spec.params[1:],
                "first named ''": [(b"", tag, raw)] + spec.params[1:],
                "first renamed": [(name.upper(), tag, raw)] + spec.params[1:],
            })
            for value in (float("nan"), float("inf"), -float("inf")):
                floats = [(n, b"f", struct.pack("<d", value)) if t == b"f" else (n, t, r) for n, t, r in spec.params]
                if floats != spec.params:
                    param_sets[f"floats = {value}"] = floats
        for label, params in param_sets.items():
            add(build(Spec(**{**vars(spec), "params": params, "crc": None})), f"{variant}: params {label}",
                crc_ok=True)
        # Sizes that promise far more than the file holds, with a correct CRC.
        for m, length in ((2 ** 34, 2 ** 31), (2 ** 34, len(spec.payload)), (2 ** 34 + 1, 2 ** 31 + 1),
                          (2 ** 31, 2 ** 28), (2 ** 64 - 1, 2 ** 61)):
            add(build(Spec(**{**vars(spec), "m": m, "payload_length": length, "crc": None})),
                f"{variant}: m = {m}, payload length {length}", crc_ok=True)
        add(build(Spec(**{**vars(spec), "payload_length": 2 ** 64 - 1, "crc": None})),
            f"{variant}: payload length 2^64 - 1", crc_ok=True)
        add(build(Spec(**{**vars(spec), "payload": spec.payload[:-1], "crc": None})),
            f"{variant}: payload one byte short, lengths agreeing", crc_ok=True)
        add(build(Spec(**{**vars(spec), "payload": spec.payload + b"\0", "crc": None})),
            f"{variant}: payload one byte long, lengths agreeing", crc_ok=True)
        add(build(Spec(**{**vars(spec), "k": 65, "crc": None})), f"{variant}: k = 65", crc_ok=True)
        # Random bytes after a valid prefix (magic, magic + version, the whole header up to the params).
        prefixes = [MAGIC, MAGIC + b"\x01\x00", data[:fields[6][1]]]
        for i in range(60):
            prefix = prefixes[i % len(prefixes)]
            add(prefix + rng.randbytes(rng.randrange(0, 200)), f"{variant}: random tail {i}")

    # Random blobs of many lengths.
    for i in range(200):
        length = rng.choice([0, 1, 7, 8, 9, 10, 16, 63, 64, 100, 1000, 5000, rng.randrange(0, 3000)])
        add(rng.randbytes(length), f"random blob {i} ({length} bytes)")
    # An explicitly huge claim in a tiny file, for every variant's parameter shape (standard: 2^34 bits).
    for variant, data in bases.items():
        spec, _ = parse(data)
        add(build(Spec(**{**vars(spec), "m": 2 ** 34, "payload": b"", "payload_length": None, "crc": None})),
            f"{variant}: m = 2^34 and an empty payload", crc_ok=True)
    # A state that parses but is inconsistent: counting counters above 2^c − 1 cannot happen, but a scalable
    # stage table can lie about its stages.
    spec, _ = parse(bases["scalable"])
    bad_table = bytearray(spec.payload)
    bad_table[8] = 0  # stage 0's k
    add(build(Spec(**{**vars(spec), "payload": bytes(bad_table), "crc": None})), "scalable: stage 0 has k = 0",
        crc_ok=True)
    spec, _ = parse(bases["standard"])
    add(build(Spec(**{**vars(spec), "payload": spec.payload[:-1] + b"\xff", "crc": None})),
        "standard: padding bits set", crc_ok=True)
    return cases, checked


@pytest.fixture(scope="module")
def scratch_dir(tmp_path_factory):
    # Thousands of rewrites of one small file: a RAM-backed directory keeps that fast where one exists.
    shm = Path("/dev/shm")
    if shm.is_dir() and os.access(shm, os.W_OK):
        with tempfile.TemporaryDirectory(dir=shm, prefix="bloomviz-test-") as name:
            yield Path(name)
    else:
        yield tmp_path_factory.mktemp("corrupt")


@pytest.fixture(scope="module")
def corpus(scratch_dir):
    tmp = scratch_dir
    bases = base_files(tmp)
    for variant, data in bases.items():  # the bases themselves are good: the damage is what the cases add
        path = tmp / "check.bloom"
        path.write_bytes(data)
        assert load(path).variant == variant
    cases, checked = corrupt_cases(bases)
    return tmp, bases, cases, checked


def test_there_are_over_a_thousand_distinct_cases(corpus):
    _, bases, cases, checked = corpus
    assert len(cases) >= 1000
    assert len(checked) >= 200
    assert not set(bases.values()) & set(cases)


def test_every_damaged_file_raises_filter_format_error_within_a_memory_bound(corpus):
    tmp, _, cases, checked = corpus
    path = tmp / "case.bloom"
    failures = []
    header_refusals = 0
    tracemalloc.start()
    try:
        for data, label in cases.items():
            path.write_bytes(data)
            tracemalloc.reset_peak()
            base = tracemalloc.get_traced_memory()[0]
            try:
                load(path)
            except FilterFormatError as exc:
                peak = tracemalloc.get_traced_memory()[1] - base
                if peak > MEMORY_FACTOR * len(data) + MEMORY_SLACK:
                    failures.append(f"{label}: peak {peak} bytes for a {len(data)}-byte file")
                if not str(exc).startswith(str(path)) or exc.path != str(path):
                    failures.append(f"{label}: the message does not name the file: {exc}")
                if data in checked and "CRC32 mismatch" in str(exc):
                    failures.append(f"{label}: only the CRC caught it: {exc}")
            except Exception as exc:  # noqa: BLE001 - the point is that nothing else escapes
                failures.append(f"{label}: {type(exc).__name__}: {exc}")
            else:
                failures.append(f"{label}: loaded without error")
            # read_header checks the same header; only payload damage (or a changed CRC field) gets past it.
            try:
                header = read_header(path)
            except FilterFormatError:
                header_refusals += 1
            except Exception as exc:  # noqa: BLE001
                failures.append(f"{label}: read_header raised {type(exc).__name__}: {exc}")
            else:
                if header.size + header.payload_length != len(data):
                    failures.append(f"{label}: read_header accepted a header that does not fit the file")
    finally:
        tracemalloc.stop()
    assert failures == [], f"{len(failures)} of {len(cases)} cases failed, e.g.:\n" + "\n".join(failures[:20])
    assert header_refusals >= 0.8 * len(cases)


@pytest.mark.parametrize("variant", list(BASES))
def test_payload_changes_under_a_correct_crc_load_as_that_filter_or_raise_format_error(scratch_dir, variant):
    # With the CRC made to match, only the variant's own state checks stand between a changed payload and a
    # filter: each change must either give a consistent filter or a FilterFormatError, never another error.
    data = base_files(scratch_dir)[variant]
    size = header_size(data)
    path = scratch_dir / f"payload-{variant}.bloom"
    outcomes = {"loaded": 0, "refused": 0}
    for offset in range(size, len(data)):
        for mask in (0x01, 0x80, 0xFF):
            changed = bytearray(data)
            changed[offset] ^= mask
            path.write_bytes(fix_crc(bytes(changed), size))
            try:
                flt = load(path)
            except FilterFormatError:
                outcomes["refused"] += 1
            else:
                outcomes["loaded"] += 1
                header = read_header(path)
                assert (flt.variant, flt.m, flt.k, len(flt)) == (header.variant, header.m, header.k, header.count)
                assert persist.payload_of(flt) == bytes(changed[size:])
    assert outcomes["loaded"] + outcomes["refused"] == 3 * (len(data) - size)
    if variant == "scalable":
        assert outcomes["refused"] > 0  # the stage table is checked against the header


@pytest.mark.parametrize("variant", list(BASES))
def test_a_tiny_file_claiming_2_to_the_34_bits_is_refused_before_allocating(tmp_path, variant):
    spec, _ = parse(base_files(tmp_path)[variant])
    data = build(Spec(**{**vars(spec), "m": 2 ** 34, "payload_length": 2 ** 31, "crc": None}))
    path = tmp_path / "huge.bloom"
    path.write_bytes(data)
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        with pytest.raises(FilterFormatError) as info:
            load(path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < MEMORY_SLACK
    assert "payload" in info.value.reason


def test_messages_say_what_was_wrong(tmp_path):
    spec, fields = parse(base_files(tmp_path)["standard"])
    path = tmp_path / "f.bloom"
    expectations = {
        "not a .bloom file": build(Spec(**{**vars(spec), "magic": b"GIF89a\x00\x00"})),
        "unsupported format version 2": build(Spec(**{**vars(spec), "version": 2, "crc": None})),
        "unknown filter variant 'bogus'": build(Spec(**{**vars(spec), "variant": b"bogus", "crc": None})),
        "unknown hash scheme 'md5'": build(Spec(**{**vars(spec), "scheme": b"md5", "crc": None})),
        "m=0 is out of range": build(Spec(**{**vars(spec), "m": 0, "crc": None})),
        "k=65 is out of range": build(Spec(**{**vars(spec), "k": 65, "crc": None})),
        "claims 200 bytes": build(Spec(**{**vars(spec), "variant_len": 200, "crc": None})),
        "payload length 9 ": build(Spec(**{**vars(spec), "payload_length": 9, "crc": None})),
        "CRC32 mismatch": build(Spec(**{**vars(spec), "crc": spec.crc ^ 1})),
        "truncated": build(spec)[:20],
    }
    for words, data in expectations.items():
        path.write_bytes(data)
        with pytest.raises(FilterFormatError) as info:
            load(path)
        assert words in str(info.value), (words, str(info.value))
