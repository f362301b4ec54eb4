"""The atlas of a file with many filters (``bloomviz.formats.atlas``) as ``inspect`` prints it.

Each quantity is one line: min, 10th percentile, median, 90th percentile and max over the filters, so a file
of 11,000 commit filters reads in ten lines; a file of up to ``DETAIL_LIMIT`` filters also gets every
filter's own block below (as ``inspect`` always printed), a larger one points at ``--filter N`` and ``--json``.
"""

from __future__ import annotations

from bloomviz.commands.common import human_bytes, one_in, rate
from bloomviz.theory.units import SATURATED

DETAIL_LIMIT = 32


def _row(label: str, spread: dict | None, fmt) -> str:
    if spread is None:
        return f"  {label:<22}none (no finite values)"
    cells = "  ".join(f"{name} {fmt(spread[name])}" for name in ("min", "p10", "median", "p90", "max"))
    return f"  {label:<22}{cells}"


def _count(x: float) -> str:
    return f"{x:,.0f}" if x >= 100 else f"{x:,.1f}"


def render_atlas(a: dict, summaries: list[dict]) -> list[str]:
    def line(label: str, value: str) -> str:
        return f"  {label:<22}{value}"

    out = ["  atlas (over the filters: min, 10th percentile, median, 90th percentile, max)",
           line("k (hash positions)", ", ".join(map(str, a["k_values"]))),
           _row("m (bits)", a["m"], lambda v: f"{v:,.0f}"),
           _row("bits set", a["bits_set"], lambda v: f"{v:,.0f}"),
           _row("fill", a["fill"], lambda v: f"{v * 100:.1f}%"),
           _row("estimated n", a["estimated_n"], _count)]
    if a["saturated"]:
        out.append(line("", f"{a['saturated']:,} filter(s) {SATURATED}"))
    out.append(line("", f"{_count(a['total_estimated_n'])} entries estimated in all (from each filter's fill)"))
    out.append(_row("FP from its fill", a["expected_fp"], rate))
    if a["expected_fp"] is not None:
        mean = a["expected_fp"]["mean"]
        out.append(line("", f"mean {rate(mean)} ({one_in(mean)}): a never-inserted item sent to a filter at "
                            "random passes this often"))
    designs = [s["design_fp"] for s in summaries if s.get("design_fp") is not None]
    if designs:
        lo, hi = min(designs), max(designs)
        out.append(line("design FP", rate(lo) if lo == hi else f"{rate(lo)} .. {rate(hi)}"))
    past = f"{a['past_design']:,} of {a['filters']:,}"
    if a["past_design"]:
        rules = "; ".join(f"{n:,}: {rule}" for rule, n in a["past_design_rules"].items())
        first = ", ".join(str(i) for i in a["past_design_first"][:10])
        past += f" ({rules}; first: filter {first})"
    out.append(line("past design load", past))
    for basis in a.get("design_basis", ()):
        out.append(line("", f"(sized for: {basis})"))
    spent = f"{a['filter_bytes']:,} bytes ({human_bytes(a['filter_bytes'])}) of bits"
    if a["file_bytes"] and "source_files" in a:     # a folder has no size: the files its filters came from have
        whole = "file they came from" if a["source_files"] == 1 else f"{a['source_files']:,} files they came from"
        spent += f", {a['filter_share'] * 100:.1f}% of the {a['file_bytes']:,} bytes of the {whole}"
    elif a["file_bytes"]:
        spent += f", {a['filter_share'] * 100:.1f}% of the {a['file_bytes']:,}-byte file"
    out.append(line("spent on filters", spent))
    return out
