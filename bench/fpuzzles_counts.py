#!/usr/bin/env python3
"""satsudoku's counts against Rangsk's solver's on the published variant
puzzles with rules taken out.

Rangsk's solver (its TypeScript port, ../shared/peers/svsjs) is the solver
f-puzzles and SudokuPad run: it reads the f-puzzles JSON itself, with its
own reading of every key, so where the two count the same puzzle
differently one of them reads it wrongly. The 85 puzzles of
tests/corpus/variants/ have one solution each, which checks little of a
rule; so each is copied VARIANTS times with DROP of its rule items taken
out at random (an element of a constraint's list, such as one cage or one
thermometer, or a rule set true, such as `antiknight`) and GIVENS of its
givens: a copy then has a few to some hundreds of solutions, each of which
every item left must allow. Both count each copy up to LIMIT solutions
(`satsudoku count --max`, the peer's `countSolutions` with `maxSolutions`,
through bench/svs_count.mjs), 20 s each. A copy the peer has a key it does
not read, either side stops on, or satsudoku refuses, is skipped; every
other pair of counts must be equal (both at the limit counts as equal).

Writes bench/results/fpuzzles-counts-DATE.md and exits 1 on a difference.

usage: python3 bench/fpuzzles_counts.py SVS_DIR SEED [VARIANTS] [LIMIT] [DROP] [GIVENS]
  (from the repository root, after cargo build --release and
   `bash ../shared/peers/svsjs/build.sh SVS_DIR`; defaults 3 200 1 0)
"""
import json
import os
import random
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchlib import Agreement, count_up_to  # noqa: E402

HELPER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "svs_count.mjs")
CORPUS = "tests/corpus/variants/puzzles.json"
# Keys that draw or describe and do not constrain (f-puzzles' cosmetic
# elements and settings).
COSMETIC = {"size", "grid", "title", "author", "ruleset", "solution", "successMessage", "truecandidatesoptions",
            "disabledlogic", "highlightConflicts", "onlyUseJSONForPuzzleCheck", "circle", "line", "text",
            "rectangle", "cage", "arrowhead"}
SECONDS = 20


def items(board):
    """The rule items of an f-puzzles object: (key, None) for a rule set
    true, (key, i) for the i-th element of a constraint's list."""
    out = []
    for key, value in board.items():
        if key in COSMETIC:
            continue
        if value is True:
            out.append((key, None))
        elif isinstance(value, list):
            out += [(key, i) for i in range(len(value))]
    return out


def copies(svs_dir, seed, variants, drop, givens):
    """(index, title, f-puzzles object, the keys it holds) of each copy."""
    rng = random.Random(seed)
    boards = json.loads(subprocess.run(["node", HELPER, svs_dir, "decode", CORPUS], capture_output=True,
                                       text=True, check=True).stdout)
    titles = [e["title"] for e in json.load(open(CORPUS))]
    out = []
    for index, board in enumerate(boards):
        rules = items(board)
        cells = [(r, c) for r, row in enumerate(board["grid"]) for c, cell in enumerate(row) if "value" in cell]
        if len(rules) < drop or len(cells) < givens:
            continue
        for _ in range(variants):
            copy = json.loads(json.dumps(board))
            gone = rng.sample(rules, drop)
            for key, i in gone:
                if i is None:
                    copy[key] = False
            for key in {k for k, i in gone if i is not None}:
                copy[key] = [x for i, x in enumerate(copy[key]) if (key, i) not in gone]
            for r, c in rng.sample(cells, givens):
                copy["grid"][r][c].pop("value")
                copy["grid"][r][c].pop("given", None)
            out.append((index, titles[index], copy, sorted({k for k, _ in items(copy)})))
    return out


def peer(svs_dir, boards, limit, tmp):
    """Per copy: an int, "limit", "ignores KEYS" or None (stopped, or an error)."""
    path = os.path.join(tmp, "copies.json")
    with open(path, "w") as f:
        json.dump(boards, f)
    out = subprocess.run(["node", HELPER, svs_dir, "count", str(limit), str(SECONDS), path], capture_output=True,
                         text=True).stdout
    counts = {}
    for line in out.splitlines():
        index, count, ignored = (line.split("\t") + [""])[:3]
        if ignored:
            counts[int(index)] = "ignores " + ignored
        elif count == "invalid":
            counts[int(index)] = 0
        elif count.isdigit():
            counts[int(index)] = "limit" if int(count) >= limit else int(count)
    return [counts.get(i) for i in range(len(boards))]


def main():
    svs_dir, seed = sys.argv[1], int(sys.argv[2])
    numbers = [int(a) for a in sys.argv[3:7]]
    variants, limit, drop, givens = numbers + [3, 200, 1, 0][len(numbers):]
    cases = copies(svs_dir, seed, variants, drop, givens)
    tally = Agreement("peer")
    with tempfile.TemporaryDirectory() as tmp:
        theirs = peer(svs_dir, [board for _, _, board, _ in cases], limit, tmp)
        for n, ((index, title, board, held), b) in enumerate(zip(cases, theirs)):
            path = os.path.join(tmp, f"{index:02d}-{n}.json")
            with open(path, "w") as f:
                json.dump(board, f)
            a = count_up_to(path, limit, SECONDS)
            if str(b).startswith("ignores"):
                tally.skip("a key the peer does not read")
            elif a is None or b is None or a == "refused":
                tally.skip("refused by satsudoku" if a == "refused" else "stopped")
            else:
                tally.add(index, title, a, b, json.dumps(board, separators=(",", ":")), held)
            tally.progress(n + 1, len(cases))
    tally.report(
        "fpuzzles-counts",
        "satsudoku's counts against Rangsk's solver's, on the published variant puzzles with rules taken out",
        f"python3 bench/fpuzzles_counts.py SVS_DIR {seed} {variants} {limit} {drop} {givens}",
        f"{len(cases)} copies of the {CORPUS} puzzles, each with {drop} of its rule items and {givens} of its "
        f"givens taken out at random; counted up to {limit} solutions by both, {SECONDS} s each.",
        "The f-puzzles keys the compared copies held")


if __name__ == "__main__":
    main()
