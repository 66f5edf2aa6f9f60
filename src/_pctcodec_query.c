/* query_param and clean_query on one str: the batch core's row
 * (src/core/pct_batch.c, pct_query.c) on its UTF-8 text. The public
 * functions, which check the arguments and compile the patterns, are in
 * src/pctcodec/query.py. */
#include <string.h>

#include "_pctcodec.h"
#include "pct_batch.h"

/* The row of `spec` for the str uri: a str, or None for PCT_ROW_NULL. A
 * lone surrogate (no UTF-8 form) raises PercentEncodingError at it. */
static PyObject *one_row(PyObject *module, PyObject *uri, const pct_batch_spec *spec,
                         const char *fname)
{
    if (!PyUnicode_Check(uri)) {
        PyErr_Format(PyExc_TypeError, "%s() argument must be str, not %.200s", fname,
                     Py_TYPE(uri)->tp_name);
        return NULL;
    }
    PyObject *owner = NULL, *r = NULL;
    const uint8_t *p;
    size_t n;
    if (PyUnicode_IS_ASCII(uri)) {
        p = PyUnicode_1BYTE_DATA(uri);
        n = (size_t)PyUnicode_GET_LENGTH(uri);
    } else {
        if (!(owner = PyUnicode_AsUTF8String(uri))) {
            if (PyErr_ExceptionMatches(PyExc_UnicodeEncodeError))
                raise_surrogate_error(module, uri);
            return NULL;
        }
        p = (const uint8_t *)PyBytes_AS_STRING(owner);
        n = (size_t)PyBytes_GET_SIZE(owner);
    }
    pct_out out;
    pct_batch_info info;
    pct_out_init(&out);
    int rc = pct_batch_row(spec, p, n, &out, (size_t)PY_SSIZE_T_MAX, &info);
    if (rc == PCT_ROW_NULL)
        r = Py_NewRef(Py_None);
    else if (rc == PCT_ERR_NO_MEMORY)
        PyErr_NoMemory();
    else if (rc != PCT_OK)
        too_long();
    else if (spec->op == PCT_BATCH_CLEAN_QUERY && out.len == n && PyUnicode_CheckExact(uri)
             && (n == 0 || memcmp(out.data, p, n) == 0))
        r = Py_NewRef(uri); /* unchanged: no new str */
    else
        r = PyUnicode_DecodeUTF8((const char *)out.data, (Py_ssize_t)out.len, "strict");
    pct_out_free(&out);
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
    int sort = PyObject_IsTrue(args[3]);
    if (sort < 0)
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
    spec.filter.sort = sort;
    pct_query_filter_init(&spec.filter);
    return one_row(module, args[0], &spec, "clean_query");
}

PyMethodDef query_methods[] = {
    {"_query_param", (PyCFunction)(void (*)(void))py_query_param, METH_FASTCALL, query_param_doc},
    {"_clean_query", (PyCFunction)(void (*)(void))py_clean_query, METH_FASTCALL, clean_query_doc},
    {NULL, NULL, 0, NULL},
};
