"""A new variant needs its own class and one registry entry: the builder, the session format, the lessons and
the window's words then know it, since they read its declaration instead of listing the variants by name (and a
declared parameter is a lesson option, checked as declared).

The variant here is a standard filter with one more declared parameter, registered for the test only.
"""

from __future__ import annotations

import re

import pytest

from bloomviz.explain import describers, variants as words
from bloomviz.explain.describers.standard import StandardWords
from bloomviz.files import session as sessions
from bloomviz.filters import registry
from bloomviz.filters.capabilities import Capabilities
from bloomviz.filters.params import K, M, Param
from bloomviz.filters.standard import BloomFilter
from bloomviz.lessons import LessonRunner, parse_text

LABEL = Param("label", "int", default=0, low=0, high=255)


class LabelledBloomFilter(BloomFilter):
    """A standard filter that carries a number: new only in what it declares."""

    variant = "labelled"
    capabilities = Capabilities(parameters=(M, K, LABEL))

    def __init__(self, m, k, label=0, scheme=registry.hashing.DEFAULT_SCHEME):
        super().__init__(m, k, scheme=scheme)
        self.label = label

    def _state_params(self):
        return {"label": self.label}


class LabelledWords(StandardWords):
    """Its describer: what the window says about it."""

    title = short_title = choice_label = "Labelled"
    description = "m bits and a label."

    def kind_phrase(self):
        return f"labelled filter (label {self.flt.label})"


@pytest.fixture
def labelled(monkeypatch):
    monkeypatch.setitem(registry.VARIANTS, LabelledBloomFilter.variant, LabelledBloomFilter)   # the one line
    monkeypatch.setitem(describers.DESCRIBERS, LabelledBloomFilter, LabelledWords)   # and its words


def test_the_builder_takes_its_declared_parameters_and_names_them_when_refusing(labelled):
    flt = registry.make_filter("labelled", m=64, k=3, label=7)
    assert (type(flt), flt.m, flt.label) == (LabelledBloomFilter, 64, 7)
    assert registry.make_filter("labelled", m=64, k=3).label == 0          # the declared default
    with pytest.raises(ValueError, match="it takes: m, k, label, scheme"):
        registry.make_filter("labelled", m=64, k=3, counter_bits=2)


def test_the_window_words_and_the_variant_list_include_it(labelled):
    flt = registry.make_filter("labelled", m=64, k=3, label=7, scheme="murmur3-km")
    assert words.new_filter_text(flt).startswith("A new empty labelled filter (label 7): m = 64 bits, k = 3")
    assert words.grid_bands(flt) == [] and words.bound_line(flt) is None and words.hover_where(flt, 5) == ""
    assert words.variant_tip().endswith("Labelled: m bits and a label.")


def test_a_session_of_it_round_trips_and_a_foreign_parameter_is_refused(labelled):
    saved = sessions.Session(variant="labelled", m=64, k=3, params={"label": 9})
    assert sessions.loads(sessions.dumps(saved)).params == {"label": 9}
    bad = sessions.to_dict(saved)
    bad["filter"]["params"] = {"counter_bits": 2}
    with pytest.raises(sessions.SessionFormatError, match="not a parameter of a labelled filter .it takes: label"):
        sessions.from_dict(bad)


def test_a_lesson_builds_it(labelled):
    lesson = parse_text("# T\n## S\n```bloomviz\nfilter variant=labelled m=64 k=3\ninsert a\n```\n", "six.md")
    report = LessonRunner(lesson).run_all()[-1]
    assert (report["variant"], report["m"], report["n"]) == ("labelled", 64, 1)


@pytest.mark.parametrize("options, reason", [
    ("variant=scalable capacity=10 p=0.01 growth=3", "growth must be one of 2, 4, got 3"),
    ("variant=scalable capacity=10 p=0.01 tightening=0.99", "tightening must be in [0.5, 0.95], got '0.99'"),
    ("variant=counting m=64 k=3 counter_bits=9", "counter_bits must be from 1 to 8, got '9'"),
])
def test_declared_parameters_are_lesson_options_checked_as_declared_when_the_lesson_is_read(options, reason):
    from bloomviz.lessons import LessonError
    with pytest.raises(LessonError, match=re.escape(reason)):
        parse_text(f"# T\n## S\n```bloomviz\nfilter {options}\n```\n", "opts.md")


def test_a_declared_parameter_no_lesson_named_before_is_an_option_too():
    lesson = parse_text("# T\n## S\n```bloomviz\nfilter variant=blocked m=4096 k=3 block_bits=1024\n```\n", "b.md")
    runner = LessonRunner(lesson)
    runner.run_all()
    assert (runner.state.filter.block_bits, runner.state.filter.blocks) == (1024, 4)
