"""RocksDB's false-positive rate against what bloomviz predicts for the same table (README, "LevelDB and RocksDB
tables").

    python benchmarks/lsm_filter_rates.py [--n N]

Writes one table per filter implementation with rocksdict (SstFileWriter, 10 bits per key): N keys
``user:%08d`` with even numbers; the N odd numbers between them are the non-members. RocksDB answers each with
``key_may_exist`` (block cache off, so only the filter can say no). Prints per table the rate RocksDB
answered, the rate bloomviz predicts from the filter's fill (per cache line) and RocksDB's own model
(``rocksdb_estimated_fp``), then one JSON line. Needs the test extra (rocksdict); takes ~20 s at N = 200,000.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import rocksdict  # noqa: E402

from bloomviz import formats  # noqa: E402


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
                         "bits_per_key": f.m / n, "rocksdb_answered": answered, "from_fill": f.expected_fp,
                         "rocksdb_model": f.fields["rocksdb_estimated_fp"]})
    print(f"{'format_version':>14} {'filter':>15} {'bits/key':>8} {'RocksDB answered':>17} {'from fill':>10} "
          f"{'RocksDB model':>13}")
    for r in rows:
        print(f"{r['format_version']:>14} {r['filter']:>15} {r['bits_per_key']:>8.2f} {r['rocksdb_answered']:>17.4%} "
              f"{r['from_fill']:>10.4%} {r['rocksdb_model']:>13.4%}")
    print(json.dumps(rows))


if __name__ == "__main__":
    main()
