"""Scenarios: the stories a lecture tells with a Bloom filter, each with its parameters, data and check.

Pure (no Qt): a scenario says how to size the filter (``design()``), which items go in (``load()``), how to
tell its story with the numbers of the filter as built (``story(flt)``), and how to judge a new item
(``check(item, flt)``) against the ground truth it knows (the set of items it inserted). The window's
scenario runner (``bloomviz.gui.scenarios_tab.controller``) does the inserting through the workbench.

Data come from ``assets/datasets`` through ``bloomviz.scenarios.datasets``; the SSH keys are synthesised here
(see ``weak_key_fingerprints``), and the ordinary URLs and random passwords used for measuring are
synthesised from fixed seeds. Nothing is downloaded.

The stories, one module each: ``spelling``, ``passwords``, ``contacts``, ``weak_keys``, ``blocklist``; what they
share is in ``base``. This module is their registry.
"""

from __future__ import annotations

from bloomviz.scenarios.base import Scenario
from bloomviz.scenarios.blocklist import UrlBlocklist
from bloomviz.scenarios.contacts import EmailContacts
from bloomviz.scenarios.passwords import BannedPasswords
from bloomviz.scenarios.spelling import SpellChecker
from bloomviz.scenarios.weak_keys import WeakSshKeys

SCENARIOS: dict[str, type[Scenario]] = {
    cls.key: cls for cls in (SpellChecker, BannedPasswords, EmailContacts, WeakSshKeys, UrlBlocklist)
}


def get_scenario(key: str) -> Scenario:
    try:
        return SCENARIOS[key]()
    except KeyError:
        raise ValueError(f"unknown scenario {key!r}; known: {', '.join(SCENARIOS)}") from None
