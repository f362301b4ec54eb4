"""E-mail contacts: an address book in a filter, whose false positives label strangers as known."""

from __future__ import annotations

from functools import cached_property
from typing import Sequence

from bloomviz.i18n import tr
from bloomviz.scenarios import datasets

from bloomviz.scenarios.base import (Judged, Scenario, ScenarioDesign, _find_false_positives, expected_fp, measure, pct)


class EmailContacts(Scenario):
    key = "contacts"
    title = "E-mail contacts"
    tagline = "An address book in 192 bits, k = 3: every collision visible; “save contact?” asked only when new."
    datasets = ("contacts",)
    check_label = "Send to this address"
    check_hint = "Type a recipient's address"
    M, K = 192, 3

    @cached_property
    def new_addresses(self) -> list[str]:
        return datasets.read_lines("contacts", "new-addresses.txt")

    def design(self) -> ScenarioDesign:
        return ScenarioDesign(m=self.M, k=self.K, capacity=len(self.items))

    @staticmethod
    def collisions(flt, items: Sequence[str]) -> dict[int, list[str]]:
        """The bits that two or more of ``items`` set, with the items that set each."""
        pos = flt.positions_many(items)
        owners: dict[int, list[str]] = {}
        for item, row in zip(items, pos.tolist()):
            for p in dict.fromkeys(row):
                owners.setdefault(p, []).append(item)
        return {p: names for p, names in sorted(owners.items()) if len(names) > 1}

    def story(self, flt) -> list[str]:
        n, m, k = len(self.items), flt.m, flt.k
        shared = self.collisions(flt, self.items)
        r = measure(flt, self.new_addresses)
        busiest = max(shared.items(), key=lambda kv: len(kv[1])) if shared else None
        busy = (" " + tr("Bit {bit} is shared by {count}: {items}.").format(
            bit=busiest[0], count=len(busiest[1]), items=", ".join(busiest[1])) if busiest else "")
        return [
            tr("E-mail contacts. A mail client keeps the user's address book ({n} addresses) in a filter of m = {m} "
               "bits with k = {k} hash functions, small enough to see every bit. Before sending, it looks the "
               "recipient up: “definitely not in the set” means a new address, so it asks “Save contact?”; "
               "“probably in the set” means it is already known, so it asks nothing.").format(n=n, m=m, k=k),
            tr("{set} of the {m} bits are set ({fill}); {shared} bits were set by two or more addresses "
               "(collisions).{busy} Hover a cell to see who set it.").format(
                set=flt.bits_set, m=m, fill=pct(flt.bits_set / m), shared=len(shared), busy=busy),
            tr("At this fill a new address passes with probability (X/m)^k = {chance} (the exact rate expected for "
               "{n} addresses is {exact}). Of {trials} new addresses, {hits} passed: for those the client would "
               "wrongly skip the “Save contact?” question — a false positive.").format(
                chance=pct((flt.bits_set / m) ** k), n=len(flt), exact=pct(expected_fp(flt)), trials=r.trials,
                hits=r.hits),
            tr("Next: type a recipient in the Scenario panel and press “Send to this address”."),
        ]

    says_absent = "{item} is new (definitely not in the address book): save contact?"
    says_present = "{item} is in the address book: sent, no question asked."
    says_false_positive = ("{item} is NOT in the address book, but all its {k} bits are set: the client takes it "
                           "for a known contact and never offers to save it — a false positive.")

    def verdict_fields(self, v: Judged) -> dict[str, object]:
        return {"k": self.K}

    def examples(self, flt) -> list[str]:
        fps = _find_false_positives(self.new_addresses, flt, self.truth, 2)
        new = [a for a in self.new_addresses if a not in fps][:2]
        return [self.items[0], *new, *fps]
