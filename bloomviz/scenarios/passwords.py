"""Banned passwords: a breach list in a filter; a new password is refused when the filter says so."""

from __future__ import annotations

import random

from bloomviz.i18n import number, tr
from bloomviz.items.encoding import to_bytes
from bloomviz.scenarios.base import (Scenario, _find_false_positives, expected_fp, kib, list_bytes, measure, pct,
                                     rate_text)


class BannedPasswords(Scenario):
    key = "passwords"
    title = "Banned passwords"
    tagline = ("Refuse the 29,292 most common passwords (a list fit for a classroom); now and then a good one is "
               "refused too.")
    datasets = ("common-passwords",)
    check_label = "Try this password"
    check_hint = "Type a new password"
    P = 0.01
    RANDOM_TRIALS = 20_000

    @staticmethod
    def random_passwords(count: int, seed: int = 11) -> list[str]:
        """Strong passwords (12 random letters, digits and signs) that no list of common ones holds."""
        rng = random.Random(seed)
        alphabet = "abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789!#%+=?@"
        return ["".join(rng.choice(alphabet) for _ in range(12)) for _ in range(count)]

    def story(self, flt) -> list[str]:
        n, m, k = len(self.items), flt.m, flt.k
        raw = list_bytes(self.items)
        r = measure(flt, [p for p in self.random_passwords(self.RANDOM_TRIALS) if to_bytes(p) not in self.truth])
        top = ", ".join(self.items[:5])
        return [
            tr("Banned passwords. The {n} most common passwords of a leaked-password corpus (the list starts {top}, "
               "…) went into a filter of m = {m} bits ({size}; the list itself is {raw}), k = {k}, designed for "
               "p = {p}.").format(n=number(n), top=top, m=number(m), size=kib(m / 8), raw=kib(raw), k=k,
                                  p=pct(self.P)),
            tr("When someone sets a password, the site looks it up. “Definitely not in the set”: accepted. "
               "“Probably in the set”: refused, try another. A false positive refuses a good password; at 1% "
               "that costs one user in a hundred a second try, and no banned password ever gets through."),
            tr("Measured: of {trials} random 12-character passwords, {rate} were refused (theory {theory}).").format(
                trials=number(r.trials), rate=rate_text(r), theory=pct(expected_fp(flt))),
            tr("Next: type a new password in the Scenario panel and try it."),
        ]

    says_absent = "Accepted: not on the list of banned passwords (certain)."
    says_present = "Refused: this password is on the list of common passwords. Choose another."
    says_false_positive = ("Refused — but wrongly: this password is not on the list. A false positive; the user "
                           "must choose another, which costs a second try and nothing else.")

    def examples(self, flt) -> list[str]:
        fps = _find_false_positives(self.random_passwords(2_000, seed=12), flt, self.truth, 1)
        return ["letmein", "sunshine", "correct-horse-battery", *fps]
