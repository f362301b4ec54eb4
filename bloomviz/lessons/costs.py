"""Each lesson action's work, estimated from the lesson's state before the action runs (``budget.py`` says why).

Each action's declaration names its cost function here (``items_cost``, ``generated_cost``, …): seconds of CPU
(an estimate, by the coefficients in ``budget``) and the words that name the work; ``report_cost(state)`` is what a step's report costs (its measured rate over the probes);
``check_new_filter`` refuses a filter too large before it is built (a growing filter's first stage) or right
after (its memory, before any bit is used), and ``check_growth`` a growing filter that inserts would push past
the lesson's bits.
"""

from __future__ import annotations

from bloomviz.filters import capabilities
from bloomviz.formats.reasons import Reason, say
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


def _hashing(state, count: int, scalar: bool) -> float:
    flt = state.filter
    return B.items_cost(count, _k(flt), scalar=scalar, stages=_stages(flt), per_hash=_per_hash(flt))


# Each action's cost, named in its declaration (``actions/``): (estimated seconds, what the action would do) for
# the action on the state as it is now.

def items_cost(state, action) -> tuple[float, str]:
    """remove (and the part of insert and lookup they share): named items, each a workbench operation."""
    count = len(action.args)
    return B.ACTION_BASE + _hashing(state, count, scalar=True), Reason(say("{action} of {count} item" if count == 1 else "{action} of {count} items",
                                                                        action=action.name, count=count))


def insert_cost(state, action) -> tuple[float, str]:
    """Named items inserted; a growing filter they would push past the lesson's bits is refused first."""
    if state.filter is not None:
        check_growth(state.filter, len(action.args))
    return items_cost(state, action)


def lookup_cost(state, action) -> tuple[float, str]:
    """Named items looked up, and who set the bits of each one found present."""
    seconds, what = items_cost(state, action)
    return seconds + culprit_cost(state, len(action.args)), what


def predict_cost(state, action) -> tuple[float, str]:
    flt = state.filter
    seconds = B.ACTION_BASE + _hashing(state, max(1, len(action.args) - 1), scalar=True) + culprit_cost(state, 1)
    seconds += _memory_bits(flt) * B.BIT * 2 + report_cost(state)     # a copy of the filter, or a measured rate
    return seconds, Reason(say("this question's answer"))


def generated_cost(state, action) -> tuple[float, str]:
    """insert-random and autoplay: generated items, hashed in batches."""
    count, flt = action.args[0], state.filter
    if flt is not None:
        check_growth(flt, count)
    seconds = B.workbench_items_cost(count, _k(flt), stages=_stages(flt), per_hash=_per_hash(flt),
                                     growing=flt is not None and capabilities.of(flt).staged)
    return B.ACTION_BASE + seconds, Reason(say("{action} of {count} items", action=action.name, count=count))


def measure_cost(state, action) -> tuple[float, str]:
    probes = action.options["probes"]
    return B.ACTION_BASE + _hashing(state, probes, scalar=False), Reason(say("measuring over {probes} probes at every step",
                                                                               probes=probes))


def ensemble_cost(state, action) -> tuple[float, str]:
    o, flt = action.options, state.filter
    n = o.get("n", len(flt) if flt is not None else 0)
    filters, m = o["filters"], _bits(flt)
    seconds = B.ACTION_BASE + B.items_cost(filters * (n + o["probes"]), _k(flt), scalar=False,
                                           per_hash=_per_hash(flt)) + filters * m * B.CELL
    return seconds, Reason(say("an ensemble of {filters} filters × (m = {m} bits, {n} items, {probes} probes)",
                               filters=filters, m=m, n=n, probes=o["probes"]))


def kedmi_cost(state, action) -> tuple[float, str]:
    drawn = action.options["seed"] in state.kedmi_seeds
    return B.ACTION_BASE + (B.KEDMI_AGAIN if drawn else B.KEDMI_FIRST), Reason(say("Kedmi's replay"))


def git_cost(state, action) -> tuple[float, str]:
    """A repository of N commits built by git, then measured (0.2 s at 300)."""
    commits = action.options["commits"]
    return B.ACTION_BASE + B.GIT_BASE + B.GIT_COMMIT * commits, Reason(say("a git history of {commits} commits",
                                                                                        commits=commits))


def block_cost(state, action) -> tuple[float, str]:
    return B.ACTION_BASE + B.GIT_BASE, Reason(say("reading the shipped Ethereum block"))


def rates_cost(state, action) -> tuple[float, str]:
    count = len(action.options["n"])
    return B.ACTION_BASE + B.FORMULA * count, Reason(say("rates at {count} values of n", count=count))


def formula_cost(what: str):
    """One closed form (a design, a new filter's m and k)."""
    return lambda state, action: (B.ACTION_BASE + B.FORMULA, what)


def expect_cost(state, action) -> tuple[float, str]:
    return B.ACTION_BASE + report_cost(state), Reason(say("this check"))


def check_new_filter_spec(variant_cls, params: dict) -> None:
    """Before a growing filter is built: its first stage must fit a lesson (a scalable filter's first stage at
    capacity 10^9 and p = 10^-9 is 4·10^10 bits, which no array holds)."""
    if variant_cls.capabilities.sized:
        return
    from bloomviz.filters.scalable_stages import stage_spec
    defaults = {p.name: p.default for p in variant_cls.capabilities.parameters}
    given = {key: (value if value is not None else defaults.get(key)) for key, value in params.items()}
    try:
        first = stage_spec(given["initial_capacity"], given["p"], given.get("growth") or 2,
                           given.get("tightening") or 0.9, 0)
    except (KeyError, TypeError):
        return          # the constructor names what is missing or wrong
    if first.m > B.GROWING_MAX_M:
        raise B.BudgetError(Reason(say("its first stage alone would be m = {m} bits, more than a lesson's growing "
                                       "filter may hold ({most}); choose a smaller capacity or a larger p",
                                       m=first.m, most=B.GROWING_MAX_M)))


def check_growth(flt, inserts: int) -> None:
    """A growing filter that ``inserts`` more items would push past the lesson's bits is refused first."""
    if not capabilities.of(flt).staged:
        return
    from bloomviz.workbench.limits import scalable_m_after
    m = scalable_m_after(flt, inserts)
    if m > B.GROWING_MAX_M:
        raise B.BudgetError(Reason(say("{inserts} more items would grow the scalable filter to m = {m} bits or "
                                       "more, more than a lesson's growing filter may hold ({most})",
                                       inserts=inserts, m=m, most=B.GROWING_MAX_M)))
