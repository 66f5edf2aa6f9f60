/* Op decoding for the batch engine (see _pctcodec_batch.h): the arguments
 * a batch function of src/pctcodec/batch.py passes (op code, single-value
 * function, safe, encoding, errors, packed options, on_error, rejects)
 * become a batch_op. The ops are a table, zero where an entry says
 * nothing, and every batch_op starts zeroed: an op reads no field that
 * another op's decoder sets and its own leaves unset.
 */
#include "_pctcodec.h" /* Python.h first, as it asks */

#include <string.h>

#include "_pctcodec_batch.h"
#include "pct_uri.h"

/* normalize_many's options, as batch.py packs them. */
#define OPT_SORT_QUERY 1
#define OPT_DROP_FRAGMENT 2
#define OPT_STRIP_SPACE 4
/* canonicalize_many's: those of normalize_many, and the filter's and the
 * key's (pct_canon.h's PCT_CANON_* shifted by CANON_SHIFT); its patterns
 * come as clean_query_many's. */
#define OPT_IGNORE_CASE 8
#define OPT_HTML_AMP 16
#define OPT_SORT 32
#define OPT_KEEP_IGNORE_CASE 64
#define OPT_STRICT_IDNA 128 /* normalize_many's only */
#define CANON_SHIFT 8
/* clean_query_many's: the kept parameters sorted. Its patterns come as
 * bytes (pct_query.h's pattern sets) in the `safe` (drop) and `errors`
 * (keep, or None) arguments, query_param_many's name as UTF-8 bytes in
 * `safe`: they stay alive for the whole call, as the arguments do. */
#define OPT_SORT_PARAMS 1
/* resolve_many's: the target normalized; 5.2.2's non-strict parser. The
 * base comes as a str in `safe` (one base for every row), or as a column
 * in `errors` (a list for _many_list, a (schema, array) capsule pair of
 * the same length for _many_arrow); func takes (base, reference). */
/* parse_url_many's (src/pctcodec/url.py): the getter (pct_url_part) in
 * opts; the base as a parsed capsule (src/_pctcodec_url.c) in `safe`, or
 * as a column in `errors` as for resolve_many (func then takes (base,
 * value)), or neither. */
#define OPT_RESOLVE_NORMALIZE 1
#define OPT_RESOLVE_NON_STRICT 2

/* An op's own arguments into op (zeroed, its code, func and policy set):
 * 0, or -1 with an error. */
typedef int (*op_decoder)(batch_op *op, PyObject *safe, PyObject *encoding, PyObject *errors,
                          long opts);

/* canonicalize_many's and clean_query_many's pattern sets: bytes (the keep
 * set in `errors` may be None); 0, or -1 with TypeError naming fname. */
static int bytes_patterns(PyObject *safe, PyObject *errors, const char *fname)
{
    if (PyBytes_Check(safe) && (errors == Py_None || PyBytes_Check(errors)))
        return 0;
    PyErr_Format(PyExc_TypeError, "%s() needs its patterns as bytes", fname);
    return -1;
}

static int decode_quote(batch_op *op, PyObject *safe, PyObject *encoding, PyObject *errors, long opts)
{
    (void)opts;
    int c_set = batch_quote_set(op->module, safe, encoding, errors, op->spec.plus, &op->spec.keep);
    if (c_set < 0)
        return -1;
    op->all_python = !c_set; /* a set or codec only quote() itself has */
    return 0;
}

static int decode_unquote(batch_op *op, PyObject *safe, PyObject *encoding, PyObject *errors,
                          long opts)
{
    (void)safe;
    (void)opts;
    const char *handler = batch_unquote_errors(encoding, errors);
    op->all_python = handler == NULL;
    op->spec.malformed = !handler                          ? PCT_BATCH_CALLER
                         : strcmp(handler, "replace") == 0 ? PCT_BATCH_REPLACE
                         : strcmp(handler, "ignore") == 0  ? PCT_BATCH_IGNORE
                                                           : PCT_BATCH_CALLER;
    return 0;
}

static int decode_normalize(batch_op *op, PyObject *safe, PyObject *encoding, PyObject *errors,
                            long opts)
{
    (void)safe;
    (void)encoding;
    (void)errors;
    op->spec.flags = PCT_URI_NORMALIZE | (opts & OPT_SORT_QUERY ? PCT_URI_SORT_QUERY : 0)
                     | (opts & OPT_DROP_FRAGMENT ? PCT_URI_DROP_FRAGMENT : 0);
    op->strict_idna = (opts & OPT_STRICT_IDNA) != 0;
    op->spec.strip = (opts & OPT_STRIP_SPACE) != 0;
    return 0;
}

static int decode_canonicalize(batch_op *op, PyObject *safe, PyObject *encoding, PyObject *errors,
                               long opts)
{
    (void)encoding;
    if (bytes_patterns(safe, errors, "canonicalize_many") < 0)
        return -1;
    op->spec.flags = PCT_URI_NORMALIZE | (opts & OPT_DROP_FRAGMENT ? PCT_URI_DROP_FRAGMENT : 0);
    op->spec.strip = (opts & OPT_STRIP_SPACE) != 0;
    batch_canon_init(&op->spec.canon, safe, errors, opts);
    return 0;
}

static int decode_query_param(batch_op *op, PyObject *safe, PyObject *encoding, PyObject *errors,
                              long opts)
{
    (void)encoding;
    (void)errors;
    (void)opts;
    if (!PyBytes_Check(safe)) {
        PyErr_SetString(PyExc_TypeError, "query_param_many() needs the name as bytes");
        return -1;
    }
    op->spec.name = (const uint8_t *)PyBytes_AS_STRING(safe);
    op->spec.name_len = (size_t)PyBytes_GET_SIZE(safe);
    return 0;
}

static int decode_clean_query(batch_op *op, PyObject *safe, PyObject *encoding, PyObject *errors,
                              long opts)
{
    (void)encoding;
    if (bytes_patterns(safe, errors, "clean_query_many") < 0)
        return -1;
    pct_query_filter *f = &op->spec.filter;
    f->drop = (const uint8_t *)PyBytes_AS_STRING(safe);
    f->drop_len = (size_t)PyBytes_GET_SIZE(safe);
    f->has_keep = errors != Py_None;
    if (f->has_keep) {
        f->keep = (const uint8_t *)PyBytes_AS_STRING(errors);
        f->keep_len = (size_t)PyBytes_GET_SIZE(errors);
    }
    f->sort = (opts & OPT_SORT_PARAMS) != 0;
    f->ignore_case = (opts & OPT_IGNORE_CASE) != 0;
    f->keep_ignore_case = (opts & OPT_KEEP_IGNORE_CASE) != 0;
    f->html_amp = (opts & OPT_HTML_AMP) != 0;
    pct_query_filter_init(f);
    return 0;
}

/* registered_domain_many, public_suffix_many, domain_parts_many: the
 * compiled list comes in `safe`, PCT_DOMAIN_* flags (the part among them)
 * in opts. */
static int decode_domain(batch_op *op, PyObject *safe, PyObject *encoding, PyObject *errors, long opts)
{
    (void)encoding;
    (void)errors;
    if (!(op->spec.psl = domain_psl(safe)))
        return -1;
    op->spec.flags = (unsigned)opts;
    return 0;
}

static int decode_resolve(batch_op *op, PyObject *safe, PyObject *encoding, PyObject *errors, long opts)
{
    (void)encoding;
    op->spec.flags = opts & OPT_RESOLVE_NORMALIZE ? PCT_URI_NORMALIZE : 0;
    op->spec.strip = (opts & OPT_RESOLVE_NORMALIZE) != 0; /* as normalize() does */
    op->spec.resolve_flags = opts & OPT_RESOLVE_NON_STRICT ? PCT_RESOLVE_NON_STRICT : 0;
    if (safe != Py_None) { /* its UTF-8 is cached on the str, alive with the call */
        Py_ssize_t len;
        const char *u = PyUnicode_Check(safe) ? PyUnicode_AsUTF8AndSize(safe, &len) : NULL;
        if (!u) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_TypeError, "resolve_many() needs its base as a str");
            return -1;
        }
        op->spec.base = (const uint8_t *)u;
        op->spec.base_len = (size_t)len;
    } else if (errors != Py_None) {
        op->base_column = errors;
    } else {
        PyErr_SetString(PyExc_TypeError, "resolve_many() needs a base");
        return -1;
    }
    return 0;
}

static int decode_url(batch_op *op, PyObject *safe, PyObject *encoding, PyObject *errors, long opts)
{
    (void)encoding;
    if (opts < PCT_URL_HREF || opts > PCT_URL_RECORD) {
        PyErr_SetString(PyExc_ValueError, "bad URL getter");
        return -1;
    }
    op->spec.url_part = (pct_url_part)opts;
    if (safe != Py_None && !(op->spec.url_base = url_base_of(safe)))
        return -1;
    if (errors != Py_None)
        op->base_column = errors;
    return 0;
}

/* The ops by code: the function's name, the core's op, whether it is the
 * '+' variant, and the decoder of its own arguments (NULL: it has none). */
static const struct {
    const char *name;
    pct_batch_op core;
    int plus;
    op_decoder decode;
} OPS[N_OPS] = {
    [OP_QUOTE] = {"quote_many", PCT_BATCH_QUOTE, 0, decode_quote},
    [OP_QUOTE_PLUS] = {"quote_plus_many", PCT_BATCH_QUOTE, 1, decode_quote},
    [OP_UNQUOTE] = {"unquote_many", PCT_BATCH_UNQUOTE, 0, decode_unquote},
    [OP_UNQUOTE_PLUS] = {"unquote_plus_many", PCT_BATCH_UNQUOTE, 1, decode_unquote},
    [OP_REQUOTE] = {"requote_many", PCT_BATCH_REQUOTE, 0, NULL},
    [OP_NORMALIZE] = {"normalize_many", PCT_BATCH_NORMALIZE, 0, decode_normalize},
    [OP_CHECK] = {"check_many", PCT_BATCH_CHECK, 0, NULL},
    [OP_QUERY_PARAM] = {"query_param_many", PCT_BATCH_QUERY_PARAM, 0, decode_query_param},
    [OP_CLEAN_QUERY] = {"clean_query_many", PCT_BATCH_CLEAN_QUERY, 0, decode_clean_query},
    [OP_DOMAIN] = {"registered_domain_many", PCT_BATCH_DOMAIN, 0, decode_domain},
    [OP_SUFFIX] = {"public_suffix_many", PCT_BATCH_DOMAIN, 0, decode_domain},
    [OP_PARTS] = {"domain_parts_many", PCT_BATCH_DOMAIN, 0, decode_domain},
    [OP_RESOLVE] = {"resolve_many", PCT_BATCH_RESOLVE, 0, decode_resolve},
    [OP_CANONICALIZE] = {"canonicalize_many", PCT_BATCH_CANONICALIZE, 0, decode_canonicalize},
    [OP_URL] = {"parse_url_many", PCT_BATCH_URL, 0, decode_url},
    [OP_URL_HREF] = {"url_href_many", PCT_BATCH_URL, 0, decode_url},
};

const char *batch_op_name(int code)
{
    return code >= 0 && code < N_OPS ? OPS[code].name : "batch";
}

/* The slot `name` of the error class cls (a member descriptor, which sets
 * it without a lookup per error), or NULL when it is no such slot (the
 * attribute is then set by name). */
static PyObject *slot_of(PyObject *cls, PyObject *name)
{
    PyObject *d = PyObject_GetAttr(cls, name);
    if (!d)
        PyErr_Clear(); /* (the lookup's own: the attribute is set by name, which raises it again) */
    else if (!(Py_IS_TYPE(d, &PyMemberDescr_Type) && Py_TYPE(d)->tp_descr_set))
        Py_CLEAR(d);
    return d;
}

/* The classes and names a rejects entry is made of, once per call (the
 * error classes only for the ops whose failed rows are made in C). */
static int take_reject_kit(batch_op *op)
{
    int domain = op->code == OP_DOMAIN || op->code == OP_SUFFIX || op->code == OP_PARTS;
    int text = op->code == OP_REQUOTE || op->code == OP_NORMALIZE || op->code == OP_CANONICALIZE
               || op->code == OP_CLEAN_QUERY;
    op->reject_type = package_attr(op->module, "_Reject", "pctcodec.batch", "Reject");
    if (op->reject_type && !(PyType_Check(op->reject_type)
                             && PyType_IsSubtype((PyTypeObject *)op->reject_type, &PyTuple_Type))) {
        PyErr_SetString(PyExc_TypeError, "pctcodec.batch.Reject is no tuple class");
        goto fail;
    }
    if (!op->reject_type
        || (domain && !(op->host_error = package_attr(op->module, "_HostError", "pctcodec._errors",
                                                      "HostError")))
        || (text && !(op->percent_error = package_attr(op->module, "_PercentEncodingError",
                                                       "pctcodec._errors", "PercentEncodingError")))
        || !(op->s_position = PyUnicode_InternFromString("position")))
        goto fail;
    PyObject *cls = op->host_error ? op->host_error : op->percent_error;
    if (cls) /* (the two classes share their base's slot) */
        op->d_position = slot_of(cls, op->s_position);
    return 0;
fail:
    batch_op_release(op);
    return -1;
}

int batch_op_decode(PyObject *module, PyObject *const *args, Py_ssize_t nargs, int extra,
                    const char *fname, batch_op *op)
{
    memset(op, 0, sizeof *op); /* no field left unset, whichever op it is */
    if (nargs != 1 + N_OP_ARGS + extra) {
        PyErr_Format(PyExc_TypeError, "%s() takes %d arguments", fname, 1 + N_OP_ARGS + extra);
        return -1;
    }
    PyObject *const *a = args + 1;
    long code = PyLong_AsLong(a[0]);
    if (code == -1 && PyErr_Occurred())
        return -1;
    long opts = PyLong_AsLong(a[5]);
    if (opts == -1 && PyErr_Occurred())
        return -1;
    long on_error = PyLong_AsLong(a[6]);
    if (on_error == -1 && PyErr_Occurred())
        return -1;
    if (code < 0 || code >= N_OPS || !PyCallable_Check(a[1]) || on_error < ON_ERROR_RAISE
        || on_error > ON_ERROR_NULL_ROWS || (a[7] != Py_None && !PyList_CheckExact(a[7]))
        || (on_error == ON_ERROR_NULL_ROWS && a[7] == Py_None)) {
        PyErr_SetString(PyExc_ValueError, "bad batch operation");
        return -1;
    }
    op->code = (int)code;
    op->rows_only = on_error == ON_ERROR_NULL_ROWS;
    op->on_error = op->rows_only ? ON_ERROR_NULL : (int)on_error;
    op->rejects = a[7] == Py_None ? NULL : a[7];
    op->func = a[1];
    op->module = module;
    op->spec.op = OPS[code].core;
    op->spec.plus = OPS[code].plus;
    if (OPS[code].decode && OPS[code].decode(op, a[2], a[3], a[4], opts) < 0)
        return -1;
    return op->rejects && !op->rows_only ? take_reject_kit(op) : 0;
}

void batch_op_release(batch_op *op)
{
    Py_CLEAR(op->reject_type);
    Py_CLEAR(op->host_error);
    Py_CLEAR(op->percent_error);
    Py_CLEAR(op->s_position);
    Py_CLEAR(op->d_position);
}

void batch_canon_init(pct_canon *c, PyObject *drop, PyObject *keep, long opts)
{
    memset(c, 0, sizeof *c);
    c->filter.drop = (const uint8_t *)PyBytes_AS_STRING(drop);
    c->filter.drop_len = (size_t)PyBytes_GET_SIZE(drop);
    c->filter.has_keep = keep != Py_None;
    if (c->filter.has_keep) {
        c->filter.keep = (const uint8_t *)PyBytes_AS_STRING(keep);
        c->filter.keep_len = (size_t)PyBytes_GET_SIZE(keep);
    }
    c->filter.sort = (opts & OPT_SORT) != 0;
    c->filter.ignore_case = (opts & OPT_IGNORE_CASE) != 0;
    c->filter.keep_ignore_case = (opts & OPT_KEEP_IGNORE_CASE) != 0;
    c->filter.html_amp = (opts & OPT_HTML_AMP) != 0;
    c->filter.drop_empty = 1; /* empty segments are no parameters */
    c->opts = (unsigned)(opts >> CANON_SHIFT) & PCT_CANON_ALL;
    pct_query_filter_init(&c->filter);
}
