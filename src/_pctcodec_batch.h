/* The batch engine (quote_many ... parse_url_many, src/pctcodec/batch.py)
 * in its rooms, each one job:
 *   _pctcodec_batch_ops.c   op decoding: a batch function's arguments into
 *                           a batch_op (and canonicalize's options)
 *   _pctcodec_batch_pool.c  the worker pool: an array's rows cut into
 *                           chunks run on threads, appended in turn, with a
 *                           Ctrl-C check between chunks
 *   _pctcodec_arrow.c       Arrow I/O: capsules in, result arrays out
 *   _pctcodec_batch.c       the rows: a list's, an array chunk's; row errors
 *                           and rejects; the two entry points
 * This header is what they share; the Arrow I/O that other column
 * functions use too is _pctcodec_arrow.h. */
#ifndef PCTCODEC_BATCH_BINDING_H
#define PCTCODEC_BATCH_BINDING_H

#include "_pctcodec.h"
#include "_pctcodec_arrow.h"
#include "_pctcodec_memory.h"
#include "pct_batch.h"
#include "pct_canon.h"

/* ---- ops (_pctcodec_batch_ops.c) ------------------------------------------ */

/* Operation codes, as src/pctcodec/batch.py passes them. */
enum { OP_QUOTE, OP_QUOTE_PLUS, OP_UNQUOTE, OP_UNQUOTE_PLUS, OP_REQUOTE, OP_NORMALIZE, OP_CHECK,
       OP_QUERY_PARAM, OP_CLEAN_QUERY, OP_DOMAIN, OP_SUFFIX, OP_PARTS, OP_RESOLVE,
       OP_CANONICALIZE, OP_URL, OP_URL_HREF, N_OPS };

/* on_error, as batch.py passes it; ON_ERROR_NULL_ROWS is "null" with a
 * rejects list that gets each failed row's index alone (an int: no value,
 * no exception made), for a caller that only needs to know which rows
 * failed (domain_parts_many's first pass). */
enum { ON_ERROR_RAISE, ON_ERROR_NULL, ON_ERROR_KEEP, ON_ERROR_NULL_ROWS };

/* The arguments shared by both entry points, after the first: op, func,
 * safe, encoding, errors, opts, on_error, rejects. */
#define N_OP_ARGS 8

typedef struct {
    int code;         /* OP_* */
    int on_error;     /* ON_ERROR_* */
    PyObject *rejects; /* a list for (index, value, exception), or NULL (borrowed) */
    int rows_only;    /* rejects gets the index alone (ON_ERROR_NULL_ROWS) */
    /* what a rejects entry is made of, taken once per call when rejects
     * keeps them (else NULL; batch_op_release drops them): the Reject
     * class, the error classes of the failed rows made in C, the name of
     * a positioned error's position and its slot (a member descriptor, or
     * NULL: set by name) */
    PyObject *reject_type, *host_error, *percent_error, *s_position, *d_position;
    pct_batch_spec spec;
    int all_python;   /* every row goes through func */
    int strict_idna;  /* NORMALIZE: a host with no IDNA form is the row's error */
    PyObject *func;   /* the single-value function (borrowed) */
    PyObject *module;
    PyObject *base_column;      /* RESOLVE, URL: the `errors` argument, or NULL (borrowed) */
    const pct_arrow_strings *bases; /* RESOLVE, URL over Arrow: the base column's array, or NULL */
} batch_op;

/* The start of both entry points: *op (zeroed first, whatever happens)
 * from args, whose count is 1 + N_OP_ARGS + extra (the operation's
 * arguments after the first one). 0, or -1 with an error naming fname. */
int batch_op_decode(PyObject *module, PyObject *const *args, Py_ssize_t nargs, int extra,
                    const char *fname, batch_op *op);

/* Drops what batch_op_decode took (the rejects' classes); after a
 * successful batch_op_decode, on every path. */
void batch_op_release(batch_op *op);

/* The batch function of an op code ("quote_many", ...). */
const char *batch_op_name(int code);

/* canonicalize's filter and key options from its pattern sets (bytes, the
 * keep set may be None; they must outlive *c) and its packed options, as
 * src/pctcodec/query.py packs them. */
void batch_canon_init(pct_canon *c, PyObject *drop, PyObject *keep, long opts);

/* ---- the worker pool (_pctcodec_batch_pool.c) ------------------------------ */

/* More threads than this are not started. */
#define MAX_THREADS 256

/* What the row pass learned of a row it failed, so that its exception,
 * made later, need not look again. */
typedef struct {
    int no_form;      /* its host has no IDNA form (mapped by then) */
    int refused;      /* its host holds an ASCII byte no host may hold, and the
                       * URL Standard's parser reads it as written (pct_batch_info's) */
    pct_range host;   /* refused: the host's bytes in the row */
} row_failure;

/* A row failed under on_error "null" or "keep": its row in the array and
 * its exception. */
struct reject {
    int64_t row;
    PyObject *exc; /* NULL: a row the core failed, its exception made later */
    row_failure why;
};

/* One input array's result: an Arrow output piece (_pctcodec_arrow.h: its
 * offsets, or CHECK's values, in the output's own layout) and the buffer its
 * bytes are written into. */
typedef struct {
    arrow_piece part; /* part.data, part.len: unused until built (out has them) */
    pct_buf out;
} result;

typedef struct {
    result *items;
    int n, cap;
} result_list;

/* What the threads of one array share. */
typedef struct {
    result *res;
    int64_t chunk_rows, nchunks;
    int64_t next;              /* the next chunk to take (under queue) */
    int failed;                /* a chunk failed: no more are taken or appended (under queue) */
    PyThread_type_lock queue;
    int64_t *ends;             /* the pieces' ends of a chunk, chunk_rows each */
    PyThread_type_lock *turns; /* turns[c] (c >= 1) is released once chunk c - 1 is done
                                * with; NULL when chunks are not appended in turn */
    prefaulter pf;             /* the result's pages mapped ahead of its writer */
} shared_run;

/* One thread's share of an array. */
typedef struct {
    const batch_op *op;
    const pct_arrow_strings *in;
    shared_run *run;
    size_t limit;       /* the most bytes out may hold */
    int64_t *ends;      /* the chunk's: per row (r at ends[r - r0]) its end in out
                         * (CHECK: its position or -1); the pool writes them into
                         * the result's offsets when the chunk is done */
    int64_t r0;         /* the first row of the chunk being done */
    uint8_t *valid;     /* the result's: per row one bit, not null */
    pct_buf *out;       /* where rows are written: scratch, or the result alone */
    pct_buf scratch;
    int status;         /* PCT_OK or the failing row's outcome */
    int64_t err_row;    /* that row, in the array */
    PyObject *exc;      /* PCT_ROW_PYTHON_ERROR, PCT_ERR_INTERRUPTED: the exception */
    struct reject *rejects; /* rows failed under on_error null or keep */
    size_t n_rejects, rejects_cap;
    row_failure why;    /* the row being done, failed: what was learned of it */
    PyThreadState *ts;  /* this thread's state while the GIL is released */
    PyInterpreterState *interp; /* the caller's, for the state of a new thread */
    int own_ts;         /* 1: ts was made for this piece's thread */
    pct_host_cache *hosts; /* NORMALIZE, DOMAIN: IDNA forms met so far */
    const uint8_t *row_base; /* RESOLVE: the base of the row being done */
    size_t row_base_n;
    PyThread_type_lock done;  /* held until the piece's own thread has finished */
    sig_gate *gate;     /* the caller's piece: polled between chunks (Ctrl-C); NULL for the others */
} piece;

/* Runs the rows of `in` on up to `threads` threads (a negative count: up to
 * that many, fewer for a short array), each chunk through batch_chunk, into
 * a new result of kind `kind` (arrow_build's: 'l' for CHECK's positions)
 * appended to rl, its buffers sized for `in`. Returns the pieces, *np of them, for the caller to
 * read their outcomes and free with pool_free; NULL with MemoryError. */
piece *pool_run(const batch_op *op, const pct_arrow_strings *in, int threads, char kind,
                result_list *rl, shared_run *run, int *np);

void pool_free(piece *pcs, int np, shared_run *run);

void results_free(result_list *rl);

/* Takes the GIL in a piece's thread (-1 when this thread gets no thread
 * state: no memory), and releases it again. */
int pool_enter_python(piece *pc);
void pool_leave_python(piece *pc);

/* ---- the rows (_pctcodec_batch.c) ------------------------------------------ */

/* Rows r0 .. r0 + count - 1 of the piece's array into pc->out: PCT_OK, or
 * the outcome of the row that stops it (pc->err_row). Without the GIL. */
int batch_chunk(piece *pc, int64_t r0, int64_t count);

#endif /* PCTCODEC_BATCH_BINDING_H */
