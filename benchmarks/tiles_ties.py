#!/usr/bin/env python3
"""How stable a tile sweep's verdict is: given the files of the same sweep repeated N times,
prints each run's best-or-tied set (the best cell and the cells whose interquartile range
overlaps it) and how many runs agree with the most common set.

Usage: python3 tiles_ties.py SWEEP.json [SWEEP.json ...]
"""
import collections
import json
import sys


def label(cell):
    t = cell["tuning"]
    return f"{t['block_m']}/{t['block_n']}/{t['block_h']}/{t['block_i']}"


def main():
    sets = []
    for path in sys.argv[1:]:
        with open(path) as f:
            cells = json.load(f)["cells"]
        winners = frozenset(label(c) for c in cells if c.get("best") or c.get("tied"))
        best = [c for c in cells if c.get("best")]
        sets.append(winners)
        print(f"{path}: best {label(best[0]) if best else '-'} "
              f"({best[0]['time']['median_ms']:.4f} ms), best-or-tied {sorted(winners)}")
    counts = collections.Counter(sets)
    common, agree = counts.most_common(1)[0]
    print(f"{agree} of {len(sets)} runs give the most common best-or-tied set {sorted(common)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
