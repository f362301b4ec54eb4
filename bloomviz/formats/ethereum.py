"""Ethereum ``logsBloom``: the 2048-bit filter in every block header and every transaction receipt.

Layout (the Yellow Paper, section 4.3.1, M3:2048; go-ethereum ``core/types/bloom9.go``): 256 bytes, written in
JSON-RPC as "0x" and 512 hex digits, read as one big-endian 2048-bit number. An entry is hashed with
Keccak-256 (the original Keccak padding, not NIST's SHA3-256: ``hashlib.sha3_256`` gives other digests); each
of the digest's first three byte pairs, read big-endian, names bit (pair & 2047) of that number: k = 3, m = 2048.
bloomviz's bit i is the number's bit i (the byte order reversed, then least significant bit first).

Members are each log's emitting contract address (20 bytes) and each of its topics (32 bytes), as raw bytes:
an item written ``0x…`` is those bytes (the way every Ethereum tool writes them); any other item is its UTF-8.
A block's bloom is the OR of its receipts' blooms.

Files read: a JSON-RPC response or its ``result`` (a block from ``eth_getBlockByNumber``/``ByHash``, a receipt
from ``eth_getTransactionReceipt``, or the list ``eth_getBlockReceipts`` returns: one filter per receipt), or a
text file holding just "0x" and the 512 hex digits. Not read: the block's transactions, logs' data fields, RLP.
"""

from __future__ import annotations

import json

from bloomviz.formats.common import ForeignFilter, ForeignLookup, Source, bits_at, bits_from_words

NAME = "ethereum"
TITLE = "Ethereum logsBloom (block header or receipt)"
M, K = 2048, 3
HEX_DIGITS = 512
MAX_JSON_BYTES = 64 << 20       # a block with full transactions is a few MiB; a block's receipts tens
KEY = b'"logsBloom"'


def sniff(head: bytes, tail: bytes, size: int) -> bool:
    text = head.strip()
    if text[:2] in (b"0x", b"0X") and len(text) == 2 + HEX_DIGITS and size <= 2 + HEX_DIGITS + 4:
        return _is_hex(text[2:].decode("ascii", "replace"))
    return text[:1] in (b"{", b"[") and (KEY in head or KEY in tail)


def _is_hex(text: str) -> bool:
    return all(c in "0123456789abcdefABCDEF" for c in text)


def keccak256(data: bytes) -> bytes:
    # pycryptodome's Keccak: hashlib has only NIST SHA-3, whose padding byte differs, and so do all digests
    from Crypto.Hash import keccak
    return keccak.new(digest_bits=256, data=data).digest()


def item_bytes(item: object) -> bytes:
    """An address or topic written 0x… is its raw bytes; other text its UTF-8; bytes pass through."""
    if isinstance(item, (bytes, bytearray)):
        return bytes(item)
    if not isinstance(item, str):
        raise TypeError(f"an Ethereum bloom entry is text or bytes, not {type(item).__name__}")
    text = item.strip()
    if text[:2] in ("0x", "0X"):
        digits = text[2:]
        if len(digits) % 2 or not _is_hex(digits):
            raise ValueError(f"{item!r} starts with 0x but is not whole bytes of hex digits")
        return bytes.fromhex(digits)
    return text.encode("utf-8", "surrogateescape")


def positions(data: bytes) -> tuple[int, int, int]:
    d = keccak256(data)
    return tuple(((d[i] << 8) | d[i + 1]) & (M - 1) for i in (0, 2, 4))


def _bloom_bits(src: Source, text: object, where: str):
    if not isinstance(text, str) or text[:2] not in ("0x", "0X"):
        raise src.fail(f"{where}: logsBloom is {str(text)[:40]!r}, not a 0x-prefixed hex string")
    digits = text[2:]
    if len(digits) != HEX_DIGITS:
        raise src.fail(f"{where}: logsBloom has {len(digits)} hex digits, not {HEX_DIGITS} (2048 bits)")
    if not _is_hex(digits):
        raise src.fail(f"{where}: logsBloom holds characters that are not hex digits")
    return bits_from_words(bytes.fromhex(digits), M // 8, "big", M)


def _members(record: dict) -> list[str]:
    logs = record.get("logs")
    out: list[str] = []
    if isinstance(logs, list):
        for log in logs:
            if isinstance(log, dict):
                out += [v for v in [log.get("address"), *(log.get("topics") or [])] if isinstance(v, str)]
    return out


def _label(record: dict) -> tuple[str, dict]:
    fields: dict = {}
    for key in ("number", "blockNumber"):
        value = record.get(key)
        if isinstance(value, str) and value[:2] == "0x" and _is_hex(value[2:]) and value[2:]:
            fields["block"] = int(value, 16)
            break
    if "transactionHash" in record:
        fields["kind"] = "receipt"
        fields["transaction"] = str(record["transactionHash"])
        label = f"receipt {str(record['transactionHash'])[:18]}…"
    else:
        fields["kind"] = "block header"
        if "hash" in record:
            fields["hash"] = str(record["hash"])
        # a header saved without its number (a trimmed response) is still named by its hash, not by "?"
        label = (f"block {fields['block']}" if "block" in fields else
                 f"block {fields['hash'][:18]}…" if "hash" in fields else "block (number and hash not in the file)")
    return label, fields


def _filter(bits, label: str, fields: dict, members: list[str]) -> ForeignFilter:
    def lookup(item: object) -> ForeignLookup:
        pos = positions(item_bytes(item))
        return ForeignLookup(item, pos, bits_at(bits, pos))

    notes = ["Keccak-256 of the entry's bytes; bits (pair & 2047) of the first three byte pairs"]
    if members:
        fields["log_entries"] = len(members)
        fields["distinct_log_entries"] = len({m.lower() for m in members})
        notes.append(f"the record lists {len(members)} log addresses and topics (with repeats): its members")
    return ForeignFilter(format=NAME, m=M, k=K, bits=bits, layout={"kind": "flat"}, positions=lookup,
                         hashing="Keccak-256, three 11-bit positions (Yellow Paper M3:2048)", label=label,
                         fields=fields, notes=notes)


def read(path, **_options) -> list[ForeignFilter]:
    with Source(path, NAME) as src:
        if src.size > MAX_JSON_BYTES:
            raise src.fail(f"{src.size:,} bytes: more than the {MAX_JSON_BYTES:,} read for a block or receipt")
        raw = src.read_at(0, src.size, "the file")
        text = raw.decode("utf-8", "replace").strip()
        if text[:2] in ("0x", "0X"):
            return [_filter(_bloom_bits(src, text, "offset 0"), "logsBloom", {"kind": "bare"}, [])]
        try:
            doc = json.loads(text)
        except json.JSONDecodeError as exc:
            raise src.fail(f"offset {exc.pos:,}: not JSON ({exc.msg})") from None
        except RecursionError:
            raise src.fail("JSON nested too deeply to be a block or a receipt") from None
        if isinstance(doc, dict) and "result" in doc:
            doc = doc["result"]
        records = doc if isinstance(doc, list) else [doc]
        out = []
        for i, record in enumerate(records):
            where = f"record {i}" if isinstance(doc, list) else "the object"
            if not isinstance(record, dict) or "logsBloom" not in record:
                raise src.fail(f"{where} has no logsBloom (expected a block, a receipt, or a list of receipts)")
            label, fields = _label(record)
            out.append(_filter(_bloom_bits(src, record["logsBloom"], where), label, fields, _members(record)))
        if not out:
            raise src.fail("an empty list: no block or receipt to read")
        return out


def members_of(path) -> list[bytes]:
    """The addresses and topics the file's logs list (a receipt's, or a block's receipts'), as raw bytes."""
    with Source(path, NAME) as src:
        if src.size > MAX_JSON_BYTES:
            raise src.fail(f"{src.size:,} bytes: more than the {MAX_JSON_BYTES:,} read")
        try:
            doc = json.loads(src.read_at(0, src.size, "the file"))
        except (json.JSONDecodeError, UnicodeDecodeError, RecursionError) as exc:
            raise src.fail(f"not JSON ({exc})") from None
    doc = doc.get("result", doc) if isinstance(doc, dict) else doc
    records = doc if isinstance(doc, list) else [doc]
    return [item_bytes(v) for r in records if isinstance(r, dict) for v in _members(r)]
