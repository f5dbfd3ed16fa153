/*
 * Move generation: cross-sets, the GADDAG walk over the KWG nodes (read in
 * place from the configuration), a call's setup, exchanges and the order
 * of plays. tilebag/engine/movegen/generator.py is the reference, step for step.
 *
 * Nothing is allocated per node, per step or per play: plays are written
 * into the generator's reusable array and copied once into the result.
 * Cross-sets are kept by their cross word from one search to the next
 * (rollouts start from one board), and the walk's bit counts use the
 * processor's popcount where it has one (WALK_CLONES).
 */
#include "core.h"

INTERNAL void gen_init(Gen *g, const Config *c) {
    memset(g, 0, sizeof *g);
    g->cfg = c;
    g->nodes = c->nodes;
    g->letters_from = c->letters_from;
    g->narrow = c->narrow;
    g->scores = c->scores;
    g->board = g->board_copy;
    g->blank_mask = ALL_LETTERS;
}

INTERNAL void gen_free(Gen *g) {
    PyMem_RawFree(g->found);
    PyMem_RawFree(g->leave_values);
    PyMem_RawFree(g->bounds);
    PyMem_RawFree(g->filter);
    PyMem_RawFree(g->cross_memo);
    PyMem_RawFree(g->leave_memo);
    g->leave_memo = NULL;
    Py_CLEAR(g->leave_model);
    g->found = NULL;
    g->leave_values = NULL;
    g->bounds = NULL;
    g->filter = NULL;
    g->cross_memo = NULL;
}

/* ---- cross-sets -------------------------------------------------------------- */

/* The node for `tile` in the sibling list at `arc`, or -1. */
static inline Py_ssize_t seek(const uint32_t *nodes, uint32_t arc, int tile) {
    if (!arc) return -1;
    for (;;) {
        uint32_t value = nodes[arc];
        int found = (int)(value >> TILE_SHIFT);
        if (found == tile) return (Py_ssize_t)arc;
        if (found > tile || (value & IS_END)) return -1;
        arc++;
    }
}

/* The node reached by the last of `tiles` from the sibling list at `arc`
   (-1 when there is none or `n` is 0). */
static Py_ssize_t walk(const Config *c, uint32_t arc, const uint8_t *tiles, int n) {
    Py_ssize_t node = -1;
    for (int i = 0; i < n; i++) {
        node = seek(c->nodes, arc, tiles[i]);
        if (node < 0) return -1;
        arc = c->nodes[node] & ARC_MASK;
    }
    return node;
}

/* Letters x for which before + x + after is a word. */
INTERNAL uint64_t cross_set(const Config *c, const uint8_t *before, int nb, const uint8_t *after, int na) {
    uint64_t mask = 0;
    const uint32_t *nodes = c->nodes;
    uint8_t reversed[MAX_LANE];
    if (!na) {
        uint32_t arc;
        if (!nb) {
            arc = c->dawg_root;
        } else {
            Py_ssize_t node = walk(c, c->dawg_root, before, nb);
            arc = node >= 0 ? (nodes[node] & ARC_MASK) : 0;
        }
        if (!arc) return 0;
        for (uint32_t i = arc;; i++) {
            if (nodes[i] & ACCEPTS) mask |= (uint64_t)1 << (nodes[i] >> TILE_SHIFT);
            if (nodes[i] & IS_END) break;
        }
        return mask;
    }
    for (int i = 0; i < na; i++) reversed[i] = after[na - 1 - i];
    Py_ssize_t node = walk(c, c->gaddag_root, reversed, na);
    uint32_t arc = node >= 0 ? (nodes[node] & ARC_MASK) : 0;
    if (!arc) return 0;
    uint8_t rbefore[MAX_LANE];
    for (int i = 0; i < nb; i++) rbefore[i] = before[nb - 1 - i];
    for (uint32_t i = arc;; i++) {
        uint32_t value = nodes[i];
        int letter = (int)(value >> TILE_SHIFT);
        if (letter) {
            if (!nb) {
                if (value & ACCEPTS) mask |= (uint64_t)1 << letter;
            } else {
                Py_ssize_t end = walk(c, value & ARC_MASK, rbefore, nb);
                if (end >= 0 && (nodes[end] & ACCEPTS)) mask |= (uint64_t)1 << letter;
            }
        }
        if (value & IS_END) break;
    }
    return mask;
}

/* A hash of a cross word, never 0 (an empty memo entry). */
INTERNAL uint64_t cross_key(const uint8_t *before, int nb, const uint8_t *after, int na) {
    uint64_t key = 0xCBF29CE484222325ull;
    for (int i = 0; i < nb; i++) key = (key ^ before[i]) * 0x100000001B3ull;
    key = (key ^ 0xFF) * 0x100000001B3ull;
    for (int i = 0; i < na; i++) key = (key ^ after[i]) * 0x100000001B3ull;
    key ^= (uint64_t)nb << 40 | (uint64_t)na << 48;
    return mix64(key) | 1;
}

static uint64_t kept_cross_set(Gen *g, const uint8_t *before, int nb, const uint8_t *after, int na) {
    if (!g->cross_memo) g->cross_memo = PyMem_RawCalloc(CROSS_MEMO, sizeof *g->cross_memo); /* raw: searches may run without the interpreter's lock */
    if (!g->cross_memo) return cross_set(g->cfg, before, nb, after, na); /* no memory: worked out each time */
    uint64_t key = cross_key(before, nb, after, na);
    CrossMemo *memo = &g->cross_memo[key & (CROSS_MEMO - 1)];
    if (memo->key != key) {
        memo->key = key;
        memo->mask = cross_set(g->cfg, before, nb, after, na);
    }
    return memo->mask;
}

/* The cross-set and cross-score of square `s` for plays in one direction
   (the cross word runs the other way), from g->board. */
static inline void cross_of(Gen *g, int down, int s) {
    const Config *c = g->cfg;
    int rows = c->rows, cols = c->cols;
    const uint8_t *b = g->board;
    uint8_t before[MAX_LANE], after[MAX_LANE];
    g->masks[down][s] = 0;
    g->cross[down][s] = NO_CROSS;
    if (b[s]) return;
    int r = s / cols, col = s % cols;
    int nb = 0, na = 0, sum = 0;
    if (!down) { /* cross word is vertical */
        int k = r - 1;
        while (k >= 0 && b[k * cols + col]) k--;
        for (int j = k + 1; j < r; j++) { uint8_t t = b[j * cols + col]; before[nb++] = t & ~BLANK_BIT; sum += tile_face(c, t); }
        for (int j = r + 1; j < rows && b[j * cols + col]; j++) { uint8_t t = b[j * cols + col]; after[na++] = t & ~BLANK_BIT; sum += tile_face(c, t); }
    } else {      /* cross word is horizontal */
        int k = col - 1;
        while (k >= 0 && b[r * cols + k]) k--;
        for (int j = k + 1; j < col; j++) { uint8_t t = b[r * cols + j]; before[nb++] = t & ~BLANK_BIT; sum += tile_face(c, t); }
        for (int j = col + 1; j < cols && b[r * cols + j]; j++) { uint8_t t = b[r * cols + j]; after[na++] = t & ~BLANK_BIT; sum += tile_face(c, t); }
    }
    if (!nb && !na) {
        g->masks[down][s] = ALL_LETTERS;
        return;
    }
    g->cross[down][s] = sum;
    g->masks[down][s] = kept_cross_set(g, before, nb, after, na);
}

/* Cross-sets of every empty square for plays in one direction: the cross
   word runs the other way. */
INTERNAL void compute_cross(Gen *g, int down) {
    for (int s = 0; s < g->cfg->size; s++) cross_of(g, down, s);
}

INTERNAL void cross_square(Gen *g, int down, int s) { cross_of(g, down, s); }

/* ---- the order of plays ------------------------------------------------------- */

/* Sorting all plays moves small keys, not whole plays: the equity and score
   settle almost every comparison, the play itself the rest. */
typedef struct SortKey {
    Milli equity;
    int score;
    uint32_t place; /* kind, direction, row, column: the next ties, in one number */
    const Found *found;
    Py_ssize_t index;
} SortKey;

static inline int key_before(const SortKey *x, const SortKey *y) {
    if (x->equity != y->equity) return x->equity > y->equity;
    if (x->score != y->score) return x->score > y->score;
    if (x->place != y->place) return x->place < y->place;
    return compare_found(x->found, y->found) < 0;
}

/* Quicksort (median of three, insertion sort for short runs), with the
   comparison inlined: no two plays are equal, so the order is total. */
static void sort_keys(SortKey *keys, Py_ssize_t n) {
    while (n > 16) {
        Py_ssize_t mid = n / 2, last = n - 1;
        if (key_before(&keys[mid], &keys[0])) { SortKey t = keys[mid]; keys[mid] = keys[0]; keys[0] = t; }
        if (key_before(&keys[last], &keys[0])) { SortKey t = keys[last]; keys[last] = keys[0]; keys[0] = t; }
        if (key_before(&keys[last], &keys[mid])) { SortKey t = keys[last]; keys[last] = keys[mid]; keys[mid] = t; }
        SortKey pivot = keys[mid];
        Py_ssize_t i = 0, j = last;
        for (;;) {
            while (key_before(&keys[i], &pivot)) i++;
            while (key_before(&pivot, &keys[j])) j--;
            if (i >= j) break;
            SortKey t = keys[i]; keys[i] = keys[j]; keys[j] = t;
            i++;
            j--;
        }
        /* recurse into the smaller side, loop on the larger */
        Py_ssize_t left = j + 1;
        if (left < n - left) {
            sort_keys(keys, left);
            keys += left;
            n -= left;
        } else {
            sort_keys(keys + left, n - left);
            n = left;
        }
    }
    for (Py_ssize_t i = 1; i < n; i++) {
        SortKey t = keys[i];
        Py_ssize_t j = i;
        while (j > 0 && key_before(&t, &keys[j - 1])) { keys[j] = keys[j - 1]; j--; }
        keys[j] = t;
    }
}

INTERNAL int sorted_plays(const Gen *g, Found *out, Py_ssize_t n) {
    if (g->top || g->found_count < 2) { /* kept in order already */
        if (n) memcpy(out, g->found, (size_t)n * sizeof(Found)); /* none found: `found` may be NULL */
        return 0;
    }
    SortKey *keys = PyMem_RawMalloc((size_t)g->found_count * sizeof(SortKey));
    if (!keys) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < g->found_count; i++) {
        const Found *f = &g->found[i];
        int row = f->down ? f->start : f->lane, col = f->down ? f->lane : f->start;
        keys[i].equity = f->equity;
        keys[i].score = f->score;
        keys[i].place = (uint32_t)f->kind << 24 | (uint32_t)f->down << 16 | (uint32_t)row << 8 | (uint32_t)col;
        keys[i].index = i;
        keys[i].found = f;
    }
    sort_keys(keys, g->found_count);
    for (Py_ssize_t i = 0; i < n; i++) out[i] = g->found[keys[i].index];
    PyMem_RawFree(keys);
    return 0;
}

static int grow_found(Gen *g) {
    if (g->fixed_found) { g->failed = 1; return -1; }
    Py_ssize_t cap = g->found_cap ? g->found_cap * 2 : 1024;
    Found *grown = PyMem_RawRealloc(g->found, (size_t)cap * sizeof(Found));
    if (!grown) { PyErr_NoMemory(); g->failed = 1; return -1; }
    g->found = grown;
    g->found_cap = cap;
    return 0;
}

/* Keep a play: appended (all plays), or inserted in order among the best
   `top` (dropped when it does not make it). */
INTERNAL void keep(Gen *g, const Found *f) {
    if (g->top > 0) {
        Py_ssize_t n = g->found_count;
        if (n == g->top) {
            if (compare_found(f, &g->found[n - 1]) >= 0) return;
            n--;
        }
        Py_ssize_t i = n;
        while (i > 0 && compare_found(f, &g->found[i - 1]) < 0) i--;
        memmove(&g->found[i + 1], &g->found[i], (size_t)(n - i) * sizeof(Found));
        g->found[i] = *f;
        g->found_count = n + 1;
        return;
    }
    if (g->found_count == g->found_cap && grow_found(g) < 0) return;
    g->found[g->found_count++] = *f;
}

/* ---- the GADDAG walk -------------------------------------------------------------- */

static void record(Gen *g, int start, int end, int main_score, int wmul, int cross, int count) {
    if (g->failed || count < g->min_tiles) return;
    if (g->need_blank && g->counts[0] == g->need_blank) return; /* a play with no blank, searched apart */
    if (count < g->all_tiles) return;
    if (count == 1 && g->down) {
        for (int i = start; i <= end; i++)
            if (g->placed[i] && g->lcross[i] != NO_CROSS) return;
    }
    const Config *c = g->cfg;
    int score = main_score * wmul + cross;
    if (count >= c->bingo_tiles) score += c->bingo_bonus;
    if (g->valued) {
        Milli equity = (Milli)score * 1000 + g->leave_values[g->used];
        Found *f, candidate;
        if (g->top > 0) {
            if (g->found_count == g->top && equity < g->found[g->found_count - 1].equity) return;
            f = &candidate;
        } else {
            if (g->found_count == g->found_cap && grow_found(g) < 0) return;
            f = &g->found[g->found_count]; /* written in place, kept below */
        }
        f->equity = equity;
        f->score = score;
        f->kind = PLACE;
        f->down = (uint8_t)g->down;
        f->start = (uint8_t)start;
        f->lane = (uint8_t)g->lane;
        f->len = (uint8_t)(end - start + 1);
        memcpy(f->tiles, g->placed + start, f->len);
        if (g->top > 0) keep(g, f);
        else g->found_count++;
        return;
    }
    PyObject *tiles = PyBytes_FromStringAndSize((const char *)g->placed + start, end - start + 1);
    if (!tiles) { g->failed = 1; return; }
    PyObject *item = Py_BuildValue("(iiONi)", start, g->lane, g->down ? Py_True : Py_False, tiles, score);
    if (!item || PyList_Append(g->out, item) < 0) g->failed = 1;
    Py_XDECREF(item);
}

enum { LEFT = 0, RIGHT = 1 };

WALK_CLONES
static void next_square(Gen *g, int phase, int pos, Py_ssize_t node, int main_score, int wmul, int cross, int count,
                        int anchor, int other);

/* The walk is one recursive function, next_square: placing a tile and
   stepping onto a square are inlined into it (a call less per node, and a
   tenth of the search's time). */
#if defined(__GNUC__) || defined(__clang__)
#define WALK_INLINE inline __attribute__((always_inline))
#elif defined(_MSC_VER)
#define WALK_INLINE __forceinline
#else
#define WALK_INLINE inline
#endif

/* Put a rack tile on the empty square `pos`, choosing among the arcs of the
   sibling list at `arc`. */
static WALK_INLINE void place(Gen *g, int phase, int pos, uint32_t arc, int main_score, int wmul, int cross, int count, int anchor,
                  int other) {
    if (count >= g->rack_size) return;
    int blanks = g->counts[0];
    uint64_t usable = g->lmask[pos] & (blanks ? g->held | g->blank_mask : g->held);
    if (!usable) return;
    int lm = g->lm[pos], wm = g->wm[pos], cs = g->lcross[pos];
    uint64_t present = letters_at(g, arc);
    /* only the arcs for letters both present and usable, found by counting
       the letters before each in the list */
    for (uint64_t wanted = present & usable; wanted; wanted &= wanted - 1) {
        int letter = __builtin_ctzll(wanted);
        uint32_t index = arc_for(arc, present, letter);
        {
            if (g->counts[letter]) {
                if (--g->counts[letter] == 0) g->held ^= (uint64_t)1 << letter;
                g->used += g->tile_stride[letter];
                g->placed[pos] = (uint8_t)letter;
                int points = g->scores[letter] * lm;
                next_square(g, phase, pos, index, main_score + points, wmul * wm,
                            cross + (cs != NO_CROSS ? (cs + points) * wm : 0), count + 1, anchor, other);
                g->used -= g->tile_stride[letter];
                if (g->counts[letter]++ == 0) g->held ^= (uint64_t)1 << letter;
            }
            if (blanks && ((g->blank_mask >> letter) & 1)) {
                g->counts[0]--;
                g->used += g->tile_stride[0];
                g->placed[pos] = (uint8_t)(letter | BLANK_BIT);
                next_square(g, phase, pos, index, main_score, wmul * wm, cross + (cs != NO_CROSS ? cs * wm : 0),
                            count + 1, anchor, other);
                g->used -= g->tile_stride[0];
                g->counts[0]++;
            }
            g->placed[pos] = 0;
        }
    }
}

/* Cover square `pos`: through its tile, or with a rack tile. */
static WALK_INLINE void step(Gen *g, int phase, int pos, uint32_t arc, int main_score, int wmul, int cross, int count, int anchor,
                 int other) {
    uint8_t tile = g->letters[pos];
    if (!tile) {
        place(g, phase, pos, arc, main_score, wmul, cross, count, anchor, other);
        return;
    }
    int letter = tile & ~BLANK_BIT;
    uint64_t present = letters_at(g, arc);
    if (!((present >> letter) & 1)) return;
    Py_ssize_t node = arc_for(arc, present, letter);
    next_square(g, phase, pos, node, main_score + g->face[pos], wmul, cross, count, anchor, other);
}

WALK_CLONES
static void next_square(Gen *g, int phase, int pos, Py_ssize_t node, int main_score, int wmul, int cross, int count,
                        int anchor, int other) {
    const uint32_t *nodes = g->nodes;
    uint32_t value = nodes[node];
    int last = g->length - 1;
    uint32_t arc = value & ARC_MASK;
    /* the next sibling list's letters and nodes, asked for together: each is
       likely a cache miss (the graph is megabytes), and they would
       otherwise be waited for one after the other */
    if (g->narrow) __builtin_prefetch((const uint32_t *)g->letters_from + arc);
    else __builtin_prefetch((const uint64_t *)g->letters_from + arc);
    __builtin_prefetch(nodes + arc);
    if (phase == LEFT) {
        int leftmost = other;
        int open_left = pos == 0 || !g->letters[pos - 1];
        if ((value & ACCEPTS) && open_left && (anchor == last || !g->letters[anchor + 1]))
            record(g, pos, anchor, main_score, wmul, cross, count);
        if (!arc) return;
        if (pos - 1 >= leftmost) step(g, LEFT, pos - 1, arc, main_score, wmul, cross, count, anchor, leftmost);
        if (open_left && anchor < last && (nodes[arc] >> TILE_SHIFT) == 0) {
            uint32_t sw = nodes[arc] & ARC_MASK;
            if (sw) step(g, RIGHT, anchor + 1, sw, main_score, wmul, cross, count, anchor, pos);
        }
    } else {
        int start = other;
        int open_right = pos == last || !g->letters[pos + 1];
        if ((value & ACCEPTS) && open_right) record(g, start, pos, main_score, wmul, cross, count);
        if (arc && pos < last) step(g, RIGHT, pos + 1, arc, main_score, wmul, cross, count, anchor, start);
    }
}

/* Load one row (across) or column (down) into the lane arrays; 1 when it
   has an anchor. */
INTERNAL int setup_lane(Gen *g, int down, int lane) {
    const Config *c = g->cfg;
    int any = 0;
    g->down = down;
    g->lane = lane;
    g->length = down ? c->rows : c->cols;
    for (int i = 0; i < g->length; i++) {
        int s = down ? i * c->cols + lane : lane * c->cols + i;
        g->letters[i] = g->board[s];
        g->face[i] = g->board[s] ? tile_face(c, g->board[s]) : 0;
        g->lmask[i] = g->masks[down][s];
        g->lcross[i] = g->cross[down][s];
        g->lm[i] = c->letter_mult[s];
        g->wm[i] = c->word_mult[s];
        g->placed[i] = 0;
        g->lane_anchor[i] = g->anchor[s];
        any |= g->lane_anchor[i];
        if (g->bounding) { /* the first of the rack's letters, highest first, the square allows */
            int cap = 0;
            for (int k = 0; k < g->held_count && g->lmask[i]; k++)
                if ((g->lmask[i] >> g->held_by_face[k]) & 1) { cap = c->scores[g->held_by_face[k]]; break; }
            g->cap[i] = cap;
        }
    }
    return any;
}

WALK_CLONES
INTERNAL void generate_anchor(Gen *g, int a, int leftmost) {
    place(g, LEFT, a, g->cfg->gaddag_root, 0, 1, 0, 0, a, leftmost);
}

/* ---- a call --------------------------------------------------------------------- */

INTERNAL void begin_tiles(Gen *g, const uint8_t *board, const uint8_t *rack, int rack_len) {
    const Config *c = g->cfg;
    g->board = board;
    g->failed = 0;
    g->used = 0;
    g->found_count = 0;
    g->held = 0;
    memset(g->counts, 0, sizeof g->counts);
    for (int i = 0; i < rack_len; i++) g->counts[rack[i]]++;
    g->rack_size = rack_len;
    for (int t = 1; t < MAX_TILES; t++)
        if (g->counts[t]) g->held |= (uint64_t)1 << t;
    const uint8_t *b = board;
    g->board_empty = 1;
    for (int s = 0; s < c->size; s++)
        if (b[s]) { g->board_empty = 0; break; }
    int rows = c->rows, cols = c->cols;
    for (int s = 0; s < c->size; s++) {
        g->anchor[s] = 0;
        if (g->board_empty) { g->anchor[s] = s == c->start; continue; }
        if (b[s]) continue;
        int rr = s / cols, cc = s % cols;
        g->anchor[s] = (cc > 0 && b[s - 1]) || (cc < cols - 1 && b[s + 1]) || (rr > 0 && b[s - cols]) ||
                       (rr < rows - 1 && b[s + cols]);
    }
    g->min_tiles = g->board_empty ? c->first_min : 1;
    if (g->rack_size) {
        compute_cross(g, 0);
        compute_cross(g, 1);
    }
}

INTERNAL void generate_all(Gen *g) {
    if (!g->rack_size) return;
    const Config *c = g->cfg;
    for (int down = 0; down < 2 && !g->failed; down++) {
        int lanes = down ? c->cols : c->rows;
        for (int lane = 0; lane < lanes && !g->failed; lane++) {
            if (!setup_lane(g, down, lane)) continue;
            for (int a = 0; a < g->length && !g->failed; a++)
                if (g->lane_anchor[a]) generate_anchor(g, a, leftmost_of(g, a));
        }
    }
}

/* The pass, and every distinct exchange of at most `exchanges` tiles, as plays. */
INTERNAL void add_exchanges(Gen *g, int pass, int exchanges) {
    int kinds[MAX_TILES], tally[MAX_TILES], m = 0;
    for (int t = 0; t < MAX_TILES; t++)
        if (g->counts[t]) { kinds[m] = t; tally[m] = g->counts[t]; m++; }
    if (pass) {
        Found f;
        memset(&f, 0, sizeof f);
        f.kind = PASS;
        f.equity = g->leave_values[0];
        keep(g, &f);
    }
    if (!exchanges) return;
    int used[MAX_TILES] = {0};
    for (;;) {
        int i = 0;
        for (; i < m; i++) {
            if (used[i] < tally[i]) { used[i]++; break; }
            used[i] = 0;
        }
        if (i == m) return;
        int count = 0;
        for (int j = 0; j < m; j++) count += used[j];
        if (count > exchanges) continue; /* no more tiles than the bag holds */
        int index = 0;
        for (int j = 0; j < m; j++) index += used[j] * g->tile_stride[kinds[j]];
        if (g->top > 0 && g->found_count == g->top && g->leave_values[index] < g->found[g->found_count - 1].equity)
            continue; /* worse than every play kept */
        Found f;
        memset(&f, 0, sizeof f);
        f.kind = EXCHANGE;
        for (int j = 0; j < m; j++)
            for (int k = 0; k < used[j]; k++) f.tiles[f.len++] = (uint8_t)kinds[j];
        f.equity = g->leave_values[index];
        keep(g, &f);
        if (g->failed) return;
    }
}
