/*
 * tilebag.engine._native: the compiled core of the move generator, its
 * endgame search and a simulation's rollouts. This header is what the
 * core's units share: its limits, its types and the small functions of the
 * walk's inner loop (kept here, inline, so that no unit pays a call for
 * them).
 *
 * The core follows tilebag/engine/movegen/generator.py (the reference) step for step:
 * the same anchors, the same cross-sets, the same GADDAG walk, the same rule
 * for reporting a one-tile play once, so both list exactly the same plays
 * with the same scores. On top of the reference it values leaves itself,
 * sorts in the reference's order, and, when only the best few plays are
 * wanted, skips every anchor whose bound cannot beat them.
 *
 * Two kinds of state, never mixed (as wolges keeps its board snapshot apart
 * from its generator's working buffer):
 *
 * - Config: the word graph (a private copy), what is derived from it, the
 *   board layout, the tile scores and the bingo rules. It is filled and
 *   checked once, when a Core is made, and only read afterwards: every
 *   search (including an endgame running without the GIL) reads it in
 *   place, and a Core refuses a second __init__, so it cannot change or be
 *   freed under a search.
 * - Gen: one search's working memory (the rack, cross-sets, the lane being
 *   walked, the plays found, bounds, leave values, the word filter and the
 *   memo of cross-sets). It reaches the configuration through a const
 *   pointer (and a view of the few parts the walk reads at every node, see
 *   below), never writing it. A Core has one for the calls it serves; the
 *   endgame search makes its own.
 *
 * The units, by concept:
 *   config.c   the Config, and the checks every input from Python passes
 *   movegen.c  cross-sets, the GADDAG walk, a call's setup, exchanges, sorting
 *   shadow.c   the word filter and the score bounds of the best-play search
 *   leaves.c   leave values: the Heuristic and Klv types, a rack's table
 *   endgame.c  the exact endgame search
 *   rollout.c  a simulation's rollouts
 *   module.c   the Python types Core and Plays, their methods, the module
 *
 * Every function reachable from Python checks its arguments before any
 * search runs (what the board's bytes, the racks' tiles and the graph's
 * nodes may be is in config.c); past that point the code trusts them.
 *
 * The core's memory comes from PyMem_Raw* (the C allocator): blocks may be
 * taken and given back without the GIL (the endgame search does), and a
 * sanitizer sees every one of them, however small (Python's own allocator
 * carves small blocks out of its arenas, where an overrun goes unseen).
 */
#ifndef TILEBAG_NATIVE_CORE_H
#define TILEBAG_NATIVE_CORE_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Functions one unit of the core lends another: not exported from the
   module, and called directly (no PLT) within it. */
#if defined(__GNUC__) || defined(__clang__)
#define INTERNAL __attribute__((visibility("hidden")))
#else
#define INTERNAL
#endif

#define MAX_LANE 32
#define MAX_SQUARES (MAX_LANE * MAX_LANE)
#define MAX_RACK 16
#define MAX_TILES 64 /* tiles 0 (the blank) to 63: a cross-set is a 64-bit mask */
#define TILE_SHIFT 24
#define ACCEPTS 0x800000u
#define IS_END 0x400000u
#define ARC_MASK 0x3FFFFFu
#define BLANK_BIT 0x80
#define NO_CROSS (-1)
#define ALL_LETTERS (~(uint64_t)1)
#define TOP_LIMIT 256 /* a larger top N generates everything, then cuts */

/* Bounds that keep every sum the core makes inside its integers: a play's
   score (with every multiplier) fits an int with room for an endgame line
   of 250 plies below EG_INFINITY, and a leave's value in thousandths fits
   a long long with room for any score. Checked where the numbers come in. */
#define MAX_TILE_SCORE 1000
#define MAX_PLAY_SCORE 1000000
#define MAX_LEAVE_POINTS 1e9

enum { PLACE = 0, EXCHANGE = 1, PASS = 2 };

/* Equity is counted in thousandths of a point, as an integer, so that plays
   compare exactly and alike in both cores. A leave's value (a double, from
   the heuristic's formula, a KLV file or a table) becomes thousandths once,
   as tilebag.equity.millipoints does: floor(value * 1000 + 0.5). */
typedef long long Milli;
#define NO_EQUITY LLONG_MIN
static inline Milli to_milli(double value) { return (Milli)floor(value * 1000.0 + 0.5); }

/* A play found: a placement (tiles along the lane from `start`, 0 where it
   plays through a board tile), an exchange (the tiles given back) or the pass. */
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
    int share; /* its entry in a TopShare, or -1 */
} Bound;

/* What the searches for one rack's best play on boards that differ in a
   few squares share (a rollout's first reply: one rack, every candidate's
   board): each anchor's bounds, and its best play of each kind, found
   when first searched. An anchor has the same plays, with the same scores,
   on every board where the squares its plays and bounds read (its
   `window`: from before the first square a play from it may start on to
   past the last it may reach with the rack) hold the same tiles,
   cross-sets, cross-scores and anchors. The caller marks, lane by lane,
   the squares where they may differ from those of the boards shared
   (`changed`); `stamp` tells the entries of this rack from older ones.
   Only for the best play (top 1). */
typedef struct ShareEntry {
    Bound bound; /* its equity NO_EQUITY: no play of this kind from the anchor */
    unsigned stamp;
    /* the anchor's best play of the kind (full), and of those that place
       every tile (all, what a blank's search needs once fewer cannot win):
       0 not searched yet, 1 in full_play or all_play, -1 none */
    signed char full, all;
    Found full_play, all_play;
} ShareEntry;

typedef struct TopShare {
    const uint32_t *changed; /* [2 * MAX_LANE]: by direction then lane, a bit per square (set by the caller) */
    unsigned stamp;          /* the rack's: a caller with another rack takes a new one, and empties `listed` */
    int side;            /* the board's longer side */
    ShareEntry *entries; /* by direction, lane, square and kind: 2 * side * side * 2 */
    /* the lanes of `changed` 0 whose every bound is in `entries` (of
       lane_stamp `stamp`): their entries, from lane_first, lane_count long,
       in `listed` (as many as `entries`), `used` of it taken */
    unsigned lane_stamp[2][MAX_LANE];
    int lane_first[2][MAX_LANE], lane_count[2][MAX_LANE];
    int *listed;
    int used;
} TopShare;

enum { ALL_PLAYS = 0, PLAIN_PLAYS = 1, BLANK_PLAYS = 2 };

enum { LEAVES_NONE, LEAVES_ENDGAME, LEAVES_HEURISTIC, LEAVES_KLV, LEAVES_TABLE };

/* ---- the configuration: set once, read by every search -------------------- */

typedef struct Config {
    const uint32_t *nodes; /* the KWG nodes, copied: Python's array cannot change under a search */
    /* per node: the letters of it and the rest of its sibling list; 32-bit
       masks when every tile is below 32 (half the memory to read), else 64 */
    const void *letters_from;
    int narrow;
    Py_ssize_t node_count;
    uint32_t gaddag_root, dawg_root;
    int rows, cols, size;
    int tile_count; /* the tile set: 0 the blank, 1 to tile_count - 1 the letters */
    int scores[MAX_TILES];
    uint8_t letter_mult[MAX_SQUARES], word_mult[MAX_SQUARES];
    int start;
    int bingo_tiles, bingo_bonus, first_min;
    /* a random key per letter: a multiset of letters hashes to the sum of
       its letters' keys (the word filter's and the bounds' hash) */
    uint64_t letter_hash[MAX_TILES];
} Config;

/* ---- a search's working memory --------------------------------------------- */

typedef struct CrossMemo {
    uint64_t key, mask;
} CrossMemo;

#define CROSS_MEMO 4096

typedef struct Gen {
    const Config *cfg; /* borrowed, only read */
    /* The walk's view of the configuration: the parts it reads at every
       node, borrowed from cfg when the generator is made (pointers into
       the configuration, never written through, and the width of
       letters_from). Read through cfg they cost a dependent load more on
       the way to the next node, and the compiler must fetch them again
       after every tile the walk writes (a byte store may alias anything,
       but not another field of this struct): 3% of a search's time. */
    const uint32_t *nodes;
    const void *letters_from;
    int narrow;
    const int *scores;
    /* the call */
    const uint8_t *board; /* `board_copy`, or the endgame's or a rollout's board */
    int rack_size;
    int counts[MAX_TILES];
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
    int tile_stride[MAX_TILES];
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
    int held_by_face[MAX_TILES], held_count; /* the letters the rack holds, highest face first (while bounding) */
    /* which letter multisets make a word, and which do less one letter
       (a Bloom filter: never a false "no"), built at the first search for
       the best plays; filter_state 1 when built, -1 when it cannot be */
    uint64_t *filter, filter_mask;
    int filter_state;
    uint64_t word_letters; /* the letters the lexicon's words use */
    /* cross-sets worked out, by a hash of the cross word (the board's cross
       words come back search after search: a simulation's rollouts all
       start from one board) */
    CrossMemo *cross_memo;
    /* leave values by leave, of the model `leave_model` (a strong
       reference, so that no other takes its address): a simulation's
       rollouts, call after call, meet the same leaves again and again */
    struct LeaveMemo *leave_memo;
    PyObject *leave_model;
    uint8_t board_copy[MAX_SQUARES]; /* the caller's board, copied once it is checked (last: seldom read) */
} Gen;

/* ---- the Python types -------------------------------------------------------- */

typedef struct {
    PyObject_HEAD
    int ready; /* __init__ succeeded: a second one is refused */
    int tile_count;
    double tile_values[MAX_TILES];
    double repeat_penalties[MAX_TILES];
    uint64_t vowels;
    int q, u;
    double third_copy_factor, balance_target, balance_weight, one_kind_consonant, one_kind_vowel, q_penalty;
} Heuristic;

typedef struct {
    PyObject_HEAD
    int ready;
    uint32_t *nodes;
    uint32_t *counts;
    double *values;
    Py_ssize_t node_count, value_count;
} Klv;

typedef struct {
    PyObject_HEAD
    int ready; /* the configuration is set: it stays as it is for the object's life */
    int busy;  /* a call is using `gen` (Python code it runs may not start another) */
    Config config;
    Gen gen;
} Core;

typedef struct {
    PyObject_HEAD
    Found *items;
    Py_ssize_t count;
    int rack_counts[MAX_TILES];
} Plays;

extern INTERNAL PyTypeObject CoreType, PlaysType, HeuristicType, KlvType;

/* ---- the walk's inner loop: inline everywhere -------------------------------- */

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
   letters: counted, not searched. (However the list is ordered, the count
   stays inside it: it counts letters of the list other than `letter`.) */
static inline uint32_t arc_for(uint32_t arc, uint64_t present, int letter) {
    return arc + bit_count(present & ((((uint64_t)1) << letter) - 1));
}

static inline uint64_t letters_at(const Gen *g, uint32_t arc) {
    return g->narrow ? ((const uint32_t *)g->letters_from)[arc] : ((const uint64_t *)g->letters_from)[arc];
}

/* The face value of a board tile (a checked one: 1 to tile_count - 1, or a blank). */
static inline int tile_face(const Config *c, uint8_t tile) { return (tile & BLANK_BIT) ? 0 : c->scores[tile]; }

static inline uint64_t mix64(uint64_t x) {
    x ^= x >> 30;
    x *= 0xBF58476D1CE4E5B9ull;
    x ^= x >> 27;
    x *= 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

/* The order of tilebag.engine.movegen.generator.play_order: best equity, higher score, then
   kind, across before down, row, column and tiles. (The endgame sorts its
   moves with it too.) */
static inline int compare_found(const Found *x, const Found *y) {
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

/* How far left a play found from anchor `a` may start: through the tiles
   before it, or over empty squares up to the previous anchor. */
static inline int leftmost_of(const Gen *g, int a) {
    int leftmost = a;
    if (a > 0 && g->letters[a - 1]) {
        while (leftmost > 0 && g->letters[leftmost - 1]) leftmost--;
    } else {
        while (leftmost > 0 && !g->letters[leftmost - 1] && !g->lane_anchor[leftmost - 1]) leftmost--;
    }
    return leftmost;
}

/* ---- config.c: the configuration, and the checks of what comes in ---------- */

/* Fill `c` from Core's arguments, every one checked; 0, or -1 with an
   exception (nothing left allocated). */
INTERNAL int config_init(Config *c, const Py_buffer *nodes, unsigned int gaddag_root, unsigned int dawg_root, int rows,
                         int cols, const Py_buffer *letter_mult, const Py_buffer *word_mult, PyObject *scores, int start,
                         int bingo_tiles, int bingo_bonus, int first_min);
INTERNAL void config_free(Config *c);
/* A board from Python: rows * cols bytes, each 0 (empty), a letter or a
   designated blank (BLANK_BIT | letter). 0, or -1 with a ValueError naming
   the square (`what` names the call). */
INTERNAL int check_board(const Config *c, const uint8_t *board, Py_ssize_t length, const char *what);
/* Rack tiles from Python: at most `most`, each 0 (a blank) or a letter. */
INTERNAL int check_rack(const Config *c, const uint8_t *tiles, Py_ssize_t length, Py_ssize_t most, const char *what,
                        const char *which);
/* Whether a byte is a tile a board may hold. */
static inline int is_board_tile(const Config *c, uint8_t tile) {
    int letter = tile & ~BLANK_BIT;
    return letter >= 1 && letter < c->tile_count;
}

/* ---- movegen.c: cross-sets, the walk, a call --------------------------------- */

INTERNAL void gen_init(Gen *g, const Config *c);
INTERNAL void gen_free(Gen *g); /* what a Core's generator owns */
INTERNAL uint64_t cross_key(const uint8_t *before, int nb, const uint8_t *after, int na);
INTERNAL uint64_t cross_set(const Config *c, const uint8_t *before, int nb, const uint8_t *after, int na);
INTERNAL void compute_cross(Gen *g, int down);
/* compute_cross for one square (`s`), from g->board. */
INTERNAL void cross_square(Gen *g, int down, int s);
/* Set the generator up for a board and a rack, both checked already. */
INTERNAL void begin_tiles(Gen *g, const uint8_t *board, const uint8_t *rack, int rack_len);
INTERNAL int setup_lane(Gen *g, int down, int lane);
INTERNAL void generate_anchor(Gen *g, int a, int leftmost);
INTERNAL void generate_all(Gen *g);
INTERNAL void keep(Gen *g, const Found *f);
INTERNAL void add_exchanges(Gen *g, int pass, int exchanges);
/* The first `n` plays found, in play order, into `out` (-1: no memory). */
INTERNAL int sorted_plays(const Gen *g, Found *out, Py_ssize_t n);

/* ---- shadow.c: the word filter and the best-play search ---------------------- */

INTERNAL void build_filter(Gen *g);
INTERNAL int word_may_exist(const Gen *g, uint64_t letters, int blanks);
INTERNAL int ready_for_top(Gen *g);
INTERNAL void generate_top(Gen *g);
/* generate_top, for a best play (top 1), with what earlier searches of the
   same rack shared in `share` (NULL: generate_top). */
INTERNAL void generate_top_shared(Gen *g, TopShare *share);

/* ---- leaves.c: leave values -------------------------------------------------- */

INTERNAL double heuristic_value(const Heuristic *h, const int *kinds, const int *kept, int m);
INTERNAL double klv_value(const Klv *k, const int *kinds, const int *kept, int m);
/* Whether a leave's value is one the core can count (finite, within MAX_LEAVE_POINTS). */
static inline int leave_in_range(double value) { return fabs(value) <= MAX_LEAVE_POINTS; }
/* The leave model `leaves` names (None, a Heuristic or a Klv, made and
   ready), or -1 with a TypeError naming `what`. */
INTERNAL int leave_mode_of(PyObject *leaves, const char *what);
INTERNAL int leave_table(Gen *g, int mode, PyObject *model, PyObject *table);
/* Leave values by leave, remembered from one table to the next (a
   simulation's racks share most of their leaves): of one model, the
   Heuristic or Klv its owner names for the memo's life. */
#define LEAVE_MEMO 16384
typedef struct LeaveMemo {
    uint64_t key[LEAVE_MEMO]; /* the leave's tiles, 6 bits each, under a leading 1; 0 when empty */
    double value[LEAVE_MEMO];
} LeaveMemo;
/* leave_table for a Heuristic or a Klv (`mode`), through `memo`. */
INTERNAL int leave_table_memo(Gen *g, int mode, PyObject *model, LeaveMemo *memo);
INTERNAL int fill_doubles(PyObject *values, double *out, Py_ssize_t limit, Py_ssize_t *count, const char *what);

/* ---- module.c: what every method checks first ---------------------------------- */

/* A Heuristic, a Klv or a Core is filled once: a search may be reading it
   (a Core's without the GIL), so it never changes under one. 0 when
   `ready` is not set yet, else -1 with a RuntimeError naming `type`. */
INTERNAL int refuse_second_init(int ready, const char *type);
/* 0 when the Core was initialised, else -1 with a RuntimeError naming `what`. */
INTERNAL int core_ready(const Core *self, const char *what);
/* Take the Core's generator for a call (core_ready, and not busy with
   another call); core_give_back when the call ends. */
INTERNAL int core_take(Core *self, const char *what);
INTERNAL void core_give_back(Core *self);

/* ---- endgame.c and rollout.c: their methods of Core ---------------------------- */

INTERNAL PyObject *Core_endgame(Core *self, PyObject *args);
INTERNAL PyObject *Core_rollouts(Core *self, PyObject *args);
extern INTERNAL const char Core_endgame_doc[], Core_rollouts_doc[];

#endif
