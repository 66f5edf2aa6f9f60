/* CPython binding of parse_query_many and query_params_many on Arrow
 * columns (src/pctcodec/query.py): every parameter of each row's query, or
 * the values of a few named ones, written in one pass over the rows with
 * the GIL released into new Arrow arrays (no Python object per row): string
 * arrays of names and values, and int64 arrays of list offsets, which
 * query.py puts together as list<struct<name, value>> or list<string>
 * columns. One thread: the pass is little more than a copy of the bytes.
 *
 * Names and values are decoded as unquote_plus(errors="replace") decodes
 * them (pct_batch's UNQUOTE), or unquote when '+' is kept.
 */
#include "_pctcodec.h" /* Python.h first, as it asks */

#include <stdlib.h>
#include <string.h>

#include "_pctcodec_arrow.h"
#include "_pctcodec_memory.h"
#include "pct_batch.h"
#include "pct_query.h"

/* The options, as query.py packs them. */
#define OPT_KEEP_PLUS 1
#define OPT_HTML_AMP 2

/* Rows at least this many (or this many bytes) run with the GIL released. */
#define NOGIL_MIN_ROWS 1024

/* A column being written: for strings the bytes in data and each row's end
 * in ends; for 'l' (int64) the values in ends. */
typedef struct {
    pct_buf data;
    int64_t *ends;
    uint8_t *valid;
    int64_t rows, cap;
    int64_t first_cap; /* rows to make room for at first */
} column;

/* Each column's rows and bytes in the last call of each form (every pair;
 * named values), for its first QUERY_HINTS columns: asked for at those
 * sizes, a column takes its own buffers back from the pool, their pages
 * mapped already, and does not grow. */
#define QUERY_HINTS 8
static size_hint last_rows[2][QUERY_HINTS], last_bytes[2][QUERY_HINTS];

static int col_room(column *c)
{
    if (c->rows < c->cap)
        return PCT_OK;
    if (c->first_cap > (int64_t)(SIZE_MAX / 32))
        return PCT_ERR_TOO_LARGE;
    /* a multiple of 8: growing clears the validity bytes past the old cap */
    int64_t cap = c->cap ? 2 * c->cap : c->first_cap > 1024 ? (c->first_cap + 1023) & ~(int64_t)1023 : 1024;
    if (cap > (int64_t)(SIZE_MAX / 16))
        return PCT_ERR_TOO_LARGE;
    size_t size = (size_t)cap * sizeof(int64_t);
    int64_t *ends = c->ends ? realloc(c->ends, size) : big_malloc(size);
    if (!ends)
        return PCT_ERR_NO_MEMORY;
    c->ends = ends;
    uint8_t *valid = realloc(c->valid, (size_t)cap / 8 + 1);
    if (!valid)
        return PCT_ERR_NO_MEMORY;
    memset(valid + c->cap / 8, 0, (size_t)(cap - c->cap) / 8 + 1);
    c->valid = valid;
    c->cap = cap;
    return PCT_OK;
}

/* The next row: `value` (its end for strings), null unless `valid`. */
static int col_push(column *c, int64_t value, int valid)
{
    int rc = col_room(c);
    if (rc != PCT_OK)
        return rc;
    c->ends[c->rows] = value;
    if (valid)
        c->valid[c->rows >> 3] |= (uint8_t)(1u << (c->rows & 7));
    c->rows++;
    return PCT_OK;
}

static void col_free(column *c)
{
    big_free(c->data.data);
    big_free(c->ends);
    free(c->valid);
    memset(c, 0, sizeof *c);
}

/* Appends the decoded raw[0..n) to a string column as its next row. */
static int col_decoded(column *c, const pct_batch_spec *unq, const uint8_t *raw, size_t n)
{
    pct_batch_info info;
    int rc = pct_batch_row(unq, raw, n, &c->data, (size_t)PY_SSIZE_T_MAX, &info);
    return rc != PCT_OK ? rc : col_push(c, (int64_t)c->data.len, 1);
}

/* The job: the input, what to take and the columns written. names == NULL:
 * every pair (cols: offsets, names, values); else with `all`, per name
 * (offsets, values), else per name its first value. */
typedef struct {
    const pct_arrow_strings *in;
    pct_batch_spec unq;
    int html_amp, all;
    const uint8_t *const *names;
    const size_t *name_lens;
    Py_ssize_t k;
    column *cols;
    int64_t bad; /* a malformed row */
    const pct_interrupt *stop; /* polled between rows (Ctrl-C) */
    uint8_t *found;
} query_job;

static int pairs_row(query_job *j, const uint8_t *p, size_t n, int64_t *pairs)
{
    pct_range q, name, value;
    if (!pct_query_locate(p, n, &q))
        return PCT_OK;
    const uint8_t *qs = p + q.start;
    size_t at = 0;
    int rc;
    while (pct_query_next(qs, q.len, &at, j->html_amp, &name, &value)) {
        if ((rc = col_decoded(&j->cols[1], &j->unq, qs + name.start, name.len)) != PCT_OK
            || (rc = col_decoded(&j->cols[2], &j->unq, qs + value.start, value.len)) != PCT_OK)
            return rc;
        (*pairs)++;
    }
    return PCT_OK;
}

static int named_row(query_job *j, const uint8_t *p, size_t n)
{
    pct_range q, name, value;
    Py_ssize_t left = j->k;
    memset(j->found, 0, (size_t)j->k);
    if (pct_query_locate(p, n, &q)) {
        const uint8_t *qs = p + q.start;
        size_t at = 0;
        while (left && pct_query_next(qs, q.len, &at, j->html_amp, &name, &value)) {
            /* a raw first byte that is itself (no escape, no '+') rules names out */
            int raw = name.len && qs[name.start] != '%' && qs[name.start] != '+' ? qs[name.start] : -1;
            for (Py_ssize_t i = 0; i < j->k; i++) {
                if ((!j->all && j->found[i])
                    || (raw >= 0 && j->name_lens[i] && raw != j->names[i][0])
                    || !pct_query_name_is(qs + name.start, name.len, j->unq.plus, j->names[i],
                                          j->name_lens[i]))
                    continue;
                column *c = &j->cols[j->all ? 2 * i + 1 : i];
                int rc = col_decoded(c, &j->unq, qs + value.start, value.len);
                if (rc != PCT_OK)
                    return rc;
                j->found[i] = 1;
                left -= !j->all;
            }
        }
    }
    if (!j->all)
        for (Py_ssize_t i = 0; i < j->k; i++)
            if (!j->found[i]) {
                int rc = col_push(&j->cols[i], (int64_t)j->cols[i].data.len, 0);
                if (rc != PCT_OK)
                    return rc;
            }
    return PCT_OK;
}

/* Runs the rows: PCT_OK, a pct_status, or -1 for a malformed row (in bad). */
static int query_rows(query_job *j)
{
    int64_t pairs = 0;
    int rc;
    for (int64_t r = 0; r < j->in->length; r++) {
        const uint8_t *p;
        size_t n;
        if (pct_interrupted(j->stop, (size_t)r))
            return PCT_ERR_INTERRUPTED;
        int got = pct_arrow_row(j->in, r, &p, &n);
        if (got < 0) {
            j->bad = r;
            return -1;
        }
        if (!j->names) {
            if ((rc = col_push(&j->cols[0], pairs, got)) != PCT_OK
                || (got && (rc = pairs_row(j, p, n, &pairs)) != PCT_OK))
                return rc;
            continue;
        }
        if (j->all)
            for (Py_ssize_t i = 0; i < j->k; i++)
                if ((rc = col_push(&j->cols[2 * i], j->cols[2 * i + 1].rows, got)) != PCT_OK)
                    return rc;
        if (got) {
            if ((rc = named_row(j, p, n)) != PCT_OK)
                return rc;
        } else if (!j->all) {
            for (Py_ssize_t i = 0; i < j->k; i++)
                if ((rc = col_push(&j->cols[i], (int64_t)j->cols[i].data.len, 0)) != PCT_OK)
                    return rc;
        }
    }
    /* the offsets' last entry */
    if (!j->names)
        return col_push(&j->cols[0], pairs, 1);
    if (j->all)
        for (Py_ssize_t i = 0; i < j->k; i++)
            if ((rc = col_push(&j->cols[2 * i], j->cols[2 * i + 1].rows, 1)) != PCT_OK)
                return rc;
    return PCT_OK;
}

/* The (schema, array) capsules of a column of `kind` (its buffers taken). */
static PyObject *col_capsules(column *c, char kind)
{
    arrow_piece piece = {c->rows, c->ends, c->valid, c->data.data, c->data.len};
    c->data.data = NULL; /* taken */
    c->data.len = c->data.cap = 0;
    PyObject *r = pieces_capsules(&piece, 1, kind);
    c->ends = piece.ends; /* NULL where taken */
    c->valid = piece.valid;
    return r;
}

PyDoc_STRVAR(query_arrow_doc,
"_query_arrow($module, source, names, all, opts, /)\n--\n\n"
"The parameters of each row of an Arrow string array (`source` a (schema,\n"
"array) capsule pair, and its buffers' sizes when known). names None: a tuple of the capsule pairs of int64\n"
"list offsets (null for a null row), names and values; else names is a\n"
"tuple of UTF-8 bytes and the result a tuple per name of its first values\n"
"(a string array, null where absent) or, with `all`, its offsets and values.\n"
"opts: 1 keeps '+', 2 reads '&amp;' as '&'.");

static PyObject *py_query_arrow(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 4 || !PyTuple_Check(args[0]) || PyTuple_GET_SIZE(args[0]) < 2
        || PyTuple_GET_SIZE(args[0]) > 3
        || (args[1] != Py_None && !PyTuple_Check(args[1]))) {
        PyErr_SetString(PyExc_TypeError, "_query_arrow() takes a capsule pair, names, all, opts");
        return NULL;
    }
    int all = PyObject_IsTrue(args[2]);
    long opts = PyLong_AsLong(args[3]);
    if (all < 0 || (opts == -1 && PyErr_Occurred()))
        return NULL;
    PyObject *source = args[0], *names = args[1];
    struct ArrowSchema *in_schema;
    struct ArrowArray *array;
    PyObject *sizes;
    if (arrow_import(source, "parse_query_many", &in_schema, &array, &sizes) < 0)
        return NULL;
    char kind = schema_kind(in_schema, "parse_query_many");
    pct_arrow_strings in;
    if (!kind || strings_init(&in, kind, array, sizes, 0) < 0) /* checked before any row is read */
        return NULL;
    char out_kind = kind == 'n' ? 'U' : kind;
    query_job j;
    memset(&j, 0, sizeof j);
    j.in = &in;
    j.unq.op = PCT_BATCH_UNQUOTE;
    j.unq.plus = !(opts & OPT_KEEP_PLUS);
    j.unq.malformed = PCT_BATCH_REPLACE;
    j.html_amp = (opts & OPT_HTML_AMP) != 0;
    j.all = all;
    Py_ssize_t k = names == Py_None ? 0 : PyTuple_GET_SIZE(names), ncols;
    for (Py_ssize_t i = 0; i < k; i++)
        if (!PyBytes_Check(PyTuple_GET_ITEM(names, i))) {
            PyErr_SetString(PyExc_TypeError, "_query_arrow() needs the names as bytes");
            return NULL;
        }
    ncols = names == Py_None ? 3 : all ? 2 * k : k;
    const uint8_t **name_ptrs = PyMem_Calloc((size_t)k + 1, sizeof *name_ptrs);
    size_t *name_lens = PyMem_Calloc((size_t)k + 1, sizeof *name_lens);
    j.found = PyMem_Calloc((size_t)k + 1, 1);
    j.cols = PyMem_Calloc((size_t)ncols + 1, sizeof *j.cols);
    PyObject *result = NULL;
    if (!name_ptrs || !name_lens || !j.found || !j.cols) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < k; i++) {
        name_ptrs[i] = (const uint8_t *)PyBytes_AS_STRING(PyTuple_GET_ITEM(names, i));
        name_lens[i] = (size_t)PyBytes_GET_SIZE(PyTuple_GET_ITEM(names, i));
    }
    if (names != Py_None) {
        j.names = name_ptrs;
        j.name_lens = name_lens;
        j.k = k;
    }
    int form = names != Py_None;
    for (Py_ssize_t c = 0; c < ncols; c++) {
        pct_buf_init(&j.cols[c].data);
        if (c < QUERY_HINTS) {
            size_t bytes = hint_get(&last_bytes[form][c]);
            j.cols[c].first_cap = (int64_t)hint_get(&last_rows[form][c]);
            if (bytes)
                (void)out_reserve_big(&j.cols[c].data, bytes, (size_t)PY_SSIZE_T_MAX, NULL); /* a hint */
        }
    }
    size_t span = pct_arrow_span(&in, 0, in.length);
    int rc;
    sig_gate gate;
    pct_interrupt stop = {sig_gate_callback, &gate};
    j.stop = &stop;
    MAYBE_WITHOUT_GIL_GATED(in.length >= NOGIL_MIN_ROWS || span >= NOGIL_MIN_LENGTH, &gate,
                            rc = query_rows(&j));
    if (rc == PCT_ERR_INTERRUPTED) {
        /* the handler's exception is raised */
    } else if (rc == PCT_ERR_NO_MEMORY) {
        PyErr_NoMemory();
    } else if (rc == PCT_ERR_TOO_LARGE) {
        PyErr_SetString(PyExc_OverflowError, "a result column is too long");
    } else if (rc != PCT_OK) {
        PyErr_Format(PyExc_ValueError,
                     "malformed Arrow array: the offset or view of row %lld is out of range",
                     (long long)j.bad);
    } else if ((result = PyTuple_New(ncols))) {
        for (Py_ssize_t c = 0; c < ncols && c < QUERY_HINTS; c++) {
            hint_set(&last_rows[form][c], (size_t)j.cols[c].rows);
            hint_set(&last_bytes[form][c], j.cols[c].data.len);
        }
        for (Py_ssize_t c = 0; c < ncols; c++) {
            int offsets = names == Py_None ? c == 0 : all && c % 2 == 0;
            PyObject *pair = col_capsules(&j.cols[c], offsets ? 'l' : out_kind);
            if (!pair) {
                Py_CLEAR(result);
                break;
            }
            PyTuple_SET_ITEM(result, c, pair);
        }
    }
done:
    if (j.cols)
        for (Py_ssize_t c = 0; c < ncols; c++)
            col_free(&j.cols[c]);
    PyMem_Free(j.cols);
    PyMem_Free(j.found);
    PyMem_Free(name_ptrs);
    PyMem_Free(name_lens);
    return result;
}

PyMethodDef query_arrow_methods[] = {
    {"_query_arrow", (PyCFunction)(void (*)(void))py_query_arrow, METH_FASTCALL, query_arrow_doc},
    {NULL, NULL, 0, NULL},
};
