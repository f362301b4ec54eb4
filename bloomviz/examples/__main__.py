"""``python -m bloomviz.examples``: the examples and what each shows."""

from bloomviz.examples import EXAMPLES

for name, what in EXAMPLES.items():
    print(f"python -m bloomviz.examples.{name:<18} {what}")
