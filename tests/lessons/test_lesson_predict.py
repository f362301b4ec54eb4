"""Predict, then reveal, headless: the predict block's syntax and its refusals (file, line, reason), and the
answers the app computes from the lesson's filter, checked against the filter itself."""

from __future__ import annotations

import shutil

import pytest

from bloomviz import lessons
from bloomviz.lessons import LessonError, LessonRunner, parse_text
from bloomviz.lessons.predict import holds, parse_condition

HEAD = "# T\n## S\n```bloomviz\nfilter m=64 k=3 scheme=murmur3-km\ninsert a b c d\n"     # lines 1-5


def _lesson(body: str):
    return parse_text(HEAD + body + "```\n", "p.md")


def _predict(body: str) -> dict:
    (step,) = lessons.check(_lesson(body))
    return step["window"][-1]


def test_a_predict_block_is_the_kind_the_question_and_the_choices_as_data():
    lesson = _lesson("predict bits-set after e f\nask How many bits? (It's a guess.)\nchoice <=8 Eight or fewer\n"
                     "choice 9..12 Nine to twelve\nchoice >12 More\n")
    action = lesson.steps[0].actions[-1]
    assert (action.name, action.args, action.line) == ("predict", ("bits-set", "e", "f"), 6)
    assert action.options["question"] == "How many bits? (It's a guess.)"      # an apostrophe is text
    assert action.options["choices"] == ((("<=", 8), "Eight or fewer"), (("range", 9, 12), "Nine to twelve"),
                                         ((">", 12), "More"))


def test_predict_item_alone_is_the_verdict_question_with_its_two_choices():
    shown = _predict("predict a\n")
    assert shown["kind"] == "verdict" and shown["choices"] == ["Definitely not in the set", "Probably in the set"]
    assert shown["question"] == "Will a lookup of “a” say it is in the set?"
    assert (shown["answer"], shown["right"]) == ("maybe", 1)         # a was inserted: no false negatives


@pytest.mark.parametrize("body, line, reason", [
    ("predict colour a\n", 6, "unknown answer kind 'colour'"),
    ("predict\n", 6, "say what to predict"),
    ("predict verdict a b\n", 6, "takes one item, got 2"),
    ("predict bits-set before a\n", 6, "predict bits-set after ITEM"),
    ("predict exact-rate now\n", 6, "takes nothing more"),
    ("choice maybe In\n", 6, "belongs to a predict block"),
    ("predict a\nask\n", 7, "ask needs the question"),
    ("predict a\nask One?\nask Two?\n", 8, "a second ask line"),
    ("predict a\nchoice perhaps Maybe\n", 7, "a verdict choice is 'no' or 'maybe'"),
    ("predict a\nchoice maybe\n", 7, "write choice CONDITION LABEL"),
    ("predict a\nchoice maybe In\nchoice maybe Also in\n", 8, "the condition maybe is given twice"),
    ("predict a\nchoice maybe In\n", 6, "at least two choices"),
    ("predict bits-set\n", 6, "needs choice lines"),
    ("predict bits-set\nchoice 9..3 x\n", 7, "the range 9..3 is empty"),
    ("predict bits-set\nchoice nine x\n", 7, "a count must be a whole number such as 1000, 1,000, 1_000, 1e3 or 10^6, got 'nine'"),
    ("predict exact-rate\nchoice 1% x\n", 7, "a rate choice is a comparison"),
    ("predict exact-rate\nchoice <150% x\n", 7, "a rate must be in [0, 1], got '150%'"),
    ("predict bits-set\n" + "".join(f"choice {i} n{i}\n" for i in range(10)), 16, "more than 9 choices"),
    ("predict a\ninsert e\n", 7, "insert after a predict in the same step: only expect lines may follow"),
    ("predict a\nexpect verdict=maybe\n```\n```bloomviz\npredict b\n", 10, "predict after a predict"),
])
def test_a_malformed_predict_block_is_refused_with_file_line_and_reason(body, line, reason):
    with pytest.raises(LessonError) as info:
        _lesson(body)
    assert (info.value.path, info.value.line) == ("p.md", line), str(info.value)
    assert reason in info.value.reason, str(info.value)


@pytest.mark.parametrize("choices, reason", [
    ("choice 0 none\nchoice 1 one\n", "no choice holds for the answer"),
    ("choice >=0 some\nchoice >=1 many\n", "choices 1 and 2 both hold for the answer"),
])
def test_a_question_with_no_right_choice_or_two_is_refused_by_the_dry_run_at_its_line(choices, reason):
    runner = LessonRunner(_lesson("predict bits-set\n" + choices))
    with pytest.raises(LessonError) as info:
        runner.run_all()
    assert info.value.line == 6 and reason in info.value.reason, str(info.value)


def test_bits_set_after_is_what_the_insert_then_gives_and_leaves_the_filter_unchanged():
    lesson = parse_text(HEAD + "predict bits-set after e f\nchoice <=10 few\nchoice >10 many\n```\n"
                        "## Insert\n```bloomviz\ninsert e f\n```\n", "p.md")
    runner = LessonRunner(lesson)
    asked = runner.next()
    shown = asked["window"][-1]
    assert asked["n"] == 4                                   # the question inserted nothing
    inserted = runner.next()
    assert shown["answer"] == inserted["bits_set"] and asked["numbers"]["predict.answer"] == inserted["bits_set"]
    assert shown["right"] == (0 if inserted["bits_set"] <= 10 else 1)
    assert sorted(set(shown["positions"])) == sorted({p for item in "ef"
                                                      for p in runner.state.filter.positions(item)})


def test_new_bits_counts_the_bits_an_insert_turns_on():
    (step,) = lessons.check(_lesson("predict new-bits a\nchoice 0 none\nchoice 1..3 some\n"))
    assert step["window"][-1]["answer"] == 0 and step["numbers"]["predict.choice"] == 1   # a is in already


def test_the_rates_are_the_reports_own_and_a_condition_in_percent_is_a_fraction():
    (step,) = lessons.check(_lesson("predict measured-rate\nchoice <1% low\nchoice >=1% high\n"))
    shown = step["window"][-1]
    assert shown["answer"] == step["measured_rate"] and shown["probes"] == 2000
    assert shown["right"] == (0 if step["measured_rate"] < 0.01 else 1)
    (step,) = lessons.check(_lesson("predict exact-rate\nchoice <0.5% low\nchoice 0.5%..100% high\n"))
    assert step["window"][-1]["answer"] == step["exact_rate"]
    assert parse_condition("0.5%..2%", "exact-rate") == ("range", 0.005, 0.02)
    assert holds(("range", 0.005, 0.02), 0.02) and not holds(("<", 0.01), 0.01)


def test_a_measured_rate_question_on_hand_set_positions_is_refused():
    text = ("# T\n## S\n```bloomviz\npositions a = 1 2\nfilter m=8 k=2 scheme=hand-set\ninsert a\n"
            "predict measured-rate\nchoice <1% low\nchoice >=1% high\n```\n")
    with pytest.raises(LessonError) as info:
        lessons.check(parse_text(text, "h.md"))
    assert info.value.line == 7 and "ask for exact-rate" in info.value.reason


def test_the_verdict_question_names_who_set_the_bits_like_a_lookup():
    (step,) = lessons.check(_lesson("predict verdict zz\n"))
    assert step["last"]["action"] == "predict" and step["last"]["item"] == "zz"
    assert step["window"][-1]["answer"] == step["last"]["verdict"]
    assert step["window"][-1]["positions"] == step["last"]["positions"]


def test_built_in_lessons_ask_the_class_with_the_seeds_numbers():
    asked = {name: [(s["step"], w) for s in lessons.check(lessons.load_builtin(name)) for w in s["window"]
                    if w["action"] == "predict"] for name in lessons.builtin_lessons()
             if shutil.which("git") or name != "09-bloom-filters-in-the-wild"}   # lesson 9 builds a repository with git
    assert sum(1 for questions in asked.values() if questions) >= 3
    (_, nine), (_, phantom) = asked["01-what-is-a-bloom-filter"]
    assert (nine["answer"], nine["choices"][nine["right"]]) == (9, "9")        # 3 keys × 3 bits, no overlap
    assert (phantom["answer"], phantom["items"]) == ("maybe", ["k1"])
    (_, past), = asked["04-choosing-m-and-k"]
    assert past["answer"] > 0.05 and past["choices"][past["right"]] == "More than 5 %"
    (_, phantom), (_, forced) = asked["06-deleting-with-counting-filters"]
    assert (forced["items"], forced["answer"]) == (["A"], "no")                # the forced removal's false negative
    (_, fixed), (_, scalable) = asked["07-growing-scalable-filters"]
    assert fixed["answer"] > 0.5 and scalable["answer"] < 0.01
