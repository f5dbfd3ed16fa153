/*
 * The rollouts of a Monte Carlo simulation, in the compiled core
 * (tilebag/engine/sim.py is the reference, step for step).
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
 */

static int fill_doubles(PyObject *values, double *out, Py_ssize_t limit, Py_ssize_t *count, const char *what);

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
static void ro_make(const Gen *g, RoState *s, const Found *move, int rack_size) {
    RoRack *rack = &s->racks[s->turn];
    if (move->kind == PLACE) {
        for (int i = 0; i < move->len; i++) {
            uint8_t tile = move->tiles[i];
            if (!tile) continue;
            int square = move->down ? (move->start + i) * g->cols + move->lane : move->lane * g->cols + move->start + i;
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
    if (leave_table(g, endgame ? LEAVES_ENDGAME : job->leave_mode, job->leaves, NULL) < 0) return -1;
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

/* The best play of the player to move by equity, as Engine.best finds it:
   1 with it in `best`, 0 when there is none (not even a pass), -1 on an error. */
static int ro_best(Gen *g, RoJob *job, const RoState *s, int ply, Found *best) {
    const RoRack *rack = &s->racks[s->turn];
    g->valued = 1;
    g->top = 1;
    g->need_blank = 0;
    if (begin_tiles(g, s->board, g->size, rack->tiles, rack->count) < 0) return -1;
    int endgame = s->bag_count <= 0;
    if (ro_leave_table(g, job, ply, endgame) < 0) return -1;
    int exchanges = s->bag_count >= job->exchange_min_bag;
    add_exchanges(g, exchanges, exchanges ? (rack->count < s->bag_count ? rack->count : s->bag_count) : 0);
    generate_top(g);
    if (g->failed) {
        PyErr_SetString(PyExc_MemoryError, "rollouts: the search failed");
        return -1;
    }
    if (!g->found_count) return 0;
    *best = g->found[0];
    return 1;
}

/* The face value of a rack's tiles (a blank's is 0). */
static int ro_face(const Gen *g, const RoRack *rack) {
    int face = 0;
    for (int i = 0; i < rack->count; i++) face += g->scores[rack->tiles[i]];
    return face;
}

/* The value of the tiles `rack` keeps (the leave valuer of sim.py's _rollout). */
static Milli ro_leave(const Gen *g, const RoJob *job, const RoRack *rack, int bag_count) {
    if (bag_count <= 0) return -2000 * (Milli)ro_face(g, rack);
    int tally[64] = {0}, kinds[64], kept[64], m = 0;
    for (int i = 0; i < rack->count; i++) tally[rack->tiles[i]]++;
    for (int t = 0; t < 64; t++)
        if (tally[t]) { kinds[m] = t; kept[m] = tally[t]; m++; }
    if (job->leave_mode == LEAVES_HEURISTIC) return to_milli(heuristic_value((const Heuristic *)job->leaves, kinds, kept, m));
    if (job->leave_mode == LEAVES_KLV) return to_milli(klv_value((const Klv *)job->leaves, kinds, kept, m));
    return 0;
}

/* The value of what `move` keeps of the rack of the player to move, as its
   equity counts it (the leave valuer with the bag as it is before the play;
   Engine.equity less the score, as sim.py's _kept_value counts it). */
static Milli ro_kept(const Gen *g, const RoJob *job, const RoState *s, const Found *move) {
    RoRack leave = s->racks[s->turn];
    if (move->kind == PLACE) {
        for (int i = 0; i < move->len; i++)
            if (move->tiles[i]) ro_remove(&leave, (move->tiles[i] & BLANK_BIT) ? 0 : move->tiles[i]);
    } else if (move->kind == EXCHANGE) {
        for (int i = 0; i < move->len; i++) ro_remove(&leave, move->tiles[i]);
    }
    return ro_leave(g, job, &leave, s->bag_count);
}

/* The racks counted at the end of a rollout's game (game_end.py): after
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
static int ro_rollout(Gen *g, RoJob *job, const RoState *start, const Found *candidate, long long *value,
                      long long *points) {
    RoState s;
    memcpy(&s, start, offsetof(RoState, bag) + (size_t)start->bag_count);
    s.bag_count = start->bag_count;
    s.scoreless = start->scoreless;
    s.turn = start->turn;
    s.gained[0] = s.gained[1] = 0;
    Milli kept[2] = {0, 0}; /* the value of what each side's last play kept */
    kept[s.turn] = ro_kept(g, job, &s, candidate);
    ro_make(g, &s, candidate, job->rack_size);
    for (int ply = 0; ply < job->plies; ply++) {
        if (ro_over(&s, job->scoreless_limit)) break;
        Found best;
        int found = ro_best(g, job, &s, ply, &best);
        if (found < 0) return -1;
        if (!found) break;
        kept[s.turn] = ro_kept(g, job, &s, &best);
        ro_make(g, &s, &best, job->rack_size);
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

/* A candidate from Python: (kind, start, lane, down, tiles, score). */
static int ro_candidate(const Gen *g, PyObject *item, Found *f) {
    int kind, start, lane, down, score;
    Py_buffer tiles;
    if (!PyTuple_Check(item)) {
        PyErr_SetString(PyExc_TypeError, "rollouts: a candidate is a tuple (kind, start, lane, down, tiles, score)");
        return -1;
    }
    if (!PyArg_ParseTuple(item, "iiipy*i", &kind, &start, &lane, &down, &tiles, &score)) return -1;
    int length = down ? g->rows : g->cols, lanes = down ? g->cols : g->rows;
    int ok = kind >= PLACE && kind <= PASS && tiles.len <= MAX_LANE;
    if (ok && kind == PLACE) ok = start >= 0 && lane >= 0 && lane < lanes && start + tiles.len <= length;
    if (ok && kind == EXCHANGE) ok = tiles.len <= MAX_RACK;
    if (ok) {
        memset(f, 0, sizeof *f);
        f->kind = (uint8_t)kind;
        f->start = (uint8_t)start;
        f->lane = (uint8_t)lane;
        f->down = (uint8_t)down;
        f->len = (uint8_t)tiles.len;
        f->score = score;
        memcpy(f->tiles, tiles.buf, (size_t)tiles.len);
    }
    PyBuffer_Release(&tiles);
    if (!ok) PyErr_SetString(PyExc_ValueError, "rollouts: a candidate is (kind, start, lane, down, tiles, score)");
    return ok ? 0 : -1;
}

/* The win table, or none: (spread_before, scales, edges) or None. */
static int ro_wins(RoJob *job, PyObject *wins) {
    job->wins = wins != Py_None;
    if (!job->wins) return 0;
    PyObject *scales, *edges;
    if (!PyTuple_Check(wins)) {
        PyErr_SetString(PyExc_TypeError, "rollouts: wins is None or (spread before, scales, edges)");
        return -1;
    }
    if (!PyArg_ParseTuple(wins, "dOO", &job->spread_before, &scales, &edges)) return -1;
    Py_ssize_t n = 0, m = 0;
    if (fill_doubles(scales, job->scales, RO_MAX_TILES, &n, "scales") < 0) return -1;
    if (fill_doubles(edges, job->edges, RO_MAX_TILES, &m, "edges") < 0) return -1;
    if (n < 1 || n != m) {
        PyErr_SetString(PyExc_ValueError, "rollouts: a win table has as many scales as edges, at least one");
        return -1;
    }
    job->win_counts = (int)n;
    return 0;
}

PyDoc_STRVAR(Core_rollouts_doc,
"rollouts(board, rack, other_size, unseen, candidates, seeds, plies, leaves, exchange_min_bag,\n"
"         scoreless, scoreless_limit, rack_size, wins, kept=b'')\n--\n\n"
"The rollouts of a simulation from a position (`rack` the player to move's, the\n"
"opponent's rack `kept` and `other_size` tiles dealt from `unseen`): for each seed,\n"
"one iteration,\n"
"a list of (value, points) for each candidate (kind, start, lane, down, tiles,\n"
"score). `leaves` is None, a Heuristic or a Klv; `wins` None or (spread before,\n"
"scales, edges). tilebag.engine.sim is the reference.");

static PyObject *Core_rollouts(Core *self, PyObject *args) {
    Py_buffer board, rack, unseen, kept = {0};
    int other_size, plies, min_bag, scoreless, scoreless_limit, rack_size;
    PyObject *candidates, *seeds, *leaves, *wins;
    if (!PyArg_ParseTuple(args, "y*y*iy*OOiOiiiiO|y*", &board, &rack, &other_size, &unseen, &candidates, &seeds, &plies,
                          &leaves, &min_bag, &scoreless, &scoreless_limit, &rack_size, &wins, &kept))
        return NULL;
    Gen *g = &self->gen;
    PyObject *result = NULL, *cand_seq = NULL, *seed_seq = NULL;
    Found *moves = NULL;
    RoJob *job = PyMem_Calloc(1, sizeof(RoJob));
    RoState *start = PyMem_Calloc(1, sizeof(RoState));
    uint8_t *dealt = NULL;
    if (!job || !start) { PyErr_NoMemory(); goto done; }
    if (board.len != g->size || rack.len > MAX_RACK || other_size < 0 || other_size + kept.len > MAX_RACK ||
        other_size > unseen.len || unseen.len > RO_MAX_TILES - 2 * MAX_RACK || rack_size > MAX_RACK || plies < 0) {
        PyErr_SetString(PyExc_ValueError, "rollouts: the board, the racks or the unseen tiles do not fit the core");
        goto done;
    }
    int in_range = 1;
    for (Py_ssize_t i = 0; i < unseen.len; i++) in_range &= ((const uint8_t *)unseen.buf)[i] < 64;
    for (Py_ssize_t i = 0; i < rack.len; i++) in_range &= ((const uint8_t *)rack.buf)[i] < 64;
    for (Py_ssize_t i = 0; i < kept.len; i++) in_range &= ((const uint8_t *)kept.buf)[i] < 64;
    if (!in_range) {
        PyErr_SetString(PyExc_ValueError, "rollouts: a tile is out of range (0..63)");
        goto done;
    }
    if (leaves == Py_None) job->leave_mode = LEAVES_NONE;
    else if (PyObject_TypeCheck(leaves, &HeuristicType)) job->leave_mode = LEAVES_HEURISTIC;
    else if (PyObject_TypeCheck(leaves, &KlvType)) job->leave_mode = LEAVES_KLV;
    else {
        PyErr_SetString(PyExc_TypeError, "rollouts: leaves must be None, a Heuristic or a Klv");
        goto done;
    }
    job->leaves = leaves;
    job->plies = plies;
    job->exchange_min_bag = min_bag;
    job->scoreless_limit = scoreless_limit;
    job->rack_size = rack_size;
    if (ro_wins(job, wins) < 0) goto done;
    cand_seq = PySequence_Fast(candidates, "rollouts: the candidates must be a sequence");
    seed_seq = cand_seq ? PySequence_Fast(seeds, "rollouts: the seeds must be a sequence") : NULL;
    if (!seed_seq) goto done;
    Py_ssize_t count = PySequence_Fast_GET_SIZE(cand_seq), iterations = PySequence_Fast_GET_SIZE(seed_seq);
    moves = PyMem_Malloc((size_t)(count ? count : 1) * sizeof(Found));
    dealt = PyMem_Malloc((size_t)(unseen.len ? unseen.len : 1));
    if (!moves || !dealt) { PyErr_NoMemory(); goto done; }
    for (Py_ssize_t c = 0; c < count; c++)
        if (ro_candidate(g, PySequence_Fast_GET_ITEM(cand_seq, c), &moves[c]) < 0) goto done;
    if (ready_for_top(g) < 0) goto done;
    job->me = 0;
    memcpy(start->board, board.buf, (size_t)board.len);
    memcpy(start->racks[0].tiles, rack.buf, (size_t)rack.len);
    start->racks[0].count = (int)rack.len;
    start->scoreless = scoreless;
    start->turn = 0;
    result = PyList_New(iterations);
    if (!result) goto done;
    for (Py_ssize_t i = 0; i < iterations; i++) {
        uint64_t seed = PyLong_AsUnsignedLongLongMask(PySequence_Fast_GET_ITEM(seed_seq, i));
        if (PyErr_Occurred()) { Py_CLEAR(result); goto done; }
        memcpy(dealt, unseen.buf, (size_t)unseen.len);
        ro_shuffle(dealt, (int)unseen.len, seed);
        if (kept.len) memcpy(start->racks[1].tiles, kept.buf, (size_t)kept.len);
        memcpy(start->racks[1].tiles + kept.len, dealt, (size_t)other_size);
        start->racks[1].count = (int)kept.len + other_size;
        start->bag_count = (int)unseen.len - other_size;
        memcpy(start->bag, dealt + other_size, (size_t)start->bag_count);
        PyObject *values = PyList_New(count);
        if (!values) { Py_CLEAR(result); goto done; }
        PyList_SET_ITEM(result, i, values);
        for (Py_ssize_t c = 0; c < count; c++) {
            long long value, points;
            if (ro_rollout(g, job, start, &moves[c], &value, &points) < 0) { Py_CLEAR(result); goto done; }
            PyObject *pair = Py_BuildValue("(LL)", value, points);
            if (!pair) { Py_CLEAR(result); goto done; }
            PyList_SET_ITEM(values, c, pair);
        }
        if ((i & 7) == 7 && PyErr_CheckSignals() < 0) { Py_CLEAR(result); goto done; }
    }
done:
    Py_XDECREF(cand_seq);
    Py_XDECREF(seed_seq);
    PyMem_Free(moves);
    PyMem_Free(dealt);
    PyMem_Free(job);
    PyMem_Free(start);
    PyBuffer_Release(&board);
    PyBuffer_Release(&rack);
    PyBuffer_Release(&unseen);
    if (kept.obj) PyBuffer_Release(&kept);
    return result;
}
