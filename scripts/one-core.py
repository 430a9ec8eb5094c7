#!/usr/bin/env python3
"""Replays auto on one core (internal/pipeline's inTurn and lazyFirst)
from runs of its engines alone, for each share of the time one of them
gets, and prints a Markdown table of the problems solved at each share.

Usage:
  scripts/one-core.py share PROGRESSION.csv SAT.csv [LIMIT_SECONDS]
  scripts/one-core.py lazy AUTO.csv LAZY.csv [LIMIT_SECONDS]

share (OneCoreShare): the share of the time progression searches before
the SAT engine takes the rest, from a run of progression alone and one of
the SAT engine alone over the same problems (or over those progression
took longer than 15 s on: a problem progression solved sooner is solved at
any share tried here, 0.5 and up, of 60 s). Each engine's search time is
its row's seconds less parsing and grounding, which auto does once for
both, and on a total-order problem less the lazy engine's first turn
(OneCoreLazyShare of the limit): a problem counts as solved at share f
when progression's search took at most f of the time left, or the SAT
engine's at most the rest. A proof that there is no plan ends the run at
once, as in auto.

lazy (OneCoreLazyShare): the share of the time the lazy engine (grounding
on demand) searches before the grounder, on the total-order problems, from
a run of auto without that first turn and one of the lazy engine alone
over the problems that run took longer than 2 s on (a problem auto solved
sooner is solved at any share tried here, 0.1 and below, of 60 s). A
problem counts as solved at share f when the lazy run solved it within f
of the limit, or auto's run within the limit less that share.
"""
import csv
import os
import re
import sys


def pipeline_const(name):
    """A constant of internal/pipeline, read from its source (one place)."""
    src = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "internal", "pipeline", "pipeline.go")
    with open(src, encoding="utf-8") as f:
        m = re.search(r"^const %s = ([0-9.]+)$" % name, f.read(), re.M)
    if m is None:
        sys.exit("one-core.py: no const %s in %s" % (name, src))
    return float(m.group(1))


LAZY_SHARE = pipeline_const("OneCoreLazyShare")


def rows(path):
    with open(path, newline="", encoding="utf-8-sig") as f:
        return {(r["track"], r["domain"], r["problem"]): r for r in csv.DictReader(f)}


def prep(r):
    return float(r["parse_seconds"] or 0) + float(r["ground_seconds"] or 0)


def solved(r, within):
    return r is not None and r["status"] == "solved" and float(r["seconds"]) <= within


def share_solved(prog, sat, share, limit):
    n = 0
    for k, p in prog.items():
        first = LAZY_SHARE * limit if k[0] == "total-order" else 0
        left = limit - first - prep(p)
        if p["status"] == "solved" and float(p["seconds"]) - prep(p) <= share * left:
            n += 1
            continue
        if p["status"] == "unsolvable":
            continue
        s = sat.get(k)
        if s is not None and s["status"] == "solved" and float(s["seconds"]) - prep(s) <= (1 - share) * left:
            n += 1
    return n


def share(prog, sat, limit):
    shares = [0.5, 0.6, 0.7, 0.75, 0.8, 0.9, 1.0]
    print("| track | problems | progression alone | " + " | ".join("share %.2f" % f for f in shares) + " |")
    print("|---" * (3 + len(shares)) + "|")
    for track in ("total-order", "partial-order"):
        part = {k: r for k, r in prog.items() if k[0] == track}
        alone = sum(1 for r in part.values() if r["status"] == "solved")
        cells = [str(share_solved(part, sat, f, limit)) for f in shares]
        print("| %s | %d | %d | %s |" % (track, len(part), alone, " | ".join(cells)))


def lazy_solved(auto, lazy, share, limit):
    return sum(1 for k, a in auto.items() if solved(lazy.get(k), share * limit) or solved(a, (1 - share) * limit))


def lazy(auto, lz, limit):
    auto = {k: r for k, r in auto.items() if k[0] == "total-order"}
    shares = [0, 0.01, 0.02, 0.03, 0.05, 0.1]
    print("| problems | " + " | ".join("lazy share %.2f" % f for f in shares) + " |")
    print("|---" * (1 + len(shares)) + "|")
    print("| %d | %s |" % (len(auto), " | ".join(str(lazy_solved(auto, lz, f, limit)) for f in shares)))


def main():
    modes = {"share": share, "lazy": lazy}
    if len(sys.argv) not in (4, 5) or sys.argv[1] not in modes:
        sys.exit(__doc__.split("\n\n")[1])
    limit = float(sys.argv[4]) if len(sys.argv) == 5 else 60.0
    modes[sys.argv[1]](rows(sys.argv[2]), rows(sys.argv[3]), limit)


if __name__ == "__main__":
    main()
