"""Parquet filters written by pyarrow (Arrow's C++ writer) answered by DuckDB's own Parquet reader
(``parquet_bloom_probe``): every answer of the reader equals DuckDB's, false positives included, for a filter
sized right and one given too small an ndv, whose rate the fill predicts."""

from __future__ import annotations

import math
import random

import pytest

from bloomviz import formats

duckdb = pytest.importorskip("duckdb", reason="duckdb is in the test extra; not installed here")
pa = pytest.importorskip("pyarrow", reason="pyarrow is in the test extra; not installed here")


def test_every_answer_equals_duckdbs_own_reading_of_the_filter(tmp_path):
    import pyarrow.parquet as pq
    rows = 20_000
    table = pa.table({"id": [f"user:{i:07d}" for i in range(rows)], "n": list(range(rows))})
    path = str(tmp_path / "t.parquet")
    pq.write_table(table, path, bloom_filter_options={"id": {"ndv": 3_000, "fpp": 0.01},     # too small
                                                      "n": {"ndv": rows, "fpp": 0.05}})
    con = duckdb.connect()
    rng = random.Random(8)
    for column, probes in (("id", [f"user:{rng.randrange(10 ** 7):07d}x" for _ in range(300)]),
                           ("n", [rng.randrange(rows, 10 ** 9) for _ in range(300)])):
        (flt,) = [f for f in formats.open_filters(path) if f.fields["column"] == column]
        theirs = [not con.execute("select bloom_filter_excludes from parquet_bloom_probe(?, ?, ?)",
                                  [path, column, p]).fetchone()[0] for p in probes]
        ours = [flt.lookup(str(p)).maybe_present for p in probes]
        assert ours == theirs, column
        passed = sum(theirs) / len(probes)
        assert abs(passed - flt.expected_fp) < 4 * math.sqrt(flt.expected_fp * (1 - flt.expected_fp) / len(probes))
        if column == "id":
            assert passed > 0.3          # far past the 1 % asked: 20,000 values in a filter sized for 3,000
