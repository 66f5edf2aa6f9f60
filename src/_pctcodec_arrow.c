/* Arrow I/O of the binding (see _pctcodec_arrow.h): capsules in, checked
 * before any row is read; result arrays out, their buffers malloc'd and
 * freed by the array's release callback.
 */
#include "_pctcodec.h" /* Python.h first, as it asks */

#include <stdlib.h>
#include <string.h>

#include "_pctcodec_arrow.h"
#include "_pctcodec_memory.h"

/* ---- in ------------------------------------------------------------------ */

/* ValueError for a struct whose release is NULL: moved into a consumer or
 * released by its producer, its buffers maybe gone. The one check of it,
 * for arrays and streams alike. Returns -1. */
static int released(const char *fname, const char *what)
{
    PyErr_Format(PyExc_ValueError, "%s(): the Arrow %s was released already (a capsule is consumed once)",
                 fname, what);
    return -1;
}

int arrow_import(PyObject *pair, const char *fname, struct ArrowSchema **schema,
                 struct ArrowArray **array, PyObject **sizes)
{
    if (!PyTuple_Check(pair) || PyTuple_GET_SIZE(pair) < 2 || PyTuple_GET_SIZE(pair) > 3) {
        PyErr_Format(PyExc_TypeError, "%s() needs an Arrow array as a (schema, array) capsule pair",
                     fname);
        return -1;
    }
    *schema = PyCapsule_GetPointer(PyTuple_GET_ITEM(pair, 0), "arrow_schema");
    *array = *schema ? PyCapsule_GetPointer(PyTuple_GET_ITEM(pair, 1), "arrow_array") : NULL;
    *sizes = PyTuple_GET_SIZE(pair) == 3 ? PyTuple_GET_ITEM(pair, 2) : NULL;
    if (!*array)
        return -1;
    if (!(*schema)->release || !(*array)->release)
        return released(fname, (*schema)->release ? "array" : "schema");
    return 0;
}

char arrow_stream_open(PyObject *capsule, const char *fname, struct ArrowArrayStream **stream)
{
    struct ArrowSchema schema;
    if (!(*stream = PyCapsule_GetPointer(capsule, "arrow_array_stream")))
        return 0;
    if (!(*stream)->release)
        return (char)(released(fname, "stream") + 1); /* 0: no kind */
    if ((*stream)->get_schema(*stream, &schema) != 0) {
        const char *msg = (*stream)->get_last_error(*stream);
        PyErr_Format(PyExc_OSError, "Arrow stream: %s", msg ? msg : "no schema");
        return 0;
    }
    char kind = schema_kind(&schema, fname);
    schema.release(&schema);
    return kind;
}

int arrow_stream_next(struct ArrowArrayStream *stream, struct ArrowArray *array)
{
    if (stream->get_next(stream, array) != 0) {
        const char *msg = stream->get_last_error(stream);
        PyErr_Format(PyExc_OSError, "Arrow stream: %s", msg ? msg : "no next array");
        return -1;
    }
    return array->release != NULL; /* a released array marks the end */
}

char schema_kind(const struct ArrowSchema *schema, const char *fname)
{
    char kind = pct_arrow_kind(schema);
    if (!kind && schema->format && strcmp(schema->format, "+s") == 0)
        /* a whole table, as its stream (a RecordBatchReader) hands it over */
        PyErr_Format(PyExc_TypeError, "%s() takes one column (such as df['url']), not a whole "
                     "table (Arrow format '+s': a struct of columns, as a table or a stream of "
                     "record batches gives)", fname);
    else if (!kind)
        PyErr_Format(PyExc_TypeError, "%s() needs a column of strings, not Arrow format '%.50s'%s",
                     fname, schema->format ? schema->format : "",
                     schema->dictionary ? " (dictionary-encoded)" : "");
    return kind;
}

/* ValueError for an array that breaks its layout: at the row (base + row,
 * also its `index` attribute) when the problem is a row's. */
static void raise_malformed(pct_arrow_problem problem, int at_row, int64_t row)
{
    const char *text = pct_arrow_problem_text(problem);
    PyObject *msg = at_row ? PyUnicode_FromFormat("malformed Arrow array at index %lld: %s",
                                                  (long long)row, text)
                           : PyUnicode_FromFormat("malformed Arrow array: %s", text);
    PyObject *exc = msg ? PyObject_CallOneArg(PyExc_ValueError, msg) : NULL;
    PyObject *index = exc && at_row ? PyLong_FromLongLong(row) : NULL;
    if (exc && (!at_row || (index && PyObject_SetAttrString(exc, "index", index) == 0)))
        PyErr_SetObject(PyExc_ValueError, exc);
    Py_XDECREF(msg);
    Py_XDECREF(exc);
    Py_XDECREF(index);
}

/* An array's check runs without the GIL from this many rows on. */
#define CHECK_NOGIL_ROWS 4096

int strings_init(pct_arrow_strings *a, char kind, const struct ArrowArray *array, PyObject *sizes,
                 int64_t base)
{
    int64_t *known = NULL, n = 0, row = 0;
    if (sizes && sizes != Py_None) {
        if (!PyTuple_Check(sizes)) {
            PyErr_SetString(PyExc_TypeError, "Arrow buffer sizes must be a tuple");
            return -1;
        }
        n = PyTuple_GET_SIZE(sizes);
        if (!(known = PyMem_Malloc((size_t)(n ? n : 1) * sizeof *known))) {
            PyErr_NoMemory();
            return -1;
        }
        for (int64_t k = 0; k < n; k++) {
            known[k] = PyLong_AsLongLong(PyTuple_GET_ITEM(sizes, k));
            if (known[k] == -1 && PyErr_Occurred()) {
                PyMem_Free(known);
                return -1;
            }
        }
    }
    pct_arrow_problem shape = pct_arrow_init(a, kind, array, known, n), rows = PCT_ARROW_OK;
    if (shape == PCT_ARROW_OK)
        MAYBE_WITHOUT_GIL(a->length >= CHECK_NOGIL_ROWS, rows = pct_arrow_check(a, &row));
    PyMem_Free(known);
    a->sizes = NULL; /* only the check reads them */
    a->nsizes = 0;
    if (shape == PCT_ARROW_OK && rows == PCT_ARROW_OK)
        return 0;
    raise_malformed(shape != PCT_ARROW_OK ? shape : rows, shape == PCT_ARROW_OK, base + row);
    return -1;
}


/* ---- out ----------------------------------------------------------------- */

static void schema_capsule_free(PyObject *capsule)
{
    struct ArrowSchema *s = PyCapsule_GetPointer(capsule, "arrow_schema");
    if (s) {
        if (s->release)
            s->release(s);
        free(s);
    }
}

static void array_capsule_free(PyObject *capsule)
{
    struct ArrowArray *a = PyCapsule_GetPointer(capsule, "arrow_array");
    if (a) {
        if (a->release)
            a->release(a);
        free(a);
    }
}

PyObject *arrow_capsules(struct ArrowSchema *schema, struct ArrowArray *array)
{
    PyObject *sc, *ac, *r = NULL;
    if (!(sc = PyCapsule_New(schema, "arrow_schema", schema_capsule_free))) {
        schema->release(schema);
        free(schema);
    }
    if (!(ac = PyCapsule_New(array, "arrow_array", array_capsule_free))) {
        array->release(array);
        free(array);
    }
    if (sc && ac)
        r = PyTuple_Pack(2, sc, ac);
    Py_XDECREF(sc);
    Py_XDECREF(ac);
    return r;
}

PyObject *pieces_capsules(arrow_piece *parts, int n, char kind)
{
    struct ArrowSchema *schema = malloc(sizeof *schema);
    struct ArrowArray *array = malloc(sizeof *array);
    if (!schema || !array) {
        free(schema);
        free(array);
        for (int k = 0; k < n; k++) { /* the data is taken whatever the outcome */
            big_free(parts[k].data);
            parts[k].data = NULL;
        }
        return PyErr_NoMemory();
    }
    int rc = arrow_build(parts, n, kind, array);
    arrow_schema_init(schema, kind);
    if (rc != PCT_OK) {
        free(array);
        schema->release(schema);
        free(schema);
        if (rc == PCT_ERR_NO_MEMORY)
            return PyErr_NoMemory();
        PyErr_SetString(PyExc_OverflowError,
                        "the result is too long for an Arrow string or string_view array "
                        "(over 2 GiB): pass a large_string array");
        return NULL;
    }
    return arrow_capsules(schema, array);
}

/* ---- building ------------------------------------------------------------ */

/* An array's buffers, which its release frees (big ones pooled). */
typedef struct {
    int n;
    void *bufs[];
} out_private;

static void release_array(struct ArrowArray *a)
{
    out_private *pv = a->private_data;
    if (pv) {
        for (int i = 0; i < pv->n; i++)
            big_free(pv->bufs[i]);
        free(pv);
    }
    a->private_data = NULL;
    a->release = NULL;
}

static void release_schema(struct ArrowSchema *s)
{
    s->release = NULL; /* format and name are string literals */
}

void arrow_schema_init(struct ArrowSchema *schema, char kind)
{
    memset(schema, 0, sizeof *schema);
    schema->format = kind == 'l' ? "l" : kind == 'u' ? "u" : kind == 'U' ? "U" : kind == 'v' ? "vu" : "n";
    schema->name = "";
    schema->flags = ARROW_FLAG_NULLABLE;
    schema->release = release_schema;
}

/* *out with room for nbuf buffers (all NULL) and its release set: the
 * buffers stored in pv->bufs are freed with it. */
static out_private *own_init(struct ArrowArray *out, int64_t length, int64_t nulls, int nbuf)
{
    memset(out, 0, sizeof *out);
    out_private *pv = calloc(1, sizeof *pv + (size_t)(nbuf ? nbuf : 1) * sizeof(void *));
    if (!pv)
        return NULL;
    pv->n = nbuf;
    out->length = length;
    out->null_count = nulls;
    out->n_buffers = nbuf;
    out->buffers = (const void **)pv->bufs;
    out->private_data = pv;
    out->release = release_array;
    return pv;
}

/* Buffer k of the array: p, taken. */
static void own_put(out_private *pv, int k, void *p)
{
    pv->bufs[k] = p;
}

int arrow_array_own(struct ArrowArray *out, int64_t length, int64_t nulls, int nbuf, void *const *bufs)
{
    out_private *pv = own_init(out, length, nulls, nbuf);
    if (!pv) {
        for (int k = 0; k < nbuf; k++)
            big_free(bufs[k]);
        return PCT_ERR_NO_MEMORY;
    }
    for (int k = 0; k < nbuf; k++)
        own_put(pv, k, bufs[k]);
    return PCT_OK;
}

size_t arrow_offset_width(char kind)
{
    return kind == 'U' || kind == 'l' ? 8 : 4;
}

int arrow_piece_alloc(arrow_piece *pc, int64_t rows, char kind)
{
    memset(pc, 0, sizeof *pc);
    size_t width = arrow_offset_width(kind);
    /* a 32-bit size_t cannot count every row's offset: no memory for them */
    if (rows < 0 || (uint64_t)rows >= SIZE_MAX / width)
        return PCT_ERR_NO_MEMORY;
    uint8_t *offsets = big_malloc(((size_t)rows + 1) * width);
    pc->valid = calloc((size_t)rows / 8 + 1, 1);
    if (!offsets || !pc->valid) {
        big_free(offsets);
        free(pc->valid);
        pc->valid = NULL;
        return PCT_ERR_NO_MEMORY;
    }
    memset(offsets, 0, width); /* the offsets' first */
    pc->offsets = offsets;
    pc->kind = kind;
    pc->rows = rows;
    return PCT_OK;
}

void arrow_piece_free(arrow_piece *pc)
{
    big_free(pc->offsets);
    free(pc->valid);
    big_free(pc->data);
    pc->offsets = NULL;
    pc->valid = NULL;
    pc->data = NULL;
}

/* Row r's end in the piece's data (for 'l', its value), whichever form the
 * piece has. */
static int64_t piece_end(const arrow_piece *pc, int64_t r)
{
    if (!pc->offsets)
        return pc->ends[r];
    if (pc->kind == 'l')
        return ((const int64_t *)pc->offsets)[r];
    if (arrow_offset_width(pc->kind) == 4)
        return ((const int32_t *)pc->offsets)[r + 1];
    return ((const int64_t *)pc->offsets)[r + 1];
}

static int valid_bit(const arrow_piece *pc, int64_t r)
{
    return (pc->valid[r >> 3] >> (r & 7)) & 1;
}

/* The number of rows of pc that are not null: the set bits of valid. */
static int64_t count_valid(const arrow_piece *pc)
{
    int64_t count = 0, r = 0;
    for (; pc->rows - r >= 64; r += 64) {
        uint64_t w;
        memcpy(&w, pc->valid + r / 8, 8);
        w -= (w >> 1) & 0x5555555555555555u; /* the bits counted in parallel */
        w = (w & 0x3333333333333333u) + ((w >> 2) & 0x3333333333333333u);
        w = (w + (w >> 4)) & 0x0F0F0F0F0F0F0F0Fu;
        count += (int64_t)((w * 0x0101010101010101u) >> 56);
    }
    for (; r < pc->rows; r++)
        count += valid_bit(pc, r);
    return count;
}

static void free_data(arrow_piece *pieces, int np)
{
    for (int k = 0; k < np; k++) {
        big_free(pieces[k].data);
        pieces[k].data = NULL;
    }
}

/* The views of 'v': each piece's data becomes variadic buffer k (taken). */
static int build_views(arrow_piece *pieces, int np, out_private *pv, size_t nrows)
{
    uint8_t *views = calloc(nrows ? nrows : 1, 16);
    int64_t *sizes = malloc((size_t)np * sizeof *sizes + 1);
    own_put(pv, 1, views);
    own_put(pv, 2 + np, sizes);
    if (!views || !sizes)
        return PCT_ERR_NO_MEMORY;
    for (int k = 0; k < np; k++)
        if (pieces[k].len > INT32_MAX)
            return PCT_ERR_TOO_LARGE;
    int64_t i = 0;
    for (int k = 0; k < np; k++) {
        arrow_piece *pc = &pieces[k];
        uint8_t *data = pc->data ? pc->data : malloc(1);
        own_put(pv, 2 + k, data);
        if (!data)
            return PCT_ERR_NO_MEMORY;
        pc->data = NULL; /* taken */
        sizes[k] = (int64_t)pc->len;
        int64_t from = 0;
        for (int64_t r = 0; r < pc->rows; r++, i++) {
            int64_t to = piece_end(pc, r);
            int32_t len = (int32_t)(to - from), buf = k, off = (int32_t)from;
            uint8_t *view = views + 16 * i;
            memcpy(view, &len, 4);
            if (len <= 12) {
                memcpy(view + 4, data + from, (size_t)len);
            } else {
                memcpy(view + 4, data + from, 4);
                memcpy(view + 8, &buf, 4);
                memcpy(view + 12, &off, 4);
            }
            from = to;
        }
    }
    return PCT_OK;
}

/* Offsets and one data buffer for 'u' and 'U': the only piece's data is
 * taken (and its offsets, when it has them in this kind's layout), several
 * are copied one after the other (each freed at once). */
static int build_offsets(arrow_piece *pieces, int np, char kind, out_private *pv, size_t nrows)
{
    size_t width = kind == 'u' ? 4 : 8, size = 0;
    for (int k = 0; k < np; k++) {
        if (pieces[k].len > SIZE_MAX / 2 - size)
            return PCT_ERR_TOO_LARGE;
        size += pieces[k].len;
    }
    if (kind == 'u' ? size > INT32_MAX : size > INT64_MAX)
        return PCT_ERR_TOO_LARGE;
    int take = np == 1 && pieces[0].data;
    uint8_t *data = take ? pieces[0].data : big_malloc(size);
    own_put(pv, 2, data);
    if (!data)
        return PCT_ERR_NO_MEMORY;
    if (take)
        pieces[0].data = NULL;
    if (take && pieces[0].offsets && pieces[0].kind == kind) {
        own_put(pv, 1, pieces[0].offsets);
        pieces[0].offsets = NULL;
        return PCT_OK;
    }
    uint8_t *offsets = big_malloc((nrows + 1) * width);
    own_put(pv, 1, offsets);
    if (!offsets)
        return PCT_ERR_NO_MEMORY;
    int64_t at = 0, i = 0;
    memset(offsets, 0, width);
    for (int k = 0; k < np; k++) {
        arrow_piece *pc = &pieces[k];
        if (!take && pc->len)
            memcpy(data + at, pc->data, pc->len);
        for (int64_t r = 0; r < pc->rows; r++, i++) {
            int64_t end = at + piece_end(pc, r);
            if (width == 4) {
                int32_t e32 = (int32_t)end;
                memcpy(offsets + 4 * (size_t)(i + 1), &e32, 4);
            } else {
                memcpy(offsets + 8 * (size_t)(i + 1), &end, 8);
            }
        }
        at += (int64_t)pc->len;
        big_free(pc->data);
        pc->data = NULL;
    }
    return PCT_OK;
}

int arrow_build(arrow_piece *pieces, int np, char kind, struct ArrowArray *out)
{
    int64_t total = 0, nulls = 0;
    for (int k = 0; k < np; k++) {
        total += pieces[k].rows;
        nulls += pieces[k].rows - count_valid(&pieces[k]);
    }
    int nbuf = kind == 'l' ? 2 : kind == 'n' ? 0 : kind == 'v' ? 2 + np + 1 : 3;
    out_private *pv = own_init(out, total, nulls, nbuf);
    if (!pv) {
        free_data(pieces, np);
        return PCT_ERR_NO_MEMORY;
    }
    size_t nrows = (size_t)total;
    int rc = PCT_OK;
    if (nulls && nbuf && np == 1) {
        own_put(pv, 0, pieces[0].valid); /* the same bits: taken */
        pieces[0].valid = NULL;
    } else if (nulls && nbuf) {
        uint8_t *bits = calloc(nrows / 8 + 1, 1);
        own_put(pv, 0, bits);
        if (!bits) {
            rc = PCT_ERR_NO_MEMORY;
        } else {
            int64_t i = 0;
            for (int k = 0; k < np; k++)
                for (int64_t r = 0; r < pieces[k].rows; r++, i++)
                    if (valid_bit(&pieces[k], r))
                        bits[i >> 3] |= (uint8_t)(1u << (i & 7));
        }
    }
    if (rc == PCT_OK && kind == 'l' && np == 1 && pieces[0].offsets && pieces[0].kind == 'l') {
        /* a null's value is left as it is: taken */
        own_put(pv, 1, pieces[0].offsets);
        pieces[0].offsets = NULL;
    } else if (rc == PCT_OK && kind == 'l' && np == 1 && !pieces[0].offsets && pieces[0].ends) {
        own_put(pv, 1, pieces[0].ends); /* as above */
        pieces[0].ends = NULL;
    } else if (rc == PCT_OK && kind == 'l') {
        int64_t *values = big_malloc(nrows * sizeof *values);
        own_put(pv, 1, values);
        if (!values) {
            rc = PCT_ERR_NO_MEMORY;
        } else {
            int64_t i = 0;
            for (int k = 0; k < np; k++)
                for (int64_t r = 0; r < pieces[k].rows; r++, i++)
                    values[i] = valid_bit(&pieces[k], r) ? piece_end(&pieces[k], r) : 0;
        }
    } else if (rc == PCT_OK && kind == 'v') {
        rc = build_views(pieces, np, pv, nrows);
    } else if (rc == PCT_OK && kind != 'n') {
        rc = build_offsets(pieces, np, kind, pv, nrows);
    }
    free_data(pieces, np);
    if (rc != PCT_OK)
        release_array(out);
    return rc;
}
