/* Montana: the round search's inner loop, compiled (see solver.py for what it searches).
 *
 * The same depth-first search as solver.RoundSearch, move for move and position for
 * position: the same moves in the same order, the same safe moves, the same stops every
 * 1,024 positions, so both engines answer alike (tests/solve/test_montana_engines.py).
 * What differs is only the keys: 64-bit Zobrist keys in an open-addressing table of
 * 8 bytes a slot, which grows within the bytes the caller allows. A search that cannot
 * grow its table stops, as when its time runs out, and can carry on later.
 *
 * Every index is checked once, where the board comes in (Search(...)): 48 distinct cards
 * 4..51 and four gaps in 52 cells. The loop only ever reads a cell next to a gap that is
 * not in column 1 (so never before A1) or next to a card not in column 13.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#define CELLS 52
#define COLUMNS 13
#define GAP 255
#define KINGS 48
#define RUN 12
#define CLEARED 48
#define MAX_MOVES 16     /* four gaps, each taking at most four 2s */
#define STOP_EVERY 1024  /* positions between two looks at the clock */
#define CHECK_EVERY 16384 /* positions between two looks at the process's memory */
#define FIRST_SLOTS 65536
#define MAX_LOAD_NUM 4   /* the table grows past 4/5 full */
#define MAX_LOAD_DEN 5

typedef struct { uint64_t child; uint8_t gap, card, source, slot; } Move;
typedef struct { Move moves[MAX_MOVES]; int count; } Level;
typedef struct { uint64_t key; uint8_t card, source, gap, slot, row, length; } Step;
typedef struct { uint8_t card, gap; } Played;

typedef struct {
    uint64_t *slots; /* 0: empty */
    size_t size;     /* slots */
    size_t count;
} Seen;

#define MOVE_CHUNK 4096 /* old slots moved between two give-backs of their pages (32 KiB) */

static uint64_t ZOBRIST[CELLS][256];

static uint64_t splitmix(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static void fill_zobrist(void) {
    uint64_t state = 0x6A7;
    for (int cell = 0; cell < CELLS; cell++)
        for (int value = 0; value < 256; value++) ZOBRIST[cell][value] = splitmix(&state);
}

static uint64_t board_key(const uint8_t *cells) {
    uint64_t key = 0;
    for (int cell = 0; cell < CELLS; cell++) key ^= ZOBRIST[cell][cells[cell]];
    return key;
}

/* The change of key when `card` goes into `gap` from `source`. */
static inline uint64_t moved(int card, int source, int gap) {
    return ZOBRIST[source][card] ^ ZOBRIST[source][GAP] ^ ZOBRIST[gap][card] ^ ZOBRIST[gap][GAP];
}

/* -- the seen table: linear probing, keys spread by their own random bits -------------- */

/* A slot holds a key with its lowest bit as a mark, LOST: set on every position of a
 * search that finished without clearing its round (each is reachable from its root, so
 * none can be cleared). A restart keeps the marked keys and drops the others. */
#define LOST 1ULL
static inline uint64_t stored(uint64_t key) {
    key &= ~LOST;
    return key ? key : 2;
}

static inline size_t home(const Seen *seen, uint64_t key) {
    return (size_t)(((unsigned __int128)(key & ~LOST) * seen->size) >> 64);
}

/* Put a slot's value (a stored key and its mark) in; it is not there yet. */
static void seen_put(Seen *seen, uint64_t value) {
    size_t i = home(seen, value);
    while (seen->slots[i]) i = (i + 1 == seen->size) ? 0 : i + 1;
    seen->slots[i] = value;
    seen->count++;
}

/* Add `key`; 1 if it was new. The caller keeps the table below its load (room for it). */
static int seen_add(Seen *seen, uint64_t key) {
    key = stored(key);
    for (size_t i = home(seen, key);; i = (i + 1 == seen->size) ? 0 : i + 1) {
        uint64_t here = seen->slots[i];
        if ((here & ~LOST) == key) return 0;
        if (here == 0) {
            seen->slots[i] = key;
            seen->count++;
            return 1;
        }
    }
}

/* Take `key` out, shifting back the keys after it that would no longer be found. */
static void seen_discard(Seen *seen, uint64_t key) {
    key = stored(key);
    size_t size = seen->size, i = home(seen, key);
    while ((seen->slots[i] & ~LOST) != key) {
        if (seen->slots[i] == 0) return;
        i = (i + 1 == size) ? 0 : i + 1;
    }
    size_t hole = i;
    for (size_t j = (hole + 1 == size) ? 0 : hole + 1; seen->slots[j] != 0;
         j = (j + 1 == size) ? 0 : j + 1) {
        size_t want = home(seen, seen->slots[j]);
        /* The key at j may fill the hole when its home is not cyclically in (hole, j]. */
        int stays = (hole <= j) ? (hole < want && want <= j) : (hole < want || want <= j);
        if (!stays) {
            seen->slots[hole] = seen->slots[j];
            hole = j;
        }
    }
    seen->slots[hole] = 0;
    seen->count--;
}

static size_t seen_bytes(const Seen *seen) { return seen->size * sizeof(uint64_t); }

/* Tables are mapped pages: zero until touched, and given back page by page. */
static uint64_t *seen_map(size_t size) {
    void *slots = mmap(NULL, size * sizeof(uint64_t), PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return slots == MAP_FAILED ? NULL : slots;
}

static void seen_unmap(Seen *seen) {
    if (seen->slots) munmap(seen->slots, seen_bytes(seen));
    seen->slots = NULL;
}

/* Move `seen`'s slots into a new table of `size` slots (those marked LOST only, when
 * `lost_only`), in chunks: a key's home rises with the key, so moving the old slots in
 * order fills the new table in order too, and each chunk of old slots is given back once
 * moved: the two together hold about the bigger table's bytes, never both whole. */
static int seen_move(Seen *seen, size_t size, int lost_only) {
    uint64_t *slots = seen_map(size);
    if (slots == NULL) return -1;
    Seen moved_to = {slots, size, 0};
    for (size_t start = 0; start < seen->size; start += MOVE_CHUNK) {
        size_t end = start + MOVE_CHUNK < seen->size ? start + MOVE_CHUNK : seen->size;
        for (size_t i = start; i < end; i++)
            if (seen->slots[i] && (!lost_only || (seen->slots[i] & LOST)))
                seen_put(&moved_to, seen->slots[i]);
        if (end - start == MOVE_CHUNK)
            madvise(seen->slots + start, MOVE_CHUNK * sizeof(uint64_t), MADV_DONTNEED);
    }
    seen_unmap(seen);
    *seen = moved_to;
    return 0;
}

/* Make room for `more` keys in a table of at most `max_bytes`: 0 when there is room, -1
 * when there is not. A key's home rises with the key, so moving the old slots in order
 * fills the new table in order too, and each chunk of old slots is given back once moved:
 * while it grows the table holds about the new table's bytes, never old and new at once. */
static int seen_room(Seen *seen, size_t more, size_t max_bytes) {
    if ((seen->count + more) * MAX_LOAD_DEN <= seen->size * MAX_LOAD_NUM) return 0;
    size_t size = seen->size * 2, fits = max_bytes / sizeof(uint64_t);
    if (size > fits) size = fits;
    if ((seen->count + more) * MAX_LOAD_DEN > size * MAX_LOAD_NUM) return -1;
    return seen_move(seen, size, 0);
}

/* -- the search ------------------------------------------------------------------------- */

typedef struct {
    PyObject_HEAD
    uint8_t cells[CELLS];
    uint8_t where[CELLS];
    uint8_t gaps[4];
    uint8_t rows[4];
    uint8_t twos[4][4];
    uint8_t twos_count[4];
    int headed;
    int score_now, best_score, open_score;
    int expand, finished, solved, advanced, running;
    uint64_t key;
    long long nodes;
    Seen seen;
    size_t lost; /* keys marked LOST in the seen table */
    Step *path;
    Level *todo;
    size_t depth;   /* steps on the path; levels on todo: depth + 1, or depth when none */
    size_t levels;
    size_t capacity; /* of path, todo and the lines */
    Played *best_line, *open_line;
    size_t best_length, open_length;
} Search;

static int reserve(Search *self, size_t wanted) {
    if (wanted <= self->capacity) return 0;
    size_t capacity = self->capacity ? self->capacity : 256;
    while (capacity < wanted) capacity *= 2;
    Step *path = realloc(self->path, capacity * sizeof(Step));
    if (path) self->path = path;
    Level *todo = realloc(self->todo, capacity * sizeof(Level));
    if (todo) self->todo = todo;
    Played *best = realloc(self->best_line, capacity * sizeof(Played));
    if (best) self->best_line = best;
    Played *open = realloc(self->open_line, capacity * sizeof(Played));
    if (open) self->open_line = open;
    if (!path || !todo || !best || !open) return -1;
    self->capacity = capacity;
    return 0;
}

static void search_dealloc(Search *self) {
    seen_unmap(&self->seen);
    free(self->path);
    free(self->todo);
    free(self->best_line);
    free(self->open_line);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int row_length(const uint8_t *cells, int start, const uint8_t *twos, int count) {
    int first = cells[start], length = 0;
    for (int i = 0; i < count; i++)
        if (first == twos[i]) length = 1;
    while (length && length < RUN && cells[start + length] == first + 4 * length) length++;
    return length;
}

/* Read a board into `self` (cells, where, gaps): 0, or -1 with ValueError set. */
static int load_board(Search *self, PyObject *board) {
    Py_buffer cells;
    if (PyObject_GetBuffer(board, &cells, PyBUF_SIMPLE) < 0) return -1;
    int ok = cells.len == CELLS;
    int gaps = 0, present[CELLS] = {0};
    for (Py_ssize_t i = 0; ok && i < CELLS; i++) {
        uint8_t value = ((const uint8_t *)cells.buf)[i];
        if (value == GAP) {
            ok = gaps < 4;
            if (ok) self->gaps[gaps++] = (uint8_t)i;
        } else {
            ok = value >= 4 && value < CELLS && !present[value];
            if (ok) {
                present[value] = 1;
                self->where[value] = (uint8_t)i;
            }
        }
        self->cells[i] = value;
    }
    ok = ok && gaps == 4;
    PyBuffer_Release(&cells);
    if (!ok) {
        PyErr_SetString(PyExc_ValueError, "a Montana board is 48 cards (4 ... 51) and 4 gaps");
        return -1;
    }
    return 0;
}

/* The root's row lengths, score and key; the search set to start from it. */
static void start_at_root(Search *self) {
    int score = 0;
    for (int row = 0; row < 4; row++) {
        self->rows[row] = (uint8_t)row_length(self->cells, row * COLUMNS, self->twos[row],
                                              self->twos_count[row]);
        score += self->rows[row];
    }
    self->score_now = self->best_score = self->open_score = score;
    self->best_length = self->open_length = 0;
    self->key = board_key(self->cells);
    self->depth = self->levels = 0;
    self->expand = 1;
    self->nodes = 1;
    self->advanced = 0;
    self->solved = self->finished = score == CLEARED;
}

/* Search(cells: bytes of 52, twos: four bytes (the 2s each row's column 1 takes), headed) */
static int search_init(Search *self, PyObject *args, PyObject *kwargs) {
    static char *names[] = {"cells", "twos", "headed", NULL};
    PyObject *board, *twos;
    int headed;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OOp", names, &board, &twos, &headed))
        return -1;
    if (self->path != NULL) {
        PyErr_SetString(PyExc_RuntimeError, "a search is made once");
        return -1;
    }
    if (!PyBytes_Check(board)) {
        PyErr_SetString(PyExc_TypeError, "cells: bytes");
        return -1;
    }
    if (load_board(self, board) < 0) return -1;
    if (!PyTuple_Check(twos) || PyTuple_GET_SIZE(twos) != 4) {
        PyErr_SetString(PyExc_ValueError, "twos: one bytes object a row");
        return -1;
    }
    for (int row = 0; row < 4; row++) {
        PyObject *item = PyTuple_GET_ITEM(twos, row);
        if (!PyBytes_Check(item) || PyBytes_GET_SIZE(item) < 1 || PyBytes_GET_SIZE(item) > 4) {
            PyErr_SetString(PyExc_ValueError, "twos: one to four 2s a row");
            return -1;
        }
        self->twos_count[row] = (uint8_t)PyBytes_GET_SIZE(item);
        for (int i = 0; i < self->twos_count[row]; i++) {
            uint8_t two = (uint8_t)PyBytes_AS_STRING(item)[i];
            if (two < 4 || two > 7) {
                PyErr_SetString(PyExc_ValueError, "twos: card numbers 4 ... 7");
                return -1;
            }
            self->twos[row][i] = two;
        }
    }
    self->headed = headed;
    start_at_root(self);
    self->seen.slots = seen_map(FIRST_SLOTS);
    if (self->seen.slots == NULL || reserve(self, 256) < 0) {
        PyErr_NoMemory();
        return -1;
    }
    self->seen.size = FIRST_SLOTS;
    seen_add(&self->seen, self->key);
    return 0;
}

/* The moves from here to positions not seen yet (now marked seen), as solver.py lists
 * them: plain moves by target cell, then the moves that put cards in place; the last is
 * tried first. A safe move is listed alone (the moves found before it are still marked).
 * The moves are found first and their slots in the seen table fetched ahead, then marked. */
static void list_moves(Search *self, Level *level) {
    Move found[MAX_MOVES];
    uint8_t gains[MAX_MOVES];
    int count = 0, safe = -1;
    const uint8_t *cells = self->cells, *where = self->where;
    for (int slot = 0; slot < 4 && safe < 0; slot++) {
        int gap = self->gaps[slot], column = gap % COLUMNS, row = gap / COLUMNS;
        if (column == 0) {
            for (int i = 0; i < self->twos_count[row]; i++) {
                int two = self->twos[row][i], source = where[two];
                if (source % COLUMNS || self->headed) { /* a 2 in column 1 stays there */
                    gains[count] = 1;
                    found[count++] = (Move){self->key ^ moved(two, source, gap), gap, two, source, slot};
                }
            }
            continue;
        }
        int left = cells[gap - 1];
        if (left >= KINGS) continue; /* a king or a gap */
        int card = left + 4, source = where[card];
        int gaining = column == self->rows[row];
        if (gaining &&
            (card >= KINGS || source % COLUMNS == COLUMNS - 1 || cells[source + 1] == card + 4))
            safe = count;
        gains[count] = (uint8_t)gaining;
        found[count++] = (Move){self->key ^ moved(card, source, gap), gap, card, source, slot};
    }
    for (int i = 0; i < count; i++)
        __builtin_prefetch(&self->seen.slots[home(&self->seen, stored(found[i].child))], 1);
    Move plain[MAX_MOVES], gaining[MAX_MOVES];
    int plains = 0, gained = 0;
    for (int i = 0; i < count; i++) {
        if (!seen_add(&self->seen, found[i].child) || (safe >= 0 && i != safe)) continue;
        if (gains[i] && safe < 0)
            gaining[gained++] = found[i];
        else
            plain[plains++] = found[i];
    }
    for (int i = 1; i < plains; i++) /* by target cell (each plain move has its own gap) */
        for (int j = i; j > 0 && plain[j - 1].gap > plain[j].gap; j--) {
            Move swap = plain[j];
            plain[j] = plain[j - 1];
            plain[j - 1] = swap;
        }
    memcpy(level->moves, plain, plains * sizeof(Move));
    memcpy(level->moves + plains, gaining, gained * sizeof(Move));
    level->count = plains + gained;
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

enum { GOING, DONE, OUT_OF_BUDGET, OUT_OF_ROOM, OUT_OF_MEMORY, FAILED };

/* run(max_seconds, max_nodes, max_bytes, full=None) -> None
 * Search on until the round is decided or a bound is met: `max_seconds`, `max_nodes` more
 * positions, a seen table of `max_bytes` (while it grows: the old and the new one), or
 * `full()` (asked every CHECK_EVERY positions) saying the process has no memory left. */
static PyObject *search_run(Search *self, PyObject *args, PyObject *kwargs) {
    static char *names[] = {"max_seconds", "max_nodes", "max_bytes", "full", NULL};
    double max_seconds;
    long long max_nodes;
    Py_ssize_t max_bytes;
    PyObject *full = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "dLn|O", names, &max_seconds, &max_nodes,
                                     &max_bytes, &full))
        return NULL;
    if (self->running) {
        PyErr_SetString(PyExc_RuntimeError, "this search is already running");
        return NULL;
    }
    if (max_bytes < 0) max_bytes = 0;
    self->running = 1;
    int status = GOING;
    double deadline = now() + max_seconds;
    long long stop_at = self->nodes + (max_nodes > 0 ? max_nodes : 0);
    PyThreadState *thread = PyEval_SaveThread();
    while (!self->finished) {
        if (self->expand) {
            if (seen_room(&self->seen, MAX_MOVES, (size_t)max_bytes) < 0) {
                status = OUT_OF_ROOM;
                break;
            }
            if (reserve(self, self->levels + 2) < 0) {
                status = FAILED;
                break;
            }
            list_moves(self, &self->todo[self->levels++]);
        }
        Level *level = &self->todo[self->levels - 1];
        if (level->count) {
            if ((self->nodes & (STOP_EVERY - 1)) == 0) {
                int stop = self->nodes >= stop_at || now() > deadline;
                if (!stop && (self->nodes & (CHECK_EVERY - 1)) == 0 && full != Py_None) {
                    PyEval_RestoreThread(thread);
                    PyObject *answer = PyObject_CallNoArgs(full);
                    int truth = answer ? PyObject_IsTrue(answer) : -1;
                    Py_XDECREF(answer);
                    thread = PyEval_SaveThread();
                    if (truth) {
                        status = truth < 0 ? FAILED : OUT_OF_MEMORY;
                        self->expand = 0;
                        break;
                    }
                }
                if (stop) {
                    status = OUT_OF_BUDGET;
                    self->expand = 0;
                    break;
                }
            }
            Move move = level->moves[--level->count];
            self->nodes++;
            int gap = move.gap, card = move.card, source = move.source;
            self->cells[source] = GAP;
            self->cells[gap] = card;
            self->where[card] = gap;
            self->gaps[move.slot] = source;
            int row = gap / COLUMNS, column = gap % COLUMNS, length = self->rows[row];
            if (self->depth == 0) {
                self->open_score = self->score_now;
                self->open_line[0] = (Played){card, gap};
                self->open_length = 1;
            }
            self->path[self->depth++] = (Step){self->key, card, source, gap, move.slot, row, length};
            self->key = move.child;
            self->expand = 1;
            if (column == length) {
                int start = gap - column, first = self->cells[start], grown = column + 1;
                while (grown < RUN && self->cells[start + grown] == first + 4 * grown) grown++;
                self->rows[row] = grown;
                self->score_now += grown - length;
                if (self->score_now > self->open_score) {
                    self->open_score = self->score_now;
                    for (size_t i = 0; i < self->depth; i++)
                        self->open_line[i] = (Played){self->path[i].card, self->path[i].gap};
                    self->open_length = self->depth;
                    if (self->score_now > self->best_score) {
                        self->best_score = self->score_now;
                        memcpy(self->best_line, self->open_line, self->depth * sizeof(Played));
                        self->best_length = self->depth;
                        if (self->score_now == CLEARED) self->finished = self->solved = 1;
                    }
                }
            }
            continue;
        }
        self->levels--;
        if (self->levels == 0) {
            self->finished = 1;
            break;
        }
        /* Every move below this position has been searched (or none was new). */
        self->expand = 0;
        Step step = self->path[--self->depth];
        self->cells[step.gap] = GAP;
        self->cells[step.source] = step.card;
        self->where[step.card] = step.source;
        self->gaps[step.slot] = step.gap;
        self->score_now -= self->rows[step.row] - step.length;
        self->rows[step.row] = step.length;
        self->key = step.key;
    }
    if (self->finished && !self->solved && !self->advanced && self->lost < self->seen.count) {
        for (size_t i = 0; i < self->seen.size; i++)
            if (self->seen.slots[i]) self->seen.slots[i] |= LOST;
        self->lost = self->seen.count;
    }
    PyEval_RestoreThread(thread);
    self->running = 0;
    if (status == FAILED) {
        if (!PyErr_Occurred()) PyErr_NoMemory();
        return NULL;
    }
    if (self->finished) status = DONE;
    static const char *said[] = {"going", "done", "budget", "room", "memory"};
    return PyUnicode_FromString(said[status]);
}

/* advance(): the first move of the current line was played; it is the root from now on. */
static PyObject *search_advance(Search *self, PyObject *unused) {
    if (self->running || self->finished || self->depth == 0 || self->levels < 1) {
        PyErr_SetString(PyExc_RuntimeError, "only an unfinished search moves on");
        return NULL;
    }
    Level *first = &self->todo[0];
    for (int i = 0; i < first->count; i++) seen_discard(&self->seen, first->moves[i].child);
    memmove(self->todo, self->todo + 1, (self->levels - 1) * sizeof(Level));
    self->levels--;
    memmove(self->path, self->path + 1, (self->depth - 1) * sizeof(Step));
    self->depth--;
    self->best_score = self->open_score;
    self->best_length = self->open_length ? self->open_length - 1 : 0;
    memcpy(self->best_line, self->open_line + 1, self->best_length * sizeof(Played));
    if (self->depth) {
        self->open_line[0] = (Played){self->path[0].card, self->path[0].gap};
        self->open_length = 1;
    } else {
        self->open_length = 0;
    }
    self->open_score = self->best_score;
    self->advanced = 1;
    Py_RETURN_NONE;
}

/* restart(cells): search from another board of the same game (the same 2s head its rows),
 * keeping every position a finished search of this object proved lost (the keys marked
 * LOST: each is reachable from a root that cannot be cleared) and dropping the others. A
 * clearing line never passes through a lost position, so the new search skips them all;
 * a root among them is lost at once. Not after advance() (it let go of keys). */
static PyObject *search_restart(Search *self, PyObject *board) {
    if (self->running || self->advanced) {
        PyErr_SetString(PyExc_RuntimeError, "a search that moved on (or runs) does not restart");
        return NULL;
    }
    if (!PyBytes_Check(board)) {
        PyErr_SetString(PyExc_TypeError, "cells: bytes");
        return NULL;
    }
    uint8_t cells[CELLS], where[CELLS], gaps[4];
    memcpy(cells, self->cells, CELLS);
    memcpy(where, self->where, CELLS);
    memcpy(gaps, self->gaps, 4);
    if (load_board(self, board) < 0) {
        memcpy(self->cells, cells, CELLS);
        memcpy(self->where, where, CELLS);
        memcpy(self->gaps, gaps, 4);
        return NULL;
    }
    if (self->seen.count > self->lost) {
        if (seen_move(&self->seen, self->seen.size, 1) < 0) return PyErr_NoMemory();
    }
    start_at_root(self);
    if (!self->finished && seen_room(&self->seen, 1, SIZE_MAX) == 0 &&
        !seen_add(&self->seen, self->key))
        self->finished = 1; /* a lost position */
    Py_RETURN_NONE;
}

static PyObject *line_of(const Played *line, size_t length) {
    PyObject *list = PyList_New((Py_ssize_t)length);
    for (size_t i = 0; list && i < length; i++) {
        PyObject *pair = Py_BuildValue("(ii)", line[i].card, line[i].gap);
        if (!pair) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, (Py_ssize_t)i, pair);
    }
    return list;
}

/* result() -> (verdict or None, line as [(card, gap)], score): what run() found, as
 * solver.RoundSearch.run answers it. */
static PyObject *search_result(Search *self, PyObject *unused) {
    if (self->running) {
        PyErr_SetString(PyExc_RuntimeError, "this search is running");
        return NULL;
    }
    const char *verdict = self->finished ? (self->solved ? "solved" : "unsolvable") : NULL;
    int open = !self->finished && self->depth > 0;
    PyObject *line = open ? line_of(self->open_line, self->open_length)
                          : line_of(self->best_line, self->best_length);
    if (!line) return NULL;
    return Py_BuildValue("(zNi)", verdict, line, open ? self->open_score : self->best_score);
}

static PyObject *search_get_nodes(Search *self, void *closure) {
    return PyLong_FromLongLong(self->nodes);
}
static PyObject *search_get_advanced(Search *self, void *closure) {
    return PyBool_FromLong(self->advanced);
}
static PyObject *search_get_root_key(Search *self, void *closure) {
    return PyLong_FromUnsignedLongLong(self->depth ? self->path[0].key : self->key);
}
static PyObject *search_get_seen_bytes(Search *self, void *closure) {
    return PyLong_FromSize_t(seen_bytes(&self->seen));
}

static PyMethodDef search_methods[] = {
    {"run", (PyCFunction)(void (*)(void))search_run, METH_VARARGS | METH_KEYWORDS,
     "run(max_seconds, max_nodes, max_bytes, full=None): search on; says why it stopped"},
    {"restart", (PyCFunction)search_restart, METH_O,
     "restart(cells): search from another board, every position seen so far lost"},
    {"advance", (PyCFunction)search_advance, METH_NOARGS,
     "the first move of the current line was played: the root from now on"},
    {"result", (PyCFunction)search_result, METH_NOARGS,
     "(verdict or None, [(card, gap)], score)"},
    {NULL}};

static PyGetSetDef search_getset[] = {
    {"nodes", (getter)search_get_nodes, NULL, "positions searched", NULL},
    {"advanced", (getter)search_get_advanced, NULL, "moved on along its own move", NULL},
    {"root_key", (getter)search_get_root_key, NULL, "the key of the root position", NULL},
    {"seen_bytes", (getter)search_get_seen_bytes, NULL, "the seen table's size", NULL},
    {NULL}};

static PyTypeObject SearchType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "app.games.montana._search.Search",
    .tp_basicsize = sizeof(Search),
    .tp_dealloc = (destructor)search_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "One round of Montana, searched depth first (solver.py's search, compiled).",
    .tp_methods = search_methods,
    .tp_getset = search_getset,
    .tp_init = (initproc)search_init,
    .tp_new = PyType_GenericNew,
};

static PyObject *module_key_of(PyObject *module, PyObject *arg) {
    Py_buffer cells;
    if (PyObject_GetBuffer(arg, &cells, PyBUF_SIMPLE) < 0) return NULL;
    if (cells.len != CELLS) {
        PyBuffer_Release(&cells);
        PyErr_SetString(PyExc_ValueError, "a Montana board is 52 cells");
        return NULL;
    }
    uint64_t key = board_key(cells.buf);
    PyBuffer_Release(&cells);
    return PyLong_FromUnsignedLongLong(key);
}

static PyMethodDef module_methods[] = {
    {"key_of", module_key_of, METH_O, "key_of(board: bytes of 52) -> the board's key"},
    {NULL}};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, .m_name = "_search", .m_doc = "Montana's round search, compiled.",
    .m_size = -1, .m_methods = module_methods,
};

PyMODINIT_FUNC PyInit__search(void) {
    fill_zobrist();
    if (PyType_Ready(&SearchType) < 0) return NULL;
    PyObject *made = PyModule_Create(&module);
    if (!made) return NULL;
    Py_INCREF(&SearchType);
    if (PyModule_AddObject(made, "Search", (PyObject *)&SearchType) < 0) {
        Py_DECREF(&SearchType);
        Py_DECREF(made);
        return NULL;
    }
    return made;
}
