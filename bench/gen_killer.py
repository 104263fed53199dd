#!/usr/bin/env python3
"""Random killer Sudoku puzzles for measuring cage propagation: a random
9x9 grid (the pattern grid shuffled by digits, bands, stacks, rows and
columns, maybe transposed), cut into connected cages of 1 to MAXSIZE cells
with distinct digits, each with its sum; most single-cell cages and a
DROP share of the others left out (no givens). Prints the native format.

usage: python3 bench/gen_killer.py SEED MAXSIZE DROP
  (design-notes.md's cage row: seeds 1..30, MAXSIZE 5, DROP 0.3)
"""
import random, sys
def grid(rng):
    base = [[(3*(r%3) + r//3 + c) % 9 for c in range(9)] for r in range(9)]
    digits = list(range(1,10)); rng.shuffle(digits)
    bands = [0,1,2]; rng.shuffle(bands)
    rows = [b*3 + r for b in bands for r in rng.sample(range(3),3)]
    stacks = [0,1,2]; rng.shuffle(stacks)
    cols = [s*3 + c for s in stacks for c in rng.sample(range(3),3)]
    g = [[digits[base[r][c]] for c in cols] for r in rows]
    if rng.random() < 0.5: g = [list(x) for x in zip(*g)]
    return g
def cages(rng, g, maxsize):
    owner = {}
    cells = [(r,c) for r in range(9) for c in range(9)]
    rng.shuffle(cells)
    out = []
    for cell in cells:
        if cell in owner: continue
        size = rng.randint(1, maxsize)
        cage = [cell]; owner[cell] = len(out); used = {g[cell[0]][cell[1]]}
        while len(cage) < size:
            frontier = [(r+dr,c+dc) for (r,c) in cage for dr,dc in ((0,1),(1,0),(0,-1),(-1,0))
                        if 0<=r+dr<9 and 0<=c+dc<9 and (r+dr,c+dc) not in owner and g[r+dr][c+dc] not in used]
            if not frontier: break
            n = rng.choice(frontier); cage.append(n); owner[n] = len(out); used.add(g[n[0]][n[1]])
        out.append(cage)
    return out
seed, maxsize = int(sys.argv[1]), int(sys.argv[2]); DROP=float(sys.argv[3])
rng = random.Random(seed)
g = grid(rng)
print("size 9")
for cage in cages(rng, g, maxsize):
    if (len(cage) == 1 and rng.random() < 0.7) or rng.random() < DROP:
        # drop most single cells: no given there
        continue
    print("killer " + " ".join(f"r{r+1}c{c+1}" for r,c in cage) + f" = {sum(g[r][c] for r,c in cage)}")
