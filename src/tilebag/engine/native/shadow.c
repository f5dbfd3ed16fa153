/*
 * The search for the best few plays: score bounds ("shadow" bounds, the
 * idea of wolges' shadow plays) and the word filter that tightens them.
 *
 * Asked for the best N, the core first bounds every anchor: the best score
 * any play through it could make on those squares with this rack's tiles,
 * whatever the words, plus the best leave it could keep. It searches
 * anchors from the highest bound down and stops when the next bound is
 * below the N-th play kept.
 *
 * A filter of the lexicon's letter multisets drops the bound of any stretch
 * a play would cover with all its tiles (or all but one) when no word has
 * those letters with the board's: most racks have no bingo, and without the
 * filter the bingo's bonus kept nearly every long stretch's bound high.
 * With a blank on the rack, the plays that use it and those that do not are
 * bounded and searched apart: a play using the blank must also pay for the
 * blank's leave, so the costly searches (a blank can be any letter) are
 * seldom made; those that are wait until the cheaper ones have raised the
 * best play, and when only a play of every tile could still win, the blank
 * stands only for the letters the filter finds a word for.
 *
 * Searches for one rack's best play on boards that differ in a few squares
 * (a simulation's rollouts, rollout.c) can share what they found: each
 * anchor's bounds and best play, valid wherever the squares they read are
 * the same (TopShare, core.h).
 */
#include "core.h"

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

static inline void filter_add(Gen *g, uint64_t key) {
    uint64_t a = mix64(key), b = mix64(key ^ 0xD6E8FEB86659FD93ull);
    uint64_t bits[3] = {a & g->filter_mask, (a >> 32) & g->filter_mask, b & g->filter_mask};
    for (int i = 0; i < 3; i++) g->filter[bits[i] >> 6] |= (uint64_t)1 << (bits[i] & 63);
}

/* The answers of the filter, remembered by key after the filter's bits (in
   the same block): its bits are spread over megabytes, and the searches
   ask about the same few multisets again and again (a rack's letters with
   the board's, anchor after anchor, search after search). An entry holds
   a key and its answer plus one (0: empty). */
#define FILTER_MEMO 4096

static inline int filter_has(const Gen *g, uint64_t key) {
    uint64_t *memo = g->filter + ((g->filter_mask + 1) >> 6) + 2 * ((key ^ (key >> 29)) & (FILTER_MEMO - 1));
    if (memo[1] && memo[0] == key) return (int)memo[1] - 1;
    uint64_t a = mix64(key), b = mix64(key ^ 0xD6E8FEB86659FD93ull);
    uint64_t bits[3] = {a & g->filter_mask, (a >> 32) & g->filter_mask, b & g->filter_mask};
    /* the three bits read at once (no early exit: their misses overlap) */
    int found = (int)((g->filter[bits[0] >> 6] >> (bits[0] & 63)) & (g->filter[bits[1] >> 6] >> (bits[1] & 63)) &
                      (g->filter[bits[2] >> 6] >> (bits[2] & 63)) & 1);
    memo[0] = key;
    memo[1] = (uint64_t)found + 1;
    return found;
}

typedef struct WordWalk {
    uint8_t word[MAX_LANE];
    Py_ssize_t visits, limit, entries;
    int adding, failed;
} WordWalk;

/* Every word of the DAWG at `arc`: counted, or added to the filter. The
   graph's arcs and lists were checked when the Core was made; the walk
   still gives up on a word longer than a lane and on a graph with cycles
   (more visits than FILTER_VISITS times its size), and then searches go on
   without a filter. */
static void filter_words(Gen *g, WordWalk *w, uint32_t arc, int depth, uint64_t hash) {
    const Config *c = g->cfg;
    if (!arc || w->failed) return;
    if (depth >= MAX_LANE || arc >= (uint32_t)c->node_count) { w->failed = 1; return; }
    for (uint32_t i = arc; i < (uint32_t)c->node_count; i++) {
        if (++w->visits > w->limit) { w->failed = 1; return; }
        uint32_t value = c->nodes[i];
        int letter = (int)(value >> TILE_SHIFT);
        if (letter < 1 || letter >= MAX_TILES) { w->failed = 1; return; }
        w->word[depth] = (uint8_t)letter;
        g->word_letters |= (uint64_t)1 << letter;
        uint64_t h = hash + c->letter_hash[letter];
        if (value & ACCEPTS) {
            uint64_t seen = 0;
            if (w->adding) filter_add(g, h);
            w->entries++;
            for (int k = 0; k <= depth; k++) {
                uint64_t bit = (uint64_t)1 << w->word[k];
                if (seen & bit) continue;
                seen |= bit;
                if (w->adding) filter_add(g, h - c->letter_hash[w->word[k]] + LESS_ONE);
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
INTERNAL void build_filter(Gen *g) {
    if (g->filter_state) return;
    const Config *c = g->cfg;
    g->filter_state = -1;
    g->word_letters = 0;
    WordWalk w = {{0}, 0, (Py_ssize_t)FILTER_VISITS * (c->node_count + 1), 0, 0, 0};
    filter_words(g, &w, c->dawg_root, 0, 0);
    if (w.failed || !w.entries) return;
    uint64_t bits = 1 << 12;
    while (bits < (uint64_t)w.entries * 12) bits <<= 1; /* 12 to 24 bits a key: a false "yes" in some thousands */
    g->filter = PyMem_RawCalloc((size_t)(bits / 64) + 2 * FILTER_MEMO, sizeof(uint64_t)); /* the bits, then the memo */
    if (!g->filter) return;
    g->filter_mask = bits - 1;
    w.visits = 0;
    w.adding = 1;
    filter_words(g, &w, c->dawg_root, 0, 0);
    g->filter_state = 1;
}

/* Whether some word may have the letters hashed in `letters` and `blanks`
   more letters of any kind (a blank's). */
INTERNAL int word_may_exist(const Gen *g, uint64_t letters, int blanks) {
    if (g->filter_state != 1 || blanks > 2) return 1;
    if (blanks == 0) return filter_has(g, letters);
    if (blanks == 1) return filter_has(g, letters + LESS_ONE);
    for (uint64_t left = g->word_letters; left; left &= left - 1) /* two blanks: one stands for some letter */
        if (filter_has(g, letters + g->cfg->letter_hash[__builtin_ctzll(left)] + LESS_ONE)) return 1;
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
    struct Answers *answers; /* what the filter said of the stretches of this search */
} Shadow;

/* The filter's answers for a search's stretches that take every tile or all
   but one, by the board letters they cover (anchor after anchor, the same
   few): a key (the letters' hash, and which question) and the answer plus
   one (0: none yet). */
#define ANSWERS 128
typedef struct Answers {
    uint64_t key[ANSWERS];
    uint8_t answer[ANSWERS];
} Answers;

static inline int answered(Answers *answers, uint64_t through, int question, int *answer) {
    uint64_t key = through * 2 + (uint64_t)question;
    size_t slot = (size_t)((key * 0x9E3779B97F4A7C15ull) >> 57) & (ANSWERS - 1);
    if (answers->answer[slot] && answers->key[slot] == key) {
        *answer = answers->answer[slot] - 1;
        return 1;
    }
    return 0;
}

static inline int answer(Answers *answers, uint64_t through, int question, int value) {
    uint64_t key = through * 2 + (uint64_t)question;
    size_t slot = (size_t)((key * 0x9E3779B97F4A7C15ull) >> 57) & (ANSWERS - 1);
    answers->key[slot] = key;
    answers->answer[slot] = (uint8_t)(value + 1);
    return value;
}

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
    const Config *cfg = g->cfg;
    const uint64_t *letter_hash = cfg->letter_hash;
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
                through += letter_hash[g->letters[i] & ~BLANK_BIT & 63];
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
                through += letter_hash[g->letters[e] & ~BLANK_BIT & 63];
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
            if (sorted != n) {
                sort_squares(n, lm, wm, crossed, cap, wmul, coef, limit);
                sorted = n;
            }
            /* the most the letter tiles can score on these squares, with
               `zeros` of them left to blanks (worth nothing): at most the
               t-th highest on the t-th best square, and no more than that
               when every square takes every tile */
            int slots = n - sh->zeros; /* squares a letter tile may take */
            int plain = 0;
            for (int t = 0; t < sh->face_count && t < slots; t++) plain += coef[t] * sh->faces[t];
            int score = wmul * board_points + cross_points + (n >= cfg->bingo_tiles ? cfg->bingo_bonus : 0);
            Milli ceiling = (Milli)(score + plain) * 1000 + sh->leave[n];
            if (ceiling <= best && (n >= sh->most || ceiling <= *fewer)) continue; /* the bounds cannot grow */
            if (n == sh->most || (n == sh->most - 1 && n > 1)) {
                int question = n == sh->most, yes;
                if (!answered(sh->answers, through, question, &yes))
                    yes = answer(sh->answers, through, question,
                                 question ? word_may_exist(g, sh->letters + through, sh->blanks)
                                          : word_keeping_one_may_exist(g, sh, through));
                if (!yes) continue;
            }
            int tiles = plain;
            if (min_cap < top_face) {
                /* the letter tiles, highest first, each on the best free
                   square whose cross-set allows a tile that high: with
                   every square open to a letter, the best assignment (a
                   tile allowed on a square allows every lower one there) */
                int free = n;
                uint32_t taken = 0;
                tiles = 0;
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
                if (sh->zeros && plain < tiles) tiles = plain;
            }
            score += tiles;
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
    const uint64_t *letter_hash = g->cfg->letter_hash;
    int last = g->length - 1;
    uint64_t found = 0;
    for (int s = a; s >= leftmost; s--) {
        if (!g->letters[s] && !(g->lmask[s] & ALL_LETTERS)) break;
        if (s > 0 && g->letters[s - 1]) continue;
        int n = 0;
        uint64_t through = 0, allowed = 0;
        for (int i = s; i < a && n <= sh->most; i++) {
            if (g->letters[i]) through += letter_hash[g->letters[i] & ~BLANK_BIT & 63];
            else { allowed |= g->lmask[i]; n++; }
        }
        if (n > sh->most) break;
        for (int e = a; e <= last; e++) {
            if (g->letters[e]) {
                through += letter_hash[g->letters[e] & ~BLANK_BIT & 63];
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
                if (filter_has(g, sh->letters + through + letter_hash[x] + other)) found |= (uint64_t)1 << x;
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

/* ---- the search ------------------------------------------------------------- */

/* Room for the anchors' bounds and the best plays of a search for the best few. */
INTERNAL int ready_for_top(Gen *g) {
    if (!g->bounds) {
        g->bounds = PyMem_RawMalloc((size_t)MAX_SQUARES * 4 * sizeof(Bound)); /* two directions, two kinds */
        if (!g->bounds) { PyErr_NoMemory(); return -1; }
    }
    if (g->found_cap < TOP_LIMIT + 1) {
        Found *grown = PyMem_RawRealloc(g->found, (size_t)(TOP_LIMIT + 1) * sizeof(Found));
        if (!grown) { PyErr_NoMemory(); return -1; }
        g->found = grown;
        g->found_cap = TOP_LIMIT + 1;
    }
    return 0;
}

/* The squares of the lane the plays from anchor `a` and its bounds read (a
   bit each): on each side, up to the first empty square past those the
   rack could fill from `a` (and on the left, no further than the one
   before `leftmost`), or the lane's end. Where they are alike, so are the
   plays and the bounds: `leftmost` too, or it lies beyond the rack's
   reach on both boards. */
static uint32_t window_of(const Gen *g, int a, int leftmost) {
    int last = g->length - 1, low = a, high = a, empty = 0;
    for (; high < last; high++)
        if (!g->letters[high] && ++empty > g->rack_size) break;
    int least = leftmost > 0 ? leftmost - 1 : 0;
    for (empty = 0; low > least; low--)
        if (!g->letters[low] && ++empty > g->rack_size) break;
    uint32_t upto = high >= 31 ? 0xFFFFFFFFu : ((uint32_t)1 << (high + 1)) - 1;
    return upto & ~(((uint32_t)1 << low) - 1);
}

/* Whether only the plays of every tile need be searched of a blank's bound:
   those that place fewer cannot beat the play kept. */
static int only_every_tile(const Gen *g, const Bound *b, int blanks) {
    return b->kind == BLANK_PLAYS && blanks <= 2 && g->filter_state == 1 && g->found_count == g->top &&
           b->fewer < g->found[g->found_count - 1].equity;
}

/* Search the plays of one bound's anchor and kind (of every tile only when
   `every_tile`, which only_every_tile allows); `blank_shadow` is the
   search's shadow of the plays that use a blank. */
static void search_bound(Gen *g, const Bound *b, int blanks, const Shadow *blank_shadow,
                         int every_tile, int *current_down, int *current_lane) {
    if (b->down != *current_down || b->lane != *current_lane) {
        setup_lane(g, b->down, b->lane);
        *current_down = b->down;
        *current_lane = b->lane;
    }

    if (b->kind == PLAIN_PLAYS) {
        g->counts[0] = 0;
        generate_anchor(g, b->anchor, b->leftmost);
        g->counts[0] = blanks;
    } else if (every_tile) {
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

/* Search a bound shared by other searches (see TopShare): its best play as
   an earlier search found it, else searched for it alone (the play kept
   set aside) and kept in `share` for the next. Only for the best play. */
static void search_shared(Gen *g, TopShare *share, const Bound *b, int blanks, const Shadow *blank_shadow,
                          int every_tile, int *current_down, int *current_lane) {
    ShareEntry *e = &share->entries[b->share];
    if (e->full || (every_tile && e->all)) {
        int found = e->full ? e->full : e->all;
        if (found > 0) keep(g, e->full ? &e->full_play : &e->all_play);
        return;
    }
    Found kept;
    Py_ssize_t kept_count = g->found_count;
    if (kept_count) kept = g->found[0];
    g->found_count = 0;
    search_bound(g, b, blanks, blank_shadow, every_tile, current_down, current_lane);
    int found = g->found_count ? 1 : -1;
    Found best;
    if (found > 0) best = g->found[0];
    if (kept_count) g->found[0] = kept;
    g->found_count = kept_count;
    if (g->failed) return;
    if (every_tile) {
        e->all = (signed char)found;
        if (found > 0) e->all_play = best;
    } else {
        e->full = (signed char)found;
        if (found > 0) e->full_play = best;
    }
    if (found > 0) keep(g, &best);
}

/* The best `top` plays: anchors in order of their bound, stopping at the
   first whose bound is below the worst play kept. With a blank on the
   rack, the plays that use no blank and those that use one are bounded
   and searched apart: a play using the blank must score enough more to
   pay for the blank's leave, so most anchors' blank searches (the costly
   part, a blank can be any letter) are never made. With `share` (the
   best play only), the anchors none of whose squares it marks changed
   have the bounds and best plays it holds, each found once. */
static void top_search(Gen *g, TopShare *share) {
    if (!g->rack_size) return;
    const Config *c = g->cfg;
    build_filter(g);
    int faces[MAX_RACK], face_count = 0;
    uint64_t letters = 0;
    for (int t = 1; t < MAX_TILES; t++)
        for (int k = 0; k < g->counts[t]; k++) {
            int face = c->scores[t], j = face_count++;
            while (j > 0 && faces[j - 1] < face) { faces[j] = faces[j - 1]; j--; }
            faces[j] = face;
            letters += c->letter_hash[t];
        }
    int blanks = g->counts[0];
    Shadow shadows[2];
    uint64_t kept[MAX_RACK];
    int kept_count = 0;
    for (int t = 1; t < MAX_TILES; t++)
        if (g->counts[t]) kept[kept_count++] = c->letter_hash[t];
    int kinds[2], kind_count = 0;
    if (!blanks) {
        shadows[0] = (Shadow){g->held, faces, face_count, 0, g->rack_size, g->best_leave, letters, 0, {0}, 0, NULL};
        kinds[kind_count++] = ALL_PLAYS;
    } else {
        if (face_count) {
            shadows[kind_count] = (Shadow){g->held, faces, face_count, 0, face_count, g->plain_leave, letters, 0, {0}, 0, NULL};
            kinds[kind_count++] = PLAIN_PLAYS;
        }
        shadows[kind_count] = (Shadow){ALL_LETTERS, faces, face_count, 1, g->rack_size, g->blank_leave, letters, blanks, {0}, 0, NULL};
        kinds[kind_count++] = BLANK_PLAYS;
    }
    Answers answers[2];
    for (int k = 0; k < kind_count; k++) {
        memcpy(shadows[k].kept, kept, sizeof kept);
        shadows[k].kept_count = kept_count;
        memset(answers[k].answer, 0, sizeof answers[k].answer);
        shadows[k].answers = &answers[k];
    }
    Py_ssize_t count = 0;
    g->held_count = 0;
    for (uint64_t left = g->held; left; left &= left - 1) {
        int letter = __builtin_ctzll(left), j = g->held_count++;
        while (j > 0 && c->scores[g->held_by_face[j - 1]] < c->scores[letter]) {
            g->held_by_face[j] = g->held_by_face[j - 1];
            j--;
        }
        g->held_by_face[j] = letter;
    }
    g->bounding = 1;
    for (int down = 0; down < 2; down++) {
        int lanes = down ? c->cols : c->rows;
        for (int lane = 0; lane < lanes; lane++) {
            uint32_t changed = share ? share->changed[down * MAX_LANE + lane] : 0;
            ShareEntry *row = share ? share->entries + (size_t)(down * share->side + lane) * share->side * 2 : NULL;
            int listing = share && !changed;
            if (listing && share->lane_stamp[down][lane] == share->stamp) {
                /* every anchor's bounds as an earlier search found them */
                const int *listed = share->listed + share->lane_first[down][lane];
                for (int i = 0; i < share->lane_count[down][lane]; i++) {
                    g->bounds[count] = share->entries[listed[i]].bound;
                    g->bounds[count++].share = listed[i];
                }
                continue;
            }
            if (listing) {
                share->lane_stamp[down][lane] = share->stamp;
                share->lane_first[down][lane] = share->used;
                share->lane_count[down][lane] = 0;
            }
            if (!setup_lane(g, down, lane)) continue;
            for (int a = 0; a < g->length; a++) {
                if (!g->lane_anchor[a]) continue;
                int leftmost = leftmost_of(g, a);
                int shared = share && !(changed & window_of(g, a, leftmost));
                for (int k = 0; k < kind_count; k++) {
                    ShareEntry *e = shared ? &row[a * 2 + k] : NULL;
                    if (e && e->stamp == share->stamp) { /* found by an earlier search */
                        if (e->bound.equity == NO_EQUITY) continue;
                        g->bounds[count] = e->bound;
                        g->bounds[count++].share = (int)(e - share->entries);
                        if (listing) {
                            share->listed[share->used++] = (int)(e - share->entries);
                            share->lane_count[down][lane]++;
                        }
                        continue;
                    }
                    Milli fewer;
                    Milli bound = anchor_bound(g, a, leftmost, &shadows[k], &fewer);
                    if (e) {
                        e->stamp = share->stamp;
                        e->full = e->all = 0;
                        e->bound.equity = bound;
                    }
                    if (bound == NO_EQUITY) continue;
                    Bound *b = &g->bounds[count++];
                    b->equity = bound;
                    b->fewer = fewer;
                    b->down = down;
                    b->lane = lane;
                    b->anchor = a;
                    b->leftmost = leftmost;
                    b->kind = kinds[k];
                    b->share = -1;
                    if (e) {
                        e->bound = *b;
                        b->share = (int)(e - share->entries);
                        if (listing) {
                            share->listed[share->used++] = b->share;
                            share->lane_count[down][lane]++;
                        }
                    }
                }
            }
        }
    }
    g->bounding = 0;
    /* The best plays shared searches found on lanes this board has alike
       are plays here too: kept first, they rule out more anchors. */
    if (share)
        for (Py_ssize_t i = 0; i < count; i++)
            if (g->bounds[i].share >= 0 && share->entries[g->bounds[i].share].full > 0)
                keep(g, &share->entries[g->bounds[i].share].full_play);
    /* a heap, not a sort: most searches stop after a third of the bounds */
    for (Py_ssize_t i = count / 2 - 1; i >= 0; i--) sift_bound(g->bounds, count, i);
    /* A full search of a blank's plays (the blank any letter) costs as much
       as dozens of others; it waits, in the slots the heap frees, until the
       others have raised the best play, which may then rule it out or leave
       only plays of every tile to search. (One already made for another
       board, shared, costs nothing.) */
    Py_ssize_t waiting = 0;
    int current_down = -1, current_lane = -1;
    const Shadow *blank_shadow = &shadows[kind_count - 1];
    for (Py_ssize_t left = count; left > 0 && !g->failed;) {
        Bound b = g->bounds[0];
        g->bounds[0] = g->bounds[--left];
        sift_bound(g->bounds, left, 0);
        if (g->found_count == g->top && b.equity < g->found[g->found_count - 1].equity) break;
        int every_tile = only_every_tile(g, &b, blanks);
        if (b.kind == BLANK_PLAYS && !(g->found_count == g->top && b.fewer < g->found[g->found_count - 1].equity) &&
            !(b.share >= 0 && share->entries[b.share].full)) {
            g->bounds[count - 1 - waiting++] = b;
            continue;
        }
        if (b.share >= 0) search_shared(g, share, &b, blanks, blank_shadow, every_tile, &current_down, &current_lane);
        else search_bound(g, &b, blanks, blank_shadow, every_tile, &current_down, &current_lane);
    }
    for (Py_ssize_t i = 0; i < waiting && !g->failed; i++) {
        Bound b = g->bounds[count - 1 - i];
        if (g->found_count == g->top && b.equity < g->found[g->found_count - 1].equity) continue;
        int every_tile = only_every_tile(g, &b, blanks);
        if (b.share >= 0) search_shared(g, share, &b, blanks, blank_shadow, every_tile, &current_down, &current_lane);
        else search_bound(g, &b, blanks, blank_shadow, every_tile, &current_down, &current_lane);
    }
}

INTERNAL void generate_top(Gen *g) { top_search(g, NULL); }

INTERNAL void generate_top_shared(Gen *g, TopShare *share) {
    const Config *c = g->cfg;
    top_search(g, share && g->top == 1 && c->rows <= share->side && c->cols <= share->side ? share : NULL);
}
