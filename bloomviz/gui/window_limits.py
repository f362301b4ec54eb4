"""The window's limits on sizes a user can type, checked before anything is allocated, stated in the messages.

- The grid shows at most ``MAX_M`` bits (one byte of picture per bit). A scalable filter has no m to type: its
  first stage follows from the initial capacity and p, and later stages double it. Both are computed from the
  stage specification (pure arithmetic) *before* a stage is allocated, so a 10^8 initial capacity is refused
  in words instead of allocating a 1.44-Gbit filter.
- The measurement's probes: each new filter draws them and measures them, so their number is what every
  Apply costs. 10^6 probes froze each new filter for seconds; ``MAX_PROBES`` keeps that under a few tenths of
  a second while the Wilson interval at that count is already far narrower than the plot's line.
- Saved preferences are read back as untrusted text (a hand-edited or damaged settings file): a font scale
  that is not a finite number within the offered range is the default, not a window that fails to start.
"""

from __future__ import annotations

import math

from bloomviz.gui.workbench import MAX_M

MAX_PROBES = 100_000


def check_probes(probes: object) -> int:
    if isinstance(probes, bool) or not isinstance(probes, int) or not 1 <= probes <= MAX_PROBES:
        raise ValueError(f"probes must be a whole number from 1 to {MAX_PROBES:,} (each new filter draws and "
                         f"measures them), got {probes!r}")
    return probes


def _stage_spec(initial_capacity, p, growth, tightening, index):
    from bloomviz.filters.scalable import stage_spec
    return stage_spec(initial_capacity, p, growth, tightening, index)


def check_scalable(params: dict) -> None:
    """Refuse (ValueError) a scalable filter whose first stage alone is larger than the grid."""
    initial = params.get("initial_capacity")
    p = params.get("p")
    growth = params.get("growth", 2)
    tightening = params.get("tightening", 0.9)
    if isinstance(initial, bool) or not isinstance(initial, int) or initial < 1:
        raise ValueError(f"initial capacity must be a positive whole number, got {initial!r}")
    for name, value in (("p", p), ("tightening", tightening)):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) \
                or not 0 < value < 1:
            raise ValueError(f"{name} must be a number strictly between 0 and 1, got {value!r}")
    if isinstance(growth, bool) or not isinstance(growth, int) or growth < 2:
        raise ValueError(f"growth must be a whole number of at least 2, got {growth!r}")
    spec = _stage_spec(initial, float(p), growth, float(tightening), 0)
    if spec.m > MAX_M:
        raise ValueError(f"a scalable filter with initial capacity {initial:,} at p = {p:g} starts with a stage "
                         f"of m = {spec.m:,} bits, more than the window's {MAX_M:,}; choose a smaller initial "
                         f"capacity or a larger p")


def scalable_m_after(flt, inserts: int) -> int:
    """The bits a scalable filter will have after ``inserts`` more items (stages it would open included)."""
    specs = flt.stage_specs()
    spec, held, m = specs[-1], len(flt.stages[-1]), flt.m
    while inserts > 0:
        room = spec.capacity - held
        if room <= 0:
            spec = _stage_spec(flt.initial_capacity, flt.p, flt.growth, flt.tightening, spec.index + 1)
            m += spec.m
            held = 0
            if m > MAX_M:
                return m
            continue
        take = min(room, inserts)
        held += take
        inserts -= take
    return m


def growth_refusal(flt, inserts: int) -> str | None:
    """Why ``inserts`` more items cannot go into the scalable filter ``flt`` in the window, or None."""
    try:
        m = scalable_m_after(flt, inserts)
    except ValueError as exc:
        return str(exc)
    if m > MAX_M:
        return (f"the scalable filter would need a new stage and m = {m:,} bits in all, more than the window's "
                f"{MAX_M:,}")
    return None


def font_scale(value: object, scales: tuple, default: float) -> float:
    """A saved font scale as a usable number: the default when it is not a finite number in the offered range."""
    try:
        scale = float(value)
    except (TypeError, ValueError, OverflowError):
        return default
    if not math.isfinite(scale) or not scales[0] <= scale <= scales[-1]:
        return default
    return scale
