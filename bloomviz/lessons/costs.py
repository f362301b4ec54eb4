"""Each lesson action's work, estimated from the lesson's state before the action runs (``budget.py`` says why).

``action_cost(state, action)`` is seconds of CPU (an estimate, by the coefficients in ``budget``) and the words
that name the work; ``report_cost(state)`` is what a step's report costs (its measured rate over the probes);
``check_new_filter`` refuses a filter too large before it is built (a growing filter's first stage) or right
after (its memory, before any bit is used), and ``check_growth`` a growing filter that inserts would push past
the lesson's bits.
"""

from __future__ import annotations

from bloomviz.filters import capabilities
from bloomviz.lessons import budget as B

CULPRIT_LIMIT = 2000     # name who set each bit only while the named members are few enough to list


# Schemes much slower per hash than the vectorised murmur ones (seconds per position, batch and scalar alike):
# SHA-256 is one hashlib call per position, seeded murmur one pass per position (measured, rounded up).
SLOW_HASH = {"sha256-salted": 1.4e-6, "kedmi-sha256": 1.4e-6, "murmur3-seeded": 0.12e-6}


def _per_hash(flt) -> float:
    return SLOW_HASH.get(flt.scheme, 0.0) if flt is not None else 0.0


def _k(flt) -> int:
    return int(flt.k) if flt is not None else 1


def _stages(flt) -> int:
    # a growing filter looks an item up in every stage
    return len(flt.stages) if flt is not None and capabilities.of(flt).staged else 1


def _bits(flt) -> int:
    return int(flt.m) if flt is not None else 0


def _memory_bits(flt) -> int:
    """The bits of memory the filter holds (counters count in full): what counting or copying it reads."""
    return int(flt.nbytes()) * 8 if flt is not None else 0


def culprit_cost(state, lookups: int) -> float:
    """Naming who set a looked-up item's bits hashes every distinct named member again (while they are few)."""
    if len(state.named) > CULPRIT_LIMIT or state.randoms:
        return 0.0
    members = len(set(state.named))
    flt = state.filter
    return lookups * members * (B.CULPRIT_PER_MEMBER + (B.CULPRIT_PER_HASH + _per_hash(flt)) * _k(flt))


def report_cost(state) -> float:
    """A step's report: the bits counted and the measured rate over the lesson's probes."""
    flt = state.filter
    if flt is None:
        return 0.0
    return _memory_bits(flt) * B.BIT + B.items_cost(state.probes, _k(flt), scalar=False, stages=_stages(flt),
                                                  per_hash=_per_hash(flt))


def action_cost(state, action) -> tuple[float, str]:
    """(estimated seconds, what the action would do) for ``action`` on ``state`` as it is now."""
    name, a, o = action.name, action.args, action.options
    flt = state.filter
    k, stages, slow = _k(flt), _stages(flt), _per_hash(flt)
    seconds = B.ACTION_BASE
    if name in ("insert", "insert-random", "autoplay") and flt is not None:
        check_growth(flt, len(a) if name == "insert" else a[0])
    if name in ("insert", "lookup", "remove"):
        seconds += B.items_cost(len(a), k, scalar=True, stages=stages, per_hash=slow)
        if name == "lookup":
            seconds += culprit_cost(state, len(a))
        return seconds, f"{name} of {len(a):,} item{'s' * (len(a) != 1)}"
    if name == "predict":
        items = len(a) - 1
        seconds += B.items_cost(max(1, items), k, scalar=True, stages=stages, per_hash=slow) + culprit_cost(state, 1)
        seconds += _memory_bits(flt) * B.BIT * 2 + report_cost(state)     # a copy of the filter, or a measured rate
        return seconds, "this question's answer"
    if name in ("insert-random", "autoplay"):
        return seconds + B.items_cost(a[0], k, scalar=False, stages=stages, per_hash=slow), f"{name} of {a[0]:,} items"
    if name == "measure":
        probes = o["probes"]
        return seconds + B.items_cost(probes, k, scalar=False, stages=stages, per_hash=slow), \
            f"measuring over {probes:,} probes at every step"
    if name == "ensemble":
        n = o.get("n", len(flt) if flt is not None else 0)
        filters, m = o["filters"], _bits(flt)
        seconds += B.items_cost(filters * (n + o["probes"]), k, scalar=False, per_hash=slow) + filters * m * B.CELL
        return seconds, f"an ensemble of {filters:,} filters × (m = {m:,} bits, {n:,} items, {o['probes']:,} probes)"
    if name == "kedmi":
        drawn = o["seed"] in state.kedmi_seeds
        return seconds + (B.KEDMI_AGAIN if drawn else B.KEDMI_FIRST), "Kedmi's replay"
    if name == "git-history":        # a repository of N commits built by git, then measured (0.2 s at 300)
        return seconds + B.GIT_BASE + B.GIT_COMMIT * o["commits"], f"a git history of {o['commits']:,} commits"
    if name == "ethereum-block":
        return seconds + B.GIT_BASE, "reading the shipped Ethereum block"
    if name == "rates":
        return seconds + B.FORMULA * len(o["n"]), f"rates at {len(o['n']):,} values of n"
    if name == "design":
        return seconds + B.FORMULA, "a design"
    if name == "expect":
        return seconds + report_cost(state), "this check"
    if name == "filter":
        return seconds + B.FORMULA, "a new filter"
    return seconds, name


def check_new_filter_spec(variant_cls, params: dict) -> None:
    """Before a growing filter is built: its first stage must fit a lesson (a scalable filter's first stage at
    capacity 10^9 and p = 10^-9 is 4·10^10 bits, which no array holds)."""
    if variant_cls.capabilities.sized:
        return
    from bloomviz.filters.scalable_stages import stage_spec
    defaults = {p.name: p.default for p in variant_cls.parameters}
    given = {key: (value if value is not None else defaults.get(key)) for key, value in params.items()}
    try:
        first = stage_spec(given["initial_capacity"], given["p"], given.get("growth") or 2,
                           given.get("tightening") or 0.9, 0)
    except (KeyError, TypeError):
        return          # the constructor names what is missing or wrong
    if first.m > B.GROWING_MAX_M:
        raise B.BudgetError(f"its first stage alone would be m = {first.m:,} bits, more than a lesson's growing "
                            f"filter may hold ({B.GROWING_MAX_M:,}); choose a smaller capacity or a larger p")


def check_growth(flt, inserts: int) -> None:
    """A growing filter that ``inserts`` more items would push past the lesson's bits is refused first."""
    if not capabilities.of(flt).staged:
        return
    from bloomviz.workbench.limits import scalable_m_after
    m = scalable_m_after(flt, inserts)
    if m > B.GROWING_MAX_M:
        raise B.BudgetError(f"{inserts:,} more items would grow the scalable filter to m = {m:,} bits or more, "
                            f"more than a lesson's growing filter may hold ({B.GROWING_MAX_M:,})")
