"""Scenarios: the stories a lecture tells with a Bloom filter, each with its parameters, data and check.

Pure (no Qt): a scenario says how to size the filter (``design()``), which items go in (``load()``), how to
tell its story with the numbers of the filter as built (``story(flt)``), and how to judge a new item
(``check(item, flt)``) against the ground truth it knows (the set of items it inserted). The window's
scenario runner (``bloomviz.gui.scenarios_tab.controller``) does the inserting through the workbench.

Data come from ``assets/datasets`` through ``bloomviz.scenarios.datasets``; the SSH keys are synthesised here
(see ``weak_key_fingerprints``), and the ordinary URLs and random passwords used for measuring are
synthesised from fixed seeds. Nothing is downloaded.
"""

from __future__ import annotations

import base64
import hashlib
import math
import random
import re
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Iterable, Sequence

import numpy as np

from bloomviz.scenarios import datasets

from bloomviz.hashing import schemes as hashing

from bloomviz.theory import rates as theory
from bloomviz.items.encoding import to_bytes
from bloomviz.theory.units import human_bytes, percent_text

TRUE_POSITIVE = "true positive"
TRUE_NEGATIVE = "true negative"
FALSE_POSITIVE = "false positive"


# --- small records ------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Design:
    m: int
    k: int
    capacity: int
    p: float | None = None               # the target rate, when the design came from one
    scheme: str = hashing.DEFAULT_SCHEME


@dataclass(frozen=True)
class Verdict:
    """One item judged: what the filter says and what is true."""
    item: str
    member: bool            # really in the set
    passes: bool            # the filter says "probably in the set"

    @property
    def kind(self) -> str:
        if not self.passes:
            return TRUE_NEGATIVE
        return TRUE_POSITIVE if self.member else FALSE_POSITIVE

    @property
    def false_positive(self) -> bool:
        return self.passes and not self.member


@dataclass(frozen=True)
class Rate:
    """A false-positive rate measured on ``trials`` non-members, with its 95% Wilson interval."""
    hits: int
    trials: int

    @property
    def rate(self) -> float:
        return self.hits / self.trials if self.trials else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return theory.wilson_interval(self.hits, self.trials)


def measure(flt, non_members: Sequence[str]) -> Rate:
    """How many of ``non_members`` (items known not to be in the filter) pass it."""
    return Rate(int(np.count_nonzero(flt.contains_many(list(non_members)))), len(non_members))


def judge(items: Iterable[str], flt, truth: set[bytes]) -> list[Verdict]:
    """Each item looked up in ``flt`` and compared with ``truth`` (the inserted items' bytes)."""
    items = list(items)
    if not items:
        return []
    passes = flt.contains_many(items)
    return [Verdict(item, to_bytes(item) in truth, bool(ok)) for item, ok in zip(items, passes)]


def pct(x: float) -> str:
    return percent_text(x)


def kib(nbytes: float) -> str:
    return human_bytes(nbytes)


def list_bytes(items: Iterable[str]) -> int:
    """The size of the items stored plainly: their UTF-8 bytes plus one newline each."""
    return sum(len(to_bytes(x)) + 1 for x in items)


def rate_text(r: Rate) -> str:
    low, high = r.interval
    return f"{r.hits:,} of {r.trials:,} = {pct(r.rate)} (95% interval {pct(low)} – {pct(high)})"


def expected_fp(flt) -> float:
    return theory.fp_exact(flt.m, flt.k, len(flt))


# --- the scenarios ------------------------------------------------------------------------------------------
class Scenario:
    """A story: parameters, data, a check. Subclasses fill in the class attributes and methods."""

    key = ""
    title = ""
    tagline = ""             # one line for the start page
    datasets: tuple[str, ...] = ()
    check_label = "Check"     # the interactive step's button
    check_hint = ""           # what to type

    def load(self) -> list[str]:
        """The items to insert, in order."""
        raise NotImplementedError

    @cached_property
    def items(self) -> list[str]:
        return self.load()

    @cached_property
    def truth(self) -> set[bytes]:
        return {to_bytes(x) for x in self.items}

    def design(self) -> Design:
        raise NotImplementedError

    def story(self, flt) -> list[str]:
        """Paragraphs of plain text with the numbers of ``flt`` (the filter after loading) plugged in."""
        raise NotImplementedError

    def check(self, item: str, flt) -> Verdict:
        return judge([item], flt, self.truth)[0]

    def verdict_text(self, v: Verdict) -> str:
        """The check's answer in the scenario's own words."""
        raise NotImplementedError

    def examples(self, flt) -> list[str]:
        """A few items worth trying in the interactive step (at least one false positive when one is found)."""
        return []


def _designed(n: int, p: float) -> Design:
    k, m = theory.optimal_params(n, p)
    return Design(m=m, k=min(k, 64), capacity=n, p=p)


def _find_false_positives(candidates: Iterable[str], flt, truth: set[bytes], limit: int) -> list[str]:
    candidates = [c for c in candidates if to_bytes(c) not in truth]
    hits = np.flatnonzero(flt.contains_many(candidates)) if candidates else []
    return [candidates[i] for i in hits[:limit]]


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

    def load(self) -> list[str]:
        return datasets.read_lines("english-words")

    def design(self) -> Design:
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
            f"Spell checker. Every word of an English dictionary ({n:,} words, {kib(raw)} as a plain list) "
            f"went into a filter of m = {m:,} bits ({kib(m / 8)}), k = {k}, designed for p = {pct(self.P)}: "
            f"{m / n:.1f} bits a word instead of {raw * 8 / n:.0f}. That saving is why the first spell "
            "checkers of the 1970s used Bloom filters, when memory was dear.",
            "Checking a text is one lookup a word. A word whose bits are not all set is certainly not in the "
            "dictionary: the checker flags it. A misspelling whose bits all happen to be set by other words is "
            "accepted — a false positive: the typo goes unnoticed. A real word is never flagged (no false "
            "negatives).",
            f"Measured: {r.trials:,} typos made by changing one letter of a dictionary word; "
            f"{rate_text(r)} were accepted, against {pct(expected_fp(flt))} from theory.",
            "Next: “Check the paragraph” in the Scenario panel looks up every word of a paragraph with "
            "misspellings; the accepted ones are listed as false positives, with the words that set their bits.",
        ]

    def verdict_text(self, v: Verdict) -> str:
        if v.kind == TRUE_NEGATIVE:
            return f"“{v.item}”: not in the dictionary — flagged as a misspelling"
        if v.kind == TRUE_POSITIVE:
            return f"“{v.item}”: a word — accepted"
        return f"“{v.item}”: NOT a word, yet accepted — a false positive (the typo slips through)"

    def examples(self, flt) -> list[str]:
        return _find_false_positives(one_letter_misspellings(self.items, self.truth, 400, seed=2),
                                     flt, self.truth, 3)


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

    def load(self) -> list[str]:
        return datasets.read_lines("common-passwords")

    def design(self) -> Design:
        return _designed(len(self.items), self.P)

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
            f"Banned passwords. The {n:,} most common passwords of a leaked-password corpus (the list "
            f"starts {top}, …) went into a filter of m = {m:,} bits ({kib(m / 8)}; the list itself is "
            f"{kib(raw)}), k = {k}, designed for p = {pct(self.P)}.",
            "When someone sets a password, the site looks it up. “Definitely not in the set”: accepted. "
            "“Probably in the set”: refused, try another. A false positive refuses a good password; at 1% "
            "that costs one user in a hundred a second try, and no banned password ever gets through.",
            f"Measured: of {r.trials:,} random 12-character passwords, {rate_text(r)} were refused "
            f"(theory {pct(expected_fp(flt))}).",
            "Next: type a new password in the Scenario panel and try it.",
        ]

    def verdict_text(self, v: Verdict) -> str:
        if v.kind == TRUE_NEGATIVE:
            return "Accepted: not on the list of banned passwords (certain)."
        if v.kind == TRUE_POSITIVE:
            return "Refused: this password is on the list of common passwords. Choose another."
        return ("Refused — but wrongly: this password is not on the list. A false positive; the user must "
                "choose another, which costs a second try and nothing else.")

    def examples(self, flt) -> list[str]:
        fps = _find_false_positives(self.random_passwords(2_000, seed=12), flt, self.truth, 1)
        return ["letmein", "sunshine", "correct-horse-battery", *fps]


class EmailContacts(Scenario):
    key = "contacts"
    title = "E-mail contacts"
    tagline = "An address book in 192 bits, k = 3: every collision visible; “save contact?” asked only when new."
    datasets = ("contacts",)
    check_label = "Send to this address"
    check_hint = "Type a recipient's address"
    M, K = 192, 3

    def load(self) -> list[str]:
        return datasets.read_lines("contacts")

    @cached_property
    def new_addresses(self) -> list[str]:
        return datasets.read_lines("contacts", "new-addresses.txt")

    def design(self) -> Design:
        return Design(m=self.M, k=self.K, capacity=len(self.items))

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
        busy = (f" Bit {busiest[0]} is shared by {len(busiest[1])}: {', '.join(busiest[1])}." if busiest else "")
        return [
            f"E-mail contacts. A mail client keeps the user's address book ({n} addresses) in a filter of "
            f"m = {m} bits with k = {k} hash functions, small enough to see every bit. Before sending, it "
            "looks the recipient up: “definitely not in the set” means a new address, so it asks "
            "“Save contact?”; “probably in the set” means it is already known, so it asks nothing.",
            f"{flt.bits_set} of the {m} bits are set ({pct(flt.bits_set / m)}); {len(shared)} bits were set by "
            f"two or more addresses (collisions).{busy} Hover a cell to see who set it.",
            f"At this fill a new address passes with probability (X/m)^k = {pct((flt.bits_set / m) ** k)} (the "
            f"exact rate expected for {len(flt)} addresses is {pct(expected_fp(flt))}). Of {r.trials} new "
            f"addresses, {r.hits} passed: for those the client would wrongly skip the “Save contact?” "
            "question — a false positive.",
            "Next: type a recipient in the Scenario panel and press “Send to this address”.",
        ]

    def verdict_text(self, v: Verdict) -> str:
        if v.kind == TRUE_NEGATIVE:
            return f"{v.item} is new (definitely not in the address book): save contact?"
        if v.kind == TRUE_POSITIVE:
            return f"{v.item} is in the address book: sent, no question asked."
        return (f"{v.item} is NOT in the address book, but all its {self.K} bits are set: the client takes it "
                "for a known contact and never offers to save it — a false positive.")

    def examples(self, flt) -> list[str]:
        fps = _find_false_positives(self.new_addresses, flt, self.truth, 2)
        new = [a for a in self.new_addresses if a not in fps][:2]
        return [self.items[0], *new, *fps]


# The 2008 Debian OpenSSL flaw (CVE-2008-0166): the key generator's only varying input was the process ID.
WEAK_KEY_SEED = b"bloomviz synthetic weak keys v1"
PID_SPACE = 32_768          # 15-bit process IDs: 0 .. 32,767
PUBLIC_KEY_LIST_BYTES = 19_004_952   # 32,768 DSA-1024 public keys, base64, as measured in the seed article


def fingerprint(data: bytes) -> str:
    """An OpenSSH-style SHA-256 fingerprint: "SHA256:" and the digest in base64 without padding."""
    return "SHA256:" + base64.b64encode(hashlib.sha256(data).digest()).decode("ascii").rstrip("=")


def weak_key_fingerprints(kind: str = "rsa-2048") -> list[str]:
    """One synthetic fingerprint per process ID: SHA-256 of a fixed seed, the key kind and the PID.

    These are NOT the real weak keys (those are published as key files); they stand in for them with the
    same count and the same shape, which is all a Bloom filter sees.
    """
    return [fingerprint(WEAK_KEY_SEED + f":{kind}:{pid}".encode()) for pid in range(PID_SPACE)]


def fresh_key_fingerprints(count: int, seed: int = 2024) -> list[str]:
    """Fingerprints of well-generated keys: random digests from a seeded generator."""
    rng = np.random.default_rng(seed)
    raw = rng.bytes(32 * count)
    return ["SHA256:" + base64.b64encode(raw[i:i + 32]).decode("ascii").rstrip("=")
            for i in range(0, 32 * count, 32)]


class WeakSshKeys(Scenario):
    key = "ssh"
    title = "Weak SSH keys"
    tagline = ("All 32,768 keys of the 2008 Debian OpenSSL flaw at p = 0.001: a client checks its key "
               "without sending it.")
    datasets = ("debian-weak-keys",)
    check_label = "Check this key"
    check_hint = "Paste a fingerprint (SHA256:…)"
    P = 0.001
    PROBES = 100_000

    def load(self) -> list[str]:
        return weak_key_fingerprints()

    def design(self) -> Design:
        return _designed(len(self.items), self.P)

    def story(self, flt) -> list[str]:
        n, m, k = len(self.items), flt.m, flt.k
        fp_bytes = n * 32
        fp_text = list_bytes(self.items)
        filter_bytes = math.ceil(m / 8)
        r = measure(flt, fresh_key_fingerprints(self.PROBES))
        return [
            "Weak SSH keys. From 2006 to 2008 Debian's OpenSSL seeded its random generator with little more "
            "than the process ID, so for each key type and size only 32,768 keys could ever be made "
            "(CVE-2008-0166). A server can refuse those keys; a client can check its own key against the "
            "list without sending it anywhere.",
            f"Here the {n:,} keys are synthesised, one per process ID 0–32,767: each is the SHA-256 "
            "fingerprint of a fixed seed, the key type and the PID. They are not the real weak keys; they "
            "have the same number and shape, which is all a filter sees.",
            f"The filter: p = {pct(self.P)} gives k = {k} and m = {m:,} bits = {filter_bytes:,} bytes "
            f"({kib(filter_bytes)}). The fingerprints take {fp_bytes:,} bytes as raw 32-byte digests "
            f"({fp_text:,} as text): the filter saves {fp_bytes - filter_bytes:,} bytes, "
            f"{fp_bytes / filter_bytes:.1f}× smaller. Against the full public keys "
            f"({PUBLIC_KEY_LIST_BYTES:,} bytes for 32,768 DSA-1024 keys) it is "
            f"{PUBLIC_KEY_LIST_BYTES / filter_bytes:.0f}× smaller.",
            f"Measured on {r.trials:,} fingerprints of fresh, well-made keys: {rate_text(r)} pass "
            f"(theory {pct(expected_fp(flt))}). A key that passes needs a second, exact check with the "
            "server; a key that fails is certainly safe, with no request at all.",
            "Next: check a key in the Scenario panel (a weak one, a fresh one, or paste your own).",
        ]

    def verdict_text(self, v: Verdict) -> str:
        if v.kind == TRUE_NEGATIVE:
            return "Safe: this key is certainly not one of the weak keys. No request to the server needed."
        if v.kind == TRUE_POSITIVE:
            pid = next((i for i, f in enumerate(self.items) if f == v.item), None)
            who = f" (the key of PID {pid})" if pid is not None else ""
            return f"WEAK{who}: the filter says probably weak, and the exact check confirms it. Replace it."
        return ("The filter says probably weak, so the client asks the server; the exact check says the key is "
                "fine. A false positive: one needless request.")

    def examples(self, flt) -> list[str]:
        fps = _find_false_positives(fresh_key_fingerprints(5_000, seed=77), flt, self.truth, 1)
        return [self.items[1234], fresh_key_fingerprints(1, seed=5)[0], *fps]


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

    def load(self) -> list[str]:
        return datasets.read_lines("url-blocklist")

    def design(self) -> Design:
        return _designed(len(self.items), self.P)

    @cached_property
    def browsing(self) -> list[str]:
        return ordinary_urls(self.BROWSE, datasets.read_lines("english-words"))

    def story(self, flt) -> list[str]:
        n, m, k = len(self.items), flt.m, flt.k
        raw = list_bytes(self.items)
        r = measure(flt, self.browsing)
        return [
            "URL blocklist. Google Chrome once kept a Bloom filter of malicious URLs in the browser: every "
            "page is first looked up locally, and only when the filter says “probably in the set” does the "
            "browser ask the server for the exact answer (and warn, if the server confirms).",
            f"Here {n:,} synthesised malicious URLs (hosts under the reserved .test domain; none is a real "
            f"site) went into m = {m:,} bits ({kib(m / 8)}; the list is {kib(raw)}), k = {k}, designed for "
            f"p = {pct(self.P)}.",
            f"Browsing {r.trials:,} ordinary pages: {rate_text(r)} made the browser ask the server for "
            f"nothing (theory {pct(expected_fp(flt))}). Every other page loaded without a request, and no "
            "listed URL is ever missed.",
            "Next: visit a URL in the Scenario panel.",
        ]

    def verdict_text(self, v: Verdict) -> str:
        if v.kind == TRUE_NEGATIVE:
            return "Not on the blocklist (certain): the page loads, no request to the server."
        if v.kind == TRUE_POSITIVE:
            return "Filter hit → the server confirms: a listed malicious URL. The browser warns."
        return ("Filter hit → the server says the URL is fine: a false positive. The page loads after one "
                "needless round trip.")

    def examples(self, flt) -> list[str]:
        fps = _find_false_positives(self.browsing[:3_000], flt, self.truth, 1)
        return [self.items[0], self.browsing[0], *fps]


SCENARIOS: dict[str, type[Scenario]] = {
    cls.key: cls for cls in (SpellChecker, BannedPasswords, EmailContacts, WeakSshKeys, UrlBlocklist)
}


def get_scenario(key: str) -> Scenario:
    try:
        return SCENARIOS[key]()
    except KeyError:
        raise ValueError(f"unknown scenario {key!r}; known: {', '.join(SCENARIOS)}") from None
