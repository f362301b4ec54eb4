"""The lesson actions as a registry: one declaration per action (``spec.ActionSpec``: its options, its check,
its run, its cost and what it shows), in the order a refusal lists them.

An action line is a name, positional arguments and ``key=value`` options. The parser (``format.py``) asks
``check_action`` for the typed values (or a ValueError saying what is wrong; the parser adds the file and line),
the runner asks ``apply`` to run one and ``action_cost`` for its work before it starts, and the window asks the
declaration what an action animates and lights. No action name is compared outside its declaration.

Actions that only the window can show (``highlight``, ``show``, ``slow`` on inserts and lookups, ``autoplay``'s
pace, ``predict``'s vote) are checked and recorded headless; a ``predict`` block (``predict.py``, parsed by
``format.py``) also computes its answer headless, so the dry run checks that exactly one choice is right.
"""

from __future__ import annotations

from bloomviz.lessons.actions import computed, filter_actions, shown
from bloomviz.lessons.spec import ActionSpec

REGISTRY: dict[str, ActionSpec] = {spec.name: spec for spec in (
    *filter_actions.SPECS, shown.PREDICT, *filter_actions.LATER, *computed.SPECS, *shown.SPECS)}


def check_action(name: str, args: list, options: dict) -> tuple[list, dict]:
    """Typed (args, options) for one action line, or ValueError naming the bad argument."""
    return REGISTRY[name].checked(args, options)


def apply(state, action, window: list) -> None:
    """Run one action on ``state`` (in place); what only the window acts on is appended to ``window``.
    ValueError/TypeError say what went wrong."""
    REGISTRY[action.name].run(state, action, window)


def action_cost(state, action) -> tuple[float, str]:
    """(estimated seconds, what the action would do) for ``action`` on ``state`` as it is now."""
    return REGISTRY[action.name].cost(state, action)
