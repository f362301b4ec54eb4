"""What a Parquet filter was sized for rests on an fpp the file does not store: the writer's own default, named
by the file's created_by (Arrow 0.05, DuckDB 0.01, parquet-java 0.01), said to be assumed; or the one the user
gives with --fpp. Checked on files pyarrow and DuckDB wrote: DuckDB sized a 4,000-value dictionary's filter at
65,536 bits, which 0.01 gives and 0.05 does not."""

from __future__ import annotations

import json

import pytest

from bloomviz import formats
from bloomviz.cli import main
from bloomviz.formats.parquet import ndv_sized_for


def test_duckdbs_own_default_is_the_one_assumed(tmp_path):
    duckdb = pytest.importorskip("duckdb", reason="duckdb is in the test extra; not installed here")
    path = tmp_path / "d.parquet"
    duckdb.connect().execute(f"COPY (SELECT 'v' || (i % 4000) AS s FROM range(40000) t(i)) TO '{path}' "
                             "(FORMAT parquet)")
    (flt,) = formats.open_filters(path)
    assert flt.fields["created_by"].startswith("DuckDB")
    assert flt.fields["fpp"] == 0.01 and flt.fields["fpp_from"] == "assumed: DuckDB's default"
    lo, hi = ndv_sized_for(flt.m, 0.01)
    assert lo < 4_000 <= hi < ndv_sized_for(flt.m, 0.05)[0] * 2       # 0.01 makes these bits of 4,000 values
    assert not 4_000 >= ndv_sized_for(flt.m, 0.05)[0]                    # 0.05 would have made half as many
    assert flt.design_n == pytest.approx(hi)
    assert "assumed: DuckDB's default" in flt.summary()["design_basis"]


def test_pyarrow_is_assumed_at_005_and_fpp_given_replaces_it(tmp_path, capsys):
    pa = pytest.importorskip("pyarrow", reason="pyarrow is in the test extra; not installed here")
    import pyarrow.parquet as pq
    path = tmp_path / "t.parquet"
    # 40,000 values in each row group's filter, sized by pyarrow for 20,000 at 0.01: past its design at 0.01,
    # within what the same bits fit at Arrow's default 0.05
    pq.write_table(pa.table({"id": [f"u{i}" for i in range(80_000)]}), path, row_group_size=40_000,
                   bloom_filter_options={"id": {"ndv": 20_000, "fpp": 0.01}})
    filters = formats.open_filters(path)
    assert all(f.fields["fpp"] == 0.05 and f.fields["fpp_from"] == "assumed: Arrow's default" for f in filters)
    assert main(["inspect", str(path)]) == 0
    text = capsys.readouterr().out
    assert "(sized for: fpp 0.05 assumed: Arrow's default; --fpp gives the writer's)" in text
    assert "past design load      0 of 2" in text
    assert main(["inspect", str(path), "--fpp", "0.01", "--json"]) == 0
    r = json.loads(capsys.readouterr().out)
    assert r["atlas"]["past_design"] == 2 and r["atlas"]["design_basis"] == ["fpp 0.01 given"]
    assert all(s["fields"]["fpp_from"] == "given (--fpp)" for s in r["filters"])
    assert any("more than it was sized for at fpp 0.01" in line for line in r["why"])
    assert main(["inspect", str(path), "--fpp", "2"]) == 2
    assert "fpp must be between 0 and 1" in capsys.readouterr().err


def test_columns_without_a_filter_are_the_ones_the_writer_gave_none(tmp_path):
    duckdb = pytest.importorskip("duckdb", reason="duckdb is in the test extra; not installed here")
    import pyarrow.parquet as pq
    path = tmp_path / "d.parquet"
    # DuckDB writes a filter for its dictionary-encoded column s, none for i (100,000 distinct values: plain)
    duckdb.connect().execute(f"COPY (SELECT 'v' || (i % 500) AS s, i FROM range(100000) t(i)) TO '{path}' "
                             "(FORMAT parquet)")
    meta = pq.ParquetFile(path).metadata
    none = sorted({meta.row_group(g).column(c).path_in_schema for g in range(meta.num_row_groups)
                   for c in range(meta.num_columns) if meta.row_group(g).column(c).bloom_filter_offset is None})
    assert none == ["i"]
    from bloomviz.formats.why import why
    filters = formats.open_filters(path)
    assert filters[0].fields["columns_without_filter"] == none
    assert any(r.startswith("Columns with no filter in this file: i.") for r in why("parquet", filters))
    assert "columns_without_filter" not in formats.open_filters(path, column="s")[0].fields
