"""A filter built for the window from a form's parameters, checked against the window's limits first."""

from __future__ import annotations

from bloomviz.filters.registry import PARAMETERS, VARIANTS, check_variant, make_filter
from bloomviz.workbench import limits


def build_filter(variant: str, params: dict):
    """The filter ``variant`` with the parameters it takes from ``params``; ValueError/TypeError naming what is
    out of range. Sizes are checked before anything is allocated: m and k against the grid's limits, a growing
    filter's first stage computed from its capacity and p."""
    variant = check_variant(variant)
    takes = PARAMETERS[variant]
    if "m" in takes:
        limits.check_m(params.get("m"))
        limits.check_k(params.get("k"))
    if "scheme" in takes:
        limits.check_scheme(params.get("scheme"))
    if not VARIANTS[variant].capabilities.sized:
        limits.check_growing(params)
    return make_filter(variant, **{name: value for name, value in params.items() if name in takes})
