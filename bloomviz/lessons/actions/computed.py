"""The actions that compute numbers: ``ensemble``, ``design``, ``rates``, ``kedmi``, ``git-history`` and
``ethereum-block``, one declaration each (``spec.ActionSpec``). Their numbers go to the step's report under
flat keys (``design.k``, ``rates.440000000.classic``); ``step_numbers.py`` puts them in words."""

from __future__ import annotations

from bloomviz.lessons import costs
from bloomviz.lessons.spec import MAX_ENSEMBLE_WORK, MAX_RANDOM, THEORY_MAX_M, ActionSpec, fraction, whole
from bloomviz.lessons.state import need_filter
from bloomviz.theory import rates as theory
from bloomviz.theory.limits import MAX_K, MAX_M


def check_ensemble(args: list, o: dict) -> tuple[list, dict]:
    out = {"filters": whole(o.get("filters", "200"), "filters", 1, 100_000),
           "probes": whole(o.get("probes", "32"), "probes", 1, 4096), "seed": whole(o.get("seed", "0"), "seed")}
    if "n" in o:
        out["n"] = whole(o["n"], "n", 1, MAX_RANDOM)
    return [], out


def run_ensemble(state, action, window: list) -> None:
    from bloomviz.filters.registry import is_standard
    from bloomviz.measure.ensemble import run_ensemble as ensemble
    o, flt = action.options, need_filter(state)
    if not is_standard(flt) or flt.scheme == "hand-set":
        raise ValueError("an ensemble draws random standard filters: use it with a standard filter and a real "
                         "hash scheme")
    n = o.get("n", len(flt))
    if n < 1:
        raise ValueError("the filter is empty: insert items first or give n=")
    if o["filters"] * n > MAX_ENSEMBLE_WORK:
        raise ValueError(f"filters × n = {o['filters'] * n:,} inserts is more than {MAX_ENSEMBLE_WORK:,}")
    res = ensemble(flt.m, flt.k, n, o["filters"], scheme=flt.scheme, probes=o["probes"], seed=o["seed"])
    at = n - 1
    state.put({"ensemble.filters": o["filters"], "ensemble.n": n, "ensemble.mean": float(res.mean[at]),
               "ensemble.low": float(res.low[at]), "ensemble.high": float(res.high[at]),
               "ensemble.exact": float(res.fp_exact[at]), "ensemble.classic": float(res.fp_classic[at])})


def check_design(args: list, o: dict) -> tuple[list, dict]:
    if "n" not in o or "p" not in o:
        raise ValueError("needs n= and p=")
    return [], {"n": whole(o["n"], "n", 1, 10 ** 15), "p": fraction(o["p"], "p", 0.0, 0.5)}


def run_design(state, action, window: list) -> None:
    n, p = action.options["n"], action.options["p"]
    k, m = theory.optimal_params(n, p)
    state.put({"design.n": n, "design.p": p, "design.k": k, "design.m": m, "design.bits_per_item": m / n,
               "design.lower_bound_bits_per_item": theory.lower_bound_bits_per_element(p),
               "design.optimal_k": theory.optimal_k(m, n), "design.exact": theory.fp_exact(m, k, n),
               "design.classic": theory.fp_classic(m, k, n)})


def check_rates(args: list, o: dict) -> tuple[list, dict]:
    if ("m" in o) == ("mib" in o) or "k" not in o or "n" not in o:
        raise ValueError("needs m= (or mib=), k= and n=")
    m = whole(o["m"], "m", 1, THEORY_MAX_M) if "m" in o else whole(o["mib"], "mib", 1, THEORY_MAX_M >> 23) << 23
    return [], {"m": m, "k": whole(o["k"], "k", 1, MAX_K),
                "n": tuple(whole(v, "n", 0, 10 ** 15) for v in o["n"].split(","))}


def run_rates(state, action, window: list) -> None:
    o = action.options
    m, k, out = o["m"], o["k"], {"rates.m": o["m"], "rates.k": o["k"]}
    for n in o["n"]:
        out[f"rates.{n}.classic"] = theory.fp_classic(m, k, n)
        out[f"rates.{n}.approx"] = theory.fp_approx(m, k, n)
        if m <= MAX_M:     # the exact rate is defined for what a filter can be
            out[f"rates.{n}.exact"] = theory.fp_exact(m, k, n)
    state.put(out)


def check_kedmi(args: list, o: dict) -> tuple[list, dict]:
    return [], {"density": fraction(o.get("density", "0"), "density", 0.0, 0.99, open_low=False),
                "seed": whole(o.get("seed", "2017"), "seed")}


def run_kedmi(state, action, window: list) -> None:
    from bloomviz.scenarios import kedmi_toy
    o = action.options
    flt, res = kedmi_toy.replay(o["density"], seed=o["seed"])
    state.kedmi_seeds.add(o["seed"])
    state.install(flt, known=False)     # its items are Kedmi's keys and garbage bits, none named here
    state.put({f"kedmi.{key}": value for key, value in res.as_dict().items()})


def check_git(args: list, o: dict) -> tuple[list, dict]:
    from bloomviz.lessons.wild import MAX_COMMITS
    return [], {"commits": whole(o.get("commits", "60"), "commits", 2, MAX_COMMITS),
                "seed": whole(o.get("seed", "0"), "seed")}


def run_git(state, action, window: list) -> None:
    from bloomviz.lessons import wild
    state.put(wild.git_history(action.options["commits"], action.options["seed"]))


def run_block(state, action, window: list) -> None:
    from bloomviz.lessons import wild
    state.put(wild.ethereum_block())


SPECS = (
    ActionSpec("ensemble", "ensemble filters=F [n=N]: the mean rate of F random filters like this one",
               options=("filters", "n", "probes", "seed"), check=check_ensemble, run=run_ensemble,
               cost=costs.ensemble_cost, about="theory"),
    ActionSpec("design", "design n=N p=P: k, m, bits per item and the lower bound", options=("n", "p"),
               check=check_design, run=run_design, cost=costs.formula_cost("a design"), about="theory"),
    ActionSpec("rates", "rates m=M (or mib=) k=K n=N1,N2,…: exact, classic and approximate rates, no filter",
               options=("m", "k", "n", "mib"), check=check_rates, run=run_rates, cost=costs.rates_cost,
               about="theory"),
    ActionSpec("kedmi", "kedmi density=D: Kedmi's toy (32,768 keys, p = 0.001) started with D of its bits set",
               options=("density", "seed"), check=check_kedmi, run=run_kedmi, cost=costs.kedmi_cost,
               about="filter"),
    ActionSpec("git-history", "git-history commits=N [seed=S]: a git repository built here with git (no network), "
                              "its changed-path filters measured against theory (wild.py)",
               options=("commits", "seed"), check=check_git, run=run_git, cost=costs.git_cost, about="theory"),
    ActionSpec("ethereum-block", "ethereum-block: the logsBloom of an Ethereum mainnet block of 2024 (shipped "
                                 "with bloomviz): bits set, fill, entries estimated, the rate it predicts",
               run=run_block, cost=costs.block_cost, about="theory"),
)
