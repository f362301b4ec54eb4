"""Pure geometry and shading helpers for the bit grid (numpy only, no Qt).

The grid lays m cells out row by row in a near-square ``rows x cols`` array; cell ``i`` sits at
row ``i // cols``, column ``i % cols``. The last row may end with padding cells (``rows * cols - m`` of them,
always fewer than ``cols``) that belong to no bit.

In view coordinates a cell ``(row, col)`` covers the unit square ``[col, col + 1) x [row, row + 1)``, so its
centre is ``(col + 0.5, row + 0.5)``.

Shading when zoomed out: a screen pixel may cover many cells. The display image is then built from
``f x f`` blocks of cells, each shown as the MEAN of its real cells (padding excluded), scaled to 0..255,
so a half-full region is drawn half-way between the "0" and the "1" colour instead of as one sampled bit.
"""

from __future__ import annotations

import math
import sys

import numpy as np

#: Largest grid this widget builds (one byte per cell); beyond this the picture alone would need > 256 MiB.
MAX_CELLS = 1 << 28


def grid_shape(m: int, aspect: float = 1.0) -> tuple[int, int]:
    """(rows, cols) of the grid for m cells: near-square, cols = ceil(sqrt(m)), rows = ceil(m / cols); with
    ``aspect`` > 1 about that many times wider than tall (cols = ceil(sqrt(m * aspect)), at most m), as a wide,
    short stage fits larger cells (presenter mode)."""
    if isinstance(m, bool) or not isinstance(m, (int, np.integer)):
        raise TypeError(f"m must be an integer, got {m!r}")
    m = int(m)
    if m < 1 or m > MAX_CELLS:
        raise ValueError(f"m must be between 1 and {MAX_CELLS:,} cells for the grid, got {m:,}")
    target = m if aspect == 1.0 else max(1, round(m * float(aspect)))
    cols = math.isqrt(target)
    if cols * cols < target:
        cols += 1
    cols = min(cols, m)
    rows = -(-m // cols)
    return rows, cols


def index_to_cell(index, cols: int):
    """(row, col) of cell index (scalars or numpy arrays)."""
    return index // cols, index % cols


def cell_centres(positions: np.ndarray, cols: int) -> tuple[np.ndarray, np.ndarray]:
    """x and y view coordinates of the centres of the given cell indices."""
    positions = np.asarray(positions, dtype=np.int64)
    return (positions % cols).astype(np.float64) + 0.5, (positions // cols).astype(np.float64) + 0.5


def point_to_index(x: float, y: float, rows: int, cols: int, m: int) -> int:
    """Index of the cell under view point (x, y), or -1 when the point is off the grid or on padding."""
    if not (math.isfinite(x) and math.isfinite(y)):
        return -1
    col = math.floor(x)
    row = math.floor(y)
    if col < 0 or row < 0 or col >= cols or row >= rows:
        return -1
    index = row * cols + col
    return index if index < m else -1


def range_rects(start: int, end: int, cols: int) -> list[tuple[int, int, int, int]]:
    """Rectangles (x, y, w, h) in cell units that together cover exactly the indices [start, end).

    At most three: the tail of the first row, the full rows in between, the head of the last row.
    """
    if end <= start:
        return []
    r0, c0 = divmod(start, cols)
    r1, c1 = divmod(end - 1, cols)
    if r0 == r1:
        return [(c0, r0, c1 - c0 + 1, 1)]
    rects = []
    first_full = r0
    if c0 > 0:
        rects.append((c0, r0, cols - c0, 1))
        first_full = r0 + 1
    last_full = r1
    if c1 < cols - 1:
        last_full = r1 - 1
    if last_full >= first_full:
        rects.append((0, first_full, cols, last_full - first_full + 1))
    if c1 < cols - 1:
        rects.append((0, r1, c1 + 1, 1))
    return rects


def block_factor(cells_per_pixel: float) -> int:
    """Cells per block side so that one block is at least one screen pixel (1 when cells are >= 1 px)."""
    if not math.isfinite(cells_per_pixel) or cells_per_pixel <= 1.0 + 1e-9:
        return 1
    return int(math.ceil(cells_per_pixel - 1e-9))


def block_window(x0: float, y0: float, x1: float, y1: float, rows: int, cols: int, f: int,
                 margin: float = 0.25) -> tuple[int, int, int, int]:
    """Cell window (r0, r1, c0, c1) covering the view rect [x0, x1) x [y0, y1) plus ``margin`` of its size
    on every side, clipped to the grid, with r0 and c0 aligned to multiples of f (so blocks stay put when
    the window moves) and r1, c1 either multiples of f or the grid's edge."""
    w = max(x1 - x0, 1.0)
    h = max(y1 - y0, 1.0)
    cx0 = max(0, math.floor(x0 - margin * w))
    cy0 = max(0, math.floor(y0 - margin * h))
    cx1 = min(cols, math.ceil(x1 + margin * w))
    cy1 = min(rows, math.ceil(y1 + margin * h))
    if cx1 <= cx0 or cy1 <= cy0:  # view entirely off the grid: keep a small valid window
        cx0, cy0 = min(max(cx0, 0), cols - 1), min(max(cy0, 0), rows - 1)
        cx1, cy1 = cx0 + 1, cy0 + 1
    c0 = (cx0 // f) * f
    r0 = (cy0 // f) * f
    c1 = min(cols, -(-cx1 // f) * f)
    r1 = min(rows, -(-cy1 // f) * f)
    return r0, r1, c0, c1


def window_contains(outer: tuple[int, int, int, int], inner: tuple[int, int, int, int]) -> bool:
    """Whether cell window ``inner`` (r0, r1, c0, c1) lies inside ``outer``."""
    return outer[0] <= inner[0] and outer[2] <= inner[2] and inner[1] <= outer[1] and inner[3] <= outer[3]


def block_counts(r0: int, r1: int, c0: int, c1: int, f: int, cols: int, m: int) -> np.ndarray:
    """Number of real (non-padding) cells in each f x f block of the window; shape (ceil(h/f), ceil(w/f))."""
    row_edges = np.arange(r0, r1, f)
    col_edges = np.arange(c0, c1, f)
    rows_in = np.minimum(row_edges + f, r1) - row_edges
    cols_in = np.minimum(col_edges + f, c1) - col_edges
    counts = np.outer(rows_in, cols_in).astype(np.int64)
    last_row = (m - 1) // cols
    pad_from = m - last_row * cols  # first padding column of the last row (== cols when there is none)
    if pad_from < cols and r0 <= last_row < r1:
        b = (last_row - r0) // f
        pad_in_block = np.clip(np.minimum(col_edges + f, c1) - np.maximum(col_edges, pad_from), 0, None)
        counts[b] -= pad_in_block
    return counts


def _accumulator(f: int, max_value: int):
    return np.uint16 if f * f * max_value <= np.iinfo(np.uint16).max else np.uint32


def block_sums(cells: np.ndarray, r0: int, r1: int, c0: int, c1: int, f: int, max_value: int) -> np.ndarray:
    """Sum of cell values over each f x f block of the window (partial blocks at the edges).

    Strided slice additions instead of reshape/mean: about 10x faster than a float64 mean on 10^7 cells. The
    rows are added in bytes while the sum of f of them fits one (whole rows at a time, same type: 4 x 4 blocks
    of 10^8 cells in 23 ms instead of 41 here); only the column pass widens.
    """
    win = cells[r0:r1, c0:c1]
    if f == 1:
        return win
    h, w = win.shape
    acc_t = _accumulator(f, max_value)
    row_t = np.uint8 if win.dtype == np.uint8 and f * max_value <= 255 else acc_t
    words = f == 4 and row_t == np.uint8 and f * f * max_value <= 255 and sys.byteorder == "little"
    # 4 x 4 blocks whose sum fits a byte: the column pass adds each 4 bytes of a row as one 32-bit word
    # (its top byte times 0x01010101 is their sum), not as 4 strided passes (23 ms for 10^8 cells, was 37)
    rows_acc = np.zeros((-(-h // f), -(-w // 4) * 4 if words else w), row_t)
    for i in range(f):
        part = win[i::f]
        rows_acc[: part.shape[0], :w] += part
    if words:
        word = rows_acc.view(np.uint32)
        return ((word * np.uint32(0x01010101)) >> np.uint32(24)).astype(acc_t)
    out = np.zeros((rows_acc.shape[0], -(-w // f)), acc_t)
    for j in range(f):
        part = rows_acc[:, j::f]
        out[:, : part.shape[1]] += part
    return out


def shade_table(max_value: int) -> np.ndarray:
    """uint8 table raw cell value -> display level 0..255 (values above max_value saturate)."""
    levels = np.round(np.arange(256, dtype=np.float64) * 255.0 / max_value)
    return np.clip(levels, 0, 255).astype(np.uint8)


def shade_blocks(sums: np.ndarray, counts: np.ndarray, max_value: int) -> np.ndarray:
    """Display levels 0..255 for blocks: mean cell value / max_value, rounded; empty blocks (all padding) 0."""
    scale = np.float32(255.0 / max_value)
    safe = np.maximum(counts, 1).astype(np.float32)
    out = sums.astype(np.float32) * scale / safe + np.float32(0.5)
    out[counts == 0] = 0
    return np.clip(out, 0, 255).astype(np.uint8)


def window_levels(cells: np.ndarray, window: tuple[int, int, int, int], f: int, max_value: int,
                  cols: int, m: int) -> np.ndarray:
    """The display image (uint8 levels 0..255) of a cell window at block factor f."""
    r0, r1, c0, c1 = window
    if f == 1:
        return shade_table(max_value)[cells[r0:r1, c0:c1]]
    sums = block_sums(cells, r0, r1, c0, c1, f, max_value)
    return shade_blocks(sums, block_counts(r0, r1, c0, c1, f, cols, m), max_value)


def visible_range(x0: float, y0: float, x1: float, y1: float, rows: int, cols: int) -> tuple[int, int, int, int]:
    """Rows [r0, r1) and columns [c0, c1) of the cells touching the view rect, clipped to the grid."""
    c0 = max(0, math.floor(x0))
    r0 = max(0, math.floor(y0))
    c1 = min(cols, math.ceil(x1))
    r1 = min(rows, math.ceil(y1))
    return r0, max(r0, r1), c0, max(c0, c1)
