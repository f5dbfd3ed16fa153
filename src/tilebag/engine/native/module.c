/*
 * The module tilebag.engine._native: the Python types Core and Plays, the
 * methods that generate plays, and the module itself (Heuristic and Klv are
 * in leaves.c, the endgame and rollout methods in their units).
 *
 * A Core holds a configuration, set once by __init__ (a second __init__
 * is refused: an endgame search may be reading the configuration without
 * the GIL), and one generator's working memory for its calls. A call takes
 * that memory for its length: Python code it runs (a leave table's
 * __float__, a seed's __index__, a signal handler) cannot start another
 * call on the same Core meanwhile.
 */
#include "core.h"

/* ---- what every method checks first ------------------------------------------ */

INTERNAL int refuse_second_init(int ready, const char *type) {
    if (!ready) return 0;
    PyErr_Format(PyExc_RuntimeError,
                 "%s.__init__ called on a %s already initialised: it keeps what it was made with "
                 "(a search may be reading it), make a new one instead",
                 type, type);
    return -1;
}

INTERNAL int core_ready(const Core *self, const char *what) {
    if (self->ready) return 0;
    PyErr_Format(PyExc_RuntimeError, "%s: the Core was never initialised (made by __new__ without __init__)", what);
    return -1;
}

INTERNAL int core_take(Core *self, const char *what) {
    if (core_ready(self, what) < 0) return -1;
    if (self->busy) {
        PyErr_Format(PyExc_RuntimeError,
                     "%s: this Core is busy with another call (Python code that call runs may not use the same Core)",
                     what);
        return -1;
    }
    self->busy = 1;
    return 0;
}

INTERNAL void core_give_back(Core *self) { self->busy = 0; }

/* ---- Core ------------------------------------------------------------------------ */

static int Core_init(Core *self, PyObject *args, PyObject *kwds) {
    static char *names[] = {"nodes", "gaddag_root", "dawg_root", "rows", "cols", "letter_mult", "word_mult",
                            "scores", "start", "bingo_tiles", "bingo_bonus", "first_min", NULL};
    if (refuse_second_init(self->ready, "Core") < 0) return -1;
    Py_buffer nodes = {0}, lmult = {0}, wmult = {0};
    unsigned int gaddag_root, dawg_root;
    int rows, cols, start, bingo_tiles, bingo_bonus, first_min;
    PyObject *scores;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "y*IIiiy*y*Oiiii", names, &nodes, &gaddag_root, &dawg_root, &rows,
                                     &cols, &lmult, &wmult, &scores, &start, &bingo_tiles, &bingo_bonus, &first_min))
        return -1;
    int status = config_init(&self->config, &nodes, gaddag_root, dawg_root, rows, cols, &lmult, &wmult, scores, start,
                             bingo_tiles, bingo_bonus, first_min);
    PyBuffer_Release(&nodes); /* the graph is copied: nothing of the caller's is kept */
    PyBuffer_Release(&lmult);
    PyBuffer_Release(&wmult);
    if (status < 0) return -1;
    gen_init(&self->gen, &self->config);
    self->ready = 1;
    return 0;
}

static void Core_dealloc(Core *self) {
    gen_free(&self->gen);
    config_free(&self->config);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* The board and rack of a call that generates plays, checked, then set up
   (the board copied: Python code the call runs cannot change it under the walk). */
static int begin_call(Gen *g, const Py_buffer *board, const Py_buffer *rack, const char *what) {
    const Config *c = g->cfg;
    if (check_board(c, board->buf, board->len, what) < 0) return -1;
    if (check_rack(c, rack->buf, rack->len, MAX_RACK, what, "the rack") < 0) return -1;
    memcpy(g->board_copy, board->buf, (size_t)c->size);
    begin_tiles(g, g->board_copy, rack->buf, (int)rack->len);
    return 0;
}

PyDoc_STRVAR(Core_placements_doc,
"placements(board, rack)\n--\n\n"
"Every legal placement as (start, lane, down, tiles, score), in no particular order.");

static PyObject *Core_placements(Core *self, PyObject *args) {
    Py_buffer board, rack;
    if (core_take(self, "Core.placements") < 0) return NULL;
    if (!PyArg_ParseTuple(args, "y*y*", &board, &rack)) {
        core_give_back(self);
        return NULL;
    }
    Gen *g = &self->gen;
    PyObject *result = NULL;
    g->valued = 0;
    g->top = 0;
    memset(g->tile_stride, 0, sizeof g->tile_stride);
    if (begin_call(g, &board, &rack, "Core.placements") == 0) {
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
    core_give_back(self);
    return result;
}

PyDoc_STRVAR(Core_generate_doc,
"generate(board, rack, leaves, endgame, top, with_pass, exchanges)\n--\n\n"
"Every legal placement valued and sorted as tilebag.engine.movegen.generator.play_order sorts,\n"
"as a Plays sequence. `leaves` is None (worth 0), a Heuristic, a Klv, or a\n"
"(strides, values) table indexed by the tiles used; with `endgame` a leave\n"
"is worth minus twice its face value. `top` > 0 keeps only the best plays;\n"
"`with_pass` adds the pass, `exchanges` every distinct exchange of at most that many tiles.");

/* Whether a (strides, values) table's strides are the ones this rack's
   table is built with. */
static int strides_fit(const Gen *g, PyObject *given) {
    Py_buffer strides;
    if (PyObject_GetBuffer(given, &strides, PyBUF_SIMPLE) < 0) return -1;
    int same = strides.len == MAX_TILES;
    for (int t = 0; same && t < MAX_TILES; t++)
        same = ((const uint8_t *)strides.buf)[t] == g->tile_stride[t] ||
               (!g->counts[t] && ((const uint8_t *)strides.buf)[t] == 0);
    PyBuffer_Release(&strides);
    if (!same) PyErr_SetString(PyExc_ValueError, "Core.generate: the leave table's strides do not fit this rack");
    return same ? 0 : -1;
}

static PyObject *Core_generate(Core *self, PyObject *args) {
    Py_buffer board, rack;
    PyObject *leaves;
    int endgame, with_pass, exchanges;
    Py_ssize_t top;
    if (core_take(self, "Core.generate") < 0) return NULL;
    if (!PyArg_ParseTuple(args, "y*y*Opnpi", &board, &rack, &leaves, &endgame, &top, &with_pass, &exchanges)) {
        core_give_back(self);
        return NULL;
    }
    Gen *g = &self->gen;
    Plays *result = NULL;
    int mode = LEAVES_NONE;
    PyObject *table = NULL;
    g->valued = 1;
    g->top = (top > 0 && top <= TOP_LIMIT) ? top : 0;
    if (endgame) {
        mode = LEAVES_ENDGAME;
    } else if (PyTuple_Check(leaves) && PyTuple_GET_SIZE(leaves) == 2) {
        mode = LEAVES_TABLE;
        table = PyTuple_GET_ITEM(leaves, 1);
    } else if (leaves == Py_None || PyObject_TypeCheck(leaves, &HeuristicType) || PyObject_TypeCheck(leaves, &KlvType)) {
        mode = leave_mode_of(leaves, "Core.generate");
        if (mode < 0) goto done;
    } else {
        PyErr_Format(PyExc_TypeError,
                     "Core.generate: leaves must be None, a Heuristic, a Klv or a (strides, values) table, not %.100s",
                     Py_TYPE(leaves)->tp_name);
        goto done;
    }
    if (begin_call(g, &board, &rack, "Core.generate") < 0) goto done;
    if (leave_table(g, mode, leaves, table) < 0) goto done;
    if (mode == LEAVES_TABLE && strides_fit(g, PyTuple_GET_ITEM(leaves, 0)) < 0) goto done;
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
    result->items = PyMem_RawMalloc((size_t)(n ? n : 1) * sizeof(Found));
    if (!result->items) { Py_CLEAR(result); PyErr_NoMemory(); goto done; }
    memcpy(result->rack_counts, g->counts, sizeof g->counts);
    if (sorted_plays(g, result->items, n) < 0) Py_CLEAR(result);
done:
    PyBuffer_Release(&board);
    PyBuffer_Release(&rack);
    core_give_back(self);
    return (PyObject *)result;
}

PyDoc_STRVAR(Core_may_spell_doc,
"may_spell(tiles, blanks)\n--\n\n"
"Whether the word filter lets some word be spelt with exactly these letter tiles\n"
"and `blanks` blanks: False only when no word can be; True when one is, or the\n"
"filter cannot tell (a few in ten thousand of the letter sets that spell none, or more\n"
"than two blanks). Built at the first call, as at the first search for the best plays.");

static PyObject *Core_may_spell(Core *self, PyObject *args) {
    Py_buffer tiles;
    int blanks;
    if (core_take(self, "Core.may_spell") < 0) return NULL;
    if (!PyArg_ParseTuple(args, "y*i", &tiles, &blanks)) {
        core_give_back(self);
        return NULL;
    }
    Gen *g = &self->gen;
    const Config *c = g->cfg;
    PyObject *result = NULL;
    uint64_t letters = 0;
    Py_ssize_t bad = -1;
    for (Py_ssize_t i = 0; i < tiles.len && bad < 0; i++) {
        int tile = ((const uint8_t *)tiles.buf)[i];
        if (tile >= 1 && tile < c->tile_count) letters += c->letter_hash[tile];
        else bad = i;
    }
    if (bad >= 0)
        PyErr_Format(PyExc_ValueError, "Core.may_spell: tile %d at %zd is not one of the letter tiles (1 to %d)",
                     ((const uint8_t *)tiles.buf)[bad], bad, c->tile_count - 1);
    else if (blanks < 0)
        PyErr_Format(PyExc_ValueError, "Core.may_spell: %d blanks; letter tiles are 1 to %d, blanks from 0", blanks,
                     c->tile_count - 1);
    else {
        build_filter(g);
        result = PyBool_FromLong(word_may_exist(g, letters, blanks));
    }
    PyBuffer_Release(&tiles);
    core_give_back(self);
    return result;
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
"buffer of 32-bit KWG nodes (copied, and checked: every arc inside the graph,\n"
"every sibling list ended and in increasing tile order, every tile in the score\n"
"table); the multipliers are bytes per square; `scores` one score per tile (0 the\n"
"blank), at most 64. Set once: a second __init__ raises RuntimeError.");

INTERNAL PyTypeObject CoreType = {
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
    PyMem_RawFree(self->items);
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
    int kept[MAX_TILES];
    memcpy(kept, self->rack_counts, sizeof kept);
    for (int j = 0; j < f->len; j++) {
        uint8_t t = f->tiles[j];
        if (f->kind == PLACE && !t) continue;
        kept[(t & BLANK_BIT) ? 0 : t]--;
    }
    uint8_t leave[MAX_RACK];
    int n = 0;
    for (int t = 0; t < MAX_TILES; t++)
        for (int c = 0; c < kept[t] && n < MAX_RACK; c++) leave[n++] = (uint8_t)t;
    return Py_BuildValue("(iiiOy#iLy#)", f->kind, f->start, f->lane, f->down ? Py_True : Py_False,
                         (const char *)f->tiles, (Py_ssize_t)f->len, f->score, f->equity, (const char *)leave,
                         (Py_ssize_t)n);
}

static PySequenceMethods Plays_as_sequence = {
    .sq_length = (lenfunc)Plays_length,
    .sq_item = (ssizeargfunc)Plays_item,
};

INTERNAL PyTypeObject PlaysType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "tilebag._native.Plays",
    .tp_basicsize = sizeof(Plays),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Generated plays, best first, kept in C; an item is made when asked for.",
    .tp_dealloc = (destructor)Plays_dealloc,
    .tp_as_sequence = &Plays_as_sequence,
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
