"""The real false-positive rate of a repository's changed-path filters, against what their fill and the textbook
predict — the truth is one ``git log`` away.

Truth: ``git log --all --no-renames --diff-merges=first-parent --name-only -z`` lists, for every commit, the paths
it changed against its first parent (a root commit: against the empty tree), exactly the diff ``bloom.c`` fills
a filter from; a filter holds those paths and their leading directories (the commit's *member keys*).

Queries: a sample of the paths the history touched, each asked of every commit with a parent, as ``git log --
PATH`` asks (the path and each leading directory must all be set; git 2.39 consults no filter for a root
commit). A query is a *non-member* when the commit did not change PATH (PATH is not one of its member keys); a
"maybe" on a non-member is a false positive. The counts ``maybe``, ``definitely_not`` and ``false_positive``
are the ones git prints in its trace2 ``bloom/statistics`` for ``git log --full-history -- PATH`` (one filter per
commit with a parent, merges included; plain ``git log`` simplifies merges away and asks fewer commits).

Per lookup of one key (the textbook experiment): each non-member key of the sample against each filter alone.
Three rates for it: measured; the fill's prediction (fill^k, fill = bits set / m of that filter); the textbook
(1 − e^(−k·n/m))^k with n the commit's member keys. And the fill's prediction counting only the key's
*distinct* positions (fill^d): git's positions ((h0 + i·h1) mod 2^32) mod m coincide whenever i·h1 ≡ j·h1
(mod m), which in a 16-bit filter happens for any h1 that is a multiple of 4.
"""

from __future__ import annotations

import os
import random
import shutil
import subprocess

import numpy as np

from bloomviz.formats import git_commit_graph as gcg
from bloomviz.hashing.git_scheme import SEED0, SEED1, murmur3_32_many

HEADER = b"\x01\x02commit "
MAX_SAMPLE = 100_000


def _git(repo: str, *args: str) -> bytes:
    exe = shutil.which("git")
    if exe is None:
        raise ValueError("measuring needs the git binary (to learn which paths each commit changed); install git")
    env = {**os.environ, "GIT_CONFIG_NOSYSTEM": "1", "LC_ALL": "C", "GIT_PAGER": "cat"}
    proc = subprocess.run([exe, "-C", repo, *args], capture_output=True, env=env, stdin=subprocess.DEVNULL)
    if proc.returncode != 0:
        msg = proc.stderr.decode("utf-8", "replace").strip().splitlines()
        raise ValueError(f"{repo}: git {args[0]} failed: {msg[-1] if msg else proc.returncode}")
    return proc.stdout


def changed_paths(repo) -> dict[str, tuple[bool, list[bytes]]]:
    """commit id -> (has a parent, the paths it changed against its first parent)."""
    out = _git(os.fspath(repo), "log", "--all", "--no-color", "--no-renames", "--diff-merges=first-parent",
               "--name-only", "-z", "--no-ext-diff", "--no-textconv", "--format=%x01%x02commit %H %P")
    truth: dict[str, tuple[bool, list[bytes]]] = {}
    current, has_parent, paths = None, False, []
    for token in out.split(b"\0"):
        token = token.lstrip(b"\n")
        if token.startswith(HEADER):
            if current is not None:
                truth[current] = (has_parent, paths)
            ids = token[len(HEADER):].split()
            current, has_parent, paths = ids[0].decode("ascii"), len(ids) > 1, []
        elif token and current is not None:
            paths.append(token)
    if current is not None:
        truth[current] = (has_parent, paths)
    return truth


def member_keys(paths: list[bytes]) -> set[bytes]:
    """The keys git adds for a commit's changed paths: each path and each of its leading directories."""
    keys: set[bytes] = set()
    for p in paths:
        keys.update(gcg.path_keys(p))
    return keys


def _key_hashes(keys: list[bytes], version: int) -> tuple[np.ndarray, np.ndarray]:
    return murmur3_32_many(keys, SEED0, version), murmur3_32_many(keys, SEED1, version)


def _positions(h0: np.ndarray, h1: np.ndarray, m: int, k: int) -> np.ndarray:
    i = np.arange(k, dtype=np.uint32)
    with np.errstate(over="ignore"):
        return ((h0[:, None] + i[None, :] * h1[:, None]).astype(np.int64)) % m


def sample_paths(truth, count: int, seed: int = 0) -> list[bytes]:
    """``count`` distinct paths the history touched (all of them when fewer), in a seeded random order."""
    every = sorted({p for _parent, paths in truth.values() for p in paths})
    if count >= len(every):
        return every
    return random.Random(seed).sample(every, count)


def measure(repo, paths: list[bytes] | None = None, sample: int = 2000, seed: int = 0, progress=None) -> dict:
    """The measurement of ``repo``'s filters (see the module docstring); ``paths`` replaces the sample.
    ``progress(done, total)`` is called as the commits are measured (every 256 and at the end)."""
    if not 1 <= sample <= MAX_SAMPLE:
        raise ValueError(f"the sample of paths must be 1..{MAX_SAMPLE:,}, got {sample:,}")
    filters = gcg.read(repo)
    truth = changed_paths(repo)
    queries = list(paths) if paths is not None else sample_paths(truth, sample, seed)
    if not queries:
        raise ValueError(f"{repo}: the history changed no path, so there is nothing to ask the filters")
    qkeys = [gcg.path_keys(q) for q in queries]
    keys = sorted({key for ks in qkeys for key in ks})
    index = {key: i for i, key in enumerate(keys)}
    depth = max(len(ks) for ks in qkeys)
    sentinel = len(keys)              # a padding key that is always "set" and always a member
    key_matrix = np.full((len(queries), depth), sentinel, dtype=np.int64)
    for row, ks in enumerate(qkeys):
        key_matrix[row, :len(ks)] = [index[key] for key in ks]
    version = filters[0].positions.version if filters else 2
    h0, h1 = _key_hashes(keys, version)
    members_of = {oid: member_keys(paths) for oid, (_parent, paths) in truth.items()}
    # every member key hashed once for the whole history (a path changes in many commits)
    every = sorted(set().union(*members_of.values())) if members_of else []
    where = {key: i for i, key in enumerate(every)}
    hashed = _key_hashes(every, version)
    r = _Tally()
    for i, f in enumerate(filters):
        if progress is not None and i % 256 == 0:
            progress(i, len(filters))
        entry = truth.get(f.label)
        if entry is None:
            r.no_truth += 1
            continue
        members = members_of[f.label]
        if entry[0]:
            at = np.fromiter((where[key] for key in members), dtype=np.int64, count=len(members))
            r.add(f, members, (hashed[0][at], hashed[1][at]), index, h0, h1, key_matrix, sentinel)
        else:
            r.roots += 1
    if progress is not None:
        progress(len(filters), len(filters))
    return r.result(len(filters), len(queries), len(keys), queries)


def _query_distinct(pos: np.ndarray, is_member: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """Per query (a row of key indices), how many distinct bits its keys not in the filter test: a path and its
    directories whose positions coincide, within a key or across keys, test fewer bits than k per key."""
    if rows.size == 0:
        return np.zeros(0, dtype=np.int64)
    marked = np.where(is_member[:-1, None], -1, pos)
    padded = np.vstack([marked, np.full((1, pos.shape[1]), -1, dtype=pos.dtype)])   # the sentinel: a member
    flat = np.sort(padded[rows].reshape(len(rows), -1), axis=1)
    fresh = np.ones_like(flat, dtype=bool)
    fresh[:, 1:] = flat[:, 1:] != flat[:, :-1]
    return ((flat >= 0) & fresh).sum(axis=1)


class _Tally:
    def __init__(self):
        self.c = dict.fromkeys(("maybe", "definitely_not", "false_positive", "member_queries", "false_negatives",
                                "nonmember_queries", "member_keys", "member_keys_missed", "nonmember_keys",
                                "key_fp", "coinciding"), 0)
        self.p = dict.fromkeys(("query_fill", "query_textbook", "query_distinct", "key_fill", "key_distinct",
                                "key_textbook"), 0.0)
        self.sizes: list[int] = []
        self.commits = self.roots = self.no_truth = 0
        self.large = {"commits": 0, "false_positives": 0}     # the all-ones filters (over 512 keys)

    def add(self, f, members, member_hashes, index, h0, h1, key_matrix, sentinel):
        c, p = self.c, self.p
        m, k = f.m, f.k
        bits = np.frombuffer(f.bits.unpack(zero=b"\0", one=b"\1"), dtype=np.bool_)
        fill = f.bits_set / m
        self.commits += 1
        self.sizes.append(m)
        # every member key must be set: zero false negatives, checked on all of them, not only the sample
        if members:
            c["member_keys"] += len(members)
            c["member_keys_missed"] += int((~bits[_positions(*member_hashes, m, k)].all(axis=1)).sum())
        pos = _positions(h0, h1, m, k)
        key_set = np.append(bits[pos].all(axis=1), True)
        is_member = np.zeros(sentinel + 1, dtype=bool)
        is_member[sentinel] = True
        for key in members:
            at = index.get(key)
            if at is not None:
                is_member[at] = True
        hit = key_set[key_matrix].all(axis=1)
        changed = is_member[key_matrix[:, 0]]
        c["maybe"] += int(hit.sum())
        c["definitely_not"] += int((~hit).sum())
        c["false_positive"] += int((hit & ~changed).sum())
        if str(f.fields.get("kind", "")).startswith("too many"):
            self.large["commits"] += 1
            self.large["false_positives"] += int((hit & ~changed).sum())
        c["member_queries"] += int(changed.sum())
        c["false_negatives"] += int((changed & ~hit).sum())
        c["nonmember_queries"] += int((~changed).sum())
        textbook = (-np.expm1(-k * len(members) / m)) ** k
        free = (~is_member[key_matrix]).sum(axis=1)[~changed]       # the keys not in the filter, per query
        p["query_fill"] += float((fill ** (k * free)).sum())
        p["query_textbook"] += float((textbook ** free).sum())
        p["query_distinct"] += float((fill ** _query_distinct(pos, is_member, key_matrix[~changed])).sum())
        alone = ~is_member[:-1]
        n_alone = int(alone.sum())
        distinct = 1 + (np.diff(np.sort(pos[alone], axis=1), axis=1) != 0).sum(axis=1)
        c["nonmember_keys"] += n_alone
        c["key_fp"] += int(key_set[:-1][alone].sum())
        c["coinciding"] += int((distinct < k).sum())
        p["key_fill"] += n_alone * fill ** k
        p["key_distinct"] += float((fill ** distinct).sum())
        p["key_textbook"] += n_alone * textbook

    def result(self, filters: int, queries: int, keys: int, sample: list[bytes]) -> dict:
        c, p = self.c, self.p
        nq, nk = c["nonmember_queries"], c["nonmember_keys"]
        sizes = np.array(self.sizes or [0])
        return {
            "filters": filters, "commits_measured": self.commits, "root_commits": self.roots,
            "commits_without_truth": self.no_truth, "paths": queries, "keys": keys,
            "git_counts": {"maybe": c["maybe"], "definitely_not": c["definitely_not"],
                           "false_positive": c["false_positive"]},
            "queries": {"members": c["member_queries"], "false_negatives": c["false_negatives"],
                        "nonmembers": nq, "false_positives": c["false_positive"],
                        "measured": c["false_positive"] / nq if nq else None,
                        "predicted_from_fill": p["query_fill"] / nq if nq else None,
                        "predicted_from_distinct_positions": p["query_distinct"] / nq if nq else None,
                        "textbook": p["query_textbook"] / nq if nq else None},
            "keys_alone": {"member_keys": c["member_keys"], "member_keys_missed": c["member_keys_missed"],
                           "nonmembers": nk, "false_positives": c["key_fp"],
                           "measured": c["key_fp"] / nk if nk else None,
                           "predicted_from_fill": p["key_fill"] / nk if nk else None,
                           "predicted_from_distinct_positions": p["key_distinct"] / nk if nk else None,
                           "textbook": p["key_textbook"] / nk if nk else None,
                           "coinciding_positions": c["coinciding"] / nk if nk else None},
            "filter_bits": {"min": int(sizes.min()), "median": float(np.median(sizes)), "max": int(sizes.max())},
            "large_filters": dict(self.large),
        }
