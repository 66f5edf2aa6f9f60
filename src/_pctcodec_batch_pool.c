/* The batch engine's worker pool (see _pctcodec_batch.h). An array's rows
 * are cut into chunks that the threads take in order from a queue (a busy
 * core takes fewer). A thread writes a chunk into its own scratch buffer,
 * then, on its turn (every chunk before it is in the result), appends it to
 * the result: each result byte is written once into the result's memory,
 * from a scratch buffer still in the cache, and the result is one buffer,
 * with no copy of the threads' pieces at the end. A thread alone writes
 * straight into the result. The caller's thread checks for Ctrl-C between
 * its chunks (the sig_gate of _pctcodec_signals.c).
 */
#include "_pctcodec.h" /* Python.h first, as it asks */

#include <stdlib.h>
#include <string.h>

#include "_pctcodec_batch.h"
#include "_pctcodec_memory.h"

/* With threads chosen automatically (a negative count: up to that many),
 * each thread takes at least this many rows, so that short arrays, where
 * starting a thread costs more than it saves, stay on one. */
#define AUTO_MIN_ROWS 16384

/* Chunks per thread: enough that a busy core's share is taken by the
 * others, few enough that each is long (and its scratch stays in cache). */
#define CHUNKS_PER_THREAD 32
/* and at most this many rows, so that the caller's thread, which checks
 * for signals between its chunks, is never long in one (a row done by
 * Python takes a few microseconds: a chunk of them some tens of ms). */
#define MAX_CHUNK_ROWS 8192

/* Takes the GIL; -1 when this thread gets no thread state (no memory). */
int pool_enter_python(piece *pc)
{
    if (!pc->ts) {
        /* a thread of ours, in the caller's interpreter (not PyGILState's) */
        if (!(pc->ts = PyThreadState_New(pc->interp)))
            return -1;
        pc->own_ts = 1;
    }
    PyEval_RestoreThread(pc->ts);
    return 0;
}

void pool_leave_python(piece *pc)
{
    pc->ts = PyEval_SaveThread();
}

/* The chunk's ends (rows r0 .. r0 + count - 1), plus `base`, into the
 * result's offsets in its own width while they are still in the cache: the
 * result is written once, as Arrow reads it (no 64-bit ends converted in a
 * second pass). `base` is 0 for CHECK, whose positions are its values. The
 * offsets stay below the piece's limit (INT32_MAX for 32-bit offsets). */
static void put_ends(piece *pc, int64_t r0, int64_t count, size_t base)
{
    arrow_piece *part = &pc->run->res->part;
    const int64_t *e = pc->ends;
    if (part->kind == 'l') {
        memcpy((int64_t *)part->offsets + r0, e, (size_t)count * sizeof *e);
    } else if (arrow_offset_width(part->kind) == 4) {
        int32_t *o = (int32_t *)part->offsets + r0 + 1;
        for (int64_t i = 0; i < count; i++)
            o[i] = (int32_t)(e[i] + (int64_t)base);
    } else {
        int64_t *o = (int64_t *)part->offsets + r0 + 1;
        for (int64_t i = 0; i < count; i++)
            o[i] = e[i] + (int64_t)base;
    }
}

/* Appends the chunk's rows r0 .. r0 + count - 1, written in pc->scratch,
 * to the result (on the chunk's turn: no other thread touches it). */
static int append_chunk(piece *pc, int64_t r0, int64_t count)
{
    pct_buf *res = &pc->run->res->out;
    size_t base = res->len, len = pc->scratch.len;
    pct_status rc = out_reserve_big(res, len, pc->limit, NULL);
    if (rc != PCT_OK) {
        /* the row whose end passes the limit */
        for (pc->err_row = r0; pc->err_row < r0 + count - 1; pc->err_row++)
            if ((size_t)pc->ends[pc->err_row - r0] > pc->limit - base)
                break;
        return (int)rc;
    }
    if (res->cap >= POPULATE_MIN)
        big_populate(res->data + base, len); /* one call for the chunk's pages, not a fault each */
    stream_copy(res->data + base, pc->scratch.data, len);
    res->len += len;
    prefault_progress(&pc->run->pf, 0, res->data, res->len);
    put_ends(pc, r0, count, base);
    return PCT_OK;
}

static int run_failed(shared_run *run, int set)
{
    PyThread_acquire_lock(run->queue, WAIT_LOCK);
    if (set)
        run->failed = 1;
    int failed = run->failed;
    PyThread_release_lock(run->queue);
    return failed;
}

/* The caller's piece between two chunks: the signal handlers run (the GIL
 * taken for that moment) every SIG_GATE_NS; -1 with the handler's
 * exception taken into pc->exc. */
static int poll_signals(piece *pc)
{
    pc->gate->ts = pc->ts;
    int rc = sig_gate_poll(pc->gate);
    pc->ts = pc->gate->ts;
    if (rc < 0) {
        PyEval_RestoreThread(pc->ts);
        pc->exc = PyErr_GetRaisedException_compat();
        pc->ts = PyEval_SaveThread();
    }
    return rc;
}

/* Takes chunks until there are none left or one has failed; called without
 * the GIL. */
static void run_piece(piece *pc)
{
    shared_run *run = pc->run;
    for (;;) {
        PyThread_acquire_lock(run->queue, WAIT_LOCK);
        int64_t c = run->failed ? run->nchunks : run->next;
        if (c < run->nchunks)
            run->next++;
        PyThread_release_lock(run->queue);
        if (c >= run->nchunks)
            return;
        int64_t r0 = c * run->chunk_rows, rows = run->res->part.rows;
        int64_t count = rows - r0 < run->chunk_rows ? rows - r0 : run->chunk_rows;
        pc->scratch.len = 0;
        pc->r0 = r0;
        int rc = batch_chunk(pc, r0, count), stop = 0;
        if (rc == PCT_OK && run->turns) {
            if (c > 0)
                PyThread_acquire_lock(run->turns[c], WAIT_LOCK);
            if (run_failed(run, 0))
                stop = 1; /* an earlier chunk failed: this one is not appended */
            else
                rc = append_chunk(pc, r0, count);
        } else if (rc == PCT_OK) {
            put_ends(pc, r0, count, 0); /* written in the result itself, or CHECK's */
            prefault_progress(&run->pf, 0, pc->out->data, pc->out->len);
        }
        if (rc != PCT_OK) {
            pc->status = rc;
            run_failed(run, 1);
        }
        if (run->turns && c + 1 < run->nchunks)
            PyThread_release_lock(run->turns[c + 1]);
        if (rc != PCT_OK || stop)
            return;
        if (pc->gate && poll_signals(pc) < 0) {
            pc->status = PCT_ERR_INTERRUPTED;
            pc->err_row = r0 + count;
            run_failed(run, 1);
            return;
        }
    }
}

/* The threads are CPython's (pythread.h): the same code on every platform,
 * and the extension binds no pthread symbol of its own (glibc 2.34 gave
 * pthread_create a new symbol version, which would raise a wheel's manylinux
 * tag to 2_34). A thread says it has finished by releasing its piece's lock. */
static void piece_thread(void *arg)
{
    piece *pc = arg;
    run_piece(pc);
    if (pc->own_ts) {
        PyEval_RestoreThread(pc->ts);
        PyThreadState_Clear(pc->ts);
        PyThreadState_DeleteCurrent();
    }
    PyThread_release_lock(pc->done);
}

/* Starts piece pc on a thread of its own; 0 if it cannot. */
static int start_piece(piece *pc)
{
    if (!(pc->done = PyThread_allocate_lock()))
        return 0;
    if (PyThread_acquire_lock(pc->done, WAIT_LOCK) &&
        PyThread_start_new_thread(piece_thread, pc) != PYTHREAD_INVALID_THREAD_ID)
        return 1;
    PyThread_free_lock(pc->done);
    pc->done = NULL;
    return 0;
}

/* Runs np pieces, the first on this thread (whose state is `main`, the GIL
 * released), the others on threads of their own; the chunks of a thread
 * that cannot be started are taken by the others. */
static void run_pieces(piece *pcs, int np, PyThreadState *main)
{
    for (int k = 1; k < np; k++)
        start_piece(&pcs[k]);
    pcs[0].ts = main;
    run_piece(&pcs[0]);
    for (int k = 1; k < np; k++) {
        if (pcs[k].done) {
            PyThread_acquire_lock(pcs[k].done, WAIT_LOCK);
            PyThread_free_lock(pcs[k].done);
            pcs[k].done = NULL;
        }
    }
}

void results_free(result_list *rl)
{
    for (int k = 0; k < rl->n; k++) {
        arrow_piece_free(&rl->items[k].part);
        pct_buf_free(&rl->items[k].out);
    }
    free(rl->items);
    rl->items = NULL;
    rl->n = rl->cap = 0;
}

void pool_free(piece *pcs, int np, shared_run *run)
{
    for (int k = 0; k < np; k++) {
        pct_buf_free(&pcs[k].scratch);
        pct_host_cache_free(pcs[k].hosts);
        Py_XDECREF(pcs[k].exc);
        for (size_t j = 0; j < pcs[k].n_rejects; j++)
            Py_XDECREF(pcs[k].rejects[j].exc);
        free(pcs[k].rejects);
    }
    free(pcs);
    free(run->ends);
    if (run->turns) {
        for (int64_t c = 1; c < run->nchunks; c++)
            if (run->turns[c])
                PyThread_free_lock(run->turns[c]);
        free(run->turns);
    }
    if (run->queue)
        PyThread_free_lock(run->queue);
}


/* A new result at the end of rl; NULL when there is no memory for one. */
static result *results_add(result_list *rl)
{
    if (rl->n == rl->cap) {
        int cap = rl->cap < INT32_MAX / 4 ? 2 * rl->cap + 1 : -1;
        result *items = cap > 0 && (size_t)cap <= SIZE_MAX / sizeof *items
                            ? realloc(rl->items, (size_t)cap * sizeof *items) : NULL;
        if (!items)
            return NULL;
        rl->items = items;
        rl->cap = cap;
    }
    result *res = &rl->items[rl->n++];
    memset(res, 0, sizeof *res);
    pct_buf_init(&res->out);
    return res;
}

piece *pool_run(const batch_op *op, const pct_arrow_strings *in, int threads, char kind,
                result_list *rl, shared_run *run, int *np_out)
{
    int np = threads < 1 ? 1 : threads;
    if (threads < 0) {
        int64_t by_rows = in->length / AUTO_MIN_ROWS;
        np = by_rows < -threads ? (int)by_rows : -threads;
        if (np < 1)
            np = 1;
    }
    if (np > in->length)
        np = in->length > 0 ? (int)in->length : 1;
    memset(run, 0, sizeof *run);
    result *res = results_add(rl);
    int check = kind == 'l';
    if (!res || arrow_piece_alloc(&res->part, in->length, kind) != PCT_OK) {
        PyErr_NoMemory();
        return NULL;
    }
    size_t limit = in->kind == 'U' ? (size_t)PY_SSIZE_T_MAX : (size_t)INT32_MAX;
    run->res = res;
    /* a multiple of 8 rows: chunks share no byte of valid */
    run->chunk_rows = (in->length / (np * CHUNKS_PER_THREAD) + 8) & ~(int64_t)7;
    if (run->chunk_rows > MAX_CHUNK_ROWS)
        run->chunk_rows = MAX_CHUNK_ROWS; /* the caller's thread polls for Ctrl-C between chunks */
    run->nchunks = run->chunk_rows ? (in->length + run->chunk_rows - 1) / run->chunk_rows : 0;
    int ordered = np > 1 && !check; /* the chunks' bytes appended in turn */
    piece *pcs = calloc((size_t)np, sizeof *pcs);
    /* each piece's ends of a chunk (in the cache), one block for all (at most
     * MAX_THREADS * MAX_CHUNK_ROWS of them: no overflow) */
    size_t per = (size_t)(run->chunk_rows ? run->chunk_rows : 1);
    run->ends = malloc((size_t)np * per * sizeof *run->ends);
    int failed = !pcs || !run->ends || !(run->queue = PyThread_allocate_lock());
    if (!failed && ordered) {
        run->turns = (uint64_t)run->nchunks < SIZE_MAX / sizeof *run->turns
                         ? calloc((size_t)run->nchunks + 1, sizeof *run->turns) : NULL;
        failed = !run->turns;
        for (int64_t c = 1; !failed && c < run->nchunks; c++)
            failed = !(run->turns[c] = PyThread_allocate_lock())
                     || !PyThread_acquire_lock(run->turns[c], WAIT_LOCK);
    }
    if (failed) {
        if (pcs)
            pool_free(pcs, np, run);
        else if (run->queue)
            PyThread_free_lock(run->queue);
        if (!pcs)
            free(run->ends);
        PyErr_NoMemory();
        return NULL;
    }
    /* most results are about as long as their text: room for that at once
     * saves the copies of growing (a hint only: failing here is no error) */
    size_t hint = check ? 0 : pct_arrow_span(in, 0, in->length);
    int pooled = 0;
    if (hint && hint <= limit - hint / 8)
        out_reserve_big(&res->out, hint + hint / 8, limit, &pooled);
    prefault_init(&run->pf);
    if (!pooled) { /* a pooled buffer's pages are mapped already */
        prefault_add(&run->pf, res->out.data, res->out.cap); /* region 0 */
        prefault_start(&run->pf);
    }
    PyInterpreterState *interp = PyThreadState_GetInterpreter(PyThreadState_Get());
    for (int k = 0; k < np; k++) {
        piece *pc = &pcs[k];
        pc->op = op;
        pc->in = in;
        pc->run = run;
        pc->limit = limit;
        pc->ends = run->ends + (size_t)k * per;
        pc->valid = res->part.valid;
        pct_buf_init(&pc->scratch);
        pc->out = np > 1 ? &pc->scratch : &res->out;
        pc->interp = interp;
    }
    sig_gate gate;
    sig_gate_init(&gate);
    pcs[0].gate = &gate;
    PyThreadState *main = PyEval_SaveThread();
    run_pieces(pcs, np, main);
    prefault_stop(&run->pf);
    PyEval_RestoreThread(main);
    pcs[0].gate = NULL; /* it was this frame's */
    *np_out = np;
    return pcs;
}
