"""The lesson actions as data: what each takes, and the parse-time check of its arguments.

An action is a name, positional arguments and ``key=value`` options. ``SPECS`` says which options each takes
and whether its positional arguments are items; ``check_action`` turns the strings into typed values or raises
ValueError saying what is wrong (the parser adds the file and line). Running them is ``runner.py``'s job, so
a window can show, validate or replay the same records.

Actions that only the window can show (``highlight``, ``show``, ``slow`` on inserts and lookups, ``autoplay``'s
pace, ``predict``'s vote) are checked and recorded headless; a ``predict`` block (``predict.py``, parsed by
``format.py``) also computes its answer headless, so the dry run checks that exactly one choice is right.
"""

from __future__ import annotations

from dataclasses import dataclass

from bloomviz.filters.params import Param
from bloomviz.filters.registry import VARIANTS
from bloomviz.measure.verdicts import LESSON_WORDS
from bloomviz.theory import units
from bloomviz.theory.limits import LESSON_MAX_PROBES as MAX_PROBES

LESSON_MAX_M = 1 << 28          # a lesson filter is built in memory by a file someone sent: at most 32 MiB
THEORY_MAX_M = 1 << 48          # ``rates`` computes formulas only, so Brainflayer's 2^32 bits are fine
MAX_RANDOM = 2_000_000          # items one insert-random adds
MAX_ENSEMBLE_WORK = 4_000_000   # filters x inserts of one ensemble


# The lesson's own filter options: m and k (or n and p for the textbook design), the scheme and the variant.
# Every other option is a parameter some variant declares, by its lesson key (a scalable's capacity=), typed
# and bounded as declared: a variant's new parameter is a lesson option without a change here.
FILTER_OPTIONS = ("m", "k", "n", "p", "scheme", "variant")


def _variant_options() -> dict[str, Param]:
    out: dict[str, Param] = {}
    for cls in VARIANTS.values():
        for param in cls.parameters:
            if param.key not in FILTER_OPTIONS:
                out.setdefault(param.key, param)
    return out


VARIANT_OPTIONS = _variant_options()


@dataclass(frozen=True)
class Spec:
    options: tuple[str, ...]
    items: bool = False          # positional arguments are items (quoted when they hold spaces)
    min_args: int = 0
    max_args: int | None = 0
    summary: str = ""


SPECS: dict[str, Spec] = {
    "filter": Spec(FILTER_OPTIONS + tuple(VARIANT_OPTIONS),
                   summary="make a new empty filter: m= k= (or n= p= for the textbook design), scheme=, "
                           f"variant= ({', '.join(VARIANTS)})"),
    "positions": Spec((), min_args=3, max_args=None,
                      summary="positions ITEM = P1 P2 …: hand-set positions for ITEM (before filter "
                              "scheme=hand-set)"),
    "insert": Spec(("slow",), items=True, min_args=1, max_args=None, summary="insert ITEM …"),
    "lookup": Spec(("slow",), items=True, min_args=1, max_args=None, summary="look up ITEM …"),
    "predict": Spec((), items=True, min_args=1, max_args=1,
                    summary="predict KIND … with ask and choice lines: the class votes, then the answer "
                            "the filter gives is revealed (predict.py)"),
    "remove": Spec(("force",), items=True, min_args=1, max_args=None,
                   summary="remove ITEM … from a counting filter (force=yes removes a non-member)"),
    "insert-random": Spec(("seed",), min_args=1, max_args=1, summary="insert-random N [seed=S]: N generated items"),
    "autoplay": Spec(("seed", "speed"), min_args=1, max_args=1,
                     summary="autoplay N [speed=ITEMS_PER_SECOND] [seed=S]: the window inserts N generated items "
                             "at that pace; headless, like insert-random"),
    "measure": Spec(("probes", "seed"), summary="measure probes=N: the rate over N non-members from now on"),
    "ensemble": Spec(("filters", "n", "probes", "seed"),
                     summary="ensemble filters=F [n=N]: the mean rate of F random filters like this one"),
    "design": Spec(("n", "p"), summary="design n=N p=P: k, m, bits per item and the lower bound"),
    "rates": Spec(("m", "k", "n", "mib"),
                  summary="rates m=M (or mib=) k=K n=N1,N2,…: exact, classic and approximate rates, no filter"),
    "kedmi": Spec(("density", "seed"),
                  summary="kedmi density=D: Kedmi's toy (32,768 keys, p = 0.001) started with D of its bits set"),
    "git-history": Spec(("commits", "seed"),
                        summary="git-history commits=N [seed=S]: a git repository built here with git (no network), "
                                "its changed-path filters measured against theory (wild.py)"),
    "ethereum-block": Spec((), summary="ethereum-block: the logsBloom of an Ethereum mainnet block of 2024 (shipped "
                                       "with bloomviz): bits set, fill, entries estimated, the rate it predicts"),
    "highlight": Spec((), min_args=1, max_args=None, summary="highlight P …: light these bits (the window)"),
    "show": Spec(("tab", "scenario"), summary="show tab=NAME or scenario=NAME (the window)"),
    "expect": Spec(("m", "k", "n", "bits_set", "verdict", "positions", "scheme", "variant"), max_args=None,
                   summary="expect key=value … or numbers.NAME~VALUE: stop the lesson if the state differs"),
}

# the filter's answer, or the four-way verdict against what was inserted and removed
VERDICTS = ("maybe", "no") + tuple(LESSON_WORDS.values())
WINDOW_TABS = ("filter", "start", "explorer", "compare", "setops", "foreign", "lesson")   # = bloomviz.gui.app.TABS (a test compares)


def whole(text: str, what: str, low: int = 0, high: int | None = None) -> int:
    """A whole number as everywhere (``units.parse_whole``: 1000, 1,000, 1_000, 1e3, 10^6), within [low, high]."""
    return units.parse_whole(text, what, low, high)


def fraction(text: str, what: str, low: float = 0.0, high: float = 1.0, open_low: bool = True) -> float:
    """A number within its range, read as rates are everywhere (``units.parse_rate``: 0.01, 1%, 1/1000)."""
    return units.parse_rate(text, what, low, high, open_low=open_low)


def _yes(text: str, what: str) -> bool:
    if text not in ("yes", "no"):
        raise ValueError(f"{what} must be yes or no, got {text!r}")
    return text == "yes"


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


def _filter_options(o: dict) -> dict:
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
        out["k"] = whole(o["k"], "k", 1, 64)
    if "p" in o:
        out["p"] = fraction(o["p"], "p", 0.0, 0.5)
    for key, param in VARIANT_OPTIONS.items():
        if key in o:
            out[key] = _declared(o[key], param)
    variant = out["variant"]
    cls = VARIANTS[variant]
    if not cls.capabilities.sized:   # it grows from its own parameters (capacity= and p=): all must be given
        required = [param.key for param in cls.parameters if param.required]
        if not set(required) <= set(out):
            raise ValueError(f"a {variant} filter needs {' and '.join(key + '=' for key in required)}")
    elif not ({"m", "k"} <= set(out) or {"n", "p"} <= set(out)):
        raise ValueError("needs m= and k=, or n= and p= for the textbook design")
    return out


def _expect(args: list, options: dict) -> tuple[list, dict]:
    checks: dict = {}
    for key, value in options.items():
        if key in ("m", "k", "n", "bits_set"):
            checks[key] = whole(value, key)
        elif key == "verdict":
            if value not in VERDICTS:
                raise ValueError(f"verdict must be one of {', '.join(VERDICTS)}, got {value!r}")
            checks[key] = value
        elif key == "positions":
            checks[key] = tuple(whole(p, "a position") for p in value.split(","))
        else:
            checks[key] = value
    approx = []
    for word in args:        # numbers.NAME~VALUE: equal to VALUE to the digits written
        name, tilde, value = word.partition("~")
        if not tilde or not name.startswith("numbers.") or len(name) <= len("numbers."):
            raise ValueError(f"expected key=value or numbers.NAME~VALUE, got {word!r}")
        if units.real_number(value) is None:
            raise ValueError(f"{name} must be compared with a decimal number such as 0.0214 or 1.2e-5, got "
                             f"{units.shown(value)}")
        approx.append((name[len("numbers."):], value))
    if not checks and not approx:
        raise ValueError("expect needs at least one key=value")
    return approx, checks


def check_action(name: str, args: list, options: dict) -> tuple[list, dict]:
    """Typed (args, options) for one action line, or ValueError naming the bad argument."""
    spec = SPECS[name]
    if len(args) < spec.min_args:
        raise ValueError(f"needs at least {spec.min_args} argument{'s' if spec.min_args > 1 else ''}: "
                         f"{spec.summary}")
    if spec.max_args is not None and len(args) > spec.max_args:
        raise ValueError(f"takes {spec.max_args or 'no'} positional argument{'s' if spec.max_args != 1 else ''}, "
                         f"got {' '.join(args)!r}: {spec.summary}")
    o = dict(options)
    if name == "filter":
        return [], _filter_options(o)
    if name == "positions":
        if args[1] != "=":
            raise ValueError(f"write positions ITEM = P1 P2 …, got {' '.join(args)!r}")
        return [args[0], *(whole(p, "a position") for p in args[2:])], {}
    if name in ("insert", "lookup"):
        return args, ({"slow": fraction(o["slow"], "slow (seconds per hash)", 0.0, 10.0)} if "slow" in o else {})
    if name == "remove":
        return args, {"force": _yes(o.get("force", "no"), "force")}
    if name in ("insert-random", "autoplay"):
        out = {"seed": whole(o.get("seed", "0"), "seed")}
        if "speed" in o:
            out["speed"] = fraction(o["speed"], "speed (items per second)", 0.0, 1e6)
        return [whole(args[0], "N", 1, MAX_RANDOM)], out
    if name == "measure":
        return [], {"probes": whole(o.get("probes", "2000"), "probes", 1, MAX_PROBES),
                    "seed": whole(o.get("seed", "0"), "seed")}
    if name == "ensemble":
        out = {"filters": whole(o.get("filters", "200"), "filters", 1, 100_000),
               "probes": whole(o.get("probes", "32"), "probes", 1, 4096), "seed": whole(o.get("seed", "0"), "seed")}
        if "n" in o:
            out["n"] = whole(o["n"], "n", 1, MAX_RANDOM)
        return [], out
    if name == "design":
        if "n" not in o or "p" not in o:
            raise ValueError("needs n= and p=")
        return [], {"n": whole(o["n"], "n", 1, 10 ** 15), "p": fraction(o["p"], "p", 0.0, 0.5)}
    if name == "rates":
        if ("m" in o) == ("mib" in o) or "k" not in o or "n" not in o:
            raise ValueError("needs m= (or mib=), k= and n=")
        m = whole(o["m"], "m", 1, THEORY_MAX_M) if "m" in o else whole(o["mib"], "mib", 1, THEORY_MAX_M >> 23) << 23
        return [], {"m": m, "k": whole(o["k"], "k", 1, 64),
                    "n": tuple(whole(v, "n", 0, 10 ** 15) for v in o["n"].split(","))}
    if name == "kedmi":
        return [], {"density": fraction(o.get("density", "0"), "density", 0.0, 0.99, open_low=False),
                    "seed": whole(o.get("seed", "2017"), "seed")}
    if name == "git-history":
        from bloomviz.lessons.wild import MAX_COMMITS
        return [], {"commits": whole(o.get("commits", "60"), "commits", 2, MAX_COMMITS),
                    "seed": whole(o.get("seed", "0"), "seed")}
    if name == "highlight":
        return [whole(p, "a position") for p in args], {}
    if name == "show":
        if len(o) != 1:
            raise ValueError("show takes one of tab=NAME or scenario=NAME")
        from bloomviz.scenarios.stories import SCENARIOS
        known = WINDOW_TABS if "tab" in o else tuple(SCENARIOS)
        value = o.get("tab", o.get("scenario"))
        if value not in known:
            raise ValueError(f"unknown {'tab' if 'tab' in o else 'scenario'} {value!r}; known: {', '.join(known)}")
        return [], o
    if name == "expect":
        return _expect(args, o)
    return args, o
