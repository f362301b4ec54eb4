"""Rich display in Jupyter without Qt: the PNG shows the bits cell for cell, the HTML carries the numbers."""

from __future__ import annotations

import struct
import subprocess
import sys
import zlib
from pathlib import Path

import numpy as np
import pytest

from bloomviz import formats
from bloomviz.filters import notebook
from bloomviz.filters.standard import BloomFilter
from bloomviz.filters.registry import make_filter

DATA = Path(__file__).parents[1] / "data" / "foreign"


def decode_png(data: bytes) -> np.ndarray:
    """RGB pixels of an 8-bit RGB, filter-0 PNG, checking signature, chunk CRCs and the header."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, chunks = 8, {}
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos:pos + 4])
        kind, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + length]
        assert struct.unpack(">I", data[pos + 8 + length:pos + 12 + length])[0] == zlib.crc32(kind + body)
        chunks[kind] = body
        pos += 12 + length
    w, h, depth, colour, _c, _f, _i = struct.unpack(">IIBBBBB", chunks[b"IHDR"])
    assert (depth, colour) == (8, 2) and b"IEND" in chunks
    rows = np.frombuffer(zlib.decompress(chunks[b"IDAT"]), np.uint8).reshape(h, 1 + 3 * w)
    assert (rows[:, 0] == 0).all()
    return rows[:, 1:].reshape(h, w, 3)


def cells(flt) -> np.ndarray:
    """The picture back at one pixel per cell (the PNG is scaled by a whole factor)."""
    pixels = decode_png(flt._repr_png_())
    grid = notebook.grid_rgb(flt)
    scale = pixels.shape[1] // grid.shape[1]
    assert pixels.shape == (grid.shape[0] * scale, grid.shape[1] * scale, 3)
    return pixels[::scale, ::scale]


def test_png_shows_each_bit_of_a_small_filter():
    flt = BloomFilter(100, 3)
    flt.update(["a", "b", "c", "d"])
    img = cells(flt).reshape(-1, 3)
    shown = [tuple(p) for p in img[:100]]
    expected = [notebook.SET if flt.bits[i] else notebook.UNSET for i in range(100)]
    assert shown == expected
    assert all(tuple(p) == notebook.PAD for p in img[100:])


def test_foreign_blocks_are_one_block_per_row():
    [f] = formats.open_filters(DATA / "duckdb-dictionary.parquet", column="s")
    img = cells(f)
    assert img.shape[:2] == (f.m // 256, 256)
    bits = np.unpackbits(np.frombuffer(f.bits.tobytes(), np.uint8), bitorder="little")[:f.m].reshape(-1, 256)
    assert ((img == notebook.SET).all(axis=2) == bits.astype(bool)).all()


def test_large_filters_are_binned_by_fill():
    flt = BloomFilter(1 << 20, 2)
    flt.update([str(i) for i in range(200_000)])
    img = notebook.grid_rgb(flt)
    assert img.shape[0] * img.shape[1] <= notebook.MAX_CELLS
    # the mean shade of the picture matches the fill ratio
    unset, full = np.array(notebook.UNSET, float), np.array(notebook.SET, float)
    pixels = img.reshape(-1, 3)
    pixels = pixels[(pixels != notebook.PAD).any(axis=1)]
    shade = (pixels[:, 0].astype(float) - unset[0]) / (full[0] - unset[0])   # red moves the most
    assert abs(shade.mean() - (flt.bits_set / flt.m)) < 0.005


@pytest.mark.parametrize("make", [
    lambda: make_filter("counting", m=200, k=3, counter_bits=4),
    lambda: make_filter("scalable", initial_capacity=20, p=0.01),
    lambda: make_filter("blocked", m=2048, k=4),
    lambda: make_filter("partitioned", m=300, k=3),
])
def test_html_for_every_variant(make):
    flt = make()
    flt.update([f"w{i}" for i in range(50)])
    text = flt._repr_html_()
    assert f"{flt.m:,}" in text and f"{flt.bits_set:,}" in text and f"fill {(flt.bits_set / flt.m) * 100:.2f}%" in text
    assert "data:image/png;base64," in text and flt.variant in text


def test_html_for_a_foreign_filter():
    [f] = formats.open_filters(DATA / "guava-mitz64-utf8.guava")
    text = f._repr_html_()
    assert "guava" in text and f"{f.m:,}" in text and f"{f.estimated_count:,.1f}" in text


def test_display_needs_no_qt():
    code = ("import sys; from bloomviz import formats; from bloomviz.filters.standard import BloomFilter; "
            "b = BloomFilter(64, 2); b.add('x'); b._repr_html_(); "
            f"formats.open_filters({str(DATA / 'pyprobables-bloom.blm')!r})[0]._repr_png_(); "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('PySide6', 'shiboken6', 'pyqtgraph')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"
