"""Variant ids -> filter classes, and one way to build any of them from validated arguments.

The ids are written into saved files (``flt.variant``): never rename one. The command line (``--variant``), the
window's parameter panel and storage build filters through ``make_filter`` and ``persist.from_state``.

A variant is its class: it declares what it takes and can do (``capabilities``: its parameters, see params.py,
and whether it counts, removes, grows in stages...) and keeps numbers; its words are its describer's
(bloomviz.explain.describers). Adding one is its module, one line in ``VARIANTS`` and its describer (the .bloom
format also lists each variant's payload layout in ``files/storage.py``). Nothing else compares variant ids
(tests/architecture/test_no_variant_switches.py).
"""

from __future__ import annotations


from bloomviz.filters import capabilities

from bloomviz.hashing import schemes as hashing
from bloomviz.filters.blocked import BlockedBloomFilter
from bloomviz.filters.counting import CountingBloomFilter
from bloomviz.filters.standard import BloomFilter
from bloomviz.filters.partitioned import PartitionedBloomFilter
from bloomviz.filters.params import REQUIRED, defaults  # noqa: F401 - REQUIRED is read from here too
from bloomviz.filters.scalable import ScalableBloomFilter

# One line per variant, in the order menus list them; everything else about a variant is on its class.
VARIANTS: dict[str, type] = {cls.variant: cls for cls in (
    BloomFilter,
    CountingBloomFilter,
    ScalableBloomFilter,
    PartitionedBloomFilter,
    BlockedBloomFilter,
)}
DEFAULT_VARIANT = BloomFilter.variant

# Every constructor argument of every variant, in the order a form would ask for them, with its default
# (``REQUIRED`` when none): read from the classes' declarations (params.py), the scheme last.
PARAMETERS: dict[str, dict[str, object]] = {vid: defaults(cls.capabilities.parameters, hashing.DEFAULT_SCHEME)
                                            for vid, cls in VARIANTS.items()}


def is_standard(flt) -> bool:
    """Whether ``flt`` is the textbook filter itself (not a variant built on it): what an ensemble of random
    standard filters can stand beside."""
    return type(flt) is BloomFilter


def check_variant(variant: object) -> str:
    if not isinstance(variant, str) or variant not in VARIANTS:
        raise ValueError(f"unknown filter variant {variant!r}; known variants: {', '.join(VARIANTS)}")
    return variant


def make_filter(variant: str = "standard", **params):
    """Build a filter of the given variant. Arguments are checked by the constructor (messages name the bad
    value); a parameter given as None takes its default; an unknown or missing parameter is named."""
    variant = check_variant(variant)
    # the class's own declaration
    accepted = defaults(VARIANTS[variant].capabilities.parameters, hashing.DEFAULT_SCHEME)
    given = {name: value for name, value in params.items() if value is not None}
    unknown = [name for name in given if name not in accepted]
    if unknown:
        raise ValueError(f"unknown parameter {unknown[0]!r} for a {variant} filter; "
                         f"it takes: {', '.join(accepted)}")
    missing = [name for name, default in accepted.items() if default is REQUIRED and name not in given]
    if missing:
        raise ValueError(f"a {variant} filter needs {' and '.join(missing)}")
    return VARIANTS[variant](**given)


def standard_formulas_apply(flt) -> bool:
    """Whether the standard filter's classic formula, approximation and bound describe ``flt`` (a counting
    filter answers lookups as a standard one does; slices, blocks and stages have their own theory)."""
    return capabilities.of(flt).standard_formulas
