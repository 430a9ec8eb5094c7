#!/usr/bin/env python3
"""How many total-order problems auto on one core would solve for each
share of the time the lazy engine (grounding on demand) gets before the
grounder (internal/pipeline's OneCoreLazyShare), from a run of auto
without that first turn and one of the lazy engine alone over the
problems that run took longer than 2 s on (a problem auto solved sooner
is solved at any share tried here, 0.1 and below, of 60 s).

Usage: scripts/one-core-lazy.py AUTO.csv LAZY.csv [LIMIT_SECONDS]

A problem counts as solved at share f when the lazy run solved it within
f of the limit, or auto's run solved it within the limit less that
share. Prints a Markdown table.
"""
import csv
import sys


def rows(path):
    with open(path, newline="", encoding="utf-8-sig") as f:
        return {(r["track"], r["domain"], r["problem"]): r for r in csv.DictReader(f)}


def solved_at(auto, lazy, share, limit):
    n = 0
    for k, a in auto.items():
        z = lazy.get(k)
        if z is not None and z["status"] == "solved" and float(z["seconds"]) <= share * limit:
            n += 1
        elif a["status"] == "solved" and float(a["seconds"]) <= (1 - share) * limit:
            n += 1
    return n


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__.split("\n\n")[1])
    auto, lazy = rows(sys.argv[1]), rows(sys.argv[2])
    limit = float(sys.argv[3]) if len(sys.argv) == 4 else 60.0
    auto = {k: r for k, r in auto.items() if k[0] == "total-order"}
    shares = [0, 0.01, 0.02, 0.03, 0.05, 0.1]
    print("| problems | " + " | ".join("lazy share %.2f" % f for f in shares) + " |")
    print("|---" * (1 + len(shares)) + "|")
    print("| %d | %s |" % (len(auto), " | ".join(str(solved_at(auto, lazy, f, limit)) for f in shares)))


if __name__ == "__main__":
    main()
