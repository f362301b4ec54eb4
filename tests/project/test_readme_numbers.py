"""The README's numbers that the app computes or declares, recomputed from the app (a sibling of
``test_prose_numbers.py``, which holds the formulas' numbers and the lessons').

Each test formats the app's own number the way the README writes it and asks that the README holds that text:
a limit raised, a data set that grew, a default changed or a figure that was never right fails here. Numbers
that are records of long measurements (git's own history, the LSM benchmarks, the Brainflayer run) cannot be
rerun in seconds: what of them follows from the app (the exact rate beside a measurement, the measurement
inside the interval its probes allow) is checked instead.
"""

from __future__ import annotations

import math
import re
from pathlib import Path

from bloomviz import lessons
from bloomviz.hashing import schemes as hashing
from bloomviz.items.encoding import MAX_DEMO_ITEMS, random_items, to_bytes
from bloomviz.lessons.state import LessonState
from bloomviz.theory import engines, limits
from bloomviz.theory import rates as theory
from bloomviz.theory.intervals import wilson_interval as wilson
from bloomviz.workbench import limits as window_limits
from bloomviz.workbench import model
from bloomviz.workbench.building import build_filter
from bloomviz.workbench.measurement import DEFAULT_PROBES
from bloomviz.workbench.truth import Truth

ROOT = Path(__file__).resolve().parents[2]
README = re.sub(r"\s+", " ", (ROOT / "README.md").read_text(encoding="utf-8"))
WORDS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine", 10: "ten",
         11: "eleven", 12: "twelve"}


def _holds(fragment: str) -> None:
    assert re.sub(r"\s+", " ", fragment) in README, f"README does not say: {fragment!r}"


def test_the_grid_and_what_a_large_filter_keeps():
    k, m = theory.optimal_params(10**7, 0.01)
    _holds(f"holds {window_limits.MIN_M} to {window_limits.MAX_M:,} bits (the 1 % design for 10^7 items, "
           f"m = {m:,}, fits)")
    assert m <= window_limits.MAX_M and k == 7
    # the picture: one byte per bit
    _holds(f"a byte per bit ({m / 1e6:.0f} MB at {m / 1e6:.2f} M bits)")
    # an insert keeps its k positions (4 bytes each below 2^32 bits) and its item: Truth's own accounting
    flt = build_filter("standard", {"m": 1 << 20, "k": 7, "scheme": "murmur3-mix"})
    truth = Truth(flt)
    items = [f"w{i}" for i in range(1000)]
    truth.remember(items, None, flt.positions_many([to_bytes(x) for x in items]))
    assert truth.rows.view().dtype.itemsize == 4
    per_insert = truth.nbytes() / len(items)
    _holds(f"positions ({truth.rows.view().dtype.itemsize} bytes each)")
    _holds(f"about {round(per_insert, -1):.0f} bytes an insert for short items at k = 7, "
           f"{round(per_insert, -1) * 1e7 / 1e9:.1f} GB after 10^7 inserts")
    rows = model.DENSE_ROWS + (10**7 - model.DENSE_ROWS) // model.THIN_EVERY
    wb = model.Workbench(probes=100)
    wb.insert_batch(items[:50])
    row_bytes = wb.series.nbytes / len(wb.series)        # what the window's series holds per row
    _holds(f"the plot keeps a row per insert up to 10^{round(math.log10(model.DENSE_ROWS))} inserts, then every "
           f"{model.THIN_EVERY}th (~{rows * row_bytes / 1e6:.0f} MB at 10^7)")
    _holds(f"on a sample of {DEFAULT_PROBES:,} never-inserted probes")


def test_the_scenarios_data_sets():
    from bloomviz.scenarios.stories import SCENARIOS
    from bloomviz.scenarios.contacts import EmailContacts
    from bloomviz.scenarios.weak_keys import PID_SPACE, WeakSshKeys
    _holds(f"**Start**: {WORDS[len(SCENARIOS)]} scenarios")
    _holds(f"spell checker ({len(SCENARIOS['spell']().items):,} English words")
    _holds(f"banned passwords ({len(SCENARIOS['passwords']().items):,} common ones")
    _holds(f"e-mail contacts (a {EmailContacts.M}-bit filter")
    assert PID_SPACE == 2 ** 15
    _holds(f"the {PID_SPACE:,} weak SSH keys of the 2008 Debian OpenSSL flaw at p = {WeakSshKeys.P}")


def test_the_size_limits_stated():
    _holds(f"(`--demo` up to {MAX_DEMO_ITEMS:,} items, `simulate --items` up to {limits.SIMULATE_MAX_N:,} "
           f"lines and `--n / --every` up to {limits.SIMULATE_MAX_N:,} rows, an item up to "
           f"{window_limits.MAX_ITEM_BYTES // 1024} KiB, m up to 2³⁴ bits)")
    from bloomviz.commands import simulate
    assert simulate.MAX_ROWS == limits.SIMULATE_MAX_N and limits.MAX_M == 2 ** 34
    _holds(f"`--n / --every` at most {simulate.MAX_ROWS // 10**6} million rows")


def test_the_brainflayer_run_ends_where_its_probes_allow():
    exact = theory.fp_exact(4294967296, 20, 440_000_000)
    stated = re.search(r"ends at (0\.\d+) measured against (0\.\d+) exact", README)
    assert stated and stated.group(2) == f"{exact:.4f}"
    low, high = wilson(round(float(stated.group(1)) * 10_000), 10_000)
    assert low <= exact <= high       # 10,000 probes: the measurement is one draw around the exact rate


def test_double_hashing_has_m_squared_over_two_patterns_at_a_power_of_two():
    m, k = 16, 4
    datas = [to_bytes(x) for x in random_items(60_000, seed=2)]
    rows = hashing.SCHEMES["murmur3-km"].positions_many(datas, m, k)
    assert len({tuple(r) for r in rows.tolist()}) == m * m // 2
    _holds("an item has only m²/2 possible patterns")


def test_the_lab_defaults_and_its_double_hashing_example():
    from bloomviz.lab import grid
    from bloomviz.lab.examples import double_hashing
    _holds(f"`--probes` strangers (default {grid.DEFAULT_PROBES:,})")
    positions = double_hashing.make_filter(64, 4)
    items = [f"x{i}" for i in range(64_000)]
    one_bit = sum(len(set(positions(x))) == 1 for x in items) / len(items)
    assert abs(one_bit - 1 / 64) < 3 * math.sqrt(1 / 64 / len(items))
    _holds("at m = 64 one item in 64 has all k positions on one bit")


def test_engine_rules_stated_in_prose():
    _holds(f"(`bloom_filter_fp_chance`, refused at or below {engines.CASSANDRA_MIN_FP * 1e5:.2f} × 10⁻⁵)")
    floor = engines.PROBS[19][13]
    _holds(f"below {floor * 1e4:.2f} × 10⁻⁴ it falls back to 19 bits per row")
    assert engines.clickhouse(1000, floor / 2).k == 13 and "19 bits per row" in engines.clickhouse(1000, floor / 2).notes[0]
    git = engines.git(2)
    assert (git.m, git.k) == (24, 7) and (engines.git(513).m, engines.git(513).k) == (8, 7)   # the all-ones byte
    _holds("git (10 bits per path, k = 7, at most 512 paths), Ethereum (2,048 bits, k = 3)")
    assert (engines.ethereum(1).m, engines.ethereum(1).k) == (2048, 3)
    assert engines.rocksdb(1000, 10, legacy=True).k == int(10 * 0.69) == 6
    _holds("(k = ⌊0.69 × bits per key⌋, so 6 at 10 bits)")


def test_the_shipped_ethereum_block():
    from bloomviz.lessons import wild
    eth = wild.ethereum_block()     # what lesson 9's ethereum-block step computes
    _holds(f"{eth['eth.bits_set']} of its {eth['eth.m']} bits set, so a never-logged address passes "
           f"{eth['eth.expected_fp']:.1%} of the time".replace("%", " %"))


def test_lessons_counted_and_named():
    names = lessons.builtin_lessons()
    count = WORDS[len(names)]
    _holds(f"opens the first of {count} lessons full screen")
    _holds(f"bloomviz ships {count} lessons")
    from bloomviz.gui.scenarios_tab.controller import LESSONS as START_PAGE
    from bloomviz.gui.window.help_pages import PRIMER
    assert f"{count} lessons, step by step" in START_PAGE and f"has {count} lessons" in re.sub(r"\s+", " ", PRIMER)
    asking = [str(i) for i, name in enumerate(names, 1)
              if any(a.name == "predict" for s in lessons.load_builtin(name).steps for a in s.actions)]
    _holds(f"Lessons {', '.join(asking[:-1])} and {asking[-1]} ask the class")
    probes = LessonState().probes   # a lesson that sets no measure line
    _holds(f"the rate measured over {probes:,} non-members")
    _holds(f"how many non-members the measured rate uses from now on ({probes:,} by default)")


def test_the_first_filter_and_the_notebook_bins():
    from bloomviz.gui.app import FIRST_FILTER
    from bloomviz.notebook.view_state import MAX_CELLS
    _holds(f"The first filter is small ({FIRST_FILTER['m']} bits, k = {FIRST_FILTER['k']})")
    _holds(f"A filter larger than {MAX_CELLS:,} bits is drawn in bins")



def test_tool_defaults_and_margins_stated():
    from bloomviz import cli
    from bloomviz.commands.atlas_text import DETAIL_LIMIT
    from bloomviz.formats.atlas import PAST_MARGIN
    from bloomviz.gui.app import DEFAULT_DEMO, SCREENSHOT_SIZE
    from bloomviz.lab.grid import ALPHA
    _holds(f"({DEFAULT_DEMO} words in, one lookup that is a false positive, at {SCREENSHOT_SIZE[0]}×{SCREENSHOT_SIZE[1]})")
    _holds(f"alpha = {ALPHA} shared over all the grid's judgements, so a correct filter passes the whole grid at "
           f"least {round((1 - ALPHA) * 100)} times in 100")
    _holds(f"its rate from the fill is over {PAST_MARGIN} times that")
    _holds(f"Each filter's own block follows for up to {DETAIL_LIMIT} filters")
    paths = cli.build_parser().parse_args(["measure-git", "repo"]).paths
    _holds(f"(`--paths N`, default {paths:,};")


def test_rocksdbs_own_model_of_the_benchmarks_filters():
    # benchmarks/lsm_filter_rates.py: 200,000 keys at 10 bits per key in one full filter; what RocksDB answered
    # and the fill are measurements, RocksDB's model (formats.rocksdb.estimated_fp) follows from m and k
    from bloomviz.formats.rocksdb import estimated_fp
    keys = 200_000
    fast, legacy = (engines.rocksdb(keys, 10, legacy=flag) for flag in (False, True))
    fast_model = estimated_fp(fast.m / keys, fast.k, keys, 512, False)
    legacy_model = estimated_fp(legacy.m / keys, legacy.k, keys, 512, True)
    _holds(f"{fast_model:.3%} by RocksDB's model".replace("%", " %"))
    _holds(f"(RocksDB's model, which adds a term for it: {legacy_model:.2%})".replace("%", " %"))


def test_gits_hashing_constants():
    from bloomviz.hashing.git_scheme import SEED0, SEED1
    _holds(f"32-bit MurmurHash3 with seeds {SEED0:#010x} and {SEED1:#010x}")
    for n in (1, 2, 7, 512):
        assert engines.git(n).m == 8 * math.ceil(10 * n / 8)
    _holds("m = 8 × the filter's bytes (ceil(10 n / 8) bytes for n paths")
