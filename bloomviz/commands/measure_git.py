"""``bloomviz measure-git REPO``: the real false-positive rate of a git repository's changed-path filters.

git keeps one Bloom filter per commit (``git commit-graph write --reachable --changed-paths``). Which paths each
commit changed is known exactly (``git log --name-only``), so every "maybe" on a path the commit did not change is
a false positive we can count. This command asks a sample of the paths the history touched of every commit with
a parent, as ``git log -- PATH`` asks, and prints the measured rate against the rate each filter's own fill
predicts and the textbook rate for its m, k and number of paths; then the same for one key against one filter
(the textbook experiment), and why the two differ. The counts maybe / definitely_not / false_positive are the
ones git's trace2 prints ("bloom"/"statistics") for ``git log --full-history -- PATH`` over the same paths (which
consults one filter per commit with a parent, merges included; without merges plain ``git log`` does the same).

Needs the git binary (for the truth); reads the filters itself. Exit status: 0, or 2 with one line on stderr.
"""

from __future__ import annotations

import json
import os
import sys

from bloomviz.commands.common import CliParser, Progress, add_command, fail, non_negative_int, positive_int

NAME = "measure-git"


def add_parser(subparsers) -> CliParser:
    parser = add_command(subparsers, NAME, __doc__,
                         help="measure a git repository's changed-path filters: false positives against theory")
    parser.add_argument("repo", metavar="REPO", help="a git repository with a commit-graph holding changed-path "
                                                     "filters (a worktree, its .git, or a bare repository)")
    parser.add_argument("--paths", type=positive_int("--paths"), default=2000, metavar="N",
                        help="how many of the history's paths to ask every commit about (default 2000; all when "
                             "the history has fewer)")
    parser.add_argument("--path", action="append", dest="path_list", metavar="PATH",
                        help="ask exactly this path (repeatable); replaces the sample")
    parser.add_argument("--seed", type=non_negative_int("--seed"), default=0, metavar="X",
                        help="seed of the sample of paths (default 0)")
    parser.add_argument("--json", action="store_true", help="print the measurement as JSON")
    return parser


def _pct(p: float | None) -> str:
    if p is None:
        return "—"
    return f"{100 * p:.3g} %" if p >= 1e-4 or p == 0 else f"{100 * p:.2e} %"


def _times(a: float | None, b: float | None) -> str:
    return f"{a / b:.1f}×" if a is not None and b else "—"


def explanation(r: dict) -> list[str]:
    """Why measured and predicted differ, in the words the app uses for its own schemes."""
    q, key, bits = r["queries"], r["keys_alone"], r["filter_bits"]
    lines = ["No rate to configure: git gives every commit's filter 10 bits per key (a changed path or one of its "
             "leading directories), rounded up to whole bytes, and k = 7, fixed in bloom.c; at exactly 10 bits per "
             "key that is a textbook 0.819 % for one key."]
    large = r.get("large_filters", {})
    if large.get("commits"):
        lines.append(f"More than 512 paths and leading directories: {large['commits']:,} commit(s) changed that "
                     f"many, and git stores one byte of eight 1s for each, which answers “maybe” to every path: "
                     f"{large['false_positives']:,} of the {q['false_positives']:,} false positives measured as "
                     f"git log asks came from them.")
    if key["measured"] is not None and key["predicted_from_fill"]:
        lines.append(f"Small filters: git gives a commit 10 bits per changed path, rounded up to whole bytes, so the "
                     f"median filter here has {bits['median']:g} bits. Theory's rates assume k positions that "
                     f"behave as independent uniform ones; in a filter of tens of bits they do not.")
        lines.append(f"Double hashing: position i is (h0 + i·h1) mod 2^32 mod m, an arithmetic progression with "
                     f"nothing forced odd. When h1 shares factors with m the progression comes back on itself, so "
                     f"the k positions coincide: {_pct(key['coinciding_positions'])} of the non-member keys lit "
                     f"fewer than k distinct bits.")
        lines.append(f"Coinciding positions: a key with d distinct positions passes a filter of fill f with "
                     f"chance f^d, not f^k. Counted that way the fill predicts "
                     f"{_pct(key['predicted_from_distinct_positions'])} against the measured "
                     f"{_pct(key['measured'])} (f^k predicts {_pct(key['predicted_from_fill'])}); for git's "
                     f"queries {_pct(q.get('predicted_from_distinct_positions'))} against the measured "
                     f"{_pct(q['measured'])} (f^k: {_pct(q['predicted_from_fill'])}).")
    if q["false_negatives"] == 0 and key["member_keys_missed"] == 0:
        lines.append("No false negatives: every path a commit changed, and every leading directory, answered "
                     "\"probably present\".")
    else:
        lines.append(f"FALSE NEGATIVES: {q['false_negatives']:,} changed paths and {key['member_keys_missed']:,} "
                     f"member keys answered \"definitely absent\": the filters do not match this history.")
    return lines


def render(repo: str, r: dict) -> str:
    q, key, g, bits = r["queries"], r["keys_alone"], r["git_counts"], r["filter_bits"]
    out = [f"{repo}: {r['commits_measured']:,} commits with a parent measured, {r['paths']:,} paths from the history "
           f"({r['keys']:,} keys with their leading directories)",
           f"  filters: {r['filters']:,}; bits per filter min {bits['min']:,}, median {bits['median']:g}, "
           f"max {bits['max']:,}"]
    if r["root_commits"]:
        out.append(f"  {r['root_commits']:,} root commit(s) not asked: git 2.39 consults no filter for a root commit")
    if r["commits_without_truth"]:
        out.append(f"  {r['commits_without_truth']:,} commits in the graph that git log --all does not reach: "
                   f"not asked")
    out += ["", "As git log -- PATH asks (the path and each leading directory must be set):",
            f"  paths the commit changed      {q['members']:>12,}   false negatives {q['false_negatives']:,}",
            f"  paths it did not change       {q['nonmembers']:>12,}",
            f"  false positives measured      {q['false_positives']:>12,}   {_pct(q['measured'])}",
            f"  predicted from each fill                    {_pct(q['predicted_from_fill'])}   "
            f"(fill^k per key not in the filter)",
            f"  counting distinct positions                 {_pct(q.get('predicted_from_distinct_positions'))}   "
            f"(fill^d, d = the distinct bits its keys test)",
            f"  textbook (1 − e^(−kn/m))^k                  {_pct(q['textbook'])}   (n = the commit's paths and "
            f"directories)",
            f"  measured / predicted from fill              {_times(q['measured'], q['predicted_from_fill'])}",
            f"  git's trace2 counts for these paths: maybe {g['maybe']:,}, definitely_not {g['definitely_not']:,}, "
            f"false_positive {g['false_positive']:,}",
            "", "One key against one filter (the textbook experiment):",
            f"  non-member keys               {key['nonmembers']:>12,}",
            f"  false positives measured      {key['false_positives']:>12,}   {_pct(key['measured'])}",
            f"  predicted from each fill                    {_pct(key['predicted_from_fill'])}   (fill^k)",
            f"  counting distinct positions                 {_pct(key['predicted_from_distinct_positions'])}   "
            f"(fill^d)",
            f"  textbook (1 − e^(−kn/m))^k                  {_pct(key['textbook'])}",
            f"  measured / textbook                         {_times(key['measured'], key['textbook'])}",
            "", "Why:"]
    out += [f"  - {line}" for line in explanation(r)]
    return "\n".join(out)


def run(args) -> int:
    prog = f"bloomviz {NAME}"
    from bloomviz.formats import git_measure
    if not os.path.isdir(args.repo):
        return fail(prog, f"{args.repo}: not a directory; give a git repository (its worktree, .git or a bare "
                          f"repository)")
    paths = None
    if args.path_list:
        paths = [p.encode("utf-8", "surrogateescape") for p in args.path_list]
    progress = Progress("measuring commits")   # stderr: a terminal's bar, or a line every 10 s in a log
    try:
        result = git_measure.measure(args.repo, paths=paths, sample=args.paths, seed=args.seed, progress=progress)
    except OSError as exc:
        return fail(prog, f"{args.repo}: {exc.strerror or exc}")
    except (ValueError, TypeError) as exc:
        return fail(prog, exc)
    finally:
        progress.close()
    if args.json:
        json.dump({"repo": os.fspath(args.repo), **result, "why": explanation(result)}, sys.stdout, indent=2)
        print()
    else:
        print(render(args.repo, result))
    return 0
