"""Jupyter rich display without Qt: a filter's grid as an inline PNG and its numbers as an HTML table.

Any object with ``m``, ``k``, ``bits_set``, ``estimated_count`` and ``expected_fp`` and either
``values_for_grid()`` (bloomviz filters: bits, or a counting filter's counters) or ``bits`` (a bitarray, as
``bloomviz.formats.ForeignFilter`` has) can be shown; the filters' ``_repr_png_`` calls ``png_for``, their
``_repr_html_`` the view bloomviz.explain.notebook_table installs (the numbers in words beside the picture).
Nothing here imports IPython: Jupyter finds the two methods by name.

The picture: cells in row-major order, ``cols`` wide (a Parquet block's 256 bits, a partition's slice, or
about a square). A filter larger than the picture can hold cell for cell (``MAX_CELLS``) is shown binned:
each pixel's shade is the fraction of set bits it covers, so fill patterns stay visible at any m.

PNG (RFC 2083): the 8-byte signature, then chunks of u32 length, 4-byte type, data, CRC32 over type + data:
IHDR (width, height, bit depth 8, colour type 2 = RGB, no interlace), one IDAT holding the zlib-compressed
scanlines (each prefixed by filter byte 0), IEND.
"""

from __future__ import annotations

import math
import struct
import zlib

import numpy as np

from bloomviz.palette import NOTEBOOK_PAD, NOTEBOOK_SET, NOTEBOOK_UNSET

MAX_CELLS = 1 << 18            # 512 x 512 cells at most; beyond that cells are bins of several bits
TARGET_WIDTH = 512             # pixels the picture aims at, cells scaled up to it
UNSET, SET, PAD = NOTEBOOK_UNSET, NOTEBOOK_SET, NOTEBOOK_PAD


def _png(rgb: np.ndarray) -> bytes:
    h, w, _ = rgb.shape
    rows = np.concatenate([np.zeros((h, 1), np.uint8), rgb.reshape(h, w * 3)], axis=1)

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows.tobytes(), 9)) + chunk(b"IEND", b""))


def _binned_bits(flt) -> tuple[np.ndarray, int] | None:
    """(fill of each bin, bits per bin) straight from the bytes' popcounts, for a bit array too large to show
    cell for cell; None when the filter has no plain bit array (scalable) or is small enough."""
    bits = getattr(flt, "bits", None)
    if flt.m <= MAX_CELLS or not hasattr(bits, "tobytes") or hasattr(flt, "counters"):
        return None
    per = 8 * math.ceil(flt.m / MAX_CELLS / 8)
    raw = np.frombuffer(bits, dtype=np.uint8)
    whole, step = raw.size // (per // 8), per // 8
    fill = np.empty(whole + (raw.size % step > 0))
    for start in range(0, whole, 1 << 16):   # a piece at a time: popcounts of the whole array would be m/8 bytes
        stop = min(whole, start + (1 << 16))
        piece = np.bitwise_count(raw[start * step:stop * step]).reshape(-1, step)
        fill[start:stop] = piece.sum(axis=1, dtype=np.int64) / per
    if fill.size > whole:
        fill[-1] = int(np.bitwise_count(raw[whole * step:]).sum()) / per
    cells = fill.size
    fill[-1] *= per / (flt.m - (cells - 1) * per)   # the last bin holds fewer real bits
    return fill, per


def _values(flt) -> np.ndarray:
    """Per cell, how set it is in 0..1 (a counter's share of the largest counter for counting filters)."""
    if hasattr(flt, "values_for_grid"):
        v = np.asarray(flt.values_for_grid(), dtype=float)
    else:
        raw = np.frombuffer(flt.bits.tobytes(), dtype=np.uint8)
        v = np.unpackbits(raw, bitorder="little")[: flt.m].astype(float)
    top = v.max() if v.size else 0.0
    return v / top if top > 1 else v


def _columns(flt, m: int) -> int:
    layout = getattr(flt, "layout", None) or {}
    if layout.get("kind") == "blocks":
        return layout["block_bits"]
    if layout.get("kind") == "slices" and 8 <= layout["slice_bits"] <= 512:
        return layout["slice_bits"]
    return max(8, min(512, math.ceil(math.sqrt(m * 2))))


def grid_rgb(flt) -> np.ndarray:
    """The picture as an RGB uint8 array (rows, cols, 3), before scaling."""
    quick = _binned_bits(flt)
    if quick is not None:
        v, binned = quick
    else:
        v = _values(flt)
        binned = math.ceil(v.size / MAX_CELLS) if v.size > MAX_CELLS else 1
    m = v.size
    if binned > 1 and quick is None:
        cells = math.ceil(m / binned)
        padded = np.zeros(cells * binned)
        padded[:m] = v
        v = padded.reshape(cells, binned).mean(axis=1)
        v[-1] = v[-1] * binned / (m - (cells - 1) * binned)
    cols = _columns(flt, v.size) if binned == 1 else max(8, min(512, math.ceil(math.sqrt(v.size * 2))))
    rows = math.ceil(v.size / cols)
    shade = np.full(rows * cols, -1.0)
    shade[: v.size] = v
    unset, full = np.array(UNSET, float), np.array(SET, float)
    rgb = unset + shade[:, None].clip(0, 1) * (full - unset)
    rgb[shade < 0] = PAD
    return rgb.reshape(rows, cols, 3).round().astype(np.uint8)


def png_for(flt) -> bytes:
    rgb = grid_rgb(flt)
    scale = max(1, min(16, TARGET_WIDTH // rgb.shape[1]))
    return _png(np.repeat(np.repeat(rgb, scale, axis=0), scale, axis=1))


# The HTML view's table speaks words, which live above this layer (bloomviz.explain.notebook_table); that module
# hands its renderer here when bloomviz is imported (bloomviz.core imports it), since filters/ may not import
# explain/. Without it Jupyter shows the PNG alone.
_html_view = None


def set_html_view(render) -> None:
    """Install the function that renders a filter as HTML (its numbers and this module's picture)."""
    global _html_view
    _html_view = render


class RichDisplay:
    """Mixin: Jupyter shows the filter as its numbers and grid (``_repr_html_``) or the grid alone (``_repr_png_``)."""

    def _repr_html_(self) -> str | None:
        return _html_view(self) if _html_view is not None else None

    def _repr_png_(self) -> bytes:
        return png_for(self)
