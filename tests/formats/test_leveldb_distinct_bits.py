"""LevelDB's positions can coincide: bitpos = h mod m, then h += rotr(h, 17) in 32 bits, nothing keeping them
apart, so in a small filter a key tests fewer than k distinct bits and passes with fill^d. On tables LevelDB
(plyvel) wrote at 16 bits per key (k = 11): the distinct counts of keys' real positions (the reader's, equal to
LevelDB's own filter bytes in test_format_leveldb.py) follow the sampled model, and the reasons give the rate
counting distinct bits beside fill^k; keys that differ in a few bytes fill fewer bits than their count, and
the reasons say so from the sizes."""

from __future__ import annotations

import math
import random
import re

import pytest

from bloomviz import formats
from bloomviz.formats.why import why
from bloomviz.formats.why_lsm import _leveldb_distinct

plyvel = pytest.importorskip("plyvel", reason="plyvel (LevelDB) is in the test extra; not installed here")


def _db(path, keys):
    db = plyvel.DB(str(path), create_if_missing=True, bloom_filter_bits=16)
    for key in keys:
        db.put(key, b"x" * 20)
    db.compact_range()
    db.close()
    return formats.open_filters(path)


def test_real_positions_coincide_as_the_model_says_and_the_reasons_count_them(tmp_path):
    rng = random.Random(7)
    filters = _db(tmp_path / "db", [bytes(rng.randrange(256) for _ in range(16)) for _ in range(6_000)])
    f = min(filters, key=lambda g: g.m)
    probes = 20_000
    short = sum(len(set(f.lookup(bytes(rng.randrange(256) for _ in range(16))).positions)) < f.k
                for _ in range(probes)) / probes
    model = float(_leveldb_distinct(f.m, f.k)[:f.k].sum())
    assert abs(short - model) < 4 * math.sqrt(model * (1 - model) / probes) + 1e-4, (f.m, short, model)
    (line,) = [r for r in why("leveldb", filters) if r.startswith("Here a key's k positions can coincide")]
    distinct, flat = (float(x) for x in re.search(r"is ([\d.]+) % counting distinct bits, ([\d.]+) % by fill", line)
                      .groups())
    assert distinct > flat
    assert "Their sizes say" not in line          # random keys: their bits fit their count


def test_similar_keys_fill_fewer_bits_than_their_count(tmp_path):
    keys = [f"user:{i:07d}".encode() for i in range(6_000)]
    filters = _db(tmp_path / "db", keys)
    (line,) = [r for r in why("leveldb", filters) if r.startswith("Here a key's k positions can coincide")]
    said = int(re.search(r"Their sizes say ([\d,]+) keys went in", line).group(1).replace(",", ""))
    assert said == len(keys)
