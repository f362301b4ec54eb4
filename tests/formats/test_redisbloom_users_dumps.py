"""RedisBloom filters as users save them: SCANDUMP pairs as JSON, the chunks concatenated raw, a ``DUMP key``
payload and a dump.rdb with ``MBbloom--`` values among other keys.

No Redis with the RedisBloom module can be installed here (Debian's redis-server 7.0 has no RedisBloom, and
neither PyPI nor Debian offers redis-stack or the module), so:
- the JSON pairs and the concatenated chunks repackage the chunks a real Redis 2.8.2 RedisBloom server dumped
  (tests/data/foreign/redisbloom-*.bfdump, see test_format_redisbloom.py), exactly as the two common scripts
  save them;
- the DUMP payload and the dump.rdb are laid out here from RedisBloom's source (src/rebloom.c ``BFRdbSave``:
  module opcodes, encoding version 4, type name MBbloom--) in Redis's RDB encodings (lengths, LZF-compressed
  strings, CRC64 Jones, checked against Redis's own test vector), with the same links.
Every reading must give the bits of the server's dump and the answers the server gave (BF.MEXISTS).
"""

from __future__ import annotations

import base64
import json
import struct
from pathlib import Path

import pytest

from bloomviz import cli, formats
from bloomviz.formats import redisbloom
from bloomviz.formats import redisbloom_dumps as dumps
from bloomviz.formats.redisbloom import CHAIN, LINK, MAGIC, RECORD

DATA = Path(__file__).parents[1] / "data" / "foreign"
SAMPLES = ["redisbloom-scaling", "redisbloom-nonscaling", "redisbloom-split", "redisbloom-legacy32"]


def server_chunks(name):
    raw = (DATA / f"{name}.bfdump").read_bytes()
    at = len(MAGIC) if raw.startswith(MAGIC) else 0
    pairs = []
    while at < len(raw):
        it, length = RECORD.unpack_from(raw, at)
        pairs.append((it, raw[at + RECORD.size:at + RECORD.size + length]))
        at += RECORD.size + length
    return pairs


# --- Redis's RDB encodings, as src/rdb.c writes them ------------------------------------------------------------
def rdb_len(n):
    if n < 64:
        return bytes([n])
    if n < 16384:
        return bytes([0x40 | n >> 8, n & 255])
    if n <= 0xFFFFFFFF:
        return b"\x80" + struct.pack(">I", n)
    return b"\x81" + struct.pack(">Q", n)


def lzf_compress(data):
    """A greedy LZF compressor (liblzf's format): enough to write what Redis writes for a sparse bit array."""
    out, lit, table, i = bytearray(), bytearray(), {}, 0

    def flush():
        nonlocal lit
        while lit:
            out.append(len(lit[:32]) - 1)
            out.extend(lit[:32])
            lit = lit[32:]
    while i < len(data):
        key = data[i:i + 3]
        ref = table.get(key) if len(key) == 3 else None
        table[key] = i
        if ref is not None and i - ref - 1 < 8192:
            n = 3
            while i + n < len(data) and n < 264 and data[ref + n] == data[i + n]:
                n += 1
            flush()
            off, size = i - ref - 1, n - 2
            out += bytes([(min(size, 7) << 5) | off >> 8]) + (bytes([size - 7]) if size >= 7 else b"") + \
                bytes([off & 255])
            i += n
        else:
            lit.append(data[i])
            i += 1
    flush()
    return bytes(out)


def rdb_string(data):
    if len(data) > 20:   # rdbSaveRawString: LZF when it saves space
        packed = lzf_compress(data)
        if len(packed) < len(data) - 4:
            return b"\xc3" + rdb_len(len(packed)) + rdb_len(len(data)) + packed
    return rdb_len(len(data)) + data


def bf_rdb_save(pairs):
    """The module value BFRdbSave writes, from a chain's SCANDUMP header and chunks."""
    header = pairs[0][1]
    size, nfilters, options, growth = CHAIN.unpack_from(header)
    links = [LINK.unpack_from(header, CHAIN.size + i * LINK.size) for i in range(nfilters)]
    body = bytearray(sum(link[0] for link in links))
    for it, data in pairs[1:]:
        body[it - len(data) - 1:it - 1] = data
    uint = lambda n: rdb_len(2) + rdb_len(n)                       # noqa: E731
    double = lambda x: rdb_len(4) + struct.pack("<d", x)           # noqa: E731
    out = rdb_len(dumps.module_id()) + uint(size) + uint(nfilters) + uint(options) + uint(growth)
    first = 0
    for nbytes, bits, link_size, error, bpe, hashes, entries, n2 in links:
        out += uint(entries) + double(error) + uint(hashes) + double(bpe) + uint(bits) + uint(n2)
        out += rdb_len(5) + rdb_string(bytes(body[first:first + nbytes])) + uint(link_size)
        first += nbytes
    return out + rdb_len(0)


def dump_payload(pairs):
    body = bytes([7]) + bf_rdb_save(pairs) + struct.pack("<H", 11)
    return body + struct.pack("<Q", dumps.crc64(body))


def dump_rdb(named_pairs):
    out = b"REDIS0011" + b"\xfa" + rdb_string(b"redis-ver") + rdb_string(b"7.2.4") + b"\xfe\x00"
    out += b"\xfb" + rdb_len(len(named_pairs) + 3) + rdb_len(0)
    out += b"\x00" + rdb_string(b"greeting") + rdb_string(b"hello " * 10)                    # a string
    out += b"\x04" + rdb_string(b"user:1") + rdb_len(1) + rdb_string(b"name") + rdb_string(b"Ana")  # a hash
    out += b"\x03" + rdb_string(b"scores") + rdb_len(2) + rdb_string(b"a") + b"\x031.5" + rdb_string(b"b") + b"\xfe"
    for name, pairs in named_pairs:
        out += b"\x07" + rdb_string(name.encode()) + bf_rdb_save(pairs)
    out += b"\xff"
    return out + struct.pack("<Q", dumps.crc64(out))


def answers_match(flt, name):
    truth = json.loads((DATA / f"{name}.json").read_text())
    assert all(flt.positions(x).maybe_present for x in truth["items"])
    probes = [f"probe-{i}" for i in range(2000)]   # the probes BF.MEXISTS was asked
    present = [p for p in probes if flt.positions(p).maybe_present]
    assert present == truth["probes_present"]


def reference(name):
    return formats.open_filters(DATA / f"{name}.bfdump", "redisbloom")[0]


@pytest.mark.parametrize("name", SAMPLES)
def test_scandump_pairs_as_json(tmp_path, name):
    path = tmp_path / "users.json"
    path.write_text(json.dumps([[it, base64.b64encode(d).decode()] for it, d in server_chunks(name)]))
    assert formats.detect(path) == "redisbloom"
    (flt,) = formats.open_filters(path)
    assert flt.bits == reference(name).bits and flt.fields["kind"] == "SCANDUMP pairs (JSON)"
    answers_match(flt, name)


@pytest.mark.parametrize("name", SAMPLES)
def test_scandump_chunks_concatenated(tmp_path, name):
    pairs = server_chunks(name)
    path = tmp_path / "users.bin"
    path.write_bytes(b"".join(d for _, d in sorted(pairs[:1]) + sorted(pairs[1:])))
    assert formats.detect(path) == "redisbloom"
    (flt,) = formats.open_filters(path)
    assert flt.bits == reference(name).bits
    answers_match(flt, name)


@pytest.mark.parametrize("name", SAMPLES)
def test_a_dump_key_payload(tmp_path, name):
    path = tmp_path / "users.dump"
    path.write_bytes(dump_payload(server_chunks(name)))
    assert formats.detect(path) == "redisbloom"
    (flt,) = formats.open_filters(path)
    assert flt.bits == reference(name).bits and flt.fields["kind"] == "DUMP payload"
    answers_match(flt, name)


def test_a_dump_rdb_with_other_keys(tmp_path, capsys):
    path = tmp_path / "dump.rdb"
    path.write_bytes(dump_rdb([("seen:users", server_chunks("redisbloom-scaling")),
                               ("seen:legacy", server_chunks("redisbloom-legacy32"))]))
    assert formats.detect(path) == "redisbloom"
    scaling, legacy = formats.open_filters(path)
    assert scaling.label.startswith("seen:users") and legacy.label.startswith("seen:legacy")
    answers_match(scaling, "redisbloom-scaling")
    answers_match(legacy, "redisbloom-legacy32")
    assert cli.main(["check", "--filter", "0", str(path), "item-5"]) == 0
    capsys.readouterr()


def test_damaged_dumps_are_refused_in_one_line(tmp_path):
    good = dump_payload(server_chunks("redisbloom-scaling"))
    path = tmp_path / "bad.dump"
    path.write_bytes(good[:-1] + bytes([good[-1] ^ 1]))
    with pytest.raises(formats.ForeignFormatError, match="CRC64"):
        formats.open_filters(path, "redisbloom")
    rdb = dump_rdb([("x", server_chunks("redisbloom-scaling"))])
    path.write_bytes(rdb[:len(rdb) // 2])
    with pytest.raises(formats.ForeignFormatError, match="dump.rdb"):
        formats.open_filters(path, "redisbloom")


def test_crc64_and_lzf_are_redis_own():
    assert dumps.crc64(b"123456789") == 0xE9C6D914C4B8D9CA      # Redis's crc64 test vector
    data = bytes(500) + b"abc" * 40 + bytes(range(256))
    assert dumps.lzf_decompress(lzf_compress(data), len(data)) == data
    assert redisbloom.sniff(b"REDIS0011\xfa", b"", 100)
