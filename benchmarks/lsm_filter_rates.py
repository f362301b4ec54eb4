"""RocksDB's false-positive rate against what bloomviz predicts for the same table (README, "LevelDB and RocksDB
tables").

    python benchmarks/lsm_filter_rates.py [--n N]

Writes one table per filter implementation with rocksdict (SstFileWriter, 10 bits per key): N keys
``user:%08d`` with even numbers; the N odd numbers between them are the non-members. RocksDB answers each with
``key_may_exist`` (block cache off, so only the filter can say no). Prints per table the rate RocksDB
answered, the rate bloomviz predicts from the filter's fill (per cache line) and RocksDB's own model
(``rocksdb_estimated_fp``), then one JSON line. Needs the test extra (rocksdict, plyvel); takes ~40 s at
N = 200,000.

LevelDB gives no filter answer of its own, so its line is bloomviz's answer through the filters it reads (the
tests show they equal LevelDB's bytes): the same keys in a compacted database, each non-member asked of the
filter of the data block the index sends it to, against the mean rate the filters' fill predicts for them.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import plyvel  # noqa: E402
import rocksdict  # noqa: E402

from bloomviz import formats  # noqa: E402
from bloomviz.formats import leveldb  # noqa: E402


def options(format_version: int):
    opts = rocksdict.Options(raw_mode=True)
    table = rocksdict.BlockBasedOptions()
    table.set_bloom_filter(10, False)
    table.disable_cache()
    table.set_format_version(format_version)
    opts.set_block_based_table_factory(table)
    opts.create_if_missing(True)
    return opts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=200_000)
    n = parser.parse_args().n
    keys = [b"user:%08d" % i for i in range(0, 2 * n, 2)]
    probes = [b"user:%08d" % i for i in range(1, 2 * n, 2)]
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for version in (4, 6):
            opts, path = options(version), os.path.join(tmp, f"fv{version}.sst")
            writer = rocksdict.SstFileWriter(opts)
            writer.open(path)
            for key in keys:
                writer[key] = b"v"
            writer.finish()
            [f] = formats.open_filters(path)
            db = rocksdict.Rdict(os.path.join(tmp, f"db{version}"), opts)
            db.ingest_external_file([path])
            answered = sum(db.key_may_exist(p) for p in probes) / len(probes)
            db.close()
            rows.append({"format_version": version, "filter": f.fields["implementation"], "keys": n,
                         "bits_per_key": f.m / n, "answered": answered, "answered_by": "RocksDB (key_may_exist)", "from_fill": f.expected_fp,
                         "rocksdb_model": f.fields["rocksdb_estimated_fp"]})
        db = plyvel.DB(os.path.join(tmp, "leveldb"), create_if_missing=True, bloom_filter_bits=10)
        with db.write_batch() as batch:
            for key in keys:
                batch.put(key, b"v")
        db.compact_range()
        db.close()
        filters = formats.open_filters(os.path.join(tmp, "leveldb"))
        hits = predicted = 0.0
        for p in probes:
            chosen = leveldb.route(filters, p)
            hits += any(p in f for f in chosen)
            predicted += sum(f.expected_fp for f in chosen)
        rows.append({"format_version": "LevelDB", "filter": f"{len(filters)} filters", "keys": n,
                     "bits_per_key": sum(f.m for f in filters) / n, "answered": hits / len(probes),
                     "answered_by": "bloomviz (LevelDB's own filter bytes)", "from_fill": predicted / len(probes),
                     "rocksdb_model": None})
    print(f"{'table':>14} {'filter':>15} {'bits/key':>8} {'answered':>9} {'from fill':>10} {'RocksDB model':>13}")
    for r in rows:
        model = "-" if r["rocksdb_model"] is None else f"{r['rocksdb_model']:.4%}"
        print(f"{r['format_version']:>14} {r['filter']:>15} {r['bits_per_key']:>8.2f} {r['answered']:>9.4%} "
              f"{r['from_fill']:>10.4%} {model:>13}")
    print(json.dumps(rows))


if __name__ == "__main__":
    main()
