#!/usr/bin/env python3
"""HoDoKu's rating of classic 9x9 puzzles, through its Python port
hodoku-py (GPL-3.0; run here as a separate program, never linked into or
copied into satsudoku): one line per puzzle, PUZZLE<TAB>LEVEL<TAB>SCORE,
LEVEL one of easy, medium, hard, unfair, extreme.

usage: python3 bench/hodoku_rate.py < puzzles.txt > rated.tsv
(pip install hodoku-py)
"""
import sys

from hodoku import Solver


def main():
    solver = Solver()
    for line in sys.stdin:
        puzzle = line.strip()
        if len(puzzle) != 81 or puzzle.startswith("#"):
            continue
        rating = solver.rate(puzzle)
        print(f"{puzzle}\t{rating.level.name.lower()}\t{rating.score}", flush=True)


if __name__ == "__main__":
    main()
