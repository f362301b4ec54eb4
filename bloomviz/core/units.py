"""Numbers as people read them: memory in binary units, a rate as "1 in N"."""

from __future__ import annotations


def human_bytes(nbytes: float) -> str:
    """Binary units (KiB = 1024 B), two decimals; plain bytes below 1 KiB."""
    for unit, size in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if nbytes >= size:
            return f"{nbytes / size:.2f} {unit}"
    return f"{nbytes:.0f} B"


def one_in(p: float) -> str:
    if not p > 0:
        return "never"
    inverse = 1 / p
    return f"1 in {inverse:,.0f}" if inverse < 1e15 else f"1 in {inverse:.3g}"
