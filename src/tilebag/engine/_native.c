/*
 * tilebag._native: the compiled core of the move generator.
 *
 * It follows tilebag/movegen.py (the reference) step for step: the same
 * anchors, the same cross-sets, the same GADDAG walk, the same rule for
 * reporting a one-tile play once, so both list exactly the same plays with
 * the same scores. On top of the reference it values leaves itself (the
 * heuristic formula of tilebag.leaves, a KLV file, or a table the caller
 * computed), sorts in the reference's order, and, when only the best few
 * plays are wanted, skips every anchor whose bound cannot beat them
 * ("shadow" bounds: the best score any play through the anchor could reach,
 * whatever the words, plus the best leave it could keep).
 *
 * The word graph is read in place from the KWG node array. A Core object
 * holds the rules and the scratch space of one generator, so nothing is
 * allocated per node, per step or per play: plays are written into a
 * reusable array and copied once into the result, a Plays sequence that
 * makes a Python tuple only for the play asked for.
 *
 * Several things keep the best-play search short, as a simulation's
 * rollouts need (tilebag bench sim). A filter of the lexicon's letter
 * multisets drops the bound of any stretch a play would cover with all its
 * tiles (or all but one) when no word has those letters with the board's:
 * most racks have no bingo, and without the filter the bingo's bonus kept
 * nearly every long stretch's bound high. With a blank on the rack, the
 * plays that use it and those that do not are bounded and searched apart: a
 * play using the blank must also pay for the blank's leave, so the costly
 * searches (a blank can be any letter) are seldom made; those that are wait
 * until the cheaper ones have raised the best play, and when only a play of
 * every tile could still win, the blank stands only for the letters the
 * filter finds a word for. Cross-sets are kept by their cross word from one
 * search to the next (rollouts start from one board), and the walk's bit
 * counts use the processor's popcount where it has one.
 *
 * _native_endgame.h is the endgame solver; _native_rollout.h plays a
 * simulation's rollouts (tilebag/engine/sim.py is their reference).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define MAX_LANE 32
#define MAX_SQUARES (MAX_LANE * MAX_LANE)
#define MAX_RACK 16
#define TILE_SHIFT 24
#define ACCEPTS 0x800000u
#define IS_END 0x400000u
#define ARC_MASK 0x3FFFFFu
#define BLANK_BIT 0x80
#define NO_CROSS (-1)
#define ALL_LETTERS (~(uint64_t)1)
#define TOP_LIMIT 256 /* a larger top N generates everything, then cuts */

enum { PLACE = 0, EXCHANGE = 1, PASS = 2 };

/* Equity is counted in thousandths of a point, as an integer, so that plays
   compare exactly and alike in both cores. A leave's value (a double, from
   the heuristic's formula, a KLV file or a table) becomes thousandths once,
   as tilebag.equity.millipoints does: floor(value * 1000 + 0.5). */
typedef long long Milli;
#define NO_EQUITY LLONG_MIN
static inline Milli to_milli(double value) { return (Milli)floor(value * 1000.0 + 0.5); }

typedef struct Found {
    Milli equity;
    int score;
    uint8_t kind, down, start, lane, len, pad[3];
    uint8_t tiles[MAX_LANE];
} Found;

/* An anchor's search, in the order of its bound. With a blank on the rack
   an anchor has two: its plays that use no blank, and those that use one
   (which must score enough more to pay for the blank's leave). */
typedef struct Bound {
    Milli equity;
    Milli fewer; /* the bound of the plays that place fewer than every tile they may */
    int down, lane, anchor, leftmost, kind;
} Bound;

enum { ALL_PLAYS = 0, PLAIN_PLAYS = 1, BLANK_PLAYS = 2 };

/* ---- leave models ------------------------------------------------------- */

typedef struct {
    PyObject_HEAD
    int tile_count;
    double tile_values[64];
    double repeat_penalties[64];
    uint64_t vowels;
    int q, u;
    double third_copy_factor, balance_target, balance_weight, one_kind_consonant, one_kind_vowel, q_penalty;
} Heuristic;

typedef struct {
    PyObject_HEAD
    uint32_t *nodes;
    uint32_t *counts;
    double *values;
    Py_ssize_t node_count, value_count;
} Klv;

static PyTypeObject HeuristicType, KlvType, CoreType, PlaysType;

/* ---- the generator's state ------------------------------------------------ */

typedef struct {
    const uint32_t *nodes;
    /* per node: the letters of it and the rest of its sibling list; 32-bit
       masks when every tile is below 32 (half the memory to read), else 64 */
    void *letters_from;
    int narrow;
    Py_ssize_t node_count;
    uint32_t gaddag_root, dawg_root;
    int rows, cols, size;
    uint8_t letter_mult[MAX_SQUARES], word_mult[MAX_SQUARES];
    int scores[64];
    int start;
    int bingo_tiles, bingo_bonus, first_min;
    /* the call */
    const uint8_t *board;
    int rack_size;
    int counts[64];
    uint64_t held; /* bit per letter the rack still holds */
    int board_empty, min_tiles;
    uint64_t masks[2][MAX_SQUARES]; /* cross-sets for plays across ([0]) and down ([1]) */
    int cross[2][MAX_SQUARES];
    uint8_t anchor[MAX_SQUARES];
    /* the lane being generated */
    int down, lane, length;
    uint8_t letters[MAX_LANE];
    int face[MAX_LANE];
    uint64_t lmask[MAX_LANE];
    int lcross[MAX_LANE];
    int lm[MAX_LANE], wm[MAX_LANE];
    uint8_t lane_anchor[MAX_LANE];
    int cap[MAX_LANE]; /* the highest face value of a rack tile the square allows */
    uint8_t placed[MAX_LANE];
    int failed;
    /* unvalued mode: one tuple per play into `out` */
    PyObject *out;
    /* valued mode: equity from the leave table, indexed by the tiles used */
    int valued;
    int tile_stride[64];
    int used;
    Milli *leave_values;
    Py_ssize_t value_count, value_cap;
    Milli best_leave[MAX_RACK + 1]; /* best leave keeping rack_size - n tiles, by n used */
    Milli plain_leave[MAX_RACK + 1], blank_leave[MAX_RACK + 1]; /* the same, using no blank or some */
    int need_blank; /* keep only plays that use a blank */
    int all_tiles;       /* > 0: keep only plays that place this many tiles */
    uint64_t blank_mask; /* the letters a blank may stand for in this walk (all, but for plays of every tile) */
    Found *found;
    Py_ssize_t found_count, found_cap;
    int fixed_found; /* `found` is the endgame search's: when full, fail instead of growing it */
    Py_ssize_t top; /* > 0: keep only the best `top` plays, in order, in `found` */
    Bound *bounds;
    int bounding; /* setup_lane also finds each square's `cap` */
    int held_by_face[64], held_count; /* the letters the rack holds, highest face first (while bounding) */
    /* which letter multisets make a word, and which do less one letter
       (a Bloom filter: never a false "no"), built at the first search for
       the best plays; filter_state 1 when built, -1 when it cannot be */
    uint64_t letter_hash[64];
    uint64_t *filter, filter_mask;
    int filter_state;
    uint64_t word_letters; /* the letters the lexicon's words use */
    /* cross-sets worked out, by a hash of the cross word (the board's cross
       words come back search after search: a simulation's rollouts all
       start from one board) */
    struct CrossMemo { uint64_t key, mask; } *cross_memo;
} Gen;

typedef struct {
    PyObject_HEAD
    Py_buffer nodes_view;
    Gen gen;
} Core;

typedef struct {
    PyObject_HEAD
    Found *items;
    Py_ssize_t count;
    int rack_counts[64];
} Plays;

/* Bits set in x. The walk counts them at every step (which arc of a
   sibling list is a letter's), so with GCC on x86-64 Linux its functions
   are compiled twice, for processors with a popcount instruction (all
   since about 2008; the one chosen when the module loads) and without
   (the builtin is then a library call). Elsewhere, bits are counted
   inline. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__)
#define WALK_CLONES __attribute__((target_clones("popcnt", "default")))
static inline uint32_t bit_count(uint64_t x) { return (uint32_t)__builtin_popcountll(x); }
#else
#define WALK_CLONES
static inline uint32_t bit_count(uint64_t x) {
    x = x - ((x >> 1) & 0x5555555555555555ull);
    x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0Full;
    return (uint32_t)((x * 0x0101010101010101ull) >> 56);
}
#endif

/* The node for `letter` in the sibling list at `arc`, given the list's
   letters: counted, not searched. */
static inline uint32_t arc_for(uint32_t arc, uint64_t present, int letter) {
    return arc + bit_count(present & ((((uint64_t)1) << letter) - 1));
}

static inline uint64_t letters_at(const Gen *g, uint32_t arc) {
    return g->narrow ? ((const uint32_t *)g->letters_from)[arc] : ((const uint64_t *)g->letters_from)[arc];
}

static inline int tile_face(const Gen *g, uint8_t tile) { return (tile & BLANK_BIT) ? 0 : g->scores[tile]; }

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
static Py_ssize_t walk(const Gen *g, uint32_t arc, const uint8_t *tiles, int n) {
    Py_ssize_t node = -1;
    for (int i = 0; i < n; i++) {
        node = seek(g->nodes, arc, tiles[i]);
        if (node < 0) return -1;
        arc = g->nodes[node] & ARC_MASK;
    }
    return node;
}

/* Letters x for which before + x + after is a word. */
static uint64_t cross_set(const Gen *g, const uint8_t *before, int nb, const uint8_t *after, int na) {
    uint64_t mask = 0;
    const uint32_t *nodes = g->nodes;
    uint8_t reversed[MAX_LANE];
    if (!na) {
        uint32_t arc;
        if (!nb) {
            arc = g->dawg_root;
        } else {
            Py_ssize_t node = walk(g, g->dawg_root, before, nb);
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
    Py_ssize_t node = walk(g, g->gaddag_root, reversed, na);
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
                Py_ssize_t end = walk(g, value & ARC_MASK, rbefore, nb);
                if (end >= 0 && (nodes[end] & ACCEPTS)) mask |= (uint64_t)1 << letter;
            }
        }
        if (value & IS_END) break;
    }
    return mask;
}

#define CROSS_MEMO 4096

/* A hash of a cross word, never 0 (an empty memo entry). */
static uint64_t cross_key(const uint8_t *before, int nb, const uint8_t *after, int na) {
    uint64_t key = 0xCBF29CE484222325ull;
    for (int i = 0; i < nb; i++) key = (key ^ before[i]) * 0x100000001B3ull;
    key = (key ^ 0xFF) * 0x100000001B3ull;
    for (int i = 0; i < na; i++) key = (key ^ after[i]) * 0x100000001B3ull;
    key ^= (uint64_t)nb << 40 | (uint64_t)na << 48;
    key ^= key >> 30; /* mixed as mix64 mixes */
    key *= 0xBF58476D1CE4E5B9ull;
    key ^= key >> 27;
    key *= 0x94D049BB133111EBull;
    return (key ^ (key >> 31)) | 1;
}

static uint64_t kept_cross_set(Gen *g, const uint8_t *before, int nb, const uint8_t *after, int na) {
    if (!g->cross_memo) g->cross_memo = PyMem_RawCalloc(CROSS_MEMO, sizeof *g->cross_memo); /* raw: searches may run without the interpreter's lock */
    if (!g->cross_memo) return cross_set(g, before, nb, after, na); /* no memory: worked out each time */
    uint64_t key = cross_key(before, nb, after, na);
    struct CrossMemo *memo = &g->cross_memo[key & (CROSS_MEMO - 1)];
    if (memo->key != key) {
        memo->key = key;
        memo->mask = cross_set(g, before, nb, after, na);
    }
    return memo->mask;
}

/* Cross-sets of every empty square for plays in one direction: the cross
   word runs the other way. */
static void compute_cross(Gen *g, int down) {
    int rows = g->rows, cols = g->cols;
    const uint8_t *b = g->board;
    uint8_t before[MAX_LANE], after[MAX_LANE];
    for (int s = 0; s < rows * cols; s++) {
        g->masks[down][s] = 0;
        g->cross[down][s] = NO_CROSS;
        if (b[s]) continue;
        int r = s / cols, c = s % cols;
        int nb = 0, na = 0, sum = 0;
        if (!down) { /* cross word is vertical */
            int k = r - 1;
            while (k >= 0 && b[k * cols + c]) k--;
            for (int j = k + 1; j < r; j++) { uint8_t t = b[j * cols + c]; before[nb++] = t & ~BLANK_BIT; sum += tile_face(g, t); }
            for (int j = r + 1; j < rows && b[j * cols + c]; j++) { uint8_t t = b[j * cols + c]; after[na++] = t & ~BLANK_BIT; sum += tile_face(g, t); }
        } else {      /* cross word is horizontal */
            int k = c - 1;
            while (k >= 0 && b[r * cols + k]) k--;
            for (int j = k + 1; j < c; j++) { uint8_t t = b[r * cols + j]; before[nb++] = t & ~BLANK_BIT; sum += tile_face(g, t); }
            for (int j = c + 1; j < cols && b[r * cols + j]; j++) { uint8_t t = b[r * cols + j]; after[na++] = t & ~BLANK_BIT; sum += tile_face(g, t); }
        }
        if (!nb && !na) {
            g->masks[down][s] = ALL_LETTERS;
            continue;
        }
        g->cross[down][s] = sum;
        g->masks[down][s] = kept_cross_set(g, before, nb, after, na);
    }
}

/* ---- the order of plays --------------------------------------------------- */

/* The order of tilebag.movegen.play_order: best equity, higher score, then
   kind, across before down, row, column and tiles. */
static int compare_found(const Found *x, const Found *y) {
    if (x->equity != y->equity) return x->equity > y->equity ? -1 : 1;
    if (x->score != y->score) return x->score > y->score ? -1 : 1;
    if (x->kind != y->kind) return (int)x->kind - (int)y->kind;
    if (x->down != y->down) return (int)x->down - (int)y->down;
    int xr = x->down ? x->start : x->lane, yr = y->down ? y->start : y->lane;
    if (xr != yr) return xr - yr;
    int xc = x->down ? x->lane : x->start, yc = y->down ? y->lane : y->start;
    if (xc != yc) return xc - yc;
    int n = x->len < y->len ? x->len : y->len;
    int c = memcmp(x->tiles, y->tiles, (size_t)n);
    if (c) return c;
    return (int)x->len - (int)y->len;
}

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

static int grow_found(Gen *g) {
    if (g->fixed_found) { g->failed = 1; return -1; }
    Py_ssize_t cap = g->found_cap ? g->found_cap * 2 : 1024;
    Found *grown = PyMem_Realloc(g->found, (size_t)cap * sizeof(Found));
    if (!grown) { PyErr_NoMemory(); g->failed = 1; return -1; }
    g->found = grown;
    g->found_cap = cap;
    return 0;
}

/* Keep a play: appended (all plays), or inserted in order among the best
   `top` (dropped when it does not make it). */
static void keep(Gen *g, const Found *f) {
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

/* ---- the GADDAG walk -------------------------------------------------------- */

static void record(Gen *g, int start, int end, int main_score, int wmul, int cross, int count) {
    if (g->failed || count < g->min_tiles) return;
    if (g->need_blank && g->counts[0] == g->need_blank) return; /* a play with no blank, searched apart */
    if (count < g->all_tiles) return;
    if (count == 1 && g->down) {
        for (int i = start; i <= end; i++)
            if (g->placed[i] && g->lcross[i] != NO_CROSS) return;
    }
    int score = main_score * wmul + cross;
    if (count >= g->bingo_tiles) score += g->bingo_bonus;
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
    uint32_t value = g->nodes[node];
    int last = g->length - 1;
    uint32_t arc = value & ARC_MASK;
    if (phase == LEFT) {
        int leftmost = other;
        int open_left = pos == 0 || !g->letters[pos - 1];
        if ((value & ACCEPTS) && open_left && (anchor == last || !g->letters[anchor + 1]))
            record(g, pos, anchor, main_score, wmul, cross, count);
        if (!arc) return;
        if (pos - 1 >= leftmost) step(g, LEFT, pos - 1, arc, main_score, wmul, cross, count, anchor, leftmost);
        if (open_left && anchor < last && (g->nodes[arc] >> TILE_SHIFT) == 0) {
            uint32_t sw = g->nodes[arc] & ARC_MASK;
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
static int setup_lane(Gen *g, int down, int lane) {
    int any = 0;
    g->down = down;
    g->lane = lane;
    g->length = down ? g->rows : g->cols;
    for (int i = 0; i < g->length; i++) {
        int s = down ? i * g->cols + lane : lane * g->cols + i;
        g->letters[i] = g->board[s];
        g->face[i] = g->board[s] ? tile_face(g, g->board[s]) : 0;
        g->lmask[i] = g->masks[down][s];
        g->lcross[i] = g->cross[down][s];
        g->lm[i] = g->letter_mult[s];
        g->wm[i] = g->word_mult[s];
        g->placed[i] = 0;
        g->lane_anchor[i] = g->anchor[s];
        any |= g->lane_anchor[i];
        if (g->bounding) { /* the first of the rack's letters, highest first, the square allows */
            int cap = 0;
            for (int k = 0; k < g->held_count; k++)
                if ((g->lmask[i] >> g->held_by_face[k]) & 1) { cap = g->scores[g->held_by_face[k]]; break; }
            g->cap[i] = cap;
        }
    }
    return any;
}

/* How far left a play found from anchor `a` may start: through the tiles
   before it, or over empty squares up to the previous anchor. */
static int leftmost_of(const Gen *g, int a) {
    int leftmost = a;
    if (a > 0 && g->letters[a - 1]) {
        while (leftmost > 0 && g->letters[leftmost - 1]) leftmost--;
    } else {
        while (leftmost > 0 && !g->letters[leftmost - 1] && !g->lane_anchor[leftmost - 1]) leftmost--;
    }
    return leftmost;
}

WALK_CLONES
static void generate_anchor(Gen *g, int a, int leftmost) {
    place(g, LEFT, a, g->gaddag_root, 0, 1, 0, 0, a, leftmost);
}

/* ---- the word filter ---------------------------------------------------------- */

/* A play that places every tile it may place on a stretch of squares spells
   one multiset of letters: the tiles and the board's letters it goes
   through. When no word has that multiset, no play covers that stretch with
   all those tiles, and its bound (often the only one with a bingo's bonus)
   can be dropped. The filter holds, per word, the sum of its letters'
   random keys, and the same less each one letter (the letter a blank would
   stand for), salted apart. A false "yes" only loosens a bound. */

#define LESS_ONE 0x9E3779B97F4A7C15ull
#define FILTER_VISITS 64 /* a graph is walked at most this many times its size */

static inline uint64_t mix64(uint64_t x) {
    x ^= x >> 30;
    x *= 0xBF58476D1CE4E5B9ull;
    x ^= x >> 27;
    x *= 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

static inline void filter_add(Gen *g, uint64_t key) {
    uint64_t a = mix64(key), b = mix64(key ^ 0xD6E8FEB86659FD93ull);
    uint64_t bits[3] = {a & g->filter_mask, (a >> 32) & g->filter_mask, b & g->filter_mask};
    for (int i = 0; i < 3; i++) g->filter[bits[i] >> 6] |= (uint64_t)1 << (bits[i] & 63);
}

static inline int filter_has(const Gen *g, uint64_t key) {
    uint64_t a = mix64(key), b = mix64(key ^ 0xD6E8FEB86659FD93ull);
    uint64_t bits[3] = {a & g->filter_mask, (a >> 32) & g->filter_mask, b & g->filter_mask};
    for (int i = 0; i < 3; i++)
        if (!((g->filter[bits[i] >> 6] >> (bits[i] & 63)) & 1)) return 0;
    return 1;
}

typedef struct WordWalk {
    uint8_t word[MAX_LANE];
    Py_ssize_t visits, limit, entries;
    int adding, failed;
} WordWalk;

/* Every word of the DAWG at `arc`: counted, or added to the filter. */
static void filter_words(Gen *g, WordWalk *w, uint32_t arc, int depth, uint64_t hash) {
    if (!arc || w->failed) return;
    if (depth >= MAX_LANE || arc >= (uint32_t)g->node_count) { w->failed = 1; return; }
    for (uint32_t i = arc; i < (uint32_t)g->node_count; i++) {
        if (++w->visits > w->limit) { w->failed = 1; return; }
        uint32_t value = g->nodes[i];
        int letter = (int)(value >> TILE_SHIFT);
        if (letter < 1 || letter >= 64) { w->failed = 1; return; }
        w->word[depth] = (uint8_t)letter;
        g->word_letters |= (uint64_t)1 << letter;
        uint64_t h = hash + g->letter_hash[letter];
        if (value & ACCEPTS) {
            uint64_t seen = 0;
            if (w->adding) filter_add(g, h);
            w->entries++;
            for (int k = 0; k <= depth; k++) {
                uint64_t bit = (uint64_t)1 << w->word[k];
                if (seen & bit) continue;
                seen |= bit;
                if (w->adding) filter_add(g, h - g->letter_hash[w->word[k]] + LESS_ONE);
                w->entries++;
            }
        }
        filter_words(g, w, value & ARC_MASK, depth + 1, h);
        if (w->failed || (value & IS_END)) return;
    }
    w->failed = 1; /* a sibling list ran off the end of the graph */
}

/* Build the filter once; on failure (a graph that is not a plain word
   list, or no memory) searches go on without it. */
static void build_filter(Gen *g) {
    if (g->filter_state) return;
    g->filter_state = -1;
    g->word_letters = 0;
    uint64_t state = 0x243F6A8885A308D3ull;
    for (int t = 0; t < 64; t++) {
        state += 0x9E3779B97F4A7C15ull;
        g->letter_hash[t] = mix64(state);
    }
    WordWalk w = {{0}, 0, (Py_ssize_t)FILTER_VISITS * (g->node_count + 1), 0, 0, 0};
    filter_words(g, &w, g->dawg_root, 0, 0);
    if (w.failed || !w.entries) return;
    uint64_t bits = 1 << 12;
    while (bits < (uint64_t)w.entries * 12) bits <<= 1; /* 12 to 24 bits a key: a false "yes" in some thousands */
    g->filter = PyMem_Calloc((size_t)(bits / 64), sizeof(uint64_t));
    if (!g->filter) return;
    g->filter_mask = bits - 1;
    w.visits = 0;
    w.adding = 1;
    filter_words(g, &w, g->dawg_root, 0, 0);
    g->filter_state = 1;
}

/* Whether some word may have the letters hashed in `letters` and `blanks`
   more letters of any kind (a blank's). */
static int word_may_exist(const Gen *g, uint64_t letters, int blanks) {
    if (g->filter_state != 1 || blanks > 2) return 1;
    if (blanks == 0) return filter_has(g, letters);
    if (blanks == 1) return filter_has(g, letters + LESS_ONE);
    for (uint64_t left = g->word_letters; left; left &= left - 1) /* two blanks: one stands for some letter */
        if (filter_has(g, letters + g->letter_hash[__builtin_ctzll(left)] + LESS_ONE)) return 1;
    return 0;
}

/* ---- shadow bounds -------------------------------------------------------- */

/* What an anchor's plays of one kind can use. */
typedef struct Shadow {
    uint64_t fillable;  /* the letters that can go on a square */
    const int *faces;   /* the face values of the letter tiles, highest first */
    int face_count;
    int zeros;          /* squares that must take a tile worth nothing (a blank) */
    int most;           /* the most tiles a play may place */
    const Milli *leave; /* the best leave, by tiles placed */
    uint64_t letters;   /* the letter tiles' hash, when all `most` are placed */
    int blanks;         /* and the blanks among them */
    uint64_t kept[MAX_RACK]; /* the hash of each distinct letter tile, one of which a play of most - 1 keeps */
    int kept_count;
} Shadow;

/* Whether some word may be made on a stretch with the board's letters
   `through` and all but one of the letter tiles. */
static int word_keeping_one_may_exist(const Gen *g, const Shadow *sh, uint64_t through) {
    if (g->filter_state != 1 || sh->blanks > 1) return 1;
    for (int i = 0; i < sh->kept_count; i++)
        if (word_may_exist(g, sh->letters - sh->kept[i] + through, sh->blanks)) return 1;
    return 0;
}

/* The squares of a stretch by what a point of face value is worth on them,
   highest first (`coef`), with the highest face each allows (`limit`). */
static void sort_squares(int n, const int *lm, const int *wm, const int *crossed, const int *cap, int wmul, int *coef,
                         int *limit) {
    for (int i = 0; i < n; i++) {
        int c = lm[i] * (wmul + (crossed[i] ? wm[i] : 0));
        int j = i;
        while (j > 0 && coef[j - 1] < c) { coef[j] = coef[j - 1]; limit[j] = limit[j - 1]; j--; }
        coef[j] = c;
        limit[j] = cap[i];
    }
}

/* The best equity any play of one kind found from anchor `a` could have:
   for every stretch of squares through it that a play could cover, the
   best score the rack's tiles could make on those squares if every word
   were allowed (highest tiles on the highest multipliers), plus the best
   leave it could keep. Only squares no rack tile may fill (by the
   cross-sets) end a stretch; a stretch that takes every tile is dropped
   when no word has those letters with the board's. */
static Milli anchor_bound(const Gen *g, int a, int leftmost, const Shadow *sh, Milli *fewer) {
    int last = g->length - 1;
    uint64_t fillable = sh->fillable;
    Milli best = NO_EQUITY;
    *fewer = NO_EQUITY;
    if (!(g->lmask[a] & fillable)) return best;
    int top_face = sh->face_count ? sh->faces[0] : 0;
    for (int s = a; s >= leftmost; s--) {
        if (!g->letters[s] && !(g->lmask[s] & fillable)) break;
        if (s > 0 && g->letters[s - 1]) continue; /* a play cannot start here */
        int n = 0, board_points = 0, wmul = 1, min_cap = INT_MAX;
        int lm[MAX_RACK], wm[MAX_RACK], crossed[MAX_RACK], cap[MAX_RACK], cross_points = 0;
        uint64_t through = 0; /* the hash of the board's letters covered */
        int too_many = 0;
        for (int i = s; i < a; i++) {
            if (g->letters[i]) {
                board_points += g->face[i];
                through += g->letter_hash[g->letters[i] & ~BLANK_BIT & 63];
                continue;
            }
            if (n == sh->most) { too_many = 1; break; }
            lm[n] = g->lm[i]; wm[n] = g->wm[i]; crossed[n] = g->lcross[i] != NO_CROSS; cap[n] = g->cap[i];
            if (crossed[n]) cross_points += g->lcross[i] * g->wm[i];
            if (cap[n] < min_cap) min_cap = cap[n];
            wmul *= g->wm[i];
            n++;
        }
        if (too_many) break;
        /* the squares sorted, kept as the stretch grows to the right: a new
           square without a word multiplier is put in its place, another
           changes every square's worth and sorts them again */
        int coef[MAX_RACK], limit[MAX_RACK], sorted = 0;
        for (int e = a; e <= last; e++) {
            if (g->letters[e]) {
                board_points += g->face[e];
                through += g->letter_hash[g->letters[e] & ~BLANK_BIT & 63];
            } else {
                if (!(g->lmask[e] & fillable) || n == sh->most) break;
                lm[n] = g->lm[e]; wm[n] = g->wm[e]; crossed[n] = g->lcross[e] != NO_CROSS; cap[n] = g->cap[e];
                if (crossed[n]) cross_points += g->lcross[e] * g->wm[e];
                if (cap[n] < min_cap) min_cap = cap[n];
                if (g->wm[e] != 1) {
                    wmul *= g->wm[e];
                    sorted = 0;
                } else if (sorted == n) {
                    int c = lm[n] * (wmul + (crossed[n] ? wm[n] : 0)), j = n;
                    while (j > 0 && coef[j - 1] < c) { coef[j] = coef[j - 1]; limit[j] = limit[j - 1]; j--; }
                    coef[j] = c;
                    limit[j] = cap[n];
                    sorted = n + 1;
                }
                n++;
            }
            if (e < last && g->letters[e + 1]) continue; /* a play cannot end here */
            if (n < g->min_tiles) continue;
            if (sh->leave[n] == NO_EQUITY) continue; /* no leave of that size */
            if (n == sh->most && !word_may_exist(g, sh->letters + through, sh->blanks)) continue;
            if (n == sh->most - 1 && n > 1 && !word_keeping_one_may_exist(g, sh, through)) continue;
            if (sorted != n) {
                sort_squares(n, lm, wm, crossed, cap, wmul, coef, limit);
                sorted = n;
            }
            /* the most the letter tiles can score on these squares, with
               `zeros` of them left to blanks (worth nothing) */
            int score = wmul * board_points + cross_points, tiles = 0;
            int slots = n - sh->zeros; /* squares a letter tile may take */
            if (min_cap >= top_face) { /* every square takes every tile: the t-th highest on the t-th best */
                for (int t = 0; t < sh->face_count && t < slots; t++) tiles += coef[t] * sh->faces[t];
            } else {
                /* the letter tiles, highest first, each on the best free
                   square whose cross-set allows a tile that high: with
                   every square open to a letter, the best assignment (a
                   tile allowed on a square allows every lower one there) */
                int free = n;
                uint32_t taken = 0;
                for (int t = 0; t < sh->face_count && free > 0; t++) {
                    for (int i = 0; i < n; i++) {
                        if ((taken >> i) & 1 || limit[i] < sh->faces[t]) continue;
                        taken |= (uint32_t)1 << i;
                        tiles += coef[i] * sh->faces[t];
                        free--;
                        break;
                    }
                }
                /* with squares kept for blanks, which squares they take
                   matters: bounded also by the highest tiles on the best
                   squares, whatever the cross-sets allow */
                if (sh->zeros) {
                    int plain = 0;
                    for (int t = 0; t < sh->face_count && t < slots; t++) plain += coef[t] * sh->faces[t];
                    if (plain < tiles) tiles = plain;
                }
            }
            score += tiles;
            if (n >= g->bingo_tiles) score += g->bingo_bonus;
            Milli equity = (Milli)score * 1000 + sh->leave[n];
            if (equity > best) best = equity;
            if (n < sh->most && equity > *fewer) *fewer = equity;
        }
    }
    return best;
}

/* The letters a blank may stand for in a play from anchor `a` that places
   every tile (one or two of them blanks): for each stretch such a play
   could cover, the letters its empty squares allow for which some word has
   exactly the rack's letters, that letter, the board's letters covered (and
   any letter for the other blank). The filter never refuses a word, so no
   such play is missed. */
static uint64_t blank_letters_of(const Gen *g, int a, int leftmost, const Shadow *sh) {
    int last = g->length - 1;
    uint64_t found = 0;
    for (int s = a; s >= leftmost; s--) {
        if (!g->letters[s] && !(g->lmask[s] & ALL_LETTERS)) break;
        if (s > 0 && g->letters[s - 1]) continue;
        int n = 0;
        uint64_t through = 0, allowed = 0;
        for (int i = s; i < a && n <= sh->most; i++) {
            if (g->letters[i]) through += g->letter_hash[g->letters[i] & ~BLANK_BIT & 63];
            else { allowed |= g->lmask[i]; n++; }
        }
        if (n > sh->most) break;
        for (int e = a; e <= last; e++) {
            if (g->letters[e]) {
                through += g->letter_hash[g->letters[e] & ~BLANK_BIT & 63];
            } else {
                if (!g->lmask[e] || n == sh->most) break;
                allowed |= g->lmask[e];
                n++;
            }
            if (e < last && g->letters[e + 1]) continue;
            if (n != sh->most) continue;
            uint64_t other = sh->blanks == 2 ? LESS_ONE : 0; /* the other blank, any letter */
            for (uint64_t left = allowed & ~found & ALL_LETTERS; left; left &= left - 1) {
                int x = __builtin_ctzll(left);
                if (filter_has(g, sh->letters + through + g->letter_hash[x] + other)) found |= (uint64_t)1 << x;
            }
        }
    }
    return found;
}

static inline int compare_bounds(const void *a, const void *b) {
    const Bound *x = a, *y = b;
    if (x->equity != y->equity) return x->equity > y->equity ? -1 : 1;
    if (x->down != y->down) return x->down - y->down;
    if (x->lane != y->lane) return x->lane - y->lane;
    if (x->anchor != y->anchor) return x->anchor - y->anchor;
    return x->kind - y->kind;
}

/* Restore the heap of bounds (best first, in compare_bounds' order) below `i`. */
static void sift_bound(Bound *heap, Py_ssize_t n, Py_ssize_t i) {
    if (i >= n) return;
    Bound item = heap[i];
    for (;;) {
        Py_ssize_t child = 2 * i + 1;
        if (child >= n) break;
        if (child + 1 < n && compare_bounds(&heap[child + 1], &heap[child]) < 0) child++;
        if (compare_bounds(&heap[child], &item) >= 0) break;
        heap[i] = heap[child];
        i = child;
    }
    heap[i] = item;
}

/* ---- leave values ------------------------------------------------------------ */

static double heuristic_value(const Heuristic *h, const int *kinds, const int *kept, int m) {
    /* tilebag.leaves.HeuristicLeaves._compute, operation for operation */
    double total = 0.0;
    int letters = 0, vowel_count = 0, has_q = 0, has_u = 0;
    for (int i = 0; i < m; i++) {
        int tile = kinds[i];
        for (int copy = 1; copy <= kept[i]; copy++) {
            total += h->tile_values[tile];
            if (copy == 2) total -= h->repeat_penalties[tile];
            else if (copy > 2) total -= h->repeat_penalties[tile] * h->third_copy_factor;
            if (tile != 0) {
                letters++;
                if ((h->vowels >> tile) & 1) vowel_count++;
            }
        }
        if (kept[i] && tile == h->q) has_q = 1;
        if (kept[i] && tile == h->u) has_u = 1;
    }
    if (letters >= 2) {
        double share = (double)vowel_count / (double)letters;
        total -= h->balance_weight * (double)letters * pow(share - h->balance_target, 2.0);
        if (letters >= 3 && vowel_count == 0)
            total -= h->one_kind_consonant * (double)(letters - 2);
        else if (letters >= 3 && vowel_count == letters)
            total -= h->one_kind_vowel * (double)(letters - 2);
    }
    if (h->q >= 0 && has_q && !has_u) total -= h->q_penalty;
    return total;
}

/* tilebag.leaves.KlvLeaves.index and _compute: the rank of a leave among
   the file's leaves, its value, or 0.0 when the file does not list it. */
static double klv_value(const Klv *k, const int *kinds, const int *kept, int m) {
    const uint32_t *nodes = k->nodes;
    uint32_t index = nodes[0] & ARC_MASK;
    Py_ssize_t rank = 0;
    int total = 0;
    for (int i = 0; i < m; i++) total += kept[i];
    if (!total) return 0.0;
    int seen = 0;
    for (int i = 0; i < m; i++) {
        for (int c = 0; c < kept[i]; c++) {
            int tile = kinds[i];
            if (!index) return 0.0;
            uint32_t first = index, node;
            for (;;) {
                if (index >= (uint32_t)k->node_count) return 0.0;
                node = nodes[index];
                int found = (int)(node >> TILE_SHIFT);
                if (found == tile) break;
                if (found > tile || (node & IS_END)) return 0.0;
                index++;
            }
            rank += (Py_ssize_t)k->counts[first] - (Py_ssize_t)k->counts[index];
            if (++seen == total) {
                if (!(node & ACCEPTS) || rank >= k->value_count) return 0.0;
                return k->values[rank];
            }
            if (node & ACCEPTS) rank++;
            index = node & ARC_MASK;
        }
    }
    return 0.0;
}

enum { LEAVES_NONE, LEAVES_ENDGAME, LEAVES_HEURISTIC, LEAVES_KLV, LEAVES_TABLE };

/* The value of every sub-rack kept, indexed by the tiles used (mixed radix
   over the rack's distinct tiles), and the best leave by tiles used. */
static int leave_table(Gen *g, int mode, PyObject *model, PyObject *table) {
    int kinds[64], tally[64], m = 0;
    Py_ssize_t size = 1;
    for (int t = 0; t < 64; t++) {
        g->tile_stride[t] = 0;
        if (!g->counts[t]) continue;
        kinds[m] = t;
        tally[m] = g->counts[t];
        g->tile_stride[t] = (int)size;
        size *= g->counts[t] + 1;
        m++;
    }
    if (size > g->value_cap) {
        Milli *grown = PyMem_Realloc(g->leave_values, (size_t)size * sizeof(Milli));
        if (!grown) { PyErr_NoMemory(); return -1; }
        g->leave_values = grown;
        g->value_cap = size;
    }
    g->value_count = size;
    for (int n = 0; n <= MAX_RACK; n++) g->best_leave[n] = g->plain_leave[n] = g->blank_leave[n] = NO_EQUITY;
    if (mode == LEAVES_HEURISTIC) {
        const Heuristic *h = (const Heuristic *)model;
        for (int i = 0; i < m; i++)
            if (kinds[i] >= h->tile_count) {
                PyErr_Format(PyExc_ValueError, "tile %d is not in the heuristic's tile set", kinds[i]);
                return -1;
            }
    }
    PyObject *seq = NULL;
    if (mode == LEAVES_TABLE) {
        seq = PySequence_Fast(table, "leave values must be a sequence of floats");
        if (!seq) return -1;
        if (PySequence_Fast_GET_SIZE(seq) != size) {
            Py_DECREF(seq);
            PyErr_Format(PyExc_ValueError, "the leave table has %zd values, this rack needs %zd",
                         PySequence_Fast_GET_SIZE(seq), size);
            return -1;
        }
    }
    int used[64] = {0}, kept[64];
    for (Py_ssize_t index = 0; index < size; index++) {
        int n = 0;
        for (int i = 0; i < m; i++) { kept[i] = tally[i] - used[i]; n += used[i]; }
        double value = 0.0;
        switch (mode) {
        case LEAVES_ENDGAME: {
            int face = 0;
            for (int i = 0; i < m; i++) face += g->scores[kinds[i]] * kept[i];
            value = -2.0 * (double)face;
            break;
        }
        case LEAVES_HEURISTIC: value = heuristic_value((const Heuristic *)model, kinds, kept, m); break;
        case LEAVES_KLV: value = klv_value((const Klv *)model, kinds, kept, m); break;
        case LEAVES_TABLE:
            value = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(seq, index));
            if (value == -1.0 && PyErr_Occurred()) { Py_DECREF(seq); return -1; }
            break;
        default: break;
        }
        Milli milli = to_milli(value);
        g->leave_values[index] = milli;
        if (milli > g->best_leave[n]) g->best_leave[n] = milli;
        Milli *by_kind = m && kinds[0] == 0 && used[0] ? g->blank_leave : g->plain_leave;
        if (milli > by_kind[n]) by_kind[n] = milli;
        for (int i = 0; i < m; i++) { /* next index: mixed-radix increment */
            if (used[i] < tally[i]) { used[i]++; break; }
            used[i] = 0;
        }
    }
    Py_XDECREF(seq);
    return 0;
}

/* The pass, and every distinct exchange of at most `exchanges` tiles, as plays. */
static void add_exchanges(Gen *g, int pass, int exchanges) {
    int kinds[64], tally[64], m = 0;
    for (int t = 0; t < 64; t++)
        if (g->counts[t]) { kinds[m] = t; tally[m] = g->counts[t]; m++; }
    if (pass) {
        Found f;
        memset(&f, 0, sizeof f);
        f.kind = PASS;
        f.equity = g->leave_values[0];
        keep(g, &f);
    }
    if (!exchanges) return;
    int used[64] = {0};
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
            for (int c = 0; c < used[j]; c++) f.tiles[f.len++] = (uint8_t)kinds[j];
        f.equity = g->leave_values[index];
        keep(g, &f);
        if (g->failed) return;
    }
}

/* ---- a call ------------------------------------------------------------------ */

/* Set the generator up for a board and a rack (checked, for a call from
   Python: the board's size, the rack's length and tiles). */
static int begin_tiles(Gen *g, const uint8_t *board, Py_ssize_t board_len, const uint8_t *rack, Py_ssize_t rack_len) {
    if (board_len != g->size) {
        PyErr_Format(PyExc_ValueError, "the board has %zd squares, the layout %d", board_len, g->size);
        return -1;
    }
    if (rack_len > MAX_RACK) {
        PyErr_Format(PyExc_ValueError, "a rack of %zd tiles is more than the %d the core takes", rack_len, MAX_RACK);
        return -1;
    }
    g->board = board;
    g->failed = 0;
    g->used = 0;
    g->found_count = 0;
    g->held = 0;
    memset(g->counts, 0, sizeof g->counts);
    const uint8_t *r = rack;
    for (Py_ssize_t i = 0; i < rack_len; i++) {
        if (r[i] >= 64) {
            PyErr_Format(PyExc_ValueError, "rack tile %d is out of range (0..63)", r[i]);
            return -1;
        }
        g->counts[r[i]]++;
    }
    g->rack_size = (int)rack_len;
    for (int t = 1; t < 64; t++)
        if (g->counts[t]) g->held |= (uint64_t)1 << t;
    const uint8_t *b = g->board;
    g->board_empty = 1;
    for (int s = 0; s < g->size; s++)
        if (b[s]) { g->board_empty = 0; break; }
    int rows = g->rows, cols = g->cols;
    for (int s = 0; s < g->size; s++) {
        g->anchor[s] = 0;
        if (g->board_empty) { g->anchor[s] = s == g->start; continue; }
        if (b[s]) continue;
        int rr = s / cols, cc = s % cols;
        g->anchor[s] = (cc > 0 && b[s - 1]) || (cc < cols - 1 && b[s + 1]) || (rr > 0 && b[s - cols]) ||
                       (rr < rows - 1 && b[s + cols]);
    }
    g->min_tiles = g->board_empty ? g->first_min : 1;
    if (g->rack_size) {
        compute_cross(g, 0);
        compute_cross(g, 1);
    }
    return 0;
}

static int begin(Gen *g, Py_buffer *board, Py_buffer *rack) {
    return begin_tiles(g, board->buf, board->len, rack->buf, rack->len);
}

static void generate_all(Gen *g) {
    if (!g->rack_size) return;
    for (int down = 0; down < 2 && !g->failed; down++) {
        int lanes = down ? g->cols : g->rows;
        for (int lane = 0; lane < lanes && !g->failed; lane++) {
            if (!setup_lane(g, down, lane)) continue;
            for (int a = 0; a < g->length && !g->failed; a++)
                if (g->lane_anchor[a]) generate_anchor(g, a, leftmost_of(g, a));
        }
    }
}

/* Search the plays of one bound's anchor and kind; `blank_shadow` is the
   search's shadow of the plays that use a blank. */
static void search_bound(Gen *g, const Bound *b, int blanks, const Shadow *blank_shadow, int *current_down,
                         int *current_lane) {
    if (b->down != *current_down || b->lane != *current_lane) {
        setup_lane(g, b->down, b->lane);
        *current_down = b->down;
        *current_lane = b->lane;
    }
    if (b->kind == PLAIN_PLAYS) {
        g->counts[0] = 0;
        generate_anchor(g, b->anchor, b->leftmost);
        g->counts[0] = blanks;
    } else if (b->kind == BLANK_PLAYS && blanks <= 2 && g->filter_state == 1 && g->found_count == g->top &&
               b->fewer < g->found[g->found_count - 1].equity) {
        /* only a play of every tile could be kept: the blank need only
           stand for the letters that make a word with them */
        g->blank_mask = blank_letters_of(g, b->anchor, b->leftmost, blank_shadow);
        if (g->blank_mask) {
            g->need_blank = blanks;
            g->all_tiles = blank_shadow->most;
            generate_anchor(g, b->anchor, b->leftmost);
            g->need_blank = g->all_tiles = 0;
        }
        g->blank_mask = ALL_LETTERS;
    } else {
        g->need_blank = b->kind == BLANK_PLAYS ? blanks : 0;
        generate_anchor(g, b->anchor, b->leftmost);
        g->need_blank = 0;
    }
}

/* The best `top` plays: anchors in order of their bound, stopping at the
   first whose bound is below the worst play kept. With a blank on the
   rack, the plays that use no blank and those that use one are bounded
   and searched apart: a play using the blank must score enough more to
   pay for the blank's leave, so most anchors' blank searches (the costly
   part, a blank can be any letter) are never made. */
static void generate_top(Gen *g) {
    if (!g->rack_size) return;
    build_filter(g);
    int faces[MAX_RACK], face_count = 0;
    uint64_t letters = 0;
    for (int t = 1; t < 64; t++)
        for (int c = 0; c < g->counts[t]; c++) {
            int face = g->scores[t], j = face_count++;
            while (j > 0 && faces[j - 1] < face) { faces[j] = faces[j - 1]; j--; }
            faces[j] = face;
            letters += g->letter_hash[t];
        }
    int blanks = g->counts[0];
    Shadow shadows[2];
    uint64_t kept[MAX_RACK];
    int kept_count = 0;
    for (int t = 1; t < 64; t++)
        if (g->counts[t]) kept[kept_count++] = g->letter_hash[t];
    int kinds[2], kind_count = 0;
    if (!blanks) {
        shadows[0] = (Shadow){g->held, faces, face_count, 0, g->rack_size, g->best_leave, letters, 0, {0}, 0};
        kinds[kind_count++] = ALL_PLAYS;
    } else {
        if (face_count) {
            shadows[kind_count] = (Shadow){g->held, faces, face_count, 0, face_count, g->plain_leave, letters, 0, {0}, 0};
            kinds[kind_count++] = PLAIN_PLAYS;
        }
        shadows[kind_count] = (Shadow){ALL_LETTERS, faces, face_count, 1, g->rack_size, g->blank_leave, letters, blanks, {0}, 0};
        kinds[kind_count++] = BLANK_PLAYS;
    }
    for (int k = 0; k < kind_count; k++) {
        memcpy(shadows[k].kept, kept, sizeof kept);
        shadows[k].kept_count = kept_count;
    }
    Py_ssize_t count = 0;
    g->held_count = 0;
    for (uint64_t left = g->held; left; left &= left - 1) {
        int letter = __builtin_ctzll(left), j = g->held_count++;
        while (j > 0 && g->scores[g->held_by_face[j - 1]] < g->scores[letter]) {
            g->held_by_face[j] = g->held_by_face[j - 1];
            j--;
        }
        g->held_by_face[j] = letter;
    }
    g->bounding = 1;
    for (int down = 0; down < 2; down++) {
        int lanes = down ? g->cols : g->rows;
        for (int lane = 0; lane < lanes; lane++) {
            if (!setup_lane(g, down, lane)) continue;
            for (int a = 0; a < g->length; a++) {
                if (!g->lane_anchor[a]) continue;
                int leftmost = leftmost_of(g, a);
                for (int k = 0; k < kind_count; k++) {
                    Milli fewer;
                    Milli bound = anchor_bound(g, a, leftmost, &shadows[k], &fewer);
                    if (bound == NO_EQUITY) continue;
                    Bound *b = &g->bounds[count++];
                    b->equity = bound;
                    b->fewer = fewer;
                    b->down = down;
                    b->lane = lane;
                    b->anchor = a;
                    b->leftmost = leftmost;
                    b->kind = kinds[k];
                }
            }
        }
    }
    g->bounding = 0;
    /* a heap, not a sort: most searches stop after a third of the bounds */
    for (Py_ssize_t i = count / 2 - 1; i >= 0; i--) sift_bound(g->bounds, count, i);
    /* A full search of a blank's plays (the blank any letter) costs as much
       as dozens of others; it waits, in the slots the heap frees, until the
       others have raised the best play, which may then rule it out or leave
       only plays of every tile to search. */
    Py_ssize_t waiting = 0;
    int current_down = -1, current_lane = -1;
    for (Py_ssize_t left = count; left > 0 && !g->failed;) {
        Bound b = g->bounds[0];
        g->bounds[0] = g->bounds[--left];
        sift_bound(g->bounds, left, 0);
        if (g->found_count == g->top && b.equity < g->found[g->found_count - 1].equity) break;
        if (b.kind == BLANK_PLAYS && !(g->found_count == g->top && b.fewer < g->found[g->found_count - 1].equity)) {
            g->bounds[count - 1 - waiting++] = b;
            continue;
        }
        search_bound(g, &b, blanks, &shadows[kind_count - 1], &current_down, &current_lane);
    }
    for (Py_ssize_t i = 0; i < waiting && !g->failed; i++) {
        Bound b = g->bounds[count - 1 - i];
        if (g->found_count == g->top && b.equity < g->found[g->found_count - 1].equity) continue;
        search_bound(g, &b, blanks, &shadows[kind_count - 1], &current_down, &current_lane);
    }
}

/* ---- Core --------------------------------------------------------------------- */

static int fill_scores(Gen *g, PyObject *scores) {
    PyObject *seq = PySequence_Fast(scores, "scores must be a sequence of ints");
    if (!seq) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    memset(g->scores, 0, sizeof g->scores);
    for (Py_ssize_t i = 0; i < n && i < 64; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
        if (v == -1 && PyErr_Occurred()) { Py_DECREF(seq); return -1; }
        g->scores[i] = (int)v;
    }
    Py_DECREF(seq);
    return 0;
}

static int Core_init(Core *self, PyObject *args, PyObject *kwds) {
    static char *names[] = {"nodes", "gaddag_root", "dawg_root", "rows", "cols", "letter_mult", "word_mult",
                            "scores", "start", "bingo_tiles", "bingo_bonus", "first_min", NULL};
    Py_buffer nodes = {0}, lmult = {0}, wmult = {0};
    unsigned int gaddag_root, dawg_root;
    int rows, cols, start, bingo_tiles, bingo_bonus, first_min;
    PyObject *scores;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "y*IIiiy*y*Oiiii", names, &nodes, &gaddag_root, &dawg_root, &rows,
                                     &cols, &lmult, &wmult, &scores, &start, &bingo_tiles, &bingo_bonus, &first_min))
        return -1;
    Gen *g = &self->gen;
    int ok = 0;
    int size = rows * cols;
    if (nodes.len % 4 || nodes.len / 4 > ARC_MASK + 1 || rows < 1 || cols < 1 || rows > MAX_LANE ||
        cols > MAX_LANE) {
        PyErr_SetString(PyExc_ValueError, "Core: a board is 1 to 32 squares a side, a graph a whole number of nodes");
    } else if (lmult.len != size || wmult.len != size || start < 0 || start >= size) {
        PyErr_SetString(PyExc_ValueError, "Core: the multipliers or the start square do not fit the board");
    } else if (gaddag_root >= nodes.len / 4 || dawg_root >= nodes.len / 4) {
        PyErr_SetString(PyExc_ValueError, "Core: a root is past the end of the graph");
    } else if (fill_scores(g, scores) == 0) {
        memcpy(g->letter_mult, lmult.buf, (size_t)size);
        memcpy(g->word_mult, wmult.buf, (size_t)size);
        ok = 1;
    }
    PyBuffer_Release(&lmult);
    PyBuffer_Release(&wmult);
    if (!ok) {
        PyBuffer_Release(&nodes);
        return -1;
    }
    Py_ssize_t count = nodes.len / 4;
    const uint32_t *values = nodes.buf;
    int narrow = 1;
    for (Py_ssize_t i = 0; i < count; i++)
        if ((values[i] >> TILE_SHIFT) >= 32) { narrow = 0; break; }
    void *letters_from = PyMem_Malloc((size_t)(count ? count : 1) * (narrow ? 4 : 8));
    if (!letters_from) {
        PyBuffer_Release(&nodes);
        PyErr_NoMemory();
        return -1;
    }
    uint64_t following = 0;
    for (Py_ssize_t i = count - 1; i >= 0; i--) {
        uint32_t letter = values[i] >> TILE_SHIFT;
        uint64_t bit = letter < 64 ? (uint64_t)1 << letter : 0;
        uint64_t mask = (values[i] & IS_END) ? bit : bit | following;
        following = mask;
        if (narrow) ((uint32_t *)letters_from)[i] = (uint32_t)mask;
        else ((uint64_t *)letters_from)[i] = mask;
    }
    if (self->nodes_view.obj) PyBuffer_Release(&self->nodes_view);
    PyMem_Free(g->letters_from);
    g->letters_from = letters_from;
    g->narrow = narrow;
    self->nodes_view = nodes;
    g->nodes = nodes.buf;
    g->node_count = nodes.len / 4;
    PyMem_RawFree(g->cross_memo); /* this graph's cross-sets are not the last one's */
    g->cross_memo = NULL;
    PyMem_Free(g->filter); /* built again for this graph when first needed */
    g->filter = NULL;
    g->filter_state = 0;
    g->gaddag_root = gaddag_root;
    g->dawg_root = dawg_root;
    g->rows = rows;
    g->cols = cols;
    g->size = size;
    g->start = start;
    g->bingo_tiles = bingo_tiles;
    g->bingo_bonus = bingo_bonus;
    g->first_min = first_min;
    g->blank_mask = ALL_LETTERS;
    g->all_tiles = 0;
    return 0;
}

static void Core_dealloc(Core *self) {
    if (self->nodes_view.obj) PyBuffer_Release(&self->nodes_view);
    PyMem_Free(self->gen.letters_from);
    PyMem_Free(self->gen.found);
    PyMem_Free(self->gen.leave_values);
    PyMem_Free(self->gen.bounds);
    PyMem_Free(self->gen.filter);
    PyMem_RawFree(self->gen.cross_memo);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

PyDoc_STRVAR(Core_placements_doc,
"placements(board, rack)\n--\n\n"
"Every legal placement as (start, lane, down, tiles, score), in no particular order.");

static PyObject *Core_placements(Core *self, PyObject *args) {
    Py_buffer board, rack;
    if (!PyArg_ParseTuple(args, "y*y*", &board, &rack)) return NULL;
    Gen *g = &self->gen;
    PyObject *result = NULL;
    g->valued = 0;
    g->top = 0;
    memset(g->tile_stride, 0, sizeof g->tile_stride);
    if (begin(g, &board, &rack) == 0) {
        g->out = PyList_New(0);
        if (g->out) {
            generate_all(g);
            if (g->failed) Py_CLEAR(g->out);
            result = g->out;
            g->out = NULL;
        }
    }
    PyBuffer_Release(&board);
    PyBuffer_Release(&rack);
    return result;
}

PyDoc_STRVAR(Core_generate_doc,
"generate(board, rack, leaves, endgame, top, with_pass, exchanges)\n--\n\n"
"Every legal placement valued and sorted as tilebag.movegen.play_order sorts,\n"
"as a Plays sequence. `leaves` is None (worth 0), a Heuristic, a Klv, or a\n"
"(strides, values) table indexed by the tiles used; with `endgame` a leave\n"
"is worth minus twice its face value. `top` > 0 keeps only the best plays;\n"
"`with_pass` adds the pass, `exchanges` every distinct exchange of at most that many tiles.");

/* Room for the anchors' bounds and the best plays of a search for the best few. */
static int ready_for_top(Gen *g) {
    if (!g->bounds) {
        g->bounds = PyMem_Malloc((size_t)MAX_SQUARES * 4 * sizeof(Bound)); /* two directions, two kinds */
        if (!g->bounds) { PyErr_NoMemory(); return -1; }
    }
    if (g->found_cap < TOP_LIMIT + 1) {
        Found *grown = PyMem_Realloc(g->found, (size_t)(TOP_LIMIT + 1) * sizeof(Found));
        if (!grown) { PyErr_NoMemory(); return -1; }
        g->found = grown;
        g->found_cap = TOP_LIMIT + 1;
    }
    return 0;
}

static PyObject *Core_generate(Core *self, PyObject *args) {
    Py_buffer board, rack;
    PyObject *leaves;
    int endgame, with_pass, exchanges;
    Py_ssize_t top;
    if (!PyArg_ParseTuple(args, "y*y*Opnpi", &board, &rack, &leaves, &endgame, &top, &with_pass, &exchanges))
        return NULL;
    Gen *g = &self->gen;
    Plays *result = NULL;
    int mode = LEAVES_NONE;
    PyObject *table = NULL;
    g->valued = 1;
    g->top = (top > 0 && top <= TOP_LIMIT) ? top : 0;
    if (endgame) {
        mode = LEAVES_ENDGAME;
    } else if (leaves == Py_None) {
        mode = LEAVES_NONE;
    } else if (PyObject_TypeCheck(leaves, &HeuristicType)) {
        mode = LEAVES_HEURISTIC;
    } else if (PyObject_TypeCheck(leaves, &KlvType)) {
        mode = LEAVES_KLV;
    } else if (PyTuple_Check(leaves) && PyTuple_GET_SIZE(leaves) == 2) {
        mode = LEAVES_TABLE;
        table = PyTuple_GET_ITEM(leaves, 1);
    } else {
        PyErr_SetString(PyExc_TypeError, "generate: leaves must be None, a Heuristic, a Klv or a (strides, values) table");
        goto done;
    }
    if (begin(g, &board, &rack) < 0) goto done;
    if (leave_table(g, mode, leaves, table) < 0) goto done;
    if (mode == LEAVES_TABLE) {
        /* the caller's strides must be the ones the table was built with */
        Py_buffer strides;
        if (PyObject_GetBuffer(PyTuple_GET_ITEM(leaves, 0), &strides, PyBUF_SIMPLE) < 0) goto done;
        int same = strides.len == 64;
        for (int t = 0; same && t < 64; t++) same = ((const uint8_t *)strides.buf)[t] == g->tile_stride[t] ||
                                                    (!g->counts[t] && ((const uint8_t *)strides.buf)[t] == 0);
        PyBuffer_Release(&strides);
        if (!same) {
            PyErr_SetString(PyExc_ValueError, "generate: the leave table's strides do not fit this rack");
            goto done;
        }
    }
    if (g->top) {
        if (ready_for_top(g) < 0) goto done;
        add_exchanges(g, with_pass, exchanges);
        generate_top(g);
    } else {
        generate_all(g);
        if (!g->failed) add_exchanges(g, with_pass, exchanges);
    }
    if (g->failed) goto done;
    Py_ssize_t n = g->found_count;
    if (top >= 0 && top < n) n = top;
    result = PyObject_New(Plays, &PlaysType);
    if (!result) goto done;
    result->count = n;
    result->items = PyMem_Malloc((size_t)(n ? n : 1) * sizeof(Found));
    if (!result->items) { Py_CLEAR(result); PyErr_NoMemory(); goto done; }
    memcpy(result->rack_counts, g->counts, sizeof g->counts);
    if (g->top || g->found_count < 2) {
        memcpy(result->items, g->found, (size_t)n * sizeof(Found));
    } else {
        SortKey *keys = PyMem_Malloc((size_t)g->found_count * sizeof(SortKey));
        if (!keys) { Py_CLEAR(result); PyErr_NoMemory(); goto done; }
        for (Py_ssize_t i = 0; i < g->found_count; i++) {
            keys[i].equity = g->found[i].equity;
            keys[i].score = g->found[i].score;
            const Found *f = &g->found[i];
            int row = f->down ? f->start : f->lane, col = f->down ? f->lane : f->start;
            keys[i].place = (uint32_t)f->kind << 24 | (uint32_t)f->down << 16 | (uint32_t)row << 8 | (uint32_t)col;
            keys[i].index = i;
            keys[i].found = f;
        }
        sort_keys(keys, g->found_count);
        for (Py_ssize_t i = 0; i < n; i++) result->items[i] = g->found[keys[i].index];
        PyMem_Free(keys);
    }
done:
    PyBuffer_Release(&board);
    PyBuffer_Release(&rack);
    return (PyObject *)result;
}

#include "_native_endgame.h"
#include "_native_rollout.h"

PyDoc_STRVAR(Core_may_spell_doc,
"may_spell(tiles, blanks)\n--\n\n"
"Whether the word filter lets some word be spelt with exactly these letter tiles\n"
"and `blanks` blanks: False only when no word can be; True when one is, or the\n"
"filter cannot tell (a few in ten thousand of the letter sets that spell none, or more\n"
"than two blanks). Built at the first call, as at the first search for the best plays.");

static PyObject *Core_may_spell(Core *self, PyObject *args) {
    Py_buffer tiles;
    int blanks;
    if (!PyArg_ParseTuple(args, "y*i", &tiles, &blanks)) return NULL;
    Gen *g = &self->gen;
    build_filter(g);
    uint64_t letters = 0;
    int ok = blanks >= 0;
    for (Py_ssize_t i = 0; i < tiles.len && ok; i++) {
        int tile = ((const uint8_t *)tiles.buf)[i];
        ok = tile >= 1 && tile < 64;
        if (ok) letters += g->letter_hash[tile];
    }
    PyBuffer_Release(&tiles);
    if (!ok) {
        PyErr_SetString(PyExc_ValueError, "may_spell: letter tiles are 1 to 63, blanks from 0");
        return NULL;
    }
    return PyBool_FromLong(word_may_exist(g, letters, blanks));
}

static PyMethodDef Core_methods[] = {
    {"may_spell", (PyCFunction)Core_may_spell, METH_VARARGS, Core_may_spell_doc},
    {"placements", (PyCFunction)Core_placements, METH_VARARGS, Core_placements_doc},
    {"generate", (PyCFunction)Core_generate, METH_VARARGS, Core_generate_doc},
    {"endgame", (PyCFunction)Core_endgame, METH_VARARGS, Core_endgame_doc},
    {"rollouts", (PyCFunction)Core_rollouts, METH_VARARGS, Core_rollouts_doc},
    {NULL, NULL, 0, NULL},
};

PyDoc_STRVAR(Core_doc,
"Core(nodes, gaddag_root, dawg_root, rows, cols, letter_mult, word_mult, scores, start,\n"
"     bingo_tiles, bingo_bonus, first_min)\n--\n\n"
"A move generator for one word graph, board layout and tile set. `nodes` is a\n"
"buffer of 32-bit KWG nodes (kept, not copied); the multipliers are bytes per square.");

static PyTypeObject CoreType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "tilebag._native.Core",
    .tp_basicsize = sizeof(Core),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = Core_doc,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Core_init,
    .tp_dealloc = (destructor)Core_dealloc,
    .tp_methods = Core_methods,
};

/* ---- Plays -------------------------------------------------------------------- */

static void Plays_dealloc(Plays *self) {
    PyMem_Free(self->items);
    PyObject_Free(self);
}

static Py_ssize_t Plays_length(Plays *self) { return self->count; }

/* (kind, start, lane, down, tiles, score, equity, leave): kind 0 a placement,
   1 an exchange, 2 the pass; the leave is the rack tiles kept, sorted. */
static PyObject *Plays_item(Plays *self, Py_ssize_t i) {
    if (i < 0 || i >= self->count) {
        PyErr_SetString(PyExc_IndexError, "Plays index out of range");
        return NULL;
    }
    const Found *f = &self->items[i];
    int kept[64];
    memcpy(kept, self->rack_counts, sizeof kept);
    for (int j = 0; j < f->len; j++) {
        uint8_t t = f->tiles[j];
        if (f->kind == PLACE && !t) continue;
        kept[(t & BLANK_BIT) ? 0 : t]--;
    }
    uint8_t leave[MAX_RACK];
    int n = 0;
    for (int t = 0; t < 64; t++)
        for (int c = 0; c < kept[t] && n < MAX_RACK; c++) leave[n++] = (uint8_t)t;
    return Py_BuildValue("(iiiOy#iLy#)", f->kind, f->start, f->lane, f->down ? Py_True : Py_False,
                         (const char *)f->tiles, (Py_ssize_t)f->len, f->score, f->equity, (const char *)leave,
                         (Py_ssize_t)n);
}

static PySequenceMethods Plays_as_sequence = {
    .sq_length = (lenfunc)Plays_length,
    .sq_item = (ssizeargfunc)Plays_item,
};

static PyTypeObject PlaysType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "tilebag._native.Plays",
    .tp_basicsize = sizeof(Plays),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Generated plays, best first, kept in C; an item is made when asked for.",
    .tp_dealloc = (destructor)Plays_dealloc,
    .tp_as_sequence = &Plays_as_sequence,
};

/* ---- Heuristic and Klv ----------------------------------------------------------- */

static int fill_doubles(PyObject *values, double *out, Py_ssize_t limit, Py_ssize_t *count, const char *what) {
    PyObject *seq = PySequence_Fast(values, what);
    if (!seq) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n > limit) {
        Py_DECREF(seq);
        PyErr_Format(PyExc_ValueError, "%s: %zd values, at most %zd", what, n, limit);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        out[i] = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(seq, i));
        if (out[i] == -1.0 && PyErr_Occurred()) { Py_DECREF(seq); return -1; }
    }
    *count = n;
    Py_DECREF(seq);
    return 0;
}

static int Heuristic_init(Heuristic *self, PyObject *args, PyObject *kwds) {
    static char *names[] = {"tile_values", "repeat_penalties", "vowels", "q", "u", "third_copy_factor",
                            "balance_target", "balance_weight", "one_kind_consonant", "one_kind_vowel",
                            "q_penalty", NULL};
    PyObject *tile_values, *penalties;
    unsigned long long vowels;
    Py_ssize_t n_values, n_penalties;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOKiidddddd", names, &tile_values, &penalties, &vowels, &self->q,
                                     &self->u, &self->third_copy_factor, &self->balance_target,
                                     &self->balance_weight, &self->one_kind_consonant, &self->one_kind_vowel,
                                     &self->q_penalty))
        return -1;
    memset(self->tile_values, 0, sizeof self->tile_values);
    memset(self->repeat_penalties, 0, sizeof self->repeat_penalties);
    if (fill_doubles(tile_values, self->tile_values, 64, &n_values, "tile values") < 0) return -1;
    if (fill_doubles(penalties, self->repeat_penalties, 64, &n_penalties, "repeat penalties") < 0) return -1;
    if (n_values != n_penalties) {
        PyErr_SetString(PyExc_ValueError, "Heuristic: one tile value and one repeat penalty per tile");
        return -1;
    }
    self->tile_count = (int)n_values;
    self->vowels = (uint64_t)vowels;
    return 0;
}

PyDoc_STRVAR(Heuristic_doc,
"Heuristic(tile_values, repeat_penalties, vowels, q, u, third_copy_factor, balance_target,\n"
"          balance_weight, one_kind_consonant, one_kind_vowel, q_penalty)\n--\n\n"
"The parameters of tilebag.leaves.HeuristicLeaves, for the core to value leaves with.");

static PyTypeObject HeuristicType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "tilebag._native.Heuristic",
    .tp_basicsize = sizeof(Heuristic),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = Heuristic_doc,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Heuristic_init,
};

static int Klv_init(Klv *self, PyObject *args, PyObject *kwds) {
    static char *names[] = {"nodes", "counts", "values", NULL};
    Py_buffer nodes, counts;
    PyObject *values;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "y*y*O", names, &nodes, &counts, &values)) return -1;
    int ok = 0;
    PyObject *seq = NULL;
    if (nodes.len % 4 || nodes.len == 0 || counts.len != nodes.len) {
        PyErr_SetString(PyExc_ValueError, "Klv: one 32-bit word count per 32-bit node");
        goto done;
    }
    seq = PySequence_Fast(values, "Klv: values must be a sequence of floats");
    if (!seq) goto done;
    PyMem_Free(self->nodes);
    PyMem_Free(self->counts);
    PyMem_Free(self->values);
    self->node_count = nodes.len / 4;
    self->value_count = PySequence_Fast_GET_SIZE(seq);
    self->nodes = PyMem_Malloc((size_t)nodes.len);
    self->counts = PyMem_Malloc((size_t)counts.len);
    self->values = PyMem_Malloc((size_t)(self->value_count ? self->value_count : 1) * sizeof(double));
    if (!self->nodes || !self->counts || !self->values) { PyErr_NoMemory(); goto done; }
    memcpy(self->nodes, nodes.buf, (size_t)nodes.len);
    memcpy(self->counts, counts.buf, (size_t)counts.len);
    for (Py_ssize_t i = 0; i < self->value_count; i++) {
        self->values[i] = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(seq, i));
        if (self->values[i] == -1.0 && PyErr_Occurred()) goto done;
    }
    for (Py_ssize_t i = 0; i < self->node_count; i++)
        if ((self->nodes[i] & ARC_MASK) >= (uint32_t)self->node_count) {
            PyErr_Format(PyExc_ValueError, "Klv: node %zd points past the end of the graph", i);
            goto done;
        }
    ok = 1;
done:
    Py_XDECREF(seq);
    PyBuffer_Release(&nodes);
    PyBuffer_Release(&counts);
    return ok ? 0 : -1;
}

static void Klv_dealloc(Klv *self) {
    PyMem_Free(self->nodes);
    PyMem_Free(self->counts);
    PyMem_Free(self->values);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

PyDoc_STRVAR(Klv_doc,
"Klv(nodes, counts, values)\n--\n\n"
"A KLV leave file for the core: its graph's nodes, the word count of each node\n"
"(see tilebag.leaves) as 32-bit buffers, and one value per leave.");

static PyTypeObject KlvType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "tilebag._native.Klv",
    .tp_basicsize = sizeof(Klv),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = Klv_doc,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Klv_init,
    .tp_dealloc = (destructor)Klv_dealloc,
};

/* ---- the module ------------------------------------------------------------------ */

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "tilebag._native", "The compiled core of tilebag's move generator.", -1, NULL,
};

PyMODINIT_FUNC PyInit__native(void) {
    PyTypeObject *types[] = {&CoreType, &PlaysType, &HeuristicType, &KlvType};
    const char *names[] = {"Core", "Plays", "Heuristic", "Klv"};
    for (int i = 0; i < 4; i++)
        if (PyType_Ready(types[i]) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    for (int i = 0; i < 4; i++) {
        Py_INCREF(types[i]);
        if (PyModule_AddObject(m, names[i], (PyObject *)types[i]) < 0) {
            Py_DECREF(types[i]);
            Py_DECREF(m);
            return NULL;
        }
    }
    return m;
}
