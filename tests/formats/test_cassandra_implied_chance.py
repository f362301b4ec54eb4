"""A -Filter.db without its Statistics.db: the chance Cassandra wrote it with is not read, but the filter's k and
size imply it through Cassandra's own table. Checked on the real 3.x SSTables: the chance their Statistics.db
holds (what Cassandra recorded) lies in the range implied from the filter alone, copied without it."""

from __future__ import annotations

import re
import shutil

import pytest

from bloomviz import formats
from bloomviz.formats.why import why
from bloomviz.formats.why_rules import chance_ranges
from world_fixtures import fixture


def _ranges(line: str) -> list[tuple[float, float]]:
    return [(float(a), float(b)) for a, b in re.findall(r"\[([\d.e-]+), ([\d.e-]+)\)", line)]


@pytest.mark.parametrize("folder, name, with_index", [("cassandra-3.11-iot", "md-2-big", True),
                                                      ("cassandra-3.11-iot", "md-2-big", False),
                                                      ("cassandra-3.x-tiny", "ma-1-big", True),
                                                      ("cassandra-3.x-tiny", "ma-3-big", True)])
def test_the_implied_chance_holds_the_one_cassandra_recorded(tmp_path, folder, name, with_index):
    source = fixture(folder, f"{name}-Filter.db")
    (recorded,) = formats.open_filters(source)          # read with Statistics.db beside it
    chance = recorded.fields["bloom_filter_fp_chance"]
    assert recorded.fields["fp_chance_from"] == "Statistics.db"
    shutil.copy(source, tmp_path / source.name)
    if with_index:
        shutil.copy(source.with_name(f"{name}-Index.db"), tmp_path / f"{name}-Index.db")
    (alone,) = formats.open_filters(tmp_path / source.name)
    assert "bloom_filter_fp_chance" not in alone.fields
    (line,) = [r for r in why("cassandra", [alone]) if r.startswith("What the filter implies")]
    ranges = _ranges(line)
    assert any(lo <= chance < hi for lo, hi in ranges), (chance, line)
    assert ranges == [(float(f"{lo:g}"), float(f"{hi:g}")) for lo, hi in chance_ranges(alone.k, None)] or with_index
    if folder == "cassandra-3.11-iot" and with_index:     # 10,048 bits for 1,000 partitions: 10 bits per key
        assert "10 bits per key" in line and ranges == [(0.00943, 0.0118)]
