"""Weak SSH keys: the Debian keys a broken random generator could make, in a filter (Kedmi's story)."""

from __future__ import annotations

import base64
import hashlib
import math

import numpy as np

from bloomviz.i18n import number, tr
from bloomviz.scenarios.base import (Scenario, Judged, _find_false_positives, expected_fp, kib, list_bytes,
                                     measure, pct, rate_text)


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

    def story(self, flt) -> list[str]:
        n, m, k = len(self.items), flt.m, flt.k
        fp_bytes = n * 32
        fp_text = list_bytes(self.items)
        filter_bytes = math.ceil(m / 8)
        r = measure(flt, fresh_key_fingerprints(self.PROBES))
        return [
            tr("Weak SSH keys. From 2006 to 2008 Debian's OpenSSL seeded its random generator with little more "
               "than the process ID, so for each key type and size only 32,768 keys could ever be made "
               "(CVE-2008-0166). A server can refuse those keys; a client can check its own key against the "
               "list without sending it anywhere."),
            tr("Here the {n} keys are synthesised, one per process ID 0–32,767: each is the SHA-256 fingerprint of a "
               "fixed seed, the key type and the PID. They are not the real weak keys; they have the same number "
               "and shape, which is all a filter sees.").format(n=number(n)),
            tr("The filter: p = {p} gives k = {k} and m = {m} bits = {bytes} bytes ({size}). The fingerprints take "
               "{raw} bytes as raw 32-byte digests ({text} as text): the filter saves {saved} bytes, {times}× "
               "smaller. Against the full public keys ({keys} bytes for 32,768 DSA-1024 keys) it is {keys_times}× "
               "smaller.").format(
                p=pct(self.P), k=k, m=number(m), bytes=number(filter_bytes), size=kib(filter_bytes),
                raw=number(fp_bytes), text=number(fp_text), saved=number(fp_bytes - filter_bytes),
                times=number(fp_bytes / filter_bytes, 1), keys=number(PUBLIC_KEY_LIST_BYTES),
                keys_times=number(PUBLIC_KEY_LIST_BYTES / filter_bytes, 0)),
            tr("Measured on {trials} fingerprints of fresh, well-made keys: {rate} pass (theory {theory}). A key "
               "that passes needs a second, exact check with the server; a key that fails is certainly safe, with "
               "no request at all.").format(trials=number(r.trials), rate=rate_text(r), theory=pct(expected_fp(flt))),
            tr("Next: check a key in the Scenario panel (a weak one, a fresh one, or paste your own)."),
        ]

    says_absent = "Safe: this key is certainly not one of the weak keys. No request to the server needed."
    says_present = "WEAK{who}: the filter says probably weak, and the exact check confirms it. Replace it."
    says_false_positive = ("The filter says probably weak, so the client asks the server; the exact check says "
                           "the key is fine. A false positive: one needless request.")

    def verdict_fields(self, v: Judged) -> dict[str, object]:
        pid = next((i for i, f in enumerate(self.items) if f == v.item), None)
        return {"who": " " + tr("(the key of PID {pid})").format(pid=pid) if pid is not None else ""}

    def examples(self, flt) -> list[str]:
        fps = _find_false_positives(fresh_key_fingerprints(5_000, seed=77), flt, self.truth, 1)
        return [self.items[1234], fresh_key_fingerprints(1, seed=5)[0], *fps]
