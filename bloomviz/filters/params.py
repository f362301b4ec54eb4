"""Each variant's constructor parameters, declared once: name, label, limits, default and tip.

A filter class lists its own in ``capabilities.parameters`` (a tuple of ``Param``, in the order a form asks for them; the
hash scheme, common to all, is not among them). The window's parameters panel, the session format, the lesson
actions and ``registry.PARAMETERS`` read these declarations, so none of them needs to know a variant by name:
a new variant declares its parameters in its own module and appears everywhere they are asked for.

The limits here are the filter's own; the window may narrow them (it shows at most ``MAX_M`` bits) and says so
in its own messages. The constructors still check every value: a declaration describes, it does not validate.
"""

from __future__ import annotations

from dataclasses import dataclass

from bloomviz.theory.limits import COUNTER_BITS as COUNTER_BITS_RANGE, MAX_K

REQUIRED = object()  # marks a parameter without a default


@dataclass(frozen=True)
class Param:
    name: str                 # the constructor's argument and the key in saved files
    label: str                # a form's label
    kind: str                 # "int", "rate" (a number typed as 0.01 or 1%) or "choice"
    default: object = REQUIRED
    low: float | None = None
    high: float | None = None
    choices: tuple = ()       # the values a "choice" offers, in order
    placeholder: str = ""     # a form's hint for the empty field (default: the range, "1 … 8")
    tip: str = ""             # what it means, for a tooltip
    what: str = ""            # its name in a sentence ("initial capacity n₀"), for messages
    lesson_key: str = ""      # its option in a lesson file when not ``name`` (a scalable's capacity=)
    suggestion: object = None  # what an empty form starts with when there is no default
    form: bool = True         # asked for in the window's parameters panel

    @property
    def required(self) -> bool:
        return self.default is REQUIRED

    @property
    def hint(self) -> str:
        """A form's hint for the empty field: the placeholder, or the range when there is none."""
        if self.placeholder or self.low is None or self.high is None:
            return self.placeholder
        return f"{self.low:g} … {self.high:g}"

    @property
    def option(self) -> str:
        """Its command-line option: ``counter_bits`` -> ``--counter-bits``."""
        return "--" + self.name.replace("_", "-")

    def value(self, flt) -> object:
        """The filter's value of this parameter (each declared parameter is a property of its class)."""
        return getattr(flt, self.name)

    @property
    def key(self) -> str:
        """Its option in a lesson file."""
        return self.lesson_key or self.name

    @property
    def spoken(self) -> str:
        return self.what or self.name


# --- the declarations the five variants share out among themselves -------------------------------------------
M = Param("m", "m (bits)", "int", tip=(
    "m: the number of bits in the filter. More bits, fewer false positives: each item sets k of them, "
    "so the filter fills more slowly."))
K = Param("k", "k (hashes)", "int", low=1, high=MAX_K, tip=(
    "k: how many hash functions, i.e. how many bits each item sets (and a lookup tests). Too few and "
    "one lucky bit decides; too many and the filter fills up. The best k is (m/n)·ln 2."))
COUNTER_BITS = Param(
    "counter_bits", "Counter bits c", "int", default=4, low=COUNTER_BITS_RANGE[0], high=COUNTER_BITS_RANGE[1],
    what="counter bits c",
    tip=("c: bits per counter (1 to 8; 4 is the classic choice). A counter counts up to 2^c − 1 and "
         "then sticks (saturates): it is never decremented again, because the filter no longer "
         "knows how many items share it. With 4 bits an overflow is very unlikely."))
BLOCK_BITS = Param(
    "block_bits", "Block bits B", "int", default=512, low=64, high=1 << 16, what="block bits B",
    form=False,   # the window keeps one 512-bit cache line, the block its texts and lessons describe
    tip="B: bits per block, a power of two (512 is one cache line); an item's k bits all lie in one block.")
INITIAL_CAPACITY = Param(
    "initial_capacity", "Initial capacity n₀", "int", low=1, placeholder="e.g. 100", what="initial capacity n₀",
    lesson_key="capacity", suggestion=100,
    tip=("n₀: how many items the first stage holds. Stage i holds n₀·s^i; when the newest stage "
         "is full the next insert opens a new, larger one."))
RATE_BOUND = Param(
    "p", "Rate bound p", "rate", low=0.0, high=1.0, placeholder="e.g. 0.01 or 1%", what="p", suggestion=0.01,
    tip=("p: the bound on the false-positive rate however many items arrive. Stage i gets error p₀·r^i with "
         "p₀ = p·(1 − r), and these sum to at most p₀/(1 − r) = p."))
GROWTH = Param(
    "growth", "Growth s", "choice", default=2, choices=(2, 4), what="growth s",
    tip=("s: how much larger each stage is than the one before (2 or 4). 4 makes fewer stages (lookups "
         "test fewer) but wastes more memory while a big new stage is empty."))
TIGHTENING = Param(
    "tightening", "Tightening r", "rate", default=0.9, low=0.5, high=0.95, what="tightening r",
    tip=("r: each stage's error is r times the one before (0.5 to 0.95). Close to 1 gives the first "
         "stages a larger share of p (fewer bits early); smaller r makes later stages much stricter."))


def defaults(parameters: tuple[Param, ...], scheme: str) -> dict[str, object]:
    """name -> default (``REQUIRED`` when none), the scheme last: the shape of ``registry.PARAMETERS``."""
    out: dict[str, object] = {p.name: p.default for p in parameters}
    out["scheme"] = scheme
    return out
