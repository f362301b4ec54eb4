"""The lab: a student's own Bloom filter measured against the truth for independent positions.

    from bloomviz import lab
    report = lab.run(make_filter)                       # make_filter(m, k) -> positions function or filter object
    report = lab.run_file("student.py:make_filter")     # runs that file's code: only files you trust
    print(lab.text(report)); open("lab.svg", "w").write(lab.svg(report))

``grid`` runs and judges the grid, ``stats`` holds the judgements, ``student`` loads and adapts the student's
code, ``report`` writes the words and the plot. Nothing here imports Qt.
"""

from bloomviz.lab.grid import Grid, LabReport, Point, Finding, run
from bloomviz.lab.kinds import KINDS
from bloomviz.lab import student
from bloomviz.lab.report import svg, text


def run_file(spec: str, grid: Grid = Grid(), progress=None) -> LabReport:
    """``run`` on the callable named ``"path/to/file.py:NAME"`` (that file is executed)."""
    return run(student.load(spec), grid, progress)


__all__ = ["Grid", "LabReport", "Point", "Finding", "run", "run_file", "KINDS", "text", "svg"]
