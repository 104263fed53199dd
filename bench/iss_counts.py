#!/usr/bin/env python3
"""satsudoku's counts against ISS's on ISS's own examples with rules taken out.

ISS (sigh's Interactive Sudoku Solver, ../shared/peers/iss/run_iss.mjs) is a
counter written apart from satsudoku, in another language, with its own
reading of every constraint type: where the two count the same puzzle
differently, one of them reads a rule wrongly. Its examples have one
solution each, which checks little of a rule; so each example written as a
list of items (tests/corpus/iss/examples.json; when DROP is not 0, those
without `Or`, `And` or other blocks) is copied VARIANTS times with DROP of
its rules and GIVENS of its givens of one value taken out at random (the
layout's items kept): a puzzle then has a few to some hundreds of
solutions, each of which every rule left must allow.
Both count each copy up to LIMIT solutions (`satsudoku count --max`, ISS
`--limit`), 10 s each. A copy either side stops on, or that satsudoku
refuses (a rule that names an item dropped), is skipped; every other pair
of counts must be equal (both at the limit counts as equal, and is
reported apart).

Writes bench/results/iss-counts-DATE.md (the seed, what was compared, the
constraint types the compared copies held, and every difference) and exits
1 on a difference.

With ONLY, just the examples that hold an item of that type (e.g.
`ChaosConstruction`).

usage: python3 bench/iss_counts.py SEED [VARIANTS] [LIMIT] [DROP] [GIVENS] [ONLY]
  (from the repository root, after cargo build --release; defaults 3 1000 1 0)
"""
import json
import os
import random
import re
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchlib import Agreement, count_up_to, iss_count_up_to  # noqa: E402

# Items that make the layout, never dropped.
LAYOUT = {"Shape", "NoBoxes", "ChaosConstruction", "RegionSize", "Jigsaw", "Doppelganger"}
SECONDS = 10


def copies(seed, variants, drop, givens, only=None):
    """(index, name, ISS text, the rule types it holds) of each copy."""
    rng = random.Random(seed)
    out = []
    for index, entry in enumerate(json.load(open("tests/corpus/iss/examples.json"))):
        text = entry["input"].strip()
        items = [t.strip() for t in text.split(".")[1:] if t.strip()]
        # Only lists of items (not a compact grid that starts with an empty
        # cell), and, when rules are dropped, no blocks, whose items cannot
        # be dropped one by one.
        if not text.startswith(".") or not all(re.match(r"^([A-Z][A-Za-z]*)?(~|$)", t) for t in items):
            continue
        if drop and any(t.split("~")[0] in ("Or", "And", "End", "Replicate") for t in items):
            continue
        if only and not any(t.split("~")[0] == only for t in items):
            continue
        rules = [i for i, t in enumerate(items) if t.split("~")[0] not in LAYOUT | {"", "Given"}]
        # The givens of one value: (item, part) in the items `~R1C1_5~...`.
        single = [(i, j) for i, t in enumerate(items) if t.split("~")[0] == ""
                  for j, part in enumerate(t.split("~")) if re.fullmatch(r"R\d+C\d+_\d+", part)]
        for _ in range(variants if len(rules) >= drop and len(single) >= givens else 0):
            gone = set(rng.sample(rules, drop))
            taken = set(rng.sample(single, givens)) if givens else set()
            kept = [t if t.split("~")[0] != "" else "~".join(p for j, p in enumerate(t.split("~")) if (i, j) not in taken)
                    for i, t in enumerate(items) if i not in gone]
            kept = [t for t in kept if t]
            kinds = sorted({t.split("~")[0] for t in kept} - LAYOUT - {"", "Given"})
            out.append((index, entry.get("name", ""), "." + ".".join(kept), kinds))
    return out


def main():
    seed = int(sys.argv[1])
    variants = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    limit = int(sys.argv[3]) if len(sys.argv) > 3 else 1000
    drop = int(sys.argv[4]) if len(sys.argv) > 4 else 1
    givens = int(sys.argv[5]) if len(sys.argv) > 5 else 0
    only = sys.argv[6] if len(sys.argv) > 6 else None
    cases = copies(seed, variants, drop, givens, only)
    tally = Agreement("ISS")
    with tempfile.TemporaryDirectory() as tmp:
        for n, (index, name, text, held) in enumerate(cases):
            path = os.path.join(tmp, f"{index:03d}-{n}.iss")
            with open(path, "w") as f:
                f.write(text + "\n")
            a, b = count_up_to(path, limit, SECONDS), iss_count_up_to(path, limit, SECONDS)
            if a is None or b is None or a == "refused":
                tally.skip("refused by satsudoku" if a == "refused" else "stopped")
            else:
                tally.add(index, name, a, b, text, held)
            tally.progress(n + 1, len(cases))
    tally.report(
        "iss-counts", "satsudoku's counts against ISS's, on ISS's examples with rules taken out",
        f"python3 bench/iss_counts.py {seed} {variants} {limit} {drop} {givens}" + (f" {only}" if only else ""),
        f"{len(cases)} copies of the examples that are lists of items" + (" without blocks" if drop else "")
        + (f" holding {only}" if only else "")
        + f", each with {drop} of its rules and {givens} of its givens taken out at random; counted up to "
        f"{limit} solutions by both, {SECONDS} s each.",
        "The rule types the compared copies held")


if __name__ == "__main__":
    main()
