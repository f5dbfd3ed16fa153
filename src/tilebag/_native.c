/*
 * tilebag._native: the compiled core of the move generator.
 *
 * It follows tilebag/movegen.py (the reference) step for step: the same
 * anchors, the same cross-sets, the same GADDAG walk, the same rule for
 * reporting a one-tile play once, so both list exactly the same plays with
 * the same scores. The word graph is read in place from the KWG node array
 * (a buffer of 32-bit nodes); nothing is allocated per node or per step of
 * the walk, only one result tuple per play found.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define MAX_LANE 32
#define TILE_SHIFT 24
#define ACCEPTS 0x800000u
#define IS_END 0x400000u
#define ARC_MASK 0x3FFFFFu
#define BLANK_BIT 0x80
#define NO_CROSS (-1)
#define ALL_LETTERS (~(uint64_t)1)

typedef struct {
    const uint32_t *nodes;
    Py_ssize_t node_count;
    uint32_t gaddag_root, dawg_root;
    int rows, cols;
    const uint8_t *board;        /* rows * cols tiles */
    const uint8_t *letter_mult;  /* per square */
    const uint8_t *word_mult;
    int scores[64];
    int start;
    int bingo_tiles, bingo_bonus, first_min;
    int rack_size;
    int counts[64];
    uint64_t held;                /* bit per letter the rack still holds */
    int board_empty;
    /* per-square cross-sets and cross scores, for plays across ([0]) and down ([1]) */
    uint64_t *masks[2];
    int *cross[2];
    uint8_t *anchor;
    /* the lane being generated */
    int down, lane, length, min_tiles;
    uint8_t letters[MAX_LANE];
    int face[MAX_LANE];
    uint64_t lmask[MAX_LANE];
    int lcross[MAX_LANE];
    int lm[MAX_LANE], wm[MAX_LANE];
    uint8_t placed[MAX_LANE];
    PyObject *out;
    int failed;
    /* valued mode: equity from a table of leave values indexed by the tiles used */
    int valued;
    int tile_stride[64];          /* index step of each rack tile (0 = blank) */
    int used;
    const double *leave_values;
    Py_ssize_t value_count;
    struct Found *found;
    Py_ssize_t found_count, found_cap;
} Gen;

typedef struct Found {
    double equity;
    int score, start, lane, down, len, used;
    uint8_t tiles[MAX_LANE];
} Found;

static inline int tile_face(const Gen *g, uint8_t tile) {
    return (tile & BLANK_BIT) ? 0 : g->scores[tile];
}

/* The node for `tile` in the sibling list at `arc`, or -1. */
static inline Py_ssize_t seek(const Gen *g, uint32_t arc, int tile) {
    if (!arc) return -1;
    for (;;) {
        uint32_t value = g->nodes[arc];
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
        node = seek(g, arc, tiles[i]);
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
        g->masks[down][s] = cross_set(g, before, nb, after, na);
    }
}

static void record(Gen *g, int start, int end, int main_score, int wmul, int cross, int count) {
    if (g->failed || count < g->min_tiles) return;
    if (count == 1 && g->down) {
        for (int i = start; i <= end; i++)
            if (g->placed[i] && g->lcross[i] != NO_CROSS) return;
    }
    int score = main_score * wmul + cross;
    if (count >= g->bingo_tiles) score += g->bingo_bonus;
    if (g->valued) {
        if (g->used < 0 || g->used >= g->value_count) {
            PyErr_SetString(PyExc_ValueError, "placements: the leave table is too short for this rack");
            g->failed = 1;
            return;
        }
        if (g->found_count == g->found_cap) {
            Py_ssize_t cap = g->found_cap ? g->found_cap * 2 : 1024;
            Found *grown = PyMem_Realloc(g->found, (size_t)cap * sizeof(Found));
            if (!grown) { PyErr_NoMemory(); g->failed = 1; return; }
            g->found = grown;
            g->found_cap = cap;
        }
        Found *f = &g->found[g->found_count++];
        f->equity = (double)score + g->leave_values[g->used];
        f->score = score;
        f->start = start;
        f->lane = g->lane;
        f->down = g->down;
        f->len = end - start + 1;
        f->used = g->used;
        memcpy(f->tiles, g->placed + start, (size_t)f->len);
        return;
    }
    PyObject *tiles = PyBytes_FromStringAndSize((const char *)g->placed + start, end - start + 1);
    if (!tiles) { g->failed = 1; return; }
    PyObject *item = Py_BuildValue("(iiONi)", start, g->lane, g->down ? Py_True : Py_False, tiles, score);
    if (!item || PyList_Append(g->out, item) < 0) g->failed = 1;
    Py_XDECREF(item);
}

enum { LEFT = 0, RIGHT = 1 };

static void next_square(Gen *g, int phase, int pos, Py_ssize_t node, int main_score, int wmul, int cross, int count,
                        int anchor, int other);

/* Put a rack tile on the empty square `pos`, choosing among the arcs of the
   sibling list at `arc`. */
static void place(Gen *g, int phase, int pos, uint32_t arc, int main_score, int wmul, int cross, int count, int anchor,
                  int other) {
    if (count >= g->rack_size) return;
    int blanks = g->counts[0];
    uint64_t usable = blanks ? g->lmask[pos] : (g->lmask[pos] & g->held);
    if (!usable) return;
    int lm = g->lm[pos], wm = g->wm[pos], cs = g->lcross[pos];
    for (uint32_t index = arc;; index++) {
        uint32_t value = g->nodes[index];
        int letter = (int)(value >> TILE_SHIFT);
        if ((usable >> letter) & 1) {
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
            if (blanks) {
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
        if (value & IS_END) return;
    }
}

/* Cover square `pos`: through its tile, or with a rack tile. */
static void step(Gen *g, int phase, int pos, uint32_t arc, int main_score, int wmul, int cross, int count, int anchor,
                 int other) {
    uint8_t tile = g->letters[pos];
    if (!tile) {
        place(g, phase, pos, arc, main_score, wmul, cross, count, anchor, other);
        return;
    }
    Py_ssize_t node = seek(g, arc, tile & ~BLANK_BIT);
    if (node >= 0) next_square(g, phase, pos, node, main_score + g->face[pos], wmul, cross, count, anchor, other);
}

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

static void generate_lane(Gen *g) {
    int length = g->length;
    uint8_t lane_anchor[MAX_LANE];
    int any = 0;
    for (int i = 0; i < length; i++) {
        int s = g->down ? i * g->cols + g->lane : g->lane * g->cols + i;
        g->letters[i] = g->board[s];
        g->face[i] = g->board[s] ? tile_face(g, g->board[s]) : 0;
        g->lmask[i] = g->masks[g->down][s];
        g->lcross[i] = g->cross[g->down][s];
        g->lm[i] = g->letter_mult[s];
        g->wm[i] = g->word_mult[s];
        g->placed[i] = 0;
        lane_anchor[i] = g->anchor[s];
        any |= lane_anchor[i];
    }
    if (!any) return;
    for (int a = 0; a < length && !g->failed; a++) {
        if (!lane_anchor[a]) continue;
        int leftmost = a;
        if (a > 0 && g->letters[a - 1]) {
            while (leftmost > 0 && g->letters[leftmost - 1]) leftmost--;
        } else {
            while (leftmost > 0 && !g->letters[leftmost - 1] && !lane_anchor[leftmost - 1]) leftmost--;
        }
        place(g, LEFT, a, g->gaddag_root, 0, 1, 0, 0, a, leftmost);
    }
}

static int compare_found(const void *a, const void *b) {
    /* the order of tilebag.movegen.play_order: best equity, higher score,
       then across before down, row, column and tiles */
    const Found *x = a, *y = b;
    if (x->equity != y->equity) return x->equity > y->equity ? -1 : 1;
    if (x->score != y->score) return x->score > y->score ? -1 : 1;
    if (x->down != y->down) return x->down - y->down;
    int xr = x->down ? x->start : x->lane, yr = y->down ? y->start : y->lane;
    if (xr != yr) return xr - yr;
    int xc = x->down ? x->lane : x->start, yc = y->down ? y->lane : y->start;
    if (xc != yc) return xc - yc;
    int n = x->len < y->len ? x->len : y->len;
    int c = memcmp(x->tiles, y->tiles, (size_t)n);
    if (c) return c;
    return x->len - y->len;
}

static PyObject *found_list(Gen *g, Py_ssize_t top) {
    if (g->found_count > 1) qsort(g->found, (size_t)g->found_count, sizeof(Found), compare_found);
    Py_ssize_t n = g->found_count;
    if (top >= 0 && top < n) n = top;
    PyObject *list = PyList_New(n);
    if (!list) return NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        Found *f = &g->found[i];
        PyObject *item = Py_BuildValue("(iiOy#idi)", f->start, f->lane, f->down ? Py_True : Py_False,
                                       (const char *)f->tiles, (Py_ssize_t)f->len, f->score, f->equity, f->used);
        if (!item) { Py_DECREF(list); return NULL; }
        PyList_SET_ITEM(list, i, item);
    }
    return list;
}

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

PyDoc_STRVAR(placements_doc,
"placements(nodes, gaddag_root, dawg_root, rows, cols, board, letter_mult, word_mult, scores, start,\n"
"           rack, bingo_tiles, bingo_bonus, first_min)\n"
"--\n\n"
"Every legal placement as (start, lane, down, tiles, score), as tilebag.movegen lists them.\n"
"`nodes` is a buffer of 32-bit KWG nodes; `board`, `letter_mult`, `word_mult` and `rack` are bytes.");

static PyObject *placements(PyObject *self, PyObject *args) {
    Py_buffer nodes, board, lmult, wmult, rack;
    unsigned int gaddag_root, dawg_root;
    int rows, cols, start, bingo_tiles, bingo_bonus, first_min;
    PyObject *scores, *values = NULL, *values_seq = NULL;
    Py_buffer strides = {0};
    Py_ssize_t top = -1;
    double *leave_values = NULL;
    if (!PyArg_ParseTuple(args, "y*IIiiy*y*y*Oiy*iii|y*On", &nodes, &gaddag_root, &dawg_root, &rows, &cols, &board,
                          &lmult, &wmult, &scores, &start, &rack, &bingo_tiles, &bingo_bonus, &first_min, &strides,
                          &values, &top))
        return NULL;
    PyObject *result = NULL;
    Gen *g = NULL;
    Py_ssize_t size = (Py_ssize_t)rows * cols;
    if (nodes.len % 4 || rows < 1 || cols < 1 || rows > MAX_LANE || cols > MAX_LANE ||
        board.len != size || lmult.len != size || wmult.len != size || gaddag_root >= nodes.len / 4 ||
        dawg_root >= nodes.len / 4 || start < 0 || start >= size) {
        PyErr_SetString(PyExc_ValueError, "placements: inconsistent board, layout or graph sizes");
        goto done;
    }
    g = PyMem_Calloc(1, sizeof(Gen));
    if (!g) { PyErr_NoMemory(); goto done; }
    g->masks[0] = PyMem_Calloc((size_t)size * 2, sizeof(uint64_t));
    g->cross[0] = PyMem_Calloc((size_t)size * 2, sizeof(int));
    g->anchor = PyMem_Calloc((size_t)size, 1);
    if (!g->masks[0] || !g->cross[0] || !g->anchor) { PyErr_NoMemory(); goto done; }
    g->masks[1] = g->masks[0] + size;
    g->cross[1] = g->cross[0] + size;
    g->nodes = (const uint32_t *)nodes.buf;
    g->node_count = nodes.len / 4;
    g->gaddag_root = gaddag_root;
    g->dawg_root = dawg_root;
    g->rows = rows;
    g->cols = cols;
    g->board = board.buf;
    g->letter_mult = lmult.buf;
    g->word_mult = wmult.buf;
    g->start = start;
    g->bingo_tiles = bingo_tiles;
    g->bingo_bonus = bingo_bonus;
    g->first_min = first_min;
    if (fill_scores(g, scores) < 0) goto done;
    if (strides.buf) {
        if (strides.len != 64 || !values) {
            PyErr_SetString(PyExc_ValueError, "placements: strides must be 64 bytes, with a table of leave values");
            goto done;
        }
        values_seq = PySequence_Fast(values, "leave values must be a sequence of floats");
        if (!values_seq) goto done;
        g->value_count = PySequence_Fast_GET_SIZE(values_seq);
        leave_values = PyMem_Malloc((size_t)(g->value_count ? g->value_count : 1) * sizeof(double));
        if (!leave_values) { PyErr_NoMemory(); goto done; }
        for (Py_ssize_t i = 0; i < g->value_count; i++) {
            leave_values[i] = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(values_seq, i));
            if (leave_values[i] == -1.0 && PyErr_Occurred()) goto done;
        }
        for (int t = 0; t < 64; t++) g->tile_stride[t] = ((const uint8_t *)strides.buf)[t];
        g->leave_values = leave_values;
        g->valued = 1;
    }
    const uint8_t *r = rack.buf;
    for (Py_ssize_t i = 0; i < rack.len; i++) {
        if (r[i] >= 64) { PyErr_SetString(PyExc_ValueError, "placements: rack tile out of range"); goto done; }
        g->counts[r[i]]++;
    }
    g->rack_size = (int)rack.len;
    for (int t = 1; t < 64; t++)
        if (g->counts[t]) g->held |= (uint64_t)1 << t;
    const uint8_t *b = g->board;
    g->board_empty = 1;
    for (Py_ssize_t s = 0; s < size; s++)
        if (b[s]) { g->board_empty = 0; break; }
    for (Py_ssize_t s = 0; s < size; s++) {
        if (g->board_empty) { g->anchor[s] = s == start; continue; }
        if (b[s]) continue;
        int rr = (int)(s / cols), cc = (int)(s % cols);
        g->anchor[s] = (cc > 0 && b[s - 1]) || (cc < cols - 1 && b[s + 1]) || (rr > 0 && b[s - cols]) ||
                       (rr < rows - 1 && b[s + cols]);
    }
    g->min_tiles = g->board_empty ? first_min : 1;
    g->out = PyList_New(0);
    if (!g->out) goto done;
    if (rack.len) {
        compute_cross(g, 0);
        compute_cross(g, 1);
        for (int down = 0; down < 2 && !g->failed; down++) {
            g->down = down;
            int lanes = down ? cols : rows;
            g->length = down ? rows : cols;
            for (int lane = 0; lane < lanes && !g->failed; lane++) {
                g->lane = lane;
                generate_lane(g);
            }
        }
    }
    if (g->failed) {
        Py_CLEAR(g->out);
        goto done;
    }
    if (g->valued) {
        result = found_list(g, top);
    } else {
        result = g->out;
        g->out = NULL;
    }
done:
    Py_XDECREF(values_seq);
    PyMem_Free(leave_values);
    if (strides.buf) PyBuffer_Release(&strides);
    if (g) {
        PyMem_Free(g->found);
        Py_XDECREF(g->out);
        PyMem_Free(g->masks[0]);
        PyMem_Free(g->cross[0]);
        PyMem_Free(g->anchor);
        PyMem_Free(g);
    }
    PyBuffer_Release(&nodes);
    PyBuffer_Release(&board);
    PyBuffer_Release(&lmult);
    PyBuffer_Release(&wmult);
    PyBuffer_Release(&rack);
    return result;
}

static PyMethodDef methods[] = {
    {"placements", placements, METH_VARARGS, placements_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "tilebag._native", "The compiled core of tilebag's move generator.", -1, methods,
};

PyMODINIT_FUNC PyInit__native(void) { return PyModule_Create(&module); }
