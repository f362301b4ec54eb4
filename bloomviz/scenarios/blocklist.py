"""A URL blocklist in the browser: the filter answers first, the server confirms a hit."""

from __future__ import annotations

import random
from functools import cached_property
from typing import Sequence

from bloomviz.i18n import number, tr
from bloomviz.scenarios import datasets

from bloomviz.scenarios.base import (Scenario, _find_false_positives, expected_fp, kib, list_bytes, measure, pct,
                                     rate_text)


def ordinary_urls(count: int, words: Sequence[str], seed: int = 3) -> list[str]:
    """Everyday URLs, synthesised from dictionary words under the reserved .example domain."""
    rng = random.Random(seed)
    out: dict[str, None] = {}
    while len(out) < count:
        a, b, c = rng.choice(words), rng.choice(words), rng.choice(words)
        out[f"https://www.{a}-{b}.example/{c}"] = None
    return list(out)


class UrlBlocklist(Scenario):
    key = "urls"
    title = "URL blocklist"
    tagline = "As browsers once did: every URL checked locally; only a hit asks the server."
    datasets = ("url-blocklist", "english-words")
    check_label = "Visit this URL"
    check_hint = "Type a URL"
    P = 0.01
    BROWSE = 10_000

    @cached_property
    def browsing(self) -> list[str]:
        return ordinary_urls(self.BROWSE, datasets.read_lines("english-words"))

    def story(self, flt) -> list[str]:
        n, m, k = len(self.items), flt.m, flt.k
        raw = list_bytes(self.items)
        r = measure(flt, self.browsing)
        return [
            tr("URL blocklist. Google Chrome once kept a Bloom filter of malicious URLs in the browser: every page "
               "is first looked up locally, and only when the filter says “probably in the set” does the browser "
               "ask the server for the exact answer (and warn, if the server confirms)."),
            tr("Here {n} synthesised malicious URLs (hosts under the reserved .test domain; none is a real site) went "
               "into m = {m} bits ({size}; the list is {raw}), k = {k}, designed for p = {p}.").format(
                n=number(n), m=number(m), size=kib(m / 8), raw=kib(raw), k=k, p=pct(self.P)),
            tr("Browsing {trials} ordinary pages: {rate} made the browser ask the server for nothing (theory "
               "{theory}). Every other page loaded without a request, and no listed URL is ever missed.").format(
                trials=number(r.trials), rate=rate_text(r), theory=pct(expected_fp(flt))),
            tr("Next: visit a URL in the Scenario panel."),
        ]

    says_absent = "Not on the blocklist (certain): the page loads, no request to the server."
    says_present = "Filter hit → the server confirms: a listed malicious URL. The browser warns."
    says_false_positive = ("Filter hit → the server says the URL is fine: a false positive. The page loads after "
                           "one needless round trip.")

    def examples(self, flt) -> list[str]:
        fps = _find_false_positives(self.browsing[:3_000], flt, self.truth, 1)
        return [self.items[0], self.browsing[0], *fps]
