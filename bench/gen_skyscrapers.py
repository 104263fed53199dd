#!/usr/bin/env python3
"""Skyscraper-heavy 9x9 puzzles, the slow case of issue 39: a random
solution grid (Python backtracking, seeded), the skyscraper clue of every
edge of it computed, KEEP of the 36 kept at random, three renban lines
taken from the grid (three cells of a row or column whose digits are
consecutive), and GIVENS cells of the grid given. Each puzzle's published solution is the grid, so
it has at least one; `satsudoku unique` says whether it has one only.

usage: python3 bench/gen_skyscrapers.py COUNT SEED KEEP GIVENS DIR
"""
import os
import random
import sys


def grid(rnd):
    g = [0] * 81

    def ok(i, d):
        r, c = divmod(i, 9)
        for k in range(9):
            if g[r * 9 + k] == d or g[k * 9 + c] == d:
                return False
        br, bc = r - r % 3, c - c % 3
        return all(g[(br + a) * 9 + bc + b] != d for a in range(3) for b in range(3))

    def fill(i):
        if i == 81:
            return True
        digits = list(range(1, 10))
        rnd.shuffle(digits)
        for d in digits:
            if ok(i, d):
                g[i] = d
                if fill(i + 1):
                    return True
                g[i] = 0
        return False

    fill(0)
    return g


def seen(line):
    tallest, count = 0, 0
    for d in line:
        if d > tallest:
            tallest, count = d, count + 1
    return count


def main():
    count, seed, keep, given, out = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
    rnd = random.Random(seed)
    os.makedirs(out, exist_ok=True)
    for k in range(count):
        g = grid(rnd)
        rows = [[g[r * 9 + c] for c in range(9)] for r in range(9)]
        cols = [[g[r * 9 + c] for r in range(9)] for c in range(9)]
        clues = []
        for i in range(9):
            clues.append((f"r0c{i + 1}", seen(cols[i])))
            clues.append((f"r10c{i + 1}", seen(cols[i][::-1])))
            clues.append((f"r{i + 1}c0", seen(rows[i])))
            clues.append((f"r{i + 1}c10", seen(rows[i][::-1])))
        rnd.shuffle(clues)
        lines = []
        tries = 0
        while len(lines) < 3 and tries < 10000:
            tries += 1
            r, c = rnd.randrange(9), rnd.randrange(7)
            cells = [(r, c), (r, c + 1), (r, c + 2)] if rnd.random() < 0.5 else [(c, r), (c + 1, r), (c + 2, r)]
            digits = sorted(g[a * 9 + b] for a, b in cells)
            if digits[2] - digits[0] == 2:
                lines.append(" ".join(f"r{a + 1}c{b + 1}" for a, b in cells))
        with open(os.path.join(out, f"sky{k + 1:02d}.puzzle"), "w") as f:
            f.write(f"# bench/gen_skyscrapers.py {count} {seed} {keep} {given}: puzzle {k + 1}\n")
            f.write("# solution " + "".join(map(str, g)) + "\n")
            f.write("size 9\n")
            cells = set(rnd.sample(range(81), given))
            f.write("givens\n")
            for r in range(9):
                f.write("".join(str(g[r * 9 + c]) if r * 9 + c in cells else "." for c in range(9)) + "\n")
            for at, n in sorted(clues[:keep]):
                f.write(f"skyscraper {at} = {n}\n")
            for line in lines:
                f.write(f"renban {line}\n")


if __name__ == "__main__":
    main()
