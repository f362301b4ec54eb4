"""Over a thousand damaged .bloomviz sessions, generated deterministically: every one must be refused with a
SessionFormatError (and nothing else) that names the file and says what was wrong, at a memory cost bounded by
a small multiple of the file's size (issue 13: "a corruption corpus for sessions as for filters").

Every case is invalid *by construction* (the loader is not asked which damage it tolerates):
- cut short anywhere before the document's last brace;
- a byte that JSON cannot hold (NUL, a control character, invalid UTF-8) put anywhere in the document;
- every key removed (required keys) or joined by an unknown key, every object given a duplicated key;
- every value replaced by values of a wrong type or out of range, per the schema (``WRONG``), numbers that
  overflow a double (1 followed by 400 zeros), NaN and Infinity;
- every item replaced by a malformed item (empty, over 64 KiB, bad base64, invalid UTF-8, extra keys);
- every byte of a base filter's .bloom bytes changed (its CRC or header then refuses it);
- nesting too deep, trailing data, a document that is not an object.
"""

from __future__ import annotations

import base64
import copy
import json
import random
import tracemalloc

import pytest

from bloomviz.files import session as S
from bloomviz.files import storage
from bloomviz.filters.standard import BloomFilter

MEMORY_FACTOR = 24          # JSON text becomes Python objects: a few times its size
MEMORY_SLACK = 256 * 1024   # exceptions, messages, the parser's own state
HUGE = "1" + "0" * 400      # a JSON integer no double holds


def base_documents() -> dict[str, dict]:
    flt = BloomFilter(64, 3)
    flt.update(["a", "b"])
    bloom = b"".join(storage.encode(flt))
    items = ["apple", {"bytes_base64": "AP8="}, {"text_base64": base64.b64encode(
        "x\ud800".encode("utf-8", "surrogatepass")).decode()}]
    standard = S.Session(m=1918, k=7, capacity=200, operations=[
        S.SavedOperation("insert", item="apple", verdict="inserted"),
        S.SavedOperation("insert batch", items=("pear", b"\x00\xff", "x\ud800")),
        S.SavedOperation("lookup", item="plum", verdict="true negative")])
    counting = S.Session(variant="counting", m=500, k=3, params={"counter_bits": 4}, operations=[
        S.SavedOperation("insert", item="a"), S.SavedOperation("remove", item="a", verdict="removed"),
        S.SavedOperation("remove", item="zz", verdict=S.FORCED_REMOVAL)])
    scalable = S.Session(variant="scalable", params={"initial_capacity": 100, "p": 0.01, "growth": 2,
                                                     "tightening": 0.9},
                         operations=[S.SavedOperation("insert", item="s")])
    based = S.Session(m=64, k=3, base=bloom,
                      operations=[S.SavedOperation("lookup", item="a", verdict="true positive")])
    docs = {name: S.to_dict(s) for name, s in
            (("standard", standard), ("counting", counting), ("scalable", scalable), ("based", based))}
    assert items  # the item forms above are all present in "standard" once encoded
    return docs


# Values that are wrong for a key wherever it appears (by the schema in bloomviz/files/session.py).
NOT_STR = [None, 1, True, [], {}]
NOT_INT = [None, "7", True, [], {}, 1.5, -1]
WRONG = {
    "format": ["bloomviz-sessions", "", *NOT_STR],
    "schema_version": [0, 3, -1, "1", None, True, 1.5, HUGE],
    "saved_by": NOT_STR,
    "filter": [None, [], "standard", 1],
    "variant": ["Standard", "bloom", "", *NOT_STR],
    "scheme": ["murmur3", "", *NOT_STR],
    "m": [0, 2**34 + 1, "64", True, [], 1.5, -1, HUGE],
    "k": [0, 65, "3", True, [], 2.5, -3, HUGE],
    "params": [None, [], "x", 1],
    "counter_bits": [0, "4", None, 1.5, HUGE, 2**32 + 1],
    "initial_capacity": [0, "100", None, S.MAX_SCALABLE_CAPACITY + 1, HUGE],
    "growth": [0, None, "2", 2.5, HUGE],
    "p": [None, "0.01", True, [], HUGE, "-" + HUGE],
    "tightening": [None, "0.9", False, {}, HUGE],
    "capacity": [0, -5, "200", True, [], HUGE],
    "measurement": [None, [], 1],
    "probes": [0, S.MAX_PROBES + 1, *NOT_INT, HUGE],
    "seed": [-1, 2**63, *NOT_INT[:-1], HUGE],
    "base": [[], "AAAA", 1, True],
    "bloom_base64": ["not base64!", "AAA", *NOT_STR],
    "operations": [None, {}, "insert", 1],
    "op": ["Insert", "delete", "", *NOT_STR],
    "verdict": [1, True, [], {}],
    "items": [[], None, "pear", {}, 1],
}
BAD_ITEMS = ["", "x" * (S.MAX_ITEM_BYTES + 1), None, 5, True, [], {}, {"bytes_base64": "***"},
             {"bytes_base64": ""}, {"text_base64": base64.b64encode(b"\xff\xfe").decode()},
             {"bytes_base64": "AP8=", "text_base64": "YQ=="}, {"item": "a"}, {"bytes_base64": 7}]
REQUIRED = {"format", "schema_version", "filter", "measurement", "operations", "variant", "scheme", "m", "k",
            "params", "probes", "seed", "bloom_base64", "op", "item", "items"}


def paths(value, prefix=()):
    """Every (path, value) below a JSON value."""
    if isinstance(value, dict):
        for key, v in value.items():
            yield prefix + (key,), v
            yield from paths(v, prefix + (key,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield prefix + (i,), v
            yield from paths(v, prefix + (i,))


def replaced(doc, path, value):
    out = copy.deepcopy(doc)
    target = out
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return out


def removed(doc, path):
    out = copy.deepcopy(doc)
    target = out
    for key in path[:-1]:
        target = target[key]
    del target[path[-1]]
    return out


def text(doc) -> str:
    # HUGE and NaN stand in the document as marker strings, then become bare JSON literals.
    raw = json.dumps(doc, ensure_ascii=True)
    for literal in (HUGE, "-" + HUGE, "NaN", "Infinity", "-Infinity"):
        raw = raw.replace(json.dumps(literal), literal)
    return raw


def is_item_place(path) -> bool:
    return path[-1] == "item" or (len(path) >= 2 and path[-2] == "items")


def corrupt_cases() -> dict[bytes, str]:
    cases: dict[bytes, str] = {}

    def add(data, label):
        data = data.encode("ascii") if isinstance(data, str) else data
        cases.setdefault(data, label)

    rng = random.Random(20261124)
    for name, doc in base_documents().items():
        good = text(doc)
        end = good.rindex("}")
        for cut in range(0, end + 1, 3):
            add(good[:cut], f"{name}: cut at {cut}")
        for at in sorted(rng.sample(range(len(good)), 40)):
            for bad in (b"\x00", b"\x1f", b"\xff", b"\xc3"):
                add(good[:at].encode() + bad + good[at:].encode(), f"{name}: byte {bad!r} at {at}")
        add(good + "x", f"{name}: trailing data")
        add(good + good, f"{name}: two documents")
        for path, value in list(paths(doc)):
            key = path[-1]
            where = "/".join(map(str, path))
            if isinstance(key, str) and key in REQUIRED:
                add(text(removed(doc, path)), f"{name}: {where} removed")
            if is_item_place(path):
                for bad in BAD_ITEMS:
                    add(text(replaced(doc, path, bad)), f"{name}: {where} = {str(bad)[:20]}")
            elif isinstance(key, str):
                for bad in WRONG.get(key, []):
                    if name == "scalable" and key in ("m", "k") and bad is None:
                        continue   # m and k are null for a scalable filter
                    add(text(replaced(doc, path, bad)), f"{name}: {where} = {str(bad)[:20]}")
                for number in ("NaN", "Infinity", "-Infinity"):
                    if isinstance(value, (int, float)) and not isinstance(value, bool):
                        add(text(replaced(doc, path, number)), f"{name}: {where} = {number}")
            if isinstance(value, dict):
                add(text(replaced(doc, path, {**value, "unknown_key": 1})), f"{name}: {where} + unknown key")
                first = next(iter(value), None)
                if first is not None:   # a duplicated key: JSON allows it, the schema does not
                    inner = text(value)
                    dup = inner[:-1] + f", {json.dumps(first)}: {json.dumps(value[first])}" + "}"
                    add(text(replaced(doc, path, "@@DUP@@")).replace('"@@DUP@@"', dup), f"{name}: {where} dup")
        add(text({**doc, "unknown_key": 1}), f"{name}: unknown top-level key")
        if doc.get("base"):
            bloom = base64.b64decode(doc["base"]["bloom_base64"])
            for i in range(len(bloom)):
                damaged = bytearray(bloom)
                damaged[i] ^= 1 << rng.randrange(8)
                b64 = base64.b64encode(bytes(damaged)).decode()
                add(text(replaced(doc, ("base", "bloom_base64"), b64)), f"{name}: base byte {i} flipped")
            add(text(replaced(doc, ("base", "bloom_base64"), base64.b64encode(bloom[:-1]).decode())),
                f"{name}: base truncated")
    for depth in (100, 10_000, 200_000):
        add("[" * depth + "]" * depth, f"nested {depth} deep")
    for doc in ("[]", "null", '"bloomviz-session"', "1", "{}", ""):
        add(doc, f"not a session: {doc!r}")
    return cases


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    folder = tmp_path_factory.mktemp("sessions")
    files = []
    for i, (data, label) in enumerate(sorted(corrupt_cases().items(), key=lambda kv: kv[1])):
        path = folder / f"case{i:05d}.bloomviz"
        path.write_bytes(data)
        files.append((path, label, len(data)))
    return files


def test_the_corpus_is_deterministic_and_over_a_thousand_distinct_files(corpus):
    assert len(corpus) >= 1000
    assert corrupt_cases() == corrupt_cases()


def test_the_undamaged_bases_load():
    for name, doc in base_documents().items():
        assert S.loads(text(doc)) == S.from_dict(doc), name


def test_every_damaged_session_is_refused_with_a_message_in_bounded_memory(corpus):
    failures = []
    tracemalloc.start()
    try:
        for path, label, size in corpus:
            tracemalloc.reset_peak()
            before = tracemalloc.get_traced_memory()[0]
            try:
                S.load(path)
            except S.SessionFormatError as exc:
                peak = tracemalloc.get_traced_memory()[1] - before
                message = str(exc)
                if not message.startswith(str(path) + ": ") or len(message) <= len(str(path)) + 8:
                    failures.append(f"{label}: message {message!r}")
                elif peak > MEMORY_FACTOR * size + MEMORY_SLACK:
                    failures.append(f"{label}: {peak:,} bytes for a {size:,}-byte file")
            except Exception as exc:  # noqa: BLE001 - anything but the format error is the failure reported
                failures.append(f"{label}: {type(exc).__name__}: {exc}"[:300])
            else:
                failures.append(f"{label}: accepted")
    finally:
        tracemalloc.stop()
    assert not failures, f"{len(failures)} of {len(corpus)} cases:\n" + "\n".join(failures[:30])
