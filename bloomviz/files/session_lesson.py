"""Where a lesson was when its session was saved: the lesson, the steps taken and the class's votes.

A teacher who saves in the middle of a lesson expects to reopen it there, votes and all, so a session saved
while a lesson is under way (past its title page, or with votes) carries, beside the Filter tab's recipe::

    "lesson": {"source": "builtin:03-the-math",          or the lesson file's path
               "step": 4,                                 steps taken (0 = the title page)
               "votes": {"2": {"counts": [3, 11, 1], "revealed": true}}}

Sessions without a lesson are written exactly as before. A bloomviz from before this key refuses such a file
with its usual message ("the session: unknown key 'lesson'"), never half-reading it. Pure Python: no Qt.
"""

from __future__ import annotations

from dataclasses import dataclass, field

MAX_SOURCE = 4096
MAX_STEP = 10_000
MAX_CHOICES = 16
MAX_VOTES = 1_000_000


@dataclass(frozen=True)
class LessonPlace:
    source: str
    step: int = 0
    votes: dict = field(default_factory=dict)   # step -> (counts tuple, revealed)


def to_json(place: LessonPlace) -> dict:
    return {"source": place.source, "step": place.step,
            "votes": {str(step): {"counts": list(counts), "revealed": revealed}
                      for step, (counts, revealed) in sorted(place.votes.items())}}


def _whole(value, where: str, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= high:
        raise ValueError(f"{where}: expected a whole number from 0 to {high:,}, got {value!r}"[:300])
    return value


def from_json(value, where: str = "lesson") -> LessonPlace:
    """The place, checked; ValueError naming the bad field (the session reader makes it a format error)."""
    if not isinstance(value, dict) or set(value) - {"source", "step", "votes"} or "source" not in value:
        raise ValueError(f"{where}: expected an object with \"source\", \"step\" and \"votes\"")
    source = value["source"]
    if not isinstance(source, str) or not source or len(source) > MAX_SOURCE or "\0" in source:
        raise ValueError(f"{where}.source: expected a lesson name or path, got {source!r}"[:300])
    step = _whole(value.get("step", 0), f"{where}.step", MAX_STEP)
    raw = value.get("votes", {})
    if not isinstance(raw, dict) or len(raw) > MAX_STEP:
        raise ValueError(f"{where}.votes: expected an object")
    votes = {}
    for key, tally in raw.items():
        number = int(key) if isinstance(key, str) and key.isascii() and key.isdigit() else -1
        _whole(number, f"{where}.votes key {key!r}"[:80], MAX_STEP)
        here = f"{where}.votes.{number}"
        if not isinstance(tally, dict) or set(tally) != {"counts", "revealed"}:
            raise ValueError(f"{here}: expected {{\"counts\": [...], \"revealed\": true or false}}")
        counts = tally["counts"]
        if not isinstance(counts, list) or not 1 <= len(counts) <= MAX_CHOICES:
            raise ValueError(f"{here}.counts: expected a list of 1 to {MAX_CHOICES} numbers")
        if not isinstance(tally["revealed"], bool):
            raise ValueError(f"{here}.revealed: expected true or false")
        votes[number] = (tuple(_whole(c, f"{here}.counts", MAX_VOTES) for c in counts), tally["revealed"])
    return LessonPlace(source, step, votes)
