/*
 * A Core's configuration (the word graph, the layout, the tile scores, the
 * bingo rules), checked and set once, and the checks every board and rack
 * from Python passes before a search reads it.
 *
 * What the searches rely on, and so what is checked here:
 *
 * - the graph: every arc (and both roots) is the index of a node; every
 *   sibling list ends (IS_END) before the array does, so a walk along a
 *   list stops inside it; every node's tile is one of the tile set's, so
 *   a cross-set is a 64-bit mask (a shift by 64 or more is undefined); a
 *   list's tiles increase, as the KWG format has them, which the walk's
 *   counted arcs (arc_for) and its early stops (seek) assume;
 * - a board byte is 0, a letter 1 .. tile_count - 1, or BLANK_BIT with
 *   such a letter: face values are read from a table of MAX_TILES scores;
 * - a rack tile is 0 (a blank) or a letter, and a rack holds at most
 *   MAX_RACK tiles (the arrays of a search are that long);
 * - scores, multipliers and the bingo bonus are small enough that no play
 *   can score more than MAX_PLAY_SCORE: every sum is then inside an int.
 */
#include "core.h"

static int fill_scores(Config *c, PyObject *scores) {
    PyObject *seq = PySequence_Fast(scores, "Core: scores must be a sequence of ints, one per tile");
    if (!seq) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n < 1 || n > MAX_TILES) {
        PyErr_Format(PyExc_ValueError, "Core: the score table has %zd tiles, the core takes 1 to %d", n, MAX_TILES);
        Py_DECREF(seq);
        return -1;
    }
    memset(c->scores, 0, sizeof c->scores);
    for (Py_ssize_t i = 0; i < n; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return -1;
        }
        if (v < 0 || v > MAX_TILE_SCORE) {
            PyErr_Format(PyExc_ValueError, "Core: tile %zd scores %ld; a tile scores 0 to %d", i, v, MAX_TILE_SCORE);
            Py_DECREF(seq);
            return -1;
        }
        c->scores[i] = (int)v;
    }
    c->tile_count = (int)n;
    Py_DECREF(seq);
    return 0;
}

/* More than any play could score on this layout with these tiles, in
   floating point (no overflow): for each row and column, every square's
   word multiplier times every square's best letter score, plus a cross
   word of the longest length at every square, plus the bingo bonus.
   Multipliers below 1 count as 1 and a top score below 1 as 1, so the
   product of the word multipliers alone is bounded too. */
static double most_a_play_scores(const Config *c, const uint8_t *lmult, const uint8_t *wmult) {
    double top = 1;
    for (int t = 0; t < c->tile_count; t++)
        if (c->scores[t] > top) top = c->scores[t];
    double worst = 0;
    for (int down = 0; down < 2; down++) {
        int lanes = down ? c->cols : c->rows, length = down ? c->rows : c->cols, across = down ? c->cols : c->rows;
        for (int lane = 0; lane < lanes; lane++) {
            double words = 1, main = 0, cross = 0;
            for (int i = 0; i < length; i++) {
                int s = down ? i * c->cols + lane : lane * c->cols + i;
                double lm = lmult[s] > 1 ? lmult[s] : 1, wm = wmult[s] > 1 ? wmult[s] : 1;
                words *= wm;
                main += top * lm;
                cross += wm * ((across - 1) * top + top * lm);
            }
            if (words * main + cross > worst) worst = words * main + cross;
        }
    }
    return worst + fabs((double)c->bingo_bonus);
}

/* The graph's nodes as the walk needs them (see the top of this file). */
static int check_graph(const uint32_t *nodes, Py_ssize_t count, int tile_count, uint32_t gaddag_root,
                       uint32_t dawg_root) {
    if (count < 1) {
        PyErr_SetString(PyExc_ValueError, "Core: the graph has no nodes");
        return -1;
    }
    if (count > (Py_ssize_t)ARC_MASK + 1) {
        PyErr_Format(PyExc_ValueError, "Core: %zd nodes is more than a KWG can address (%u)", count, ARC_MASK + 1);
        return -1;
    }
    if (gaddag_root >= (uint32_t)count || dawg_root >= (uint32_t)count) {
        PyErr_Format(PyExc_ValueError, "Core: a root (GADDAG %u, DAWG %u) is past the end of the graph (%zd nodes)",
                     gaddag_root, dawg_root, count);
        return -1;
    }
    for (Py_ssize_t i = 0; i < count; i++) {
        uint32_t value = nodes[i], arc = value & ARC_MASK, tile = value >> TILE_SHIFT;
        if (arc >= (uint32_t)count) {
            PyErr_Format(PyExc_ValueError, "Core: node %zd points to node %u, past the end of the graph (%zd nodes)",
                         i, arc, count);
            return -1;
        }
        if (tile >= (uint32_t)tile_count) {
            PyErr_Format(PyExc_ValueError, "Core: node %zd holds tile %u, not one of the %d tiles of the score table",
                         i, tile, tile_count);
            return -1;
        }
        if (value & IS_END) continue;
        if (i == count - 1) {
            PyErr_Format(PyExc_ValueError, "Core: the last node (%zd) does not end its sibling list", i);
            return -1;
        }
        if ((nodes[i + 1] >> TILE_SHIFT) <= tile) {
            PyErr_Format(PyExc_ValueError,
                         "Core: nodes %zd and %zd are siblings out of order (tile %u, then %u): "
                         "a sibling list's tiles increase",
                         i, i + 1, tile, nodes[i + 1] >> TILE_SHIFT);
            return -1;
        }
    }
    return 0;
}

/* Per node, the letters of the rest of its sibling list (the walk's
   counted arcs): 32-bit masks when every tile is below 32. */
static void *letters_from_nodes(const uint32_t *nodes, Py_ssize_t count, int *narrow) {
    *narrow = 1;
    for (Py_ssize_t i = 0; i < count; i++)
        if ((nodes[i] >> TILE_SHIFT) >= 32) {
            *narrow = 0;
            break;
        }
    void *letters_from = PyMem_RawMalloc((size_t)count * (*narrow ? 4 : 8));
    if (!letters_from) return NULL;
    uint64_t following = 0;
    for (Py_ssize_t i = count - 1; i >= 0; i--) {
        uint64_t bit = (uint64_t)1 << (nodes[i] >> TILE_SHIFT); /* a tile below MAX_TILES: checked */
        uint64_t mask = (nodes[i] & IS_END) ? bit : bit | following;
        following = mask;
        if (*narrow) ((uint32_t *)letters_from)[i] = (uint32_t)mask;
        else ((uint64_t *)letters_from)[i] = mask;
    }
    return letters_from;
}

INTERNAL int config_init(Config *c, const Py_buffer *nodes, unsigned int gaddag_root, unsigned int dawg_root, int rows,
                         int cols, const Py_buffer *letter_mult, const Py_buffer *word_mult, PyObject *scores, int start,
                         int bingo_tiles, int bingo_bonus, int first_min) {
    memset(c, 0, sizeof *c);
    if (rows < 1 || cols < 1 || rows > MAX_LANE || cols > MAX_LANE) {
        PyErr_Format(PyExc_ValueError, "Core: a board of %d rows and %d columns; the core takes 1 to %d a side", rows,
                     cols, MAX_LANE);
        return -1;
    }
    int size = rows * cols;
    if (letter_mult->len != size || word_mult->len != size) {
        PyErr_Format(PyExc_ValueError,
                     "Core: the multipliers do not fit the board: %zd letter and %zd word multipliers, %d squares",
                     letter_mult->len, word_mult->len, size);
        return -1;
    }
    if (start < 0 || start >= size) {
        PyErr_Format(PyExc_ValueError, "Core: the start square %d is off the board (squares 0 to %d)", start, size - 1);
        return -1;
    }
    if (nodes->len % 4) {
        PyErr_Format(PyExc_ValueError, "Core: the graph is %zd bytes, not a whole number of 4-byte nodes", nodes->len);
        return -1;
    }
    if (fill_scores(c, scores) < 0) return -1;
    c->rows = rows;
    c->cols = cols;
    c->size = size;
    c->start = start;
    c->bingo_tiles = bingo_tiles;
    c->bingo_bonus = bingo_bonus;
    c->first_min = first_min;
    double most = most_a_play_scores(c, letter_mult->buf, word_mult->buf);
    if (!(most <= MAX_PLAY_SCORE)) {
        PyErr_Format(PyExc_ValueError,
                     "Core: a play could score up to %lld with these tile scores, multipliers and bingo bonus, "
                     "more than the %d the core counts",
                     most < 1e18 ? (long long)most : (long long)1e18, MAX_PLAY_SCORE);
        return -1;
    }
    memcpy(c->letter_mult, letter_mult->buf, (size_t)size);
    memcpy(c->word_mult, word_mult->buf, (size_t)size);
    /* the graph copied first (aligned, and no longer the caller's to change), then checked */
    Py_ssize_t count = nodes->len / 4;
    uint32_t *copy = PyMem_RawMalloc((size_t)(count ? count : 1) * 4);
    if (!copy) {
        PyErr_NoMemory();
        return -1;
    }
    if (count) memcpy(copy, nodes->buf, (size_t)count * 4); /* an empty buffer's pointer may be NULL */
    if (check_graph(copy, count, c->tile_count, gaddag_root, dawg_root) < 0) {
        PyMem_RawFree(copy);
        return -1;
    }
    c->letters_from = letters_from_nodes(copy, count, &c->narrow);
    if (!c->letters_from) {
        PyMem_RawFree(copy);
        PyErr_NoMemory();
        return -1;
    }
    c->nodes = copy;
    c->node_count = count;
    c->gaddag_root = gaddag_root;
    c->dawg_root = dawg_root;
    uint64_t state = 0x243F6A8885A308D3ull;
    for (int t = 0; t < MAX_TILES; t++) {
        state += 0x9E3779B97F4A7C15ull;
        c->letter_hash[t] = mix64(state);
    }
    return 0;
}

INTERNAL void config_free(Config *c) {
    PyMem_RawFree((void *)c->nodes);
    PyMem_RawFree((void *)c->letters_from);
    c->nodes = NULL;
    c->letters_from = NULL;
}

INTERNAL int check_board(const Config *c, const uint8_t *board, Py_ssize_t length, const char *what) {
    if (length != c->size) {
        PyErr_Format(PyExc_ValueError, "%s: the board has %zd squares, the layout %d (%d rows of %d)", what, length,
                     c->size, c->rows, c->cols);
        return -1;
    }
    for (int s = 0; s < c->size; s++)
        if (board[s] && !is_board_tile(c, board[s])) {
            PyErr_Format(PyExc_ValueError,
                         "%s: board byte 0x%02x at square %d is not a tile (0 empty, 1 to %d a letter, "
                         "0x80 plus a letter a blank)",
                         what, board[s], s, c->tile_count - 1);
            return -1;
        }
    return 0;
}

INTERNAL int check_rack(const Config *c, const uint8_t *tiles, Py_ssize_t length, Py_ssize_t most, const char *what,
                        const char *which) {
    if (length > most) {
        PyErr_Format(PyExc_ValueError, "%s: %s of %zd tiles is more than the %zd the core takes", what, which, length,
                     most);
        return -1;
    }
    for (Py_ssize_t i = 0; i < length; i++)
        if (tiles[i] >= c->tile_count) {
            PyErr_Format(PyExc_ValueError, "%s: tile %d at %zd of %s is out of range (0 a blank, 1 to %d a letter)",
                         what, tiles[i], i, which, c->tile_count - 1);
            return -1;
        }
    return 0;
}
