/* The practical floor: a hand-written bitset backtracking counter for contest
 * instances (LP facts), used by bench/peers.py as the fastest thing a user could
 * write for this one puzzle. Cells in row-major order; each cell's candidates are
 * the digits free in its row, column and box that also satisfy the sum relations
 * with its already-filled left and upper neighbours.
 *
 * usage: floor FILE.lp...   prints FILE<TAB>solutions(S). per file (one file: solutions(S).)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int left_rel[81], up_rel[81];   /* 2 = none, else -1/0/1 */
static unsigned rows[9], cols[9], boxes[9];
static int grid[81];
static unsigned long long count;

static const int adj_pairs[6][2] = {{0, 1}, {1, 2}, {3, 4}, {4, 5}, {6, 7}, {7, 8}};

static int ok(int sym, int a, int b) {
    int s = a + b;
    return sym == 2 || (sym < 0 ? s < 10 : sym == 0 ? s == 10 : s > 10);
}

static void search(int i) {
    if (i == 81) { count++; return; }
    int r = i / 9, c = i % 9, b = r / 3 * 3 + c / 3;
    unsigned free = ~(rows[r] | cols[c] | boxes[b]) & 0x3FE;
    while (free) {
        int d = __builtin_ctz(free);
        free &= free - 1;
        if (!ok(left_rel[i], grid[i - (c > 0)], d) || !ok(up_rel[i], grid[i - 9 * (r > 0)], d)) continue;
        unsigned bit = 1u << d;
        rows[r] |= bit; cols[c] |= bit; boxes[b] |= bit; grid[i] = d;
        search(i + 1);
        rows[r] &= ~bit; cols[c] &= ~bit; boxes[b] &= ~bit;
    }
}

static int load(const char *path) {
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    for (int i = 0; i < 81; i++) left_rel[i] = up_rel[i] = 2;
    char line[512];
    int row_of_line[16] = {0}, r = 0, v = 0, vert_top[16] = {0};
    for (int l = 1; l <= 15; l++) {
        if (l == 2 || l == 4 || l == 7 || l == 9 || l == 12 || l == 14) vert_top[l] = adj_pairs[v++][0];
        else row_of_line[l] = r++;
    }
    int seen = 0;
    while (fgets(line, sizeof line, f)) {
        int n, s[9];
        if (sscanf(line, " row(%d,%d,%d,%d,%d,%d,%d)", &n, &s[0], &s[1], &s[2], &s[3], &s[4], &s[5]) == 7) {
            for (int k = 0; k < 6; k++) left_rel[row_of_line[n] * 9 + adj_pairs[k][1]] = s[k];
            seen++;
        } else if (sscanf(line, " vertical(%d,%d,%d,%d,%d,%d,%d,%d,%d,%d)", &n, &s[0], &s[1], &s[2], &s[3], &s[4],
                          &s[5], &s[6], &s[7], &s[8]) == 10) {
            for (int k = 0; k < 9; k++) up_rel[(vert_top[n] + 1) * 9 + k] = s[k];
            seen++;
        }
    }
    fclose(f);
    return seen == 15;
}

int main(int argc, char **argv) {
    for (int a = 1; a < argc; a++) {
        if (!load(argv[a])) { fprintf(stderr, "floor: cannot read %s\n", argv[a]); return 2; }
        memset(rows, 0, sizeof rows); memset(cols, 0, sizeof cols); memset(boxes, 0, sizeof boxes);
        count = 0;
        search(0);
        if (argc > 2) printf("%s\t", argv[a]);
        printf("solutions(%llu).\n", count);
    }
    return 0;
}
