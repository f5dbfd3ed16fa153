/*
 * The rollouts of a Monte Carlo simulation, in the compiled core
 * (tilebag/engine/montecarlo/sim.py is the reference, step for step). They search with
 * the Core's own generator (its word filter and memo of cross-sets are
 * worth keeping from one rollout to the next), under the GIL.
 *
 * An iteration deals the opponent a rack from the tiles the player cannot
 * see, shuffled by a seeded generator (splitmix64, then Fisher-Yates); the
 * rest, in that order, is the bag, drawn from its end. Every candidate is
 * played from that same deal, then each side in turn plays its best play
 * by equity for the given plies. A rollout's value is the spread it gained
 * (millipoints) with the value of what each side's last play kept (the
 * player's added, the opponent's taken away), or, with a
 * win table, the chance of winning it leaves (in millionths) with the
 * spread's points to break ties.
 *
 * The board, the racks and the bag are copied into fixed arrays for each
 * rollout and changed in place: nothing is allocated per play or per
 * rollout, only one result tuple per rollout.
 *
 * Most of a rollout's time is its two searches for a best play, and much
 * of their work comes back (issue 36, docs/engine.md):
 * - The opponent's first reply is searched with one rack for every
 *   candidate of an iteration, on boards that differ from the position's
 *   only around the candidate: each anchor's bounds and best play, found
 *   once, serve every board where the squares they read are the same
 *   (TopShare, shadow.c). So do the player's next searches after
 *   candidates that keep the same tiles (they draw the same ones).
 * - The cross-sets and anchors of each candidate's board are worked out
 *   once a call; a later ply's are brought up to date around the play
 *   made since the last search.
 * - What a play keeps is its equity less its score (the search valued it
 *   already); the candidate's, the same in every iteration, once.
 * - Leave values are remembered by leave from one rack's table to the
 *   next, call after call (the generator's LeaveMemo).
 * - The exchanges are looked at after the placements, and only when the
 *   best leave one could keep beats the best play found.
 * None changes a result: each search still finds the best play by equity
 * (the order of plays being total, whatever order they are found in).
 *
 * Everything from Python is checked and copied before the first rollout:
 * the board, the racks and the unseen tiles as config.c checks them, each
 * candidate's squares and tiles, the win table's numbers. The seeds are
 * read first too, so no Python code runs once the rollouts have started
 * (but for a signal handler, which finds the Core busy).
 */
#include "core.h"

#define RO_GOLDEN 0x9E3779B97F4A7C15ull
#define RO_WIN_UNITS 1000000.0
#define RO_MAX_TILES 1024 /* unseen tiles a simulation may deal from */

/* splitmix64: the next number of the deal's generator (sim.py's _split_mix). */
static inline uint64_t ro_next(uint64_t *state) {
    uint64_t z = (*state += RO_GOLDEN);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Shuffle `tiles` in place from `seed` (sim.py's dealt). */
static void ro_shuffle(uint8_t *tiles, int n, uint64_t seed) {
    uint64_t state = seed;
    for (int i = n - 1; i > 0; i--) {
        int j = (int)((ro_next(&state) >> 11) % (uint64_t)(i + 1));
        uint8_t t = tiles[i];
        tiles[i] = tiles[j];
        tiles[j] = t;
    }
}

/* One side of a rollout. */
typedef struct RoRack {
    uint8_t tiles[MAX_RACK];
    int count;
} RoRack;

/* The state a rollout changes. */
typedef struct RoState {
    uint8_t board[MAX_SQUARES];
    RoRack racks[2];
    uint8_t bag[RO_MAX_TILES];
    int bag_count, scoreless, turn;
    int gained[2];
} RoState;

/* A leave table kept for a rack: the opponent's first reply is searched
   with the same rack for every candidate of an iteration. */
#define RO_KEPT_VALUES 256
#define RO_KEPT_PLIES 4
typedef struct RoLeaves {
    int valid, endgame;
    int counts[64], tile_stride[64];
    Py_ssize_t value_count;
    Milli best_leave[MAX_RACK + 1], plain_leave[MAX_RACK + 1], blank_leave[MAX_RACK + 1];
    Milli values[RO_KEPT_VALUES];
} RoLeaves;

/* The searches of one rack shared (see TopShare): the opponent's first
   reply meets one rack for every candidate of an iteration, and the
   player's next the same rack after candidates that keep the same tiles. */
#define RO_SHARES 8
typedef struct RoShare {
    TopShare top; /* its entries allocated when first used */
    int counts[MAX_TILES];
    unsigned long long used; /* when last used: the longest unused goes to a new rack */
} RoShare;

/* A board's cross-sets and anchors (begin_tiles'). */
typedef struct RoCross {
    uint64_t masks[2][MAX_SQUARES];
    int cross[2][MAX_SQUARES];
    uint8_t anchor[MAX_SQUARES];
} RoCross;

/* The position's board with its cross-sets and anchors: what the boards of
   shared searches are told apart from. */
typedef struct RoBase {
    uint8_t board[MAX_SQUARES];
    RoCross lines;
} RoBase;

/* What every rollout of one simulation shares. */
typedef struct RoJob {
    RoLeaves kept[RO_KEPT_PLIES]; /* by ply */
    PyObject *leaves; /* a Heuristic, a Klv, or Py_None */
    int leave_mode;   /* LEAVES_HEURISTIC, LEAVES_KLV or LEAVES_NONE while the bag has tiles */
    int plies, exchange_min_bag, scoreless_limit, rack_size;
    int me;
    int wins; /* values by the win table below */
    double spread_before;
    double scales[RO_MAX_TILES], edges[RO_MAX_TILES];
    int win_counts;
    LeaveMemo *leave_memo; /* the generator's, of this call's model (NULL without one) */
    RoBase *base; /* NULL: nothing shared */
    RoShare shares[RO_SHARES];
    unsigned stamps;
    unsigned long long uses;
    /* the cross-sets and anchors of each candidate's board (the position's
       with the candidate played: the opponent's reply is searched on it in
       every iteration), NULL when not worked out; and whether the
       generator holds those of the last search's board (the next differs
       from it by a play) */
    RoCross *after;
    int cross_ready;
} RoJob;

static void ro_remove(RoRack *rack, int tile) {
    for (int i = 0; i < rack->count; i++)
        if (rack->tiles[i] == tile) {
            rack->tiles[i] = rack->tiles[--rack->count];
            return;
        }
}

/* Draw up to `n` tiles from the end of the bag onto a rack (Bag.draw). */
static void ro_draw(RoState *s, RoRack *rack, int n) {
    if (n > s->bag_count) n = s->bag_count;
    for (int i = s->bag_count - n; i < s->bag_count; i++) rack->tiles[rack->count++] = s->bag[i];
    s->bag_count -= n;
}

/* Play a move for the player to move and pass the turn (Position.make,
   with an exchange's tiles put back at the bottom of the bag). */
static void ro_make(const Config *c, RoState *s, const Found *move, int rack_size) {
    RoRack *rack = &s->racks[s->turn];
    if (move->kind == PLACE) {
        for (int i = 0; i < move->len; i++) {
            uint8_t tile = move->tiles[i];
            if (!tile) continue;
            int square = move->down ? (move->start + i) * c->cols + move->lane : move->lane * c->cols + move->start + i;
            s->board[square] = tile;
            ro_remove(rack, (tile & BLANK_BIT) ? 0 : tile);
        }
        ro_draw(s, rack, rack_size - rack->count);
        s->gained[s->turn] += move->score;
    } else if (move->kind == EXCHANGE) {
        int n = move->len;
        RoRack drawn = {{0}, 0};
        ro_draw(s, &drawn, n);
        for (int i = 0; i < n; i++) ro_remove(rack, move->tiles[i]);
        memmove(s->bag + n, s->bag, (size_t)s->bag_count);
        memcpy(s->bag, move->tiles, (size_t)n);
        s->bag_count += n;
        for (int i = 0; i < drawn.count; i++) rack->tiles[rack->count++] = drawn.tiles[i];
    }
    int score = move->kind == PLACE ? move->score : 0;
    s->scoreless = score > 0 ? 0 : s->scoreless + 1;
    s->turn = 1 - s->turn;
}

static int ro_over(const RoState *s, int scoreless_limit) {
    if (s->scoreless >= scoreless_limit) return 1;
    return !s->bag_count && (!s->racks[0].count || !s->racks[1].count);
}

/* The leave table of the rack set up in `g` (leave_table), or the one kept
   for this ply when the rack is the same: the opponent's first reply meets
   the same dealt rack for every candidate of an iteration. */
static int ro_leave_table(Gen *g, RoJob *job, int ply, int endgame) {
    RoLeaves *kept = ply < RO_KEPT_PLIES ? &job->kept[ply] : NULL;
    if (kept && kept->valid && kept->endgame == endgame && !memcmp(kept->counts, g->counts, sizeof g->counts)) {
        memcpy(g->tile_stride, kept->tile_stride, sizeof g->tile_stride);
        g->value_count = kept->value_count; /* the table's room is at least this, from when it was kept */
        memcpy(g->leave_values, kept->values, (size_t)kept->value_count * sizeof(Milli));
        memcpy(g->best_leave, kept->best_leave, sizeof g->best_leave);
        memcpy(g->plain_leave, kept->plain_leave, sizeof g->plain_leave);
        memcpy(g->blank_leave, kept->blank_leave, sizeof g->blank_leave);
        return 0;
    }
    int filled = endgame ? leave_table(g, LEAVES_ENDGAME, NULL, NULL)
                         : leave_table_memo(g, job->leave_mode, job->leaves, job->leave_memo);
    if (filled < 0) return -1;
    if (kept) {
        kept->valid = g->value_count <= RO_KEPT_VALUES;
        if (!kept->valid) return 0;
        kept->endgame = endgame;
        memcpy(kept->counts, g->counts, sizeof g->counts);
        memcpy(kept->tile_stride, g->tile_stride, sizeof g->tile_stride);
        kept->value_count = g->value_count;
        memcpy(kept->values, g->leave_values, (size_t)g->value_count * sizeof(Milli));
        memcpy(kept->best_leave, g->best_leave, sizeof g->best_leave);
        memcpy(kept->plain_leave, g->plain_leave, sizeof g->plain_leave);
        memcpy(kept->blank_leave, g->blank_leave, sizeof g->blank_leave);
    }
    return 0;
}

/* The squares of the board set up in `g` whose tile, cross-set,
   cross-score or anchor differ from the position's: by direction, then
   lane, a bit per square (TopShare's `changed`). */
static void ro_changed(const Gen *g, const RoBase *base, uint32_t *changed) {
    const Config *c = g->cfg;
    memset(changed, 0, 2 * MAX_LANE * sizeof *changed);
    for (int sq = 0, r = 0, col = 0; sq < c->size; sq++) {
        const RoCross *x = &base->lines;
        int both = g->board[sq] != base->board[sq] || g->anchor[sq] != x->anchor[sq];
        if (both || g->masks[0][sq] != x->masks[0][sq] || g->cross[0][sq] != x->cross[0][sq])
            changed[r] |= (uint32_t)1 << col;
        if (both || g->masks[1][sq] != x->masks[1][sq] || g->cross[1][sq] != x->cross[1][sq])
            changed[MAX_LANE + col] |= (uint32_t)1 << r;
        if (++col == c->cols) { col = 0; r++; }
    }
}

/* The shared searches of the rack set up in `g`: the ones it had, or the
   longest unused given to it (with a new stamp); NULL when there is no
   memory for them (the search is then made alone). */
static TopShare *ro_share_for(Gen *g, RoJob *job) {
    RoShare *oldest = &job->shares[0];
    job->uses++;
    for (int i = 0; i < RO_SHARES; i++) {
        RoShare *sh = &job->shares[i];
        if (sh->top.entries && !memcmp(sh->counts, g->counts, sizeof sh->counts)) {
            sh->used = job->uses;
            return &sh->top;
        }
        if (sh->used < oldest->used) oldest = sh;
    }
    if (!oldest->top.entries) {
        int side = g->cfg->rows > g->cfg->cols ? g->cfg->rows : g->cfg->cols;
        oldest->top.entries = PyMem_RawCalloc((size_t)2 * side * side * 2, sizeof(ShareEntry));
        oldest->top.listed = PyMem_RawMalloc((size_t)2 * side * side * 2 * sizeof(int));
        if (!oldest->top.entries || !oldest->top.listed) {
            PyMem_RawFree(oldest->top.entries);
            PyMem_RawFree(oldest->top.listed);
            oldest->top.entries = NULL;
            oldest->top.listed = NULL;
            return NULL;
        }
        oldest->top.side = side;
    }
    memcpy(oldest->counts, g->counts, sizeof oldest->counts);
    oldest->top.stamp = ++job->stamps; /* (from 1: the entries and lanes start at 0) */
    oldest->top.used = 0;
    oldest->used = job->uses;
    return &oldest->top;
}

/* Set the generator up for the player to move as begin_tiles does, the
   board's cross-sets and anchors taken from `known` (those of this board),
   or brought up to date from the last search's board by the play `after`
   made since (job->cross_ready: g holds the last search's), or worked out
   afresh. Only the first is done on an empty board (no job->base). */
static void ro_begin(Gen *g, RoJob *job, const RoState *s, const RoCross *known, const Found *after) {
    const RoRack *rack = &s->racks[s->turn];
    const Config *c = g->cfg;
    if (!job->base || (!known && !(after && job->cross_ready))) {
        begin_tiles(g, s->board, rack->tiles, rack->count);
        job->cross_ready = rack->count > 0; /* (begin_tiles works out no cross-set for an empty rack) */
        return;
    }
    /* begin_tiles' setup of the rack; the board is not empty (see ro_ready_share) */
    g->board = s->board;
    g->failed = 0;
    g->used = 0;
    g->found_count = 0;
    g->held = 0;
    memset(g->counts, 0, sizeof g->counts);
    for (int i = 0; i < rack->count; i++) g->counts[rack->tiles[i]]++;
    g->rack_size = rack->count;
    for (int t = 1; t < MAX_TILES; t++)
        if (g->counts[t]) g->held |= (uint64_t)1 << t;
    g->board_empty = 0;
    g->min_tiles = 1;
    job->cross_ready = 1;
    if (known) {
        for (int d = 0; d < 2; d++) {
            memcpy(g->masks[d], known->masks[d], (size_t)c->size * sizeof g->masks[d][0]);
            memcpy(g->cross[d], known->cross[d], (size_t)c->size * sizeof g->cross[d][0]);
        }
        memcpy(g->anchor, known->anchor, (size_t)c->size);
        return;
    }
    if (after->kind != PLACE) return; /* the board is as it was */
    /* the squares played lose their cross-sets and anchors; the squares at
       the ends of the lines through them get new cross-sets, and their empty
       neighbours become anchors (what begin_tiles would find) */
    int rows = c->rows, cols = c->cols;
    const uint8_t *b = s->board;
    for (int i = 0; i < after->len; i++) {
        if (!after->tiles[i]) continue;
        int sq = after->down ? (after->start + i) * cols + after->lane : after->lane * cols + after->start + i;
        g->masks[0][sq] = g->masks[1][sq] = 0;
        g->cross[0][sq] = g->cross[1][sq] = NO_CROSS;
        g->anchor[sq] = 0;
    }
    for (int i = 0; i < after->len; i++) {
        if (!after->tiles[i]) continue;
        int r = after->down ? after->start + i : after->lane, col = after->down ? after->lane : after->start + i;
        int k;
        for (k = r - 1; k >= 0 && b[k * cols + col]; k--) {}
        if (k >= 0) cross_square(g, 0, k * cols + col);
        for (k = r + 1; k < rows && b[k * cols + col]; k++) {}
        if (k < rows) cross_square(g, 0, k * cols + col);
        for (k = col - 1; k >= 0 && b[r * cols + k]; k--) {}
        if (k >= 0) cross_square(g, 1, r * cols + k);
        for (k = col + 1; k < cols && b[r * cols + k]; k++) {}
        if (k < cols) cross_square(g, 1, r * cols + k);
        if (r > 0 && !b[(r - 1) * cols + col]) g->anchor[(r - 1) * cols + col] = 1;
        if (r < rows - 1 && !b[(r + 1) * cols + col]) g->anchor[(r + 1) * cols + col] = 1;
        if (col > 0 && !b[r * cols + col - 1]) g->anchor[r * cols + col - 1] = 1;
        if (col < cols - 1 && !b[r * cols + col + 1]) g->anchor[r * cols + col + 1] = 1;
    }
}

/* The best play of the player to move by equity, as Engine.best finds it:
   1 with it in `best`, 0 when there is none (not even a pass), -1 on an
   error. With `shared`, through the searches this rack shares (see
   RoShare); `known` and `after` as ro_begin takes them. */
static int ro_best(Gen *g, RoJob *job, const RoState *s, int ply, int shared, const RoCross *known, const Found *after,
                   Found *best) {
    const RoRack *rack = &s->racks[s->turn];
    g->valued = 1;
    g->top = 1;
    g->need_blank = 0;
    ro_begin(g, job, s, known, after);
    int endgame = s->bag_count <= 0;
    if (ro_leave_table(g, job, ply, endgame) < 0) return -1;
    int exchanges = s->bag_count >= job->exchange_min_bag;
    int most = exchanges ? (rack->count < s->bag_count ? rack->count : s->bag_count) : 0;
    add_exchanges(g, exchanges, 0); /* the pass; the exchanges after the placements, when one could be kept */
    TopShare *share = shared && job->base && !endgame ? ro_share_for(g, job) : NULL; /* (an empty bag values leaves otherwise) */
    if (share) {
        uint32_t changed[2 * MAX_LANE];
        ro_changed(g, job->base, changed);
        share->changed = changed;
        generate_top_shared(g, share);
        share->changed = NULL;
    } else {
        generate_top(g);
    }
    if (most > 0 && !g->failed) {
        Milli leave = NO_EQUITY; /* the best an exchange could keep */
        for (int n = 1; n <= most; n++)
            if (g->best_leave[n] > leave) leave = g->best_leave[n];
        if (!g->found_count || leave >= g->found[0].equity) add_exchanges(g, 0, most);
    }
    if (g->failed) {
        PyErr_SetString(PyExc_MemoryError, "Core.rollouts: the search failed");
        return -1;
    }
    if (!g->found_count) return 0;
    *best = g->found[0];
    return 1;
}

/* The face value of a rack's tiles (a blank's is 0). */
static int ro_face(const Gen *g, const RoRack *rack) {
    int face = 0;
    for (int i = 0; i < rack->count; i++) face += g->cfg->scores[rack->tiles[i]];
    return face;
}

/* The value of the tiles `rack` keeps (the leave valuer of sim.py's
   _rollout) into `value`; -1 with a ValueError when the model gives a
   value the core cannot count. */
static int ro_leave(const Gen *g, const RoJob *job, const RoRack *rack, int bag_count, Milli *value) {
    *value = 0;
    if (bag_count <= 0) {
        *value = -2000 * (Milli)ro_face(g, rack);
        return 0;
    }
    int tally[MAX_TILES] = {0}, kinds[MAX_TILES], kept[MAX_TILES], m = 0;
    for (int i = 0; i < rack->count; i++) tally[rack->tiles[i]]++;
    for (int t = 0; t < MAX_TILES; t++)
        if (tally[t]) { kinds[m] = t; kept[m] = tally[t]; m++; }
    double points = 0.0;
    if (job->leave_mode == LEAVES_HEURISTIC) points = heuristic_value((const Heuristic *)job->leaves, kinds, kept, m);
    else if (job->leave_mode == LEAVES_KLV) points = klv_value((const Klv *)job->leaves, kinds, kept, m);
    if (!leave_in_range(points)) {
        PyErr_Format(PyExc_ValueError, "Core.rollouts: a leave of %d tiles has a value that is not a finite number of at most "
                     "%lld points either way", rack->count, (long long)MAX_LEAVE_POINTS);
        return -1;
    }
    *value = to_milli(points);
    return 0;
}

/* The value of what `move` keeps of the rack of the player to move, as its
   equity counts it (the leave valuer with the bag as it is before the play;
   Engine.equity less the score, as sim.py's _kept_value counts it). */
static int ro_kept(const Gen *g, const RoJob *job, const RoState *s, const Found *move, Milli *value) {
    RoRack leave = s->racks[s->turn];
    if (move->kind == PLACE) {
        for (int i = 0; i < move->len; i++)
            if (move->tiles[i]) ro_remove(&leave, (move->tiles[i] & BLANK_BIT) ? 0 : move->tiles[i]);
    } else if (move->kind == EXCHANGE) {
        for (int i = 0; i < move->len; i++) ro_remove(&leave, move->tiles[i]);
    }
    return ro_leave(g, job, &leave, s->bag_count, value);
}

/* The racks counted at the end of a rollout's game (Game._count_racks, game.py): after
   too many scoreless turns each side loses its rack's value; a side that
   went out gains the other's, which the other loses (the spread is the
   same when the rules double it instead). */
static void ro_count_racks(const Gen *g, const RoJob *job, RoState *s) {
    int faces[2] = {ro_face(g, &s->racks[0]), ro_face(g, &s->racks[1])};
    if (s->scoreless >= job->scoreless_limit) {
        s->gained[0] -= faces[0];
        s->gained[1] -= faces[1];
    } else {
        int out = s->racks[0].count ? 1 : 0;
        s->gained[out] += faces[1 - out];
        s->gained[1 - out] -= faces[1 - out];
    }
}

static inline long long ro_floor_div(long long a, long long b) {
    long long q = a / b;
    if ((a % b) && ((a < 0) != (b < 0))) q--;
    return q;
}

/* Play one candidate out from `start` (a copy is changed); -1 on an error. */
static int ro_rollout(Gen *g, RoJob *job, const RoState *start, const Found *candidate, int grouped,
                      const RoCross *candidate_cross, Milli *candidate_kept, long long *value, long long *points) {
    RoState s;
    memcpy(&s, start, offsetof(RoState, bag) + (size_t)start->bag_count);
    s.bag_count = start->bag_count;
    s.scoreless = start->scoreless;
    s.turn = start->turn;
    s.gained[0] = s.gained[1] = 0;
    Milli kept[2] = {0, 0}; /* the value of what each side's last play kept */
    /* what the candidate keeps is the same in every iteration: worked out once */
    if (*candidate_kept == NO_EQUITY && ro_kept(g, job, &s, candidate, candidate_kept) < 0) return -1;
    kept[s.turn] = *candidate_kept;
    ro_make(g->cfg, &s, candidate, job->rack_size);
    Found last; /* the play made since the last search */
    for (int ply = 0; ply < job->plies; ply++) {
        if (ro_over(&s, job->scoreless_limit)) break;
        Found best;
        /* shared: the opponent's first reply (one rack, every candidate),
           and the player's next after a candidate that keeps what another
           keeps (drawing the same tiles, the same rack) */
        int found = ro_best(g, job, &s, ply, ply == 0 || (ply == 1 && grouped), ply == 0 ? candidate_cross : NULL,
                            ply == 0 ? NULL : &last, &best);
        if (found < 0) return -1;
        if (!found) break;
        /* its equity less its score: the value of what it keeps, from the
           same leave values (ro_kept's), for the same bag */
        kept[s.turn] = best.equity - 1000 * (Milli)best.score;
        ro_make(g->cfg, &s, &best, job->rack_size);
        last = best;
    }
    int me = job->me;
    int over = ro_over(&s, job->scoreless_limit);
    if (over) ro_count_racks(g, job, &s);
    long long gained = 1000LL * (s.gained[me] - s.gained[1 - me]);
    if (!over) gained += kept[me] - kept[1 - me]; /* each side's last leave is still to be played */
    *points = gained;
    *value = gained;
    if (job->wins) {
        double chance;
        if (over) { /* the result, not a guess from the curve */
            double final = job->spread_before * 1000.0 + (double)gained;
            chance = final > 0 ? 1.0 : final < 0 ? 0.0 : 0.5;
        } else {
            double spread = (job->spread_before + (double)gained / 1000.0) * (s.turn == me ? 1.0 : -1.0);
            int unseen = s.bag_count + s.racks[1 - s.turn].count;
            int u = unseen < 0 ? 0 : unseen > job->win_counts - 1 ? job->win_counts - 1 : unseen;
            double x = (spread + job->edges[u]) / job->scales[u];
            chance = x > 40 ? 1.0 : x < -40 ? 0.0 : 1 / (1 + exp(-x));
            if (s.turn != me) chance = 1 - chance;
        }
        *value = (long long)nearbyint(chance * RO_WIN_UNITS) + ro_floor_div(gained, 1000);
    }
    return 0;
}

#define RO_MOST_SCORELESS 1000000 /* scoreless turns are counted in an int, one more a ply */

/* Candidate `number` from Python, (kind, start, lane, down, tiles, score),
   checked as a rollout plays it: a placement's squares on the board and
   its tiles 0 (through a board tile) or tiles a board holds; an exchange's
   tiles on the rack (`rack_counts`), since as many are drawn as it gives
   back; a score a play can make. */
static int ro_candidate(const Config *c, PyObject *item, Py_ssize_t number, const int *rack_counts, Found *f) {
    int kind, start, lane, down, score;
    Py_buffer tiles;
    if (!PyTuple_Check(item)) {
        PyErr_Format(PyExc_TypeError, "Core.rollouts: candidate %zd is a %.100s, not a tuple (kind, start, lane, down, tiles, score)",
                     number, Py_TYPE(item)->tp_name);
        return -1;
    }
    if (!PyArg_ParseTuple(item, "iiipy*i", &kind, &start, &lane, &down, &tiles, &score)) return -1;
    int ok = 0, length = down ? c->rows : c->cols, lanes = down ? c->cols : c->rows;
    const uint8_t *t = tiles.buf;
    if (kind < PLACE || kind > PASS) {
        PyErr_Format(PyExc_ValueError, "Core.rollouts: candidate %zd has kind %d (0 a placement, 1 an exchange, 2 the pass)",
                     number, kind);
    } else if (score < -MAX_PLAY_SCORE || score > MAX_PLAY_SCORE) {
        PyErr_Format(PyExc_ValueError, "Core.rollouts: candidate %zd scores %d, more than a play can (%d)", number, score,
                     MAX_PLAY_SCORE);
    } else if (kind == PLACE && (start < 0 || lane < 0 || lane >= lanes || tiles.len > MAX_LANE ||
                                 start + tiles.len > length)) {
        PyErr_Format(PyExc_ValueError,
                     "Core.rollouts: candidate %zd, %zd squares from %d on %s %d, is off the board of %d rows of %d", number,
                     tiles.len, start, down ? "column" : "row", lane, c->rows, c->cols);
    } else if (kind == EXCHANGE && tiles.len > MAX_RACK) {
        PyErr_Format(PyExc_ValueError, "Core.rollouts: candidate %zd exchanges %zd tiles, more than a rack holds (%d)", number,
                     tiles.len, MAX_RACK);
    } else if (kind == PASS && tiles.len > MAX_LANE) {
        PyErr_Format(PyExc_ValueError, "Core.rollouts: candidate %zd, a pass, has %zd tiles", number, tiles.len);
    } else {
        ok = 1;
        int taken[MAX_TILES] = {0};
        for (Py_ssize_t i = 0; ok && i < tiles.len; i++) {
            if (kind == PLACE && t[i] && !is_board_tile(c, t[i])) {
                PyErr_Format(PyExc_ValueError,
                             "Core.rollouts: candidate %zd places byte 0x%02x at %zd, not a tile (0 through a board tile, "
                             "1 to %d a letter, 0x80 plus a letter a blank)",
                             number, t[i], i, c->tile_count - 1);
                ok = 0;
            } else if (kind == EXCHANGE && (t[i] >= c->tile_count || ++taken[t[i]] > rack_counts[t[i]])) {
                PyErr_Format(PyExc_ValueError, "Core.rollouts: candidate %zd exchanges tile %d (at %zd), which the rack does not hold",
                             number, t[i], i);
                ok = 0;
            }
        }
    }
    if (ok) {
        memset(f, 0, sizeof *f);
        f->kind = (uint8_t)kind;
        f->start = (uint8_t)start;
        f->lane = (uint8_t)lane;
        f->down = (uint8_t)down;
        f->len = kind == PASS ? 0 : (uint8_t)tiles.len;
        f->score = score;
        if (f->len) memcpy(f->tiles, tiles.buf, (size_t)f->len); /* an empty buffer's pointer may be NULL */
    }
    PyBuffer_Release(&tiles);
    return ok ? 0 : -1;
}

/* The win table, or none: (spread_before, scales, edges) or None. Every
   number finite and every scale above 0, so that a chance of winning is a
   number (a NaN has no integer to round to). */
static int ro_wins(RoJob *job, PyObject *wins) {
    job->wins = wins != Py_None;
    if (!job->wins) return 0;
    PyObject *scales, *edges;
    if (!PyTuple_Check(wins)) {
        PyErr_SetString(PyExc_TypeError, "Core.rollouts: wins is None or (spread before, scales, edges)");
        return -1;
    }
    if (!PyArg_ParseTuple(wins, "dOO", &job->spread_before, &scales, &edges)) return -1;
    if (!isfinite(job->spread_before)) {
        PyErr_SetString(PyExc_ValueError, "Core.rollouts: the spread before is not a finite number");
        return -1;
    }
    Py_ssize_t n = 0, m = 0;
    if (fill_doubles(scales, job->scales, RO_MAX_TILES, &n, "Core.rollouts: the win table's scales") < 0) return -1;
    if (fill_doubles(edges, job->edges, RO_MAX_TILES, &m, "Core.rollouts: the win table's edges") < 0) return -1;
    if (n < 1 || n != m) {
        PyErr_Format(PyExc_ValueError, "Core.rollouts: a win table has as many scales as edges, at least one (not %zd and %zd)",
                     n, m);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++)
        if (!(job->scales[i] > 0)) {
            PyErr_Format(PyExc_ValueError, "Core.rollouts: the win table's scale at %zd is not above 0", i);
            return -1;
        }
    job->win_counts = (int)n;
    return 0;
}

/* The racks and the unseen tiles as a rollout deals them: checked as
   config.c checks rack tiles, and sized so that no rack outgrows its
   array (`rack_size` tiles at most, drawn back up to after each play). */
static int ro_check_deal(const Config *c, const Py_buffer *rack, const Py_buffer *kept, const Py_buffer *unseen,
                         int other_size, int rack_size) {
    const char *what = "Core.rollouts";
    if (check_rack(c, rack->buf, rack->len, MAX_RACK, what, "the rack") < 0 ||
        check_rack(c, kept->buf, kept->len, MAX_RACK, what, "the opponent's kept tiles") < 0 ||
        check_rack(c, unseen->buf, unseen->len, RO_MAX_TILES - 2 * MAX_RACK, what, "the unseen tiles") < 0)
        return -1;
    if (other_size < 0 || other_size > unseen->len || other_size + kept->len > MAX_RACK) {
        PyErr_Format(PyExc_ValueError,
                     "Core.rollouts: the opponent's %d dealt tiles (and %zd kept) do not fit: %zd unseen, a rack of "
                     "at most %d",
                     other_size, kept->len, unseen->len, MAX_RACK);
        return -1;
    }
    Py_ssize_t fullest = rack->len > kept->len + other_size ? rack->len : kept->len + other_size;
    if (rack_size < fullest || rack_size > MAX_RACK) {
        PyErr_Format(PyExc_ValueError, "Core.rollouts: a rack size of %d, where the racks dealt hold %zd tiles (at most %d)",
                     rack_size, fullest, MAX_RACK);
        return -1;
    }
    return 0;
}

INTERNAL const char Core_rollouts_doc[] = PyDoc_STR(
"rollouts(board, rack, other_size, unseen, candidates, seeds, plies, leaves, exchange_min_bag,\n"
"         scoreless, scoreless_limit, rack_size, wins, kept=b'')\n--\n\n"
"The rollouts of a simulation from a position (`rack` the player to move's, the\n"
"opponent's rack `kept` and `other_size` tiles dealt from `unseen`): for each seed,\n"
"one iteration,\n"
"a list of (value, points) for each candidate (kind, start, lane, down, tiles,\n"
"score). `leaves` is None, a Heuristic or a Klv; `wins` None or (spread before,\n"
"scales, edges). tilebag.engine.montecarlo.sim is the reference.");

/* Everything a call brings, checked and copied before the first rollout. */
typedef struct RoCall {
    uint8_t unseen[RO_MAX_TILES], kept[MAX_RACK];
    int unseen_count, kept_count;
    Found *moves;
    Milli *kept_values; /* what each candidate keeps (NO_EQUITY until its first rollout) */
    Py_ssize_t count;
    uint64_t *seeds;
    Py_ssize_t iterations;
} RoCall;

/* The candidates and the seeds, read into `call` (the rack's counts for the exchanges). */
static int ro_read_lists(const Config *c, PyObject *candidates, PyObject *seeds, const int *rack_counts, RoCall *call) {
    PyObject *cand_seq = PySequence_Fast(candidates, "Core.rollouts: the candidates must be a sequence");
    if (!cand_seq) return -1;
    PyObject *seed_seq = PySequence_Fast(seeds, "Core.rollouts: the seeds must be a sequence");
    if (!seed_seq) {
        Py_DECREF(cand_seq);
        return -1;
    }
    int ok = 1;
    call->count = PySequence_Fast_GET_SIZE(cand_seq);
    call->iterations = PySequence_Fast_GET_SIZE(seed_seq);
    call->moves = PyMem_RawMalloc((size_t)(call->count ? call->count : 1) * sizeof(Found));
    call->kept_values = PyMem_RawMalloc((size_t)(call->count ? call->count : 1) * sizeof(Milli));
    call->seeds = PyMem_RawMalloc((size_t)(call->iterations ? call->iterations : 1) * sizeof(uint64_t));
    if (!call->moves || !call->kept_values || !call->seeds) {
        PyErr_NoMemory();
        ok = 0;
    }
    for (Py_ssize_t i = 0; ok && i < call->count; i++) call->kept_values[i] = NO_EQUITY;
    for (Py_ssize_t i = 0; ok && i < call->count; i++)
        ok = ro_candidate(c, PySequence_Fast_GET_ITEM(cand_seq, i), i, rack_counts, &call->moves[i]) == 0;
    for (Py_ssize_t i = 0; ok && i < call->iterations; i++) {
        call->seeds[i] = PyLong_AsUnsignedLongLongMask(PySequence_Fast_GET_ITEM(seed_seq, i));
        ok = !PyErr_Occurred();
    }
    Py_DECREF(cand_seq);
    Py_DECREF(seed_seq);
    return ok ? 0 : -1;
}

/* The cross-sets and anchors the generator holds, kept in `into`. */
static void ro_keep_cross(const Gen *g, RoCross *into) {
    memcpy(into->masks, g->masks, sizeof into->masks);
    memcpy(into->cross, g->cross, sizeof into->cross);
    memcpy(into->anchor, g->anchor, sizeof into->anchor);
}

/* Ready what the rollouts share: the position's board with its cross-sets
   and anchors (job->base), those of each candidate's board (job->after),
   and which candidates keep what another keeps (`grouped`, by way of
   `tallies`, room for MAX_TILES counts a candidate). 0, or -1 with
   MemoryError; nothing is shared from an empty board (its first play has
   rules of its own). */
static int ro_ready_share(Gen *g, RoJob *job, const RoState *start, const RoCall *call, uint8_t *grouped,
                          int *tallies) {
    const Config *c = g->cfg;
    int base_empty = 1;
    for (int sq = 0; sq < c->size; sq++)
        if (start->board[sq]) { base_empty = 0; break; }
    if (base_empty || c->tile_count < 2 || c->rows > MAX_LANE || c->cols > MAX_LANE) return 0;
    job->base = PyMem_RawMalloc(sizeof(RoBase));
    if (!job->base) {
        PyErr_NoMemory();
        return -1;
    }
    job->after = PyMem_RawMalloc((size_t)(call->count ? call->count : 1) * sizeof(RoCross));
    if (!job->after) {
        PyErr_NoMemory();
        return -1;
    }
    static const uint8_t one[1] = {1}; /* any rack: the cross-sets and anchors do not depend on it */
    begin_tiles(g, start->board, one, 1);
    memcpy(job->base->board, start->board, sizeof job->base->board);
    ro_keep_cross(g, &job->base->lines);
    uint8_t board[MAX_SQUARES];
    for (Py_ssize_t i = 0; i < call->count; i++) {
        const Found *m = &call->moves[i];
        memcpy(board, start->board, sizeof board);
        if (m->kind == PLACE)
            for (int t = 0; t < m->len; t++)
                if (m->tiles[t])
                    board[m->down ? (m->start + t) * c->cols + m->lane : m->lane * c->cols + m->start + t] = m->tiles[t];
        begin_tiles(g, board, one, 1);
        ro_keep_cross(g, &job->after[i]);
    }
    for (Py_ssize_t i = 0; i < call->count; i++) { /* what each keeps, by tile, kept in `tallies` */
        RoRack left = start->racks[0];
        const Found *m = &call->moves[i];
        for (int t = 0; t < m->len && m->kind != PASS; t++)
            if (m->kind == EXCHANGE) ro_remove(&left, m->tiles[t]);
            else if (m->tiles[t]) ro_remove(&left, (m->tiles[t] & BLANK_BIT) ? 0 : m->tiles[t]);
        memset(tallies + i * MAX_TILES, 0, MAX_TILES * sizeof *tallies);
        for (int t = 0; t < left.count; t++) tallies[i * MAX_TILES + left.tiles[t]]++;
    }
    for (Py_ssize_t i = 0; i < call->count; i++) {
        grouped[i] = 0;
        for (Py_ssize_t j = 0; j < call->count && !grouped[i]; j++)
            grouped[i] = j != i && !memcmp(tallies + i * MAX_TILES, tallies + j * MAX_TILES, MAX_TILES * sizeof *tallies);
    }
    return 0;
}

INTERNAL PyObject *Core_rollouts(Core *self, PyObject *args) {
    Py_buffer board, rack, unseen, kept = {0};
    int other_size, plies, min_bag, scoreless, scoreless_limit, rack_size;
    PyObject *candidates, *seeds, *leaves, *wins;
    if (core_take(self, "Core.rollouts") < 0) return NULL;
    if (!PyArg_ParseTuple(args, "y*y*iy*OOiOiiiiO|y*", &board, &rack, &other_size, &unseen, &candidates, &seeds, &plies,
                          &leaves, &min_bag, &scoreless, &scoreless_limit, &rack_size, &wins, &kept)) {
        core_give_back(self);
        return NULL;
    }
    const Config *cfg = &self->config;
    Gen *g = &self->gen;
    PyObject *result = NULL;
    RoJob *job = PyMem_RawCalloc(1, sizeof(RoJob));
    RoState *start = PyMem_RawCalloc(1, sizeof(RoState));
    RoCall *call = PyMem_RawCalloc(1, sizeof(RoCall));
    uint8_t dealt[RO_MAX_TILES];
    uint8_t *grouped = NULL; /* by candidate: see ro_ready_share */
    int *tallies = NULL;
    if (!job || !start || !call) { PyErr_NoMemory(); goto done; }
    /* the buffers: checked, then copied at once (no Python code runs in between) */
    if (check_board(cfg, board.buf, board.len, "Core.rollouts") < 0) goto done;
    if (ro_check_deal(cfg, &rack, &kept, &unseen, other_size, rack_size) < 0) goto done;
    memcpy(start->board, board.buf, (size_t)board.len);
    if (rack.len) memcpy(start->racks[0].tiles, rack.buf, (size_t)rack.len); /* an empty buffer's may be NULL */
    start->racks[0].count = (int)rack.len;
    if (unseen.len) memcpy(call->unseen, unseen.buf, (size_t)unseen.len);
    call->unseen_count = (int)unseen.len;
    if (kept.len) memcpy(call->kept, kept.buf, (size_t)kept.len); /* left out, its buffer is NULL */
    call->kept_count = (int)kept.len;
    if (plies < 0) {
        PyErr_Format(PyExc_ValueError, "Core.rollouts: %d plies; a rollout plays 0 or more", plies);
        goto done;
    }
    if (scoreless < 0 || scoreless > RO_MOST_SCORELESS || scoreless_limit < 0 || scoreless_limit > RO_MOST_SCORELESS) {
        PyErr_Format(PyExc_ValueError, "Core.rollouts: scoreless turns %d and their limit %d must be 0 to %d", scoreless,
                     scoreless_limit, RO_MOST_SCORELESS);
        goto done;
    }
    int mode = leave_mode_of(leaves, "Core.rollouts");
    if (mode < 0) goto done;
    job->leave_mode = mode;
    job->leaves = leaves;
    if (mode == LEAVES_HEURISTIC || mode == LEAVES_KLV) { /* the values the generator remembers, if of this model */
        if (!g->leave_memo) g->leave_memo = PyMem_RawMalloc(sizeof(LeaveMemo));
        if (!g->leave_memo) { PyErr_NoMemory(); goto done; }
        if (g->leave_model != leaves) {
            memset(g->leave_memo->key, 0, sizeof g->leave_memo->key);
            Py_INCREF(leaves);
            Py_XSETREF(g->leave_model, leaves);
        }
        job->leave_memo = g->leave_memo;
    }
    job->plies = plies;
    job->exchange_min_bag = min_bag;
    job->scoreless_limit = scoreless_limit;
    job->rack_size = rack_size;
    if (ro_wins(job, wins) < 0) goto done;
    int rack_counts[MAX_TILES] = {0};
    for (int i = 0; i < start->racks[0].count; i++) rack_counts[start->racks[0].tiles[i]]++;
    if (ro_read_lists(cfg, candidates, seeds, rack_counts, call) < 0) goto done;
    if (ready_for_top(g) < 0) goto done;
    grouped = PyMem_RawCalloc((size_t)(call->count ? call->count : 1), 1);
    tallies = PyMem_RawMalloc((size_t)(call->count ? call->count : 1) * MAX_TILES * sizeof(int));
    if (!grouped || !tallies) { PyErr_NoMemory(); goto done; }
    if (plies > 0 && ro_ready_share(g, job, start, call, grouped, tallies) < 0) goto done;
    job->me = 0;
    start->scoreless = scoreless;
    start->turn = 0;
    result = PyList_New(call->iterations);
    if (!result) goto done;
    for (Py_ssize_t i = 0; i < call->iterations; i++) {
        memcpy(dealt, call->unseen, (size_t)call->unseen_count);
        ro_shuffle(dealt, call->unseen_count, call->seeds[i]);
        memcpy(start->racks[1].tiles, call->kept, (size_t)call->kept_count);
        memcpy(start->racks[1].tiles + call->kept_count, dealt, (size_t)other_size);
        start->racks[1].count = call->kept_count + other_size;
        start->bag_count = call->unseen_count - other_size;
        memcpy(start->bag, dealt + other_size, (size_t)start->bag_count);
        PyObject *values = PyList_New(call->count);
        if (!values) { Py_CLEAR(result); goto done; }
        PyList_SET_ITEM(result, i, values);
        for (Py_ssize_t c = 0; c < call->count; c++) {
            long long value, points;
            const RoCross *after = job->after ? &job->after[c] : NULL;
            int failed = ro_rollout(g, job, start, &call->moves[c], grouped[c], after, &call->kept_values[c], &value,
                                    &points) < 0;
            if (failed) { Py_CLEAR(result); goto done; }
            PyObject *pair = Py_BuildValue("(LL)", value, points);
            if (!pair) { Py_CLEAR(result); goto done; }
            PyList_SET_ITEM(values, c, pair);
        }
        if ((i & 7) == 7 && PyErr_CheckSignals() < 0) { Py_CLEAR(result); goto done; }
    }
done:
    if (call) {
        PyMem_RawFree(call->moves);
        PyMem_RawFree(call->kept_values);
        PyMem_RawFree(call->seeds);
    }
    PyMem_RawFree(call);
    PyMem_RawFree(grouped);
    PyMem_RawFree(tallies);
    if (job) {
        for (int i = 0; i < RO_SHARES; i++) {
            PyMem_RawFree(job->shares[i].top.entries);
            PyMem_RawFree(job->shares[i].top.listed);
        }
        PyMem_RawFree(job->base);
        PyMem_RawFree(job->after);
    }
    PyMem_RawFree(job);
    PyMem_RawFree(start);
    PyBuffer_Release(&board);
    PyBuffer_Release(&rack);
    PyBuffer_Release(&unseen);
    if (kept.obj) PyBuffer_Release(&kept);
    core_give_back(self);
    return result;
}
