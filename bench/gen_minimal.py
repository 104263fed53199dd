#!/usr/bin/env python3
"""Minimal classic 9x9 puzzles: random solution grids (tdoku's grid for an
empty puzzle, scrambled by validity-preserving symmetries: digit relabelling,
rows within bands, bands, columns within stacks, stacks, transposition), then
givens removed in random order while the puzzle stays unique. Uniqueness is
checked by tdoku (tdoku-solve 2), all puzzles of a round in one call.

usage: python3 bench/gen_minimal.py COUNT SEED TDOKU_SOLVE > puzzles.txt
(build tdoku first: bash ../shared/peers/tdoku/build.sh DIR)
"""
import random
import subprocess
import sys


def counts(tdoku, puzzles):
    """Solutions of each puzzle, up to 2."""
    out = subprocess.run([tdoku, "2"], input="\n".join(puzzles) + "\n", capture_output=True, text=True, check=True)
    return [int(line.split(":")[1]) for line in out.stdout.splitlines()]


def scramble(grid, rnd):
    rows = [grid[9 * r:9 * r + 9] for r in range(9)]
    digits = list("123456789")
    rnd.shuffle(digits)
    relabel = {str(i + 1): d for i, d in enumerate(digits)}
    bands = rnd.sample(range(3), 3)
    order = [3 * b + r for b in bands for r in rnd.sample(range(3), 3)]
    stacks = rnd.sample(range(3), 3)
    cols = [3 * s + c for s in stacks for c in rnd.sample(range(3), 3)]
    new = [[relabel[rows[r][c]] for c in cols] for r in order]
    if rnd.random() < 0.5:
        new = [list(col) for col in zip(*new)]
    return "".join("".join(row) for row in new)


def main():
    count, seed, tdoku = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    rnd = random.Random(seed)
    base = subprocess.run([tdoku, "1"], input="." * 81 + "\n", capture_output=True, text=True, check=True)
    solution = base.stdout.split(":")[2].strip()
    puzzles = [list(scramble(solution, rnd)) for _ in range(count)]
    orders = [rnd.sample(range(81), 81) for _ in range(count)]
    for step in range(81):
        trial = []
        for p, order in zip(puzzles, orders):
            t = list(p)
            t[order[step]] = "."
            trial.append("".join(t))
        for i, n in enumerate(counts(tdoku, trial)):
            if n == 1:
                puzzles[i] = list(trial[i])
    print(f"# {count} minimal puzzles from bench/gen_minimal.py {count} {seed}")
    for p in puzzles:
        print("".join(p))


if __name__ == "__main__":
    main()
