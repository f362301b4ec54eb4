"""``check`` answers every item even when one cannot be looked up (an empty line, a value a Parquet column's
type cannot hold): the bad one is reported on its own line and on stderr, and exit 3 says some were refused.
It used to stop the whole run with exit 2 on the first bad item."""

from __future__ import annotations

import json
from pathlib import Path

from bloomviz import cli
from bloomviz.files import storage
from bloomviz.filters.standard import BloomFilter

DATA = Path(__file__).parents[1] / "data"


def saved(tmp_path) -> Path:
    flt = BloomFilter(2048, 4)
    flt.update(["alpha", "beta"])
    path = tmp_path / "f.bloom"
    storage.save(flt, path)
    return path


def test_an_empty_item_in_a_list_is_reported_and_the_rest_answered(tmp_path, capsys):
    items = tmp_path / "items.txt"
    items.write_text("alpha\n\nbeta\nnever-inserted-item\n")
    code = cli.main(["check", str(saved(tmp_path)), "alpha", "", "--items", str(items)])
    out, err = capsys.readouterr()
    lines = out.splitlines()
    assert code == 3
    assert lines[0] == "probably present\talpha"
    assert lines[1].startswith("refused\t\t(an empty item cannot be looked up)")
    assert sum(line.startswith("probably present") for line in lines) == 3
    assert any(line.startswith("definitely absent\tnever-inserted-item") for line in lines)
    assert "not looked up: an empty item cannot be looked up" in err


def test_json_names_the_refused_item(tmp_path, capsys):
    code = cli.main(["check", str(saved(tmp_path)), "beta", "", "--json"])
    report = json.loads(capsys.readouterr().out)
    assert code == 3
    assert [i["verdict"] for i in report["items"]] == ["probably present", "refused"]
    assert report["items"][1]["reason"] == "an empty item cannot be looked up"


def test_all_good_items_keep_the_old_exit_codes(tmp_path, capsys):
    path = saved(tmp_path)
    assert cli.main(["check", str(path), "alpha", "beta"]) == 0
    assert cli.main(["check", str(path), "alpha", "gamma-never"]) == 1
    capsys.readouterr()


def test_a_bad_parquet_int64_value_does_not_stop_the_others(capsys):
    path = DATA / "foreign" / "pyarrow-bloom.parquet"
    code = cli.main(["check", "--column", "i64", str(path), "seven", "7"])
    out, err = capsys.readouterr()
    assert code == 3
    assert out.splitlines()[1] == "probably present\t7\t(column i64, row group 0)"
    assert "seven" in err
