"""Engine presets: each engine's sizing rule gives the m and k its real files hold, and its quirks (Cassandra's
minimum rate, ClickHouse's cap, Redis's power-of-two bits, Parquet's power-of-two blocks, git's 512-path limit)
come out as the engines' code makes them."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from bloomviz import formats
from bloomviz.cli import main
from bloomviz.theory import engines, rates, units
from world_fixtures import fixture

DATA = Path(__file__).parents[1] / "data" / "foreign"


def test_cassandra_rule_gives_the_real_table_s_filter_and_refuses_below_its_minimum():
    path = fixture("cassandra-3.11-iot", "md-2-big-Filter.db")
    [flt] = formats.open_filters(path)
    built = engines.cassandra(flt.fields["partitions"], flt.design_fp)
    assert (built.m, built.k) == (flt.m, flt.k) == (10_048, 5)
    assert engines.cassandra(1000, 0.5).k == 2 and engines.cassandra(1000, 0.5).m == 64 * math.ceil(1020 / 64)
    with pytest.raises(ValueError, match="larger than 6.71e-05"):
        engines.cassandra(1000, 6.71e-05)
    assert engines.cassandra(1000, 0.001).rate < 0.001    # the table's rates are classic, the exact one close


def test_spark_orc_and_hudi_rules_give_their_files_m_and_k(tmp_path):
    lib = json.loads((DATA / "spark-v1-strings.json").read_text(encoding="utf-8"))
    [spark] = formats.open_filters(DATA / "spark-v1-strings.spark")
    assert (engines.spark(500, 0.03).m, engines.spark(500, 0.03).k) == (spark.m, spark.k) == (lib["m"], 5)
    from orc_writer import write_orc
    write_orc(tmp_path / "t.orc", rows=3000, stride=1000, fpp=0.05)
    orc = formats.open_filters(tmp_path / "t.orc")[0]
    assert (engines.orc(1000, 0.05).m, engines.orc(1000, 0.05).k) == (orc.m, orc.k)
    hudi = engines.hudi(60_000, 1e-9)
    assert (hudi.m, hudi.k) == (2_587_966, 30)   # the Hudi base files' filters (tests/formats/test_format_hudi.py)


def test_redis_rounds_bits_up_to_a_power_of_two_and_grows_capacity():
    built = engines.redis(100, 0.01)
    assert built.m == 1024 and built.k == 7 and "106 entries" in " ".join(built.notes)
    assert built.rate < rates.fp_exact(960, 7, 100)         # more bits than asked: a lower rate at capacity
    exact = engines.redis(100, 0.01, noround=True)
    assert exact.m == 960 and exact.k == 7                   # 958 bits, whole 64-bit words


def test_parquet_blocks_are_a_power_of_two_and_meet_the_target():
    for n, fpp in ((1000, 0.05), (100_000, 0.01), (1 << 20, 0.05)):
        built = engines.parquet(n, fpp)
        assert built.m & (built.m - 1) == 0 and built.m >= 256 and built.rate <= fpp * 1.02
    capped = engines.parquet(10_000_000, 0.01, writer="parquet-java")
    assert capped.m == 8 << 20 and capped.rate > 0.01        # 1 MiB cap: the rate is missed


def test_rocksdb_probes_and_cache_lines():
    assert [engines.rocksdb(1000, b).k for b in (2, 5, 10, 16, 20, 40, 60)] == [1, 3, 6, 9, 11, 18, 24]   # (40000 - 1) // 2000 - 1 = 18
    built = engines.rocksdb(200_000, 10)
    assert built.m % 512 == 0 and built.m >= 2_000_000
    assert built.rate > rates.fp_exact(built.m, built.k, 200_000)   # lines fill unevenly: above the flat rate
    legacy = engines.rocksdb(200_000, 10, legacy=True)
    assert (legacy.m // 512) % 2 == 1 and legacy.k == 6


def test_clickhouse_table_and_its_cap():
    built = engines.clickhouse(8192, 0.025)
    assert built.k == 4 and built.m == 8 * 8192
    capped = engines.clickhouse(8192, 1e-6)
    assert (capped.k, capped.m) == (13, 19 * 8192) and capped.rate > 1e-6
    assert "falls back" in " ".join(capped.notes)


def test_git_and_ethereum():
    assert (engines.git(20).m, engines.git(20).k) == (200, 7)
    assert engines.git(513).rate == 1.0 and (engines.git(513).m, engines.git(513).k) == (8, 7)
    assert (engines.ethereum(10).m, engines.ethereum(10).k) == (2048, 3)


def test_cli(capsys):
    assert main(["engines", "--n", "1000"]) == 0
    out = capsys.readouterr().out
    assert all(name in out for name in engines.ENGINES)
    assert main(["engines", "--n", "1000", "--engine", "cassandra", "--set", "fp_chance=0.00001"]) == 2
    assert "Cassandra refuses it" in capsys.readouterr().err
    assert main(["engines", "--n", "10", "--engine", "redis", "--set", "nope=1"]) == 2
    assert "error_rate, capacity, noround" in capsys.readouterr().err
    assert main(["engines", "--json", "--n", "100", "--engine", "redis"]) == 0
    assert json.loads(capsys.readouterr().out)[0]["m"] == 1024


@pytest.mark.parametrize("typed", ["inf", "nan", "0,01", "1e400", ""])
def test_an_engine_setting_is_read_by_the_one_decimal_reader(capsys, typed):
    """float() took 'inf' and 'nan' as settings; the CLI and the explorer's preset now read them alike."""
    assert main(["engines", "--n", "1000", "--engine", "cassandra", "--set", f"fp_chance={typed}"]) == 2
    assert "expected a number" in capsys.readouterr().err
    with pytest.raises(ValueError, match="fp_chance must be a number"):
        units.parse_setting(typed, "fp_chance")
    assert main(["engines", "--n", "1000", "--engine", "cassandra", "--set", "fp_chance=1e-3"]) == 0
    assert units.parse_setting("1e-3", "fp_chance") == 0.001
