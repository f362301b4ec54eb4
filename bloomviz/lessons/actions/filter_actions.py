"""The actions on the lesson's own filter: ``filter``, ``positions``, ``insert``, ``lookup``, ``remove``,
``insert-random``, ``autoplay`` and ``measure``, one declaration each (``spec.ActionSpec``)."""

from __future__ import annotations

from bloomviz.filters.params import Param
from bloomviz.filters.registry import VARIANTS
from bloomviz.formats.reasons import Reason, say
from bloomviz.items.encoding import random_items
from bloomviz.lessons import budget as B, costs
from bloomviz.lessons.spec import LESSON_MAX_M, MAX_PROBES, MAX_RANDOM, ActionSpec, fraction, whole, yes
from bloomviz.lessons.state import lookup_record, need_filter
from bloomviz.theory.limits import MAX_K

# The lesson's own filter options: m and k (or n and p for the textbook design), the scheme and the variant.
# Every other option is a parameter some variant declares, by its lesson key (a scalable's capacity=), typed
# and bounded as declared: a variant's new parameter is a lesson option without a change here.
FILTER_OPTIONS = ("m", "k", "n", "p", "scheme", "variant")
CHUNK = 250_000      # generated items handed to the workbench at once (2,000,000 at once peaked at 1.1 GB)


def _variant_options() -> dict[str, Param]:
    out: dict[str, Param] = {}
    for cls in VARIANTS.values():
        for param in cls.capabilities.parameters:
            if param.key not in FILTER_OPTIONS:
                out.setdefault(param.key, param)
    return out


VARIANT_OPTIONS = _variant_options()


def _declared(text: str, param: Param):
    """A variant parameter's lesson option, checked against its declaration (kind and range)."""
    if param.kind == "rate":
        return fraction(text, param.key, param.low, param.high, open_low=False)
    if param.kind == "choice":
        value = whole(text, param.key, min(param.choices), max(param.choices))
        if value not in param.choices:
            raise ValueError(f"{param.key} must be one of {', '.join(map(str, param.choices))}, got {text}")
        return value
    return whole(text, param.key, int(param.low or 1), LESSON_MAX_M if param.high is None else int(param.high))


def check_filter(args: list, o: dict) -> tuple[list, dict]:
    from bloomviz.hashing.schemes import SCHEMES
    from bloomviz.hashing.seed_schemes import HAND_SET_ID
    from bloomviz.filters.registry import DEFAULT_VARIANT, check_variant
    out: dict = {"variant": check_variant(o.get("variant", DEFAULT_VARIANT))}
    scheme = o.get("scheme")
    if scheme is not None and scheme not in SCHEMES and scheme != HAND_SET_ID:
        raise ValueError(f"unknown hash scheme {scheme!r}; known schemes: {', '.join(SCHEMES)}, {HAND_SET_ID}")
    out["scheme"] = scheme
    for key in ("m", "n"):
        if key in o:
            out[key] = whole(o[key], key, 1, LESSON_MAX_M)
    if "k" in o:
        out["k"] = whole(o["k"], "k", 1, MAX_K)
    if "p" in o:
        out["p"] = fraction(o["p"], "p", 0.0, 0.5)
    for key, param in VARIANT_OPTIONS.items():
        if key in o:
            out[key] = _declared(o[key], param)
    variant = out["variant"]
    cls = VARIANTS[variant]
    if not cls.capabilities.sized:   # it grows from its own parameters (capacity= and p=): all must be given
        required = [param.key for param in cls.capabilities.parameters if param.required]
        if not set(required) <= set(out):
            raise ValueError(f"a {variant} filter needs {' and '.join(key + '=' for key in required)}")
    elif not ({"m", "k"} <= set(out) or {"n", "p"} <= set(out)):
        raise ValueError("needs m= and k=, or n= and p= for the textbook design")
    return [], out


def make_filter(state, o: dict):
    """The filter a ``filter`` line asks for, checked against a lesson's limits before and after it is built."""
    from bloomviz.theory.calculator import textbook_design
    from bloomviz.hashing.seed_schemes import HAND_SET_ID, hand_set
    from bloomviz.filters.registry import make_filter as build
    scheme = o.get("scheme")
    if scheme == HAND_SET_ID:
        if not state.hand_set:
            raise ValueError("scheme=hand-set needs positions lines (positions ITEM = P …) before the filter")
        scheme = hand_set(state.hand_set)
    variant = o["variant"]
    # the variant's declared parameters, each from its lesson option (None: the default); the options of other
    # variants are not its business
    params = {param.name: o.get(param.key) for param in VARIANTS[variant].capabilities.parameters}
    if VARIANTS[variant].capabilities.sized and (params["m"] is None or params["k"] is None):
        params["m"], params["k"], _notes = textbook_design(o["n"], o["p"], max_m=LESSON_MAX_M)
    costs.check_new_filter_spec(VARIANTS[variant], params)
    flt = build(variant, scheme=scheme, **params)
    # built, nothing used yet (counters are zeroed lazily by the system): refused here before a bit is touched
    B.check_filter_bytes(flt.nbytes(), Reason(say("a {variant} filter of m = {m} bits", variant=variant, m=flt.m)))
    return flt


def run_filter(state, action, window: list) -> None:
    state.install(make_filter(state, action.options), known=True)


def check_positions(args: list, o: dict) -> tuple[list, dict]:
    if args[1] != "=":
        raise ValueError(f"write positions ITEM = P1 P2 …, got {' '.join(args)!r}")
    return [args[0], *(whole(p, "a position") for p in args[2:])], {}


def run_positions(state, action, window: list) -> None:
    state.hand_set[action.args[0]] = list(action.args[1:])


def check_slow(args: list, o: dict) -> tuple[list, dict]:
    return args, ({"slow": fraction(o["slow"], "slow (seconds per hash)", 0.0, 10.0)} if "slow" in o else {})


def _slow(action, window: list) -> None:
    if "slow" in action.options:
        window.append({"action": "slow", "seconds_per_hash": action.options["slow"]})


def run_insert(state, action, window: list) -> None:
    need_filter(state)
    for item in action.args:
        ins = state.wb.insert(item)
        if ins is None:
            raise state.refusal()
        state.last = {"action": "insert", "item": item, "positions": [int(p) for p in ins.positions],
                      "newly_set": [bool(x) for x in ins.newly_set]}
    _slow(action, window)


def run_lookup(state, action, window: list) -> None:
    need_filter(state)
    for item in action.args:
        state.last = lookup_record(state, "lookup", item)
    _slow(action, window)


def check_remove(args: list, o: dict) -> tuple[list, dict]:
    return args, {"force": yes(o.get("force", "no"), "force")}


def run_remove(state, action, window: list) -> None:
    flt, force = need_filter(state), action.options["force"]
    if not flt.capabilities.removable:
        removable = " or ".join(f"variant={vid}" for vid, cls in VARIANTS.items()
                             if cls.capabilities.removable)
        raise ValueError(f"a {flt.variant} filter cannot remove items: use {removable}")
    wb = state.wb
    for item in action.args:
        # the window's removal: a member's is a removal, whatever force says; a non-member's needs force=yes
        member = wb.is_member(item)
        if wb.removal_needs_force(item) and not force:
            raise ValueError(f"“{item}” was never inserted: removing it would decrement counters that belong to "
                             f"other items and could cause false negatives; write force=yes to remove it anyway")
        rem = wb.remove(item, force=force)
        if rem is None:
            raise state.refusal()
        if not member:     # the workbench numbers it by operation; a false negative names the lesson's line
            state.removal_lines[len(wb.history)] = action.line
        state.last = {"action": "remove", "item": item, "positions": [int(p) for p in rem.positions],
                      "counters_before": list(rem.before), "counters_after": list(rem.after),
                      "forced": force and not member}


def check_generated(args: list, o: dict) -> tuple[list, dict]:
    out = {"seed": whole(o.get("seed", "0"), "seed")}
    if "speed" in o:
        out["speed"] = fraction(o["speed"], "speed (items per second)", 0.0, 1e6)
    return [whole(args[0], "N", 1, MAX_RANDOM)], out


def run_generated(state, action, window: list) -> None:
    count = action.args[0]
    # what the workbench keeps of them (each item, its positions, its measured row), checked after their time
    B.check_kept(state.nbytes(), count, need_filter(state).k, Reason(say("{action} of {count} items", action=action.name, count=count)))
    items = random_items(count, seed=action.options["seed"])
    state.wb.reserve(count)                  # room for them all at once, not doubling as they come
    for start in range(0, count, CHUNK):     # a batch at a time: its bytes and positions are made per chunk
        if not state.wb.insert_batch(items[start:start + CHUNK]):
            raise state.refusal()
    if action.name == "autoplay":
        window.append({"action": "autoplay", "items": count,
                       **({"speed": action.options["speed"]} if "speed" in action.options else {})})


def check_measure(args: list, o: dict) -> tuple[list, dict]:
    return [], {"probes": whole(o.get("probes", "2000"), "probes", 1, MAX_PROBES),
                "seed": whole(o.get("seed", "0"), "seed")}


def run_measure(state, action, window: list) -> None:
    state.measure(action.options["probes"], action.options["seed"], MAX_PROBES)


def _slow_if_asked(action) -> str:
    return "slow" if "slow" in action.options else ""


SPECS = (
    ActionSpec("filter", "make a new empty filter: m= k= (or n= p= for the textbook design), scheme=, "
                         f"variant= ({', '.join(VARIANTS)})",
               options=FILTER_OPTIONS + tuple(VARIANT_OPTIONS), check=check_filter, run=run_filter,
               cost=costs.formula_cost("a new filter"), about="new filter"),
    ActionSpec("positions", "positions ITEM = P1 P2 …: hand-set positions for ITEM (before filter "
                            "scheme=hand-set)",
               min_args=3, max_args=None, check=check_positions, run=run_positions, about="filter"),
    ActionSpec("insert", "insert ITEM …", options=("slow",), items=True, min_args=1, max_args=None,
               check=check_slow, run=run_insert, cost=costs.insert_cost, about="filter", animates=_slow_if_asked),
    ActionSpec("lookup", "look up ITEM …", options=("slow",), items=True, min_args=1, max_args=None,
               check=check_slow, run=run_lookup, cost=costs.lookup_cost, about="filter", animates=_slow_if_asked),
)

# (predict comes between lookup and remove in the list of actions a refusal names: see actions/__init__.py)
LATER = (
    ActionSpec("remove", "remove ITEM … from a counting filter (force=yes removes a non-member)",
               options=("force",), items=True, min_args=1, max_args=None, check=check_remove, run=run_remove,
               cost=costs.items_cost, about="filter"),
    ActionSpec("insert-random", "insert-random N [seed=S]: N generated items", options=("seed",), min_args=1,
               max_args=1, check=check_generated, run=run_generated, cost=costs.generated_cost, about="filter"),
    ActionSpec("autoplay", "autoplay N [speed=ITEMS_PER_SECOND] [seed=S]: the window inserts N generated items "
                           "at that pace; headless, like insert-random",
               options=("seed", "speed"), min_args=1, max_args=1, check=check_generated, run=run_generated,
               cost=costs.generated_cost, about="filter", animates=lambda action: "autoplay"),
    ActionSpec("measure", "measure probes=N: the rate over N non-members from now on", options=("probes", "seed"),
               check=check_measure, run=run_measure, cost=costs.measure_cost),
)
