/* CPython binding of the batch engine (src/core/pct_batch.c): the work of
 * quote_many ... check_many (src/pctcodec/batch.py) on a list or tuple of str,
 * and on Arrow arrays and streams through the Arrow C data interface.
 *
 * Arrow input is read in place (offsets or views, data buffers; see
 * src/_pctcodec_arrow.c) and the result is written to malloc'd buffers that the
 * ArrowArray's release callback frees: no Python object per value. The rows run with the GIL
 * released, split over `threads` threads; a row the core cannot finish
 * (IDNA, an error handler only Python has) calls the single-value function
 * with the GIL taken for that row. Under on_error "raise" any error names
 * the row's index and no result is returned; under "null" or "keep" a row
 * whose single-value call raises an Exception (not MemoryError) gets null or
 * its input, and (index, value, exception) goes to the rejects list.
 */
#include <stdlib.h>
#include <string.h>

#include "_pctcodec.h"
#include "_pctcodec_arrow.h"
#include "_pctcodec_batch.h"
#include "_pctcodec_memory.h"
#include "pct_authority.h"
#include "pct_batch.h"
#include "pct_domain.h"
#include "pct_idna.h"
#include "pct_uri.h"

/* Operation codes, as src/pctcodec/batch.py passes them. */
enum { OP_QUOTE, OP_QUOTE_PLUS, OP_UNQUOTE, OP_UNQUOTE_PLUS, OP_REQUOTE, OP_NORMALIZE, OP_CHECK,
       OP_QUERY_PARAM, OP_CLEAN_QUERY, OP_DOMAIN, OP_SUFFIX, OP_PARTS, OP_RESOLVE,
       OP_CANONICALIZE, OP_URL, N_OPS };
static const char *const OP_NAMES[N_OPS] = {"quote_many",   "quote_plus_many", "unquote_many",
                                            "unquote_plus_many", "requote_many", "normalize_many",
                                            "check_many", "query_param_many", "clean_query_many",
                                            "registered_domain_many", "public_suffix_many",
                                            "domain_parts_many", "resolve_many", "canonicalize_many",
                                            "parse_url_many"};

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

/* More threads than this are not started. */
#define MAX_THREADS 256

/* With threads chosen automatically (a negative count: up to that many),
 * each thread takes at least this many rows, so that short arrays, where
 * starting a thread costs more than it saves, stay on one. */
#define AUTO_MIN_ROWS 16384


/* on_error, as batch.py passes it. */
enum { ON_ERROR_RAISE, ON_ERROR_NULL, ON_ERROR_KEEP };

typedef struct {
    int code;         /* OP_* */
    int on_error;     /* ON_ERROR_* */
    PyObject *rejects; /* a list for (index, value, exception), or NULL (borrowed) */
    pct_batch_spec spec;
    int all_python;   /* every row goes through func */
    int strict_idna;  /* NORMALIZE: a host with no IDNA form is the row's error */
    PyObject *func;   /* the single-value function (borrowed) */
    PyObject *module;
    PyObject *base_column;      /* RESOLVE: the `errors` argument, or NULL (borrowed) */
    const pct_arrow_strings *bases; /* RESOLVE over Arrow: the base column's array, or NULL */
} batch_op;

/* The arguments shared by both entry points, after the first: op, func,
 * safe, encoding, errors, opts, on_error, rejects. */
#define N_OP_ARGS 8

/* The start of both entry points: nargs is N_OP_ARGS plus `extra`, the
 * operation's arguments following the first one. */
static int setup_op(PyObject *module, PyObject *const *args, Py_ssize_t nargs, int extra,
                    const char *fname, batch_op *op)
{
    if (nargs != 1 + N_OP_ARGS + extra) {
        PyErr_Format(PyExc_TypeError, "%s() takes %d arguments", fname, 1 + N_OP_ARGS + extra);
        return -1;
    }
    memset(op, 0, sizeof *op); /* no field left unset, whichever op it is */
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
        || on_error > ON_ERROR_KEEP || (a[7] != Py_None && !PyList_CheckExact(a[7]))) {
        PyErr_SetString(PyExc_ValueError, "bad batch operation");
        return -1;
    }
    op->on_error = (int)on_error;
    op->rejects = a[7] == Py_None ? NULL : a[7];
    memset(&op->spec, 0, sizeof op->spec);
    op->code = (int)code;
    op->func = a[1];
    op->module = module;
    op->all_python = 0;
    op->base_column = NULL;
    op->bases = NULL;
    PyObject *safe = a[2], *encoding = a[3], *errors = a[4];
    const char *handler;
    switch (code) {
    case OP_QUOTE:
    case OP_QUOTE_PLUS:
        op->spec.op = PCT_BATCH_QUOTE;
        op->spec.plus = code == OP_QUOTE_PLUS;
        if ((op->all_python = batch_quote_set(module, safe, encoding, errors, op->spec.plus,
                                              &op->spec.keep)) < 0)
            return -1;
        op->all_python = !op->all_python;
        break;
    case OP_UNQUOTE:
    case OP_UNQUOTE_PLUS:
        op->spec.op = PCT_BATCH_UNQUOTE;
        op->spec.plus = code == OP_UNQUOTE_PLUS;
        handler = batch_unquote_errors(encoding, errors);
        op->all_python = handler == NULL;
        op->spec.malformed = !handler                       ? PCT_BATCH_CALLER
                             : strcmp(handler, "replace") == 0 ? PCT_BATCH_REPLACE
                             : strcmp(handler, "ignore") == 0  ? PCT_BATCH_IGNORE
                                                                : PCT_BATCH_CALLER;
        break;
    case OP_REQUOTE:
        op->spec.op = PCT_BATCH_REQUOTE;
        break;
    case OP_NORMALIZE:
        op->spec.op = PCT_BATCH_NORMALIZE;
        op->spec.flags = PCT_URI_NORMALIZE | (opts & OPT_SORT_QUERY ? PCT_URI_SORT_QUERY : 0)
                         | (opts & OPT_DROP_FRAGMENT ? PCT_URI_DROP_FRAGMENT : 0);
        op->strict_idna = (opts & OPT_STRICT_IDNA) != 0;
        op->spec.strip = (opts & OPT_STRIP_SPACE) != 0;
        break;
    case OP_CANONICALIZE:
        if (!PyBytes_Check(safe) || (errors != Py_None && !PyBytes_Check(errors))) {
            PyErr_SetString(PyExc_TypeError, "canonicalize_many() needs its patterns as bytes");
            return -1;
        }
        op->spec.op = PCT_BATCH_CANONICALIZE;
        op->spec.flags = PCT_URI_NORMALIZE | (opts & OPT_DROP_FRAGMENT ? PCT_URI_DROP_FRAGMENT : 0);
        op->spec.strip = (opts & OPT_STRIP_SPACE) != 0;
        batch_canon_init(&op->spec.canon, safe, errors, opts);
        break;
    case OP_QUERY_PARAM:
        if (!PyBytes_Check(safe)) {
            PyErr_SetString(PyExc_TypeError, "query_param_many() needs the name as bytes");
            return -1;
        }
        op->spec.op = PCT_BATCH_QUERY_PARAM;
        op->spec.name = (const uint8_t *)PyBytes_AS_STRING(safe);
        op->spec.name_len = (size_t)PyBytes_GET_SIZE(safe);
        break;
    case OP_CLEAN_QUERY:
        if (!PyBytes_Check(safe) || (errors != Py_None && !PyBytes_Check(errors))) {
            PyErr_SetString(PyExc_TypeError, "clean_query_many() needs its patterns as bytes");
            return -1;
        }
        op->spec.op = PCT_BATCH_CLEAN_QUERY;
        op->spec.filter.drop = (const uint8_t *)PyBytes_AS_STRING(safe);
        op->spec.filter.drop_len = (size_t)PyBytes_GET_SIZE(safe);
        op->spec.filter.has_keep = errors != Py_None;
        if (op->spec.filter.has_keep) {
            op->spec.filter.keep = (const uint8_t *)PyBytes_AS_STRING(errors);
            op->spec.filter.keep_len = (size_t)PyBytes_GET_SIZE(errors);
        }
        op->spec.filter.sort = (opts & OPT_SORT_PARAMS) != 0;
        op->spec.filter.ignore_case = (opts & OPT_IGNORE_CASE) != 0;
        op->spec.filter.keep_ignore_case = (opts & OPT_KEEP_IGNORE_CASE) != 0;
        op->spec.filter.html_amp = (opts & OPT_HTML_AMP) != 0;
        pct_query_filter_init(&op->spec.filter);
        break;
    case OP_DOMAIN:
    case OP_SUFFIX:
    case OP_PARTS:
        /* the compiled list comes in `safe`, PCT_DOMAIN_* flags (the part
         * among them) in opts */
        if (!(op->spec.psl = domain_psl(safe)))
            return -1;
        op->spec.op = PCT_BATCH_DOMAIN;
        op->spec.flags = (unsigned)opts;
        break;
    case OP_RESOLVE:
        op->spec.op = PCT_BATCH_RESOLVE;
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
        break;
    case OP_URL:
        op->spec.op = PCT_BATCH_URL;
        if (opts < PCT_URL_HREF || opts > PCT_URL_RECORD) {
            PyErr_SetString(PyExc_ValueError, "bad URL getter");
            return -1;
        }
        op->spec.url_part = (pct_url_part)opts;
        if (safe != Py_None && !(op->spec.url_base = url_base_of(safe)))
            return -1;
        if (errors != Py_None)
            op->base_column = errors;
        break;
    default:
        op->spec.op = PCT_BATCH_CHECK;
        break;
    }
    return 0;
}

/* The key's filter and options of canonicalize_many and canonicalize, from
 * the pattern sets (bytes; keep may be None) and the packed options. */
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

/* Replaces the raised exception by the one pctcodec.batch._indexed makes of
 * it for the value at `index`, raised from the original when it is new. */
static PyObject *raise_at(PyObject *module, Py_ssize_t index)
{
    PyObject *exc = PyErr_GetRaisedException_compat();
    if (!exc)
        return NULL;
    PyObject *indexed = package_attr(module, "_batch_indexed", "pctcodec.batch", "_indexed");
    PyObject *r = indexed ? PyObject_CallFunction(indexed, "On", exc, index) : NULL;
    Py_XDECREF(indexed);
    if (!r) {
        Py_DECREF(exc);
        return NULL;
    }
    if (r != exc) {
        Py_INCREF(exc);
        PyException_SetContext(r, exc); /* both steal a reference */
        PyException_SetCause(r, exc);
    } else {
        Py_DECREF(exc);
    }
    PyErr_SetRaisedException_compat(r);
    return NULL;
}

/* 1 when the raised exception `exc` is one that on_error "null" or "keep"
 * takes for the row's failure: an Exception other than MemoryError (a
 * KeyboardInterrupt or a lack of memory stops the run under any on_error). */
static int is_row_error(const batch_op *op, PyObject *exc)
{
    return op->on_error != ON_ERROR_RAISE && PyErr_GivenExceptionMatches(exc, PyExc_Exception)
           && !PyErr_GivenExceptionMatches(exc, PyExc_MemoryError);
}

/* Appends (index, value, exc) to op->rejects (when there is one); steals exc. */
static int add_reject(const batch_op *op, Py_ssize_t index, PyObject *value, PyObject *exc)
{
    int rc = 0;
    if (op->rejects) {
        PyObject *t = value ? Py_BuildValue("(nOO)", index, value, exc) : NULL;
        rc = t ? PyList_Append(op->rejects, t) : -1;
        Py_XDECREF(t);
    }
    Py_DECREF(exc);
    return rc;
}

static void raise_status(int status)
{
    if (status == PCT_ERR_NO_MEMORY)
        PyErr_NoMemory();
    else if (status == PCT_ERR_TOO_LARGE)
        pct_py_too_long();
    else
        PyErr_SetString(PyExc_ValueError, "malformed Arrow array: an offset or view is out of range");
}

/* ---------------------------------------------------------------------------
 * Lists and tuples of str.
 */

/* The row's result in out (or position) as a Python object. */
static PyObject *row_object(const batch_op *op, const pct_out *out, int64_t position)
{
    if (op->code == OP_CHECK)
        return position < 0 ? Py_NewRef(Py_None) : PyLong_FromLongLong(position);
    if (op->spec.op == PCT_BATCH_UNQUOTE || op->spec.op == PCT_BATCH_QUERY_PARAM
        || op->spec.op == PCT_BATCH_CLEAN_QUERY || op->spec.op == PCT_BATCH_RESOLVE)
        /* (DOMAIN's results are ASCII) */
        return PyUnicode_DecodeUTF8((const char *)out->data, (Py_ssize_t)out->len, "strict");
    PyObject *s = PyUnicode_New((Py_ssize_t)out->len, 127);
    if (s && out->len)
        memcpy(PyUnicode_1BYTE_DATA(s), out->data, out->len);
    return s;
}

static int mapped_host_row(const batch_op *op, const uint8_t *p, size_t n, const pct_batch_info *info,
                           pct_out *out, size_t limit, pct_host_cache *hosts);

/* func of the row `item`; RESOLVE's takes the row's base too (`base`, or
 * the one str of every row). */
static PyObject *call_func(const batch_op *op, PyObject *base, PyObject *item)
{
    if (op->code != OP_RESOLVE && !(op->code == OP_URL && base))
        return PyObject_CallOneArg(op->func, item);
    PyObject *pair[2] = {base ? base : (PyObject *)NULL, item};
    if (!base) {
        PyObject *fixed = PyUnicode_DecodeUTF8((const char *)op->spec.base,
                                               (Py_ssize_t)op->spec.base_len, "strict");
        if (!fixed)
            return NULL;
        pair[0] = fixed;
        PyObject *r = PyObject_Vectorcall(op->func, pair, 2, NULL);
        Py_DECREF(fixed);
        return r;
    }
    return PyObject_Vectorcall(op->func, pair, 2, NULL);
}

static int str_utf8(PyObject *item, const uint8_t **p, size_t *n, PyObject **owner);

/* The exception of a row the core failed (PCT_ROW_FAILED: DOMAIN's host
 * with a byte no host may hold, or with no IDNA form), as the single-value
 * function makes it (pctcodec.domains._part): HostError("the host %r is
 * no domain name", the host's start), the host where pct_authority_find
 * finds it, positions in code points. Made only when a rejects list keeps
 * it: a failed row under on_error "null" or "keep" costs about what a
 * good one does. `item`: an exact str. */
static PyObject *failed_row_exception(const batch_op *op, PyObject *item)
{
    const uint8_t *p;
    size_t n, start, len;
    PyObject *owner, *exc = NULL;
    int got = str_utf8(item, &p, &n, &owner);
    if (got < 0)
        return NULL;
    if (got == 0) { /* no UTF-8 (lone surrogates): func's own error */
        PyObject *r = call_func(op, NULL, item);
        if (r) {
            Py_DECREF(r);
            PyErr_SetString(PyExc_SystemError, "a failed row did not fail");
        }
        return PyErr_GetRaisedException_compat();
    }
    pct_authority a; /* where the single-value function finds the host */
    pct_authority_find(p, n, PCT_AUTH_WEB, &a);
    start = a.host;
    len = a.host_end - a.host;
    Py_ssize_t cs = (Py_ssize_t)pct_utf8_count(p, start);
    Py_ssize_t ce = cs + (Py_ssize_t)pct_utf8_count(p + start, len);
    Py_XDECREF(owner);
    PyObject *host = PyUnicode_Substring(item, cs, ce);
    PyObject *reason = host ? PyUnicode_FromFormat("the host %R is no domain name", host) : NULL;
    PyObject *msg = reason ? PyUnicode_FromFormat("%U at position %zd", reason, cs) : NULL;
    PyObject *position = msg ? PyLong_FromSsize_t(cs) : NULL;
    PyObject *cls = position ? package_attr(op->module, "_HostError", "pctcodec._errors", "HostError") : NULL;
    PyObject *args = cls ? PyTuple_Pack(1, msg) : NULL;
    /* what _PositionedError.__init__ makes, without running Python code:
     * args (the message), reason, position */
    if (args && PyType_Check(cls))
        exc = ((PyTypeObject *)cls)->tp_new((PyTypeObject *)cls, args, NULL);
    if (exc && (PyObject_SetAttrString(exc, "reason", reason) < 0
                || PyObject_SetAttrString(exc, "position", position) < 0))
        Py_CLEAR(exc);
    Py_XDECREF(args);
    Py_XDECREF(cls);
    Py_XDECREF(position);
    Py_XDECREF(msg);
    Py_XDECREF(reason);
    Py_XDECREF(host);
    return exc;
}

/* The UTF-8 of an exact str: in place when ASCII, else a temporary copy
 * in *owner (not cached on the str). 0 when it has none (lone surrogates:
 * no error raised), -1 with an error. */
static int str_utf8(PyObject *item, const uint8_t **p, size_t *n, PyObject **owner)
{
    *owner = NULL;
    if (PyUnicode_IS_ASCII(item)) {
        *p = PyUnicode_1BYTE_DATA(item);
        *n = (size_t)PyUnicode_GET_LENGTH(item);
        return 1;
    }
    if (!(*owner = PyUnicode_AsUTF8String(item))) {
        if (!PyErr_ExceptionMatches(PyExc_UnicodeEncodeError))
            return -1;
        PyErr_Clear(); /* lone surrogates: the single-value function decides */
        return 0;
    }
    *p = (const uint8_t *)PyBytes_AS_STRING(*owner);
    *n = (size_t)PyBytes_GET_SIZE(*owner);
    return 1;
}

/* The result for one exact str, through the core when it can; `base`:
 * RESOLVE's base of the row (an exact str), NULL for the others and for
 * one base for all; *hosts: the call's IDNA forms, made on the first host
 * that needs one. */
static PyObject *str_row(const batch_op *op, PyObject *base, PyObject *item, pct_out *out,
                         pct_host_cache **hosts, int *failed)
{
    const uint8_t *p, *bp = op->spec.base;
    size_t n, bn = op->spec.base_len;
    PyObject *owner = NULL, *base_owner = NULL;
    if (op->all_python)
        return call_func(op, base, item);
    int got = str_utf8(item, &p, &n, &owner);
    if (got > 0 && base && (got = str_utf8(base, &bp, &bn, &base_owner)) <= 0)
        Py_XDECREF(owner);
    if (got <= 0)
        return got < 0 ? NULL : call_func(op, base, item);
    pct_batch_info info;
    out->len = 0;
    int rc = op->spec.op == PCT_BATCH_RESOLVE || (op->spec.op == PCT_BATCH_URL && base)
                 ? pct_batch_resolve_row(&op->spec, bp, bn, p, n, out, (size_t)PY_SSIZE_T_MAX, &info)
                 : pct_batch_row(&op->spec, p, n, out, (size_t)PY_SSIZE_T_MAX, &info);
    Py_XDECREF(base_owner);
    PyObject *r;
    if (rc == PCT_ROW_HOST) { /* (RESOLVE's rows never answer it) */
        if (!*hosts)
            *hosts = pct_host_cache_new(); /* without memory, no cache */
        rc = mapped_host_row(op, p, n, &info, out, (size_t)PY_SSIZE_T_MAX, *hosts);
    }
    if (rc == PCT_ROW_FAILED && op->on_error != ON_ERROR_RAISE)
        r = (*failed = 1, NULL); /* the caller's policy, no exception made (see failed_row_exception) */
    else if (rc == PCT_ROW_CALLER || rc == PCT_ROW_FAILED)
        r = call_func(op, base, item); /* raising: func's own error, with its traceback */
    else if (rc == PCT_ROW_NULL)
        r = Py_NewRef(Py_None);
    else if (rc != PCT_OK)
        r = (raise_status(rc), NULL);
    else
        r = row_object(op, out, info.position);
    Py_XDECREF(owner);
    return r;
}

PyDoc_STRVAR(many_list_doc,
"_many_list($module, values, op, func, safe, encoding, errors, opts, on_error, rejects, /)\n--\n\n"
"The batch operation `op` over a list or tuple of str or None (see\n"
"src/pctcodec/batch.py); `func` is the single-value function.");

static PyObject *py_many_list(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    batch_op op;
    if (setup_op(module, args, nargs, 0, "_many_list", &op) < 0)
        return NULL;
    PyObject *values = args[0];
    if (!PyList_CheckExact(values) && !PyTuple_CheckExact(values)) {
        PyErr_SetString(PyExc_TypeError, "_many_list() needs a list or a tuple");
        return NULL;
    }
    Py_ssize_t n = PySequence_Fast_GET_SIZE(values);
    PyObject *bases = op.base_column;
    if (bases && (!PyList_CheckExact(bases) || PyList_GET_SIZE(bases) != n)) {
        PyErr_SetString(PyExc_ValueError, "resolve_many() needs a list of bases as long as the references");
        return NULL;
    }
    PyObject *result = PyList_New(n);
    if (!result)
        return NULL;
    pct_out out;
    pct_out_init(&out);
    pct_host_cache *hosts = NULL;
    Py_ssize_t i;
    /* func may change a list: its current length bounds every step */
    for (i = 0; i < n && i < PySequence_Fast_GET_SIZE(values); i++) {
        if (i % PCT_INTERRUPT_STEP == 0 && PyErr_CheckSignals() < 0) /* Ctrl-C */
            goto fail;
        PyObject *item = seq_item_ref(values, i);
        if (!item)
            break; /* it shrank meanwhile */
        /* the row's base, when they come as a column (the list may shrink too) */
        PyObject *base = bases ? seq_item_ref(bases, i) : NULL;
        PyObject *r;
        if (bases && !base) {
            PyErr_SetString(PyExc_ValueError, "resolve_many(): the list of bases changed");
            r = NULL;
        } else if (item == Py_None || base == Py_None) {
            r = Py_NewRef(Py_None);
        } else if (!PyUnicode_Check(item) || (base && !PyUnicode_Check(base))) {
            PyObject *bad = PyUnicode_Check(item) ? base : item;
            PyErr_Format(PyExc_TypeError, "%s() %s at index %zd must be str or None, not %.200s",
                         OP_NAMES[op.code], bad == item ? "value" : "base", i,
                         Py_TYPE(bad)->tp_name);
            r = NULL;
        } else if (PyUnicode_CheckExact(item) && (!base || PyUnicode_CheckExact(base))) {
            int failed = 0;
            r = str_row(&op, base, item, &out, &hosts, &failed);
            if (failed) { /* under null or keep: no exception unless rejects keeps one */
                PyObject *exc = op.rejects ? failed_row_exception(&op, item) : NULL;
                if ((op.rejects && !exc) || (exc && add_reject(&op, i, item, exc) < 0)) {
                    Py_DECREF(item);
                    Py_XDECREF(base);
                    goto fail;
                }
                r = Py_NewRef(op.on_error == ON_ERROR_KEEP ? item : Py_None);
            }
        } else {
            r = call_func(&op, base, item); /* a subclass: its own methods may count */
        }
        if (!r) {
            PyObject *exc = PyErr_GetRaisedException_compat();
            if (exc && is_row_error(&op, exc)) {
                if (add_reject(&op, i, item, exc) < 0) {
                    Py_DECREF(item);
                    Py_XDECREF(base);
                    goto fail;
                }
                r = Py_NewRef(op.on_error == ON_ERROR_KEEP ? item : Py_None);
            } else {
                PyErr_SetRaisedException_compat(exc);
                Py_DECREF(item);
                Py_XDECREF(base);
                raise_at(module, i);
                goto fail;
            }
        }
        Py_DECREF(item);
        Py_XDECREF(base);
        PyList_SET_ITEM(result, i, r);
    }
    pct_out_free(&out);
    pct_host_cache_free(hosts);
    if (i < n && PyList_SetSlice(result, i, n, NULL) < 0)
        Py_CLEAR(result);
    return result;
fail:
    pct_out_free(&out);
    pct_host_cache_free(hosts);
    /* the slots not yet filled are NULL, which list dealloc skips */
    Py_DECREF(result);
    return NULL;
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
    if (!(*schema)->release || !(*array)->release) {
        PyErr_Format(PyExc_ValueError,
                     "%s(): the Arrow %s was released already (a capsule is consumed once)", fname,
                     (*schema)->release ? "array" : "schema");
        return -1;
    }
    return 0;
}

/* The kind of an Arrow string column; 0 with TypeError for any other. */
char schema_kind(const struct ArrowSchema *schema, const char *fname)
{
    char kind = pct_arrow_kind(schema);
    if (!kind)
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

/* ---------------------------------------------------------------------------
 * Running an array's rows on threads. The rows are cut into chunks that the
 * threads take in order from a queue (a busy core takes fewer). A thread
 * writes a chunk into its own scratch buffer, then, on its turn (every
 * chunk before it is in the result), appends it to the result: each result
 * byte is written once into the result's memory, from a scratch buffer
 * still in the cache, and the result is one buffer, with no copy of the
 * threads' pieces at the end. A thread alone writes straight into the
 * result.
 */
/* A row failed under on_error "null" or "keep": its row in the array and
 * its exception. */
struct reject {
    int64_t row;
    PyObject *exc; /* NULL: a row the core failed, its exception made by add_rejects */
};

/* One input array's result. */
typedef struct {
    int64_t rows;
    int64_t *ends;  /* per row: its end in out.data; CHECK: its position or -1 */
    uint8_t *valid; /* per row one bit: the result is not null */
    pct_out out;
} result;

/* What the threads of one array share. */
typedef struct {
    result *res;
    int64_t chunk_rows, nchunks;
    int64_t next;              /* the next chunk to take (under queue) */
    int failed;                /* a chunk failed: no more are taken or appended (under queue) */
    PyThread_type_lock queue;
    PyThread_type_lock *turns; /* turns[c] (c >= 1) is released once chunk c - 1 is done
                                * with; NULL when chunks are not appended in turn */
} shared_run;

typedef struct {
    const batch_op *op;
    const pct_arrow_strings *in;
    shared_run *run;
    size_t limit;       /* the most bytes out may hold */
    int64_t *ends;      /* the result's */
    uint8_t *valid;
    pct_out *out;       /* where rows are written: scratch, or the result alone */
    pct_out scratch;
    int status;         /* PCT_OK or the failing row's outcome */
    int64_t err_row;    /* that row, in the array */
    PyObject *exc;      /* PCT_ROW_PYTHON_ERROR: the exception */
    struct reject *rejects; /* rows failed under on_error null or keep */
    size_t n_rejects, rejects_cap;
    PyThreadState *ts;  /* this thread's state while the GIL is released */
    PyInterpreterState *interp; /* the caller's, for the state of a new thread */
    int own_ts;         /* 1: ts was made for this piece's thread */
    pct_host_cache *hosts; /* NORMALIZE: IDNA forms met so far */
    const uint8_t *row_base; /* RESOLVE: the base of the row being done */
    size_t row_base_n;
    PyThread_type_lock done;  /* held until the piece's own thread has finished */
    sig_gate *gate;     /* the caller's piece: polled between chunks (Ctrl-C); NULL for the others */
} piece;

/* Takes the GIL; -1 when this thread gets no thread state (no memory). */
static int enter_python(piece *pc)
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

static void leave_python(piece *pc)
{
    pc->ts = PyEval_SaveThread();
}

/* ---------------------------------------------------------------------------
 * IDNA for normalize and the domain parts: the URL Standard's domain to
 * ASCII in C (pct_idna.h), without the GIL, once per host and piece; the
 * forms go to the piece's pct_host_cache, from which the core writes later
 * rows with the same host itself.
 */

/* A NORMALIZE or DOMAIN row the core answered PCT_ROW_HOST, written with its host
 * mapped here (from `hosts` when it is there, kept there after; hosts may
 * be NULL), or, for a host with no form, written as normalize writes it.
 * PCT_ROW_CALLER for a host with no form under strict_idna: the row goes
 * through func, which raises normalize's error. */
static int mapped_host_row(const batch_op *op, const uint8_t *p, size_t n, const pct_batch_info *info,
                           pct_out *out, size_t limit, pct_host_cache *hosts)
{
    const uint8_t *host = p + info->host.start, *form;
    size_t len = info->host.len, form_len = 0;
    uint8_t buf[PCT_HOST_CACHED], *heap = NULL;
    if (!hosts || !pct_host_cache_get(hosts, host, len, &form, &form_len)) {
        pct_status idna = pct_idna_host_form(host, len, buf, sizeof buf, &form, &form_len, &heap);
        if (idna == PCT_ERR_NO_MEMORY)
            return PCT_ERR_NO_MEMORY;
        if (idna != PCT_OK)
            form = NULL;
        if (hosts)
            pct_host_cache_put(hosts, host, len, form, form_len);
    }
    int rc;
    if (op->spec.op == PCT_BATCH_DOMAIN) /* the part of the form; none: func raises HostError */
    {
        /* no form: the row's error, made in C, unless the parser reads the
         * URL (its error then says why: func's) */
        rc = form ? pct_batch_domain_host(&op->spec, form, form_len, out, limit)
             : pct_domain_browser(p, n) ? PCT_ROW_CALLER
                                        : PCT_ROW_FAILED;
        if (rc == PCT_ROW_NULL && pct_domain_browser(p, n))
            rc = PCT_ROW_CALLER; /* a form ending in a number: the parser's reading (func) */
    }
    else
        rc = !form && op->strict_idna
                 ? PCT_ROW_CALLER
                 : pct_batch_normalize_host(&op->spec, p, n, info, form, form ? form_len : 0, out, limit);
    free(heap);
    return rc;
}

static int python_row(piece *pc, const uint8_t *p, size_t n, int64_t *position);

/* mapped_host_row for a row of a piece, with the piece's cache. */
static int host_row(piece *pc, const uint8_t *p, size_t n, const pct_batch_info *info)
{
    if (!pc->hosts && !(pc->hosts = pct_host_cache_new()))
        return PCT_ERR_NO_MEMORY;
    int rc = mapped_host_row(pc->op, p, n, info, pc->out, pc->limit, pc->hosts);
    return rc == PCT_ROW_CALLER ? python_row(pc, p, n, NULL) : rc;
}

/* The row through func, with the GIL held for it. */
static int python_row(piece *pc, const uint8_t *p, size_t n, int64_t *position)
{
    if (enter_python(pc) < 0)
        return PCT_ERR_NO_MEMORY;
    int rc = PCT_OK;
    PyObject *text = PyUnicode_DecodeUTF8((const char *)p, (Py_ssize_t)n, "strict"), *r = NULL;
    if (text && (pc->op->code == OP_RESOLVE || (pc->op->code == OP_URL && pc->row_base))) {
        PyObject *base = PyUnicode_DecodeUTF8((const char *)pc->row_base,
                                              (Py_ssize_t)pc->row_base_n, "strict");
        r = base ? call_func(pc->op, base, text) : NULL;
        Py_XDECREF(base);
    } else if (text) {
        r = PyObject_CallOneArg(pc->op->func, text);
    }
    Py_XDECREF(text);
    if (r && pc->op->code == OP_CHECK) {
        *position = r == Py_None ? -1 : PyLong_AsLongLong(r);
    } else if (r == Py_None && (pc->op->code == OP_DOMAIN || pc->op->code == OP_SUFFIX
                                || pc->op->code == OP_PARTS)) {
        rc = PCT_ROW_NULL; /* no such part (a host the parser read that is a suffix) */
    } else if (r && !PyUnicode_Check(r)) {
        PyErr_Format(PyExc_TypeError, "expected str, got %.200s", Py_TYPE(r)->tp_name);
    } else if (r) {
        Py_ssize_t len;
        const char *u = PyUnicode_AsUTF8AndSize(r, &len);
        if (u && (rc = pct_out_reserve(pc->out, (size_t)len, pc->limit)) == PCT_OK) {
            memcpy(pc->out->data + pc->out->len, u, (size_t)len);
            pc->out->len += (size_t)len;
        }
    }
    Py_XDECREF(r);
    if (PyErr_Occurred()) {
        pc->exc = PyErr_GetRaisedException_compat();
        rc = is_row_error(pc->op, pc->exc) ? PCT_ROW_REJECTED : PCT_ROW_PYTHON_ERROR;
    }
    leave_python(pc);
    return rc;
}

/* A row rejected under on_error "null" or "keep": its exception (pc->exc)
 * kept for the rejects list, and null or the input p[0..n) as its result. */
static int reject_row(piece *pc, int64_t r, const uint8_t *p, size_t n)
{
    if (!pc->exc && !pc->op->rejects) {
        /* a failed row with nothing to keep */
    } else if (pc->n_rejects == pc->rejects_cap) {
        size_t cap = pc->rejects_cap ? 2 * pc->rejects_cap : 16;
        struct reject *items = cap < SIZE_MAX / sizeof *items
                                   ? realloc(pc->rejects, cap * sizeof *items) : NULL;
        if (!items)
            return PCT_ERR_NO_MEMORY; /* pc->exc stays, for pieces_free */
        pc->rejects = items;
        pc->rejects_cap = cap;
    }
    if (pc->exc || pc->op->rejects) { /* exc NULL: a failed row's, made by add_rejects */
        pc->rejects[pc->n_rejects].row = r;
        pc->rejects[pc->n_rejects].exc = pc->exc;
        pc->n_rejects++;
        pc->exc = NULL;
    }
    int check = pc->op->code == OP_CHECK;
    if (pc->op->on_error == ON_ERROR_KEEP && !check) {
        int rc = pct_out_reserve(pc->out, n, pc->limit);
        if (rc != PCT_OK)
            return rc;
        if (n)
            memcpy(pc->out->data + pc->out->len, p, n);
        pc->out->len += n;
        pc->ends[r] = (int64_t)pc->out->len;
        pc->valid[r >> 3] |= (uint8_t)(1u << (r & 7));
    } else {
        pc->ends[r] = check ? -1 : (int64_t)pc->out->len;
    }
    return PCT_OK;
}

/* Row r of the piece (its text p[0..n)) after the core's outcome rc: the
 * work the core leaves to Python (IDNA, func), then its result. PCT_OK, or
 * the outcome that stops the piece. */
static int finish_row(piece *pc, int64_t r, int rc, const uint8_t *p, size_t n,
                      const pct_batch_info *info)
{
    int check = pc->op->code == OP_CHECK;
    int64_t position = -1;
    if (rc == PCT_ROW_NULL) { /* query_param_many: no such parameter */
        pc->ends[r] = (int64_t)pc->out->len;
        return PCT_OK;
    }
    if (rc == PCT_ROW_HOST)
        rc = host_row(pc, p, n, info);
    else if (rc == PCT_ROW_CALLER)
        rc = python_row(pc, p, n, &position);
    else if (rc == PCT_OK && check)
        position = info->position;
    if (rc == PCT_ROW_NULL) { /* DOMAIN: no such part, of the IDNA form or by func */
        pc->ends[r] = (int64_t)pc->out->len;
        return PCT_OK;
    }
    if (rc == PCT_ROW_FAILED) /* raising: func's own error; else the policy, the exception made later */
        rc = pc->op->on_error == ON_ERROR_RAISE ? python_row(pc, p, n, &position) : PCT_ROW_REJECTED;
    if (rc == PCT_ROW_REJECTED)
        return reject_row(pc, r, p, n);
    if (rc != PCT_OK)
        return rc;
    if (check && position < 0) {
        pc->ends[r] = -1;
        return PCT_OK;
    }
    pc->ends[r] = check ? position : (int64_t)pc->out->len;
    pc->valid[r >> 3] |= (uint8_t)(1u << (r & 7));
    return PCT_OK;
}

/* Rows r0 .. r0 + count - 1 of the array into pc->out. Offset columns go
 * to the core a run of rows at a time (pct_batch_rows stops at a row it
 * leaves to the caller, which is done here, and the run resumes after it);
 * views and all-Python operations row by row. PCT_OK, or the outcome of
 * the row that stops it (pc->err_row). */
static int run_chunk(piece *pc, int64_t r0, int64_t count)
{
    const batch_op *op = pc->op;
    const pct_arrow_strings *in = pc->in;
    int check = op->code == OP_CHECK;
    pct_rows whole = {in->kind == 'u' ? 4 : 8, in->index, NULL, in->validity, in->offset};
    int by_runs = !op->all_python && (in->kind == 'u' || in->kind == 'U') && in->data
                  && !op->bases;
    if (by_runs)
        whole.data = in->data[0];
    pc->row_base = op->spec.base; /* RESOLVE: one base for all, or the column's below */
    pc->row_base_n = op->spec.base_len;
    int64_t end = r0 + count;
    for (int64_t r = r0; r < end; r++) {
        const uint8_t *p = NULL;
        size_t n = 0;
        pct_batch_info info;
        int rc;
        if (op->bases) { /* RESOLVE over a base column: null when either is */
            rc = pct_arrow_row(in, r, &p, &n);
            int got = rc > 0 ? pct_arrow_row(op->bases, r, &pc->row_base, &pc->row_base_n) : rc;
            if (rc == 0 || got == 0) {
                pc->ends[r] = (int64_t)pc->out->len;
                continue;
            }
            rc = rc < 0 || got < 0 ? PCT_ROW_MALFORMED
               : op->all_python ? PCT_ROW_CALLER
                                : pct_batch_resolve_row(&op->spec, pc->row_base, pc->row_base_n, p,
                                                        n, pc->out, pc->limit, &info);
        } else if (by_runs) {
            r += pct_batch_rows(&op->spec, &whole, r, end - r, r, pc->out, pc->limit, pc->ends,
                                pc->valid, &rc, &info, pc->hosts);
            if (r == end)
                break;
            if (rc != PCT_ROW_MALFORMED)
                pct_rows_get(&whole, r, &p, &n); /* the row it left */
        } else {
            rc = pct_arrow_row(in, r, &p, &n);
            if (rc == 0) {
                pc->ends[r] = check ? -1 : (int64_t)pc->out->len;
                continue;
            }
            rc = rc < 0 ? PCT_ROW_MALFORMED
               : op->all_python ? PCT_ROW_CALLER
                                : pct_batch_row(&op->spec, p, n, pc->out, pc->limit, &info);
        }
        if (rc != PCT_ROW_MALFORMED)
            rc = finish_row(pc, r, rc, p, n, &info);
        if (rc != PCT_OK) {
            pc->err_row = r;
            return rc;
        }
    }
    return PCT_OK;
}

/* Appends the chunk's rows r0 .. r0 + count - 1, written in pc->scratch,
 * to the result (on the chunk's turn: no other thread touches it). */
static int append_chunk(piece *pc, int64_t r0, int64_t count)
{
    pct_out *res = &pc->run->res->out;
    size_t base = res->len, len = pc->scratch.len;
    pct_status rc = out_reserve_big(res, len, pc->limit);
    if (rc != PCT_OK) {
        /* the row whose end passes the limit */
        for (pc->err_row = r0; pc->err_row < r0 + count - 1; pc->err_row++)
            if ((size_t)pc->ends[pc->err_row] > pc->limit - base)
                break;
        return (int)rc;
    }
    stream_copy(res->data + base, pc->scratch.data, len);
    res->len += len;
    for (int64_t r = r0; r < r0 + count; r++)
        pc->ends[r] += (int64_t)base;
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
        int64_t r0 = c * run->chunk_rows, rows = run->res->rows;
        int64_t count = rows - r0 < run->chunk_rows ? rows - r0 : run->chunk_rows;
        pc->scratch.len = 0;
        int rc = run_chunk(pc, r0, count), stop = 0;
        if (rc == PCT_OK && run->turns) {
            if (c > 0)
                PyThread_acquire_lock(run->turns[c], WAIT_LOCK);
            if (run_failed(run, 0))
                stop = 1; /* an earlier chunk failed: this one is not appended */
            else
                rc = append_chunk(pc, r0, count);
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

typedef struct {
    result *items;
    int n, cap;
} result_list;

static void results_free(result_list *rl)
{
    for (int k = 0; k < rl->n; k++) {
        big_free(rl->items[k].ends);
        free(rl->items[k].valid);
        pct_out_free(&rl->items[k].out);
    }
    free(rl->items);
    rl->items = NULL;
    rl->n = rl->cap = 0;
}

static void pieces_free(piece *pcs, int np, shared_run *run)
{
    for (int k = 0; k < np; k++) {
        pct_out_free(&pcs[k].scratch);
        pct_host_cache_free(pcs[k].hosts);
        Py_XDECREF(pcs[k].exc);
        for (size_t j = 0; j < pcs[k].n_rejects; j++)
            Py_XDECREF(pcs[k].rejects[j].exc);
        free(pcs[k].rejects);
    }
    free(pcs);
    if (run->turns) {
        for (int64_t c = 1; c < run->nchunks; c++)
            if (run->turns[c])
                PyThread_free_lock(run->turns[c]);
        free(run->turns);
    }
    if (run->queue)
        PyThread_free_lock(run->queue);
}

static int reject_order(const void *a, const void *b)
{
    int64_t x = ((const struct reject *)a)->row, y = ((const struct reject *)b)->row;
    return (x > y) - (x < y);
}

/* The rejects of every piece to op->rejects, in row order (each piece's
 * exceptions taken). */
static int add_rejects(const batch_op *op, const pct_arrow_strings *in, piece *pcs, int np, int64_t base)
{
    size_t total = 0, at = 0;
    for (int k = 0; k < np; k++)
        total += pcs[k].n_rejects;
    if (!total)
        return 0;
    struct reject *all = total <= SIZE_MAX / sizeof *all ? malloc(total * sizeof *all) : NULL;
    if (!all) {
        PyErr_NoMemory();
        return -1;
    }
    for (int k = 0; k < np; k++) {
        if (pcs[k].n_rejects)
            memcpy(all + at, pcs[k].rejects, pcs[k].n_rejects * sizeof *all);
        at += pcs[k].n_rejects;
        pcs[k].n_rejects = 0; /* taken */
    }
    qsort(all, total, sizeof *all, reject_order);
    int rc = 0;
    for (size_t j = 0; j < total; j++) {
        PyObject *exc = all[j].exc;
        if (rc < 0) {
            Py_XDECREF(exc);
            continue;
        }
        const uint8_t *p = NULL;
        size_t n = 0;
        PyObject *value = pct_arrow_row(in, all[j].row, &p, &n) > 0
                              ? PyUnicode_DecodeUTF8((const char *)p, (Py_ssize_t)n, "surrogateescape")
                              : NULL;
        if (value && !exc && !(exc = failed_row_exception(op, value))) {
            Py_DECREF(value);
            value = NULL; /* its error stands */
            exc = Py_NewRef(Py_None);
        }
        rc = value ? add_reject(op, (Py_ssize_t)(base + all[j].row), value, exc) : (Py_DECREF(exc), -1);
        Py_XDECREF(value);
        if (rc < 0 && !PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "malformed Arrow array: a rejected row is gone");
    }
    free(all);
    return rc;
}

/* 1 when the piece stopped for what stops a run under any on_error: a
 * BaseException that is not an Exception (KeyboardInterrupt, SystemExit),
 * a MemoryError, or a lack of memory of the core's. */
static int stops_run(const piece *pc)
{
    if (pc->status == PCT_ERR_INTERRUPTED)
        return 2; /* before any row's error: Ctrl-C is the caller's */
    if (pc->status == PCT_ERR_NO_MEMORY)
        return 1;
    return pc->status == PCT_ROW_PYTHON_ERROR && pc->exc
           && (!PyErr_GivenExceptionMatches(pc->exc, PyExc_Exception)
               || PyErr_GivenExceptionMatches(pc->exc, PyExc_MemoryError));
}

/* Chunks per thread: enough that a busy core's share is taken by the
 * others, few enough that each is long (and its scratch stays in cache). */
#define CHUNKS_PER_THREAD 32
/* and at most this many rows, so that the caller's thread, which checks
 * for signals between its chunks, is never long in one (a row done by
 * Python takes a few microseconds: a chunk of them some tens of ms). */
#define MAX_CHUNK_ROWS 8192

/* Runs the rows of `in` on up to `threads` threads into a result appended
 * to rl; on an error raises it for the first failing row (base: the index
 * of in's first row in the whole column). */
static int run_array(PyObject *module, const batch_op *op, const pct_arrow_strings *in, int threads,
                     int64_t base, result_list *rl)
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
    if (rl->n == rl->cap) {
        int cap = rl->cap < INT32_MAX / 4 ? 2 * rl->cap + 1 : -1;
        result *items = cap > 0 ? realloc(rl->items, (size_t)cap * sizeof *items) : NULL;
        if (!items) {
            PyErr_NoMemory();
            return -1;
        }
        rl->items = items;
        rl->cap = cap;
    }
    result *res = &rl->items[rl->n++];
    int check = op->code == OP_CHECK;
    size_t rows = (size_t)in->length;
    res->rows = in->length;
    /* a 32-bit size_t cannot count every row's end: no memory for them */
    int fits = (uint64_t)in->length <= SIZE_MAX / sizeof *res->ends;
    res->ends = fits ? big_malloc(rows * sizeof *res->ends) : NULL;
    res->valid = fits ? calloc(rows / 8 + 1, 1) : NULL;
    pct_out_init(&res->out);
    size_t limit = in->kind == 'U' ? (size_t)PY_SSIZE_T_MAX : (size_t)INT32_MAX;
    shared_run run;
    memset(&run, 0, sizeof run);
    run.res = res;
    /* a multiple of 8 rows: chunks share no byte of valid */
    run.chunk_rows = (in->length / (np * CHUNKS_PER_THREAD) + 8) & ~(int64_t)7;
    if (run.chunk_rows > MAX_CHUNK_ROWS)
        run.chunk_rows = MAX_CHUNK_ROWS; /* the caller's thread polls for Ctrl-C between chunks */
    run.nchunks = run.chunk_rows ? (in->length + run.chunk_rows - 1) / run.chunk_rows : 0;
    int ordered = np > 1 && !check; /* the chunks' bytes appended in turn */
    piece *pcs = calloc((size_t)np, sizeof *pcs);
    int failed = !pcs || !res->ends || !res->valid || !(run.queue = PyThread_allocate_lock());
    if (!failed && ordered) {
        run.turns = calloc((size_t)run.nchunks + 1, sizeof *run.turns);
        failed = !run.turns;
        for (int64_t c = 1; !failed && c < run.nchunks; c++)
            failed = !(run.turns[c] = PyThread_allocate_lock())
                     || !PyThread_acquire_lock(run.turns[c], WAIT_LOCK);
    }
    if (failed) {
        if (pcs)
            pieces_free(pcs, 0, &run);
        else if (run.queue)
            PyThread_free_lock(run.queue);
        PyErr_NoMemory();
        return -1;
    }
    /* most results are about as long as their text: room for that at once
     * saves the copies of growing (a hint only: failing here is no error) */
    size_t hint = check ? 0 : pct_arrow_span(in, 0, in->length);
    if (hint && hint <= limit - hint / 8)
        out_reserve_big(&res->out, hint + hint / 8, limit);
    PyInterpreterState *interp = PyThreadState_GetInterpreter(PyThreadState_Get());
    for (int k = 0; k < np; k++) {
        piece *pc = &pcs[k];
        pc->op = op;
        pc->in = in;
        pc->run = &run;
        pc->limit = limit;
        pc->ends = res->ends;
        pc->valid = res->valid;
        pct_out_init(&pc->scratch);
        pc->out = np > 1 ? &pc->scratch : &res->out;
        pc->interp = interp;
    }
    sig_gate gate;
    sig_gate_init(&gate);
    pcs[0].gate = &gate;
    PyThreadState *main = PyEval_SaveThread();
    run_pieces(pcs, np, main);
    PyEval_RestoreThread(main);
    /* the lowest failing row's error, but an interrupt, an exit or a lack
     * of memory first, whichever row met it */
    piece *first = NULL;
    int first_stops = 0;
    for (int k = 0; k < np; k++) {
        if (pcs[k].status == PCT_OK)
            continue;
        int stops = stops_run(&pcs[k]);
        if (!first || stops > first_stops || (stops == first_stops && pcs[k].err_row < first->err_row)) {
            first = &pcs[k];
            first_stops = stops;
        }
    }
    if (first && first->status == PCT_ERR_INTERRUPTED) {
        PyErr_SetRaisedException_compat(first->exc); /* the handler's, as it raised it */
        first->exc = NULL;
        pieces_free(pcs, np, &run);
        return -1;
    }
    if (first) {
        if (first->status == PCT_ROW_PYTHON_ERROR) {
            PyErr_SetRaisedException_compat(first->exc);
            first->exc = NULL;
        } else {
            raise_status(first->status);
        }
        raise_at(module, (Py_ssize_t)(base + first->err_row));
        pieces_free(pcs, np, &run);
        return -1;
    }
    int rc = add_rejects(op, in, pcs, np, base);
    pieces_free(pcs, np, &run);
    return rc;
}

/* ---------------------------------------------------------------------------
 * Arrow output.
 */
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

/* RESOLVE's base column: a (schema capsule, array capsule) pair of a
 * string array as long as `in`. */
static int base_strings(PyObject *pair, const pct_arrow_strings *in, const char *fname, int64_t base,
                        pct_arrow_strings *bases)
{
    struct ArrowSchema *schema;
    struct ArrowArray *array;
    PyObject *sizes;
    char kind = 0;
    if (arrow_import(pair, fname, &schema, &array, &sizes) < 0 || !(kind = schema_kind(schema, fname))
        || strings_init(bases, kind, array, sizes, base) < 0) /* checked as the references are */
        return -1;
    if (bases->length != in->length) {
        PyErr_Format(PyExc_ValueError, "%s() needs as many bases as references (%lld, not %lld)",
                     fname, (long long)in->length, (long long)bases->length);
        return -1;
    }
    return 0;
}

/* (schema capsule, array capsule) of the pieces put together (their data
 * taken). */
static PyObject *result_capsules(result_list *rl, char kind)
{
    arrow_piece *parts = malloc((size_t)(rl->n ? rl->n : 1) * sizeof *parts);
    if (!parts)
        return PyErr_NoMemory();
    for (int k = 0; k < rl->n; k++) {
        result *res = &rl->items[k];
        arrow_piece part = {res->rows, res->ends, res->valid, res->out.data, res->out.len};
        parts[k] = part;
        res->out.data = NULL; /* taken */
    }
    PyObject *r = pieces_capsules(parts, rl->n, kind);
    for (int k = 0; k < rl->n; k++) { /* what arrow_build took is NULL */
        rl->items[k].ends = parts[k].ends;
        rl->items[k].valid = parts[k].valid;
    }
    free(parts);
    return r;
}

PyDoc_STRVAR(many_arrow_doc,
"_many_arrow($module, source, op, func, safe, encoding, errors, opts, on_error, rejects, threads, base, /)\n--\n\n"
"The batch operation `op` over an Arrow array, `source` a (schema capsule,\n"
"array capsule) pair (and a tuple of its buffers' sizes when they are\n"
"known, -1 for one that is not), or over an Arrow stream capsule. Returns the result\n"
"as a (schema capsule, array capsule) pair of one array; `base` is the index\n"
"of the first row in error messages.");

static PyObject *py_many_arrow(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    batch_op op;
    if (setup_op(module, args, nargs, 2, "_many_arrow", &op) < 0)
        return NULL;
    const char *fname = OP_NAMES[op.code];
    long threads = PyLong_AsLong(args[1 + N_OP_ARGS]);
    if (threads == -1 && PyErr_Occurred())
        return NULL;
    if (threads > MAX_THREADS)
        threads = MAX_THREADS;
    if (threads < -MAX_THREADS)
        threads = -MAX_THREADS;
    int64_t base = PyLong_AsLongLong(args[2 + N_OP_ARGS]);
    if (base == -1 && PyErr_Occurred())
        return NULL;
    PyObject *source = args[0], *result = NULL;
    result_list rl = {NULL, 0, 0};
    char kind = 0;
    if (PyTuple_Check(source) && (PyTuple_GET_SIZE(source) == 2 || PyTuple_GET_SIZE(source) == 3)) {
        struct ArrowSchema *schema;
        struct ArrowArray *array;
        PyObject *sizes;
        pct_arrow_strings in, bases;
        if (arrow_import(source, fname, &schema, &array, &sizes) < 0 || !(kind = schema_kind(schema, fname)) || strings_init(&in, kind, array, sizes, base) < 0
            || (op.base_column && base_strings(op.base_column, &in, fname, base, &bases) < 0))
            goto done;
        if (op.base_column)
            op.bases = &bases;
        if (run_array(module, &op, &in, (int)threads, base, &rl) < 0)
            goto done;
    } else {
        if (op.base_column) {
            PyErr_Format(PyExc_TypeError, "%s() takes its base column as one array", fname);
            goto done;
        }
        struct ArrowArrayStream *stream = PyCapsule_GetPointer(source, "arrow_array_stream");
        struct ArrowSchema schema;
        if (!stream)
            goto done;
        if (!stream->release) {
            PyErr_Format(PyExc_ValueError,
                         "%s(): the Arrow stream was released already (a capsule is consumed once)",
                         fname);
            goto done;
        }
        if (stream->get_schema(stream, &schema) != 0) {
            const char *msg = stream->get_last_error(stream);
            PyErr_Format(PyExc_OSError, "Arrow stream: %s", msg ? msg : "no schema");
            goto done;
        }
        kind = schema_kind(&schema, fname);
        schema.release(&schema);
        if (!kind)
            goto done;
        for (;;) {
            struct ArrowArray array;
            if (stream->get_next(stream, &array) != 0) {
                const char *msg = stream->get_last_error(stream);
                PyErr_Format(PyExc_OSError, "Arrow stream: %s", msg ? msg : "no next array");
                goto done;
            }
            if (!array.release)
                break; /* the end */
            pct_arrow_strings in;
            int failed = strings_init(&in, kind, &array, NULL, base) < 0
                         || run_array(module, &op, &in, (int)threads, base, &rl) < 0;
            base += array.length;
            array.release(&array);
            if (failed)
                goto done;
        }
    }
    result = result_capsules(&rl, op.code == OP_CHECK ? 'l' : kind);
done:
    results_free(&rl);
    return result;
}

PyMethodDef batch_methods[] = {
    {"_many_list", (PyCFunction)(void (*)(void))py_many_list, METH_FASTCALL, many_list_doc},
    {"_many_arrow", (PyCFunction)(void (*)(void))py_many_arrow, METH_FASTCALL, many_arrow_doc},
    {NULL, NULL, 0, NULL},
};
