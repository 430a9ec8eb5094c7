#!/usr/bin/env python3
"""How many problems auto on one core would solve for each share of the
time progression gets before the SAT engine (internal/pipeline's
OneCoreShare), from a run of progression alone and one of the SAT engine
alone over the same problems (or over those progression took longer than
15 s on: a problem progression solved sooner is solved at any share
tried here, 0.5 and up, of 60 s).

Usage: scripts/one-core-share.py PROGRESSION.csv SAT.csv [LIMIT_SECONDS]

Each engine's search time is its row's seconds less parsing and
grounding, which auto does once for both: a problem counts as solved at
share f when progression's search took at most f of the time left after
grounding, or the SAT engine's at most the rest. A proof that there is no
plan ends the run at once, as in auto. Prints a Markdown table.
"""
import csv
import sys


def rows(path):
    with open(path, newline="", encoding="utf-8-sig") as f:
        return {(r["track"], r["domain"], r["problem"]): r for r in csv.DictReader(f)}


def prep(r):
    return float(r["parse_seconds"] or 0) + float(r["ground_seconds"] or 0)


def solved_at(prog, sat, share, limit):
    n = 0
    for k, p in prog.items():
        left = limit - prep(p)
        if p["status"] == "solved" and float(p["seconds"]) - prep(p) <= share * left:
            n += 1
            continue
        if p["status"] == "unsolvable":
            continue
        s = sat.get(k)
        if s is not None and s["status"] == "solved" and float(s["seconds"]) - prep(s) <= (1 - share) * left:
            n += 1
    return n


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__.split("\n\n")[2])
    prog, sat = rows(sys.argv[1]), rows(sys.argv[2])
    limit = float(sys.argv[3]) if len(sys.argv) == 4 else 60.0
    shares = [0.5, 0.6, 0.7, 0.75, 0.8, 0.9, 1.0]
    print("| track | problems | progression alone | " + " | ".join("share %.2f" % f for f in shares) + " |")
    print("|---" * (3 + len(shares)) + "|")
    for track in ("total-order", "partial-order"):
        part = {k: r for k, r in prog.items() if k[0] == track}
        alone = sum(1 for r in part.values() if r["status"] == "solved")
        cells = [str(solved_at(part, sat, f, limit)) for f in shares]
        print("| %s | %d | %d | %s |" % (track, len(part), alone, " | ".join(cells)))


if __name__ == "__main__":
    main()
