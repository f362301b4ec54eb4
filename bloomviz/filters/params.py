"""Each variant's constructor parameters, declared once: name, kind, limits and default (their words, a form's
label and tip, are in bloomviz.explain.param_words).

A filter class lists its own in ``capabilities.parameters`` (a tuple of ``Param``, in the order a form asks for
them; the hash scheme, common to all, is not among them). The window's parameters panel, the session format, the lesson
actions and ``registry.PARAMETERS`` read these declarations, so none of them needs to know a variant by name:
a new variant declares its parameters in its own module and appears everywhere they are asked for.

The limits here are the filter's own; the window may narrow them (it shows at most ``MAX_M`` bits) and says so
in its own messages. The constructors still check every value: a declaration describes, it does not validate.
"""

from __future__ import annotations

from dataclasses import dataclass

from bloomviz.theory.limits import BLOCK_BITS as BLOCK_BITS_RANGE, COUNTER_BITS as COUNTER_BITS_RANGE, MAX_K

REQUIRED = object()  # marks a parameter without a default


@dataclass(frozen=True)
class Param:
    name: str                 # the constructor's argument and the key in saved files
    kind: str                 # "int", "rate" (a number typed as 0.01 or 1%) or "choice"
    default: object = REQUIRED
    low: float | None = None
    high: float | None = None
    choices: tuple = ()       # the values a "choice" offers, in order
    lesson_key: str = ""      # its option in a lesson file when not ``name`` (a scalable's capacity=)
    suggestion: object = None  # what an empty form starts with when there is no default
    form: bool = True         # asked for in the window's parameters panel

    @property
    def required(self) -> bool:
        return self.default is REQUIRED

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


# --- the declarations the five variants share out among themselves -------------------------------------------
# (what the window calls them, their labels and tips, is in bloomviz.explain.param_words)
M = Param("m", "int")
K = Param("k", "int", low=1, high=MAX_K)
COUNTER_BITS = Param("counter_bits", "int", default=4, low=COUNTER_BITS_RANGE[0], high=COUNTER_BITS_RANGE[1])
BLOCK_BITS = Param("block_bits", "int", default=512, low=BLOCK_BITS_RANGE[0], high=BLOCK_BITS_RANGE[1],
                   form=False)   # the window keeps one 512-bit cache line, the block its texts and lessons describe
INITIAL_CAPACITY = Param("initial_capacity", "int", low=1, lesson_key="capacity", suggestion=100)
RATE_BOUND = Param("p", "rate", low=0.0, high=1.0, suggestion=0.01)
GROWTH = Param("growth", "choice", default=2, choices=(2, 4))
TIGHTENING = Param("tightening", "rate", default=0.9, low=0.5, high=0.95)


def defaults(parameters: tuple[Param, ...], scheme: str) -> dict[str, object]:
    """name -> default (``REQUIRED`` when none), the scheme last: the shape of ``registry.PARAMETERS``."""
    out: dict[str, object] = {p.name: p.default for p in parameters}
    out["scheme"] = scheme
    return out
