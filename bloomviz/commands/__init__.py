"""The subcommands of ``bloomviz``: one module per command, registered by name in ``COMMANDS``.

A command module exposes ``add_parser(subparsers) -> parser`` (it adds its own subparser and arguments)
and ``run(args) -> int`` (the exit code). ``run`` may raise ``ValueError``/``TypeError`` for a refused
argument; ``bloomviz.cli.main`` turns that into one ``bloomviz <command>: error: ...`` line and exit code 2.
To add a command, write ``bloomviz/commands/<name>.py`` and add ``"<name>"`` here.
"""

from __future__ import annotations

import importlib
from types import ModuleType

COMMANDS: list[str] = ["calc", "explore", "simulate", "inspect", "check", "lesson", "lab", "measure_git", "engines"]


def load(name: str) -> ModuleType:
    return importlib.import_module(f"bloomviz.commands.{name}")
