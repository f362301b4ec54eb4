"""The lab's report in words (``text``), as CSV rows (``csv_text``) and as a plot (``svg``).

The plot is SVG written here: a few dozen lines of text beat a plotting library for one chart of points and
intervals, it needs no Qt and no display, it keeps its labels as text (a notebook shows it inline, with the words, through
``LabReport._repr_html_``), and it opens in any browser.

Each function takes a ``grid.LabReport``; this module does not import it (the report asks this module for its
words, so importing it back made the lab's one import cycle).
"""

from __future__ import annotations

import html
import math

from bloomviz.palette import REPORT
from bloomviz.lab.kinds import KINDS
from bloomviz.theory.units import rate_text

CSV_COLUMNS = ("m", "k", "n", "probes", "false_positives", "measured", "low", "high", "exact", "bits_set",
               "given_fill", "p_given_fill", "z_ensemble", "p_ensemble", "findings")


def _list(values) -> str:
    return ", ".join(f"{v:,}" for v in values)


def _short(point) -> str:
    return "; ".join(f.kind for f in point.findings) or "consistent"


def text(report) -> str:
    g = report.grid
    lines = [f"{report.form}: {g.points} points (m = {_list(g.ms)}; k = {_list(g.ks)}; n = {_list(g.ns)}), "
             f"{g.probes:,} strangers looked up at each, seed {g.seed}",
             f"exact: the rate for independent uniform positions, E[(X/m)^k]; given fill: (X/m)^k for the bits "
             f"this filter set; a point is flagged when luck explains it less often than p = "
             f"{report.threshold:.2g} (alpha {g.alpha:g} over the whole grid)", ""]
    head = f"{'m':>7} {'k':>3} {'n':>8}  {'measured':>10}  {'95 % interval':>21}  {'exact':>10}  {'given fill':>10}  verdict"
    lines.append(head)
    for p in report.points:
        interval = f"{rate_text(p.low)} – {rate_text(p.high)}"
        given = rate_text(p.given_fill) if p.given_fill is not None else "—"
        lines.append(f"{p.m:>7,} {p.k:>3} {p.n:>8,}  {rate_text(p.measured):>10}  {interval:>21}  "
                     f"{rate_text(p.exact):>10}  {given:>10}  {_short(p)}")
    lines.append("")
    for note in report.notes:
        lines.append(f"note: {note}")
    bad = [p for p in report.points if not p.consistent]
    if not bad:
        lines.append(f"Consistent with independent positions at every one of the {len(report.points)} points.")
        return "\n".join(lines) + "\n"
    lines.append(f"NOT consistent with independent positions at {len(bad)} of {len(report.points)} points:")
    for kind in KINDS:
        where = report.where(kind)
        if not where:
            continue
        first = next(f for f in where[0].findings if f.kind == kind)
        at = ", ".join(f"(m {p.m:,}, k {p.k}, n {p.n:,})" for p in where[:4])
        more = f" and {len(where) - 4} more" if len(where) > 4 else ""
        lines.append(f"- {kind.upper()} at {len(where)} point{'s' if len(where) > 1 else ''}: {at}{more}.")
        lines.append(f"  At (m {where[0].m:,}, k {where[0].k}, n {where[0].n:,}): {first.text}.")
    return "\n".join(lines) + "\n"


def html_text(report) -> str:
    """The plot and the report's words, for a notebook."""
    return f"<div>{svg(report)}<pre>{html.escape(text(report))}</pre></div>"


def csv_text(report) -> str:
    def cell(v) -> str:
        if v is None:
            return ""
        if isinstance(v, float):
            return f"{v:.9g}"
        text = str(v)
        return f'"{text}"' if "," in text else text
    rows = [",".join(CSV_COLUMNS)]
    for p in report.points:
        values = (p.m, p.k, p.n, p.probes, p.false_positives, p.measured, p.low, p.high, p.exact, p.bits_set,
                  p.given_fill, p.p_given_fill, p.z_ensemble, p.p_ensemble, "; ".join(f.kind for f in p.findings))
        rows.append(",".join(cell(v) for v in values))
    return "\n".join(rows) + "\n"


# --- the plot --------------------------------------------------------------------------------------------------
FLOOR = 1e-6         # rates below are drawn on the bottom edge (a measured 0 has no logarithm)
GOOD, BAD, THEORY = REPORT["good"], REPORT["bad"], REPORT["theory"]


def svg(report) -> str:
    """Measured rate with its interval (blue: consistent, red: flagged) against the exact rate (black bar), one
    column per grid point, grouped by (m, k), on a log scale."""
    pts = report.points
    width, height, left, right, top, bottom = max(640, 60 + 14 * len(pts)), 360, 56, 12, 28, 64
    plot_w, plot_h = width - left - right, height - top - bottom
    lo_exp = math.floor(math.log10(FLOOR))

    def y(rate: float) -> float:
        r = min(1.0, max(FLOOR, rate))
        return top + plot_h * (math.log10(r) / lo_exp)

    def x(i: int) -> float:
        return left + plot_w * (i + 0.5) / max(1, len(pts))

    e = html.escape
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="11">',
           f'<title>{e("False-positive rate of the student filter against the exact rate for independent positions")}'
           '</title>',
           f'<rect x="0" y="0" width="{width}" height="{height}" fill="{REPORT["background"]}"/>',
           f'<text x="{left}" y="16" font-size="12">measured rate (dot, 95 % interval) and exact rate for '
           'independent positions (black bar)</text>']
    for power in range(lo_exp, 1):
        yy = y(10.0 ** power)
        out.append(f'<line x1="{left}" x2="{width - right}" y1="{yy:.1f}" y2="{yy:.1f}" '
                   f'stroke="{REPORT["grid"]}"/>')
        out.append(f'<text x="{left - 6}" y="{yy + 4:.1f}" text-anchor="end">1e{power}</text>')
    group_start = 0
    for i, p in enumerate(pts):
        colour = GOOD if p.consistent else BAD
        xx = x(i)
        out.append(f'<line x1="{xx - 5:.1f}" x2="{xx + 5:.1f}" y1="{y(p.exact):.1f}" y2="{y(p.exact):.1f}" '
                   f'stroke="{THEORY}" stroke-width="2"/>')
        out.append(f'<line x1="{xx:.1f}" x2="{xx:.1f}" y1="{y(p.high):.1f}" y2="{y(p.low):.1f}" '
                   f'stroke="{colour}"/>')
        label = (f"m {p.m:,}, k {p.k}, n {p.n:,}: measured {rate_text(p.measured)}, exact {rate_text(p.exact)}"
                 f" — {_short(p)}")
        out.append(f'<circle cx="{xx:.1f}" cy="{y(p.measured):.1f}" r="3" fill="{colour}">'
                   f'<title>{e(label)}</title></circle>')
        last = i + 1 == len(pts) or (pts[i + 1].m, pts[i + 1].k) != (p.m, p.k)
        if last:
            mid = (x(group_start) + xx) / 2
            out.append(f'<text x="{mid:.1f}" y="{top + plot_h + 16}" text-anchor="middle">m {p.m:,}</text>')
            out.append(f'<text x="{mid:.1f}" y="{top + plot_h + 30}" text-anchor="middle">k {p.k}</text>')
            if i + 1 < len(pts):
                sep = (xx + x(i + 1)) / 2
                out.append(f'<line x1="{sep:.1f}" x2="{sep:.1f}" y1="{top}" y2="{top + plot_h}" '
                           f'stroke="{REPORT["separator"]}"/>')
            group_start = i + 1
    out.append(f'<text x="{left}" y="{height - 10}">n grows left to right in each (m, k) · red: not consistent '
               f'with independent positions · below 1e{lo_exp}: on the bottom edge</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"
