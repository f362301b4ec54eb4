"""The spell checker: a dictionary in a filter, one-letter misspellings as the new items."""

from __future__ import annotations

import random
import re
from dataclasses import replace
from functools import cached_property
from typing import Sequence

from bloomviz.scenarios import datasets

from bloomviz.i18n import number, tr
from bloomviz.items.encoding import to_bytes

from bloomviz.scenarios.base import (Rate, Scenario, ScenarioDesign, _designed, _find_false_positives, expected_fp,
                                     kib, list_bytes, measure, pct, rate_text)


WORD_RE = re.compile(r"[A-Za-z]+")


def words_of(text: str) -> list[str]:
    """The words of a text, lowercased, in order (letters only: the dictionary holds letters only)."""
    return [w.lower() for w in WORD_RE.findall(text)]


def one_letter_misspellings(words: Sequence[str], truth: set[bytes], count: int, seed: int = 1) -> list[str]:
    """``count`` distinct non-words made by changing one letter of a dictionary word (a typo's usual shape)."""
    rng = random.Random(seed)
    out: dict[str, None] = {}
    letters = "abcdefghijklmnopqrstuvwxyz"
    pool = [w for w in words if len(w) >= 4]
    while len(out) < count:
        w = rng.choice(pool)
        i = rng.randrange(len(w))
        c = rng.choice(letters.replace(w[i], ""))
        typo = w[:i] + c + w[i + 1:]
        if to_bytes(typo) not in truth:
            out[typo] = None
    return list(out)


class SpellChecker(Scenario):
    key = "spell"
    title = "Spell checker"
    tagline = ("A 1970s spell checker: an English dictionary in about 64 KiB; a misspelling it accepts is a "
               "false positive.")
    datasets = ("english-words", "spelling-paragraph")
    check_label = "Check the paragraph"
    check_hint = "Edit the paragraph, then check it word by word."
    P = 0.02          # generous on purpose: memory was dear, and a lecture wants to see a few slip through
    MISSPELLINGS = 2_000

    def design(self) -> ScenarioDesign:
        # The paragraph was written to show one accepted misspelling with this scheme (at ~0.5 M bits double
        # hashing measures the theory, unlike at classroom sizes); the default scheme lets none of its
        # misspellings through, which would leave the story without its point.
        return replace(_designed(len(self.items), self.P), scheme="murmur3-km")

    @cached_property
    def paragraph(self) -> str:
        with datasets.open_dataset("spelling-paragraph") as fh:
            return fh.read().strip()

    def misspelling_rate(self, flt) -> Rate:
        return measure(flt, one_letter_misspellings(self.items, self.truth, self.MISSPELLINGS))

    def story(self, flt) -> list[str]:
        n, m, k = len(self.items), flt.m, flt.k
        raw = list_bytes(self.items)
        r = self.misspelling_rate(flt)
        return [
            tr("Spell checker. Every word of an English dictionary ({n} words, {raw} as a plain list) went into a "
               "filter of m = {m} bits ({size}), k = {k}, designed for p = {p}: {per} bits a word instead of {plain}. "
               "That saving is why the first spell checkers of the 1970s used Bloom filters, when memory was "
               "dear.").format(n=number(n), raw=kib(raw), m=number(m), size=kib(m / 8), k=k, p=pct(self.P),
                               per=number(m / n, 1), plain=number(raw * 8 / n, 0)),
            tr("Checking a text is one lookup a word. A word whose bits are not all set is certainly not in the "
               "dictionary: the checker flags it. A misspelling whose bits all happen to be set by other words is "
               "accepted — a false positive: the typo goes unnoticed. A real word is never flagged (no false "
               "negatives)."),
            tr("Measured: {trials} typos made by changing one letter of a dictionary word; {rate} were accepted, "
               "against {theory} from theory.").format(trials=number(r.trials), rate=rate_text(r),
                                                       theory=pct(expected_fp(flt))),
            tr("Next: “Check the paragraph” in the Scenario panel looks up every word of a paragraph with "
               "misspellings; the accepted ones are listed as false positives, with the words that set their bits."),
        ]

    says_absent = "“{item}”: not in the dictionary — flagged as a misspelling"
    says_present = "“{item}”: a word — accepted"
    # not in the list is all the checker knows: a real word the list lacks is also "not in the dictionary"
    says_false_positive = ("“{item}”: not in the dictionary, yet accepted — a false positive (a typo slips "
                           "through)")

    def examples(self, flt) -> list[str]:
        return _find_false_positives(one_letter_misspellings(self.items, self.truth, 400, seed=2),
                                     flt, self.truth, 3)
