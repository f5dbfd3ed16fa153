/*
 * Leave values in the core: the Heuristic and Klv types (the parameters of
 * tilebag.engine.equity.leaves.HeuristicLeaves, a KLV file's graph), and the table of a
 * rack's sub-racks a search values plays with.
 *
 * The value of every sub-rack is computed once per call into a table
 * indexed by the tiles used (mixed radix over the rack's distinct tiles),
 * so a play's equity is one addition. Values become thousandths of a point
 * once (to_milli), by the reference's rounding, after the reference's
 * floating-point operations in the same order.
 */
#include "core.h"

INTERNAL double heuristic_value(const Heuristic *h, const int *kinds, const int *kept, int m) {
    /* tilebag.engine.equity.leaves.HeuristicLeaves._compute, operation for operation */
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

/* tilebag.engine.equity.leaves.KlvLeaves.index and _compute: the rank of a leave among
   the file's leaves, its value, or 0.0 when the file does not list it (or
   its word counts give a rank outside the values). */
INTERNAL double klv_value(const Klv *k, const int *kinds, const int *kept, int m) {
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
                if (!(node & ACCEPTS) || rank < 0 || rank >= k->value_count) return 0.0;
                return k->values[rank];
            }
            if (node & ACCEPTS) rank++;
            index = node & ARC_MASK;
        }
    }
    return 0.0;
}

INTERNAL int leave_mode_of(PyObject *leaves, const char *what) {
    if (leaves == Py_None) return LEAVES_NONE;
    if (PyObject_TypeCheck(leaves, &HeuristicType)) {
        if (((Heuristic *)leaves)->ready) return LEAVES_HEURISTIC;
        PyErr_Format(PyExc_TypeError, "%s: the Heuristic was never initialised", what);
        return -1;
    }
    if (PyObject_TypeCheck(leaves, &KlvType)) {
        if (((Klv *)leaves)->ready) return LEAVES_KLV;
        PyErr_Format(PyExc_TypeError, "%s: the Klv was never initialised", what);
        return -1;
    }
    PyErr_Format(PyExc_TypeError, "%s: leaves must be None, a Heuristic or a Klv, not %.100s", what,
                 Py_TYPE(leaves)->tp_name);
    return -1;
}

/* The model's value of the leave `kept` (of the kinds), through `memo`:
   a leave of at most 9 tiles is its own key. */
static double memo_value(LeaveMemo *memo, int mode, PyObject *model, const int *kinds, const int *kept, int m) {
    uint64_t key = 1;
    int tiles = 0;
    for (int i = 0; i < m; i++)
        for (int c = 0; c < kept[i]; c++) {
            key = key << 6 | (uint64_t)kinds[i];
            tiles++;
        }
    if (tiles > 9) return mode == LEAVES_HEURISTIC ? heuristic_value((const Heuristic *)model, kinds, kept, m)
                                                   : klv_value((const Klv *)model, kinds, kept, m);
    size_t slot = (size_t)(mix64(key) & (LEAVE_MEMO - 1));
    if (memo->key[slot] != key) {
        memo->value[slot] = mode == LEAVES_HEURISTIC ? heuristic_value((const Heuristic *)model, kinds, kept, m)
                                                     : klv_value((const Klv *)model, kinds, kept, m);
        memo->key[slot] = key;
    }
    return memo->value[slot];
}

static int fill_table(Gen *g, int mode, PyObject *model, PyObject *table, LeaveMemo *memo);

/* The value of every sub-rack kept, indexed by the tiles used (mixed radix
   over the rack's distinct tiles), and the best leave by tiles used. */
INTERNAL int leave_table(Gen *g, int mode, PyObject *model, PyObject *table) {
    return fill_table(g, mode, model, table, NULL);
}

INTERNAL int leave_table_memo(Gen *g, int mode, PyObject *model, LeaveMemo *memo) {
    return fill_table(g, mode, model, NULL, mode == LEAVES_HEURISTIC || mode == LEAVES_KLV ? memo : NULL);
}

static int fill_table(Gen *g, int mode, PyObject *model, PyObject *table, LeaveMemo *memo) {
    int kinds[MAX_TILES], tally[MAX_TILES], m = 0;
    Py_ssize_t size = 1;
    for (int t = 0; t < MAX_TILES; t++) {
        g->tile_stride[t] = 0;
        if (!g->counts[t]) continue;
        kinds[m] = t;
        tally[m] = g->counts[t];
        g->tile_stride[t] = (int)size;
        size *= g->counts[t] + 1;
        m++;
    }
    if (size > g->value_cap) {
        Milli *grown = PyMem_RawRealloc(g->leave_values, (size_t)size * sizeof(Milli));
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
                PyErr_Format(PyExc_ValueError, "tile %d is not in the heuristic's tile set (0 to %d)", kinds[i],
                             h->tile_count - 1);
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
    int used[MAX_TILES] = {0}, kept[MAX_TILES];
    for (Py_ssize_t index = 0; index < size; index++) {
        int n = 0;
        for (int i = 0; i < m; i++) { kept[i] = tally[i] - used[i]; n += used[i]; }
        double value = 0.0;
        switch (mode) {
        case LEAVES_ENDGAME: {
            int face = 0;
            for (int i = 0; i < m; i++) face += g->cfg->scores[kinds[i]] * kept[i];
            value = -2.0 * (double)face;
            break;
        }
        case LEAVES_HEURISTIC:
            value = memo ? memo_value(memo, mode, model, kinds, kept, m)
                         : heuristic_value((const Heuristic *)model, kinds, kept, m);
            break;
        case LEAVES_KLV:
            value = memo ? memo_value(memo, mode, model, kinds, kept, m) : klv_value((const Klv *)model, kinds, kept, m);
            break;
        case LEAVES_TABLE:
            value = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(seq, index));
            if (value == -1.0 && PyErr_Occurred()) { Py_DECREF(seq); return -1; }
            break;
        default: break;
        }
        if (!leave_in_range(value)) { /* NaN included: no equity could be counted from it */
            PyObject *shown = PyFloat_FromDouble(value);
            if (shown)
                PyErr_Format(PyExc_ValueError,
                             "the leave value at %zd of this rack's table is %R: a leave is worth a finite number "
                             "of points, at most %lld either way",
                             index, shown, (long long)MAX_LEAVE_POINTS);
            Py_XDECREF(shown);
            Py_XDECREF(seq);
            return -1;
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

/* ---- the Python types --------------------------------------------------------- */

INTERNAL int fill_doubles(PyObject *values, double *out, Py_ssize_t limit, Py_ssize_t *count, const char *what) {
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
        if (!isfinite(out[i])) {
            Py_DECREF(seq);
            PyErr_Format(PyExc_ValueError, "%s: the value at %zd is not a finite number", what, i);
            return -1;
        }
    }
    *count = n;
    Py_DECREF(seq);
    return 0;
}

static int Heuristic_init(Heuristic *self, PyObject *args, PyObject *kwds) {
    static char *names[] = {"tile_values", "repeat_penalties", "vowels", "q", "u", "third_copy_factor",
                            "balance_target", "balance_weight", "one_kind_consonant", "one_kind_vowel",
                            "q_penalty", NULL};
    if (refuse_second_init(self->ready, "Heuristic") < 0) return -1;
    PyObject *tile_values, *penalties;
    unsigned long long vowels;
    int q, u;
    double params[6];
    Py_ssize_t n_values, n_penalties;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOKiidddddd", names, &tile_values, &penalties, &vowels, &q, &u,
                                     &params[0], &params[1], &params[2], &params[3], &params[4], &params[5]))
        return -1;
    for (int i = 0; i < 6; i++)
        if (!isfinite(params[i])) {
            PyErr_Format(PyExc_ValueError, "Heuristic: %s is not a finite number", names[5 + i]);
            return -1;
        }
    double values[MAX_TILES] = {0}, repeats[MAX_TILES] = {0};
    if (fill_doubles(tile_values, values, MAX_TILES, &n_values, "Heuristic: tile values") < 0) return -1;
    if (fill_doubles(penalties, repeats, MAX_TILES, &n_penalties, "Heuristic: repeat penalties") < 0) return -1;
    if (n_values != n_penalties) {
        PyErr_Format(PyExc_ValueError, "Heuristic: one tile value and one repeat penalty per tile, not %zd and %zd",
                     n_values, n_penalties);
        return -1;
    }
    memcpy(self->tile_values, values, sizeof values);
    memcpy(self->repeat_penalties, repeats, sizeof repeats);
    self->tile_count = (int)n_values;
    self->vowels = (uint64_t)vowels;
    self->q = q;
    self->u = u;
    self->third_copy_factor = params[0];
    self->balance_target = params[1];
    self->balance_weight = params[2];
    self->one_kind_consonant = params[3];
    self->one_kind_vowel = params[4];
    self->q_penalty = params[5];
    self->ready = 1;
    return 0;
}

PyDoc_STRVAR(Heuristic_doc,
"Heuristic(tile_values, repeat_penalties, vowels, q, u, third_copy_factor, balance_target,\n"
"          balance_weight, one_kind_consonant, one_kind_vowel, q_penalty)\n--\n\n"
"The parameters of tilebag.engine.equity.leaves.HeuristicLeaves, for the core to value leaves with.");

INTERNAL PyTypeObject HeuristicType = {
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
    if (refuse_second_init(self->ready, "Klv") < 0) return -1;
    Py_buffer nodes, counts;
    PyObject *values;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "y*y*O", names, &nodes, &counts, &values)) return -1;
    PyObject *seq = NULL;
    uint32_t *node_copy = NULL, *count_copy = NULL;
    double *value_copy = NULL;
    Py_ssize_t node_count = nodes.len / 4, value_count = 0;
    if (nodes.len % 4 || nodes.len == 0 || counts.len != nodes.len) {
        PyErr_Format(PyExc_ValueError, "Klv: one 32-bit word count per 32-bit node (%zd bytes of nodes, %zd of counts)",
                     nodes.len, counts.len);
        goto fail;
    }
    seq = PySequence_Fast(values, "Klv: values must be a sequence of floats");
    if (!seq) goto fail;
    value_count = PySequence_Fast_GET_SIZE(seq);
    node_copy = PyMem_RawMalloc((size_t)nodes.len);
    count_copy = PyMem_RawMalloc((size_t)counts.len);
    value_copy = PyMem_RawMalloc((size_t)(value_count ? value_count : 1) * sizeof(double));
    if (!node_copy || !count_copy || !value_copy) { PyErr_NoMemory(); goto fail; }
    memcpy(node_copy, nodes.buf, (size_t)nodes.len);
    memcpy(count_copy, counts.buf, (size_t)counts.len);
    for (Py_ssize_t i = 0; i < value_count; i++) {
        value_copy[i] = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(seq, i));
        if (value_copy[i] == -1.0 && PyErr_Occurred()) goto fail;
        if (!leave_in_range(value_copy[i])) {
            PyErr_Format(PyExc_ValueError, "Klv: value %zd is not a finite number of at most %lld points either way", i,
                         (long long)MAX_LEAVE_POINTS);
            goto fail;
        }
    }
    for (Py_ssize_t i = 0; i < node_count; i++)
        if ((node_copy[i] & ARC_MASK) >= (uint32_t)node_count) {
            PyErr_Format(PyExc_ValueError, "Klv: node %zd points to node %u, past the end of the graph (%zd nodes)", i,
                         node_copy[i] & ARC_MASK, node_count);
            goto fail;
        }
    Py_DECREF(seq);
    PyBuffer_Release(&nodes);
    PyBuffer_Release(&counts);
    self->nodes = node_copy;
    self->counts = count_copy;
    self->values = value_copy;
    self->node_count = node_count;
    self->value_count = value_count;
    self->ready = 1;
    return 0;
fail:
    Py_XDECREF(seq);
    PyMem_RawFree(node_copy);
    PyMem_RawFree(count_copy);
    PyMem_RawFree(value_copy);
    PyBuffer_Release(&nodes);
    PyBuffer_Release(&counts);
    return -1;
}

static void Klv_dealloc(Klv *self) {
    PyMem_RawFree(self->nodes);
    PyMem_RawFree(self->counts);
    PyMem_RawFree(self->values);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

PyDoc_STRVAR(Klv_doc,
"Klv(nodes, counts, values)\n--\n\n"
"A KLV leave file for the core: its graph's nodes, the word count of each node\n"
"(see tilebag.engine.equity.leaves) as 32-bit buffers, and one value per leave (all copied).");

INTERNAL PyTypeObject KlvType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "tilebag._native.Klv",
    .tp_basicsize = sizeof(Klv),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = Klv_doc,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Klv_init,
    .tp_dealloc = (destructor)Klv_dealloc,
};
