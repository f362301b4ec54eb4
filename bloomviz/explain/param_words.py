"""What the window calls each declared parameter (filters/params.py holds the numbers: name, kind, limits,
default): a form's label, its tooltip, the hint in an empty field and its name inside a sentence. Keyed by the
parameter's name; a parameter with no entry is called by its name.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ParamWords:
    label: str                # a form's label
    tip: str = ""             # what it means, for a tooltip
    what: str = ""            # its name in a sentence ("initial capacity n₀"), for messages
    placeholder: str = ""     # a form's hint for the empty field (default: the range, "1 … 8")


PARAM_WORDS: dict[str, ParamWords] = {
    "m": ParamWords("m (bits)", tip=(
        "m: the number of bits in the filter. More bits, fewer false positives: each item sets k of them, "
        "so the filter fills more slowly.")),
    "k": ParamWords("k (hashes)", tip=(
        "k: how many hash functions, i.e. how many bits each item sets (and a lookup tests). Too few and "
        "one lucky bit decides; too many and the filter fills up. The best k is (m/n)·ln 2.")),
    "counter_bits": ParamWords("Counter bits c", what="counter bits c", tip=(
        "c: bits per counter (1 to 8; 4 is the classic choice). A counter counts up to 2^c − 1 and "
        "then sticks (saturates): it is never decremented again, because the filter no longer "
        "knows how many items share it. With 4 bits an overflow is very unlikely.")),
    "block_bits": ParamWords("Block bits B", what="block bits B", tip=(
        "B: bits per block, a power of two (512 is one cache line); an item's k bits all lie in one block.")),
    "initial_capacity": ParamWords("Initial capacity n₀", what="initial capacity n₀", placeholder="e.g. 100", tip=(
        "n₀: how many items the first stage holds. Stage i holds n₀·s^i; when the newest stage "
        "is full the next insert opens a new, larger one.")),
    "p": ParamWords("Rate bound p", what="p", placeholder="e.g. 0.01 or 1%", tip=(
        "p: the bound on the false-positive rate however many items arrive. Stage i gets error p₀·r^i with "
        "p₀ = p·(1 − r), and these sum to at most p₀/(1 − r) = p.")),
    "growth": ParamWords("Growth s", what="growth s", tip=(
        "s: how much larger each stage is than the one before (2 or 4). 4 makes fewer stages (lookups "
        "test fewer) but wastes more memory while a big new stage is empty.")),
    "tightening": ParamWords("Tightening r", what="tightening r", tip=(
        "r: each stage's error is r times the one before (0.5 to 0.95). Close to 1 gives the first "
        "stages a larger share of p (fewer bits early); smaller r makes later stages much stricter.")),
}


def words(param) -> ParamWords:
    """The words for a declared parameter (its name, when it has none of its own)."""
    return PARAM_WORDS.get(param.name) or ParamWords(param.name)


def hint(param) -> str:
    """A form's hint for the empty field: the placeholder, or the range when there is none."""
    placeholder = words(param).placeholder
    if placeholder or param.low is None or param.high is None:
        return placeholder
    return f"{param.low:g} … {param.high:g}"


def spoken(param) -> str:
    """Its name inside a sentence ("initial capacity n₀")."""
    return words(param).what or param.name
