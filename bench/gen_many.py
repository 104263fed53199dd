#!/usr/bin/env python3
"""Classic 9x9 puzzles with many solutions, for the per-model benchmarks:
givens taken away one at a time, in random order, from minimal puzzles
(bench/gen_minimal.py's output) until tdoku counts between LOW and HIGH
solutions; a puzzle that overshoots HIGH is dropped.

usage: python3 bench/gen_many.py MINIMAL.txt COUNT LOW HIGH SEED TDOKU_SOLVE > puzzles.txt
"""
import random
import subprocess
import sys


def count(tdoku, puzzle, cap):
    out = subprocess.run([tdoku, str(cap)], input=puzzle + "\n", capture_output=True, text=True, check=True)
    return int(out.stdout.split(":")[1])


def main():
    path, want, low, high, seed, tdoku = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), \
        int(sys.argv[5]), sys.argv[6]
    rnd = random.Random(seed)
    minimal = [l.strip() for l in open(path) if l.strip() and not l.startswith("#")]
    print(f"# {want} puzzles with {low}..{high} solutions: bench/gen_many.py {path} {want} {low} {high} {seed}")
    found = 0
    for puzzle in minimal:
        cells = list(puzzle)
        givens = [i for i, c in enumerate(cells) if c not in ".0"]
        rnd.shuffle(givens)
        for i in givens:
            cells[i] = "."
            n = count(tdoku, "".join(cells), high + 1)
            if n > high:
                break
            if n >= low:
                print("".join(cells) + f"\t{n}")
                found += 1
                break
        if found == want:
            return


if __name__ == "__main__":
    main()
