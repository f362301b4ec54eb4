"""RedisBloom filters as users really save them, beside the reader's own ``.bfdump`` (formats/redisbloom.py):

- **SCANDUMP pairs as JSON**: ``json.dump([[it, base64.b64encode(data).decode()] for it, data in chunks])``,
  the (iterator, data) pairs ``BF.SCANDUMP`` returned, header first (iterator 1).
- **SCANDUMP chunks concatenated raw**: the header's bytes and then every data chunk's, in the order
  SCANDUMP gave them (it walks the links in order, so the links' bytes follow the header end to end).
- **``DUMP key``**: Redis's serialisation of one value: the type byte (7, a module value with opcodes), the
  module id (the type name ``MBbloom--`` in 6-bit characters and the encoding version, 4), the fields
  ``BFRdbSave`` writes (src/rebloom.c), the end opcode, the RDB version (2 bytes) and a CRC64 (8 bytes).
- **``dump.rdb``**: the whole database file (``REDIS`` + 4-digit version, auxiliary fields, databases, the end
  byte and a CRC64); every ``MBbloom--`` value in it is read, named by its key and database.

``BFRdbSave`` writes, as module opcodes (unsigned: 2 + length, double: 4 + 8 bytes, string: 5 + string): size,
nfilters, options, growth, then per link entries, error, hashes, bpe, bits, n2, the bit array and the link's
item count. Redis lengths and strings are its RDB encodings (1, 2, 5 or 9 bytes; a string may be LZF
compressed, which ``lzf_decompress`` undoes). Other keys of a dump.rdb are skipped by their type; a type this
reader cannot skip (a stream) stops the walk with a message naming it. Pure Python.
"""

from __future__ import annotations

import base64
import binascii
import json
import struct

from bloomviz.formats.common import Source

MODULE_NAME = "MBbloom--"
_CHARSET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
TYPE_MODULE2 = 7
OP_EOF, OP_SINT, OP_UINT, OP_FLOAT, OP_DOUBLE, OP_STRING = 0, 1, 2, 3, 4, 5
MAX_DOC = 1 << 30
_CRC_POLY = 0x95AC9329AC4BC9B5   # Redis's crc64 (Jones), reflected


def _crc_table():
    table = []
    for i in range(256):
        c = i
        for _ in range(8):
            c = (c >> 1) ^ _CRC_POLY if c & 1 else c >> 1
        table.append(c)
    return table


_TABLE = _crc_table()


def crc64(data: bytes, crc: int = 0) -> int:
    for byte in data:
        crc = _TABLE[(crc ^ byte) & 0xFF] ^ (crc >> 8)
    return crc


def module_id(name: str = MODULE_NAME, encver: int = 4) -> int:
    value = 0
    for ch in name:
        value = (value << 6) | _CHARSET.index(ch)
    return (value << 10) | encver


def module_name(mid: int) -> tuple[str, int]:
    encver, value = mid & 1023, mid >> 10
    return "".join(_CHARSET[(value >> (6 * (8 - i))) & 63] for i in range(9)), encver


def lzf_decompress(data: bytes, length: int) -> bytes:
    """liblzf's lzf_decompress (the format Redis writes compressed strings in); ValueError if damaged."""
    out, i, n = bytearray(), 0, len(data)
    while i < n:
        ctrl = data[i]
        i += 1
        if ctrl < 32:
            run = ctrl + 1
            if i + run > n:
                raise ValueError("LZF: a literal run past the end of the data")
            out += data[i:i + run]
            i += run
        else:
            size = ctrl >> 5
            if size == 7:
                if i >= n:
                    raise ValueError("LZF: a back reference past the end of the data")
                size += data[i]
                i += 1
            if i >= n:
                raise ValueError("LZF: a back reference past the end of the data")
            ref = len(out) - ((ctrl & 31) << 8) - data[i] - 1
            i += 1
            if ref < 0:
                raise ValueError("LZF: a back reference before the start")
            for _ in range(size + 2):
                out.append(out[ref])
                ref += 1
        if len(out) > length:
            raise ValueError(f"LZF: more than the {length:,} bytes announced")
    if len(out) != length:
        raise ValueError(f"LZF: {len(out):,} bytes, {length:,} announced")
    return bytes(out)


class Reader:
    """Redis's RDB encodings over a byte string; every overrun is a ValueError naming the offset."""

    def __init__(self, data: bytes, pos: int = 0, limit: int | None = None):
        self.data, self.pos = data, pos
        self.limit = len(data) if limit is None else limit

    def take(self, n: int) -> bytes:
        if n < 0 or self.pos + n > self.limit:
            raise ValueError(f"truncated at byte {self.pos:,}: {n:,} more bytes needed")
        out = self.data[self.pos:self.pos + n]
        self.pos += n
        return out

    def byte(self) -> int:
        return self.take(1)[0]

    def length(self) -> tuple[int, bool]:
        """(value, encoded): a length, or with encoded=True the special string encoding number."""
        first = self.byte()
        kind = first >> 6
        if kind == 0:
            return first & 63, False
        if kind == 1:
            return ((first & 63) << 8) | self.byte(), False
        if kind == 3:
            return first & 63, True
        if first == 0x80:
            return struct.unpack(">I", self.take(4))[0], False
        if first == 0x81:
            return struct.unpack(">Q", self.take(8))[0], False
        raise ValueError(f"byte {self.pos - 1:,}: {first:#x} is not a length")

    def plain_length(self, what: str) -> int:
        value, encoded = self.length()
        if encoded:
            raise ValueError(f"byte {self.pos - 1:,}: {what}: expected a length, found a string encoding")
        return value

    def string(self) -> bytes:
        value, encoded = self.length()
        if not encoded:
            return self.take(value)
        if value in (0, 1, 2):   # an integer written as a string
            return str(int.from_bytes(self.take(1 << value), "little", signed=True)).encode()
        if value == 3:
            packed = self.plain_length("LZF compressed length")
            original = self.plain_length("LZF original length")
            if original > MAX_DOC:
                raise ValueError(f"a compressed string of {original:,} bytes is too large")
            return lzf_decompress(self.take(packed), original)
        raise ValueError(f"byte {self.pos - 1:,}: unknown string encoding {value}")


def module_fields(r: Reader) -> list:
    """The values a module2 value holds, up to its end opcode."""
    out = []
    while True:
        op = r.plain_length("module opcode")
        if op == OP_EOF:
            return out
        if op in (OP_SINT, OP_UINT):
            out.append(r.plain_length("module number"))
        elif op == OP_FLOAT:
            out.append(struct.unpack("<f", r.take(4))[0])
        elif op == OP_DOUBLE:
            out.append(struct.unpack("<d", r.take(8))[0])
        elif op == OP_STRING:
            out.append(r.string())
        else:
            raise ValueError(f"byte {r.pos:,}: unknown module opcode {op}")


def chain_from_fields(fields: list) -> tuple[dict, list[dict], bytes]:
    """(chain, links, the links' bytes end to end) from BFRdbSave's field list (encver 4)."""
    def number(i):
        if i >= len(fields) or not isinstance(fields[i], int):
            raise ValueError(f"field {i}: expected a number where BFRdbSave writes one")
        return fields[i]
    size, nfilters, options, growth = (number(i) for i in range(4))
    if not 1 <= nfilters <= 64 or len(fields) != 4 + 8 * nfilters:
        raise ValueError(f"{nfilters} links and {len(fields)} fields: not what BFRdbSave writes")
    links, raw = [], bytearray()
    for j in range(nfilters):
        at = 4 + 8 * j
        entries, error, hashes, bpe, bits, n2, array, link_size = fields[at:at + 8]
        if not (isinstance(error, float) and isinstance(bpe, float) and isinstance(array, bytes)):
            raise ValueError(f"link {j}: the fields are not BFRdbSave's (number, double, number, double, …)")
        links.append({"bytes": len(array), "bits": bits, "size": link_size, "error": error, "bpe": bpe,
                      "hashes": hashes, "entries": entries, "n2": n2})
        raw += array
    return {"size": size, "nfilters": nfilters, "options": options, "growth": growth}, links, bytes(raw)


def bloom_value(r: Reader, where: str) -> tuple[dict, list[dict], bytes]:
    """A module2 value whose module id is MBbloom--'s (the type byte already read)."""
    name, encver = module_name(r.plain_length("module id"))
    if name != MODULE_NAME:
        raise ValueError(f"{where}: a value of module type {name!r}, not {MODULE_NAME!r} (a RedisBloom filter)")
    if encver > 4:
        raise ValueError(f"{where}: encoding version {encver}; RedisBloom writes 4 and reads no later one")
    return chain_from_fields(module_fields(r))


def is_dump_payload(data: bytes) -> bool:
    if len(data) < 12 or data[0] != TYPE_MODULE2:
        return False
    return crc64(data[:-8]) == int.from_bytes(data[-8:], "little")


def read_dump_payload(src: Source, data: bytes):
    if len(data) < 12 or data[0] != TYPE_MODULE2:
        raise src.fail("not a DUMP payload of a module value (it starts with type byte 7)")
    if crc64(data[:-8]) != int.from_bytes(data[-8:], "little"):
        raise src.fail("DUMP payload: its CRC64 does not match (damaged, or not a DUMP payload)")
    try:
        r = Reader(data, 1, len(data) - 10)
        got = bloom_value(r, "DUMP payload")
        if r.pos != r.limit:
            raise ValueError(f"{r.limit - r.pos:,} bytes after the value")
    except ValueError as exc:
        raise src.fail(f"DUMP payload: {exc}") from None
    return got


_SKIP_ONE_STRING = {0, 9, 10, 11, 12, 13, 16, 17, 20}


def _skip_value(r: Reader, kind: int, key: bytes) -> None:
    if kind in _SKIP_ONE_STRING:
        r.string()
    elif kind in (1, 2, 14):
        for _ in range(r.plain_length("count")):
            r.string()
    elif kind == 4:
        for _ in range(2 * r.plain_length("count")):
            r.string()
    elif kind == 3:
        for _ in range(r.plain_length("count")):
            r.string()
            score = r.byte()        # a double written as text; 253..255 are nan, +inf, -inf with no text
            if score < 253:
                r.take(score)
    elif kind == 5:
        for _ in range(r.plain_length("count")):
            r.string()
            r.take(8)
    elif kind == 18:
        for _ in range(r.plain_length("count")):
            r.plain_length("container")
            r.string()
    elif kind == TYPE_MODULE2:
        r.plain_length("module id")
        module_fields(r)
    else:
        raise ValueError(f"key {key[:60]!r} holds a value of RDB type {kind} (a stream or a module of the first "
                         f"kind), which this reader cannot skip")


def read_rdb(src: Source, data: bytes) -> list[tuple[str, tuple]]:
    """[(name, (chain, links, raw))] for every MBbloom-- value of a dump.rdb, in file order."""
    if not data.startswith(b"REDIS") or not data[5:9].isdigit():
        raise src.fail("not a dump.rdb: it starts with REDIS and a 4-digit version")
    version = int(data[5:9])
    r, db, found = Reader(data, 9), 0, []
    try:
        while True:
            at = r.pos
            op = r.byte()
            if op == 0xFF:
                if version >= 5 and r.limit - r.pos >= 8:
                    stored = int.from_bytes(r.take(8), "little")
                    if stored and stored != crc64(data[:at + 1]):
                        raise ValueError("the file's CRC64 does not match its contents")
                break
            if op == 0xFA:
                r.string(), r.string()
            elif op == 0xFE:
                db = r.plain_length("database number")
            elif op == 0xFB:
                r.plain_length("table size"), r.plain_length("expires size")
            elif op == 0xFC:
                r.take(8)
            elif op == 0xFD:
                r.take(4)
            elif op == 0xF8:
                r.plain_length("idle time")
            elif op == 0xF9:
                r.byte()
            elif op == 0xF4:   # slot info
                r.plain_length("slot"), r.plain_length("size"), r.plain_length("expires")
            elif op in (0xF5, 0xF6):   # functions
                r.string()
            elif op == 0xF7:   # module aux data: a module id, a when, then opcodes
                r.plain_length("module id")
                r.plain_length("when")
                module_fields(r)
            else:
                key = r.string()
                if op == TYPE_MODULE2 and module_name(Reader(data, r.pos).plain_length("module id"))[0] == \
                        MODULE_NAME:
                    name = key.decode("utf-8", "backslashreplace")
                    found.append((f"{name} (db {db})" if db else name, bloom_value(r, f"key {name!r}")))
                else:
                    _skip_value(r, op, key)
    except ValueError as exc:
        raise src.fail(f"dump.rdb: {exc}") from None
    if not found:
        raise src.fail(f"dump.rdb holds no {MODULE_NAME} value (no RedisBloom filter)")
    return found


def read_pairs(src: Source, data: bytes) -> tuple[bytes, list[tuple[int, bytes]]]:
    """(header, [(iterator, data)]) of SCANDUMP pairs saved as JSON."""
    try:
        doc = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise src.fail(f"SCANDUMP pairs: not valid JSON: {exc}") from None
    if not isinstance(doc, list) or not doc:
        raise src.fail("SCANDUMP pairs: expected a JSON list of [iterator, base64] pairs")
    pairs = []
    for i, pair in enumerate(doc):
        if not (isinstance(pair, list) and len(pair) == 2 and isinstance(pair[0], int)
                and not isinstance(pair[0], bool) and isinstance(pair[1], str)):
            raise src.fail(f"SCANDUMP pairs: item {i} is not [iterator, base64 text]")
        try:
            pairs.append((pair[0], base64.b64decode(pair[1], validate=True)))
        except (binascii.Error, ValueError):
            raise src.fail(f"SCANDUMP pairs: item {i}'s data is not base64") from None
    if pairs[0][0] != 1:
        raise src.fail(f"SCANDUMP pairs: the first pair must be the header (iterator 1), not {pairs[0][0]}")
    return pairs[0][1], [p for p in pairs[1:] if p != (0, b"")]


def looks_like_pairs(head: bytes) -> bool:
    text = head.lstrip()
    return text.startswith(b"[") and text[1:].lstrip().startswith(b"[") and b'"' in head and \
        text[1:].lstrip()[1:].lstrip().startswith(b"1")


class BytesSource:
    """What the chunk reader needs of a Source, over bytes already in memory (failures name the real file)."""

    def __init__(self, data: bytes, src: Source):
        self.data, self.src, self.size, self.path = data, src, len(data), src.path

    def fail(self, reason: str):
        return self.src.fail(reason)

    def read_at(self, offset: int, length: int, what: str) -> bytes:
        if offset < 0 or length < 0 or offset + length > self.size:
            raise self.src.fail(f"truncated: {what} needs bytes {offset:,}..{offset + length:,} of {self.size:,}")
        return self.data[offset:offset + length]

    def head(self, n: int) -> bytes:
        return self.data[:n]
