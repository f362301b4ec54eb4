"""Every numeric option of every command, given a number past what 64 bits hold, is refused in one line (or
handled), never a traceback: ``--every 2**63`` used to end in numpy's OverflowError.

The audit is generated from the parser itself, so an option added later is audited too. Runs in-process: each
call is refused at parse time or runs a 100-item simulation."""

from __future__ import annotations

import argparse

import pytest

from bloomviz import cli

HUGE = ["9223372036854775808", "18446744073709551616", "1e300", "1" + "0" * 400, "-9223372036854775809"]
# What a command needs to get as far as using the option (so the huge value reaches the code, not a
# "missing --csv" refusal).
BASE = {"calc": ["--m", "1000", "--k", "3", "--n", "10"],
        "simulate": ["--m", "1000", "--k", "3", "--n", "100", "--csv", "-"],
        "explore": ["--csv", "-"]}
NOT_NUMBERS = {"--csv", "--save", "--items", "--scheme", "--report", "--shots", "--column", "--format",
               "--variant", "--json", "--file", "--out"}


def _numeric_options():
    parser = cli.build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    for name, command in sub.choices.items():
        for action in command._actions:
            if not action.option_strings or action.nargs == 0 or action.type is None:
                continue
            option = action.option_strings[-1]
            if option in NOT_NUMBERS or getattr(action.type, "__name__", "") in ("input_path", "output_path"):
                continue
            yield name, option


OPTIONS = sorted(set(_numeric_options()))


def test_the_audit_covers_the_numeric_options():
    assert ("simulate", "--every") in OPTIONS and ("simulate", "--seed") in OPTIONS and len(OPTIONS) >= 10


@pytest.mark.parametrize("command,option", OPTIONS)
def test_a_number_past_64_bits_is_refused_in_one_line_or_used(capsys, command, option):
    for value in HUGE:
        argv = list(BASE.get(command, []))
        if option in argv:
            i = argv.index(option)
            del argv[i:i + 2]
        argv = [command, *argv, option, value]
        code = cli.main(argv)   # a traceback here fails the test
        out, err = capsys.readouterr()
        assert isinstance(code, int), argv
        assert "Traceback" not in err
        if code == 2:
            assert len(err.strip().splitlines()) == 1, (argv, err)


def test_every_of_2_63_is_refused_naming_the_limit(capsys):
    code = cli.main(["simulate", *BASE["simulate"], "--every", str(2**63)])
    err = capsys.readouterr().err
    assert code == 2
    assert "--every" in err and "9,223,372,036,854,775,807" in err


def test_every_of_2_63_minus_1_keeps_the_last_row(capsys):
    code = cli.main(["simulate", *BASE["simulate"], "--every", str(2**63 - 1)])
    out = capsys.readouterr().out.splitlines()
    assert code == 0
    assert len(out) == 2 and out[1].startswith("100,")


def test_a_seed_past_64_bits_still_works_as_before(capsys):
    code = cli.main(["simulate", *BASE["simulate"], "--seed", str(2**64)])
    assert code == 0 and capsys.readouterr().out.count("\n") == 101


def test_a_scalable_simulations_summary_gives_its_own_theory_not_nan(tmp_path, capsys):
    """The standard formulas do not describe a scalable filter (its CSV's fp_exact is nan and fp_variant holds
    its rate): the summary line said 'exact nan'; it names the variant's theory and gives the CSV's last value."""
    out = tmp_path / "s.csv"
    assert cli.main(["simulate", "--variant", "scalable", "--initial-capacity", "200", "--p", "0.05", "--n", "2000",
                     "--probes", "2000", "--csv", str(out)]) == 0
    said = capsys.readouterr().out
    assert "nan" not in said
    last = out.read_text().splitlines()[-1].split(",")
    assert f"the scalable filter's theory {float(last[-1]):.6g}" in said, said
