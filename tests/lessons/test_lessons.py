"""Lessons: the strict parser (file, line, reason), the runner (Back restores exactly), the command, and every
built-in lesson run headless with the seeds' numbers pinned."""

from __future__ import annotations

import json
import math
import re
import shutil
from pathlib import Path

import pytest

from bloomviz import cli, lessons
from bloomviz.theory import rates as theory
from bloomviz.lessons import LessonError, LessonRunner, parse_text

GOOD = """# A lesson

Intro.

## Make a filter

```bloomviz
filter m=64 k=3
insert apple "two words"
```

## Look up

```bloomviz
lookup apple
expect verdict=maybe n=2
```
"""


def test_a_lesson_is_title_steps_narration_and_actions_as_data():
    lesson = parse_text(GOOD, "good.md")
    assert lesson.title == "A lesson" and lesson.intro == "Intro."
    assert [s.title for s in lesson.steps] == ["Make a filter", "Look up"]
    insert = lesson.steps[0].actions[1]
    assert (insert.name, insert.args, insert.line) == ("insert", ("apple", "two words"), 9)
    assert lesson.steps[1].actions[1].options == {"verdict": "maybe", "n": 2}


@pytest.mark.parametrize("text, line, reason", [
    ("", 0, "empty"),
    ("Some text\n# Title\n", 1, "starts with its title"),
    ("# T\n## S\n```bloomviz\nfliter m=8 k=1\n```\n", 4, "unknown action 'fliter'"),
    ("# T\n## S\n```bloomviz\nfilter m=8 k=0\n```\n", 4, "k must be from 1 to 64, got '0'"),
    ("# T\n## S\n```bloomviz\nfilter m=8\n```\n", 4, "needs m= and k="),
    ("# T\n## S\n```bloomviz\nfilter m=8 k=2 scheme=md5\n```\n", 4, "unknown hash scheme 'md5'"),
    ("# T\n## S\n```bloomviz\nfilter m=8 k=2 colour=red\n```\n", 4, "unknown option 'colour'"),
    ("# T\n## S\n```bloomviz\npositions k1 23 17\n```\n", 4, "write positions ITEM = P1 P2"),
    ("# T\n## S\n```bloomviz\ninsert \"open\n```\n", 4, "No closing quotation"),
    ("# T\n## S\n```bloomviz\nfilter m=8 k=2\n", 3, "never closed"),
    ("# T\n## S\n```python\nx = 1\n```\n", 3, "must be ```bloomviz"),
    ("# T\n```bloomviz\nfilter m=8 k=2\n```\n", 2, "before the first step"),
    ("# T\n## S\n# Again\n", 3, "a second lesson title"),
    ("# T\nintro only\n", 0, "no steps"),
    ("# T\n##\n", 2, "a step without a title"),
    ("# T\n## S\n```bloomviz\nexpect\n```\n", 4, "at least one key=value"),
    ("# T\n## S\n```bloomviz\nexpect numbers.x=3\n```\n", 4, "numbers.NAME~VALUE"),
    ("# T\n## S\n```bloomviz\nrates m=8 mib=1 k=2 n=3\n```\n", 4, "needs m= (or mib=)"),
    ("# T\n## S\n```bloomviz\nshow tab=plots\n```\n", 4, "unknown tab 'plots'"),
    ("# T\n## S\n```bloomviz\nshow scenario=dns\n```\n", 4, "unknown scenario 'dns'; known: spell"),
    ("# T\n## S\n```bloomviz\nautoplay 10 speed=0\n```\n", 4, "speed (items per second) must be in (0, 1e+06], got '0'"),
])
def test_a_malformed_lesson_is_refused_with_file_line_and_reason(text, line, reason):
    with pytest.raises(LessonError) as info:
        parse_text(text, "bad.md")
    assert (info.value.path, info.value.line) == ("bad.md", line)
    assert reason in info.value.reason
    assert str(info.value).startswith(f"bad.md:{line}: " if line else "bad.md: ")


@pytest.mark.parametrize("body, line, reason", [
    ("insert a\n", 4, "there is no filter yet"),
    ("filter m=8 k=2\nremove a\n", 5, "cannot remove items: use variant=counting"),
    ("filter m=8 k=2 scheme=hand-set\n", 4, "needs positions lines"),
    ("positions a = 1 2\nfilter m=8 k=2 scheme=hand-set\ninsert b\n", 6, "no positions were given for item 'b'"),
    ("filter m=8 k=2\ninsert a\nexpect n=3\n", 6, "expected n = 3, the lesson has 1"),
    ("filter m=8 k=2\nhighlight 8\n", 5, "position 8 is outside 0…7"),
    ("filter m=8 k=2\nexpect numbers.design.k~7\n", 5, "no step computed it"),
])
def test_a_lesson_that_would_fail_is_refused_by_the_dry_run_naming_the_action_line(body, line, reason):
    lesson = parse_text(f"# T\n## S\n```bloomviz\n{body}```\n", "run.md")
    runner = LessonRunner(lesson)
    with pytest.raises(LessonError) as info:
        runner.run_all()
    assert (info.value.line, reason in info.value.reason) == (line, True), str(info.value)
    assert runner.position == 0        # the failing step left no state behind


def test_back_restores_the_state_before_the_step_exactly():
    runner = LessonRunner(parse_text(GOOD + "\n## More\n\n```bloomviz\ninsert-random 40 seed=2\n```\n"))
    first = runner.next()
    bits_after_first = runner.state.filter.bits.copy()
    second, third = runner.next(), runner.next()
    assert third["n"] == 42 and runner.finished
    runner.back()
    runner.back()
    assert runner.position == 1 and runner.state.filter.bits == bits_after_first and len(runner.state.filter) == 2
    assert runner.next() == second and runner.next() == third
    runner.back(), runner.back(), runner.back()
    with pytest.raises(IndexError):
        runner.back()
    assert runner.next() == first



def test_going_back_stopped_mid_replay_leaves_the_runner_at_its_step(monkeypatch):
    from bloomviz.lessons import runner as runner_module
    monkeypatch.setattr(runner_module, "CHECKPOINT_BYTES", 0)     # no copy kept: going back replays
    runner = LessonRunner(parse_text(GOOD + "\n## More\n\n```bloomviz\ninsert-random 40 seed=2\n```\n"))
    runner.run_all()
    state, reports, spent = runner.state, list(runner.reports), list(runner.budget.steps)
    calls = []

    def stop(step, action):
        calls.append((step, action))
        if len(calls) == 2:
            raise KeyboardInterrupt     # whatever the caller raises (a job's Cancel)
    for taken in (2, 1):      # Back, and a jump back over two steps
        calls.clear()
        with pytest.raises(KeyboardInterrupt):
            runner.back_to(taken, stop)
        assert runner.state is state and runner.reports == reports and runner.budget.steps == spent
    assert calls == [(0, 0), (0, 1)]    # replayed from the start, stopped before the step's second action
    runner.back_to(1)
    assert runner.position == 1 and runner.reports == reports[:1] and len(runner.state.filter) == 2
    with pytest.raises(IndexError):
        runner.back_to(1)


# --- the built-in lessons --------------------------------------------------------------------------------

NEEDS_GIT = {"09-bloom-filters-in-the-wild"}     # its git-history step builds a repository with git


def runnable_builtins() -> list[str]:
    """The built-in lessons this machine can run: lesson 9 needs the git binary."""
    return [name for name in lessons.builtin_lessons() if shutil.which("git") or name not in NEEDS_GIT]


@pytest.fixture(scope="module")
def reports() -> dict[str, list[dict]]:
    return {name: lessons.check(lessons.load_builtin(name)) for name in runnable_builtins()}


def _within(result_low: float, value: float, result_high: float) -> bool:
    return result_low <= value <= result_high


def test_there_are_nine_built_in_lessons_and_each_runs_headless(reports):
    assert len(lessons.builtin_lessons()) == 9
    assert set(reports) == set(runnable_builtins())
    for name, steps in reports.items():
        assert steps and all({"m", "k", "scheme", "variant", "n", "bits_set", "last", "measured_rate",
                              "exact_rate"} <= set(s) for s in steps), name


def test_lesson_1_roughgarden_k1_is_a_phantom_of_k2_k3_k4(reports):
    steps = reports["01-what-is-a-bloom-filter"]
    assert steps[1]["last"]["positions"] == [23, 17, 5] and steps[1]["bits_set"] == 3
    last = steps[-1]["last"]
    assert (last["item"], last["verdict"], last["member"], steps[-1]["bits_set"]) == ("k1", "maybe", False, 9)
    assert last["culprits"] == {"23": ["k4"], "17": ["k3"], "5": ["k2"]}


def test_lesson_2_names_who_caused_the_false_positive(reports):
    steps = reports["02-why-a-false-positive-happens"]
    assert steps[1]["last"]["verdict"] == "no"
    lana = steps[2]["last"]
    assert lana["verdict"] == "maybe" and not lana["member"]
    assert all(lana["culprits"][str(p)] for p in lana["positions"])   # every bit has a named setter
    low, high = theory.wilson_interval(round(steps[3]["measured_rate"] * 20000), 20000, z=3.29)
    assert _within(low, steps[3]["exact_rate"], high)


def test_lesson_3_the_ensemble_finds_the_exact_rate_above_blooms_formula(reports):
    numbers = reports["03-the-math"][1]["numbers"]
    assert _within(numbers["ensemble.low"], numbers["ensemble.exact"], numbers["ensemble.high"])
    assert numbers["ensemble.low"] > numbers["ensemble.classic"]
    m, k, n = 16, 4, 4
    assert numbers["ensemble.classic"] == pytest.approx((1 - (1 - 1 / m) ** (k * n)) ** k, rel=1e-12)


def test_lesson_4_the_million_item_design(reports):
    steps = reports["04-choosing-m-and-k"]
    design = steps[0]["numbers"]
    assert (design["design.k"], design["design.m"]) == (7, 9585059)
    assert design["design.lower_bound_bits_per_item"] == pytest.approx(math.log2(100))
    low, high = theory.wilson_interval(round(steps[2]["measured_rate"] * 20000), 20000, z=3.29)
    assert _within(low, steps[2]["exact_rate"], high) and _within(low, 0.01, high)
    assert steps[3]["measured_rate"] > 0.1


def test_lesson_5_hashing_matters(reports):
    steps = reports["05-hashing-matters"]
    km, mix, weak, shifted = (steps[i]["numbers"] for i in (0, 1, 2, 4))
    seminar = steps[3]
    assert km["ensemble.low"] > km["ensemble.exact"]                     # double hashing at m = 64: above
    assert _within(mix["ensemble.low"], mix["ensemble.exact"], mix["ensemble.high"])
    assert weak["ensemble.low"] > 1.2 * weak["ensemble.exact"]
    assert shifted["ensemble.low"] > shifted["ensemble.exact"]
    # roger@acme.com's positions as the seminar's C++ computes them (tests/data/seminar/expected_positions.tsv):
    # the step's last operation, so the grid lights the item its narration follows
    assert seminar["last"]["item"] == "roger@acme.com"
    assert seminar["last"]["positions"] == [53, 199, 481] and seminar["bits_set"] == 18


def test_lesson_6_a_forced_removal_makes_a_false_negative(reports):
    steps = reports["06-deleting-with-counting-filters"]
    assert steps[0]["last"]["verdict"] == "maybe"
    assert (steps[2]["last"]["item"], steps[2]["last"]["verdict"]) == ("A", "no")   # A was inserted
    assert (steps[3]["last"]["item"], steps[3]["last"]["verdict"]) == ("S", "maybe")


def test_window_actions_are_recorded_for_the_window_and_its_tab_names_are_the_windows():
    from bloomviz.gui.app import TABS
    from bloomviz.lessons.actions.shown import WINDOW_TABS
    assert WINDOW_TABS == TABS
    lesson = parse_text("# T\n## S\n```bloomviz\nfilter m=64 k=3\nautoplay 5 speed=2\nshow tab=compare\n"
                        "insert a slow=0.5\nhighlight 1 2\npredict a\n```\n")
    step = lessons.check(lesson)[0]
    assert step["n"] == 6 and step["window"][:4] == [
        {"action": "autoplay", "items": 5, "speed": 2.0}, {"action": "show", "tab": "compare"},
        {"action": "slow", "seconds_per_hash": 0.5}, {"action": "highlight", "positions": [1, 2]}]
    shown = step["window"][4]
    assert (shown["action"], shown["kind"], shown["items"], shown["answer"]) == ("predict", "verdict", ["a"], "maybe")


def test_lesson_7_a_scalable_filter_keeps_its_bound(reports):
    fixed, scalable = reports["07-growing-scalable-filters"]
    assert scalable["window"][0]["action"] == "autoplay"
    assert fixed["measured_rate"] > 0.5
    assert scalable["variant"] == "scalable" and scalable["measured_rate"] < 0.01 and scalable["m"] > fixed["m"]


def test_lesson_8_kedmis_numbers_and_brainflayers(reports):
    steps = reports["08-the-real-world"]
    assert (steps[0]["numbers"]["design.k"], steps[0]["numbers"]["design.m"]) == (10, 471125)
    zeroed, garbage = steps[1]["numbers"], steps[2]["numbers"]
    for numbers, target in ((zeroed, 0.001), (garbage, 0.0213)):
        low, high = theory.wilson_interval(numbers["kedmi.false_positives"], numbers["kedmi.probes"], z=3.29)
        assert _within(low, target, high) and numbers["kedmi.all_members_found"]
    # Kedmi's exact_pfp, as his article prints it, with its printed values
    m = 512 * 1024 * 1024 * 8
    printed = {440 * 10 ** 6: 0.063, 220 * 10 ** 6: 0.000137, 110 * 10 ** 6: 1.14e-08, 80 * 10 ** 6: 7.16e-11}
    for n, value in printed.items():
        got = steps[3]["numbers"][f"rates.{n}.classic"]
        assert got == pytest.approx((1 - (1 - (1 / m)) ** (20 * n)) ** 20, rel=1e-6)
        assert got == pytest.approx(value, rel=0.02)


# --- the command -------------------------------------------------------------------------------------------

def test_lesson_report_writes_every_step(tmp_path, capsys):
    out = tmp_path / "r.json"
    assert cli.main(["lesson", "1", "--report", str(out)]) == 0
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert doc["lesson"].startswith("What a Bloom filter is") and len(doc["steps"]) == 6
    assert doc["steps"][-1]["last"]["positions"] == [23, 17, 5]
    assert "step 6 of 6" in capsys.readouterr().out


def test_a_bad_lesson_file_is_one_error_line_and_no_report(tmp_path, capsys):
    src = tmp_path / "bad.md"
    src.write_text("# T\n## S\n```bloomviz\nfilter m=8 k=2\ninsert a\nexpect n=5\n```\n", encoding="utf-8")
    out = tmp_path / "r.json"
    assert cli.main(["lesson", str(src), "--report", str(out)]) == 2
    err = capsys.readouterr().err.strip()
    assert err == f"bloomviz lesson: error: {src}:6: expect: expected n = 5, the lesson has 1"
    assert not out.exists() and list(tmp_path.iterdir()) == [src]
    assert cli.main(["lesson", str(tmp_path / "missing.md"), "--check"]) == 2
    assert "missing.md: no such file" in capsys.readouterr().err


def test_list_names_the_built_in_lessons(capsys):
    assert cli.main(["lesson", "--list"]) == 0
    assert len(capsys.readouterr().out.strip().splitlines()) == 9


def test_the_readme_example_lesson_runs():
    text = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    section = text[text.index("## Teaching with bloomviz"):]
    body = re.search(r"^````markdown\n(.*?)^````", section, re.S | re.M).group(1)
    steps = lessons.check(parse_text(body, "README:phantom.md"))
    assert (steps[0]["bits_set"], steps[1]["last"]["item"], steps[1]["last"]["verdict"]) == (7, "k1", "maybe")
    assert steps[-1]["k"] == 7 and steps[-1]["numbers"]["design.m"] == 9586


@pytest.mark.skipif(shutil.which("git") is None, reason="lesson 9 builds a repository with git (apt-get install git)")
def test_lesson_9_shows_a_git_filter_past_its_design(reports):
    steps = reports["09-bloom-filters-in-the-wild"]
    one, stranger, many, history, block, formulas = steps
    assert (one["m"], one["k"], one["scheme"], one["bits_set"]) == (24, 7, "git-changed-paths-v1", 12)
    # the commit's own filter, rebuilt by git's hashing: its false positive has 2 distinct positions of 7
    last = stranger["last"]
    assert last["verdict"] == "maybe" and len(set(last["positions"])) == 2
    assert many["numbers"]["ensemble.mean"] > 4 * many["numbers"]["ensemble.exact"]
    git = history["numbers"]
    assert git["git.false_negatives"] == 0 and git["git.commits"] == 59
    assert git["git.measured"] > 1.5 * git["git.predicted"] and git["git.measured"] > 2 * git["git.textbook"]
    eth = block["numbers"]
    assert (eth["eth.m"], eth["eth.k"], eth["eth.bits_set"]) == (2048, 3, 906)
    assert eth["eth.expected_fp"] == pytest.approx((906 / 2048) ** 3)
    assert formulas["numbers"]["rates.m"] == 2048 and formulas["numbers"]["rates.k"] == 3
