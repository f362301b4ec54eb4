"""The lesson fuzz corpus: hostile lesson files, written to a folder (``write_corpus``), for the headless and the
window runs in ``test_lesson_fuzz.py``.

Every action with extreme, negative, huge, non-numeric and file-naming arguments, on a small and on the largest
filter a lesson may make; the costly shapes measured before the budgets (100 text steps at m = 2^28, counting
filters with 8-bit counters over 20 steps, an ensemble whose cap ignored m, a scalable filter's giant first stage,
five ``insert-random`` lines at m = 2^28, a culprit search over 2,000 members, a 1 MiB word of narration); a
10 MB file and binary files.
"""

from __future__ import annotations

import random
from pathlib import Path

from bloomviz.lessons.actions import REGISTRY

NUMBERS = ("-1", "0", "18446744073709551616", "1e999", "1e12", "nan", "9" * 5000, "", "1,0", "٣",
           "/dev/zero", "../../../../etc/passwd")
SMALL = "filter m=1000 k=3"
LARGE = "filter m=268435456 k=64"
GROWING = "filter variant=scalable capacity=1000 p=0.01"
COUNTING = "filter m=100000 k=7 variant=counting counter_bits=8"


def lesson(*blocks: str, title: str = "Fuzz", narration: str = "Words.") -> str:
    steps = "".join(f"## Step {i}\n\n{narration}\n\n```bloomviz\n{body}\n```\n\n"
                    for i, body in enumerate(blocks, start=1))
    return f"# {title}\n\n{steps}"


def action_lines() -> list[str]:
    """Every action with each hostile value in each of its options and as its positional argument."""
    lines = []
    for name, spec in REGISTRY.items():
        if name == "predict":
            continue          # its block has ask/choice lines: predict_lines() below
        takes_args = spec.min_args > 0 or spec.max_args is None
        for j, value in enumerate(NUMBERS):
            quoted = f'"{value}"' if value == "" else value
            if takes_args or j % 4 == 0:
                lines.append(f"{name} {quoted}")
            # each option meets a quarter of the values, a different quarter for the next option
            lines.extend(f"{name} {key}={quoted}" for o, key in enumerate(spec.options) if (o + j) % 4 == 0)
        lines.append(f"{name} " + " ".join(f"{key}=1e12" for key in spec.options))
    lines += [f"insert-random {n}" for n in ("2000000", "2e6", "3000000")]
    lines += [f"ensemble filters={f} n={n} probes=4096" for f, n in (("100000", "40"), ("100000", "2000000"))]
    lines += ["positions x = 1 2 99999999999999999999", "highlight 268435455 268435456", "rates m=1e14 k=64 n=" +
              ",".join(["1e15"] * 2000), "design n=1000000000000000 p=1e-300", "kedmi density=0.99 seed=1e300"]
    return lines


def predict_lines() -> list[str]:
    out = []
    for kind in ("verdict", "bits-set", "new-bits", "measured-rate", "exact-rate", "frobnicate"):
        for item in ("x", "9" * 5000, "/dev/zero"):
            out.append(f"predict {kind} {item}\nask Which?\nchoice <0.5 Low\nchoice >=0.5 High")
    return out


def heavy() -> dict[str, str]:
    """The shapes that ran for minutes or took gigabytes before the budgets."""
    words = " ".join(f"w{i}" for i in range(2000))
    return {
        "text-steps-2-28.md": lesson(LARGE, *["insert a b c"] * 100),
        "counting-8bit-20-steps.md": lesson("filter m=268435456 k=4 variant=counting counter_bits=8",
                                            *["insert x"] * 20),
        "counting-steps.md": lesson(COUNTING, *["insert-random 100000"] * 20),
        "ensemble-large-m.md": lesson("filter m=268435456 k=3\ninsert-random 10\nensemble filters=100000 n=10"),
        "scalable-giant-stage.md": lesson("filter variant=scalable capacity=268435456 p=1e-9"),
        "scalable-growth.md": lesson("filter variant=scalable capacity=1000 p=1e-12\ninsert-random 2000000"),
        "five-insert-random-2-28.md": lesson(LARGE, *["insert-random 2000000"] * 5),
        "culprits.md": lesson(SMALL + "\ninsert " + words + "\nlookup " + words),
        "probes-every-step.md": lesson(SMALL + "\nmeasure probes=200000", *["expect n=0\nexpect n=0"] * 60),
        "kedmi-many.md": lesson(*["kedmi density=0.5 seed=%d" % i for i in range(6)]),
        "slow-hash.md": lesson("filter m=1000000 k=64 scheme=sha256-salted\ninsert-random 200000"),
        "long-word.md": lesson(SMALL, narration="x" * ((1 << 20) - 200)),
        "long-item.md": lesson(SMALL + "\ninsert " + "y" * 500_000),
        "many-steps.md": lesson(*[SMALL] * 5000),
        "many-lookups.md": lesson(SMALL + "\n" + "lookup a\n" * 40000),
    }


def corpus_files(seed: int = 27) -> dict[str, bytes]:
    """File name -> the file's bytes, every file of the corpus (the window walk picks from these too)."""
    files: dict[str, str | bytes] = {}
    for i, line in enumerate(action_lines() + predict_lines()):
        files[f"action-{i:04d}-small.md"] = lesson(SMALL, line)
        other = (LARGE + "\ninsert-random 1000", GROWING, COUNTING)[i % 3]
        if i % 2 == 0:      # every other line on the largest, a growing or a counting filter in turn
            files[f"action-{i:04d}-other.md"] = lesson(other, line)
    files.update(heavy())
    rng = random.Random(seed)
    files["ten-megabytes.md"] = lesson(SMALL) + "a " * (5 << 20)
    files["binary.md"] = bytes(rng.getrandbits(8) for _ in range(4096))
    files["nul-bytes.md"] = lesson(SMALL).encode() + b"\x00" * 100
    files["latin1.md"] = lesson(SMALL + "\ninsert caf\xe9").encode("latin-1")
    files["bom.md"] = b"\xef\xbb\xbf" + lesson(SMALL).encode()
    return {name: body if isinstance(body, bytes) else body.encode("utf-8", "surrogatepass")
            for name, body in files.items()}


def write_corpus(folder: Path, seed: int = 27) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, body in corpus_files(seed).items():
        path = folder / name
        path.write_bytes(body)
        paths.append(path)
    return paths
