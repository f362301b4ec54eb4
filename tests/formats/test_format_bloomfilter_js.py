"""Jason Davies' bloomfilter.js files, written by the real library (npm ``bloomfilter``, run with node in the
test; skipped where node or npm is missing or the package cannot be installed): its ``toJSON`` (recognised
from its contents), a bare buckets array and the Uint32Array's bytes (read with --k). Every answer is compared
with the library's own ``test()`` on members and on 2,000 non-members, false positives included."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from bloomviz import cli, formats

pytestmark = pytest.mark.skipif(shutil.which("node") is None or shutil.which("npm") is None,
                                reason="node and npm are needed to run bloomfilter.js")

WRITE = r"""
import { BloomFilter } from "bloomfilter";
import fs from "fs";
const [out, m, k] = [process.argv[2], +process.argv[3], +process.argv[4]];
const bloom = new BloomFilter(m, k);
const members = [];
for (let i = 0; i < 300; i++) members.push("user-" + i + (i % 7 ? "" : " é ✓ 😀"));
members.forEach((x) => bloom.add(x));
fs.writeFileSync(out + "/bloom.json", JSON.stringify(bloom));
fs.writeFileSync(out + "/buckets.json", JSON.stringify(Array.from(bloom.buckets)));
fs.writeFileSync(out + "/buckets.bin", bloom.buckets);
const probes = [];
for (let i = 0; i < 2000; i++) probes.push("visitor/" + i);
const all = members.concat(probes);
fs.writeFileSync(out + "/answers.json", JSON.stringify({k: bloom.k, m: bloom.m, items: all,
                                                        answers: all.map((x) => bloom.test(x))}));
"""


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    where = tmp_path_factory.mktemp("bloomfilter-js")
    try:
        subprocess.run(["npm", "install", "--silent", "--prefix", str(where), "bloomfilter@1"], check=True,
                       capture_output=True, timeout=180)
    except (subprocess.SubprocessError, OSError) as exc:
        pytest.skip(f"npm could not install bloomfilter: {exc}")
    (where / "write.mjs").write_text(WRITE)
    subprocess.run(["node", str(where / "write.mjs"), str(where), "3000", "5"], check=True, cwd=where, timeout=60)
    return where, json.loads((where / "answers.json").read_text())


def test_the_json_is_recognised_and_answers_as_the_library(written):
    where, truth = written
    assert formats.detect(where / "bloom.json") == "bloomfilter-js"
    (flt,) = formats.open_filters(where / "bloom.json")
    assert (flt.m, flt.k) == (truth["m"], truth["k"]) == (3008, 5)
    answers = [flt.positions(x).maybe_present for x in truth["items"]]
    assert answers == truth["answers"]
    assert all(answers[:300]) and 0 < sum(answers[300:]) < 2000   # its false positives too


@pytest.mark.parametrize("name", ["buckets.json", "buckets.bin"])
def test_the_buckets_array_and_bytes_read_with_k(written, name):
    where, truth = written
    (flt,) = formats.open_filters(where / name, "bloomfilter-js", k=5)
    (ref,) = formats.open_filters(where / "bloom.json")
    assert flt.bits == ref.bits and flt.m == ref.m
    assert [flt.positions(x).maybe_present for x in truth["items"]] == truth["answers"]
    with pytest.raises(ValueError, match="--k"):
        formats.open_filters(where / name, "bloomfilter-js")


def test_check_on_the_command_line(written, capsys):
    where, truth = written
    assert cli.main(["check", str(where / "bloom.json"), "user-1", "user-7 é ✓ 😀"]) == 0
    assert capsys.readouterr().out.count("probably present") == 2
