"""Apache Spark ``BloomFilter.writeTo`` files written by Spark's own spark-sketch 4.3.0 (SparkSamples.java, run
on the jar PyPI's pyspark ships): V1 and V2, strings and longs. Every item answers present and every probe
answers exactly as Spark's mightContain did, false positives included; the Murmur3_x86_32 port meets Spark's
published test vectors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bloomviz import formats
from bloomviz.cli import main
from bloomviz.formats import spark

DATA = Path(__file__).parents[1] / "data" / "foreign"
SAMPLES = ["spark-v1-strings", "spark-v2-strings", "spark-v1-longs", "spark-v2-longs"]


@pytest.mark.parametrize("name", SAMPLES)
def test_answers_equal_spark_s_own(name):
    lib = json.loads((DATA / f"{name}.json").read_text(encoding="utf-8"))
    path = DATA / f"{name}.spark"
    assert formats.detect(path) == "spark"
    [f] = formats.open_filters(path, spark_items=lib["items_as"])
    assert (f.m, f.bits_set, f.fields["version"], f.fields["seed"]) == (
        lib["m"], lib["bits_set"], int(lib["version"][1]), lib["seed"])
    assert all(f.lookup(x).maybe_present for x in lib["items"])
    assert [p for p in lib["probes"] if f.lookup(p).maybe_present] == lib["probes_present"]
    assert lib["probes_present"]    # the comparison includes false positives


def test_murmur3_x86_32_meets_spark_s_published_vectors():
    # Spark's Murmur3_x86_32Suite.testKnownLongInputs (seed 0)
    assert [spark.hash_long(v, 0) for v in (0, -42, 42, -(1 << 63), (1 << 63) - 1)] == [
        1669671676, -846261623, 1871679806, 1366273829, -2106506049]
    # a leftover byte >= 0x80 is mixed in sign-extended: not the reference MurmurHash3 x86_32
    import mmh3
    assert spark.hash_bytes(b"abcd", 0) == mmh3.hash(b"abcd", 0)
    assert spark.hash_bytes(b"abcde", 0) != mmh3.hash(b"abcde", 0)


def test_cli(capsys):
    path = DATA / "spark-v1-longs.spark"
    lib = json.loads((DATA / "spark-v1-longs.json").read_text(encoding="utf-8"))
    assert main(["check", "--spark-items", "long", str(path), lib["items"][0], lib["probes_present"][0]]) == 0
    capsys.readouterr()
    assert main(["check", str(path), lib["items"][0]]) == 1     # read as text, a long member is not found
    capsys.readouterr()
    assert main(["check", "--spark-items", "long", str(path), "x"]) == 3
    assert "putLong are integers" in capsys.readouterr().out
    assert main(["inspect", str(DATA / "spark-v2-strings.spark")]) == 0
    assert "seed                  20,240" in capsys.readouterr().out
