"""The atlas (many filters in one file) in ``inspect`` and ``check``: the distributions, ``--filter N``, a
format's own selector and routing declared in its module, and ``--json`` for both commands."""

from __future__ import annotations

import json
import types
from pathlib import Path

import mmh3
import pytest
from bitarray import bitarray

from bloomviz import formats
from bloomviz.cli import main
from bloomviz.formats import atlas
from bloomviz.formats.common import ForeignFilter, ForeignLookup, Option, bits_at

DATA = Path(__file__).parents[1] / "data" / "foreign"


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def _shard(name: str, m: int, k: int, members: list[str]) -> ForeignFilter:
    bits = bitarray(m, endian="little")
    bits.setall(0)

    def pos(item) -> tuple[int, ...]:
        return tuple(mmh3.hash(str(item).encode(), i, signed=False) % m for i in range(k))

    for x in members:
        for p in pos(x):
            bits[p] = 1
    return ForeignFilter(format="shards", m=m, k=k, bits=bits, layout={"kind": "flat"}, hashing="test",
                         positions=lambda item: ForeignLookup(item, pos(item), bits_at(bits, pos(item))),
                         label=name, fields={"shard": name}, design_fp=0.01)


@pytest.fixture
def shards(monkeypatch, tmp_path):
    """A format whose file holds 40 filters: shard i holds i*3 members 'i:j'; an item 'i:...' is routed to
    shard i (as a table's index routes a key to its block); --shard NAME selects one."""
    filters = [_shard(f"shard {i}", 256, 4, [f"{i}:{j}" for j in range(i * 3)]) for i in range(40)]

    def select(found, value):
        chosen = [f for f in found if f.fields["shard"] == value]
        if not chosen:
            raise ValueError(f"no shard {value!r}")
        return chosen

    def route(found, item):
        head = str(item).split(":")[0]
        return [f for f in found if f.fields["shard"] == f"shard {head}"]

    module = types.ModuleType("shards")
    module.NAME, module.TITLE = "shards", "test shards"
    module.sniff = lambda head, tail, size: head.startswith(b"SHARDS")
    module.read = lambda path, **options: list(filters)
    module.route = route
    module.CLI_OPTIONS = (Option("--shard", "one shard by name", "NAME", str, select),)
    monkeypatch.setitem(formats.FORMATS, "shards", module)
    path = tmp_path / "f.shards"
    path.write_bytes(b"SHARDS" + bytes(200))
    return path, filters


def test_inspect_summarises_many_filters(capsys, shards):
    path, filters = shards
    code, out, err = run(capsys, "inspect", path)
    assert code == 0, err
    fills = sorted(f.bits_set / f.m for f in filters)
    assert "filters               40" in out and "atlas (over the filters" in out
    assert f"min {fills[0] * 100:.1f}%" in out and f"max {fills[-1] * 100:.1f}%" in out
    past = sum(f.expected_fp > 1.25 * 0.01 for f in filters)   # clearly past: 1.25x the design
    assert 0 < past < 40 and f"past design load      {past:,} of 40" in out
    assert "--filter N" in out and "[shard 3]" not in out     # too many for each filter's block
    code, out, _ = run(capsys, "inspect", "--json", path)
    r = json.loads(out)
    assert [s["bits_set"] for s in r["filters"]] == [f.bits_set for f in filters]
    assert r["atlas"]["filters"] == 40 and r["atlas"]["past_design"] == past
    assert r["atlas"]["fill"]["median"] == pytest.approx(atlas.spread(fills)["median"])
    for s, f in zip(r["filters"], filters):
        assert (s["m"], s["k"], s["estimated_n"] is None or s["estimated_n"] >= 0) == (f.m, f.k, True)
        assert s["expected_fp"] == pytest.approx(f.expected_fp)


def test_filter_n_and_a_format_selector_pick_one_filter(capsys, shards):
    path, filters = shards
    code, out, _ = run(capsys, "inspect", "--filter", 7, path)
    assert code == 0 and "[shard 7]" in out and "atlas" not in out
    code, out, _ = run(capsys, "inspect", "--json", "--shard", "shard 9", path)
    assert [s["label"] for s in json.loads(out)["filters"]] == ["shard 9"]
    code, _, err = run(capsys, "inspect", "--filter", 40, path)
    assert code == 2 and "holds 40 filters (0..39)" in err
    code, _, err = run(capsys, "inspect", "--shard", "nope", path)
    assert code == 2 and "no shard 'nope'" in err
    code, _, err = run(capsys, "inspect", "--shard", "x", DATA / "pyarrow-bloom.parquet")
    assert code == 2 and "--shard does not apply to a parquet file" in err


def test_check_names_the_filter_each_item_went_to(capsys, shards):
    path, filters = shards
    absent = next(f"5:x{i}" for i in range(1000) if f"5:x{i}" not in filters[5])
    code, out, _ = run(capsys, "check", path, "5:2", absent)
    assert code == 1
    zero = filters[5].lookup(absent).zero_positions[0]
    assert out.splitlines() == ["probably present\t5:2\t(shard 5)",
                                f"definitely absent\t{absent}\t(shard 5: bit {zero:,} is 0)"]
    code, out, _ = run(capsys, "check", "--json", "--filter", 5, path, "5:2", absent)
    items = json.loads(out)["items"]
    assert [(i["verdict"], i["filter"], i["filter_index"]) for i in items] == [
        ("probably present", "shard 5", 5), ("definitely absent", "shard 5", 5)]
    assert items[1]["zero_bit"] == zero


def test_check_json_of_a_bloom_file(capsys, tmp_path):
    golden = Path(__file__).parents[1] / "data" / "golden-v1.bloom"
    code, text, _ = run(capsys, "check", golden, "a", "b")
    code2, out, _ = run(capsys, "check", "--json", golden, "a", "b")
    items = json.loads(out)["items"]
    assert code == code2 and [i["verdict"] for i in items] == [line.split("\t")[0] for line in text.splitlines()]


def test_spread_and_histogram():
    s = atlas.spread([1, 2, 3, 4, None, float("inf")])
    assert (s["min"], s["median"], s["max"], s["mean"]) == (1, 2.5, 4, 2.5)
    counts, edges = atlas.histogram([{"fill": f} for f in (0.05, 0.06, 0.55, 0.99)], "fill", bins=10)
    assert list(counts) == [2, 0, 0, 0, 0, 1, 0, 0, 0, 1] and edges[0] == 0.05 and edges[-1] == 0.99
    assert atlas.bin_of(0.55, edges, "fill") == 5


def test_another_format_s_option_is_refused_not_ignored(capsys, shards):
    code, _, err = run(capsys, "inspect", "--fp-chance", "0.01", DATA / "pyarrow-bloom.parquet")
    assert code == 2 and "--fp-chance does not apply to a parquet file" in err
