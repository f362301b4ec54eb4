"""A filter in Jupyter as HTML: its numbers, in words, beside the grid picture filters/notebook.py draws.

Importing this module installs ``html_for`` as the filters' ``_repr_html_`` view (bloomviz.core imports it, so
``import bloomviz`` in a notebook is enough). Foreign filters (bloomviz.formats) are shown by their format and
label; bloomviz's own by their variant and insert count.
"""

from __future__ import annotations

import base64
import html
import math

from bloomviz.filters import notebook
from bloomviz.filters.scalable import ScalableBloomFilter
from bloomviz.theory.units import too_full_text
from bloomviz.filters.standard import BloomFilter


def numbers(flt) -> list[tuple[str, str]]:
    """The rows of the table: what the filter is, its size, fill, estimated n and rate now."""
    est = float(flt.estimated_count)
    fp = float(flt.expected_fp)
    own = isinstance(flt, (BloomFilter, ScalableBloomFilter))
    what, label = (flt.variant, "") if own else (flt.format, flt.label)
    rows = [("filter", f"{what}{' — ' + label if label else ''}"), ("m (bits)", f"{flt.m:,}"), ("k", str(flt.k)),
            ("bits set", f"{flt.bits_set:,} (fill {flt.bits_set / flt.m * 100:.2f}%)"),
            ("estimated n", too_full_text(flt.bits_set, flt.m) if not math.isfinite(est) else f"{est:,.1f}"),
            ("expected FP now", f"{fp:.4g}" + (f" (1 in {1 / fp:,.0f})" if fp > 0 else ""))]
    if own:
        rows.append(("inserts", f"{len(flt):,}"))
    return rows


def html_for(flt) -> str:
    image = base64.b64encode(notebook.png_for(flt)).decode("ascii")
    cells = "".join(f"<tr><th style='text-align:left;padding-right:1em'>{html.escape(k)}</th>"
                    f"<td style='text-align:left'>{html.escape(v)}</td></tr>" for k, v in numbers(flt))
    return (f"<div style='display:flex;gap:1.5em;align-items:flex-start'><table>{cells}</table>"
            f"<img alt='bit grid' style='image-rendering:pixelated;max-width:100%' "
            f"src='data:image/png;base64,{image}'/></div>")


notebook.set_html_view(html_for)
