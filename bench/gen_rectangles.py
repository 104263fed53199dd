#!/usr/bin/env python3
"""A 16x16 Sudoku puzzle whose open cells are K disjoint unavoidable rectangles
(four cells in two rows, two columns and two boxes holding a b / b a) of a
shuffled pattern grid: every rectangle fills two ways.

usage: python3 bench/gen_rectangles.py SEED K > puzzle.txt (K on stderr: the rectangles found)
"""
import random, sys
random.seed(int(sys.argv[1])); n=16; b=4
want=int(sys.argv[2]) if len(sys.argv)>2 else 99
pattern=lambda r,c:(b*(r%b)+r//b+c)%n
rows=[g*b+r for g in random.sample(range(b),b) for r in random.sample(range(b),b)]
cols=[g*b+c for g in random.sample(range(b),b) for c in random.sample(range(b),b)]
nums=random.sample(range(1,n+1),n)
g=[nums[pattern(r,c)] for r in rows for c in cols]
rects=[]
for r1 in range(n):
  for r2 in range(r1+1,n):
    for c1 in range(n):
      for c2 in range(c1+1,n):
        a,bb=g[r1*n+c1],g[r1*n+c2]
        if g[r2*n+c1]==bb and g[r2*n+c2]==a:
          boxes={(r//b,c//b) for r in (r1,r2) for c in (c1,c2)}
          if len(boxes)==2: rects.append((r1,r2,c1,c2))
random.shuffle(rects)
used=set(); k=0; out=g[:]
for (r1,r2,c1,c2) in rects:
    if k>=want: break
    cells={r1*n+c1,r1*n+c2,r2*n+c1,r2*n+c2}
    if cells & used: continue
    used|=cells; k+=1
    for x in cells: out[x]=0
sym='123456789ABCDEFG'
print(''.join(sym[d-1] if d else '.' for d in out)); print(k, file=sys.stderr)
