#!/usr/bin/env python3
"""Generate contest instances (LP facts) with known-satisfiable symbols.

Derives the 15 symbol lines from a random valid 9x9 grid (so the instance has
at least one solution), then anneals on the grid. A move keeps the grid valid
but changes sums, hence symbols: swapping two digit labels, two rows of a band
or two columns of a stack, or (most often) a digit cycle, which swaps the
cells of two rows of a band column by column along the cycle of digits they
exchange (or the same on two columns of a stack). The symmetry moves alone got
stuck near 10^2 solutions, because they keep the grid's structure; the cycles
change it. A move is kept when the derived instance's count (`satsudoku count
--max MAX+1`) does not drop, or, with `--temperature T`, with probability
exp(log(new/old) / t) as t falls linearly from T to 0. Stops once the count
is in [MIN, MAX]. With `--start FILE.lp`, the anneal starts from a solution
of that instance (whose symbols are the instance's) instead of a random grid,
to climb on from the best instance found so far.

usage: gen_instances.py SEED MIN MAX [--temperature T] [--steps N] [--start FILE.lp] [--binary PATH] > instance.lp
"""
import argparse
import math
import random
import subprocess
import sys

ADJ = [(0, 1), (1, 2), (3, 4), (4, 5), (6, 7), (7, 8)]
VERTICAL = {2, 4, 7, 9, 12, 14}


def pairs():
    lines, row, vert = [], 0, 0
    for line in range(1, 16):
        if line in VERTICAL:
            top, bottom = ADJ[vert]
            lines.append([((top, c), (bottom, c)) for c in range(9)])
            vert += 1
        else:
            lines.append([((row, a), (row, b)) for a, b in ADJ])
            row += 1
    return lines


def random_grid(rng):
    grid = [0] * 81

    def fill(i):
        if i == 81:
            return True
        r, c = divmod(i, 9)
        digits = list(range(1, 10))
        rng.shuffle(digits)
        for d in digits:
            if any(grid[r * 9 + k] == d or grid[k * 9 + c] == d for k in range(9)):
                continue
            br, bc = r // 3 * 3, c // 3 * 3
            if any(grid[(br + k // 3) * 9 + bc + k % 3] == d for k in range(9)):
                continue
            grid[i] = d
            if fill(i + 1):
                return True
            grid[i] = 0
        return False

    fill(0)
    return grid


def mutate(grid, rng):
    """A valid grid near `grid`: swap two digit labels, two rows of a band, or
    two columns of a stack."""
    move = rng.randrange(3)
    k = rng.randrange(3)
    i, j = rng.sample(range(3), 2)
    if move == 0:
        a, b = rng.sample(range(1, 10), 2)
        return [b if d == a else a if d == b else d for d in grid]
    rows = [grid[r * 9:(r + 1) * 9] for r in range(9)]
    if move == 1:
        rows[3 * k + i], rows[3 * k + j] = rows[3 * k + j], rows[3 * k + i]
    else:
        for row in rows:
            row[3 * k + i], row[3 * k + j] = row[3 * k + j], row[3 * k + i]
    return [d for row in rows for d in row]


def cycle(grid, rng):
    """Two rows of a band (or, transposed, two columns of a stack) exchange
    the digits of a closed cycle: start at a column, swap the two cells, then
    go to the column where the first row now holds its digit twice, until the
    cycle closes. Rows keep their digits; columns and boxes only swap cells
    within themselves."""
    g = list(grid)
    transpose = rng.random() < 0.5
    if transpose:
        g = [g[c * 9 + r] for r in range(9) for c in range(9)]
    band = rng.randrange(3)
    r1, r2 = (3 * band + i for i in rng.sample(range(3), 2))
    c = rng.randrange(9)
    start = g[r1 * 9 + c]
    while True:
        g[r1 * 9 + c], g[r2 * 9 + c] = g[r2 * 9 + c], g[r1 * 9 + c]
        if g[r1 * 9 + c] == start:
            break
        c = next(k for k in range(9) if k != c and g[r1 * 9 + k] == g[r1 * 9 + c])
    if transpose:
        g = [g[c * 9 + r] for r in range(9) for c in range(9)]
    return g


def valid(grid):
    units = [[r * 9 + c for c in range(9)] for r in range(9)]
    units += [[r * 9 + c for r in range(9)] for c in range(9)]
    units += [[(b // 3 * 3 + i // 3) * 9 + b % 3 * 3 + i % 3 for i in range(9)] for b in range(9)]
    return all(sorted(grid[i] for i in unit) == list(range(1, 10)) for unit in units)


def symbols_of(grid):
    out = []
    for line in pairs():
        s = []
        for (r1, c1), (r2, c2) in line:
            total = grid[r1 * 9 + c1] + grid[r2 * 9 + c2]
            s.append(-1 if total < 10 else (0 if total == 10 else 1))
        out.append(s)
    return out


def to_lp(symbols):
    return "".join(
        f"{'vertical' if len(s) == 9 else 'row'}({i + 1},{','.join(map(str, s))}).\n"
        for i, s in enumerate(symbols)
    )


def count(binary, symbols, cap):
    out = subprocess.run(
        [binary, "count", "-", "--max", str(cap), "--relation", "support", "--engine", "enum", "--jobs", "1"],
        input=to_lp(symbols), capture_output=True, text=True,
    )
    if out.returncode not in (0, 3):
        sys.exit(f"satsudoku failed: {out.stderr}")
    return int(out.stdout.strip()[len("solutions("):-2])


def first_solution(binary, path):
    """The first solution satsudoku prints for the instance at `path`."""
    out = subprocess.run([binary, "count", "--print", "--max", "1", path], capture_output=True, text=True)
    rows = [line for line in out.stdout.splitlines() if line.startswith("solution(")]
    if out.returncode not in (0, 3) or len(rows) != 9:
        sys.exit(f"no solution of {path}: {out.stderr}")
    return [int(d) for row in rows for d in row[row.index("[") + 1:row.index("]")].split(",")]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("seed", type=int)
    ap.add_argument("min", type=int)
    ap.add_argument("max", type=int)
    ap.add_argument("--binary", default="target/release/satsudoku")
    ap.add_argument("--steps", type=int, default=3000)
    ap.add_argument("--temperature", type=float, default=0.0)
    ap.add_argument("--start")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    grid = first_solution(args.binary, args.start) if args.start else random_grid(rng)
    assert valid(grid), "the start is not a grid"
    current = count(args.binary, symbols_of(grid), args.max + 1)
    for step in range(args.steps):
        if args.min <= current <= args.max:
            break
        trial = cycle(grid, rng) if rng.random() < 0.7 else mutate(grid, rng)
        assert valid(trial), "a move broke the grid"
        c = count(args.binary, symbols_of(trial), args.max + 1)
        if c > args.max:
            continue
        t = args.temperature * (1 - step / args.steps)
        if c >= current or (t > 0 and rng.random() < math.exp(math.log(c / current) / t)):
            grid, current = trial, c
    symbols = symbols_of(grid)
    flags = f" --temperature {args.temperature}" if args.temperature else ""
    flags += f" --steps {args.steps}" + (f" --start {args.start}" if args.start else "")
    print(f"% generated by bench/gen_instances.py {args.seed} {args.min} {args.max}{flags}: {current} solutions")
    sys.stdout.write(to_lp(symbols))


if __name__ == "__main__":
    main()
