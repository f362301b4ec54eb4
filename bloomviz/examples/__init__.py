"""Small programs built on bloomviz's parts, each runnable and each run by the test suite
(``tests/examples/test_examples.py``), so that none of them rots.

    python -m bloomviz.examples                        list them
    python -m bloomviz.examples.grid_and_model         the smallest window: a bit grid, the model, a line edit
    python -m bloomviz.examples.model_without_qt       the window's model on its own: verdicts and culprits
    python -m bloomviz.examples.measure_a_design       the exact rate of a design against one filter measured
    python -m bloomviz.examples.your_own_filter        a filter of your own measured against the truth (lab)
"""

EXAMPLES = {
    "grid_and_model": "the smallest window: a bit grid, the window's model and a line edit (Qt)",
    "model_without_qt": "the window's model on its own: inserts, lookups, verdicts and culprits (no Qt)",
    "measure_a_design": "the exact false-positive rate of a design against one filter measured (no Qt)",
    "your_own_filter": "a filter of your own, measured by bloomviz.lab against independent positions (no Qt)",
}
