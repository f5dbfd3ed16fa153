/*
 * The exact endgame search of the compiled core: it generates its moves
 * with the core's generator (movegen.c), reading the Core's configuration
 * in place and writing only its own working memory.
 *
 * It finds the value tilebag/engine/endgame/solver.py (the reference)
 * finds, by the same search but for the order of the moves:
 *
 * - negamax with alpha-beta and a null window (PVS) for every move after
 *   the first; iterative deepening from one ply until a depth reaches the
 *   end of every line (the search is then exact), time runs out or the
 *   caller says stop;
 * - a transposition table: per position the depth searched (TO_THE_END
 *   when no line below it was cut by depth), the value, whether it is
 *   exact, a lower or an upper bound, and the best move;
 * - moves in this order: the table's best move first, then the placements
 *   that go out (by their score and twice the other's rack: what they are
 *   worth), then the others by static endgame equity (score minus twice
 *   the face value of the tiles kept; ties as
 *   tilebag.engine.movegen.generator.play_order breaks them), then the
 *   pass. Placements are generated only when the table's move did not cut
 *   the node off;
 * - the end of the game: a player going out gets twice the other's rack
 *   (the spread either end adjustment gives two players); scoreless turns
 *   running out count each rack against its owner; a line cut by depth
 *   counts the racks the same way;
 * - on several threads (Lazy SMP), helpers search the same position and
 *   share the table (eg_deepen); the move chosen is the first in the fixed
 *   order that makes the value (eg_choose_root), on any number of threads.
 *
 * What makes it fast, besides C:
 *
 * - the position is made and unmade in place (a board byte array, a tile
 *   count per rack) with a Zobrist hash of board, racks, player to move
 *   and scoreless turns as the table's key;
 * - the generator's cross-sets and anchors are not worked out again for
 *   every node: they are kept for the line being searched, each ply's
 *   changes logged, and a new board changes only the squares around the
 *   placements made since (eg_begin);
 * - the plays of a lane (a row or a column) depend only on the lane (its
 *   tiles, anchors, cross-sets and cross-scores) and the rack, and a move
 *   changes a few lanes: each lane's plays for a rack are kept, under a
 *   key of both, and copied when they come back (eg_generate_lanes);
 * - the last ply's moves are valued without making them (their value is
 *   their score and the racks they leave).
 *
 * Everything is allocated before the search (a helper's when it joins): the table
 * (mapped memory, touched only as it fills: a quarter full, it uses four
 * times the buckets, up to the memory limit), the keys, the logs, the
 * kept lane plays, and one stack of generated moves shared by the plies
 * (each node's moves above its parent's; it doubles in the rare line that
 * needs more). The search runs without the GIL: it takes it back a few
 * times a second to ask the caller's stop function and to see Ctrl+C, and
 * after each depth to report it (a helper never calls Python). Each search
 * has its own generator working memory
 * (Gen) and only reads the Core's configuration, which a Core never
 * changes after it is made (a second __init__ is refused), so the core can
 * go on generating plays meanwhile, from another thread or from the
 * callbacks.
 *
 * Build with -DEG_CHECK to check the kept cross-sets, anchors and lane
 * keys against a full computation at every generation (slow).
 */
#include "core.h"

#ifndef _WIN32
#include <pthread.h>
#define EG_THREADS 1 /* helpers on threads of their own (elsewhere the search runs on one) */
#else
#define EG_THREADS 0
#endif

#ifdef _WIN32
#include <windows.h>
static double eg_now(void) { return (double)GetTickCount64() / 1000.0; }
#else
#include <time.h>
static double eg_now(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + (double)now.tv_nsec * 1e-9;
}
#endif

#if defined(__GNUC__) || defined(__clang__)
#define EG_PREFETCH(address) __builtin_prefetch(address)
#else
#define EG_PREFETCH(address) ((void)(address))
#endif

/* The transposition table's memory: zeroed, and on Linux mapped in large
   pages where the system gives them (a probe then seldom misses the
   address cache). */
#ifdef __linux__
#include <sys/mman.h>
static void *eg_table_alloc(size_t bytes) {
    void *table = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (table == MAP_FAILED) return NULL;
#ifdef MADV_HUGEPAGE
    madvise(table, bytes, MADV_HUGEPAGE);
#endif
    return table;
}
static void eg_table_free(void *table, size_t bytes) {
    if (table) munmap(table, bytes);
}
#else
static void *eg_table_alloc(size_t bytes) { return PyMem_RawCalloc(1, bytes); }
static void eg_table_free(void *table, size_t bytes) {
    (void)bytes;
    PyMem_RawFree(table);
}
#endif

#define EG_INFINITY (1 << 30)
#define EG_TO_THE_END (1 << 20)     /* the depth of a position searched to the end of every line */
#define EG_MAX_DEPTH 250            /* the deepest search (plies) */
#define EG_POLL_SECONDS 0.02        /* how often the search asks the caller whether to stop */
#define EG_BUCKET 4                 /* table entries a position may be in */
#define EG_FIRST_BUCKETS (1 << 16)  /* the table's buckets in use at first */
#define EG_FIRST_MOVES 65536        /* the move stack's first size */
#define EG_SELECTED 3               /* moves picked one by one before the rest of a node's are sorted */
#define EG_LANE_ENTRIES (1 << 17)   /* lanes whose plays for a rack are kept */
#define EG_POOL_PLAYS (1 << 18)     /* plays kept for them */
#define EG_CROSS_ENTRIES (1 << 15)  /* cross-sets kept */
#define EG_LOGGED ((EG_MAX_DEPTH + 2) * (3 * MAX_RACK + 2 + 2 * MAX_LANE)) /* changes the logs hold at most */

enum { EG_EXACT = 0, EG_LOWER = 1, EG_UPPER = 2 };
enum { EG_RUNNING = 0, EG_OUT_OF_TIME, EG_INTERRUPTED, EG_FAILED };
#define EG_STORED_END INT16_MAX
#define EG_PLACED 10                /* tiles a move kept in the table may place */
#define EG_NO_MOVE 255
#define EG_OUT_RANK 1000000000000000LL /* a move that goes out ranks above any other (millipoints) */
#define EG_MOST_THREADS 64          /* searches run at once on one endgame */
#define EG_HELPERS_AFTER 3          /* helpers join once the main search has finished this depth */
#define EG_HELPERS_AFTER_SECONDS 0.25 /* and has searched this long (a small endgame needs no help) */

/* ---- the search's state -------------------------------------------------------------- */

/* One transposition-table entry, 32 bytes: the key is kept mixed with a
   hash of the rest, so that an entry another thread is writing while this
   one reads it (a torn entry) is not taken for the position's: searches on
   several threads share the table without locks. The best move keeps only the
   tiles it places: the squares it plays through are the ones the board
   holds (the same board, for the same key). A move that places more than
   EG_PLACED tiles (a rack of more than 10) or scores more than an int16
   holds is kept as EG_NO_MOVE: the node then has no table move first. */
typedef struct EgEntry {
    uint64_t key;
    int32_t value;
    int16_t score;         /* what the best move scores */
    int16_t depth;         /* EG_STORED_END: to the end of every line */
    uint8_t bound;         /* 0: an empty entry, else EG_EXACT, EG_LOWER or EG_UPPER, plus 1 */
    uint8_t kind;          /* PLACE, PASS or EG_NO_MOVE */
    uint8_t down, start, lane, len;
    uint8_t placed[EG_PLACED];
} EgEntry;
_Static_assert(sizeof(EgEntry) == 32, "a table entry is 32 bytes");

/* A square's cross-sets, cross-scores and anchor before a change. */
typedef struct EgSquareChange {
    uint64_t masks[2];
    int32_t cross[2];
    int32_t square;
    uint8_t anchor;
} EgSquareChange;

/* A lane's key before a change. */
typedef struct EgLaneChange {
    uint64_t key;
    uint8_t down, lane;
} EgLaneChange;

/* The changes that took the generator to the board of one ply. */
typedef struct EgSegment {
    int ply;
    Py_ssize_t squares, lanes; /* where its changes start in the logs */
} EgSegment;

/* A cross-set worked out, by the key of its cross word. */
typedef struct EgCrossMemo {
    uint64_t key, mask;
} EgCrossMemo;

/* The plays of one lane for one rack, kept in the pool. */
typedef struct EgLanePlays {
    uint64_t key;
    uint32_t epoch, count;
    Py_ssize_t offset;
} EgLanePlays;

typedef struct Endgame {
    const Config *cfg;               /* the Core's, only read */
    Gen gen;                         /* this search's own generator memory */
    /* the position */
    uint8_t board[MAX_SQUARES];
    int board_tiles;
    int racks[2][64];                /* tile counts: [0] the player to move at the start */
    int rack_tiles[2], rack_value[2];
    int side, scoreless, scoreless_limit;
    int ply;                         /* moves made from the start */
    Found line[EG_MAX_DEPTH + 1];    /* the moves made */
    /* keys */
    uint64_t *square_keys;           /* per square, 128 keys: letters, then blanks standing for a letter */
    uint64_t rack_keys[2][64][MAX_RACK + 1];
    uint64_t side_key;
    uint64_t hash;                   /* board and racks (the side and scoreless turns are mixed in at a probe) */
    uint64_t rack_hash[2];           /* each rack hashed alike for both players (for the lane plays) */
    /* the transposition table */
    EgEntry *table;
    size_t bucket_mask;              /* the buckets in use, less one */
    size_t buckets_max, stored, grow_at;
    /* the generator's cross-sets, anchors and lane keys, kept for the line:
       valid[p] when the logs hold the board of ply p of the line searched
       now (a new move at ply p - 1 clears it) */
    uint8_t valid[EG_MAX_DEPTH + 2];
    int base_ply;                    /* the ply whose board was worked out in full */
    EgSegment segment[EG_MAX_DEPTH + 2];
    int segments;
    EgSquareChange *square_log;
    EgLaneChange *lane_log;
    Py_ssize_t square_log_top, lane_log_top;
    uint32_t logged[2];              /* lanes whose key the newest segment has logged (bit per lane) */
    uint64_t lane_letters[2][MAX_LANE]; /* each lane's tiles (kept as moves are made) */
    uint64_t lane_squares[2][MAX_LANE]; /* its anchors, cross-sets, cross-scores (kept with the generator's) */
    EgCrossMemo *cross_memo;
    /* the plays of lanes for racks, kept */
    EgLanePlays *lane_table;
    Found *pool;
    Py_ssize_t pool_used;
    uint32_t epoch;                  /* entries of older epochs are empty (the pool filled up) */
    /* generating */
    Found *moves;                    /* the move stack */
    Py_ssize_t moves_cap, moves_top;
    Milli *leave_values;
    uint64_t leave_rack;             /* the rack the generator's leave values are for (0: none yet) */
    /* the search */
    Found root_move;                 /* the best move of the last depth searched */
    /* searching on several threads (Lazy SMP): the table is shared */
    int helper;                      /* 1 for a helper: it never calls Python, and stops when told */
    int owns_table;
    int *halt;                       /* a helper's: set by the main search when it must stop */
    long long nodes;
    int cut_by_depth;
    int state;
    double started, deadline, next_poll; /* deadline < 0: none */
    PyObject *stop;                  /* a callable or NULL */
    PyThreadState *thread;           /* while the GIL is released */
} Endgame;

/* ---- keys ------------------------------------------------------------------------- */

static uint64_t eg_mix(uint64_t x) {
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

static inline uint64_t eg_square_key(const Endgame *e, int square, uint8_t tile) {
    return e->square_keys[square * 128 + ((tile & 63) | ((tile & BLANK_BIT) ? 64 : 0))];
}

/* Fixed keys (the same every call, so searches are repeatable). */
static void eg_make_keys(Endgame *e) {
    uint64_t seed = 0x74696C65626167ull; /* "tilebag" */
    for (int i = 0; i < e->cfg->size * 128; i++) e->square_keys[i] = eg_mix(seed++);
    for (int side = 0; side < 2; side++)
        for (int t = 0; t < 64; t++)
            for (int n = 0; n <= MAX_RACK; n++) e->rack_keys[side][t][n] = eg_mix(seed++);
    e->side_key = eg_mix(seed++);
}

/* The hash of a player's rack, with the keys of player `as`. */
static uint64_t eg_rack_hash(const Endgame *e, int side, int as) {
    uint64_t hash = 0;
    for (int t = 0; t < 64; t++) hash ^= e->rack_keys[as][t][e->racks[side][t]];
    return hash;
}

static uint64_t eg_full_hash(const Endgame *e) {
    uint64_t hash = eg_rack_hash(e, 0, 0) ^ eg_rack_hash(e, 1, 1);
    for (int s = 0; s < e->cfg->size; s++)
        if (e->board[s]) hash ^= eg_square_key(e, s, e->board[s]);
    return hash;
}

/* The table key of the position: board, racks, player to move, scoreless turns. */
static inline uint64_t eg_key(const Endgame *e) {
    return e->hash ^ (e->side ? e->side_key : 0) ^ eg_mix(0x5C0E1E55ull + (uint64_t)e->scoreless);
}

/* ---- the transposition table ------------------------------------------------------- */

/* A hash of an entry's contents but its key. */
static inline uint64_t eg_entry_check(const EgEntry *entry) {
    uint64_t words[3];
    memcpy(words, (const char *)entry + sizeof entry->key, sizeof words);
    return eg_mix(words[0] ^ eg_mix(words[1] ^ eg_mix(words[2])));
}

/* The position an entry is for (its key as stored, unmixed). */
static inline uint64_t eg_entry_key(const EgEntry *entry) { return entry->key ^ eg_entry_check(entry); }

/* The position's entry copied into `copy` (a copy: another thread may be
   writing the table), or NULL. */
static EgEntry *eg_probe(const Endgame *e, uint64_t key, EgEntry *copy) {
    const EgEntry *bucket = &e->table[(key & e->bucket_mask) * EG_BUCKET];
    for (int i = 0; i < EG_BUCKET; i++) {
        *copy = bucket[i];
        if (copy->bound && eg_entry_key(copy) == key) return copy;
    }
    return NULL;
}

/* Use four times as many buckets (up to the memory limit): each entry
   moves to the bucket its key now picks, which only entries of its old
   bucket move to, so there is room. */
static void eg_grow(Endgame *e) {
    size_t old = e->bucket_mask + 1, grown = old * 4 < e->buckets_max ? old * 4 : e->buckets_max;
    for (size_t b = 0; b < old && grown > old; b++) {
        EgEntry *bucket = &e->table[b * EG_BUCKET];
        for (int i = 0; i < EG_BUCKET; i++) {
            size_t to = eg_entry_key(&bucket[i]) & (grown - 1);
            if (!bucket[i].bound || to == b) continue;
            EgEntry *target = &e->table[to * EG_BUCKET];
            int j = 0;
            while (target[j].bound) j++;
            target[j] = bucket[i];
            memset(&bucket[i], 0, sizeof bucket[i]);
        }
    }
    e->bucket_mask = grown - 1;
    e->grow_at = grown < e->buckets_max ? grown * EG_BUCKET / 4 : (size_t)-1;
}

/* Where to store a position: its own entry, an empty one, else the one
   searched least deep (the reference's dictionary forgets nothing, but
   takes no new positions once full). */
static EgEntry *eg_slot(Endgame *e, uint64_t key) {
    EgEntry *bucket = &e->table[(key & e->bucket_mask) * EG_BUCKET], *shallowest = NULL;
    for (int i = 0; i < EG_BUCKET; i++)
        if (bucket[i].bound && eg_entry_key(&bucket[i]) == key) return &bucket[i];
    for (int i = 0; i < EG_BUCKET; i++) {
        if (!bucket[i].bound) {
            if (e->stored + 1 >= e->grow_at) { /* a quarter full: more buckets first */
                eg_grow(e);
                return eg_slot(e, key);
            }
            e->stored++;
            return &bucket[i];
        }
        if (!shallowest || bucket[i].depth < shallowest->depth) shallowest = &bucket[i];
    }
    return shallowest;
}

static void eg_store(Endgame *e, uint64_t key, int depth, int value, int bound, const Found *move) {
    EgEntry made = {0}, *entry = &made;
    entry->depth = (int16_t)(depth == EG_TO_THE_END ? EG_STORED_END : depth);
    entry->value = value;
    entry->bound = (uint8_t)(bound + 1);
    entry->score = (int16_t)move->score;
    entry->kind = move->kind;
    entry->down = move->down;
    entry->start = move->start;
    entry->lane = move->lane;
    entry->len = move->len;
    int n = 0;
    for (int i = 0; i < move->len && n <= EG_PLACED; i++)
        if (move->tiles[i]) {
            if (n < EG_PLACED) entry->placed[n] = move->tiles[i];
            n++;
        }
    if (n > EG_PLACED || move->score > INT16_MAX) entry->kind = EG_NO_MOVE;
    made.key = key ^ eg_entry_check(&made);
    *eg_slot(e, key) = made;
}

static inline int eg_stored_depth(const EgEntry *entry) {
    return entry->depth == EG_STORED_END ? EG_TO_THE_END : entry->depth;
}

static inline int eg_stored_bound(const EgEntry *entry) { return entry->bound - 1; }

/* ---- making and unmaking moves ------------------------------------------------------ */

static inline int eg_square(const Config *c, const Found *move, int i) {
    int along = move->start + i;
    return move->down ? along * c->cols + move->lane : move->lane * c->cols + along;
}

static inline int eg_rack_tile(uint8_t tile) { return (tile & BLANK_BIT) ? 0 : tile; }

static inline int eg_face(const Endgame *e, int rack_tile) { return rack_tile ? e->cfg->scores[rack_tile] : 0; }

/* A rack's count of a tile changed from `count` to `count + step`. */
static inline void eg_count(Endgame *e, int side, int tile, int step) {
    int *count = &e->racks[side][tile];
    e->hash ^= e->rack_keys[side][tile][*count] ^ e->rack_keys[side][tile][*count + step];
    e->rack_hash[side] ^= e->rack_keys[0][tile][*count] ^ e->rack_keys[0][tile][*count + step];
    *count += step;
    e->rack_tiles[side] += step;
    e->rack_value[side] += step * eg_face(e, tile);
}

/* A tile put on a square or taken off it, in the keys: the position's and its lanes'. */
static inline void eg_flip_tile(Endgame *e, int square, uint8_t tile) {
    uint64_t key = eg_square_key(e, square, tile);
    e->hash ^= key;
    e->lane_letters[0][square / e->cfg->cols] ^= key;
    e->lane_letters[1][square % e->cfg->cols] ^= key;
}

/* Play a move for the player to move and pass the turn; returns the
   scoreless turns before it, for eg_unmake. */
static int eg_make(Endgame *e, const Found *move) {
    int me = e->side, before = e->scoreless;
    if (move->kind == PLACE)
        for (int i = 0; i < move->len; i++) {
            uint8_t tile = move->tiles[i];
            if (!tile) continue;
            int square = eg_square(e->cfg, move, i);
            e->board[square] = tile;
            e->board_tiles++;
            eg_flip_tile(e, square, tile);
            eg_count(e, me, eg_rack_tile(tile), -1);
        }
    e->scoreless = move->score > 0 ? 0 : before + 1;
    e->side = 1 - me;
    e->line[e->ply++] = *move;
    e->valid[e->ply] = 0;
    return before;
}

static void eg_unmake(Endgame *e, const Found *move, int scoreless) {
    int me = 1 - e->side;
    e->side = me;
    e->scoreless = scoreless;
    e->ply--;
    if (move->kind != PLACE) return;
    for (int i = 0; i < move->len; i++) {
        uint8_t tile = move->tiles[i];
        if (!tile) continue;
        int square = eg_square(e->cfg, move, i);
        e->board[square] = 0;
        e->board_tiles--;
        eg_flip_tile(e, square, tile);
        eg_count(e, me, eg_rack_tile(tile), 1);
    }
}

static int eg_same_move(const Found *x, const Found *y) {
    return x->kind == y->kind && x->down == y->down && x->start == y->start && x->lane == y->lane &&
           x->len == y->len && !memcmp(x->tiles, y->tiles, x->len);
}

/* The best move an entry keeps, as a move of this position: 1, or 0 when
   it keeps none or the move cannot be played here (its squares off the
   board or its tiles not on the rack: a guard against the rare positions
   that share a key). */
static int eg_entry_move(const Endgame *e, const EgEntry *entry, Found *move) {
    if (entry->kind == EG_NO_MOVE) return 0;
    memset(move, 0, sizeof *move);
    move->score = entry->score;
    move->kind = entry->kind;
    if (entry->kind != PLACE) return 1;
    move->down = entry->down;
    move->start = entry->start;
    move->lane = entry->lane;
    move->len = entry->len;
    const Config *c = e->cfg;
    int lane_length = move->down ? c->rows : c->cols, lanes = move->down ? c->cols : c->rows;
    if (move->lane >= lanes || move->start + move->len > lane_length || !move->len) return 0;
    int need[64] = {0}, n = 0;
    for (int i = 0; i < move->len; i++) {
        if (e->board[eg_square(c, move, i)]) continue; /* played through */
        if (n == EG_PLACED) return 0;
        uint8_t tile = entry->placed[n++];
        int rack_tile = eg_rack_tile(tile);
        if (!tile || ++need[rack_tile] > e->racks[e->side][rack_tile]) return 0;
        move->tiles[i] = tile;
    }
    return n > 0;
}

/* ---- the generator's board, kept for the line ---------------------------------------- */

/* The letters that fit between `before` and `after`, kept by a hash of
   both (the same cross words come back again and again in a search). */
static uint64_t eg_cross_set(Endgame *e, const uint8_t *before, int nb, const uint8_t *after, int na) {
    uint64_t key = cross_key(before, nb, after, na);
    EgCrossMemo *memo = &e->cross_memo[key & (EG_CROSS_ENTRIES - 1)];
    if (memo->key != key) {
        memo->key = key;
        memo->mask = cross_set(e->cfg, before, nb, after, na);
    }
    return memo->mask;
}

/* The cross-set and cross-score of square `s` for plays across (down 0:
   the cross word runs down) or down, as compute_cross works them out for
   every square. */
static void eg_cross_square(Endgame *e, int s, int down) {
    const Config *c = e->cfg;
    Gen *g = &e->gen;
    const uint8_t *b = g->board;
    uint8_t before[MAX_LANE], after[MAX_LANE];
    int nb = 0, na = 0, sum = 0;
    if (b[s]) {
        g->masks[down][s] = 0;
        g->cross[down][s] = NO_CROSS;
        return;
    }
    int step = down ? 1 : c->cols, at = down ? s % c->cols : s / c->cols, length = down ? c->cols : c->rows;
    int k = at - 1;
    while (k >= 0 && b[s + (k - at) * step]) k--;
    for (int j = k + 1; j < at; j++) {
        uint8_t t = b[s + (j - at) * step];
        before[nb++] = t & ~BLANK_BIT;
        sum += tile_face(c, t);
    }
    for (int j = at + 1; j < length && b[s + (j - at) * step]; j++) {
        uint8_t t = b[s + (j - at) * step];
        after[na++] = t & ~BLANK_BIT;
        sum += tile_face(c, t);
    }
    if (!nb && !na) {
        g->masks[down][s] = ALL_LETTERS;
        g->cross[down][s] = NO_CROSS;
        return;
    }
    g->cross[down][s] = sum;
    g->masks[down][s] = eg_cross_set(e, before, nb, after, na);
}

/* What a square adds to the key of its lane one way: its anchor, its
   cross-set and cross-score for plays that way, packed in 64 bits and
   mixed (and in a second mix what does not fit: a tile set of 32 tiles or
   more). A lane's key is the sum over its squares, with its tiles'. */
static inline uint64_t eg_square_term(const Endgame *e, int down, int s) {
    const Gen *g = &e->gen;
    uint64_t mask = g->masks[down][s], cross = (uint32_t)(g->cross[down][s] + 1); /* NO_CROSS: 0 */
    uint64_t packed = (mask & 0xFFFFFFFFull) | (uint64_t)g->anchor[s] << 32 | (cross & 0xFFFF) << 40;
    uint64_t rest = mask >> 32 | (cross >> 16) << 32;
    uint64_t term = eg_mix(packed + (uint64_t)(2 * s + down) * 0xD6E8FEB86659FD93ull);
    return rest ? term + eg_mix(rest ^ (uint64_t)(2 * s + down + 1) << 40) : term;
}

static inline int eg_lane_of(const Endgame *e, int down, int s) { return down ? s % e->cfg->cols : s / e->cfg->cols; }

/* Before a square's cross-sets, cross-scores or anchor change: log them
   (and, the first time in a segment, its lanes' keys) and take the square
   out of its lanes' keys. */
static void eg_leave_square(Endgame *e, int s) {
    const Gen *g = &e->gen;
    EgSquareChange *change = &e->square_log[e->square_log_top++];
    change->masks[0] = g->masks[0][s];
    change->masks[1] = g->masks[1][s];
    change->cross[0] = g->cross[0][s];
    change->cross[1] = g->cross[1][s];
    change->square = s;
    change->anchor = g->anchor[s];
    for (int down = 0; down < 2; down++) {
        int lane = eg_lane_of(e, down, s);
        if (!((e->logged[down] >> lane) & 1)) {
            EgLaneChange *kept = &e->lane_log[e->lane_log_top++];
            kept->key = e->lane_squares[down][lane];
            kept->down = (uint8_t)down;
            kept->lane = (uint8_t)lane;
            e->logged[down] |= (uint32_t)1 << lane;
        }
        e->lane_squares[down][lane] -= eg_square_term(e, down, s);
    }
}

/* After the change: the square back in its lanes' keys. */
static void eg_enter_square(Endgame *e, int s) {
    for (int down = 0; down < 2; down++) e->lane_squares[down][eg_lane_of(e, down, s)] += eg_square_term(e, down, s);
}

/* A square next to a word now: its cross-set for plays `down` (or across)
   worked out again, and it is an anchor. */
static void eg_reopen(Endgame *e, int s, int down) {
    eg_leave_square(e, s);
    eg_cross_square(e, s, down);
    e->gen.anchor[s] = 1;
    eg_enter_square(e, s);
}

/* The first empty square from `s` going `delta` squares at a time along a
   line (`at` its place on it, `length` the line's), or -1 at the edge. */
static int eg_first_empty(const Gen *g, int s, int at, int length, int delta, int sign) {
    for (at += sign, s += delta * sign; at >= 0 && at < length; at += sign, s += delta * sign)
        if (!g->board[s]) return s;
    return -1;
}

/* After a placement (its tiles on the board now): its squares are neither
   anchors nor open, and the empty squares at the ends of every word it
   made or lengthened get new cross-sets. */
static void eg_after_placement(Endgame *e, const Found *move) {
    const Config *c = e->cfg;
    Gen *g = &e->gen;
    int along = move->down ? c->cols : 1, across = move->down ? 1 : c->cols;
    int lane_length = move->down ? c->rows : c->cols, cross_length = move->down ? c->cols : c->rows;
    if (move->start > 0) eg_reopen(e, eg_square(c, move, 0) - along, !move->down);
    if (move->start + move->len < lane_length) eg_reopen(e, eg_square(c, move, move->len - 1) + along, !move->down);
    for (int i = 0; i < move->len; i++) {
        if (!move->tiles[i]) continue;
        int s = eg_square(c, move, i);
        eg_leave_square(e, s);
        g->masks[0][s] = g->masks[1][s] = 0;
        g->cross[0][s] = g->cross[1][s] = NO_CROSS;
        g->anchor[s] = 0;
        eg_enter_square(e, s);
        for (int sign = -1; sign <= 1; sign += 2) {
            int end = eg_first_empty(g, s, move->lane, cross_length, across, sign);
            if (end >= 0) eg_reopen(e, end, move->down);
        }
    }
}

/* A lane's squares' key, or its tiles' key, worked out in full. */
static uint64_t eg_lane_squares(const Endgame *e, int down, int lane) {
    const Config *c = e->cfg;
    int length = down ? c->rows : c->cols, step = down ? c->cols : 1, s = down ? lane : lane * c->cols;
    uint64_t key = 0;
    for (int i = 0; i < length; i++, s += step) key += eg_square_term(e, down, s);
    return key;
}

static uint64_t eg_lane_letters(const Endgame *e, int down, int lane) {
    const Config *c = e->cfg;
    int length = down ? c->rows : c->cols, step = down ? c->cols : 1, s = down ? lane : lane * c->cols;
    uint64_t key = eg_mix(0x1A7E0000ull + (uint64_t)(down * MAX_LANE + lane));
    for (int i = 0; i < length; i++, s += step)
        if (e->board[s]) key ^= eg_square_key(e, s, e->board[s]);
    return key;
}

/* Take the generator's cross-sets, anchors and lane keys back to those of
   the board at `ply` (it holds them for a ply at or past it). */
static void eg_undo_to(Endgame *e, int ply) {
    Gen *g = &e->gen;
    while (e->segments && e->segment[e->segments - 1].ply > ply) {
        const EgSegment *segment = &e->segment[--e->segments];
        while (e->lane_log_top > segment->lanes) {
            const EgLaneChange *change = &e->lane_log[--e->lane_log_top];
            e->lane_squares[change->down][change->lane] = change->key;
        }
        while (e->square_log_top > segment->squares) {
            const EgSquareChange *change = &e->square_log[--e->square_log_top];
            int s = change->square;
            g->masks[0][s] = change->masks[0];
            g->masks[1][s] = change->masks[1];
            g->cross[0][s] = change->cross[0];
            g->cross[1][s] = change->cross[1];
            g->anchor[s] = change->anchor;
        }
    }
}

/* Every square of the board worked out, as `begin` does (the first time,
   and for an empty board). */
static void eg_begin_in_full(Endgame *e, const uint8_t *rack, int n) {
    Gen *g = &e->gen;
    begin_tiles(g, e->board, rack, n); /* the board and racks were checked at the start */
    if (!n) {
        compute_cross(g, 0);
        compute_cross(g, 1);
    }
    for (int down = 0; down < 2; down++)
        for (int lane = 0; lane < (down ? e->cfg->cols : e->cfg->rows); lane++)
            e->lane_squares[down][lane] = eg_lane_squares(e, down, lane);
    memset(e->valid, 0, sizeof e->valid);
    e->base_ply = e->ply;
    e->segments = 0;
    e->square_log_top = e->lane_log_top = 0;
}

/* From the deepest ply of the line the logs hold (`known`) to this one:
   the squares around the placements made since, logged as a new segment. */
static void eg_begin_from(Endgame *e, int known, const uint8_t *rack, int n) {
    Gen *g = &e->gen;
    eg_undo_to(e, known);
    if (known != e->ply) {
        EgSegment *segment = &e->segment[e->segments++];
        segment->ply = e->ply;
        segment->squares = e->square_log_top;
        segment->lanes = e->lane_log_top;
        e->logged[0] = e->logged[1] = 0;
        for (int p = known; p < e->ply; p++)
            if (e->line[p].kind == PLACE) eg_after_placement(e, &e->line[p]);
    }
    g->failed = 0;
    g->used = 0;
    g->found_count = 0;
    g->held = 0;
    memset(g->counts, 0, sizeof g->counts);
    for (int i = 0; i < n; i++) g->counts[rack[i]]++;
    for (int t = 1; t < 64; t++)
        if (g->counts[t]) g->held |= (uint64_t)1 << t;
    g->rack_size = n;
    g->board_empty = 0;
    g->min_tiles = 1;
}

#ifdef EG_CHECK
static void eg_check(Endgame *e, const uint8_t *rack, int n) {
    static Gen check;
    const Gen *g = &e->gen;
    check = *g;
    begin_tiles(&check, e->board, rack, n);
    for (int s = 0; s < e->cfg->size; s++)
        if (check.masks[0][s] != g->masks[0][s] || check.masks[1][s] != g->masks[1][s] ||
            check.cross[0][s] != g->cross[0][s] || check.cross[1][s] != g->cross[1][s] || check.anchor[s] != g->anchor[s])
            fprintf(stderr, "eg_check: square %d differs at ply %d\n", s, e->ply);
    for (int down = 0; down < 2; down++)
        for (int lane = 0; lane < (down ? e->cfg->cols : e->cfg->rows); lane++)
            if (e->lane_squares[down][lane] != eg_lane_squares(e, down, lane) ||
                e->lane_letters[down][lane] != eg_lane_letters(e, down, lane))
                fprintf(stderr, "eg_check: lane key %d/%d differs at ply %d\n", down, lane, e->ply);
}
#endif

/* Ready the generator for the player to move: the rack, and the board's
   cross-sets, anchors and lane keys. The logs hold them for one line of
   plies: the generator goes back to the deepest ply the line searched now
   shares with them, then on with the placements made since. */
static void eg_begin(Endgame *e) {
    uint8_t rack[MAX_RACK];
    int n = 0;
    for (int t = 0; t < 64; t++)
        for (int c = 0; c < e->racks[e->side][t]; c++) rack[n++] = (uint8_t)t;
    int known = e->ply;
    while (known >= 0 && !e->valid[known]) known--;
    e->gen.board = e->board;
    if (known < e->base_ply || !e->board_tiles) eg_begin_in_full(e, rack, n);
    else eg_begin_from(e, known, rack, n);
    e->valid[e->ply] = 1;
#ifdef EG_CHECK
    eg_check(e, rack, n);
#endif
}

/* ---- generating a node's moves ----------------------------------------------------- */

/* The kept plays of a lane for a rack (NULL when not kept). */
static const EgLanePlays *eg_lane_probe(const Endgame *e, uint64_t key) {
    for (int i = 0; i < EG_BUCKET; i++) {
        const EgLanePlays *entry = &e->lane_table[(key + i) & (EG_LANE_ENTRIES - 1)];
        if (entry->epoch == e->epoch && entry->key == key) return entry;
    }
    return NULL;
}

/* Keep the plays of a lane for a rack (when the pool is full, everything
   kept is dropped first). */
static void eg_lane_keep(Endgame *e, uint64_t key, const Found *plays, Py_ssize_t count) {
    if (count > EG_POOL_PLAYS) return;
    if (e->pool_used + count > EG_POOL_PLAYS) {
        e->epoch++;
        e->pool_used = 0;
    }
    EgLanePlays *entry = &e->lane_table[key & (EG_LANE_ENTRIES - 1)];
    for (int i = 0; i < EG_BUCKET; i++) {
        EgLanePlays *slot = &e->lane_table[(key + i) & (EG_LANE_ENTRIES - 1)];
        if (slot->epoch != e->epoch) {
            entry = slot;
            break;
        }
    }
    entry->key = key;
    entry->epoch = e->epoch;
    entry->count = (uint32_t)count;
    entry->offset = e->pool_used;
    memcpy(e->pool + e->pool_used, plays, (size_t)count * sizeof(Found));
    e->pool_used += count;
}

/* The plays of every lane into the generator's buffer: kept ones copied,
   the others generated and kept (sets `failed` when the buffer is full). */
static void eg_generate_lanes(Endgame *e) {
    Gen *g = &e->gen;
    uint64_t keys[2][MAX_LANE];
    for (int down = 0; down < 2; down++) /* ask memory for every lane's entry at once */
        for (int lane = 0; lane < (down ? e->cfg->cols : e->cfg->rows); lane++) {
            keys[down][lane] = eg_mix(e->lane_letters[down][lane] ^ e->lane_squares[down][lane] ^ e->rack_hash[e->side]);
            EG_PREFETCH(&e->lane_table[keys[down][lane] & (EG_LANE_ENTRIES - 1)]);
        }
    for (int down = 0; down < 2; down++)
        for (int lane = 0; lane < (down ? e->cfg->cols : e->cfg->rows); lane++) {
            const EgLanePlays *kept = eg_lane_probe(e, keys[down][lane]);
            if (kept) {
                if (g->found_count + (Py_ssize_t)kept->count > g->found_cap) {
                    g->failed = 1;
                    return;
                }
                memcpy(g->found + g->found_count, e->pool + kept->offset, kept->count * sizeof(Found));
                g->found_count += kept->count;
                continue;
            }
            Py_ssize_t before = g->found_count;
            if (setup_lane(g, down, lane))
                for (int a = 0; a < g->length && !g->failed; a++)
                    if (g->lane_anchor[a]) generate_anchor(g, a, leftmost_of(g, a));
            if (g->failed) return;
            eg_lane_keep(e, keys[down][lane], g->found + before, g->found_count - before);
        }
}

/* Every placement of the player to move, valued as the endgame values
   them, onto the move stack at `base`; their count, or -1 when the stack
   could not grow. */
static Py_ssize_t eg_generate(Endgame *e, Py_ssize_t base) {
    Gen *g = &e->gen;
    eg_begin(e);
    uint64_t rack = e->rack_hash[e->side] | 1;
    if (rack != e->leave_rack) { /* else the values are this rack's already */
        leave_table(g, LEAVES_ENDGAME, NULL, NULL); /* fits: the table was made for the first racks */
        e->leave_rack = rack;
    }
    for (;;) {
        g->valued = 1;
        g->top = 0;
        g->found = e->moves + base;
        g->found_cap = e->moves_cap - base;
        g->found_count = 0;
        g->failed = 0;
        if (g->board_empty) generate_all(g);
        else eg_generate_lanes(e);
        if (!g->failed) return g->found_count;
        Py_ssize_t cap = e->moves_cap * 2;
        Found *grown = PyMem_RawRealloc(e->moves, (size_t)cap * sizeof(Found));
        if (!grown) return -1;
        e->moves = grown;
        e->moves_cap = cap;
    }
}

/* ---- the order of moves -------------------------------------------------------------- */

/* Whether `x` comes before `y` in the generator's order (equity and
   score settle almost every comparison; compare_found the rest). */
static inline int eg_before(const Found *x, const Found *y) {
    if (x->equity != y->equity) return x->equity > y->equity;
    if (x->score != y->score) return x->score > y->score;
    return compare_found(x, y) < 0;
}

static inline void eg_swap(Found *x, Found *y) {
    Found t = *x;
    *x = *y;
    *y = t;
}

/* Sort moves in the generator's order (quicksort, median of three,
   insertion sort for short runs; no two moves are equal). */
static void eg_sort(Found *moves, Py_ssize_t n) {
    while (n > 12) {
        Py_ssize_t mid = n / 2, last = n - 1;
        if (eg_before(&moves[mid], &moves[0])) eg_swap(&moves[mid], &moves[0]);
        if (eg_before(&moves[last], &moves[0])) eg_swap(&moves[last], &moves[0]);
        if (eg_before(&moves[last], &moves[mid])) eg_swap(&moves[last], &moves[mid]);
        Found pivot = moves[mid];
        Py_ssize_t i = 0, j = last;
        for (;;) {
            while (eg_before(&moves[i], &pivot)) i++;
            while (eg_before(&pivot, &moves[j])) j--;
            if (i >= j) break;
            eg_swap(&moves[i], &moves[j]);
            i++;
            j--;
        }
        Py_ssize_t left = j + 1; /* recurse into the smaller side, loop on the larger */
        if (left < n - left) {
            eg_sort(moves, left);
            moves += left;
            n -= left;
        } else {
            eg_sort(moves + left, n - left);
            n = left;
        }
    }
    for (Py_ssize_t i = 1; i < n; i++) {
        Found t = moves[i];
        Py_ssize_t j = i;
        while (j > 0 && eg_before(&t, &moves[j - 1])) {
            moves[j] = moves[j - 1];
            j--;
        }
        moves[j] = t;
    }
}

/* Put the `index`th best move of a node in its place: the first few are
   picked one by one (a cut-off often comes early), the rest sorted at
   once. `sorted` counts the moves in order. */
static void eg_order(Found *moves, Py_ssize_t count, Py_ssize_t index, Py_ssize_t *sorted) {
    if (index < *sorted) return;
    if (index >= EG_SELECTED) {
        eg_sort(moves + index, count - index);
        *sorted = count;
        return;
    }
    Py_ssize_t best = index;
    for (Py_ssize_t i = index + 1; i < count; i++)
        if (eg_before(&moves[i], &moves[best])) best = i;
    if (best != index) eg_swap(&moves[best], &moves[index]);
    *sorted = index + 1;
}

/* Rank a node's placements for the search: those that go out first, by
   what they are worth (their score and twice the other's rack: exact, and
   a high bound found early cuts the rest off), then the others by static
   endgame equity. Going out first took the median endgame of self-play
   games from 0.78 s to 0.14 s (docs/engine.md). Killer moves and a
   history table were measured too, and searched more positions, not
   fewer: the static order is already a good one. A helper (searching on
   another thread) orders the rest by score alone: searching the same tree
   in another order, it proves sooner what the main search will need (on
   two cores, 1.3 to 1.5 times the speed of one, against about 1.1 with
   the same order). */
static void eg_rank(Endgame *e, Found *moves, Py_ssize_t count) {
    int tiles = e->rack_tiles[e->side], other_value = e->rack_value[1 - e->side];
    for (Py_ssize_t i = 0; i < count; i++) {
        Found *m = &moves[i];
        int placed = 0;
        for (int j = 0; j < m->len; j++) placed += m->tiles[j] != 0;
        if (placed == tiles) m->equity = EG_OUT_RANK + (Milli)(m->score + 2 * other_value) * 1000;
        else if (e->helper) m->equity = (Milli)m->score * 1000;
    }
}

/* A node's moves in the reference's order, one at a time: the table's
   move, the placements (generated when first needed), the pass. */
typedef struct EgMoves {
    const Found *first; /* the table's move, or NULL */
    int stage;          /* 0: the table's move, 1: placements, 2: the pass, 3: done */
    Py_ssize_t base, count, index, sorted;
} EgMoves;

/* The next move into `move`: 1, or 0 when there are no more (-1: out of memory). */
static int eg_next_move(Endgame *e, EgMoves *it, Found *move) {
    if (it->stage == 0) {
        it->stage = 1;
        if (it->first) {
            *move = *it->first;
            return 1;
        }
    }
    if (it->stage == 1) {
        if (it->count < 0) {
            it->count = eg_generate(e, it->base);
            if (it->count < 0) return -1;
            e->moves_top = it->base + it->count;
            eg_rank(e, e->moves + it->base, it->count);
        }
        while (it->index < it->count) {
            Found *moves = e->moves + it->base;
            eg_order(moves, it->count, it->index, &it->sorted);
            const Found *next = &moves[it->index++];
            if (it->first && eg_same_move(next, it->first)) continue;
            *move = *next;
            return 1;
        }
        it->stage = 2;
    }
    if (it->stage == 2) {
        it->stage = 3;
        if (!it->first || it->first->kind != PASS) {
            memset(move, 0, sizeof *move);
            move->kind = PASS;
            return 1;
        }
    }
    return 0;
}

/* ---- stopping ---------------------------------------------------------------------- */

/* With the GIL: Ctrl+C, then the caller's stop function. */
static void eg_ask_caller(Endgame *e) {
    if (PyErr_CheckSignals() < 0) {
        if (PyErr_ExceptionMatches(PyExc_KeyboardInterrupt)) {
            PyErr_Clear();
            e->state = EG_INTERRUPTED;
        } else {
            e->state = EG_FAILED;
        }
        return;
    }
    if (!e->stop) return;
    PyObject *answer = PyObject_CallNoArgs(e->stop);
    int yes = answer ? PyObject_IsTrue(answer) : -1;
    Py_XDECREF(answer);
    if (yes < 0) e->state = EG_FAILED;
    else if (yes) e->state = EG_OUT_OF_TIME;
}

/* Every 256 nodes: the deadline, and now and then the caller (a helper
   never calls Python: it stops when the main search tells it to). */
static int eg_should_stop(Endgame *e) {
    double now = eg_now();
    if (e->halt && __atomic_load_n(e->halt, __ATOMIC_RELAXED)) {
        e->state = EG_OUT_OF_TIME;
    } else if (e->deadline >= 0 && now > e->deadline) {
        e->state = EG_OUT_OF_TIME;
    } else if (!e->helper && now >= e->next_poll) {
        PyEval_RestoreThread(e->thread);
        eg_ask_caller(e);
        e->thread = PyEval_SaveThread();
        e->next_poll = eg_now() + EG_POLL_SECONDS;
    }
    return e->state != EG_RUNNING;
}

/* ---- the search ---------------------------------------------------------------------- */

/* The spread the player to move makes from here, searching `depth` plies. */
static int eg_negamax(Endgame *e, int depth, int alpha, int beta);

/* What a move just made is worth to the player who made it (`score` its
   score): the end of the game, or the score less the other's best reply. */
static int eg_move_value(Endgame *e, int depth, int score, int alpha, int beta, int first) {
    int mover = 1 - e->side, other = e->side;
    if (!e->rack_tiles[mover]) /* went out: the other's rack is counted to this player */
        return score + 2 * e->rack_value[other];
    if (e->scoreless >= e->scoreless_limit) return score - e->rack_value[mover] + e->rack_value[other];
    if (first) return score - eg_negamax(e, depth - 1, score - beta, score - alpha);
    /* a null window first: most moves are only shown to be no better than the best so far */
    int value = score - eg_negamax(e, depth - 1, score - alpha - 1, score - alpha);
    if (e->state == EG_RUNNING && alpha < value && value < beta)
        value = score - eg_negamax(e, depth - 1, score - beta, score - alpha);
    return value;
}

/* A position at the search's depth, counted as eg_negamax counts it (its
   value is the caller's to work out): 0, or -1 when the search must stop. */
static inline int eg_leaf(Endgame *e) {
    e->nodes++;
    if ((e->nodes & 255) == 0 && eg_should_stop(e)) return -1;
    e->cut_by_depth = 1;
    return 0;
}

/* eg_move_value on the last ply, without making the move: its score and
   the racks it leaves are all it is worth (the positions after it are
   counted as the search counts them). */
static int eg_last_ply_value(Endgame *e, const Found *move, int alpha, int beta, int first) {
    int mover = e->side, other = 1 - mover, placed = 0, face = 0, score = move->score;
    if (move->kind == PLACE)
        for (int i = 0; i < move->len; i++)
            if (move->tiles[i]) {
                placed++;
                face += eg_face(e, eg_rack_tile(move->tiles[i]));
            }
    if (placed == e->rack_tiles[mover]) return score + 2 * e->rack_value[other];
    int value = score - (e->rack_value[mover] - face) + e->rack_value[other];
    if ((score > 0 ? 0 : e->scoreless + 1) >= e->scoreless_limit) return value;
    if (eg_leaf(e) < 0) return 0;
    if (!first && alpha < value && value < beta) eg_leaf(e); /* the reference searches it again, with the whole window */
    return value;
}

/* The table's word on this position: 1 with its value in `value` when it
   settles the node, else 0 and its best move (if any) as `first`. */
static int eg_look_up(Endgame *e, uint64_t key, int depth, int alpha, int beta, int *value, Found *first, EgMoves *it) {
    EgEntry copy;
    const EgEntry *stored = eg_probe(e, key, &copy);
    if (!stored) return 0;
    int bound = eg_stored_bound(stored), searched = eg_stored_depth(stored);
    *value = stored->value;
    if (searched >= depth &&
        (bound == EG_EXACT || (bound == EG_LOWER && *value >= beta) || (bound == EG_UPPER && *value <= alpha))) {
        if (searched != EG_TO_THE_END) e->cut_by_depth = 1; /* what was stored stopped short of the end */
        return 1;
    }
    if (eg_entry_move(e, stored, first)) it->first = first;
    return 0;
}

static int eg_negamax(Endgame *e, int depth, int alpha, int beta) {
    e->nodes++;
    if ((e->nodes & 255) == 0 && eg_should_stop(e)) return 0;
    int me = e->side;
    if (depth == 0) { /* not the end yet: as if the game stopped here with each rack counted against its owner */
        e->cut_by_depth = 1;
        return e->rack_value[1 - me] - e->rack_value[me];
    }
    uint64_t key = eg_key(e);
    Found first, move, best_move = {.kind = PASS}; /* best_move is always replaced: every node has the pass */
    EgMoves it = {.first = NULL, .stage = 0, .base = e->moves_top, .count = -1, .index = 0, .sorted = 0};
    int stored;
    if (eg_look_up(e, key, depth, alpha, beta, &stored, &first, &it)) return stored;
    int outer_cut = e->cut_by_depth, start_alpha = alpha, best = -EG_INFINITY, found;
    e->cut_by_depth = 0;
    while ((found = eg_next_move(e, &it, &move)) > 0) {
        int value;
        if (depth == 1) {
            value = eg_last_ply_value(e, &move, alpha, beta, best == -EG_INFINITY);
        } else {
            int scoreless = eg_make(e, &move);
            value = eg_move_value(e, depth, move.score, alpha, beta, best == -EG_INFINITY);
            eg_unmake(e, &move, scoreless);
        }
        if (e->state != EG_RUNNING) break;
        if (value > best) {
            best = value;
            best_move = move;
            if (best > alpha) alpha = best;
            if (best >= beta) {
                break;
            }
        }
    }
    e->moves_top = it.base;
    if (found < 0) e->state = EG_FAILED;
    if (e->state != EG_RUNNING) return 0;
    int bound = best <= start_alpha ? EG_UPPER : best >= beta ? EG_LOWER : EG_EXACT;
    if (!e->ply) e->root_move = best_move;
    eg_store(e, key, e->cut_by_depth ? depth : EG_TO_THE_END, best, bound, &best_move);
    e->cut_by_depth |= outer_cut;
    return best;
}

/* ---- results ------------------------------------------------------------------------- */

/* A move as (kind, start, lane, down, tiles, score). */
static PyObject *eg_move_tuple(const Found *move) {
    return Py_BuildValue("(iiiOy#i)", move->kind, move->start, move->lane, move->down ? Py_True : Py_False,
                         (const char *)move->tiles, (Py_ssize_t)move->len, move->score);
}

static int eg_is_over(const Endgame *e) {
    return e->scoreless >= e->scoreless_limit || !e->rack_tiles[0] || !e->rack_tiles[1];
}

/* The principal variation, read from the table (at most `depth` moves;
   the first is the one the search just found, which the table keeps too
   unless it is too big for an entry). */
static PyObject *eg_line(Endgame *e, int depth) {
    PyObject *line = PyList_New(0);
    Found moves[EG_MAX_DEPTH];
    int scoreless[EG_MAX_DEPTH], made = 0;
    while (line && made < depth && !eg_is_over(e)) {
        EgEntry copy;
        const EgEntry *stored = made ? eg_probe(e, eg_key(e), &copy) : NULL;
        if (!made) moves[made] = e->root_move;
        else if (!stored || !eg_entry_move(e, stored, &moves[made])) break;
        PyObject *item = eg_move_tuple(&moves[made]);
        if (!item || PyList_Append(line, item) < 0) Py_CLEAR(line);
        Py_XDECREF(item);
        scoreless[made] = eg_make(e, &moves[made]);
        made++;
    }
    while (made > 0) {
        made--;
        eg_unmake(e, &moves[made], scoreless[made]);
    }
    return line;
}

/* ---- a call -------------------------------------------------------------------------- */

/* A player's rack into the position (its tiles checked by Core_endgame). */
static void eg_fill_rack(Endgame *e, int side, const uint8_t *tiles, Py_ssize_t n) {
    for (Py_ssize_t i = 0; i < n; i++) {
        e->racks[side][tiles[i]]++;
        e->rack_tiles[side]++;
        e->rack_value[side] += eg_face(e, tiles[i]);
    }
}

/* How many leave values a rack's sub-racks need (the generator's table). */
static Py_ssize_t eg_leave_count(const int *counts) {
    Py_ssize_t size = 1;
    for (int t = 0; t < 64; t++) size *= counts[t] + 1;
    return size;
}

static void eg_free(Endgame *e) {
    if (!e) return;
    if (e->owns_table) eg_table_free(e->table, e->buckets_max * EG_BUCKET * sizeof(EgEntry));
    PyMem_RawFree(e->square_keys);
    PyMem_RawFree(e->square_log);
    PyMem_RawFree(e->lane_log);
    PyMem_RawFree(e->cross_memo);
    PyMem_RawFree(e->gen.cross_memo);
    PyMem_RawFree(e->lane_table);
    PyMem_RawFree(e->pool);
    PyMem_RawFree(e->moves);
    PyMem_RawFree(e->leave_values);
    PyMem_RawFree(e);
}

/* Allocate what the search needs; 0, or -1 when the memory is not there. */
static int eg_allocate(Endgame *e, Py_ssize_t megabytes, Py_ssize_t leaves, const Endgame *share) {
    if (share) { /* a helper: the main search's table, grown to its full size (it grows no more) */
        e->buckets_max = share->buckets_max;
        e->table = share->table;
        e->bucket_mask = share->bucket_mask;
        e->grow_at = (size_t)-1;
    } else {
        size_t entries = (size_t)(megabytes > 0 ? megabytes : 1) * 1024 * 1024 / sizeof(EgEntry), buckets = 256;
        while (buckets * 2 * EG_BUCKET <= entries) buckets *= 2;
        e->buckets_max = buckets;
        e->table = eg_table_alloc(buckets * EG_BUCKET * sizeof(EgEntry));
        e->owns_table = 1;
        e->bucket_mask = (buckets < EG_FIRST_BUCKETS ? buckets : EG_FIRST_BUCKETS) - 1;
        e->grow_at = e->bucket_mask + 1 < buckets ? (e->bucket_mask + 1) * EG_BUCKET / 4 : (size_t)-1;
    }
    e->square_keys = PyMem_RawMalloc((size_t)e->cfg->size * 128 * sizeof(uint64_t));
    e->square_log = PyMem_RawMalloc((size_t)EG_LOGGED * sizeof(EgSquareChange));
    e->lane_log = PyMem_RawMalloc((size_t)EG_LOGGED * sizeof(EgLaneChange));
    e->cross_memo = PyMem_RawCalloc(EG_CROSS_ENTRIES, sizeof(EgCrossMemo));
    e->lane_table = PyMem_RawCalloc(EG_LANE_ENTRIES, sizeof(EgLanePlays));
    e->pool = PyMem_RawMalloc((size_t)EG_POOL_PLAYS * sizeof(Found));
    e->moves = PyMem_RawMalloc((size_t)EG_FIRST_MOVES * sizeof(Found));
    e->moves_cap = EG_FIRST_MOVES;
    e->leave_values = PyMem_RawMalloc((size_t)leaves * sizeof(Milli));
    return e->table && e->square_keys && e->square_log && e->lane_log && e->cross_memo && e->lane_table && e->pool &&
                   e->moves && e->leave_values
               ? 0
               : -1;
}

/* The search state for one call (board and racks checked), everything
   allocated and the keys worked out (NULL when the memory is not there;
   no exception is set: a helper makes one without the GIL). With `share`,
   a helper's: it uses that search's table. */
static Endgame *eg_new(const Config *cfg, const uint8_t *board, const uint8_t *to_move, Py_ssize_t to_move_count,
                       const uint8_t *other, Py_ssize_t other_count, Py_ssize_t megabytes, const Endgame *share) {
    Endgame *e = PyMem_RawCalloc(1, sizeof(Endgame));
    if (!e) return NULL;
    e->cfg = cfg;
    gen_init(&e->gen, cfg);
    e->gen.fixed_found = 1;   /* its plays go on the search's move stack */
    e->gen.filter_state = -1; /* the word filter is for best-play searches: never built here */
    memcpy(e->board, board, (size_t)cfg->size);
    for (int s = 0; s < cfg->size; s++) e->board_tiles += e->board[s] != 0;
    eg_fill_rack(e, 0, to_move, to_move_count);
    eg_fill_rack(e, 1, other, other_count);
    Py_ssize_t leaves = eg_leave_count(e->racks[0]), more = eg_leave_count(e->racks[1]);
    if (eg_allocate(e, megabytes, more > leaves ? more : leaves, share) < 0) {
        eg_free(e);
        return NULL;
    }
    e->gen.leave_values = e->leave_values;
    e->gen.value_cap = more > leaves ? more : leaves;
    e->base_ply = EG_MAX_DEPTH + 2; /* nothing worked out yet */
    e->epoch = 1;
    eg_make_keys(e);
    e->hash = eg_full_hash(e);
    e->rack_hash[0] = eg_rack_hash(e, 0, 0);
    e->rack_hash[1] = eg_rack_hash(e, 1, 0);
    for (int down = 0; down < 2; down++)
        for (int lane = 0; lane < (down ? e->cfg->cols : e->cfg->rows); lane++)
            e->lane_letters[down][lane] = eg_lane_letters(e, down, lane);
    return e;
}

/* ---- searching on several threads ------------------------------------------------------ */

/* Lazy SMP: helpers search the same position on threads of their own
   while the main search searches a depth, every other one a ply deeper,
   and share the table, where what one proves spares the others its
   search. Only the main search reports and decides, and the table only
   holds what was proved, so the value does not depend on how many
   searches there are (the move chosen neither: eg_choose_root). The
   helpers run while the main search searches a depth and stop when it is
   done; in between the table may grow (it cannot while it is shared). */
typedef struct EgHelpers EgHelpers;

typedef struct EgHelperStart {
    EgHelpers *helpers;
    int index;
} EgHelperStart;

struct EgHelpers {
    int count;
    Endgame *search[EG_MOST_THREADS];
#if EG_THREADS
    pthread_t thread[EG_MOST_THREADS];
#endif
    int running[EG_MOST_THREADS];
    EgHelperStart start[EG_MOST_THREADS];
    int halt;
    int depth, max_depth;
};

static void *eg_helper_run(void *arg) {
    const EgHelperStart *start = arg;
    EgHelpers *helpers = start->helpers;
    Endgame *h = helpers->search[start->index];
    for (int depth = helpers->depth + 1 - (start->index & 1); depth <= helpers->max_depth; depth++) {
        h->cut_by_depth = 0;
        eg_negamax(h, depth, -EG_INFINITY, EG_INFINITY);
        if (h->state != EG_RUNNING || !h->cut_by_depth) break; /* told to stop, or to the end of every line */
    }
    return NULL;
}

/* Make `count` helpers on the main search's position (at its root); a
   helper that cannot be made is left out. */
static void eg_make_helpers(Endgame *e, EgHelpers *helpers, int count, int max_depth) {
    uint8_t racks[2][MAX_RACK];
    Py_ssize_t n[2] = {0, 0};
    for (int side = 0; side < 2; side++)
        for (int t = 0; t < 64; t++)
            for (int c = 0; c < e->racks[side][t]; c++) racks[side][n[side]++] = (uint8_t)t;
    helpers->max_depth = max_depth;
    for (int i = 0; i < count && i < EG_MOST_THREADS; i++) {
        Endgame *h = eg_new(e->cfg, e->board, racks[0], n[0], racks[1], n[1], 0, e);
        if (!h) break;
        h->side = e->side;
        h->scoreless = e->scoreless;
        h->scoreless_limit = e->scoreless_limit;
        h->deadline = e->deadline;
        h->helper = 1;
        h->halt = &helpers->halt;
        helpers->search[helpers->count++] = h;
    }
}

/* The table's entries stored by every search. */
static size_t eg_stored(const Endgame *e, const EgHelpers *helpers) {
    size_t stored = e->stored;
    for (int i = 0; i < helpers->count; i++) stored += helpers->search[i]->stored;
    return stored;
}

/* Start the helpers on a depth. The table does not grow while they run:
   it grows to its full size first (the searches it is shared by have
   already run a while, and will store much more). */
static void eg_start_helpers(Endgame *e, EgHelpers *helpers, int depth) {
    while (e->bucket_mask + 1 < e->buckets_max) eg_grow(e);
    e->grow_at = (size_t)-1;
    helpers->depth = depth;
    helpers->halt = 0;
    for (int i = 0; i < helpers->count; i++) {
        Endgame *h = helpers->search[i];
        h->bucket_mask = e->bucket_mask;
        h->state = EG_RUNNING;
        helpers->start[i] = (EgHelperStart){helpers, i};
#if EG_THREADS
        helpers->running[i] = pthread_create(&helpers->thread[i], NULL, eg_helper_run, &helpers->start[i]) == 0;
#endif
    }
}

/* Stop the helpers and wait for them; the table may grow again. */
static void eg_stop_helpers(Endgame *e, EgHelpers *helpers) {
    __atomic_store_n(&helpers->halt, 1, __ATOMIC_RELAXED);
    for (int i = 0; i < helpers->count; i++) {
#if EG_THREADS
        if (helpers->running[i]) pthread_join(helpers->thread[i], NULL);
#endif
        helpers->running[i] = 0;
    }
    if (helpers->count) {
        e->stored = eg_stored(e, helpers);
        for (int i = 0; i < helpers->count; i++) helpers->search[i]->stored = 0;
        size_t buckets = e->bucket_mask + 1;
        e->grow_at = buckets < e->buckets_max ? buckets * EG_BUCKET / 4 : (size_t)-1;
        while (e->stored + 1 >= e->grow_at) eg_grow(e);
    }
}

/* The helpers freed; the positions they searched are added to `nodes`. */
static void eg_free_helpers(Endgame *e, EgHelpers *helpers) {
    eg_stop_helpers(e, helpers);
    for (int i = 0; i < helpers->count; i++) {
        e->nodes += helpers->search[i]->nodes;
        eg_free(helpers->search[i]);
    }
    helpers->count = 0;
}

/* The root's move once its value is known: the first, in the fixed order
   (going out first, then static equity, the pass last), that makes the
   value, each tried with a null window searched to the end (the table
   answers most at once). So the move chosen is the same however many
   searches shared the table, and whatever they searched first. */
static void eg_choose_root(Endgame *e, int value) {
    EgMoves it = {.first = NULL, .stage = 0, .base = e->moves_top, .count = -1, .index = 0, .sorted = 0};
    Found move;
    while (eg_next_move(e, &it, &move) > 0) {
        int scoreless = eg_make(e, &move);
        int reached = eg_move_value(e, EG_MAX_DEPTH, move.score, value - 1, value, 1);
        eg_unmake(e, &move, scoreless);
        if (e->state != EG_RUNNING) break;
        if (reached >= value) {
            e->root_move = move;
            break;
        }
    }
    e->moves_top = it.base;
}

/* Iterative deepening: each depth in turn until one is exact, time runs
   out or `max_depth`; after each, `on_depth(depth, value, exact, nodes,
   line)` (with the GIL). The deepest finished is kept in `result`. With
   `threads` above 1, helpers join once a few depths are done (a small
   endgame is over before a thread would start). */
static void eg_deepen(Endgame *e, int max_depth, int threads, PyObject *on_depth, PyObject **result) {
    EgHelpers helpers = {0};
    for (int depth = 1; depth <= max_depth && e->state == EG_RUNNING; depth++) {
        double now = eg_now(), searched = now - e->started;
        if (threads > 1 && !helpers.count && depth > EG_HELPERS_AFTER && searched >= EG_HELPERS_AFTER_SECONDS &&
            (e->deadline < 0 || e->deadline - now >= searched)) /* not when time is running out: they would only cost */
            eg_make_helpers(e, &helpers, threads - 1, max_depth);
        if (helpers.count) eg_start_helpers(e, &helpers, depth);
        e->cut_by_depth = 0;
        int value = eg_negamax(e, depth, -EG_INFINITY, EG_INFINITY);
        eg_stop_helpers(e, &helpers);
        if (e->state != EG_RUNNING) break;
        int exact = !e->cut_by_depth;
        if (exact) {
            eg_choose_root(e, value);
            if (e->state != EG_RUNNING) break;
        }
        PyEval_RestoreThread(e->thread);
        PyObject *line = eg_line(e, depth), *found = NULL;
        if (line) found = Py_BuildValue("(iiOLN)", depth, value, exact ? Py_True : Py_False, e->nodes, line);
        if (!found) {
            e->state = EG_FAILED;
        } else {
            Py_XSETREF(*result, found);
            if (on_depth != Py_None) {
                PyObject *answer = PyObject_CallObject(on_depth, found);
                if (!answer) e->state = EG_FAILED;
                Py_XDECREF(answer);
            }
        }
        e->thread = PyEval_SaveThread();
        if (exact) break;
    }
    eg_free_helpers(e, &helpers);
}

INTERNAL const char Core_endgame_doc[] = PyDoc_STR(
"endgame(board, rack, other_rack, scoreless, scoreless_limit, max_depth, seconds, table_megabytes,\n"
"        stop, on_depth, threads)\n--\n\n"
"Solve an endgame (the bag empty) for the player holding `rack`, finding the\n"
"value tilebag.engine.endgame.solver finds: iterative deepening up to `max_depth`\n"
"plies (at most 250), for at most `seconds` (negative: no limit), with a table of at\n"
"most `table_megabytes`, on `threads` threads (1 to 64) sharing it. `stop` (None or a callable) is asked a few times a\n"
"second: true stops the search as time running out does. `on_depth` (None or a\n"
"callable) is called after each depth with (depth, value, exact, nodes, line).\n"
"Returns (depth, value, exact, nodes, line, interrupted) for the deepest depth\n"
"finished (depth 0 when none was): the value is the spread the player to move\n"
"adds from now, a line a list of (kind, start, lane, down, tiles, score) (kind 0\n"
"a placement, 2 the pass), and `interrupted` true when Ctrl+C stopped it.");

#define EG_MOST_SCORELESS 1000000  /* scoreless turns are counted in an int, one more a ply */
#define EG_MOST_MEGABYTES (1 << 20) /* the table's size in bytes must not overflow */

/* What the search relies on besides the board and racks: turn counts it
   can add to, a table size it can multiply, callbacks it can call. */
static int eg_check_limits(int scoreless, int scoreless_limit, Py_ssize_t megabytes, PyObject *stop, PyObject *on_depth) {
    if (scoreless < 0 || scoreless > EG_MOST_SCORELESS || scoreless_limit < 0 || scoreless_limit > EG_MOST_SCORELESS) {
        PyErr_Format(PyExc_ValueError, "Core.endgame: scoreless turns %d and their limit %d must be 0 to %d", scoreless,
                     scoreless_limit, EG_MOST_SCORELESS);
        return -1;
    }
    if (megabytes > EG_MOST_MEGABYTES) {
        PyErr_Format(PyExc_ValueError, "Core.endgame: a table of %zd megabytes is more than the %d the core takes",
                     megabytes, EG_MOST_MEGABYTES);
        return -1;
    }
    if ((stop != Py_None && !PyCallable_Check(stop)) || (on_depth != Py_None && !PyCallable_Check(on_depth))) {
        PyErr_SetString(PyExc_TypeError, "Core.endgame: stop and on_depth must each be None or a callable");
        return -1;
    }
    return 0;
}

static int eg_check_threads(int threads) {
    if (threads < 1 || threads > EG_MOST_THREADS) {
        PyErr_Format(PyExc_ValueError, "Core.endgame: %d threads: it takes 1 to %d", threads, EG_MOST_THREADS);
        return -1;
    }
    return 0;
}

INTERNAL PyObject *Core_endgame(Core *self, PyObject *args) {
    Py_buffer board, rack, other;
    int scoreless, scoreless_limit, max_depth;
    double seconds;
    Py_ssize_t megabytes;
    PyObject *stop, *on_depth;
    int threads = 1;
    if (core_ready(self, "Core.endgame") < 0) return NULL;
    if (!PyArg_ParseTuple(args, "y*y*y*iiidnOO|i", &board, &rack, &other, &scoreless, &scoreless_limit, &max_depth,
                          &seconds, &megabytes, &stop, &on_depth, &threads))
        return NULL;
    const Config *cfg = &self->config;
    PyObject *result = NULL, *found = NULL;
    Endgame *e = NULL;
    /* checked, then copied at once (no Python code runs in between) */
    if (check_board(cfg, board.buf, board.len, "Core.endgame") == 0 &&
        check_rack(cfg, rack.buf, rack.len, MAX_RACK, "Core.endgame", "the rack") == 0 &&
        check_rack(cfg, other.buf, other.len, MAX_RACK, "Core.endgame", "the other rack") == 0 &&
        eg_check_limits(scoreless, scoreless_limit, megabytes, stop, on_depth) == 0 &&
        eg_check_threads(threads) == 0) {
        e = eg_new(cfg, board.buf, rack.buf, rack.len, other.buf, other.len, megabytes, NULL);
        if (!e) PyErr_NoMemory();
    }
    PyBuffer_Release(&board);
    PyBuffer_Release(&rack);
    PyBuffer_Release(&other);
    if (!e) return NULL;
    e->scoreless = scoreless;
    e->scoreless_limit = scoreless_limit;
    e->stop = stop == Py_None ? NULL : stop;
    double started = eg_now();
    e->started = started;
    e->deadline = seconds < 0 ? -1.0 : started + seconds;
    e->next_poll = started + EG_POLL_SECONDS;
    e->thread = PyEval_SaveThread();
    eg_deepen(e, max_depth < EG_MAX_DEPTH ? max_depth : EG_MAX_DEPTH, EG_THREADS ? threads : 1, on_depth, &found);
    PyEval_RestoreThread(e->thread);
    if (e->state == EG_FAILED) {
        if (!PyErr_Occurred()) PyErr_NoMemory(); /* the move stack could not grow */
    } else {
        if (!found) found = Py_BuildValue("(iiOLN)", 0, 0, Py_False, e->nodes, PyList_New(0));
        if (found)
            result = Py_BuildValue("(OOOLOO)", PyTuple_GET_ITEM(found, 0), PyTuple_GET_ITEM(found, 1),
                                   PyTuple_GET_ITEM(found, 2), e->nodes, PyTuple_GET_ITEM(found, 4),
                                   e->state == EG_INTERRUPTED ? Py_True : Py_False);
    }
    Py_XDECREF(found);
    eg_free(e);
    return result;
}
