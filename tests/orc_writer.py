"""ORC files with bloom-filter streams, written by pyarrow's ORC writer (Apache ORC's C++ library) for tests."""

from __future__ import annotations

import pytest


def write_orc(path, rows: int = 3000, stride: int = 1000, compression: str = "uncompressed",
              fpp: float = 0.05) -> dict[str, list]:
    """Write ``path`` with a string, an integer, a double and a non-ASCII string column, each with bloom
    filters; return the columns' values."""
    pa = pytest.importorskip("pyarrow", reason="pyarrow (test extra) writes ORC files")
    orc = pytest.importorskip("pyarrow.orc", reason="pyarrow's ORC writer")
    values = {"s": [f"item-{i}" for i in range(rows)], "i": list(range(rows)), "d": [i * 0.5 for i in range(rows)],
              "u": [f"日本-{i}" for i in range(rows)]}
    # ORC column ids: 0 is the root struct, so the four fields are 1..4
    orc.write_table(pa.table(values), str(path), bloom_filter_columns=[1, 2, 3, 4], bloom_filter_fpp=fpp,
                    row_index_stride=stride, compression=compression)
    return values
