"""Draw bloomviz's application icon: a 4 x 4 grid of bits with three of them lit, as an SVG and a PNG.

One description of the picture (``SHAPES``) is written twice: as SVG text, and rasterised here with numpy
(4 x 4 supersampling for smooth edges) into an RGBA PNG written with zlib, so no image library or Qt is needed
and the two files cannot drift apart. Run from the repository root:

    .venv/bin/python assets/make_icon.py

It writes assets/bloomviz.svg and assets/bloomviz.png, and the same bytes into bloomviz/data/icons/ (package
data: the installed window and ``bloomviz --install-desktop-entry`` read the icon from there).
tests/project/test_shipping.py checks that the files are what this script makes.
"""

from __future__ import annotations

import struct
import sys
import zlib
from pathlib import Path

import numpy as np

SIZE = 256
BACKGROUND = "#1f2a44"
OFF, ON = "#3b4a6b", "#ffb000"
LIT = {(0, 1), (1, 3), (3, 0)}   # the k = 3 positions of one item: (row, column)
CELL, GAP = 44, 10
MARGIN = (SIZE - 4 * CELL - 3 * GAP) // 2


def shapes() -> list[tuple[float, float, float, float, float, str]]:
    """(x, y, width, height, corner radius, colour) of every rounded rectangle, back to front."""
    out = [(0, 0, SIZE, SIZE, 44, BACKGROUND)]
    for row in range(4):
        for col in range(4):
            x, y = MARGIN + col * (CELL + GAP), MARGIN + row * (CELL + GAP)
            out.append((x, y, CELL, CELL, 8, ON if (row, col) in LIT else OFF))
    return out


def svg() -> str:
    rects = "\n".join(f'  <rect x="{x}" y="{y}" width="{w}" height="{h}" rx="{r}" fill="{c}"/>'
                      for x, y, w, h, r, c in shapes())
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{SIZE}" height="{SIZE}" '
            f'viewBox="0 0 {SIZE} {SIZE}">\n  <title>bloomviz</title>\n{rects}\n</svg>\n')


def _rgb(colour: str) -> np.ndarray:
    return np.array([int(colour[i:i + 2], 16) for i in (1, 3, 5)], dtype=float)


def raster(size: int = SIZE, samples: int = 4) -> np.ndarray:
    """The icon as a (size, size, 4) uint8 RGBA array."""
    scale = size / SIZE
    # sample points at the centres of a samples x samples grid inside each pixel
    offsets = (np.arange(samples) + 0.5) / samples
    coords = (np.arange(size)[:, None] + offsets[None, :]).ravel() / scale
    ys, xs = np.meshgrid(coords, coords, indexing="ij")
    rgb = np.zeros(ys.shape + (3,))
    alpha = np.zeros(ys.shape)
    for x, y, w, h, r, colour in shapes():
        # inside a rounded rectangle: distance to the inner rectangle shrunk by r is at most r
        dx = np.maximum(np.abs(xs - (x + w / 2)) - (w / 2 - r), 0)
        dy = np.maximum(np.abs(ys - (y + h / 2)) - (h / 2 - r), 0)
        inside = (dx * dx + dy * dy) <= r * r
        rgb[inside] = _rgb(colour)
        alpha[inside] = 1.0
    # average each pixel's samples (premultiplied, so the transparent corners do not darken the edge)
    pre = (rgb * alpha[..., None]).reshape(size, samples, size, samples, 3).mean(axis=(1, 3))
    a = alpha.reshape(size, samples, size, samples).mean(axis=(1, 3))
    colour = np.where(a[..., None] > 0, pre / np.maximum(a[..., None], 1e-9), 0)
    return np.dstack([np.round(colour), np.round(a * 255)]).clip(0, 255).astype(np.uint8)


def png(pixels: np.ndarray) -> bytes:
    """An RGBA PNG of a (h, w, 4) uint8 array (filter type 0 on every row)."""
    h, w, _ = pixels.shape

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    rows = np.concatenate([np.zeros((h, 1), np.uint8), pixels.reshape(h, w * 4)], axis=1)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows.tobytes(), 9)) + chunk(b"IEND", b""))


def files() -> dict[str, bytes]:
    """Relative path -> the bytes this script writes there."""
    picture = {"bloomviz.svg": svg().encode("ascii"), "bloomviz.png": png(raster())}
    out = {}
    for name, data in picture.items():
        out[f"assets/{name}"] = data
        out[f"bloomviz/data/icons/{name}"] = data
    return out


def main(root: str = ".") -> int:
    for rel, data in files().items():
        path = Path(root) / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        print(f"wrote {path} ({len(data):,} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
