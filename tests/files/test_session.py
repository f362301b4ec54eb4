"""The .bloomviz session format: round trips of every item kind and variant, and strict refusal of bad files."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, strategies as st

from bloomviz.files import session as S

ITEMS = ["apple", "é✓🙂", "a\ud800b", "\udfff", b"\x00\xff\x10", "x" * 1000, " spaced ", "line\nbreak"]


def sample(**kw) -> S.Session:
    ops = [S.SavedOperation(S.INSERT, item=x, verdict="inserted") for x in ITEMS]
    ops += [S.SavedOperation(S.BATCH, items=tuple(ITEMS) + ("tail",)), S.SavedOperation(S.LOOKUP, item="pear",
                                                                             verdict="true negative")]
    args = dict(m=1000, k=4, capacity=50, probes=123, seed=7, operations=ops, saved_by="bloomviz test")
    args.update(kw)
    return S.Session(**args)


def test_round_trip_keeps_every_item_type_and_value():
    s = sample()
    back = S.loads(S.dumps(s))
    assert back == s
    for a, b in zip(s.operations, back.operations):
        assert type(a.item) is type(b.item)
        assert [type(x) for x in a.items] == [type(x) for x in b.items]


def test_file_is_ascii_json_and_carries_schema_version(tmp_path):
    path = tmp_path / "s.bloomviz"
    S.save(sample(), path)
    raw = path.read_bytes()
    raw.decode("ascii")   # 7-bit clean: no lone surrogate can break another reader
    data = json.loads(raw)
    assert data["format"] == S.FORMAT and data["schema_version"] == S.SCHEMA_VERSION
    assert S.load(path) == sample()


@given(st.lists(st.one_of(st.text(min_size=1, max_size=20), st.binary(min_size=1, max_size=20)),
                min_size=1, max_size=20))
def test_any_text_or_bytes_item_survives(items):
    s = S.Session(m=64, k=2, operations=[S.SavedOperation(S.BATCH, items=tuple(items))])
    assert S.loads(S.dumps(s)).operations[0].items == tuple(items)


@pytest.mark.parametrize("variant,params,m,k", [
    ("standard", {}, 500, 3),
    ("counting", {"counter_bits": 4}, 500, 3),
    ("partitioned", {}, 501, 3),
    ("blocked", {"block_bits": 512}, 1024, 3),
    ("scalable", {"initial_capacity": 100, "p": 0.01, "growth": 2, "tightening": 0.9}, None, None),
])
def test_variants_round_trip(variant, params, m, k):
    s = sample(variant=variant, params=params, m=m, k=k)
    assert S.loads(S.dumps(s)) == s


def test_base_filter_bytes_round_trip():
    from bloomviz.files import storage
    from bloomviz.filters.standard import BloomFilter
    flt = BloomFilter(64, 3)
    flt.update(["a", "b"])
    bloom = b"".join(storage.encode(flt))
    s = sample(base=bloom)
    assert S.loads(S.dumps(s)).base == bloom


def test_a_base_that_is_not_a_valid_bloom_file_is_refused():
    with pytest.raises(S.SessionFormatError, match="base.bloom_base64: not a valid .bloom filter"):
        S.dumps(sample(base=bytes(range(256))))


def test_unknown_operation_is_refused_on_save():
    s = S.Session(m=64, k=2, operations=[S.SavedOperation("merge", item="a")])
    with pytest.raises(ValueError, match="merge"):
        S.dumps(s)


def test_removals_round_trip_with_their_verdicts():
    ops = [S.SavedOperation("insert", item="a"), S.SavedOperation("remove", item="a", verdict="removed"),
           S.SavedOperation("remove", item="b", verdict=S.FORCED_REMOVAL)]
    s = S.Session(variant="counting", m=64, k=2, params={"counter_bits": 4}, operations=ops)
    assert S.loads(S.dumps(s)).operations == ops
    assert s.insert_count == 1


def good() -> dict:
    return json.loads(S.dumps(sample()))


def mutate(path, value):
    data = good()
    target = data
    for key in path[:-1]:
        target = target[key]
    if value is KeyError:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return json.dumps(data)


BAD = [
    (["schema_version"], 3, "schema_version 3 is not supported"),
    (["schema_version"], "1", "schema_version: expected a whole number"),
    (["format"], "something", "this session is damaged: its \"format\" field is \"something\""),
    (["filter", "m"], 10 ** 30, "filter.m: 1000000000000000000000000000000 is out of range"),
    (["filter", "m"], -1, "filter.m: -1 is out of range"),
    (["filter", "m"], "1000", "filter.m: expected a whole number"),
    (["filter", "m"], 1.5, "filter.m: expected a whole number"),
    (["filter", "m"], True, "filter.m: expected a whole number"),
    (["filter", "k"], 65, "filter.k: 65 is out of range"),
    (["filter", "k"], KeyError, "filter: missing key 'k'"),
    (["filter", "scheme"], "md5", "filter.scheme: unknown value \"md5\""),
    (["filter", "variant"], "cuckoo", "filter.variant: unknown value \"cuckoo\""),
    (["filter", "params"], {"counter_bits": 4}, "'counter_bits' is not a parameter of a standard filter"),
    (["filter", "params"], [], "filter.params: expected an object"),
    (["filter", "capacity"], 0, "filter.capacity: 0 is out of range"),
    (["filter", "colour"], "red", "filter: unknown key 'colour'"),
    (["measurement", "probes"], 10 ** 7, "measurement.probes: 10000000 is out of range"),
    (["measurement", "seed"], -5, "measurement.seed: -5 is out of range"),
    (["measurement", "seed"], None, "measurement.seed: expected a whole number"),
    (["operations"], {}, "operations: expected a list"),
    (["operations", 0, "op"], "delete", "operations[0].op: unknown value \"delete\""),
    (["operations", 0, "item"], 5, "operations[0].item: an item must be a string"),
    (["operations", 0, "item"], "", "operations[0].item: an empty item"),
    (["operations", 0, "item"], "x" * 70_000, "operations[0].item: an item of 70,000 bytes"),
    (["operations", 0, "item"], {"bytes_base64": "!!!"}, "operations[0].item.bytes_base64: \"!!!\" is not valid base64"),
    (["operations", 0, "item"], {"text_base64": "/w=="}, "operations[0].item.text_base64: not UTF-8 text"),
    (["operations", 0, "verdict"], 3, "operations[0].verdict: expected a string"),
    (["operations", 8, "items"], [], "operations[8].items: expected a non-empty list"),
    (["operations", 8, "items", 2], {"bytes_base64": "AA==", "x": 1}, "operations[8].items[2]: an item must be"),
    (["base"], {"bloom_base64": 12}, "base.bloom_base64: expected a base64 string"),
]


@pytest.mark.parametrize("path,value,message", BAD, ids=[m[:40] for _, _, m in BAD])
def test_bad_documents_are_refused_naming_the_problem(path, value, message):
    with pytest.raises(S.SessionFormatError) as info:
        S.loads(mutate(path, value), "bad.bloomviz")
    assert str(info.value).startswith("bad.bloomviz: ")
    assert message in str(info.value)


@pytest.mark.parametrize("text,message", [
    ("", "not valid JSON"),
    ("{", "not valid JSON"),
    ("[1, 2]", "not a .bloomviz session"),
    ('{"format": "bloomviz-session", "schema_version": 1, "schema_version": 1}', "appears twice"),
    (json.dumps(good()).replace('"seed": 7', '"seed": NaN'), "NaN is not a number JSON allows"),
    (json.dumps(good()).replace('"seed": 7', '"seed": Infinity'), "Infinity is not a number"),
    (json.dumps(good()).replace('"m": 1000', '"m": 1e999'), "filter.m: expected a whole number"),
    (json.dumps(good()).replace('"m": 1000', '"m": ' + "9" * 5000), "not a usable JSON document"),
    ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
    (b"\xff\xfe{}", "not UTF-8"),
])
def test_unparseable_files_are_refused(text, message):
    with pytest.raises(S.SessionFormatError, match=None) as info:
        S.loads(text, "x.bloomviz")
    assert message in str(info.value)


def test_load_refuses_directories_and_missing_files(tmp_path):
    with pytest.raises(IsADirectoryError):
        S.load(tmp_path)
    with pytest.raises(FileNotFoundError):
        S.load(tmp_path / "nope.bloomviz")


def test_failed_save_leaves_the_old_file_whole(tmp_path, monkeypatch):
    path = tmp_path / "s.bloomviz"
    S.save(sample(), path)
    before = path.read_bytes()

    def broken(*_a, **_k):
        raise OSError("disk full")
    monkeypatch.setattr(S.os, "replace", broken)
    with pytest.raises(OSError):
        S.save(sample(seed=8), path)
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.bloomviz"]   # no temporary file left behind


def test_loading_a_small_session_allocates_little(tmp_path):
    import tracemalloc
    path = tmp_path / "small.bloomviz"
    S.save(sample(), path)
    tracemalloc.start()
    try:
        S.load(path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 16 * 2**20, f"loading a {path.stat().st_size}-byte session peaked at {peak:,} bytes"
