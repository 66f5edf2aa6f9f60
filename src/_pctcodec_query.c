/* query_param and clean_query on one str: the batch core's row
 * (src/core/pct_batch.c, pct_query.c) on its UTF-8 text. The public
 * functions, which check the arguments and compile the patterns, are in
 * src/pctcodec/query.py. */
#include "_pctcodec.h" /* first: Python.h before the standard headers */
#include <string.h>

#include "_pctcodec_batch.h"
#include "pct_authority.h"
#include "pct_batch.h"
#include "pct_canon.h"
#include "pct_uri.h"

/* The UTF-8 text of the str uri in *p, *n (*owner: a bytes holding it, or
 * NULL). A lone surrogate (no UTF-8 form) raises PercentEncodingError at it. */
static int utf8_of(PyObject *module, PyObject *uri, const char *fname, PyObject **owner,
                   const uint8_t **p, size_t *n)
{
    *owner = NULL;
    if (!PyUnicode_Check(uri)) {
        PyErr_Format(PyExc_TypeError, "%s() argument must be str, not %.200s", fname,
                     Py_TYPE(uri)->tp_name);
        return -1;
    }
    if (PyUnicode_IS_ASCII(uri)) {
        *p = PyUnicode_1BYTE_DATA(uri);
        *n = (size_t)PyUnicode_GET_LENGTH(uri);
        return 0;
    }
    if (!(*owner = PyUnicode_AsUTF8String(uri))) {
        if (PyErr_ExceptionMatches(PyExc_UnicodeEncodeError))
            raise_surrogate_error(module, uri);
        return -1;
    }
    *p = (const uint8_t *)PyBytes_AS_STRING(*owner);
    *n = (size_t)PyBytes_GET_SIZE(*owner);
    return 0;
}

/* The row of `spec` for the str uri: a str, or None for PCT_ROW_NULL and
 * for a row the core leaves to the caller (canonicalize's Python path). */
static PyObject *one_row(PyObject *module, PyObject *uri, const pct_batch_spec *spec,
                         const char *fname)
{
    PyObject *owner, *r = NULL;
    const uint8_t *p;
    size_t n;
    if (utf8_of(module, uri, fname, &owner, &p, &n) < 0)
        return NULL;
    pct_buf out;
    pct_batch_info info;
    pct_buf_init(&out);
    int rc = pct_batch_row(spec, p, n, &out, (size_t)PY_SSIZE_T_MAX, &info);
    if (rc == PCT_ROW_NULL || rc == PCT_ROW_CALLER || rc == PCT_ROW_HOST)
        r = Py_NewRef(Py_None);
    else if (rc == PCT_ERR_NO_MEMORY)
        PyErr_NoMemory();
    else if (rc != PCT_OK)
        pct_py_too_long();
    else if (spec->op == PCT_BATCH_CLEAN_QUERY && out.len == n && PyUnicode_CheckExact(uri)
             && (n == 0 || memcmp(out.data, p, n) == 0))
        r = Py_NewRef(uri); /* unchanged: no new str */
    else
        r = PyUnicode_DecodeUTF8((const char *)out.data, (Py_ssize_t)out.len, "strict");
    pct_buf_free(&out);
    Py_XDECREF(owner);
    return r;
}

PyDoc_STRVAR(query_param_doc,
"_query_param($module, uri, name, /)\n--\n\n"
"The first value of the parameter `name` (UTF-8 bytes) in uri's query,\n"
"decoded, or None; see pctcodec.query.query_param.");

static PyObject *py_query_param(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2 || !PyBytes_Check(args[1])) {
        PyErr_SetString(PyExc_TypeError, "_query_param() takes a str and a bytes name");
        return NULL;
    }
    pct_batch_spec spec;
    memset(&spec, 0, sizeof spec);
    spec.op = PCT_BATCH_QUERY_PARAM;
    spec.name = (const uint8_t *)PyBytes_AS_STRING(args[1]);
    spec.name_len = (size_t)PyBytes_GET_SIZE(args[1]);
    return one_row(module, args[0], &spec, "query_param");
}

PyDoc_STRVAR(clean_query_doc,
"_clean_query($module, uri, drop, keep, sort, /)\n--\n\n"
"uri without the query parameters the compiled pattern sets drop (bytes)\n"
"and keep (bytes, or None: all) reject; see pctcodec.query.clean_query.");

static PyObject *py_clean_query(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 4 || !PyBytes_Check(args[1]) || (args[2] != Py_None && !PyBytes_Check(args[2]))) {
        PyErr_SetString(PyExc_TypeError, "_clean_query() takes a str, bytes, bytes or None, and a flag");
        return NULL;
    }
    long opts = PyLong_AsLong(args[3]);
    if (opts == -1 && PyErr_Occurred())
        return NULL;
    pct_batch_spec spec;
    memset(&spec, 0, sizeof spec);
    spec.op = PCT_BATCH_CLEAN_QUERY;
    spec.filter.drop = (const uint8_t *)PyBytes_AS_STRING(args[1]);
    spec.filter.drop_len = (size_t)PyBytes_GET_SIZE(args[1]);
    if (args[2] != Py_None) {
        spec.filter.has_keep = 1;
        spec.filter.keep = (const uint8_t *)PyBytes_AS_STRING(args[2]);
        spec.filter.keep_len = (size_t)PyBytes_GET_SIZE(args[2]);
    }
    spec.filter.sort = (opts & 1) != 0;
    spec.filter.ignore_case = (opts & 8) != 0; /* the bits of canonicalize's options */
    spec.filter.keep_ignore_case = (opts & 64) != 0;
    spec.filter.html_amp = (opts & 16) != 0;
    pct_query_filter_init(&spec.filter);
    return one_row(module, args[0], &spec, "clean_query");
}

/* The packed options of canonicalize (as _pctcodec_batch.c reads them). */
#define OPT_DROP_FRAGMENT 2
#define OPT_STRIP_SPACE 4

static int canon_args(PyObject *const *args, Py_ssize_t nargs, const char *fname, long *opts)
{
    if (nargs != 4 || !PyBytes_Check(args[1]) || (args[2] != Py_None && !PyBytes_Check(args[2]))) {
        PyErr_Format(PyExc_TypeError, "%s() takes a str, bytes, bytes or None, and options", fname);
        return -1;
    }
    *opts = PyLong_AsLong(args[3]);
    return *opts == -1 && PyErr_Occurred() ? -1 : 0;
}

PyDoc_STRVAR(canonicalize_doc,
"_canonicalize($module, uri, drop, keep, opts, /)\n--\n\n"
"The deduplication key of uri in one pass, or None when the row needs\n"
"Python (whitespace to strip, a host for IDNA): normalize() it, then\n"
"_canon_key(); see pctcodec.query.canonicalize.");

static PyObject *py_canonicalize(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    long opts;
    if (canon_args(args, nargs, "_canonicalize", &opts) < 0)
        return NULL;
    pct_batch_spec spec;
    memset(&spec, 0, sizeof spec);
    spec.op = PCT_BATCH_CANONICALIZE;
    spec.flags = PCT_URI_NORMALIZE | (opts & OPT_DROP_FRAGMENT ? PCT_URI_DROP_FRAGMENT : 0);
    spec.strip = (opts & OPT_STRIP_SPACE) != 0;
    batch_canon_init(&spec.canon, args[1], args[2], opts);
    return one_row(module, args[0], &spec, "canonicalize");
}

PyDoc_STRVAR(web_slashes_doc,
"_web_slashes($module, uri, strip, /)\n--\n\n"
"The UTF-8 bytes uri as canonicalize reads them: stripped as the URL\n"
"Standard strips input (with strip), then each '\\\\' before the query of a\n"
"special scheme's URL made '/' (pct_special_slashes), then the escapes of\n"
"sub-delims in its non-ASCII host decoded (pct_canon_host_unescape).");

static PyObject *py_web_slashes(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 2 || !PyBytes_Check(args[0])) {
        PyErr_SetString(PyExc_TypeError, "_web_slashes() takes bytes and a flag");
        return NULL;
    }
    int strip = PyObject_IsTrue(args[1]);
    if (strip < 0)
        return NULL;
    const uint8_t *src = (const uint8_t *)PyBytes_AS_STRING(args[0]);
    size_t n = (size_t)PyBytes_GET_SIZE(args[0]), len = n;
    uint8_t *d = PyMem_Malloc(n ? n : 1);
    if (!d)
        return PyErr_NoMemory();
    if (strip)
        len = pct_uri_strip(src, n, d);
    else if (n)
        memcpy(d, src, n);
    pct_special_slashes(d, len);
    len = pct_canon_host_unescape(d, len);
    PyObject *r = PyBytes_FromStringAndSize((const char *)d, (Py_ssize_t)len);
    PyMem_Free(d);
    return r;
}

PyDoc_STRVAR(canon_key_doc,
"_canon_key($module, normalized, drop, keep, opts, /)\n--\n\n"
"The key of a URI normalize() wrote (an ASCII str): its query filtered and\n"
"sorted, then the key's options (pct_canon_key).");

static PyObject *py_canon_key(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    long opts;
    if (canon_args(args, nargs, "_canon_key", &opts) < 0)
        return NULL;
    PyObject *s = args[0];
    if (!PyUnicode_Check(s) || !PyUnicode_IS_ASCII(s)) {
        PyErr_SetString(PyExc_TypeError, "_canon_key() needs an ASCII str");
        return NULL;
    }
    pct_canon canon;
    batch_canon_init(&canon, args[1], args[2], opts);
    size_t n = (size_t)PyUnicode_GET_LENGTH(s), len = 0;
    uint8_t *buf = PyMem_Malloc(n ? n : 1);
    if (!buf)
        return PyErr_NoMemory();
    PyObject *r = NULL;
    if (pct_canon_key(PyUnicode_1BYTE_DATA(s), n, &canon, buf, &len) != PCT_OK)
        PyErr_NoMemory();
    else if ((r = PyUnicode_New((Py_ssize_t)len, 127)) && len)
        memcpy(PyUnicode_1BYTE_DATA(r), buf, len);
    PyMem_Free(buf);
    return r;
}

/* The decoded raw[0..n) as a str (out is scratch). */
static PyObject *decoded(const pct_batch_spec *unq, const uint8_t *raw, size_t n, pct_buf *out)
{
    pct_batch_info info;
    out->len = 0;
    int rc = pct_batch_row(unq, raw, n, out, (size_t)PY_SSIZE_T_MAX, &info);
    if (rc == PCT_ERR_NO_MEMORY)
        return PyErr_NoMemory();
    if (rc != PCT_OK)
        return pct_py_too_long();
    return PyUnicode_DecodeUTF8((const char *)out->data, (Py_ssize_t)out->len, "strict");
}

PyDoc_STRVAR(parse_query_doc,
"_parse_query($module, uri, opts, /)\n--\n\n"
"Every (name, value) of uri's query, decoded; opts: 1 keeps '+', 2 reads\n"
"'&amp;' as '&'. See pctcodec.query.parse_query.");

static PyObject *py_parse_query(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "_parse_query() takes a str and options");
        return NULL;
    }
    long opts = PyLong_AsLong(args[1]);
    if (opts == -1 && PyErr_Occurred())
        return NULL;
    PyObject *owner;
    const uint8_t *p;
    size_t n;
    if (utf8_of(module, args[0], "parse_query", &owner, &p, &n) < 0)
        return NULL;
    pct_batch_spec unq;
    memset(&unq, 0, sizeof unq);
    unq.op = PCT_BATCH_UNQUOTE;
    unq.plus = !(opts & 1);
    unq.malformed = PCT_BATCH_REPLACE;
    pct_buf out;
    pct_buf_init(&out);
    PyObject *result = PyList_New(0);
    pct_range q, name, value;
    if (result && pct_query_locate(p, n, &q)) {
        const uint8_t *qs = p + q.start;
        size_t at = 0;
        while (pct_query_next(qs, q.len, &at, (opts & 2) != 0, &name, &value)) {
            PyObject *k = decoded(&unq, qs + name.start, name.len, &out);
            PyObject *v = k ? decoded(&unq, qs + value.start, value.len, &out) : NULL;
            PyObject *t = v ? PyTuple_Pack(2, k, v) : NULL;
            Py_XDECREF(k);
            Py_XDECREF(v);
            if (!t || PyList_Append(result, t) < 0) {
                Py_XDECREF(t);
                Py_CLEAR(result);
                break;
            }
            Py_DECREF(t);
        }
    }
    pct_buf_free(&out);
    Py_XDECREF(owner);
    return result;
}

PyMethodDef query_methods[] = {
    {"_canonicalize", (PyCFunction)(void (*)(void))py_canonicalize, METH_FASTCALL, canonicalize_doc},
    {"_canon_key", (PyCFunction)(void (*)(void))py_canon_key, METH_FASTCALL, canon_key_doc},
    {"_web_slashes", (PyCFunction)(void (*)(void))py_web_slashes, METH_FASTCALL, web_slashes_doc},
    {"_parse_query", (PyCFunction)(void (*)(void))py_parse_query, METH_FASTCALL, parse_query_doc},
    {"_query_param", (PyCFunction)(void (*)(void))py_query_param, METH_FASTCALL, query_param_doc},
    {"_clean_query", (PyCFunction)(void (*)(void))py_clean_query, METH_FASTCALL, clean_query_doc},
    {NULL, NULL, 0, NULL},
};
