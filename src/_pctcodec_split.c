/* CPython binding of split and split_many (src/pctcodec/parts.py): the
 * components of URIs as RFC 3986 Appendix B cuts them (pct_uri_split), as
 * written -- no escape decoded, no case changed, so that the parts put back
 * together (RFC 3986 5.3) give the input back.
 *
 * A str is split on its code points: the delimiters are ASCII and the core
 * only ever compares bytes with ASCII ones, so a buffer in which every
 * non-ASCII code point stands as the byte 0x80 splits at the same indices
 * (a str of kind UCS1 is such a buffer already). No UTF-8 is made, so a
 * lone surrogate is split like any other character.
 *
 * An Arrow string column becomes a struct array of seven string children
 * of the input's type, written in one pass over the rows with the GIL
 * released: each component's bytes appended to its child's data and its
 * offset or view written in place, no Python object per row. One thread:
 * the pass is little more than a copy of each row's bytes.
 */
#include "_pctcodec.h" /* Python.h first, as it asks */

#include <stdlib.h>
#include <string.h>

#include "_pctcodec_arrow.h"
#include "_pctcodec_memory.h"
#include "pct_batch.h"
#include "pct_uri.h"

#define N_PARTS 7

/* The field names, in order: URIParts's (src/pctcodec/parts.py) and the
 * struct's children. */
static const char *const PART_NAMES[N_PARTS] = {"scheme", "userinfo", "host", "port",
                                                "path",   "query",    "fragment"};

/* Rows at least this many (or this many bytes) run with the GIL released. */
#define NOGIL_MIN_ROWS 1024

/* The components of u as ranges, and which are there (the path always is;
 * the host is there, possibly empty, whenever the authority is). */
static void part_ranges(const pct_uri *u, pct_range *ranges, int *present)
{
    ranges[0] = u->scheme;
    ranges[1] = u->userinfo;
    ranges[2] = u->host;
    ranges[3] = u->port;
    ranges[4] = u->path;
    ranges[5] = u->query;
    ranges[6] = u->fragment;
    present[0] = u->has_scheme;
    present[1] = u->has_userinfo;
    present[2] = u->has_authority;
    present[3] = u->has_port;
    present[4] = 1;
    present[5] = u->has_query;
    present[6] = u->has_fragment;
}

/* ---------------------------------------------------------------------------
 * One str.
 */

/* Splits s (a str) into u, on code-point indices. */
static int split_str(PyObject *s, pct_uri *u)
{
    Py_ssize_t n = PyUnicode_GET_LENGTH(s);
    int kind = PyUnicode_KIND(s);
    if (kind == PyUnicode_1BYTE_KIND) {
        pct_uri_split(PyUnicode_1BYTE_DATA(s), (size_t)n, u);
        return 0;
    }
    uint8_t *ascii = PyMem_Malloc(n ? (size_t)n : 1);
    if (!ascii) {
        PyErr_NoMemory();
        return -1;
    }
    const void *data = PyUnicode_DATA(s);
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_UCS4 c = PyUnicode_READ(kind, data, i);
        ascii[i] = c < 0x80 ? (uint8_t)c : 0x80;
    }
    pct_uri_split(ascii, (size_t)n, u);
    PyMem_Free(ascii);
    return 0;
}

/* A URIParts instance of the seven items (a new tuple, stolen). */
static PyObject *make_parts(PyObject *cls, PyObject *items)
{
#if PY_VERSION_HEX < 0x030E0000
    /* What tuple.__new__(cls, items) does, without parsing its arguments
     * and copying a tuple that is already there: a named tuple is a tuple
     * subclass with no slots of its own. */
    PyTypeObject *t = (PyTypeObject *)cls;
    PyObject *r = t->tp_alloc(t, N_PARTS);
    if (r) {
        for (Py_ssize_t i = 0; i < N_PARTS; i++)
            PyTuple_SET_ITEM(r, i, Py_NewRef(PyTuple_GET_ITEM(items, i)));
    }
#else
    /* 3.14 tuples cache their hash in a field tuple.__new__ sets */
    PyObject *args = PyTuple_Pack(1, items);
    PyObject *r = args ? PyTuple_Type.tp_new((PyTypeObject *)cls, args, NULL) : NULL;
    Py_XDECREF(args);
#endif
    Py_DECREF(items);
    return r;
}

/* The URIParts of s, an instance of str. */
static PyObject *parts_of(PyObject *cls, PyObject *s)
{
    pct_uri u;
    if (split_str(s, &u) < 0)
        return NULL;
    pct_range ranges[N_PARTS];
    int present[N_PARTS];
    part_ranges(&u, ranges, present);
    PyObject *items = PyTuple_New(N_PARTS);
    if (!items)
        return NULL;
    for (Py_ssize_t i = 0; i < N_PARTS; i++) {
        PyObject *v = present[i] ? PyUnicode_Substring(s, (Py_ssize_t)ranges[i].start,
                                                       (Py_ssize_t)(ranges[i].start + ranges[i].len))
                                 : Py_NewRef(Py_None);
        if (!v) {
            Py_DECREF(items);
            return NULL;
        }
        PyTuple_SET_ITEM(items, i, v);
    }
    return make_parts(cls, items);
}

static PyObject *parts_class(PyObject *module)
{
    PyObject *cls = package_attr(module, "_URIParts", "pctcodec.parts", "URIParts");
    if (cls && (!PyType_Check(cls) || !PyType_IsSubtype((PyTypeObject *)cls, &PyTuple_Type))) {
        PyErr_SetString(PyExc_TypeError, "pctcodec.parts.URIParts must be a tuple subclass");
        Py_CLEAR(cls);
    }
    return cls;
}

PyDoc_STRVAR(split_doc,
"split($module, uri, /)\n--\n\n"
"The components of a URI as RFC 3986 Appendix B cuts them.\n"
"\n"
"Parameters\n"
"----------\n"
"uri : str\n"
"    The URI (or a reference).\n"
"\n"
"Returns\n"
"-------\n"
"URIParts\n"
"    (scheme, userinfo, host, port, path, query, fragment), each str as\n"
"    written (escapes and case untouched), None where the component is\n"
"    absent (the path is always there).\n"
"\n"
"Raises\n"
"------\n"
"TypeError\n"
"    `uri` is not a str.\n"
"\n"
"Examples\n"
"--------\n"
">>> split(\"http://u@h:8/p?q#f\")\n"
"URIParts(scheme='http', userinfo='u', host='h', port='8', path='/p', query='q', fragment='f')");

static PyObject *py_split(PyObject *module, PyObject *uri)
{
    if (!PyUnicode_Check(uri)) {
        PyErr_Format(PyExc_TypeError, "split() argument must be str, not %.200s",
                     Py_TYPE(uri)->tp_name);
        return NULL;
    }
    PyObject *cls = parts_class(module);
    if (!cls)
        return NULL;
    PyObject *r = parts_of(cls, uri);
    Py_DECREF(cls);
    return r;
}

/* ---------------------------------------------------------------------------
 * Lists and tuples.
 */

/* on_error, as src/pctcodec/batch.py codes it. */
enum { ON_ERROR_RAISE, ON_ERROR_NULL, ON_ERROR_KEEP };

PyDoc_STRVAR(split_list_doc,
"_split_list($module, values, on_error, rejects, /)\n--\n\n"
"split() over a list or tuple of str or None; on_error 0 (raise), 1 (null)\n"
"or 2 (keep) for a value that is not a str, whose (index, value, TypeError)\n"
"then goes to the list `rejects` (or None).");

static PyObject *py_split_list(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "_split_list() takes 3 arguments");
        return NULL;
    }
    PyObject *values = args[0], *rejects = args[2];
    long on_error = PyLong_AsLong(args[1]);
    if (on_error == -1 && PyErr_Occurred())
        return NULL;
    if (!PyList_CheckExact(values) && !PyTuple_CheckExact(values)) {
        PyErr_SetString(PyExc_TypeError, "_split_list() needs a list or a tuple");
        return NULL;
    }
    if (on_error < ON_ERROR_RAISE || on_error > ON_ERROR_KEEP
        || (rejects != Py_None && !PyList_CheckExact(rejects))) {
        PyErr_SetString(PyExc_ValueError, "bad split operation");
        return NULL;
    }
    PyObject *cls = parts_class(module);
    if (!cls)
        return NULL;
    /* a collection run by an allocation may call a finalizer that changes a
     * list: its current length bounds every step, each item is held */
    Py_ssize_t n = PySequence_Fast_GET_SIZE(values), i;
    PyObject *result = PyList_New(n);
    for (i = 0; result && i < n && i < PySequence_Fast_GET_SIZE(values); i++) {
        if (gil_loop_poll((size_t)i) < 0) { /* Ctrl-C */
            Py_CLEAR(result);
            break;
        }
        PyObject *item = seq_item_ref(values, i), *r;
        if (!item)
            break; /* it shrank meanwhile */
        if (item == Py_None) {
            r = Py_NewRef(Py_None);
        } else if (PyUnicode_Check(item)) {
            r = parts_of(cls, item);
        } else {
            PyErr_Format(PyExc_TypeError,
                         "split_many() value at index %zd must be str or None, not %.200s", i,
                         Py_TYPE(item)->tp_name);
            r = NULL;
            PyObject *exc = PyErr_GetRaisedException_compat(); /* just raised: not NULL */
            /* raised: with the index attribute every raised row error has
             * (a Reject holds its index, and its error is without it, as
             * every function's) */
            PyObject *index = exc && on_error == ON_ERROR_RAISE ? PyLong_FromSsize_t(i) : NULL;
            if (on_error == ON_ERROR_RAISE && (!index || PyObject_SetAttrString(exc, "index", index) < 0)) {
                Py_XDECREF(exc); /* the error of setting it stands */
            } else if (on_error == ON_ERROR_RAISE) {
                PyErr_SetRaisedException_compat(exc);
            } else if (!exc) {
                /* (cannot be: PyErr_Format raised it) */
            } else {
                PyObject *t = rejects == Py_None ? NULL : Py_BuildValue("(nOO)", i, item, exc);
                Py_DECREF(exc);
                if (rejects == Py_None || (t && PyList_Append(rejects, t) == 0))
                    r = Py_NewRef(on_error == ON_ERROR_KEEP ? item : Py_None);
                Py_XDECREF(t);
            }
            Py_XDECREF(index);
        }
        Py_DECREF(item);
        if (!r)
            Py_CLEAR(result); /* the slots not yet filled are NULL, which list dealloc skips */
        else
            PyList_SET_ITEM(result, i, r);
    }
    if (result && i < n && PyList_SetSlice(result, i, n, NULL) < 0)
        Py_CLEAR(result);
    Py_DECREF(cls);
    return result;
}

/* ---------------------------------------------------------------------------
 * Arrow: each row's seven components are written straight into the buffers
 * of seven child arrays (offsets or views, validity, data), which go under
 * one struct array. Each child owns its buffers and has its own release
 * callback, as the C data interface lets a consumer move a child out.
 */
typedef struct {
    char kind;          /* 'u', 'U' or 'v' */
    pct_buf data;
    uint8_t *index;     /* int32 or int64 offsets (rows + 1), or 16-byte views */
    uint8_t *valid;     /* one bit per row */
    int64_t nulls;
    int data_pf, index_pf; /* their regions of the builder's prefaulter (-1: none) */
} child;

typedef struct {
    child kids[N_PARTS];
    uint8_t *row_valid; /* the struct's validity */
    int64_t nulls;
    size_t limit;       /* the most bytes a child's data may hold */
    size_t rows;
    size_t width;       /* the bytes of a row's offset or view */
    prefaulter pf;      /* a first call's fresh pages mapped ahead of the rows */
} parts_builder;

static void builder_free(parts_builder *b)
{
    prefault_stop(&b->pf); /* before the buffers go */
    for (int c = 0; c < N_PARTS; c++) {
        big_free(b->kids[c].data.data);
        big_free(b->kids[c].index);
        free(b->kids[c].valid);
    }
    free(b->row_valid);
}

/* Each child's length in the last call, and its rows: its data is asked
 * for at that length scaled to this call's rows -- the same column again
 * takes that child's own buffer back from the pool (the smallest that
 * holds it), its pages mapped already; a first big call after a small
 * one gets about its size at once (a fresh buffer for the prefaulter,
 * not one grown by copies). */
static size_hint last_len[N_PARTS], last_rows;

/* The bytes child c's data is asked for over `rows` rows: its length in
 * the last call scaled, or `span` (the input's bytes, 0 when not known:
 * no child can need more, and pages never written are never touched)
 * when there was none or the scaled length is more. */
static size_t child_want(int c, size_t rows, size_t span)
{
    size_t last = hint_get(&last_len[c]), was = hint_get(&last_rows);
    if (!was || (rows && last > SIZE_MAX / rows))
        return span;
    size_t want = last * rows / was;
    return want < span ? want : span;
}

/* Buffers for `rows` rows of `kind`; each child's data has room for
 * child_want bytes; builder_trim gives back what is not used. */
static int builder_init(parts_builder *b, int64_t rows, char kind, size_t span)
{
    memset(b, 0, sizeof *b);
    prefault_init(&b->pf);
    b->limit = kind == 'u' ? (size_t)INT32_MAX : (size_t)PY_SSIZE_T_MAX;
    size_t n = (size_t)rows, width = kind == 'u' ? 4 : kind == 'U' ? 8 : 16;
    b->width = width;
    b->rows = n;
    for (int c = 0; c < N_PARTS; c++)
        b->kids[c].data_pf = b->kids[c].index_pf = -1;
    if (n > (SIZE_MAX - 1) / 16 - 1)
        return PCT_ERR_TOO_LARGE;
    int ok = (b->row_valid = calloc(n / 8 + 1, 1)) != NULL;
    for (int c = 0; c < N_PARTS; c++) {
        child *ch = &b->kids[c];
        ch->kind = kind;
        pct_buf_init(&ch->data);
        /* a pooled buffer's pages are mapped; a fresh one's, by the
         * prefaulter ahead of the rows (no overflow: n checked above) */
        size_t index_size = (n + (kind != 'v')) * width + 1;
        int pooled = 0;
        ok = ok && (ch->index = big_take(index_size, &pooled)) != NULL;
        if (ok && !pooled)
            ch->index_pf = prefault_add(&b->pf, ch->index, index_size);
        ok = ok && (ch->valid = calloc(n / 8 + 1, 1)) != NULL;
        if (ok && kind != 'v')
            memset(ch->index, 0, width); /* the first offset */
        size_t want = child_want(c, n, span);
        if (ok && want && out_reserve_big(&ch->data, want, b->limit, &pooled) == PCT_OK && !pooled)
            ch->data_pf = prefault_add(&b->pf, ch->data.data, ch->data.cap);
        /* (a reserve that fails is a hint lost: growing does without) */
    }
    if (ok)
        prefault_start(&b->pf);
    return ok ? PCT_OK : PCT_ERR_NO_MEMORY;
}

/* Tells the prefaulter how far row r's writes have come. */
static void builder_progress(parts_builder *b, int64_t r)
{
    for (int c = 0; c < N_PARTS; c++) {
        child *ch = &b->kids[c];
        prefault_progress(&b->pf, ch->data_pf, ch->data.data, ch->data.len);
        prefault_progress(&b->pf, ch->index_pf, ch->index, (size_t)r * b->width);
    }
}

/* Gives the unused room of each child's data back (shrinking in place),
 * and keeps each child's length for the next call. */
static void builder_trim(parts_builder *b)
{
    prefault_stop(&b->pf); /* before a buffer is cut */
    hint_set(&last_rows, b->rows);
    for (int c = 0; c < N_PARTS; c++) {
        pct_buf *o = &b->kids[c].data;
        hint_set(&last_len[c], o->len);
        if (o->data && o->cap > o->len) {
            uint8_t *p = realloc(o->data, o->len ? o->len : 1);
            if (p) {
                o->data = p;
                o->cap = o->len;
            }
        }
    }
}

/* Row r of a child: src[0..len) when present, else null. */
static inline int put(child *ch, int64_t r, const uint8_t *src, size_t len, int present,
                      size_t limit)
{
    pct_buf *o = &ch->data;
    if (!present) {
        ch->nulls++;
        len = 0;
    } else {
        ch->valid[r >> 3] |= (uint8_t)(1u << (r & 7));
    }
    if (ch->kind == 'v') {
        uint8_t *view = ch->index + 16 * r;
        int32_t len32 = (int32_t)len, buf = 0, off;
        memset(view, 0, 16);
        if (len > 12) {
            if (o->len > INT32_MAX || len > (size_t)INT32_MAX - o->len)
                return PCT_ERR_TOO_LARGE; /* one data buffer: 2 GiB at most */
            if (o->cap - o->len < len || !o->data) {
                int st = pct_buf_reserve(o, len, limit);
                if (st != PCT_OK)
                    return st;
            }
            off = (int32_t)o->len;
            memcpy(o->data + o->len, src, len);
            o->len += len;
            memcpy(view + 4, src, 4);
            memcpy(view + 8, &buf, 4);
            memcpy(view + 12, &off, 4);
        } else if (len) {
            memcpy(view + 4, src, len);
        }
        memcpy(view, &len32, 4);
        return PCT_OK;
    }
    if (len) {
        if (o->cap - o->len < len || !o->data) {
            int st = pct_buf_reserve(o, len, limit);
            if (st != PCT_OK)
                return st;
        }
        memcpy(o->data + o->len, src, len);
        o->len += len;
    }
    if (ch->kind == 'u') {
        int32_t end = (int32_t)o->len;
        memcpy(ch->index + 4 * (r + 1), &end, 4);
    } else {
        int64_t end = (int64_t)o->len;
        memcpy(ch->index + 8 * (r + 1), &end, 8);
    }
    return PCT_OK;
}

/* Rows between two reports to the prefaulter (a power of 2): some KiB of
 * each child, well within the prefaulter's lead. */
#define PROGRESS_ROWS 64

/* Runs the rows of `in`: PCT_OK, a pct_status, or -1 for a malformed row
 * (its index in *bad). Touches no Python object. */
static int split_rows(const pct_arrow_strings *in, parts_builder *b, int64_t *bad,
                      const pct_interrupt *stop)
{
    for (int64_t r = 0; r < in->length; r++) {
        const uint8_t *p;
        size_t n;
        if (pct_interrupted(stop, (size_t)r))
            return PCT_ERR_INTERRUPTED;
        if ((r & (PROGRESS_ROWS - 1)) == 0)
            builder_progress(b, r);
        int rc = pct_arrow_row(in, r, &p, &n);
        if (rc < 0) {
            *bad = r;
            return -1;
        }
        if (rc == 0) {
            b->nulls++;
            for (int c = 0; c < N_PARTS; c++)
                put(&b->kids[c], r, NULL, 0, 0, b->limit); /* cannot fail */
            continue;
        }
        b->row_valid[r >> 3] |= (uint8_t)(1u << (r & 7));
        pct_uri u;
        pct_range ranges[N_PARTS];
        int present[N_PARTS];
        pct_uri_split(p, n, &u);
        part_ranges(&u, ranges, present);
        /* a row that is no UTF-8 (a producer's fault): its parts written
         * with their ill-formed bytes escaped %XX, as normalize writes
         * them, so that each child is a valid string array */
        pct_utf8_info info;
        pct_utf8_check(p, n, &info);
        uint8_t *fixed = NULL;
        if (!info.valid && !(fixed = n <= (SIZE_MAX - 1) / 3 ? malloc(3 * n + 1) : NULL))
            return PCT_ERR_NO_MEMORY;
        for (int c = 0; c < N_PARTS; c++) {
            const uint8_t *src = p + ranges[c].start;
            size_t len = ranges[c].len;
            if (fixed) {
                len = pct_utf8_repair(src, len, PCT_UTF8_ESCAPE, fixed);
                src = fixed;
            }
            int st = put(&b->kids[c], r, src, len, present[c], b->limit);
            if (st != PCT_OK) {
                free(fixed);
                return st;
            }
        }
        free(fixed);
    }
    return PCT_OK;
}

/* Makes *out of ch, whose buffers it takes (the one Arrow builder's array,
 * _pctcodec_arrow.h). */
static int child_array(child *ch, int64_t rows, struct ArrowArray *out)
{
    memset(out, 0, sizeof *out);
    int64_t *sizes = ch->kind == 'v' ? malloc(sizeof *sizes) : NULL;
    uint8_t *own = ch->data.data ? NULL : malloc(1); /* no byte written: a buffer of its own */
    uint8_t *data = ch->data.data ? ch->data.data : own;
    if (!data || (ch->kind == 'v' && !sizes)) {
        free(sizes);
        free(own);
        return PCT_ERR_NO_MEMORY;
    }
    if (sizes)
        *sizes = (int64_t)ch->data.len;
    void *bufs[4] = {ch->nulls ? ch->valid : NULL, ch->index, data, sizes};
    if (ch->nulls)
        ch->valid = NULL;
    ch->index = NULL;
    ch->data.data = NULL;
    return arrow_array_own(out, rows, ch->nulls, ch->kind == 'v' ? 4 : 3, bufs);
}

/* The struct array and its schema own their children's structs. */
typedef struct {
    struct ArrowArray *ptrs[N_PARTS];
    struct ArrowArray kids[N_PARTS];
    const void *buffers[1];
} struct_array_private;

typedef struct {
    struct ArrowSchema *ptrs[N_PARTS];
    struct ArrowSchema kids[N_PARTS];
} struct_schema_private;

static void release_struct_array(struct ArrowArray *a)
{
    struct_array_private *pv = a->private_data;
    if (pv) {
        for (int c = 0; c < N_PARTS; c++)
            if (pv->kids[c].release)
                pv->kids[c].release(&pv->kids[c]);
        free((void *)pv->buffers[0]);
        free(pv);
    }
    a->private_data = NULL;
    a->release = NULL;
}

static void release_struct_schema(struct ArrowSchema *s)
{
    struct_schema_private *pv = s->private_data;
    if (pv) {
        for (int c = 0; c < N_PARTS; c++)
            if (pv->kids[c].release)
                pv->kids[c].release(&pv->kids[c]);
        free(pv);
    }
    s->private_data = NULL;
    s->release = NULL;
}

/* The struct's schema: "+s" of seven nullable children of `kind`. */
static int struct_schema_init(struct ArrowSchema *s, char kind)
{
    struct_schema_private *pv = calloc(1, sizeof *pv);
    memset(s, 0, sizeof *s);
    if (!pv)
        return PCT_ERR_NO_MEMORY;
    for (int c = 0; c < N_PARTS; c++) {
        arrow_schema_init(&pv->kids[c], kind);
        pv->kids[c].name = PART_NAMES[c];
        pv->ptrs[c] = &pv->kids[c];
    }
    s->format = "+s";
    s->name = "";
    s->flags = ARROW_FLAG_NULLABLE;
    s->n_children = N_PARTS;
    s->children = pv->ptrs;
    s->private_data = pv;
    s->release = release_struct_schema;
    return PCT_OK;
}

/* Builds the struct array from b (whose buffers it takes). */
static int struct_array_build(parts_builder *b, int64_t rows, struct ArrowArray *out)
{
    struct_array_private *pv = calloc(1, sizeof *pv);
    memset(out, 0, sizeof *out);
    if (!pv)
        return PCT_ERR_NO_MEMORY;
    out->length = rows;
    out->null_count = b->nulls;
    out->n_buffers = 1;
    out->buffers = pv->buffers;
    out->n_children = N_PARTS;
    out->children = pv->ptrs;
    out->private_data = pv;
    out->release = release_struct_array;
    if (b->nulls) {
        pv->buffers[0] = b->row_valid;
        b->row_valid = NULL;
    }
    int rc = PCT_OK;
    for (int c = 0; c < N_PARTS; c++) {
        pv->ptrs[c] = &pv->kids[c];
        if (rc == PCT_OK)
            rc = child_array(&b->kids[c], rows, &pv->kids[c]);
    }
    if (rc != PCT_OK)
        release_struct_array(out);
    return rc;
}

PyDoc_STRVAR(split_arrow_doc,
"_split_arrow($module, source, base=0, /)\n--\n\n"
"split() over an Arrow string array, `source` a (schema capsule, array\n"
"capsule) pair (and a tuple of its buffers' sizes when they are known): a (schema capsule, array capsule) pair of a struct array of\n"
"seven children of the input's string type (large_string for a null array);\n"
"a null row gives a null struct. `base`: the index of its first row in\n"
"error messages.");

static PyObject *py_split_arrow(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs < 1 || nargs > 2) {
        PyErr_SetString(PyExc_TypeError, "_split_arrow() takes a source and a base");
        return NULL;
    }
    PyObject *source = args[0];
    int64_t base = nargs > 1 ? PyLong_AsLongLong(args[1]) : 0;
    if (base == -1 && PyErr_Occurred())
        return NULL;
    struct ArrowSchema *in_schema;
    struct ArrowArray *array;
    PyObject *sizes;
    if (arrow_import(source, "split_many", &in_schema, &array, &sizes) < 0)
        return NULL;
    char kind = schema_kind(in_schema, "split_many");
    pct_arrow_strings in;
    if (!kind || strings_init(&in, kind, array, sizes, base) < 0)
        return NULL;
    char out_kind = kind == 'n' ? 'U' : kind;
    size_t span = pct_arrow_span(&in, 0, in.length);
    parts_builder b;
    int rc = builder_init(&b, in.length, out_kind, span);
    int64_t bad = 0;
    sig_gate gate;
    pct_interrupt stop = {sig_gate_callback, &gate};
    if (rc == PCT_OK)
        MAYBE_WITHOUT_GIL_GATED(in.length >= NOGIL_MIN_ROWS || span >= NOGIL_MIN_LENGTH, &gate,
                                rc = split_rows(&in, &b, &bad, &stop));
    if (rc != PCT_OK) {
        builder_free(&b);
        if (rc == PCT_ERR_INTERRUPTED)
            return NULL; /* the handler's exception is raised */
        if (rc == PCT_ERR_NO_MEMORY)
            return PyErr_NoMemory();
        if (rc == PCT_ERR_TOO_LARGE) {
            PyErr_SetString(PyExc_OverflowError,
                            "a component column is too long for an Arrow string or string_view "
                            "array (over 2 GiB): pass a large_string array");
            return NULL;
        }
        PyErr_Format(PyExc_ValueError,
                     "malformed Arrow array: the offset or view of row %lld is out of range",
                     (long long)(base + bad));
        return NULL;
    }
    builder_trim(&b);
    struct ArrowSchema *schema = calloc(1, sizeof *schema);
    struct ArrowArray *out = calloc(1, sizeof *out);
    if (!schema || !out || struct_schema_init(schema, out_kind) != PCT_OK
        || (rc = struct_array_build(&b, in.length, out)) != PCT_OK) {
        if (schema && schema->release)
            schema->release(schema);
        free(schema);
        free(out);
        builder_free(&b);
        return PyErr_NoMemory();
    }
    builder_free(&b);
    return arrow_capsules(schema, out);
}

PyMethodDef split_methods[] = {
    {"split", py_split, METH_O, split_doc},
    {"_split_list", (PyCFunction)(void (*)(void))py_split_list, METH_FASTCALL, split_list_doc},
    {"_split_arrow", (PyCFunction)(void (*)(void))py_split_arrow, METH_FASTCALL, split_arrow_doc},
    {NULL, NULL, 0, NULL},
};
