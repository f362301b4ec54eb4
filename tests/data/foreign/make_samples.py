"""Write the foreign sample files with the real libraries, and record each library's own answers beside them.

Run from the repository root with the libraries installed in the venv (they are NOT runtime or test
dependencies; the tests only read what this script wrote)::

    .venv/bin/pip install pyarrow duckdb pybloom-live pyprobables
    .venv/bin/pip install --no-deps --target /tmp/pybloom3 'pybloom-live<4'      # optional: the 3.x sample
    .venv/bin/python tests/data/foreign/make_samples.py --pybloom3 /tmp/pybloom3
    # Guava samples too when javac and /usr/share/java/guava.jar (apt-get install libguava-java) exist

For every sample ``X`` it writes ``X.json``: the library and its version, m, k and bits set as the library
reports them, the inserted items, and the never-inserted probes the library answers "present" for (its false
positives), so the tests can demand the reader reproduce every answer exactly.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from importlib.metadata import version
from pathlib import Path

HERE = Path(__file__).resolve().parent
ITEMS = [f"item-{i}" for i in range(300)] + ["é", "日本語", "😀 emoji", "tab\there", "x"]
PROBES = [f"probe-{i}" for i in range(2000)]


def record(name: str, **data) -> None:
    (HERE / f"{name}.json").write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {name}: m={data.get('m')} k={data.get('k')} bits_set={data.get('bits_set')}")


def pybloom_samples() -> None:
    from pybloom_live import BloomFilter, ScalableBloomFilter
    lib = f"pybloom-live {version('pybloom-live')}"
    # capacity 320 at 1%: 7 slices of 'H' chunks, 112 hash bits: the xxh128 plan that differs from 3.x (MD5)
    # capacity 2000 at 0.1%: 10 slices, 160 bits: SHA-1
    for name, cap, rate in (("pybloom-live-xxh128", 320, 0.01), ("pybloom-live-sha1", 2000, 0.001)):
        f = BloomFilter(capacity=cap, error_rate=rate)
        for item in ITEMS:
            f.add(item)
        with open(HERE / f"{name}.pybloom", "wb") as out:
            f.tofile(out)
        record(name, library=lib, made_by=f"BloomFilter(capacity={cap}, error_rate={rate}); add each item; tofile",
               m=f.num_bits, k=f.num_slices, bits_set=f.bitarray.count(), count=f.count, items=ITEMS,
               probes_present=[p for p in PROBES if p in f])
    s = ScalableBloomFilter(initial_capacity=60, error_rate=0.01, mode=ScalableBloomFilter.SMALL_SET_GROWTH)
    for item in ITEMS:
        s.add(item)
    with open(HERE / "pybloom-live-scalable.pybloom", "wb") as out:
        s.tofile(out)
    record("pybloom-live-scalable", library=lib,
           made_by="ScalableBloomFilter(initial_capacity=60, error_rate=0.01, mode=SMALL_SET_GROWTH); add; tofile",
           m=sum(f.num_bits for f in s.filters), k=max(f.num_slices for f in s.filters), links=len(s.filters),
           bits_set=sum(f.bitarray.count() for f in s.filters), count=len(s), items=ITEMS,
           probes_present=[p for p in PROBES if p in s])


def pybloom3_sample(target: str | None) -> None:
    """pybloom-live 3.x hashes 128-bit plans with MD5; run it from a ``pip install --target DIR`` copy."""
    if not target:
        print("skipped pybloom-live 3.x: pass --pybloom3 DIR (pip install --no-deps --target DIR 'pybloom-live<4')")
        return
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([target, os.environ.get("PYTHONPATH", "")]))
    subprocess.run([sys.executable, __file__, "--pybloom3-child", target], check=True, env=env)


def _pybloom3_child(target: str) -> None:
    import pybloom_live
    from pybloom_live import BloomFilter
    assert os.path.dirname(pybloom_live.__file__).startswith(os.path.realpath(target)), pybloom_live.__file__
    lib = f"pybloom-live {version_in(target, 'pybloom_live')}"
    f = BloomFilter(capacity=320, error_rate=0.01)
    for item in ITEMS:
        f.add(item)
    with open(HERE / "pybloom-live-3.1-md5.pybloom", "wb") as out:
        f.tofile(out)
    record("pybloom-live-3.1-md5", library=lib, hashing="md5",
           made_by="BloomFilter(capacity=320, error_rate=0.01); add each item; tofile (the 4.0 sample's parameters)",
           m=f.num_bits, k=f.num_slices, bits_set=f.bitarray.count(), count=f.count, items=ITEMS,
           probes_present=[p for p in PROBES if p in f])


def version_in(target: str, module: str) -> str:
    from importlib.metadata import distributions
    for dist in distributions(path=[target]):
        if dist.metadata["Name"].lower().replace("-", "_") == module:
            return dist.version
    return "unknown"


def pyprobables_samples() -> None:
    from probables import BloomFilter, CountingBloomFilter
    lib = f"pyprobables {version('pyprobables')}"
    b = BloomFilter(est_elements=400, false_positive_rate=0.02)
    c = CountingBloomFilter(est_elements=150, false_positive_rate=0.05)
    for item in ITEMS:
        b.add(item)
    for item in ITEMS[:150]:
        c.add(item)
    b.export(str(HERE / "pyprobables-bloom.blm"))
    (HERE / "pyprobables-bloom.hex").write_text(b.export_hex() + "\n", encoding="ascii")
    c.export(str(HERE / "pyprobables-counting.cbm"))
    common = dict(m=b.number_bits, k=b.number_hashes, bits_set=sum(bin(x).count("1") for x in b.bloom),
                  count=b.elements_added, items=ITEMS, probes_present=[p for p in PROBES if b.check(p)])
    record("pyprobables-bloom", library=lib, made_by="BloomFilter(est_elements=400, false_positive_rate=0.02); "
           "add each item; export(.blm)", **common)
    record("pyprobables-bloom-hex", library=lib, made_by="the same filter; export_hex() + newline", **common)
    record("pyprobables-counting", library=lib, made_by="CountingBloomFilter(est_elements=150, "
           "false_positive_rate=0.05); add the first 150 items; export", m=c.number_bits, k=c.number_hashes,
           bits_set=sum(1 for x in c.bloom if x), count=c.elements_added, items=ITEMS[:150],
           probes_present=[p for p in PROBES if c.check(p)])


def _probe(con, path: Path, column: str, values, row_groups: int) -> list[list]:
    """Per row group, the values DuckDB's parquet_bloom_probe does NOT exclude (its 'might be present')."""
    present = [[] for _ in range(row_groups)]
    for v in values:
        for _file, group, excludes in con.execute(
                "select * from parquet_bloom_probe(?, ?, ?)", [str(path), column, v]).fetchall():
            if not excludes:
                present[group].append(v)
    return present


def parquet_samples() -> None:
    import duckdb
    import pyarrow as pa
    import pyarrow.parquet as pq
    con = duckdb.connect()
    ints = list(range(0, 3000, 7))[:len(ITEMS)]
    halves = [i * 0.5 for i in range(len(ITEMS))]
    table = pa.table({"s": ITEMS, "i64": pa.array(ints, pa.int64()), "i32": pa.array(ints, pa.int32()),
                      "f64": pa.array(halves, pa.float64())})
    path = HERE / "pyarrow-bloom.parquet"
    pq.write_table(table, path, row_group_size=200, bloom_filter_options={
        "s": {"ndv": 200, "fpp": 0.02}, "i64": {"ndv": 200, "fpp": 0.05}, "i32": {"ndv": 100, "fpp": 0.1},
        "f64": {"ndv": 100, "fpp": 0.2}})
    _record_parquet(con, "pyarrow-bloom", path, f"pyarrow {pa.__version__}",
                    "pyarrow.parquet.write_table(row_group_size=200, bloom_filter_options={s: ndv 200 fpp 0.02, "
                    "i64: ndv 200 fpp 0.05, i32: ndv 100 fpp 0.1, f64: ndv 100 fpp 0.2})",
                    {"s": ITEMS, "i64": ints, "i32": ints, "f64": halves}, 200)
    path = HERE / "duckdb-dictionary.parquet"
    con.execute(f"copy (select 'v' || (i % 90)::varchar as s, (i % 130)::bigint as i64 from range(1000) t(i)) "
                f"to '{path}' (row_group_size 1000)")
    _record_parquet(con, "duckdb-dictionary", path, f"duckdb {duckdb.__version__}",
                    "COPY (1000 rows: s = 'v' || i % 90, i64 = i % 130) TO file.parquet (DuckDB writes Bloom "
                    "filters for dictionary-encoded columns unasked)",
                    {"s": [f"v{i % 90}" for i in range(1000)], "i64": [i % 130 for i in range(1000)]}, 1000)


def _probes_like(value) -> list:
    """1000 values of the column's type that were never written."""
    if isinstance(value, str):
        return [f"probe-{i}" for i in range(1000)]
    if isinstance(value, float):
        return [i + 0.25 for i in range(1000)]
    return list(range(100_000, 101_000))


def _record_parquet(con, name, path, lib, made_by, columns: dict, per_group: int) -> None:
    meta = con.execute("select row_group_id, path_in_schema, bloom_filter_offset, bloom_filter_length "
                       "from parquet_metadata(?) order by row_group_id, column_id", [str(path)]).fetchall()
    groups = 1 + max(r[0] for r in meta)
    record(name, library=lib, checked_by=f"duckdb {version('duckdb')} parquet_bloom_probe", made_by=made_by,
           rows_per_group=per_group, columns={
               col: {"values": values,
                     "probes": (probes := _probes_like(values[0])),
                     "present_by_group": _probe(con, path, col, probes, groups),
                     "inserted_present_by_group": _probe(con, path, col, sorted(set(values), key=str), groups)}
               for col, values in columns.items()},
           filters=[{"row_group": g, "column": c, "offset": o, "length": ln} for g, c, o, ln in meta if o])


def guava_samples() -> None:
    jar = Path("/usr/share/java/guava.jar")
    if not (shutil.which("javac") and jar.exists()):
        print("skipped Guava: javac or /usr/share/java/guava.jar is missing (apt-get install libguava-java)")
        return
    with tempfile.TemporaryDirectory() as tmp:
        items, probes = Path(tmp, "items.txt"), Path(tmp, "probes.txt")
        items.write_text("\n".join(ITEMS) + "\n", encoding="utf-8")
        probes.write_text("\n".join(PROBES) + "\n", encoding="utf-8")
        subprocess.run(["javac", "-cp", str(jar), "-d", tmp, str(HERE / "GuavaSamples.java")], check=True)
        out = subprocess.run(["java", "-cp", os.pathsep.join([tmp, str(jar)]), "GuavaSamples", str(HERE),
                              str(items), str(probes)], check=True, capture_output=True, text=True)
    guava_version = out.stdout.strip()
    if guava_version in ("", "null"):   # Debian's jar has no Implementation-Version; Maven's properties do
        import zipfile
        with zipfile.ZipFile(jar) as z:
            props = z.read("META-INF/maven/com.google.guava/guava/pom.properties").decode()
        guava_version = next(line.split("=", 1)[1] for line in props.splitlines() if line.startswith("version="))
    for name, funnel, inserted, probe in (
            ("guava-mitz32-utf8", "utf8", ITEMS, PROBES), ("guava-mitz64-utf8", "utf8", ITEMS, PROBES),
            ("guava-mitz64-long", "long", [i * 7 for i in range(300)], [i * 7 + 3 for i in range(2000)]),
            ("guava-mitz64-chars", "chars", ITEMS, PROBES),
            ("guava-mitz64-int", "int", [i * 7 - 1000 for i in range(300)], [i * 7 + 3 - 1000 for i in range(2000)])):
        answers = (HERE / f"{name}.answers").read_text().split()
        (HERE / f"{name}.answers").unlink()
        bit_size, bit_count, k, verdicts = int(answers[0]), int(answers[1]), int(answers[2]), answers[3:]
        record(name, library=f"Guava {guava_version} (Debian libguava-java)", funnel=funnel,
               made_by="GuavaSamples.java: BloomFilter.create(funnel, n, fpp[, strategy]); put each item; writeTo",
               m=bit_size, k=k, bits_set=bit_count, items=inserted,
               probes=probe if probe is not PROBES else None,
               probes_present=[p for p, v in zip(probe, verdicts) if v == "1"])


def go_samples() -> None:
    """bits-and-blooms/bloom built in GOPATH mode from Debian's golang-github-willf-bloom-dev sources."""
    gopath = Path("/usr/share/gocode")
    if not (shutil.which("go") and (gopath / "src/github.com/bits-and-blooms/bloom").is_dir()):
        print("skipped Go: apt-get install golang-go golang-github-willf-bloom-dev "
              "golang-github-bits-and-blooms-bitset-dev")
        return
    with tempfile.TemporaryDirectory() as tmp:
        items, probes = Path(tmp, "items.txt"), Path(tmp, "probes.txt")
        items.write_text("\n".join(ITEMS) + "\n", encoding="utf-8")
        probes.write_text("\n".join(PROBES) + "\n", encoding="utf-8")
        env = dict(os.environ, GO111MODULE="off", GOPATH=str(gopath), GOCACHE=str(Path(tmp, "cache")))
        subprocess.run(["go", "run", str(HERE / "GoSamples.go"), str(HERE), str(items), str(probes)], check=True,
                       env=env)
    answers = (HERE / "go-bloom.answers").read_text().split()
    (HERE / "go-bloom.answers").unlink()
    versions = subprocess.run(["dpkg-query", "-W", "-f", "${Version}", "golang-github-willf-bloom-dev"],
                              capture_output=True, text=True).stdout or "unknown"
    go_version = subprocess.run(["go", "version"], capture_output=True, text=True).stdout.split()[2]
    record("go-bloom", library=f"bits-and-blooms/bloom {versions} (Debian golang-github-willf-bloom-dev), "
                               f"{go_version}",
           made_by="GoSamples.go: bloom.NewWithEstimates(500, 0.01); AddString each item; WriteTo -> "
                   "go-bloom.writeto, json.Marshal -> go-bloom.marshal.json",
           m=int(answers[0]), k=int(answers[1]), bits_set=int(answers[2]), items=ITEMS,
           probes_present=[p for p, v in zip(PROBES, answers[3:]) if v == "1"])


def main(argv: list[str]) -> int:
    if argv[:1] == ["--pybloom3-child"]:
        _pybloom3_child(argv[1])
        return 0
    pybloom3 = argv[argv.index("--pybloom3") + 1] if "--pybloom3" in argv else None
    for make in (pybloom_samples, pyprobables_samples, parquet_samples, guava_samples, go_samples):
        make()
    pybloom3_sample(pybloom3)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
