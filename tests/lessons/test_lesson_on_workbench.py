"""A lesson's verdicts and the window's are the same code: a lesson's steps run on a ``Workbench`` of their own,
so the same operations made in the window's model give the same records (verdict, positions, marks, who set a
false positive's bits, the forced removal behind a false negative) and the same measured rate."""

from bloomviz.filters.registry import make_filter
from bloomviz.lessons import LessonRunner, parse_text
from bloomviz.lessons.state import DEFAULT_PROBES, PROBE_PREFIX
from bloomviz.vocabulary import Verdict
from bloomviz.workbench.model import Workbench

MEMBERS = [f"w{i}" for i in range(10)]


def _plan() -> tuple[str, str]:
    """A stranger the filter calls present (a false positive) and a member its forced removal takes out."""
    flt = make_filter("counting", m=64, k=3)
    for item in MEMBERS:
        flt.add(item)
    stranger = next(x for x in (f"x{i}" for i in range(10_000)) if flt.lookup(x).maybe_present)
    cleared = flt.remove(stranger, force=True).cleared
    lost = next(w for w in MEMBERS if not flt.lookup(w).maybe_present)
    assert cleared                  # (the plan's own premise: the forced removal cleared a member's counter)
    return stranger, lost


def _window_record(wb: Workbench, op: str, item: str, **kw):
    assert getattr(wb, op)(item, **kw) is not None
    return wb.last_record


def _same(lesson_op, window_op) -> None:
    for field in ("op", "verdict", "positions", "kinds", "culprits", "inserted", "removed", "false_negatives"):
        assert getattr(lesson_op, field) == getattr(window_op, field), field
    assert (lesson_op.caused_by and lesson_op.caused_by.item) == (window_op.caused_by and window_op.caused_by.item)


def test_a_lesson_step_and_the_same_operations_in_the_window_model_give_the_same_records():
    stranger, lost = _plan()
    text = ("# Same\n\n## Fill\n\n```bloomviz\nfilter m=64 k=3 variant=counting\ninsert " + " ".join(MEMBERS)
            + f"\n```\n\n## Ask\n\n```bloomviz\nlookup {stranger}\n```\n\n"
              f"## Force\n\n```bloomviz\nremove {stranger} force=yes\n```\n\n"
              f"## Lost\n\n```bloomviz\nlookup {lost}\n```\n")
    runner = LessonRunner(parse_text(text))
    # the window's model, made as the window makes it, measuring over the lesson's probes
    wb = Workbench(probes=DEFAULT_PROBES, probe_prefix=PROBE_PREFIX)
    assert wb.configure(64, 3, variant="counting")

    report = runner.next()
    for item in MEMBERS:
        window_op = _window_record(wb, "insert", item)
    _same(runner.state.wb.last_record, window_op)
    assert report["measured_rate"] == wb.state.measure.rate and report["bits_set"] == wb.filter.bits_set

    report = runner.next()
    window_op = _window_record(wb, "lookup", stranger)
    _same(runner.state.wb.last_record, window_op)
    assert window_op.verdict == Verdict.FALSE_POSITIVE and report["last"]["class"] == "false positive"
    # the report names the setters the window names
    assert {int(p): names for p, names in report["last"]["culprits"].items()} == \
        {p: names for p, (names, _total) in window_op.culprits.items()}

    report = runner.next()
    window_op = _window_record(wb, "remove", stranger, force=True)
    _same(runner.state.wb.last_record, window_op)
    assert lost in window_op.false_negatives and report["measured_rate"] == wb.state.measure.rate

    report = runner.next()
    window_op = _window_record(wb, "lookup", lost)
    _same(runner.state.wb.last_record, window_op)
    assert window_op.verdict == Verdict.FALSE_NEGATIVE and report["last"]["class"] == "false negative"
    assert report["last"]["caused_by"] == {"item": stranger, "line": text.splitlines().index(
        f"remove {stranger} force=yes") + 1}


def test_a_step_report_is_a_frozen_record_that_writes_the_json_report_in_its_order():
    import dataclasses

    import pytest
    report = LessonRunner(parse_text("# R\n\n## S\n\n```bloomviz\nfilter m=64 k=3\ninsert a\n```\n")).next()
    with pytest.raises(dataclasses.FrozenInstanceError):
        report.m = 128
    assert (report.m, report.n, report["bits_set"]) == (64, 1, report.bits_set) and report.counters_rate is None
    assert list(report) == ["step", "title", "line", "m", "k", "scheme", "variant", "n", "bits_set", "last",
                            "measured_rate", "exact_rate", "classic_rate", "numbers", "window"]
