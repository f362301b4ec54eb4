"""A generated auto-play run is kept in a session as (generator, seed, start, stop), not as one string per item
(issue 27 item 5); a reader of schema version 1 refuses such a file cleanly, and sessions without a run stay
version 1."""

from __future__ import annotations

import json

import numpy as np
import pytest

pytest.importorskip("PySide6")

from bloomviz.files import session as sessions  # noqa: E402
from bloomviz.filters import bitstore  # noqa: E402
from bloomviz.gui.files import file_dialogs, session_io  # noqa: E402
from bloomviz.items.generated import GeneratedItems, GeneratedRun  # noqa: E402
from window_helpers import FakeDialogs  # noqa: E402


pytestmark = pytest.mark.window(shown=False)


@pytest.fixture
def window(window):
    """The shared window (tests/conftest.py), its File menu's dialogs answered by the test."""
    window.dialogs = FakeDialogs(unsaved_answer=file_dialogs.DISCARD)
    window.files = session_io.install(window, window.dialogs)
    return window


def test_a_million_generated_items_are_six_numbers_in_the_session_and_replay_exactly(window, tmp_path):
    wb = window.wb
    wb.configure(m=1 << 22, k=5, scheme="murmur3-km")
    wb.insert("typed before")
    gen = GeneratedItems(2 ** 63 - 1, seed=42, prefix="i")
    wb.insert_batch(GeneratedRun(gen, 0, 600_000))
    wb.insert_batch(GeneratedRun(gen, 600_000, 1_000_000))
    wb.insert("typed after")
    bits = bitstore.unpack(wb.filter.bits).copy()
    path = tmp_path / "generated.bloomviz"
    window.dialogs.save_paths.append(str(path))
    assert window.files.save_as()
    assert path.stat().st_size < 20_000          # 10^6 items as strings would be ~23 MB
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["schema_version"] == sessions.GENERATED_SCHEMA_VERSION
    runs = [op for op in data["operations"] if op["op"] == sessions.GENERATED]
    assert [(r["seed"], r["start"], r["stop"]) for r in runs] == [(42, 0, 600_000), (42, 600_000, 1_000_000)]
    wb.configure(m=64, k=3, scheme="murmur3-km")
    assert window.files.open_path(str(path), ask=False)
    wb.run_to_end()        # 10^6 items: replayed as a job (the window turns meanwhile), here to its end at once
    assert len(wb.filter) == 1_000_002 and np.array_equal(bitstore.unpack(wb.filter.bits), bits)
    assert wb.is_member(gen[999_999]) and wb.is_member("typed after") and not wb.is_member(gen[1_000_000])


def test_a_reader_of_version_1_refuses_a_generated_run_cleanly(monkeypatch):
    s = sessions.Session(m=64, k=3, operations=[sessions.SavedOperation(sessions.GENERATED, run=("i", 1, 0, 10))])
    text = sessions.dumps(s)
    assert sessions.loads(text).operations[0].run == ("i", 1, 0, 10)
    monkeypatch.setattr(sessions, "SCHEMA_VERSIONS", (1,))      # what a bloomviz before version 2 reads
    with pytest.raises(sessions.SessionFormatError, match="schema_version 2 is not supported .written by a newer"):
        sessions.loads(text)


def test_sessions_without_a_run_stay_version_1_and_a_bad_run_is_refused():
    plain = json.loads(sessions.dumps(sessions.Session(m=64, k=3, operations=[sessions.SavedOperation("insert", "a")])))
    assert plain["schema_version"] == 1
    good = json.loads(sessions.dumps(sessions.Session(
        m=64, k=3, operations=[sessions.SavedOperation(sessions.GENERATED, run=("i", 1, 0, 10))])))
    for key, value, words in [("stop", 0, "stop"), ("stop", 10 ** 12, "stop"), ("generator", "x", "generator"),
                              ("prefix", "ii", "prefix"), ("seed", -1, "seed")]:
        bad = json.loads(json.dumps(good))
        bad["operations"][0][key] = value
        with pytest.raises(sessions.SessionFormatError, match=words):
            sessions.loads(json.dumps(bad))
    bad = json.loads(json.dumps(good))
    bad["schema_version"] = 1
    with pytest.raises(sessions.SessionFormatError, match="needs schema_version 2"):
        sessions.loads(json.dumps(bad))
